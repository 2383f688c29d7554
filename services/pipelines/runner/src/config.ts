import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** What the runner needs to know. */
export interface RunnerConfig {
  /** Base URL of the Anvil instance (its gateway), e.g. http://127.0.0.1:8080. */
  url: string;
  /** The runner authentication token (`glrt-…`) from `POST /user/runners`. */
  token: string;
  /** Where each job's fresh temporary directory is made. */
  buildsDir: string;
  /** The shell that runs scripts (bash, for `set -o pipefail`). */
  shell: string;
  /** How long a trace is buffered before it is sent (ms). */
  traceIntervalMs: number;
  /** After SIGTERM, how long a running job may go on before it is stopped and reported failed (ms). */
  shutdownGraceMs: number;
  /** A name reported in `info`. */
  name: string;
}

/**
 * Reads the configuration: a JSON file (`--config <path>` or `ANVIL_RUNNER_CONFIG`) with the
 * fields of RunnerConfig, overridden by `ANVIL_URL`, `RUNNER_TOKEN`, `RUNNER_BUILDS_DIR`,
 * `RUNNER_SHELL`. Throws, naming what is missing, when there is no URL or token.
 */
export function loadConfig(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): RunnerConfig {
  const at = argv.indexOf('--config');
  const file = at >= 0 ? argv[at + 1] : env.ANVIL_RUNNER_CONFIG;
  const fromFile = file ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<RunnerConfig>) : {};
  const url = env.ANVIL_URL ?? fromFile.url;
  const token = env.RUNNER_TOKEN ?? fromFile.token;
  if (!url) throw new Error('ANVIL_URL (or "url" in the config file) is required');
  if (!token) throw new Error('RUNNER_TOKEN (or "token" in the config file) is required');
  return {
    url: url.replace(/\/+$/, ''),
    token,
    buildsDir: env.RUNNER_BUILDS_DIR ?? fromFile.buildsDir ?? tmpdir(),
    shell: env.RUNNER_SHELL ?? fromFile.shell ?? 'bash',
    traceIntervalMs: Number(env.RUNNER_TRACE_INTERVAL_MS ?? fromFile.traceIntervalMs ?? 1000),
    shutdownGraceMs: Number(env.RUNNER_SHUTDOWN_GRACE_MS ?? fromFile.shutdownGraceMs ?? 10_000),
    name: fromFile.name ?? 'anvil-runner',
  };
}
