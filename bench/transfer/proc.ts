import { readFileSync } from 'node:fs';

/** A figure per process name. */
export type ProcSample = Record<string, number>;

const TICKS = 100;

/** User + system CPU seconds of each process so far (`/proc/<pid>/stat`, fields 14 and 15). */
export function cpuSeconds(pids: Record<string, number>): ProcSample {
  return Object.fromEntries(Object.entries(pids).map(([name, pid]) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [name, (Number(fields[11]) + Number(fields[12])) / TICKS];
  }));
}

/** The peak resident set (VmHWM) of each process so far, in MB. */
export function peakRssMb(pids: Record<string, number>): ProcSample {
  return Object.fromEntries(Object.entries(pids).map(([name, pid]) => {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return [name, m ? Number(m[1]) / 1024 : NaN];
  }));
}
