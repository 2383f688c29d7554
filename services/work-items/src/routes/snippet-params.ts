import type { Request } from 'express';
import { Infer, p, Param, ParamError, params, requestInput, Shape } from '@anvil/http';
import { FILE_ACTIONS } from '../snippets/snippet-files';
import type { NewSnippet, SnippetChanges } from '../snippets/snippet-service';
import { SNIPPET_VISIBILITIES } from '../snippets/snippet-store';

/** A string Grape's `allow_blank: false` accepts: whitespace only → `<name> is empty`. */
function nonBlank(): Param<string> {
  return new Param<string>((v, name, errs) => {
    const s = p.string().coerce(v, name, errs);
    if (typeof s === 'string' && s.trim() === '') errs.push(`${name} is empty`);
    return s;
  });
}

/** GitLab's `file_path: true` validator: no `..` segment, not absolute. */
function filePath(allowBlank: boolean): Param<string> {
  return new Param<string>((v, name, errs) => {
    const s = (allowBlank ? p.string() : nonBlank()).coerce(v, name, errs);
    if (typeof s === 'string' && (/(^|[\\/])\.\.([\\/]|$)/.test(s) || s.startsWith('/'))) errs.push(`${name} should be a valid file path`);
    return s;
  });
}

/** An array of hashes, each validated with `shape` under Grape's indexed names (`files[0][file_path]`). */
function hashList<S extends Shape>(shape: S): Param<Infer<S>[]> {
  const item = p.hash(shape);
  return new Param<Infer<S>[]>((v, name, errs) => {
    const items = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v as Record<string, unknown>) : null;
    if (!items) {
      errs.push(`${name} is invalid`);
      return [];
    }
    return items.map((x, i) => {
      const out = item.coerce(x, `${name}[${i}]`, errs);
      if (typeof out === 'symbol') errs.push(`${name}[${i}] is invalid`);
      return out as Infer<S>;
    });
  });
}

const present = (src: Record<string, unknown>, k: string) => src[k] !== undefined;

const createSchema = params({
  title: nonBlank().required(),
  description: p.string(),
  visibility: p.enum(SNIPPET_VISIBILITIES).required(),
  files: hashList({ file_path: filePath(false).required(), content: nonBlank().required() }),
  content: nonBlank(),
  file_name: p.string(),
}, { mutuallyExclusive: [['files', 'content']] });

/**
 * POST /projects/:id/snippets: `title`, `visibility`, and exactly one of `files` or `content` (which
 * then needs `file_name`), with Grape's messages in its order.
 */
export const createSnippetParams = {
  parse(req: Request): ReturnType<typeof createSchema.parse> {
    const input = requestInput(req);
    const extra: string[] = [];
    if (present(input, 'content') && !present(input, 'file_name')) extra.push('file_name is missing');
    if (!present(input, 'files') && !present(input, 'content')) extra.push('files, content are missing, exactly one parameter must be provided');
    const errors: string[] = [];
    let out: ReturnType<typeof createSchema.parse> | undefined;
    try {
      out = createSchema.parseObject(input);
    } catch (e) {
      if (!(e instanceof ParamError)) throw e;
      errors.push((e.body as { error: string }).error);
    }
    if (errors.length || extra.length || !out) throw new ParamError([...errors, ...extra].join(', '));
    return out;
  },
};

const updateSchema = params({
  snippet_id: p.integer().required(),
  content: nonBlank(),
  description: p.string(),
  file_name: p.string(),
  title: nonBlank(),
  visibility: p.enum(SNIPPET_VISIBILITIES),
  files: hashList({ action: p.enum(FILE_ACTIONS).required(), content: p.string(), file_path: filePath(true), previous_path: filePath(true) }),
}, {
  mutuallyExclusive: [['files', 'content'], ['files', 'file_name']],
  atLeastOneOf: [['content', 'description', 'files', 'file_name', 'title', 'visibility']],
});

/** PUT /projects/:id/snippets/:snippet_id; a null `title` or `content` is blank to Grape too. */
export const updateSnippetParams = {
  parse(req: Request): ReturnType<typeof updateSchema.parse> {
    const out = updateSchema.parse(req);
    const blank = (['content', 'title'] as const).filter((k) => out[k] === null);
    if (blank.length) throw new ParamError(blank.map((k) => `${k} is empty`).join(', '));
    return out;
  },
};

/** The new snippet of validated create params. */
export function toNewSnippet(input: ReturnType<typeof createSnippetParams.parse>): NewSnippet {
  const files = input.files
    ? input.files.map((f) => ({ filePath: f.file_path, content: f.content }))
    : [{ filePath: input.file_name ?? null, content: input.content as string }];
  return { title: input.title, description: input.description, visibility: input.visibility, files };
}

/** The changes of validated update params (absent means "leave"). */
export function toSnippetChanges(input: ReturnType<typeof updateSnippetParams.parse>): SnippetChanges {
  const files = input.files?.map((f) => ({ action: f.action, filePath: f.file_path, previousPath: f.previous_path, content: f.content }));
  const changes: SnippetChanges = {
    title: input.title, description: input.description, visibility: input.visibility ?? undefined,
    content: input.content, fileName: input.file_name ?? undefined, files,
  };
  for (const k of Object.keys(changes) as (keyof SnippetChanges)[]) if (changes[k] === undefined) delete changes[k];
  return changes;
}
