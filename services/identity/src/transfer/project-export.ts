import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Storage } from '@anvil/storage';
import type { Project } from '../projects/project';
import { projectStore } from '../projects/project-store';

/** GitLab's `Gitlab::VisibilityLevel` numbers, as the export tree writes them. */
const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const;

/** `tree/project.json`: the project's own attributes as GitLab's exporter writes them (no ids, name or path). */
export function projectTree(project: Project, description: string | null): Record<string, unknown> {
  return {
    description: description ?? project.description ?? '',
    visibility_level: VISIBILITY_LEVEL[project.visibility],
    archived: project.archived,
    default_branch: project.defaultBranch,
    topics: project.topics,
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
  };
}

interface MemberRow {
  access_level: number;
  user_id: number;
  created_at: Date;
  updated_at: Date;
  created_by_id: number | null;
  expires_at: string | Date | null;
  username: string;
  public_email: string | null;
}

const isoDate = (d: string | Date | null) => (d === null ? null : typeof d === 'string' ? d : d.toISOString().slice(0, 10));

/** One `project_members.ndjson` line: `ProjectMember` with `user: {id, public_email, username}`. */
export function memberLine(m: MemberRow): Record<string, unknown> {
  return {
    access_level: m.access_level, source_type: 'Project', user_id: m.user_id, notification_level: 3,
    created_at: m.created_at.toISOString(), updated_at: m.updated_at.toISOString(), created_by_id: m.created_by_id,
    invite_email: null, invite_accepted_at: null, requested_at: null, expires_at: isoDate(m.expires_at), ldap: false, override: false,
    user: { id: m.user_id, public_email: m.public_email, username: m.username },
  };
}

async function* ndjson(rows: AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>): AsyncGenerator<string> {
  for await (const r of rows) yield JSON.stringify(r) + '\n';
}

/** What identity's part of an export wrote. */
export interface PartResult {
  files: string[];
  counts: Record<string, number>;
}

/**
 * Writes identity's part of an export under `prefix`: `tree/project.json` and
 * `tree/project/project_members.ndjson` (direct project members). Null when the project is gone.
 * Writing again overwrites the same keys.
 */
export async function writeIdentityPart(db: Knex, storage: Storage, prefix: string, projectId: number, description: string | null): Promise<PartResult | null> {
  const project = await projectStore.find(db, projectId, null);
  if (!project) return null;
  await storage.put(`${prefix}tree/project.json`, Readable.from([JSON.stringify(projectTree(project, description))]));
  const members = (await db('members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.source_type': 'Project', 'm.source_id': projectId })
    .orderBy('m.id')
    .select('m.access_level', 'm.user_id', 'm.created_at', 'm.updated_at', 'm.created_by_id', 'm.expires_at', 'u.username', 'u.public_email')) as MemberRow[];
  await storage.put(`${prefix}tree/project/project_members.ndjson`, Readable.from(ndjson(members.map(memberLine))));
  return { files: ['tree/project.json', 'tree/project/project_members.ndjson'], counts: { project: 1, project_members: members.length } };
}
