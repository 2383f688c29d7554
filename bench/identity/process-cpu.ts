/**
 * CPU time of the fleet's processes, from /proc (load-independent): the gateway's, identity's and
 * identity's Postgres backends' (the server processes whose client sockets identity holds).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** CPU seconds (user + system) a process has used (0 when it is gone). */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** Socket inodes a process holds open. */
function socketInodes(pid: number): Set<string> {
  const out = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]);
    } catch {
      /* closed meanwhile */
    }
  }
  return out;
}

/** Local ports of `pid`'s TCP connections to `port` (IPv4 and IPv6 tables). */
function clientPortsTo(pid: number, port: number): Set<number> {
  const inodes = socketInodes(pid);
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9])) continue;
      const local = parseInt(f[1].split(':')[1], 16);
      const remote = parseInt(f[2].split(':')[1], 16);
      if (remote === port) ports.add(local);
    }
  }
  return ports;
}

/** The server pids of `pid`'s open Postgres connections (matched by client port in `pg_stat_activity`). */
export async function backendPidsOf(pid: number, pgPort: number, query: (sql: string) => Promise<{ pid: number; client_port: number }[]>): Promise<number[]> {
  const ports = clientPortsTo(pid, pgPort);
  const rows = await query('SELECT pid, client_port FROM pg_stat_activity WHERE client_port IS NOT NULL');
  return rows.filter((r) => ports.has(r.client_port)).map((r) => r.pid);
}
