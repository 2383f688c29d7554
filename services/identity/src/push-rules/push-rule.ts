/** The regex attributes of a push rule and their length limits (GitLab's `PushRuleable`). */
export const REGEX_LIMITS = {
  commit_message_regex: 511,
  commit_message_negative_regex: 2047,
  branch_name_regex: 511,
  author_email_regex: 511,
  file_name_regex: 511,
} as const;

/** The boolean attributes of a push rule. */
export const FLAGS = ['deny_delete_tag', 'member_check', 'prevent_secrets', 'commit_committer_check', 'commit_committer_name_check', 'reject_unsigned_commits', 'reject_non_dco_commits'] as const;

/**
 * Settings whose `false` is stored as null: GitLab then falls back to the instance-wide push rule,
 * and Anvil has none, so they read back as null (as GitLab answers without a global rule).
 */
export const GLOBAL_DEFAULT_FLAGS = ['commit_committer_check', 'reject_unsigned_commits', 'reject_non_dco_commits'] as const;

type RegexName = keyof typeof REGEX_LIMITS;
type FlagName = (typeof FLAGS)[number];

/** The attributes a caller sets on a push rule (all optional). */
export type PushRuleAttributes = Partial<Record<RegexName, string | null> & Record<FlagName, boolean | null> & { max_file_size: number | null }>;

/** A row of `group_push_rules`. */
export interface PushRuleRow extends Record<RegexName, string | null>, Record<FlagName, boolean | null> {
  id: number;
  namespace_id: number;
  max_file_size: number;
  created_at: Date;
  updated_at: Date;
}

/** A group's push rule. */
export interface PushRule {
  id: number;
  groupId: number;
  regexes: Record<RegexName, string | null>;
  flags: Record<FlagName, boolean | null>;
  maxFileSize: number;
  createdAt: Date;
}

/** Maps a row to a PushRule. */
export function toPushRule(row: PushRuleRow): PushRule {
  const regexes = Object.fromEntries(Object.keys(REGEX_LIMITS).map((k) => [k, row[k as RegexName]])) as PushRule['regexes'];
  const flags = Object.fromEntries(FLAGS.map((k) => [k, row[k]])) as PushRule['flags'];
  return { id: row.id, groupId: row.namespace_id, regexes, flags, maxFileSize: row.max_file_size, createdAt: row.created_at };
}
