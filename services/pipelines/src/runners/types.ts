/** GitLab's runner scopes (`Ci::Runner.runner_types`). */
export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
export type RunnerType = (typeof RUNNER_TYPES)[number];

/** GitLab's runner access levels (`Ci::Runner.access_levels`). */
export const ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const;
export type RunnerAccessLevel = (typeof ACCESS_LEVELS)[number];

/** A runner as the domain sees it (its token only ever as a digest). */
export interface Runner {
  id: number;
  runnerType: RunnerType;
  projectId: number | null;
  groupId: number | null;
  groupFullPath: string | null;
  description: string;
  maintenanceNote: string | null;
  tagList: string[];
  runUntagged: boolean;
  locked: boolean;
  paused: boolean;
  accessLevel: RunnerAccessLevel;
  maximumTimeout: number | null;
  creationState: 'started' | 'finished';
  creatorId: number | null;
  contactedAt: Date | null;
  createdAt: Date;
}

/** What creating a runner takes (GitLab's `POST /user/runners` attributes). */
export interface NewRunner {
  runnerType: RunnerType;
  projectId?: number;
  groupId?: number;
  groupFullPath?: string;
  description?: string;
  maintenanceNote?: string;
  tagList?: string[];
  runUntagged?: boolean;
  locked?: boolean;
  paused?: boolean;
  accessLevel?: RunnerAccessLevel;
  maximumTimeout?: number;
  creatorId: number;
}
