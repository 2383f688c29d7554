/**
 * Character diff as GitLab's `Gitlab::Diff::CharDiff` computes it: diff-match-patch's `diff_main`
 * (common prefix/suffix, containment, half-match, Myers bisection) followed by
 * `diff_cleanupSemantic`, then the changed ranges of the old and new strings. Line mode (only used
 * by diff-match-patch for texts over 100 characters on both sides) is not implemented.
 *
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/diff/char_diff.rb
 * https://github.com/google/diff-match-patch/wiki/API
 */

import { DEL, EQ, INS, cleanupMerge, cleanupSemantic, commonPrefix, commonSuffix, type Diff, type Op } from './char-diff-cleanup';

export type { Diff, Op } from './char-diff-cleanup';

/** The best common middle of `long` around a seed at `i`, when it covers at least half of `long`. */
function halfMatchAt(long: string, short: string, i: number): string[] | null {
  const seed = long.substring(i, i + Math.floor(long.length / 4));
  let best: string[] = ['', '', '', '', ''];
  for (let j = short.indexOf(seed); j !== -1; j = short.indexOf(seed, j + 1)) {
    const p = commonPrefix(long.substring(i), short.substring(j));
    const s = commonSuffix(long.substring(0, i), short.substring(0, j));
    if (best[4].length < s + p) {
      best = [long.substring(0, i - s), long.substring(i + p), short.substring(0, j - s), short.substring(j + p), short.substring(j - s, j + p)];
    }
  }
  return best[4].length * 2 >= long.length ? best : null;
}

function halfMatch(a: string, b: string): string[] | null {
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (long.length < 4 || short.length * 2 < long.length) return null;
  const h1 = halfMatchAt(long, short, Math.ceil(long.length / 4));
  const h2 = halfMatchAt(long, short, Math.ceil(long.length / 2));
  const hm = !h1 ? h2 : !h2 ? h1 : h1[4].length > h2[4].length ? h1 : h2;
  if (!hm) return null;
  return a.length > b.length ? hm : [hm[2], hm[3], hm[0], hm[1], hm[4]];
}

/** Myers' middle snake; splits the problem there (diff-match-patch `diff_bisect`). */
function bisect(a: string, b: string): Diff[] {
  const maxD = Math.ceil((a.length + b.length) / 2);
  const off = maxD;
  const v1 = new Array<number>(2 * maxD).fill(-1);
  const v2 = new Array<number>(2 * maxD).fill(-1);
  v1[off + 1] = 0;
  v2[off + 1] = 0;
  const delta = a.length - b.length;
  const front = delta % 2 !== 0;
  const bounds = { k1start: 0, k1end: 0, k2start: 0, k2end: 0 };
  for (let d = 0; d < maxD; d++) {
    for (let k1 = -d + bounds.k1start; k1 <= d - bounds.k1end; k1 += 2) {
      const i1 = off + k1;
      let x1 = k1 === -d || (k1 !== d && v1[i1 - 1] < v1[i1 + 1]) ? v1[i1 + 1] : v1[i1 - 1] + 1;
      let y1 = x1 - k1;
      while (x1 < a.length && y1 < b.length && a[x1] === b[y1]) { x1++; y1++; }
      v1[i1] = x1;
      if (x1 > a.length) bounds.k1end += 2;
      else if (y1 > b.length) bounds.k1start += 2;
      else if (front) {
        const i2 = off + delta - k1;
        if (i2 >= 0 && i2 < 2 * maxD && v2[i2] !== -1 && x1 >= a.length - v2[i2]) return split(a, b, x1, y1);
      }
    }
    for (let k2 = -d + bounds.k2start; k2 <= d - bounds.k2end; k2 += 2) {
      const i2 = off + k2;
      let x2 = k2 === -d || (k2 !== d && v2[i2 - 1] < v2[i2 + 1]) ? v2[i2 + 1] : v2[i2 - 1] + 1;
      let y2 = x2 - k2;
      while (x2 < a.length && y2 < b.length && a[a.length - x2 - 1] === b[b.length - y2 - 1]) { x2++; y2++; }
      v2[i2] = x2;
      if (x2 > a.length) bounds.k2end += 2;
      else if (y2 > b.length) bounds.k2start += 2;
      else if (!front) {
        const i1 = off + delta - k2;
        if (i1 >= 0 && i1 < 2 * maxD && v1[i1] !== -1) {
          const x1 = v1[i1];
          if (x1 >= a.length - x2) return split(a, b, x1, off + x1 - i1);
        }
      }
    }
  }
  return [[DEL, a], [INS, b]];
}

const split = (a: string, b: string, x: number, y: number): Diff[] => [...diffMain(a.substring(0, x), b.substring(0, y)), ...diffMain(a.substring(x), b.substring(y))];

function compute(a: string, b: string): Diff[] {
  if (!a) return [[INS, b]];
  if (!b) return [[DEL, a]];
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  const i = long.indexOf(short);
  if (i !== -1) {
    const op: Op = a.length > b.length ? DEL : INS;
    return [[op, long.substring(0, i)], [EQ, short], [op, long.substring(i + short.length)]];
  }
  if (short.length === 1) return [[DEL, a], [INS, b]];
  const hm = halfMatch(a, b);
  if (hm) return [...diffMain(hm[0], hm[2]), [EQ, hm[4]], ...diffMain(hm[1], hm[3])];
  return bisect(a, b);
}

/** diff-match-patch `diff_main` (character mode). */
export function diffMain(a: string, b: string): Diff[] {
  if (a === b) return a ? [[EQ, a]] : [];
  const p = commonPrefix(a, b);
  const prefix = a.substring(0, p);
  const [a1, b1] = [a.substring(p), b.substring(p)];
  const s = commonSuffix(a1, b1);
  const suffix = a1.substring(a1.length - s);
  const diffs = compute(a1.substring(0, a1.length - s), b1.substring(0, b1.length - s));
  if (prefix) diffs.unshift([EQ, prefix]);
  if (suffix) diffs.push([EQ, suffix]);
  return cleanupMerge(diffs);
}

/** Inclusive changed ranges, in characters (code points, as Ruby counts), of the old and the new string. */
export interface ChangedRanges {
  old: [number, number][];
  new: [number, number][];
}

/**
 * Both strings with every character outside the BMP replaced by one private-use code unit, so
 * the diff works per character as Ruby's does and offsets count characters.
 */
function toUnits(a: string, b: string): [string, string] {
  const codes = new Map<string, string>();
  let next = 0xe000;
  const encode = (s: string) => Array.from(s, (ch) => {
    if (ch.length === 1) return ch;
    if (!codes.has(ch)) codes.set(ch, String.fromCharCode(next++));
    return codes.get(ch)!;
  }).join('');
  return [encode(a), encode(b)];
}

/** `CharDiff#changed_ranges`: where the old string lost and the new one gained text. */
export function changedRanges(oldText: string, newText: string): ChangedRanges {
  const out: ChangedRanges = { old: [], new: [] };
  let o = 0;
  let n = 0;
  for (const [op, text] of cleanupSemantic(diffMain(...toUnits(oldText, newText)))) {
    if (op === EQ) {
      o += text.length;
      n += text.length;
    } else if (op === DEL) {
      out.old.push([o, o + text.length - 1]);
      o += text.length;
    } else {
      out.new.push([n, n + text.length - 1]);
      n += text.length;
    }
  }
  return out;
}
