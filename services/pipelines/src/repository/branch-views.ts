/** What the Branch entity shows about branches beyond their rows: head commits, `merged`, `default`. */
import type { Knex } from 'knex';
import { ancestorShas, BranchRow, commitsBySha, CommitRow, defaultBranchOf, getBranch } from './repository-store';

/** A branch with its head commit and its standing against the default branch. */
export interface BranchView {
  row: BranchRow;
  head: CommitRow;
  /** Its head is a strict ancestor of the default branch's head (Repository#merged_to_root_ref?). */
  merged: boolean;
  isDefault: boolean;
}

/** Views of `rows` (one project), in their order, in three queries whatever their number. */
export async function branchViews(db: Knex, projectId: number, rows: BranchRow[]): Promise<BranchView[]> {
  const [heads, defaultName] = await Promise.all([commitsBySha(db, projectId, rows.map((r) => r.commit_sha)), defaultBranchOf(db, projectId)]);
  const defaultHead = defaultName ? (await getBranch(db, projectId, defaultName))?.commit_sha : undefined;
  const merged = defaultHead ? await ancestorShas(db, projectId, defaultHead) : new Set<string>();
  return rows.map((row) => ({
    row,
    head: heads.get(row.commit_sha) as CommitRow,
    merged: row.name !== defaultName && row.commit_sha !== defaultHead && merged.has(row.commit_sha),
    isDefault: row.name === defaultName,
  }));
}
