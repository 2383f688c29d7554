import type { Request } from 'express';
import { BadRequestError, HttpError } from '@anvil/http';
import { isPackageFile, isRecipeFile } from '../conan/reference';

const MAX_BODY = 1024 * 1024;

async function readRawJson(req: Request): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new BadRequestError();
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    return {};
  }
}

/** The file names an `upload_urls` body asks for (its keys; sizes are ignored). A non-object → 400. */
async function requestedFiles(req: Request): Promise<string[]> {
  // A JSON body was parsed by the shared parsers; any other (Conan 1 may send none) is read here.
  const body = req.readableEnded ? req.body : await readRawJson(req);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError();
  return Object.keys(body as Record<string, unknown>);
}

/** `{file_name: upload_url}` for the requested names that are recipe (or package) files, in request order. */
export async function uploadUrls(req: Request, kind: 'recipe' | 'package', url: (fileName: string) => string): Promise<Record<string, string>> {
  const allowed = kind === 'recipe' ? isRecipeFile : isPackageFile;
  const out: Record<string, string> = {};
  for (const name of await requestedFiles(req)) if (allowed(name)) out[name] = url(name);
  return out;
}

/** A manifest, or GitLab's `404 {"message":"No recipe manifest found"}` when it lists nothing. */
export function notFoundManifest(manifest: Record<string, string>): Record<string, string> {
  if (Object.keys(manifest).length === 0) throw new HttpError(404, { message: 'No recipe manifest found' });
  return manifest;
}
