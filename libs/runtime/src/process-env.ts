/**
 * Process settings every service and the gateway run with, wherever they run as their own processes:
 * the Dockerfile sets the same (`deploy/test` checks it) and `libs/testing`'s fleet spawns with them.
 *
 * - `MALLOC_ARENA_MAX=2`: glibc otherwise keeps up to eight malloc arenas per core for the threads
 *   that touch file and socket buffers (libuv's pool, the MD5 worker), each holding freed memory.
 * - `--max-semi-space-size=1` (MiB): V8's young generation stays small, so the short-lived buffers of
 *   streamed bodies are collected after a megabyte of allocation instead of after sixteen.
 *
 * Measured with bench/registry (a 1 GB upload and download through the gateway): peak RSS of the
 * gateway about 40 MB lower and of the registry about 30 MB lower, with no loss of throughput.
 */
export const PROCESS_ENV = { MALLOC_ARENA_MAX: '2', NODE_OPTIONS: '--max-semi-space-size=1' } as const;

/** `env` with PROCESS_ENV applied (NODE_OPTIONS appended to what `env` already has). */
export function withProcessEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const nodeOptions = [env.NODE_OPTIONS, PROCESS_ENV.NODE_OPTIONS].filter(Boolean).join(' ');
  return { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? PROCESS_ENV.MALLOC_ARENA_MAX, NODE_OPTIONS: nodeOptions };
}
