/**
 * CPU time per process from /proc/<pid>/stat (user + system), which does not depend on what else the
 * machine runs: the load-independent part of a benchmark's figures. The Postgres backends serving a
 * process are found through its TCP connections to Postgres (`ss`) and `pg_stat_activity`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createDb } from '@anvil/db';

/** Clock ticks per second of /proc/<pid>/stat (Linux's USER_HZ). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds a process has used so far (user + system), 0 when it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The local ports of `pid`'s TCP connections to `pgPort` on loopback. */
function portsToPostgres(pid: number, pgPort: number): number[] {
  const out = execFileSync('ss', ['-tnpH', 'state', 'established', 'dst', `127.0.0.1:${pgPort}`], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(`pid=${pid},`)).map((l) => Number(/127\.0\.0\.1:(\d+)\s+127\.0\.0\.1:\d+/.exec(l)?.[1])).filter((p) => p > 0);
}

/** The Postgres backend pids serving `pid`'s pooled connections. */
export async function backendsOf(databaseUrl: string, pid: number): Promise<number[]> {
  const pgPort = Number(new URL(databaseUrl).port || 5432);
  const ports = portsToPostgres(pid, pgPort);
  if (!ports.length) return [];
  const admin = createDb({ url: databaseUrl, schema: 'public', role: false, pool: { min: 0, max: 1 } });
  try {
    const { rows } = await admin.raw('SELECT pid FROM pg_stat_activity WHERE client_port = ANY(?::int[])', [ports]);
    return rows.map((r: { pid: number }) => r.pid);
  } finally {
    await admin.destroy();
  }
}

/** A named group of processes whose CPU time is measured together. */
export interface CpuGroup {
  name: string;
  pids: () => Promise<number[]> | number[];
}

/** CPU ms per group over a run: call `start` before it and `stop` after it. */
export class CpuMeter {
  private before = new Map<number, number>();

  constructor(private readonly groups: CpuGroup[]) {}

  async start(): Promise<void> {
    this.before.clear();
    for (const g of this.groups) for (const pid of await g.pids()) this.before.set(pid, cpuMs(pid));
  }

  /** CPU ms each group used since `start` (a process that appeared since counts from zero). */
  async stop(): Promise<Record<string, number>> {
    const used: Record<string, number> = {};
    for (const g of this.groups) {
      let ms = 0;
      for (const pid of new Set([...(await g.pids())])) ms += cpuMs(pid) - (this.before.get(pid) ?? 0);
      used[g.name] = ms;
    }
    return used;
  }
}

/** One line: CPU ms per request of each group and in all. */
export function formatCpuPerRequest(used: Record<string, number>, requests: number): string {
  const per = (ms: number) => (requests ? ms / requests : 0).toFixed(2);
  const total = Object.values(used).reduce((a, b) => a + b, 0);
  return `CPU ms per request: ${Object.entries(used).map(([k, v]) => `${k} ${per(v)}`).join(', ')}, all ${per(total)}`;
}
