import type { Knex } from 'knex';
import { tokenMatches } from '@anvil/auth';
import { tokenDigest } from './tokens';
import type { NewRunner, Runner, RunnerAccessLevel, RunnerType } from './types';

/** A `runners` row. */
export interface RunnerRow {
  id: string | number;
  token_digest: string;
  runner_type: RunnerType;
  project_id: string | number | null;
  group_id: string | number | null;
  group_full_path: string | null;
  description: string;
  maintenance_note: string | null;
  tag_list: string[];
  run_untagged: boolean;
  locked: boolean;
  paused: boolean;
  access_level: RunnerAccessLevel;
  maximum_timeout: number | null;
  creation_state: 'started' | 'finished';
  creator_id: string | number | null;
  contacted_at: Date | null;
  created_at: Date;
}

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

/** Maps a row once to the domain's runner. */
export function toRunner(r: RunnerRow): Runner {
  return {
    id: Number(r.id),
    runnerType: r.runner_type,
    projectId: num(r.project_id),
    groupId: num(r.group_id),
    groupFullPath: r.group_full_path,
    description: r.description,
    maintenanceNote: r.maintenance_note,
    tagList: r.tag_list,
    runUntagged: r.run_untagged,
    locked: r.locked,
    paused: r.paused,
    accessLevel: r.access_level,
    maximumTimeout: r.maximum_timeout,
    creationState: r.creation_state,
    creatorId: num(r.creator_id),
    contactedAt: r.contacted_at,
    createdAt: r.created_at,
  };
}

/** Runner records; every token is looked up by its digest and compared in constant time. */
export const runnerStore = {
  /** Inserts a runner holding the digest of `token`. */
  async insert(db: Knex | Knex.Transaction, n: NewRunner, token: string): Promise<Runner> {
    const [row] = await db<RunnerRow>('runners')
      .insert({
        token_digest: tokenDigest(token),
        runner_type: n.runnerType,
        project_id: n.projectId ?? null,
        group_id: n.groupId ?? null,
        group_full_path: n.groupFullPath ?? null,
        description: n.description ?? '',
        maintenance_note: n.maintenanceNote ?? null,
        tag_list: [...new Set(n.tagList ?? [])].sort(),
        run_untagged: n.runUntagged ?? true,
        locked: n.locked ?? false,
        paused: n.paused ?? false,
        access_level: n.accessLevel ?? 'not_protected',
        maximum_timeout: n.maximumTimeout ?? null,
        creator_id: n.creatorId,
      } as Partial<RunnerRow>)
      .returning('*');
    return toRunner(row as RunnerRow);
  },

  /** The runner whose authentication token is `token`, or null. */
  async findByToken(db: Knex | Knex.Transaction, token: string): Promise<Runner | null> {
    if (!token) return null;
    const row = await db<RunnerRow>('runners').where({ token_digest: tokenDigest(token) }).first();
    return row && tokenMatches(token, row.token_digest) ? toRunner(row as RunnerRow) : null;
  },

  /** Records a contact (verify, job request), and the runner's first job request finishing its creation. */
  async contacted(db: Knex | Knex.Transaction, id: number, info: unknown, finished: boolean): Promise<void> {
    const patch: Record<string, unknown> = { contacted_at: db.fn.now() };
    if (info && typeof info === 'object') patch.info = JSON.stringify(info);
    if (finished) patch.creation_state = 'finished';
    await db('runners').where({ id }).update(patch);
  },

  /** Deletes a runner (its job tokens go with it). */
  async delete(db: Knex | Knex.Transaction, id: number): Promise<void> {
    await db('runners').where({ id }).delete();
  },

  /** Runners by id. */
  async byIds(db: Knex | Knex.Transaction, ids: number[]): Promise<Map<number, Runner>> {
    if (ids.length === 0) return new Map();
    const rows = await db<RunnerRow>('runners').whereIn('id', ids);
    return new Map(rows.map((r) => [Number(r.id), toRunner(r as RunnerRow)]));
  },
};
