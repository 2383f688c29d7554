import type { SnippetFile } from './snippet-store';

/** What a `files[]` entry may do on update (GitLab's `SnippetInputAction::ACTIONS`). */
export const FILE_ACTIONS = ['create', 'update', 'delete', 'move'] as const;

/** One of FILE_ACTIONS. */
export type FileAction = (typeof FILE_ACTIONS)[number];

/** A snippet may hold at most this many files (`Snippet::MAX_FILE_COUNT`). */
export const MAX_FILE_COUNT = 10;

/** One `files[]` entry. */
export interface FileActionInput {
  action: FileAction;
  filePath?: string | null;
  previousPath?: string | null;
  content?: string | null;
}

const blank = (s: string | null | undefined): boolean => !s || s.trim() === '';

/**
 * GitLab's `SnippetInputAction` validations: `move` needs `previous_path`; every action but `create`
 * needs `file_path`; `create` and `update` need `content`; `update` may not rename; `move` must.
 */
export function validAction(a: FileActionInput): boolean {
  if (a.action === 'move' && blank(a.previousPath)) return false;
  if (a.action !== 'create' && blank(a.filePath)) return false;
  if ((a.action === 'create' || a.action === 'update') && blank(a.content)) return false;
  if (a.action === 'update' && !blank(a.previousPath) && a.previousPath !== a.filePath) return false;
  if (a.action === 'move' && a.previousPath === a.filePath) return false;
  return true;
}

/** The next `snippetfileN.txt` name GitLab gives a file created without a path. */
function generatedPath(files: SnippetFile[]): string {
  const taken = files.map((f) => /^snippetfile(\d+)\.txt$/.exec(f.path)?.[1]).filter((n): n is string => !!n).map(Number);
  return `snippetfile${Math.max(0, ...taken) + 1}.txt`;
}

function applyOne(files: SnippetFile[], a: FileActionInput): SnippetFile[] | null {
  const at = (path: string | null | undefined) => files.findIndex((f) => f.path === path);
  if (a.action === 'create') {
    const path = blank(a.filePath) ? generatedPath(files) : (a.filePath as string);
    return at(path) >= 0 ? null : [...files, { path, content: a.content ?? '' }];
  }
  if (a.action === 'delete') return at(a.filePath) < 0 ? null : files.filter((f) => f.path !== a.filePath);
  const from = at(a.action === 'move' ? a.previousPath : blank(a.previousPath) ? a.filePath : a.previousPath);
  if (from < 0) return null;
  if (a.action === 'move' && at(a.filePath) >= 0) return null;
  const next = files.slice();
  next[from] = { path: a.filePath as string, content: blank(a.content) && a.action === 'move' ? files[from].content : (a.content as string) };
  return next;
}

/**
 * The files after applying `actions` in order, or null when the repository would refuse the commit:
 * a file to create that exists, a file to change that does not, no file left, more than MAX_FILE_COUNT.
 * Callers validate each action with `validAction` first.
 */
export function applyFileActions(files: SnippetFile[], actions: FileActionInput[]): SnippetFile[] | null {
  let current: SnippetFile[] | null = files;
  for (const a of actions) {
    current = applyOne(current, a);
    if (!current) return null;
  }
  return current.length >= 1 && current.length <= MAX_FILE_COUNT ? current : null;
}
