/**
 * Process settings the services and the gateway run with, wherever they run as their own processes:
 * the Dockerfile sets the same (`deploy/test` checks it) and `libs/testing`'s fleet spawns with them.
 *
 * - `MALLOC_ARENA_MAX`: glibc otherwise keeps up to eight malloc arenas per core for the threads
 *   that touch file and socket buffers (libuv's pool, the MD5 workers), each holding freed memory;
 *   the gateway, which moves every file's bytes, gets one (peak RSS 133–141 MB at 100 MB–1 GB
 *   instead of 135–151 with two, same throughput), the services two.
 * - `--max-semi-space-size` (MiB): V8's young generation stays small, so the short-lived buffers of
 *   streamed bodies are collected sooner. The gateway, which carries every file's bytes, gets 2; the
 *   services, where small requests dominate, 4 (at 1 the gateway spends ~11% and the registry ~9% of
 *   their time in scavenges at 5,000 requests/s, and authenticate's p99 grows).
 * - `nodeArgs`, flags given on the node command line (NODE_OPTIONS does not accept them):
 *   `--expose-gc` for the gateway, which collects its young generation every 4 MiB of upload body
 *   it receives (`gateway/src/young-collections.ts`): the dead 64 KiB chunk buffers are freed at once
 *   instead of starting a full mark every ~28 MB (peak RSS at 1 MB uploads 153–172 → 117–135 MB).
 *   `--no-concurrent-marking` on top measured within noise (100 MB uploads ~4% faster, 1 KB ~12% slower).
 *
 * Measured with bench/registry (a 1 GB upload and download through the gateway, and 5,000 req/s of
 * `ping` and `authenticate`): see bench/registry/README.md.
 */
export const PROCESS_ENV = {
  gateway: { MALLOC_ARENA_MAX: '1', NODE_OPTIONS: '--max-semi-space-size=2', nodeArgs: ['--expose-gc'] },
  service: { MALLOC_ARENA_MAX: '2', NODE_OPTIONS: '--max-semi-space-size=4', nodeArgs: [] },
} as const;

/** `env` with the settings of `role` applied (NODE_OPTIONS appended to what `env` already has). */
export function withProcessEnv(role: keyof typeof PROCESS_ENV, env: Record<string, string | undefined>): Record<string, string | undefined> {
  const settings = PROCESS_ENV[role];
  const nodeOptions = [env.NODE_OPTIONS, settings.NODE_OPTIONS].filter(Boolean).join(' ');
  return { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? settings.MALLOC_ARENA_MAX, NODE_OPTIONS: nodeOptions };
}

/**
 * The node arguments a process of `role` runs from source with, before its entry file: its
 * `nodeArgs`, then tsx's CommonJS hooks (no loader thread, unlike `--import tsx`). The fleet spawns
 * with them; the image runs the compiled entry with `nodeArgs` alone (`deploy/test` checks it).
 */
export function processArgs(role: keyof typeof PROCESS_ENV): string[] {
  return [...PROCESS_ENV[role].nodeArgs, '--require', 'tsx/cjs'];
}
