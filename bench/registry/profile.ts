/**
 * Where the CPU goes per transfer: uploads (or downloads) one size through the gateway and prints the
 * CPU seconds each process spent (all threads, from /proc), Postgres's, the machine's kernel time and
 * the wall time, per transfer.
 * Usage: PROFILE_SIZE=1G PROFILE_REPS=2 PROFILE_OP=up npx tsx bench/registry/profile.ts
 * `PROFILE_SLOTS=new` uploads each file to a file slot of its own (a new recipe revision) instead of
 * replacing one file again and again: nothing is freed, so the page cache grows into memory the
 * machine has not used yet, as it does on a server taking new packages.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { ensureFile, SIZES } from './files';
import { getDiscard, putFile } from './raw-client';
import { processTree, runMain } from './proc';
import { startAnvil } from './targets';

const TICK = 100; // USER_HZ

/** The name and CPU seconds (user, system) in a `/proc/.../stat` file, or null when it is gone. */
function stat(file: string): { name: string; user: number; sys: number } | null {
  try {
    const raw = readFileSync(file, 'utf8');
    // the name is in parentheses and may hold spaces: the fields count from after its last `)`
    const f = raw.slice(raw.lastIndexOf(') ') + 2).split(' ');
    return { name: raw.slice(raw.indexOf('(') + 1, raw.lastIndexOf(')')), user: Number(f[11]) / TICK, sys: Number(f[12]) / TICK };
  } catch {
    return null;
  }
}

/** CPU seconds (user, system) of every process in the tree, all threads. */
function cpu(pids: number[]): { user: number; sys: number } {
  let user = 0;
  let sys = 0;
  for (const pid of pids) {
    const s = stat(`/proc/${pid}/stat`);
    user += s?.user ?? 0;
    sys += s?.sys ?? 0;
  }
  return { user, sys };
}

/** CPU seconds (user, sys) of each thread of the processes, keyed by pid/tid and thread name. */
function threads(pids: number[]): Map<string, { user: number; sys: number }> {
  const out = new Map<string, { user: number; sys: number }>();
  for (const pid of pids) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const s = stat(`/proc/${pid}/task/${tid}/stat`);
      if (s) out.set(`${pid}/${tid} ${s.name}`, { user: s.user, sys: s.sys });
    }
  }
  return out;
}

/** Machine-wide CPU seconds by kind (first line of /proc/stat). */
function machine(): Record<string, number> {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq] = f;
  return { user: (user + nice) / TICK, system: system / TICK, idle: idle / TICK, iowait: iowait / TICK, softirq: (irq + softirq) / TICK };
}

function postgresPids(): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres');
    } catch {
      return false;
    }
  });
}

/** The file slot of `url` in a recipe revision of its own (the `i`th). */
function slot(url: string, i: number): string {
  return url.replace(/\/revisions\/[0-9a-f]+\//, `/revisions/${i.toString(16).padStart(32, '0')}/`);
}

async function main(): Promise<void> {
  const label = process.env.PROFILE_SIZE ?? '1G';
  const reps = Number(process.env.PROFILE_REPS ?? SIZES[label][1]);
  const op = process.env.PROFILE_OP ?? 'up';
  const size = SIZES[label][0];
  const file = await ensureFile(label, size);
  const t = await startAnvil();
  try {
    // one of each first: the slot exists and the paths are warm
    await putFile(t.fileUrl, file, t.headers);
    await getDiscard(t.fileUrl, t.headers);
    const groups: Record<string, () => number[]> = {
      gateway: () => processTree(t.pids.gateway),
      registry: () => processTree(t.pids.registry),
      postgres: postgresPids,
      client: () => [process.pid],
    };
    const before = Object.fromEntries(Object.entries(groups).map(([k, f]) => [k, cpu(f())]));
    const threads0 = { gateway: threads(groups.gateway()), registry: threads(groups.registry()) };
    const m0 = machine();
    const start = performance.now();
    const fresh = process.env.PROFILE_SLOTS === 'new';
    for (let i = 0; i < reps; i++) {
      if (op === 'up') await putFile(fresh ? slot(t.fileUrl, i) : t.fileUrl, file, t.headers);
      else await getDiscard(t.fileUrl, t.headers);
    }
    const wall = (performance.now() - start) / 1000;
    const m1 = machine();
    console.log(`${op} ${label} × ${reps}: ${((size * reps) / 1e6 / wall).toFixed(1)} MB/s, ${((wall / reps) * 1000).toFixed(2)} ms each`);
    console.log('CPU ms per transfer (user + sys):');
    for (const [k, f] of Object.entries(groups)) {
      const a = before[k];
      const b = cpu(f());
      console.log(`  ${k.padEnd(9)} ${(((b.user - a.user) * 1000) / reps).toFixed(2)} + ${(((b.sys - a.sys) * 1000) / reps).toFixed(2)}`);
    }
    for (const service of ['gateway', 'registry'] as const) {
      console.log(`${service} threads, CPU ms per transfer, user + sys (those above 1% of the wall time):`);
      for (const [k, v] of threads(groups[service]())) {
        const was = threads0[service].get(k) ?? { user: 0, sys: 0 };
        const [user, sys] = [v.user - was.user, v.sys - was.sys].map((s) => (s * 1000) / reps);
        if (user + sys > (wall * 10) / reps) console.log(`  ${k.padEnd(28)} ${user.toFixed(2)} + ${sys.toFixed(2)}`);
      }
    }
    for (const k of ['user', 'system', 'softirq', 'iowait', 'idle']) console.log(`  machine ${k.padEnd(8)} ${(((m1[k] - m0[k]) * 1000) / reps).toFixed(2)}`);
  } finally {
    await t.stop();
  }
}

runMain(main);
