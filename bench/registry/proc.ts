import { readFileSync, writeFileSync } from 'node:fs';

/** The pids of a process and all its descendants (tsx runs the script in a child of its CLI). */
export function processTree(pid: number): number[] {
  const out = [pid];
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return out;
  }
  for (const c of children) out.push(...processTree(c));
  return out;
}

function statusField(pid: number, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Peak resident set size (VmHWM) of the largest process in the tree, bytes. */
export function peakRss(pid: number): number {
  return Math.max(...processTree(pid).map((p) => statusField(p, 'VmHWM')));
}

/** Current resident set size (VmRSS) of the largest process in the tree, bytes. */
export function currentRss(pid: number): number {
  return Math.max(...processTree(pid).map((p) => statusField(p, 'VmRSS')));
}

/** Resets the peak RSS counters of the tree (Linux: writing 5 to clear_refs), so each run measures its own peak. */
export function resetPeak(pid: number): void {
  for (const p of processTree(pid)) {
    try {
      writeFileSync(`/proc/${p}/clear_refs`, '5');
    } catch {
      /* not permitted: peaks then accumulate over the run */
    }
  }
}

/** Bytes as MB (10^6), one decimal. */
export function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

/** Runs a benchmark's main and exits with its outcome (the fleet's timers would keep the process up). */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
