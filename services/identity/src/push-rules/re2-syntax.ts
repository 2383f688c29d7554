/**
 * RE2 syntax check of push rule regexes (https://github.com/google/re2/wiki/Syntax): GitLab
 * compiles them with RE2, so what RE2 refuses (look-around, back-references, possessive or nested
 * repetition) is refused here too, with RE2's own error text (`missing ): (a`).
 */

const ESCAPES = new Set([...'dDsSwWbBAzCpPQEx0afnrtv']);
const FLAGS = /^\(\?[imsU-]*(\)|:)/;
const NAMED = /^\(\?P?<[A-Za-z0-9_]+>/;
const REPEAT = /^\{(\d+)(,(\d*))?\}/;
const MAX_REPEAT = 1000;

class Re2Error extends Error {}
function fail(code: string, arg = ''): never {
  throw new Re2Error(arg ? `${code}: ${arg}` : code);
}

/** The length of the escape at `src[i]` (a backslash); throws RE2's error for one RE2 lacks. */
function escapeLength(src: string, i: number): number {
  const c = src[i + 1];
  if (c === undefined) fail('trailing \\');
  if (/[1-7]/.test(c) && /[0-7]/.test(src[i + 2] ?? '')) return /[0-7]/.test(src[i + 3] ?? '') ? 4 : 3;
  if (/[0-9A-Za-z]/.test(c) && !ESCAPES.has(c)) fail('invalid escape sequence', `\\${c}`);
  if ((c === 'p' || c === 'P' || c === 'x') && src[i + 2] === '{') {
    const end = src.indexOf('}', i);
    if (end < 0) fail(c === 'x' ? 'invalid escape sequence' : 'invalid character class range', src.slice(i));
    return end - i + 1;
  }
  if (c === 'x') return 4;
  return 2;
}

/** The index just past the character class opening at `src[start]`. */
function classEnd(src: string, start: number): number {
  let i = start + 1;
  if (src[i] === '^') i += 1;
  if (src[i] === ']') i += 1;
  let prev: string | null = null;
  while (i < src.length && src[i] !== ']') {
    const posix = /^\[:\^?[a-z]+:\]/.exec(src.slice(i));
    if (posix) {
      i += posix[0].length;
      prev = null;
      continue;
    }
    if (src[i] === '-' && prev !== null && src[i + 1] !== undefined && src[i + 1] !== ']' && src[i + 1] !== '\\') {
      if (src[i + 1] < prev) fail('invalid character class range', `${prev}-${src[i + 1]}`);
      i += 2;
      prev = null;
      continue;
    }
    const len = src[i] === '\\' ? escapeLength(src, i) : 1;
    prev = len === 1 ? src[i] : null;
    i += len;
  }
  if (i >= src.length) fail('missing ]', src.slice(start));
  return i + 1;
}

/** The length of a repetition operator at `src[i]` (0 when there is none). */
function repeatLength(src: string, i: number): number {
  if ('*+?'.includes(src[i])) return 1;
  const m = src[i] === '{' ? REPEAT.exec(src.slice(i)) : null;
  if (!m) return 0;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? MAX_REPEAT : Number(m[3]);
  if (min > MAX_REPEAT || max > MAX_REPEAT || max < min) fail('invalid repetition size', m[0]);
  return m[0].length;
}

/** The length of the group opening at `src[i]`, and whether it opens a group (`(?i)` sets flags only). */
function groupOpening(src: string, i: number): { length: number; opens: boolean } {
  if (src[i + 1] !== '?') return { length: 1, opens: true };
  const m = FLAGS.exec(src.slice(i)) ?? NAMED.exec(src.slice(i));
  if (!m) fail('invalid perl operator', src.slice(i, src[i + 2] === '<' ? i + 4 : i + 3));
  return { length: m[0].length, opens: !m[0].endsWith(')') };
}

/** Walks `src` once, token by token, throwing RE2's error at the first token RE2 refuses. */
function check(src: string): void {
  const open: number[] = [];
  let operand = false;
  let lastRepeat = -1;
  let lazy = false;
  for (let i = 0; i < src.length; ) {
    const c = src[i];
    const rep = repeatLength(src, i);
    if (rep) {
      if (!operand) fail('no argument for repetition operator', src.slice(i, i + rep));
      if (lastRepeat >= 0 && (src[i] !== '?' || lazy)) fail('bad repetition operator', src.slice(lastRepeat, i + rep));
      lazy = lastRepeat >= 0;
      if (!lazy) lastRepeat = i;
      i += rep;
      continue;
    }
    lastRepeat = -1;
    if (c === '(') {
      const g = groupOpening(src, i);
      if (g.opens) open.push(i);
      operand = operand && !g.opens;
      i += g.length;
    } else if (c === ')') {
      if (!open.length) fail('unexpected )', src);
      open.pop();
      operand = true;
      i += 1;
    } else {
      operand = c !== '|';
      i = c === '[' ? classEnd(src, i) : c === '\\' ? i + escapeLength(src, i) : i + 1;
    }
  }
  if (open.length) fail('missing )', src);
}

/** RE2's error for `src` (as RE2 words it), or null when RE2 accepts it. */
export function re2SyntaxError(src: string): string | null {
  try {
    check(src);
    return null;
  } catch (e) {
    if (e instanceof Re2Error) return e.message;
    throw e;
  }
}
