import type { Router } from 'express';
import type { Knex } from 'knex';
import { ctx, p, params, RecordNotFoundError } from '@anvil/http';
import { findProjectJob } from '../jobs';
import { authorizeReadBuild } from '../runners/read-build';
import { traceStore } from '../runners/trace-store';

const jobParams = params({ job_id: p.integer().required() });

/** GitLab's job log for users. */
export function mountJobTraces(router: Router, { db }: { db: Knex }): void {
  // GET /projects/:id/jobs/:job_id/trace
  router.get('/projects/:id/jobs/:job_id/trace', async (req, res) => {
    const c = ctx(req);
    const { job_id } = jobParams.parse(req);
    authorizeReadBuild(c);
    const job = await findProjectJob(db, c.project!.id, job_id);
    if (!job) throw new RecordNotFoundError();
    res.status(200).setHeader('Content-Type', 'text/plain');
    res.setHeader('Content-Disposition', `infile; filename="${job.id}.log"`);
    for await (const chunk of traceStore.read(db, job.id)) {
      if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
    }
    res.end();
  });
}
