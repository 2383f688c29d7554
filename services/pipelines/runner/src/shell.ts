import { spawn } from 'node:child_process';

/** How a step ended: its exit code, or that it was stopped (timeout or abort). */
export type StepResult = { exitCode: number; stopped: null } | { exitCode: null; stopped: 'timeout' | 'aborted' };

/**
 * A step's script as the shell executor writes it: each command echoed as `$ <command>` (green, as
 * gitlab-runner does) before it runs; the first failing command ends the step (`set -eo pipefail`).
 */
export function stepScript(lines: string[]): string {
  const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return ['set -eo pipefail', ...lines.flatMap((l) => [`printf '%s\\n' ${quoted(`\x1b[32;1m$ ${l}\x1b[0;m`)}`, l])].join('\n') + '\n';
}

/**
 * Runs `script` with `shell` in `cwd` with `env`, its stdout and stderr going to `out`. Stops it
 * (its whole process group) after `timeoutMs` or when `signal` aborts.
 */
export function runStep(shell: string, script: string, cwd: string, env: NodeJS.ProcessEnv, out: (b: Buffer) => void, timeoutMs: number, signal: AbortSignal): Promise<StepResult> {
  return new Promise((resolve) => {
    const child = spawn(shell, ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stopped: 'timeout' | 'aborted' | null = null;
    const stop = (why: 'timeout' | 'aborted') => {
      stopped ??= why;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('aborted');
    signal.addEventListener('abort', onAbort);
    if (signal.aborted) onAbort();
    child.stdout!.on('data', out);
    child.stderr!.on('data', out);
    child.on('error', (e) => out(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(stopped ? { exitCode: null, stopped } : { exitCode: code ?? 1, stopped: null });
    });
  });
}
