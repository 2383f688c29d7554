import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { newUploadKey, type StoredUpload, UPLOADS_PREFIX, type UploadReservation } from '@anvil/auth';
import type { Logger } from '@anvil/http';
import { FileTooLargeError, type Storage } from '@anvil/storage';
import { cutWhenStalled } from './client-timeouts';
import type { Upstream } from './proxy';
import { countChunk } from './young-collections';

/** Upload bodies left in storage by a gateway that died mid-request are removed after this long. */
export const ORPHAN_AGE_MS = 24 * 3600 * 1000;
const SWEEP_EVERY_MS = 3600 * 1000;

/** What the service answered to a pre-authorisation that refused the upload, to relay as it is. */
export interface Refused {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  body: Buffer;
}

/** Why storing an upload body ended without a stored object. */
export type StoreFailure = 'too-large' | 'aborted';

/**
 * The gateway's side of accelerated transfers (see `TransferContext` in @anvil/auth): storing upload
 * bodies with their digests, sending stored files, and removing upload bodies nobody claimed.
 */
export class Transfers {
  private sweeper: NodeJS.Timeout | null = null;
  /** Upload bodies being received now (each holds a descriptor or an S3 upload until it settles). */
  receiving = 0;

  /**
   * `sendTimeoutMs`: a stored file being sent to a client that takes nothing of it for this long is
   * cut (nginx's `send_timeout` in front of GitLab); 0 never.
   */
  constructor(
    readonly storage: Storage,
    private readonly logger: Logger,
    private readonly sendTimeoutMs = 0,
  ) {}

  /**
   * Asks `upstream` to pre-authorise the `method` upload at `path` (no body; the context says so).
   * Resolves with the size limit (and what the service reserved for the upload, to hand back), or
   * with the refusal to relay.
   */
  async authorize(upstream: Upstream, method: string, path: string, headers: string[], timeoutMs: number): Promise<{ limit: number; reservation?: UploadReservation } | { refused: Refused }> {
    const r = await upstream.pool.request({ path, method: method as Dispatcher.HttpMethod, headers, body: null, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const body = Buffer.from(await r.body.arrayBuffer());
    if (r.statusCode === 200) {
      const answer = JSON.parse(body.toString('utf8')) as { MaximumSize?: unknown; Reservation?: { package_id?: unknown; file_id?: unknown } };
      const limit = answer.MaximumSize;
      if (typeof limit !== 'number' || limit < 0) throw new Error(`${upstream.name}: pre-authorisation answered without a MaximumSize`);
      const given = answer.Reservation;
      const reserved = given && Number.isSafeInteger(given.package_id) && Number.isSafeInteger(given.file_id);
      return reserved ? { limit, reservation: { package_id: given.package_id as number, file_id: given.file_id as number } } : { limit };
    }
    return { refused: { status: r.statusCode, headers: r.headers, body } };
  }

  /**
   * Starts streaming the request body into storage under a fresh `uploads/` key while measuring it.
   * `done` resolves with the stored object, or with why there is none (nothing is left behind then),
   * and rejects when storage fails while the client is still there;
   * `limit` caps the size (GitLab's 400 past it), also after bytes have started to flow; `cancel`
   * stops reading and discards what was stored, also a body that was stored whole already.
   */
  begin(req: IncomingMessage, limit = Number.MAX_SAFE_INTEGER): { done: Promise<StoredUpload | StoreFailure>; limit(n: number): void; cancel(): void } {
    const key = newUploadKey();
    const length = req.headers['content-length'];
    const expectedSize = length !== undefined && /^\d+$/.test(length) ? Number(length) : null;
    // a fresh key nobody reads before the service is told of it: written in place
    const receipt = this.storage.receive(key, req, { limit, expectedSize });
    // after the receiver's own listener: this one only counts
    req.on('data', countChunk);
    let cancelled = false;
    this.receiving++;
    const done = (async (): Promise<StoredUpload | StoreFailure> => {
      try {
        const d = await receipt.done;
        if (cancelled) throw new Error('cancelled');
        return { key, size: d.size, md5: d.md5, sha1: d.sha1, sha256: d.sha256 };
      } catch (e) {
        await this.discard(key);
        if (e instanceof FileTooLargeError) return 'too-large';
        if (cancelled || (req.destroyed && !req.complete)) return 'aborted';
        // storage failed while the client still waits: the caller answers
        throw e;
      } finally {
        this.receiving--;
      }
    })();
    return {
      done,
      limit: (n) => receipt.limit(n),
      cancel: () => {
        cancelled = true;
        receipt.cancel();
        // stored whole before the refusal came: nobody will claim it
        void done.then((r) => {
          if (typeof r === 'object') void this.discard(key);
        });
      },
    };
  }

  /** Deletes an upload body (best effort: a service may already have moved it). */
  async discard(key: string): Promise<void> {
    await this.storage.delete(key).catch((e: unknown) => this.logger.warn('could not delete an upload body', { key, err: String(e) }));
  }

  /**
   * Sends the stored object `key` as the body of a `status` answer with `headers` (its length set
   * here, from the object). Resolves false, having sent nothing, when the object does not exist.
   */
  async send(res: ServerResponse, key: string, status: number, headers: string[]): Promise<boolean> {
    const file = await this.storage.open(key);
    if (!file) return false;
    res.writeHead(status, [...headers, 'Content-Length', String(file.size)]);
    cutWhenStalled(res, this.sendTimeoutMs);
    await file.sendTo(res).catch(() => res.destroy());
    return true;
  }

  /** Deletes upload bodies older than ORPHAN_AGE_MS (left by a gateway that stopped mid-upload). */
  async sweep(now = Date.now()): Promise<number> {
    const before = now - ORPHAN_AGE_MS;
    let removed = 0;
    for await (const o of this.storage.list(UPLOADS_PREFIX)) {
      if (o.lastModified && o.lastModified.getTime() < before) {
        await this.discard(o.key);
        removed++;
      }
    }
    return removed;
  }

  /** Sweeps now and every hour (unreferenced timer). */
  startSweeping(): void {
    const run = () => void this.sweep().catch((e: unknown) => this.logger.warn('upload sweep failed', { err: String(e) }));
    run();
    this.sweeper = setInterval(run, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }
}
