import { createHash, randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import busboy from 'busboy';
import type { Knex } from 'knex';
import { FileTooLargeError, type Storage } from '@anvil/storage';
import type { Job } from '../jobs';

/** Artifact file types a runner may upload (GitLab's `Ci::JobArtifact.file_types`, the ones this service keeps). */
export const ARTIFACT_TYPES = ['archive', 'metadata', 'trace', 'junit'] as const;
/** Artifact formats (GitLab's `Ci::JobArtifact.file_formats`). */
export const ARTIFACT_FORMATS = ['raw', 'zip', 'gzip'] as const;
/** Largest artifact accepted (GitLab's default `max_artifacts_size`: 100 MB). */
export const MAX_ARTIFACT_SIZE = 100 * 1024 * 1024;

/** A job artifact's metadata. */
export interface JobArtifact {
  id: number;
  jobId: number;
  fileType: string;
  fileFormat: string;
  filename: string;
  size: number;
  sha256: string;
  storageKey: string;
  expireAt: Date | null;
}

/** What was stored of an upload's `file` part. */
interface StoredPart {
  key: string;
  filename: string;
  size: number;
  sha256: string;
}

/**
 * Streams the `file` part of a multipart body into storage under a fresh key, measuring its size
 * and SHA-256; null when the body has no `file` part. Past `limit` bytes: FileTooLargeError.
 */
export function storeFilePart(storage: Storage, headers: IncomingHttpHeaders, body: Readable, keyPrefix: string, limit = MAX_ARTIFACT_SIZE): Promise<StoredPart | null> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers, limits: { files: 1, fileSize: limit } });
    } catch (e) {
      return reject(e);
    }
    let pending: Promise<StoredPart> | null = null;
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || pending) return void stream.resume();
      const key = `${keyPrefix}/${randomUUID()}`;
      const hash = createHash('sha256');
      let size = 0;
      let tooLarge = false;
      const counted = new PassThrough();
      stream.on('data', (c: Buffer) => {
        size += c.length;
        hash.update(c);
      });
      stream.on('limit', () => {
        tooLarge = true;
        counted.destroy(new FileTooLargeError());
      });
      stream.pipe(counted);
      pending = storage.put(key, counted).then(async () => {
        if (tooLarge) {
          await storage.delete(key);
          throw new FileTooLargeError();
        }
        return { key, filename: info.filename || 'artifacts', size, sha256: hash.digest('hex') };
      });
      pending.catch(() => undefined);
    });
    parser.on('error', reject);
    parser.on('close', () => (pending ? pending.then(resolve, reject) : resolve(null)));
    body.on('error', reject);
    body.pipe(parser);
  });
}

/** Parses GitLab's `expire_in` (`30 days`, `1 week 2 days`, `3600`, `never`): seconds, null for never, undefined when unreadable. */
export function parseExpireIn(s: string): number | null | undefined {
  const text = s.trim().toLowerCase();
  if (text === 'never') return null;
  if (/^\d+$/.test(text)) return Number(text);
  const units: Record<string, number> = { s: 1, sec: 1, second: 1, m: 60, min: 60, minute: 60, h: 3600, hr: 3600, hour: 3600, d: 86400, day: 86400, w: 604800, week: 604800, mo: 2592000, month: 2592000, y: 31536000, yr: 31536000, year: 31536000 };
  if (!/^(\d+(\.\d+)?\s*[a-z]+(\s*,)?(\s+and)?\s*)+$/.test(text)) return undefined;
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)) {
    const unit = units[m[2]] ?? units[m[2].replace(/s$/, '')];
    if (unit === undefined) return undefined;
    total += Number(m[1]) * unit;
  }
  return Math.round(total);
}

type Row = { id: number; job_id: number; file_type: string; file_format: string; filename: string; size: string; sha256: string; storage_key: string; expire_at: Date | null };

function toArtifact(r: Row): JobArtifact {
  return { id: Number(r.id), jobId: Number(r.job_id), fileType: r.file_type, fileFormat: r.file_format, filename: r.filename, size: Number(r.size), sha256: r.sha256, storageKey: r.storage_key, expireAt: r.expire_at };
}

/** Job artifacts' metadata. */
export const artifactStore = {
  /**
   * Records a stored file as `job`'s artifact of `type`. The same type stored before with the same
   * content → that one (the new copy is not kept); with other content → 'conflict'.
   */
  async record(db: Knex, storage: Storage, job: Job, part: StoredPart, type: string, format: string, expireAt: Date | null): Promise<JobArtifact | 'conflict'> {
    const [row] = await db('job_artifacts')
      .insert({ job_id: job.id, project_id: job.project_id, pipeline_id: job.pipeline_id, file_type: type, file_format: format, filename: part.filename, size: part.size, sha256: part.sha256, storage_key: part.key, expire_at: expireAt })
      .onConflict(['job_id', 'file_type'])
      .ignore()
      .returning('*');
    if (row) return toArtifact(row as Row);
    await storage.delete(part.key);
    const known = toArtifact((await db('job_artifacts').where({ job_id: job.id, file_type: type }).first()) as Row);
    return known.sha256 === part.sha256 ? known : 'conflict';
  },

  /** The JUnit artifacts of the pipeline's current jobs, with their job names, in job order. */
  async junitOfPipeline(db: Knex, pipelineId: number): Promise<(JobArtifact & { jobName: string })[]> {
    const rows = await db('job_artifacts as a')
      .join('jobs as j', 'j.id', 'a.job_id')
      .select('a.*', 'j.name as job_name')
      .where({ 'a.pipeline_id': pipelineId, 'a.file_type': 'junit', 'j.retried': false })
      .orderBy('a.job_id');
    return rows.map((r: Row & { job_name: string }) => ({ ...toArtifact(r), jobName: r.job_name }));
  },
};
