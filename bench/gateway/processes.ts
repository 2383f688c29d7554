import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root (bench scripts live two levels below it). */
export const ROOT = path.resolve(__dirname, '..', '..');

/** Peak and current resident set size of a process, in MB, from /proc/<pid>/status. */
export function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

/** CPU time (user + system, seconds) a process has used so far, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Runs a TypeScript entry point as its own node process (tsx loader, no wrapper process, so the pid
 * is the one to measure) and resolves once it prints `marker` on stdout, with what it printed so far.
 */
export function startNodeProcess(entry: string, env: Record<string, string>, marker: string, nodeArgs: string[] = []): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, [...nodeArgs, '--require', 'tsx/cjs', path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (c: Buffer) => {
      seen += c.toString();
      if (seen.includes(marker)) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ child, output: seen });
      } else if (seen.length > 100_000) seen = seen.slice(-1000);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready`)));
  });
}

/** The `"port":N` a service logged when it started listening. */
export function loggedPort(output: string): number {
  const m = /"msg":"listening"[^\n]*"port":(\d+)/.exec(output);
  if (!m) throw new Error(`no listening port in: ${output.slice(0, 500)}`);
  return Number(m[1]);
}

/** Stops a child process with SIGTERM (SIGKILL after `ms`) and waits for it. */
export function stopProcess(child: ChildProcess, ms = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
