/**
 * Issue references in merge request text, as GitLab's `ClosingIssueExtractor` and reference
 * filters find them: `#12`, `group/project#12`, and links to issues of this instance.
 * The closing pattern is GitLab's default `issue_closing_pattern`.
 */

/** An issue reference: `path` null means the merge request's own project. */
export interface IssueRef {
  path: string | null;
  iid: number;
}

const PATH = String.raw`[A-Za-z0-9_][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_][A-Za-z0-9_.-]*)+`;
const SHORT = String.raw`(?:${PATH})?#\d+`;
const LINK = String.raw`https?:\/\/[^\s,]+`;
const ISSUE_REF = String.raw`(?:(?:${LINK})|(?:${SHORT}))`;
/** GitLab's default closing pattern with `%{issue_ref}` expanded. */
const CLOSING = String.raw`\b((?:[Cc]los(?:e[sd]?|ing)|\b[Ff]ix(?:e[sd]|ing)?|\b[Rr]esolv(?:e[sd]?|ing)|\b[Ii]mplement(?:s|ed|ing)?)(:?) +(?:(?:issues? +)?${ISSUE_REF}(?:(?: *,? +and +| *,? *)?)|([A-Z][A-Z0-9_]+-\d+))+)`;
const REFERENCE = new RegExp(String.raw`(?<![\w/#])(?:(${PATH}))?#(\d+)\b|(${LINK})`, 'g');

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Every issue reference in `text`; links count only when they point at this instance (`base`). */
export function issueReferences(text: string | null | undefined, base: string): IssueRef[] {
  if (!text) return [];
  const out: IssueRef[] = [];
  const link = new RegExp(`^${escape(base.replace(/\/$/, ''))}\\/(${PATH})\\/(?:-\\/)?issues\\/(\\d+)\\b`);
  for (const m of text.matchAll(REFERENCE)) {
    if (m[3]) {
      const l = link.exec(m[3]);
      if (l) out.push({ path: l[1], iid: Number(l[2]) });
    } else out.push({ path: m[1] ?? null, iid: Number(m[2]) });
  }
  return dedupe(out);
}

/** The issues `text` says it closes (`Closes #1`, `Fixes group/p#2`, `Resolves <link>`, `Implements #3`…). */
export function closingReferences(text: string | null | undefined, base: string): IssueRef[] {
  if (!text) return [];
  const statements = [...text.matchAll(new RegExp(CLOSING, 'g'))].map((m) => m[0]);
  return dedupe(statements.flatMap((s) => issueReferences(s, base)));
}

function dedupe(refs: IssueRef[]): IssueRef[] {
  const seen = new Set<string>();
  return refs.filter((r) => {
    const key = `${r.path?.toLowerCase() ?? ''}#${r.iid}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
