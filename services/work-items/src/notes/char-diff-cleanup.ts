/**
 * diff-match-patch's clean-ups, as `Gitlab::Diff::CharDiff` applies them: `diff_cleanupMerge`
 * (join neighbours, factor out common affixes, slide single edits) and `diff_cleanupSemantic`
 * (drop short equalities between edits, align edits to word boundaries, extract overlaps).
 *
 * https://github.com/google/diff-match-patch/blob/master/javascript/diff_match_patch_uncompressed.js
 */

/** -1 deletion, 0 equality, 1 insertion (diff-match-patch's operations). */
export type Op = -1 | 0 | 1;
/** One diff-match-patch diff: operation and text. */
export type Diff = [Op, string];

/** Deletion. */
export const DEL = -1;
/** Insertion. */
export const INS = 1;
/** Equality. */
export const EQ = 0;

/** Length of the common prefix of `a` and `b`. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Length of the common suffix of `a` and `b`. */
export function commonSuffix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

/** Replaces a run of edits ending before `p` by at most one deletion and one insertion. */
function mergeRun(diffs: Diff[], p: number, count: number, del: string, ins: string): number {
  if (del && ins) {
    const cp = commonPrefix(ins, del);
    if (cp) {
      const before = p - count - 1;
      if (before >= 0 && diffs[before][0] === EQ) diffs[before][1] += ins.substring(0, cp);
      else {
        diffs.unshift([EQ, ins.substring(0, cp)]);
        p++;
      }
      ins = ins.substring(cp);
      del = del.substring(cp);
    }
    const cs = commonSuffix(ins, del);
    if (cs) {
      diffs[p][1] = ins.substring(ins.length - cs) + diffs[p][1];
      ins = ins.substring(0, ins.length - cs);
      del = del.substring(0, del.length - cs);
    }
  }
  p -= count;
  diffs.splice(p, count);
  if (del) diffs.splice(p++, 0, [DEL, del]);
  if (ins) diffs.splice(p++, 0, [INS, ins]);
  return p + 1;
}

/** Slides single edits surrounded by equalities sideways to merge an equality away. */
function slideEdits(diffs: Diff[]): boolean {
  let changes = false;
  for (let p = 1; p < diffs.length - 1; p++) {
    const [prev, cur, next] = [diffs[p - 1], diffs[p], diffs[p + 1]];
    if (prev[0] !== EQ || next[0] !== EQ) continue;
    if (cur[1].endsWith(prev[1])) {
      cur[1] = prev[1] + cur[1].substring(0, cur[1].length - prev[1].length);
      next[1] = prev[1] + next[1];
      diffs.splice(p - 1, 1);
      changes = true;
    } else if (cur[1].startsWith(next[1])) {
      prev[1] += next[1];
      cur[1] = cur[1].substring(next[1].length) + next[1];
      diffs.splice(p + 1, 1);
      changes = true;
    }
  }
  return changes;
}

/** diff-match-patch `diff_cleanupMerge`; mutates and returns `diffs`. */
export function cleanupMerge(diffs: Diff[]): Diff[] {
  diffs.push([EQ, '']);
  let p = 0;
  let [countDel, countIns, del, ins] = [0, 0, '', ''];
  while (p < diffs.length) {
    const [op, text] = diffs[p];
    if (op === INS) [countIns, ins, p] = [countIns + 1, ins + text, p + 1];
    else if (op === DEL) [countDel, del, p] = [countDel + 1, del + text, p + 1];
    else {
      if (countDel + countIns > 1) p = mergeRun(diffs, p, countDel + countIns, del, ins);
      else if (countDel + countIns === 1) p = mergeRun(diffs, p, 1, del, ins);
      else if (p !== 0 && diffs[p - 1][0] === EQ) {
        diffs[p - 1][1] += text;
        diffs.splice(p, 1);
      } else p++;
      [countDel, countIns, del, ins] = [0, 0, '', ''];
    }
  }
  if (diffs[diffs.length - 1][1] === '') diffs.pop();
  return slideEdits(diffs) ? cleanupMerge(diffs) : diffs;
}

/** `diff_cleanupSemanticScore`: how good a boundary between `one` and `two` is (6 best). */
function boundaryScore(one: string, two: string): number {
  if (!one || !two) return 6;
  const [c1, c2] = [one[one.length - 1], two[0]];
  const [na1, na2] = [/[^a-zA-Z0-9]/.test(c1), /[^a-zA-Z0-9]/.test(c2)];
  const [ws1, ws2] = [na1 && /\s/.test(c1), na2 && /\s/.test(c2)];
  const [lb1, lb2] = [ws1 && /[\r\n]/.test(c1), ws2 && /[\r\n]/.test(c2)];
  if ((lb1 && /\n\r?\n$/.test(one)) || (lb2 && /^\r?\n\r?\n/.test(two))) return 5;
  if (lb1 || lb2) return 4;
  if (na1 && !ws1 && ws2) return 3;
  if (ws1 || ws2) return 2;
  return na1 || na2 ? 1 : 0;
}

