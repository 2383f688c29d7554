import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkUrl } from '@anvil/http';
import type { Storage } from '@anvil/storage';
import type { UploadTarget } from './export-service';

/** How long an upload may take before it is abandoned. */
export const UPLOAD_TIMEOUT_MS = 10 * 60_000;

/**
 * Sends the archive at `key` to `target` (`WebUploadStrategy`): `Content-Type: application/gzip`,
 * the given headers, the body streamed from storage. The URL is checked again (DNS may have changed
 * since the request) and the connection pinned to the checked address; redirects are not followed.
 * Resolves on a 2xx answer, rejects with a readable reason otherwise.
 */
export async function uploadArchive(storage: Storage, key: string, target: UploadTarget, allowLocal: boolean, allowlist: string[] = []): Promise<void> {
  const checked = await checkUrl(target.url, { allowLocal, allowlist });
  if (!checked.ok) throw new Error(`upload URL is blocked: ${checked.reason}`);
  const object = await storage.read(key);
  if (!object) throw new Error('export archive missing');
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: checked.address, family: checked.family }]);
    else cb(null, checked.address, checked.family);
  };
  const client = checked.url.protocol === 'https:' ? https : http;
  const headers = { ...target.headers, 'Content-Type': 'application/gzip', 'Content-Length': String(object.size) };
  await new Promise<void>((resolve, reject) => {
    const req = client.request(checked.url, { method: target.method, headers, lookup: pinned, timeout: UPLOAD_TIMEOUT_MS, agent: false }, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      res.on('end', () => (status >= 200 && status < 300 ? resolve() : reject(new Error(`upload answered ${status}`))));
    });
    req.on('timeout', () => req.destroy(new Error('upload timed out')));
    req.on('error', (e) => reject(new Error(`upload failed: ${e.message}`)));
    object.body.on('error', (e) => req.destroy(e));
    object.body.pipe(req);
  });
}
