import type { Request } from 'express';
import { HttpError } from '@anvil/http';

/** The numeric value of route param `name`, or GitLab's plain 404 (the route would not match). */
export function numericParam(req: Request, name: string): number {
  const raw = String(req.params[name] ?? '');
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError(404, { error: '404 Not Found' });
  return Number(raw);
}

/** A path param declared Integer: anything else is Grape's 400 `<name> is invalid`. */
export function integerPathParam(req: Request, name: string): number {
  const raw = String(req.params[name] ?? '');
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError(400, { error: `${name} is invalid` });
  return Number(raw);
}

/** `:id` of a project or group route: a numeric id or a (decoded) full path. */
export function idOrPath(req: Request): number | string {
  const raw = String(req.params.id ?? '');
  return /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
}

/** The params of `input` that are not undefined (what the caller actually sent). */
export function defined<T extends Record<string, unknown>>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}
