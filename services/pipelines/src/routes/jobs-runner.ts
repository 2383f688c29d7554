import type { Request, Response, Router } from 'express';
import type { Knex } from 'knex';
import { ctx, HttpError, p, params } from '@anvil/http';
import { toJobRequest } from '../entities/job-request';
import { transitionJob } from '../jobs';
import { knownFailureReason } from '../runners/failure-reasons';
import { authenticateJob } from '../runners/job-auth';
import type { JobQueueWaker } from '../runners/job-queue-waker';
import { assignJob } from '../runners/job-request-service';
import { runnerStore } from '../runners/runner-store';
import { authenticateRunner } from '../runners/runner-service';
import { traceStore } from '../runners/trace-store';
import { runnerToken } from './runner-api';

/** What the runner's job routes need. */
export interface JobsRunnerDeps {
  db: Knex;
  waker: JobQueueWaker;
  /** How long `POST /jobs/request` holds a request while nothing changes (Workhorse's long polling). */
  longPollMs: number;
}

/** Largest trace patch accepted in one request. */
export const MAX_TRACE_PATCH = 16 * 1024 * 1024;
/** `X-GitLab-Trace-Update-Interval` while nobody watches the log (GitLab's default). */
const TRACE_UPDATE_INTERVAL = '60';

const updateParams = params({ token: p.string().required(), state: p.enum(['running', 'success', 'failed'] as const), failure_reason: p.string(), exit_code: p.integer() });
const idParam = params({ id: p.integer().required() });

/** The job token a runner sends: the `JOB-TOKEN` header, else the `token` parameter. */
function jobToken(req: Request): string | undefined {
  const body = req.body as { token?: unknown } | undefined;
  return req.get('job-token') ?? (typeof body?.token === 'string' ? body.token : typeof req.query.token === 'string' ? req.query.token : undefined);
}

/** Reads a raw (unparsed) request body, refusing more than `limit` bytes. */
async function rawBody(req: Request, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > limit) throw new HttpError(413, { message: '413 Request Entity Too Large' });
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}

/** 204 with the queue value the runner sends back as `last_update`. */
function noJob(res: Response, value: string): void {
  res.status(204).setHeader('X-GitLab-Last-Update', value);
  res.end();
}

/** GitLab's runner job API: request a job (long poll), update its state, append to its trace. */
export function mountJobsRunner(router: Router, deps: JobsRunnerDeps): void {
  const { db, waker } = deps;

  // POST /jobs/request
  router.post('/jobs/request', async (req, res) => {
    const runner = await authenticateRunner(db, runnerToken(req));
    await runnerStore.contacted(db, runner.id, req.body?.info, true);
    if (runner.paused) return noJob(res, waker.current);
    const lastUpdate = typeof req.body?.last_update === 'string' ? req.body.last_update : undefined;
    if (lastUpdate !== undefined && lastUpdate === waker.current) {
      const gone = new AbortController();
      res.on('close', () => gone.abort());
      if (!(await waker.wait(lastUpdate, deps.longPollMs, gone.signal))) return noJob(res, waker.current);
    }
    const value = waker.current;
    const spec = await assignJob(db, runner, ctx(req).base, req.body?.info?.features ?? {});
    if (!spec) return noJob(res, value);
    res.status(201).json(toJobRequest(spec));
  });

  // PUT /jobs/:id
  router.put('/jobs/:id', async (req, res) => {
    const { id } = idParam.parse(req);
    const a = updateParams.parseObject({ ...(req.body ?? {}), token: jobToken(req) });
    const job = await authenticateJob(db, id, a.token);
    let status = job.status;
    if (a.state === 'success' || a.state === 'failed') {
      const done = a.state === 'success' ? await transitionJob(db, id, 'succeed', { exitCode: a.exit_code ?? null }) : await transitionJob(db, id, 'drop', { failureReason: knownFailureReason(a.failure_reason), exitCode: a.exit_code ?? null });
      status = done?.job.status ?? status;
    } else {
      await db('jobs').where({ id }).update({ updated_at: db.fn.now() });
    }
    res.status(200).setHeader('Job-Status', status);
    res.json(200);
  });

  // PATCH /jobs/:id/trace
  router.patch('/jobs/:id/trace', async (req, res) => {
    const { id } = idParam.parse(req);
    const job = await authenticateJob(db, id, jobToken(req));
    const range = /^(\d+)-(\d+)$/.exec(req.get('content-range') ?? '');
    if (!req.get('content-range')) throw new HttpError(400, { message: '400 Missing header Content-Range' });
    if (!range) throw new HttpError(400, { message: '400 Bad request - Content-Range is invalid' });
    const body = await rawBody(req, MAX_TRACE_PATCH);
    const r = await traceStore.append(db, id, Number(range[1]), body);
    if (!r.ok) throw new HttpError(416, { message: '416 Range Not Satisfiable' }, { Range: `0-${r.size}` });
    res.status(202).set({ 'Job-Status': job.status, Range: `0-${r.size}`, 'X-GitLab-Trace-Update-Interval': TRACE_UPDATE_INTERVAL });
    res.end();
  });
}
