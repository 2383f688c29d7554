import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Actor } from '@anvil/auth';
import S3rver from 's3rver';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/gitlab-export');
const KEYS = { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' };

let s3: S3rver;
let s3Dir: string;
let fleet: TransferFleet;
let importer: Actor;

beforeAll(async () => {
  s3Dir = mkdtempSync(path.join(tmpdir(), 'anvil-import-s3-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: 'eu-west-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await client.send(new CreateBucketCommand({ Bucket: 'exports' }));
  await client.send(new PutObjectCommand({ Bucket: 'exports', Key: 'group/export.tar.gz', Body: readFileSync(path.join(FIXTURES, 'group.tar.gz')), ContentType: 'application/gzip' }));
  await client.send(new PutObjectCommand({ Bucket: 'exports', Key: 'notes.txt', Body: 'hello', ContentType: 'text/plain' }));
  client.destroy();
  fleet = await startTransferFleet({ IMPORT_S3_ENDPOINT: endpoint, PROJECT_IMPORT_LIMIT: '0' });
  importer = await fleet.makeUser();
});
afterAll(async () => {
  await fleet?.stop();
  await s3?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

function post(user: Actor | null, body: Record<string, unknown>) {
  return fleet.transfer.as({ user }).post('/api/v4/projects/remote-import-s3').send({ region: 'eu-west-1', bucket_name: 'exports', ...KEYS, ...body });
}

describe('POST /projects/remote-import-s3', () => {
  it('reads the archive from the bucket with the given keys and imports it', async () => {
    const res = await post(importer, { file_key: 'group/export.tar.gz', path: 'from-s3', name: 'From S3' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ path: 'from-s3', name: 'From S3', import_status: 'scheduled', failed_relations: [] });
    const status = await eventually(async () => {
      const body = (await fleet.transfer.as({ user: importer, project: await fleet.scope(res.body.id, importer) }).get(`/api/v4/projects/${res.body.id}/import`)).body;
      return ['finished', 'failed'].includes(body.import_status) && body;
    });
    expect(status.import_status).toBe('finished');
    const fixture = readFileSync(path.join(FIXTURES, 'group/tree/project/issues.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).iid).sort();
    expect((await fleet.workItems.deps.db('issues').where({ project_id: res.body.id }).orderBy('iid').pluck('iid'))).toEqual(fixture);
  });

  it("answers GitLab's 400 for a missing object, wrong keys, a wrong content type, and each missing parameter", async () => {
    const missing = await post(importer, { file_key: 'nothing.tar.gz', path: 's3-missing' });
    expect([missing.status, missing.body]).toEqual([400, { message: "File not found 'nothing.tar.gz' in 'exports'" }]);
    const denied = await post(importer, { file_key: 'group/export.tar.gz', path: 's3-denied', access_key_id: 'NOBODY' });
    expect(denied.status).toBe(400);
    expect(denied.body.message).toMatch(/^Failed to open 'group\/export.tar.gz' in 'exports': /);
    const text = await post(importer, { file_key: 'notes.txt', path: 's3-text' });
    expect([text.status, text.body]).toEqual([400, { message: "Content type 'text/plain' not allowed. (Allowed: application/gzip, application/x-tar, application/x-gzip)" }]);
    for (const field of ['region', 'bucket_name', 'file_key', 'access_key_id', 'secret_access_key', 'path']) {
      const body: Record<string, unknown> = { region: 'eu-west-1', bucket_name: 'exports', file_key: 'group/export.tar.gz', path: 's3-x', ...KEYS };
      delete body[field];
      const res = await fleet.transfer.as({ user: importer }).post('/api/v4/projects/remote-import-s3').send(body);
      expect([field, res.status, res.body]).toEqual([field, 400, { error: `${field} is missing` }]);
    }
    expect(await fleet.identity.deps.db('projects').where('path', 'like', 's3-%').count({ n: '*' }).first()).toEqual({ n: '0' });
  });

  it('answers 401 to an anonymous caller', async () => {
    expect((await post(null, { file_key: 'group/export.tar.gz', path: 's3-anon' })).status).toBe(401);
  });
});
