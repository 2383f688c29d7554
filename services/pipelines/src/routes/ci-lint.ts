import type { Router } from 'express';
import type { Knex } from 'knex';
import { AccessLevel, projectAccess, RequestContext } from '@anvil/auth';
import { ctx, ForbiddenError, p, params } from '@anvil/http';
import { lintContent, LintProject, lintRepository } from '../ci-config/lint-service';
import { toLintResult } from '../entities/ci-lint-result';
import type { RepositoryReader } from '../repository/types';

/** What the CI Lint routes need. */
export interface CiLintDeps {
  db: Knex;
  reader: RepositoryReader;
}

const getParams = params(
  {
    sha: p.string(), content_ref: p.string(), dry_run: p.boolean().default(false), include_jobs: p.boolean(),
    ref: p.string(), dry_run_ref: p.string(),
  },
  { mutuallyExclusive: [['sha', 'content_ref'], ['ref', 'dry_run_ref'], ['sha', 'ref']] },
);
const postParams = params({ content: p.string().required(), dry_run: p.boolean().default(false), include_jobs: p.boolean(), ref: p.string() });

function lintProject(c: RequestContext): LintProject {
  const scope = c.project!;
  return { id: scope.id, pathWithNamespace: scope.path_with_namespace, base: c.base.replace(/\/$/, ''), level: projectAccess(c) };
}

/** `read_code`: anyone who sees a public or internal project; Reporter and up on a private one. */
function authorizeReadCode(c: RequestContext): void {
  if (c.project?.visibility === 'private' && projectAccess(c) < AccessLevel.REPORTER) throw new ForbiddenError();
}

/** `create_pipeline`: Developer and up. */
function authorizeCreatePipeline(c: RequestContext): void {
  if (!c.user || projectAccess(c) < AccessLevel.DEVELOPER) throw new ForbiddenError();
}

/** GitLab's CI Lint API (lib/api/lint.rb). */
export function mountCiLint(router: Router, { db, reader }: CiLintDeps): void {
  // GET /projects/:id/ci/lint
  router.get('/projects/:id/ci/lint', async (req, res) => {
    const c = ctx(req);
    const q = getParams.parse(req);
    authorizeReadCode(c);
    const result = await lintRepository(db, reader, lintProject(c), {
      dryRun: q.dry_run, contentRef: q.content_ref ?? q.sha, dryRunRef: q.dry_run_ref ?? q.ref,
    });
    res.status(200).json(toLintResult(result, q.include_jobs === true));
  });

  // POST /projects/:id/ci/lint
  router.post('/projects/:id/ci/lint', async (req, res) => {
    const c = ctx(req);
    const q = postParams.parse(req);
    authorizeCreatePipeline(c);
    const result = await lintContent(db, reader, lintProject(c), q.content, { dryRun: q.dry_run, ref: q.ref });
    res.status(200).json(toLintResult(result, q.include_jobs === true));
  });
}
