/**
 * Object key rules shared by every driver, so a key that works on the local disk works on S3 and the
 * other way round, and no key can name a file outside the storage root.
 */

/** Thrown for a key or prefix that could escape the storage root or is otherwise malformed. */
export class InvalidKeyError extends Error {
  readonly code = 'INVALID_KEY';
  constructor(readonly key: string, reason: string) {
    super(`invalid storage key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidKeyError';
  }
}

/** The directory the local driver keeps its temporary files in; no key may start with it. */
export const TEMP_DIR = '.anvil-tmp';

const MAX_KEY_BYTES = 1024;

function checkChars(key: string): void {
  if (key.includes('\0')) throw new InvalidKeyError(key, 'contains NUL');
  if (key.includes('\\')) throw new InvalidKeyError(key, 'contains a backslash');
  if (key.startsWith('/')) throw new InvalidKeyError(key, 'is absolute');
  if (/^[a-zA-Z]:/.test(key)) throw new InvalidKeyError(key, 'is absolute');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new InvalidKeyError(key, `is longer than ${MAX_KEY_BYTES} bytes`);
}

function checkSegments(key: string, segments: string[]): void {
  segments.forEach((s, i) => {
    if (s === '..' || s === '.') throw new InvalidKeyError(key, `has a "${s}" segment`);
    if (s === '') throw new InvalidKeyError(key, 'has an empty segment');
    if (i === 0 && s === TEMP_DIR) throw new InvalidKeyError(key, `${TEMP_DIR} is reserved`);
  });
}

/**
 * Returns `key` unchanged when it is a valid object key: non-empty, relative, `/`-separated, with no
 * empty, `.` or `..` segment, no NUL, no backslash, at most 1024 bytes. Throws InvalidKeyError otherwise.
 */
export function validateKey(key: string): string {
  if (typeof key !== 'string' || key === '') throw new InvalidKeyError(String(key), 'is empty');
  checkChars(key);
  checkSegments(key, key.split('/'));
  return key;
}

/**
 * Returns `prefix` unchanged when it is a valid listing prefix: the same rules as a key, except that it
 * may be empty (everything) and may end with `/`. The last segment may be partial (`pkg/1` matches `pkg/10/x`).
 */
export function validatePrefix(prefix: string): string {
  if (typeof prefix !== 'string') throw new InvalidKeyError(String(prefix), 'is not a string');
  if (prefix === '') return prefix;
  checkChars(prefix);
  const segments = prefix.split('/');
  if (prefix.endsWith('/')) segments.pop();
  checkSegments(prefix, segments);
  return prefix;
}

/** Compares two keys the way S3 orders them (by UTF-8 bytes). */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
