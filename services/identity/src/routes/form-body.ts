import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '@anvil/http';

/** Larger multipart bodies are refused: these routes take text attributes only. */
const LIMIT = 1024 * 1024;

/** The text fields of a `multipart/form-data` body (RFC 7578); file parts are skipped. */
export function multipartFields(body: Buffer, boundary: string): Record<string, string> {
  const out: Record<string, string> = {};
  const text = body.toString('latin1');
  for (const part of text.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(head)?.[1];
    if (!name || /\bfilename="/i.test(head)) continue;
    const value = part.slice(split + 4).replace(/\r\n$/, '');
    out[name] = Buffer.from(value, 'latin1').toString('utf8');
  }
  return out;
}

/**
 * Reads a `multipart/form-data` body into `req.body` (as GitLab's API accepts attributes sent as
 * a form, which some clients do for user edits); other bodies pass untouched.
 */
export async function formBody(req: Request, _res: Response, next: NextFunction): Promise<void> {
  const boundary = /^multipart\/form-data;.*\bboundary="?([^";]+)"?/i.exec(req.get('content-type') ?? '')?.[1];
  if (!boundary) return next();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > LIMIT) throw new HttpError(413, { message: '413 Request Entity Too Large' });
      chunks.push(chunk as Buffer);
    }
  } catch (e) {
    return next(e);
  }
  req.body = multipartFields(Buffer.concat(chunks), boundary);
  next();
}
