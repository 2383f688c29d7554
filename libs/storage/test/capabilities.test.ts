import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { FileTooLargeError, LocalStorage, S3Storage, type Storage } from '../src';
import { startS3rver, type S3rverProcess } from './s3rver-process';
import { readAll } from './suite';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

let server: S3rverProcess;
let dir: string;
let s3: S3Storage;
const drivers: Array<[string, () => Storage]> = [
  ['local', () => new LocalStorage(dir)],
  ['s3', () => s3],
];

beforeAll(async () => {
  server = await startS3rver();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-capabilities-'));
  s3 = new S3Storage({ endpoint: server.endpoint, bucket: 'anvil-capabilities', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
});

afterAll(async () => {
  s3?.destroy();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const hex = (algorithm: string, b: Buffer) => createHash(algorithm).update(b).digest('hex');

describe.each(drivers)('what the %s driver can do, through the Storage interface', (_name, make) => {
  it('prepares itself (twice is fine)', async () => {
    await make().prepare();
    await make().prepare();
  });

  it('receives a body with its size and digests, and opens it for sending', async () => {
    const storage = make();
    const body = randomBytes(300_000);
    const digests = await storage.receive('uploads/received', Readable.from([body]), { limit: 1 << 20, expectedSize: body.length }).done;
    expect(digests).toMatchObject({ size: body.length, md5: hex('md5', body), sha1: hex('sha1', body), sha256: hex('sha256', body) });
    const opened = await storage.open('uploads/received');
    expect(opened?.size).toBe(body.length);
    const sink = new PassThrough();
    const [, sent] = await Promise.all([opened!.sendTo(sink), readAll(sink)]);
    expect(sent).toEqual(body);
  });

  it('refuses a body past its limit, leaving nothing behind', async () => {
    const storage = make();
    const receipt = storage.receive('uploads/too-large', Readable.from([randomBytes(2048)]), { limit: 1024, expectedSize: null });
    await expect(receipt.done).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await storage.head('uploads/too-large')).toBeNull();
  });

  it('opens nothing for a missing object', async () => {
    expect(await make().open('uploads/missing')).toBeNull();
  });
});
