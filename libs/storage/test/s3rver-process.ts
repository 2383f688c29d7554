import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

/** A running s3rver in a child process (so its memory does not count against the client under test). */
export interface S3rverProcess {
  endpoint: string;
  stop(): Promise<void>;
}

/*
 * Two adjustments make s3rver 3.7.1 behave like S3 where the suite depends on it:
 * - it mints ListObjectsV2 continuation tokens with DES, which Node 20's OpenSSL 3 only has in the
 *   legacy provider (without it, listing more than 1000 keys fails with InternalError);
 * - it writes an object in place, so concurrent PUTs to one key interleave and a reader can see a
 *   partial object. S3 never exposes a partial object, so the harness makes putObject write a temp
 *   file and rename it, as S3's atomic replace does.
 */
const SCRIPT = `
const path = require('node:path');
const fs = require('node:fs');
const crypto = require('node:crypto');
const { Readable, Transform } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const [, s3rverMain, dir] = process.argv;
const S3rver = require(s3rverMain);
const Store = require(path.join(path.dirname(s3rverMain), 'stores', 'filesystem.js'));
Store.prototype.putObject = async function (object) {
  const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
  const tmpDir = path.join(dir, '.partial');
  fs.mkdirSync(path.dirname(objectPath), { recursive: true });
  fs.mkdirSync(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, crypto.randomUUID());
  const md5 = crypto.createHash('md5');
  let size = 0;
  const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
  const count = new Transform({ transform(c, _e, cb) { md5.update(c); size += c.length; cb(null, c); } });
  await pipeline(content, count, fs.createWriteStream(tmp));
  const digest = md5.digest('hex');
  fs.renameSync(tmp, objectPath);
  await this.putMetadata(object.bucket, object.key, object.metadata, digest);
  return { size, md5: digest };
};
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir })
  .run()
  .then((a) => console.log(JSON.stringify({ port: a.port })), (e) => { console.error(e); process.exit(1); });
`;

/** Starts s3rver on 127.0.0.1 with a random port and a fresh data directory. */
export async function startS3rver(): Promise<S3rverProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-s3rver-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '-e', SCRIPT, require.resolve('s3rver'), dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve(JSON.parse(line).port));
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
