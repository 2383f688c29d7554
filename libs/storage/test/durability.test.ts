import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStorage, LocalStorage } from '../src';

/*
 * What reaches the disk, and when, seen as the kernel sees it: durability-child.ts stores objects
 * under strace, and the trace's completed calls (open, close, rename, fsync, fdatasync) show whether
 * an object's bytes and the directory entries naming it were flushed before the operation resolved.
 * A power loss cannot be staged here; this order is what decides what survives one.
 */

const ROOT_DIR = path.resolve(__dirname, '../../..');
const CHILD = path.join(__dirname, 'durability-child.ts');

/** One completed call on a path under the storage root. */
type Op = { kind: 'sync' | 'datasync'; path: string } | { kind: 'rename'; path: string; to: string } | { kind: 'mark'; path: string };

// strace pads the pid to five columns: a pid of four digits or fewer is followed by more than one space
const CALL = /^(\d+) +(?:(\w+)\((.*)|<\.\.\. (\w+) resumed>(.*))$/;

/** The calls of an `strace -f` log in the order they completed, with descriptors resolved to paths. */
function parseTrace(text: string, root: string): Op[] {
  const pending = new Map<string, string>();
  const fds = new Map<number, string>();
  const ops: Op[] = [];
  const under = (p: string | undefined) => p !== undefined && (p === root || p.startsWith(root + '/'));
  for (const line of text.split('\n')) {
    const m = CALL.exec(line);
    if (!m) continue;
    const [, pid, name, args, resumedName, rest] = m;
    let call: string;
    let text2: string;
    if (name) {
      if (args.endsWith('<unfinished ...>')) {
        pending.set(pid, `${name}(${args.slice(0, -'<unfinished ...>'.length)}`);
        continue;
      }
      call = name;
      text2 = `${name}(${args}`;
    } else {
      call = resumedName;
      text2 = (pending.get(pid) ?? `${resumedName}(`) + rest;
      pending.delete(pid);
    }
    const ret = /\)\s+= (-?\d+)/.exec(text2)?.[1];
    const strings = [...text2.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((s) => s[1]);
    const fd = Number(/^\w+\((\d+)/.exec(text2)?.[1]);
    if (call === 'openat') {
      if (ret !== undefined && Number(ret) >= 0) fds.set(Number(ret), strings[0]);
      else if (path.basename(strings[0] ?? '').startsWith('MARK-') && under(strings[0])) ops.push({ kind: 'mark', path: path.basename(strings[0]).slice(5) });
    } else if (call === 'close') fds.delete(fd);
    else if ((call === 'fsync' || call === 'fdatasync') && ret === '0' && under(fds.get(fd))) ops.push({ kind: call === 'fsync' ? 'sync' : 'datasync', path: fds.get(fd)! });
    else if (call.startsWith('rename') && ret === '0' && under(strings[0])) ops.push({ kind: 'rename', path: strings[0], to: strings[1] });
  }
  return ops;
}

/** The ops of each step, cut at the child's marks. */
function steps(ops: Op[]): Record<string, Op[]> {
  const out: Record<string, Op[]> = {};
  let current: Op[] | null = null;
  for (const op of ops) {
    if (op.kind === 'mark') out[op.path] = current = [];
    else current?.push(op);
  }
  return out;
}

function haveStrace(): boolean {
  return spawnSync('strace', ['-V']).status === 0;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function run(fsync: boolean): { ops: Record<string, Op[]>; root: string; read: Record<string, number[]> } {
  // strace is a Debian package (.ci/run installs it): without it this test cannot look, and fails
  if (!haveStrace()) throw new Error('strace is not installed (apt-get install strace)');
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-durable-')));
  dirs.push(root);
  const log = path.join(root, '..', `${path.basename(root)}.trace`);
  dirs.push(log);
  const trace = ['-f', '-qq', '-e', 'trace=openat,close,rename,renameat,renameat2,fsync,fdatasync', '-o', log];
  const out = execFileSync('strace', [...trace, process.execPath, '--require', 'tsx/cjs', CHILD, root, String(fsync)], { cwd: ROOT_DIR, encoding: 'utf8', timeout: 60_000 });
  return { ops: steps(parseTrace(fs.readFileSync(log, 'utf8'), root)), root, read: JSON.parse(out) as Record<string, number[]> };
}

/** The paths synced (with fsync, directories) after the rename to `dest`, and whether the bytes were flushed first. */
function placed(ops: Op[], dest: string): { renamed: boolean; bytesFlushed: boolean; dirsSynced: string[] } {
  const r = ops.findIndex((o) => o.kind === 'rename' && o.to === dest);
  const source = r >= 0 ? ops[r].path : dest;
  const bytesFlushed = ops.some((o, i) => (o.kind === 'sync' || o.kind === 'datasync') && ((i < r && o.path === source) || (i > r && o.path === dest)));
  const dirsSynced = ops.filter((o, i) => i > r && o.kind === 'sync' && o.path !== dest && o.path !== source).map((o) => o.path);
  return { renamed: r >= 0, bytesFlushed, dirsSynced };
}

describe('LocalStorage durability (traced system calls)', () => {
  let traced: ReturnType<typeof run>;
  beforeAll(() => {
    traced = run(true);
  }, 90_000);

  it('stores every object whole', () => {
    expect(traced.read).toEqual({ 'a/b/c.bin': [3000, 1], 'a/b/d.bin': [70_000, 2], 'x/y.bin': [10, 3], 'a/b/e.bin': [5000, 4], 'a/b/f.bin': [12 << 20, 5] });
  });

  it('a put into new directories flushes the bytes before the rename, then the new names up to the first existing directory', () => {
    const { root, ops } = traced;
    expect(placed(ops['put-new-dirs'], `${root}/a/b/c.bin`)).toEqual({ renamed: true, bytesFlushed: true, dirsSynced: [`${root}/a/b`, `${root}/a`, root] });
  });

  it('a put into an existing directory syncs only that directory after the rename', () => {
    const { root, ops } = traced;
    expect(placed(ops['put-existing-dir'], `${root}/a/b/d.bin`)).toEqual({ renamed: true, bytesFlushed: true, dirsSynced: [`${root}/a/b`] });
  });

  it('a fresh put (written in place) flushes its bytes and the directories made for it', () => {
    const { root, ops } = traced;
    expect(placed(ops['put-fresh'], `${root}/x/y.bin`)).toEqual({ renamed: false, bytesFlushed: true, dirsSynced: [`${root}/x`, root] });
  });

  it('a move flushes the bytes it carries (a received body is not synced) and its new name', () => {
    const { root, ops } = traced;
    expect(placed(ops.move, `${root}/a/b/e.bin`)).toEqual({ renamed: true, bytesFlushed: true, dirsSynced: [`${root}/a/b`] });
  });

  it('a large body is flushed while it is received, and its move still flushes the tail and the new name', () => {
    const { root, ops } = traced;
    const early = ops['receive-large'].filter((o) => o.kind === 'datasync' && o.path === `${root}/uploads/u2`);
    expect(early.length).toBeGreaterThanOrEqual(1);
    // a small body is left to the move
    expect(ops.receive).toEqual([]);
    expect(placed(ops['move-large'], `${root}/a/b/f.bin`)).toEqual({ renamed: true, bytesFlushed: true, dirsSynced: [`${root}/a/b`] });
  });

  it('with fsync off nothing is flushed, and every object is still stored whole', () => {
    const off = run(false);
    expect(off.read).toEqual(traced.read);
    const flushes = Object.values(off.ops)
      .flat()
      .filter((o) => o.kind !== 'rename');
    expect(flushes).toEqual([]);
    expect(off.ops.move.map((o) => o.kind)).toEqual(['rename']);
  }, 90_000);
});

describe('STORAGE_FSYNC', () => {
  const base = { STORAGE_DRIVER: 'local' as const, STORAGE_DIR: os.tmpdir(), S3_ENDPOINT: undefined, S3_BUCKET: 'b', S3_REGION: 'r', S3_ACCESS_KEY_ID: undefined, S3_SECRET_ACCESS_KEY: undefined, S3_FORCE_PATH_STYLE: true };

  it('is on unless turned off', () => {
    expect((createStorage({ ...base, STORAGE_FSYNC: true }) as LocalStorage).fsync).toBe(true);
    expect((createStorage({ ...base, STORAGE_FSYNC: false }) as LocalStorage).fsync).toBe(false);
    expect(new LocalStorage(os.tmpdir()).fsync).toBe(true);
  });
});
