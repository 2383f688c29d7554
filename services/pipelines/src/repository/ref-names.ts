/**
 * Branch names Git accepts (`git check-ref-format refs/heads/<name>`, git/git refs.c
 * `check_refname_component`) plus GitLab's own rules (Gitlab::GitRefValidator: not `HEAD`, no
 * leading `-`, no `refs/heads/` or `refs/remotes/` prefix).
 */

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\x00-\x20\x7f~^:?*[\\]/;

/** Whether `name` is a valid new branch name. */
export function isValidBranchName(name: string): boolean {
  if (!name || name === 'HEAD' || name === '@' || name.startsWith('-')) return false;
  if (name.startsWith('refs/heads/') || name.startsWith('refs/remotes/')) return false;
  if (FORBIDDEN.test(name) || name.includes('..') || name.includes('@{')) return false;
  if (name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((c) => c.length > 0 && !c.startsWith('.') && !c.endsWith('.lock'));
}

/** Whether `name` would be a directory of an existing branch or have one as a directory (`a` vs `a/b`): Git's refs cannot hold both. */
export function conflictsWithHierarchy(existing: string[], name: string): boolean {
  return existing.some((b) => b !== name && (b.startsWith(`${name}/`) || name.startsWith(`${b}/`)));
}
