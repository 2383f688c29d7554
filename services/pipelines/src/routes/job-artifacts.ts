import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import { isUploadKey, transferOf } from '@anvil/auth';
import { BadRequestError, ctx, HttpError, p, params, TooLargeError } from '@anvil/http';
import { FileTooLargeError, type Storage } from '@anvil/storage';
import { ARTIFACT_FORMATS, ARTIFACT_TYPES, artifactStore, MAX_ARTIFACT_SIZE, parseExpireIn, storeFilePart } from '../runners/artifact-store';
import { authenticateJob } from '../runners/job-auth';

/** What the artifacts upload needs. */
export interface JobArtifactsDeps {
  db: Knex;
  storage: Storage;
}

/** GitLab's default `default_artifacts_expire_in`. */
const DEFAULT_EXPIRE_SECONDS = 30 * 86400;

const uploadParams = params({
  id: p.integer().required(),
  artifact_type: p.enum(ARTIFACT_TYPES).default('archive'),
  artifact_format: p.enum(ARTIFACT_FORMATS).default('zip'),
  expire_in: p.string(),
});

function jobToken(req: Request): string | undefined {
  return req.get('job-token') ?? (typeof req.query.token === 'string' ? req.query.token : undefined);
}

/** The upload's body: the object the gateway stored (accelerated upload), or the request itself. */
async function uploadBody(req: Request, storage: Storage) {
  const transfer = transferOf(ctx(req));
  if (!transfer) return { body: req, uploadKey: null };
  if (transfer.phase !== 'stored' || !isUploadKey(transfer.upload.key)) throw new BadRequestError('upload is invalid');
  const stored = await storage.read(transfer.upload.key);
  if (!stored) throw new BadRequestError('upload is invalid');
  return { body: stored.body, uploadKey: transfer.upload.key };
}

/** GitLab's artifacts upload (`POST /jobs/:id/artifacts`), its body stored by the gateway as Workhorse does for GitLab. */
export function mountJobArtifacts(router: Router, { db, storage }: JobArtifactsDeps): void {
  // POST /jobs/:id/artifacts
  router.post('/jobs/:id/artifacts', async (req, res) => {
    const a = uploadParams.parse(req);
    const job = await authenticateJob(db, a.id, jobToken(req));
    const expireIn = a.expire_in === undefined ? DEFAULT_EXPIRE_SECONDS : parseExpireIn(a.expire_in);
    if (expireIn === undefined) throw new BadRequestError('expire_in is invalid');
    const transfer = transferOf(ctx(req));
    if (transfer?.phase === 'authorize') {
      if (transfer.declared !== null && transfer.declared > MAX_ARTIFACT_SIZE) throw new TooLargeError();
      return void res.status(200).json({ MaximumSize: MAX_ARTIFACT_SIZE });
    }
    const { body, uploadKey } = await uploadBody(req, storage);
    const part = await storeFilePart(storage, req.headers, body, `job-artifacts/${job.project_id}/${job.id}`).catch((e: unknown) => {
      throw e instanceof FileTooLargeError ? new TooLargeError() : new BadRequestError('invalid multipart body');
    });
    if (uploadKey) await storage.delete(uploadKey);
    if (!part) throw new HttpError(400, { error: 'file is missing' });
    const expireAt = expireIn === null ? null : new Date(Date.now() + expireIn * 1000);
    const recorded = await artifactStore.record(db, storage, job, part, a.artifact_type, a.artifact_format, expireAt);
    if (recorded === 'conflict') throw new HttpError(400, { message: 'another artifact of the same type already exists' });
    res.status(201).json(201);
  });
}