/** `diff_cleanupSemanticLossless`: shifts single edits to the best word boundary. */
function alignToWords(diffs: Diff[]): void {
  for (let p = 1; p < diffs.length - 1; p++) {
    if (diffs[p - 1][0] !== EQ || diffs[p + 1][0] !== EQ) continue;
    let [eq1, edit, eq2] = [diffs[p - 1][1], diffs[p][1], diffs[p + 1][1]];
    const cs = commonSuffix(eq1, edit);
    if (cs) {
      const common = edit.substring(edit.length - cs);
      [eq1, edit, eq2] = [eq1.substring(0, eq1.length - cs), common + edit.substring(0, edit.length - cs), common + eq2];
    }
    let best = [eq1, edit, eq2];
    let bestScore = boundaryScore(eq1, edit) + boundaryScore(edit, eq2);
    while (edit && eq2 && edit[0] === eq2[0]) {
      [eq1, edit, eq2] = [eq1 + edit[0], edit.substring(1) + eq2[0], eq2.substring(1)];
      const score = boundaryScore(eq1, edit) + boundaryScore(edit, eq2);
      if (score >= bestScore) [bestScore, best] = [score, [eq1, edit, eq2]];
    }
    if (diffs[p - 1][1] === best[0]) continue;
    if (best[0]) diffs[p - 1][1] = best[0];
    else diffs.splice(--p, 1);
    diffs[p][1] = best[1];
    if (best[2]) diffs[p + 1][1] = best[2];
    else diffs.splice(p-- + 1, 1);
  }
}

function overlap(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let len = n; len > 0; len--) if (a.endsWith(b.substring(0, len))) return len;
  return 0;
}

/** Turns a deletion followed by an overlapping insertion into edits around an equality. */
function extractOverlaps(diffs: Diff[]): void {
  for (let p = 1; p < diffs.length; p++) {
    if (diffs[p - 1][0] !== DEL || diffs[p][0] !== INS) continue;
    const [del, ins] = [diffs[p - 1][1], diffs[p][1]];
    const [o1, o2] = [overlap(del, ins), overlap(ins, del)];
    if (o1 >= o2 && (o1 >= del.length / 2 || o1 >= ins.length / 2)) {
      diffs.splice(p, 0, [EQ, ins.substring(0, o1)]);
      diffs[p - 1][1] = del.substring(0, del.length - o1);
      diffs[p + 1][1] = ins.substring(o1);
      p++;
    } else if (o2 > o1 && (o2 >= del.length / 2 || o2 >= ins.length / 2)) {
      diffs.splice(p, 0, [EQ, del.substring(0, o2)]);
      diffs[p - 1] = [INS, ins.substring(0, ins.length - o2)];
      diffs[p + 1] = [DEL, del.substring(o2)];
      p++;
    }
    p++;
  }
}

/** diff-match-patch `diff_cleanupSemantic`; mutates and returns `diffs`. */
export function cleanupSemantic(diffs: Diff[]): Diff[] {
  const equalities: number[] = [];
  let last: string | null = null;
  let [ins1, del1, ins2, del2] = [0, 0, 0, 0];
  let changes = false;
  for (let p = 0; p < diffs.length; p++) {
    const [op, text] = diffs[p];
    if (op === EQ) {
      equalities.push(p);
      [ins1, del1, ins2, del2, last] = [ins2, del2, 0, 0, text];
      continue;
    }
    if (op === INS) ins2 += text.length;
    else del2 += text.length;
    if (last && last.length <= Math.max(ins1, del1) && last.length <= Math.max(ins2, del2)) {
      const at = equalities[equalities.length - 1];
      diffs.splice(at, 0, [DEL, last]);
      diffs[at + 1][0] = INS;
      equalities.length = Math.max(0, equalities.length - 2);
      p = equalities.length ? equalities[equalities.length - 1] : -1;
      [ins1, del1, ins2, del2, last, changes] = [0, 0, 0, 0, null, true];
    }
  }
  if (changes) cleanupMerge(diffs);
  alignToWords(diffs);
  extractOverlaps(diffs);
  return diffs;
}
