import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { JobPayload, RunnerClient } from './client';
import type { RunnerConfig } from './config';
import { matchingFiles } from './files';
import { runStep, stepScript, type StepResult } from './shell';
import { TraceStream } from './trace';

/** How a job ended, as reported to Anvil. */
export type JobOutcome = { state: 'success' } | { state: 'failed'; failureReason: string; exitCode?: number };

/**
 * Runs one job with the shell executor: a fresh temporary directory, the job's variables as the
 * environment, the `script` step (before_script + script) then `after_script` (always; its failure
 * ignored), the `artifacts:reports:junit` files uploaded gzipped, the log streamed, and the final
 * state reported with the exit code. `stop` aborts it (the job is then reported failed).
 */
export async function runJob(client: RunnerClient, config: RunnerConfig, job: JobPayload, stop: AbortSignal): Promise<JobOutcome> {
  const abort = new AbortController();
  const onStop = () => abort.abort();
  stop.addEventListener('abort', onStop);
  const trace = new TraceStream(client, job, config.traceIntervalMs, () => abort.abort());
  const dir = await mkdtemp(path.join(config.buildsDir, `anvil-job-${job.id}-`));
  let outcome: JobOutcome;
  try {
    trace.write(`\x1b[0KRunning with ${config.name} on ${process.platform}, shell executor\n`);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, CI_BUILDS_DIR: config.buildsDir, CI_PROJECT_DIR: dir };
    for (const v of job.variables) env[v.key] = v.value;
    outcome = await runSteps(config, job, dir, env, trace, abort.signal);
    await uploadReports(client, job, dir, trace, outcome);
  } catch (e) {
    trace.write(`\x1b[31;1mERROR: ${e instanceof Error ? e.message : String(e)}\x1b[0;m\n`);
    outcome = { state: 'failed', failureReason: 'runner_system_failure' };
  } finally {
    stop.removeEventListener('abort', onStop);
    await rm(dir, { recursive: true, force: true });
  }
  trace.write(outcome.state === 'success' ? '\x1b[32;1mJob succeeded\x1b[0;m\n' : `\x1b[31;1mERROR: Job failed: ${outcome.failureReason}${outcome.exitCode !== undefined ? ` (exit code ${outcome.exitCode})` : ''}\x1b[0;m\n`);
  await trace.flush();
  await client.updateJob(job, outcome.state, outcome.state === 'failed' ? { failure_reason: outcome.failureReason, ...(outcome.exitCode !== undefined ? { exit_code: outcome.exitCode } : {}) } : { exit_code: 0 });
  return outcome;
}

function failed(r: StepResult, stopped: boolean): JobOutcome {
  if (r.stopped === 'timeout') return { state: 'failed', failureReason: 'job_execution_timeout' };
  if (r.stopped || stopped) return { state: 'failed', failureReason: 'runner_system_failure' };
  return { state: 'failed', failureReason: 'script_failure', exitCode: r.exitCode };
}

async function runSteps(config: RunnerConfig, job: JobPayload, dir: string, env: NodeJS.ProcessEnv, trace: TraceStream, signal: AbortSignal): Promise<JobOutcome> {
  const out = (b: Buffer) => trace.write(b);
  let outcome: JobOutcome = { state: 'success' };
  for (const step of job.steps) {
    if (step.name === 'after_script') continue;
    const r = await runStep(config.shell, stepScript(step.script), dir, env, out, step.timeout * 1000, signal);
    if (r.exitCode !== 0) {
      outcome = failed(r, signal.aborted);
      break;
    }
  }
  const after = job.steps.find((s) => s.name === 'after_script');
  if (after && !signal.aborted) {
    trace.write('\x1b[32;1mRunning after_script\x1b[0;m\n');
    const r = await runStep(config.shell, stepScript(after.script), dir, { ...env, CI_JOB_STATUS: outcome.state }, out, after.timeout * 1000, new AbortController().signal);
    if (r.exitCode !== 0) trace.write(`\x1b[33;1mWARNING: after_script failed, but the job continues\x1b[0;m\n`);
  }
  return outcome;
}

/** Uploads each `junit` report entry: every matching file, one gzip member each (gitlab-runner's `gzip` format). */
async function uploadReports(client: RunnerClient, job: JobPayload, dir: string, trace: TraceStream, outcome: JobOutcome): Promise<void> {
  for (const a of job.artifacts ?? []) {
    if (a.artifact_type !== 'junit') continue;
    if (a.when === 'on_success' && outcome.state !== 'success') continue;
    if (a.when === 'on_failure' && outcome.state === 'success') continue;
    const files = await matchingFiles(dir, a.paths);
    if (files.length === 0) {
      trace.write(`\x1b[33;1mWARNING: ${a.paths.join(', ')}: no matching files\x1b[0;m\n`);
      continue;
    }
    trace.write(`Uploading artifacts: ${files.map((f) => f.path).join(', ')} (junit)\n`);
    await client.uploadArtifact(job, Buffer.concat(files.map((f) => gzipSync(f.data))), a.name ?? 'junit.xml.gz', 'junit', 'gzip', a.expire_in);
  }
}
