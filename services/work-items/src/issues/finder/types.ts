import type { Knex } from 'knex';
import type { Viewer } from '../../access/viewer';
import type { IssueFilters } from './filters';

/** Which issues a list starts from: one project, a group with its subgroups, or the instance. */
export type FinderParent =
  | { kind: 'project'; projectId: number; level: number }
  | { kind: 'group'; groupId: number }
  | { kind: 'none' };

/** What every filter step sees. */
export interface FinderScope {
  knex: Knex;
  viewer: Viewer;
  parent: FinderParent;
  /** `YYYY-MM-DD` today (UTC), fixed for the whole query. */
  today: string;
  /** Ids looked up before the query (`IssueFinder.resolveNames`); absent, the steps use subqueries. */
  names?: ResolvedNames;
  /** The list's projects looked up before the query (`IssueFinder.resolveProjects`): then no step joins `projects`. */
  projects?: ResolvedProjects;
}

/**
 * The projects a group or instance list reads, looked up once per request for a signed-in
 * non-administrator: every readable, undeleted project of the parent (unarchived under
 * `non_archived`), and those among them where the viewer sees every confidential issue.
 */
export interface ResolvedProjects {
  ids: number[];
  reporter: number[];
}

/** The ids of the label titles (as `labelIdsTitled` finds them) and assignee usernames (lower-cased) a list filters on. */
export interface ResolvedNames {
  labels: Map<string, number[]>;
  /** The ids among `labels` that are project labels (not group labels). */
  projectLabelIds: Set<number>;
  users: Map<string, number>;
}

/** A filter step: narrows the query when its parameter is present, else leaves it unchanged. */
export type FilterStep = (q: Knex.QueryBuilder, f: IssueFilters, s: FinderScope) => void;
