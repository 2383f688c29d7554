import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
}

/** Samples of a process waiting, not working. */
const IDLE = new Set(['(idle)', '(program)']);

/**
 * Prints the functions with the most self time in the busiest `.cpuprofile` of `dir` (the one with
 * the most busy samples; each fleet process writes one when it exits).
 */
export function hottest(dir: string, top: number): void {
  if (!existsSync(dir)) return;
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  let best: { file: string; profile: Profile; samples: number } | null = null;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
    const samples = profile.nodes.filter((n) => !IDLE.has(n.callFrame.functionName)).reduce((s, n) => s + (n.hitCount ?? 0), 0);
    if (!best || samples > best.samples) best = { file, profile, samples };
  }
  if (!best) return;
  const self = new Map<string, number>();
  for (const n of best.profile.nodes) {
    if (IDLE.has(n.callFrame.functionName)) continue;
    const where = n.callFrame.url ? `${n.callFrame.url.replace(/^.*\/(node_modules|services|libs)\//, '$1/')}:${n.callFrame.lineNumber + 1}` : '';
    const key = `${n.callFrame.functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + (n.hitCount ?? 0));
  }
  console.log(`\nhottest functions (self samples) of ${path.join(dir, best.file)}, ${best.samples} busy samples (1 ms each):`);
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((v / best.samples) * 100).toFixed(1).padStart(5)}%  ${k}`);
}
