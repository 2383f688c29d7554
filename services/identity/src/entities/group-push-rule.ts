import type { PushRule } from '../push-rules/push-rule';
import { iso } from '../sql';

/** `GroupPushRule`: every attribute, the licensed ones included (all features are available). */
export function toGroupPushRule(r: PushRule) {
  return {
    id: r.id,
    created_at: iso(r.createdAt),
    commit_message_regex: r.regexes.commit_message_regex,
    commit_message_negative_regex: r.regexes.commit_message_negative_regex,
    branch_name_regex: r.regexes.branch_name_regex,
    author_email_regex: r.regexes.author_email_regex,
    file_name_regex: r.regexes.file_name_regex,
    deny_delete_tag: r.flags.deny_delete_tag,
    member_check: r.flags.member_check,
    prevent_secrets: r.flags.prevent_secrets,
    max_file_size: r.maxFileSize,
    commit_committer_check: r.flags.commit_committer_check,
    commit_committer_name_check: r.flags.commit_committer_name_check,
    reject_unsigned_commits: r.flags.reject_unsigned_commits,
    reject_non_dco_commits: r.flags.reject_non_dco_commits,
  };
}
