import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { HOSTILE_KEYS, bodyOf, keys, readAll, storageSuite } from './suite';
import { LocalStorage } from '../src';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-storage-'));
  dirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('LocalStorage', () => {
  storageSuite(async () => new LocalStorage(tempDir()), { objectMiB: 50, maxRssGrowthMiB: 40 });
});

describe('LocalStorage on disk', () => {
  let outer: string;
  let storage: LocalStorage;
  beforeEach(() => {
    outer = tempDir();
    storage = new LocalStorage(path.join(outer, 'root'));
  });

  it('writes nothing outside its root for hostile keys', async () => {
    await storage.put('ok', bodyOf('fine'));
    for (const key of HOSTILE_KEYS) await storage.put(key, bodyOf('evil')).catch(() => undefined);
    expect(fs.readdirSync(outer)).toEqual(['root']);
    expect(fs.readdirSync(path.join(outer, 'root')).sort()).toEqual(['.anvil-tmp', 'ok']);
    expect(fs.readdirSync(path.join(outer, 'root', '.anvil-tmp'))).toEqual([]);
  });

  it('keeps the file at localPath(key) inside the root', async () => {
    await storage.put('a/b/c.txt', bodyOf('abc'));
    expect(storage.localPath('a/b/c.txt')).toBe(path.join(outer, 'root', 'a', 'b', 'c.txt'));
    expect(fs.readFileSync(storage.localPath('a/b/c.txt'), 'utf8')).toBe('abc');
    expect(() => storage.localPath('../x')).toThrow('invalid storage key');
  });

  it('lets a reader that opened the old object finish it after an overwrite', async () => {
    await storage.put('k', bodyOf('old contents'));
    const reader = (await storage.get('k'))!;
    await storage.put('k', bodyOf('new'));
    expect((await readAll(reader)).toString()).toBe('old contents');
    expect((await readAll((await storage.get('k'))!)).toString()).toBe('new');
  });

  it('leaves no temporary files after failed and concurrent puts', async () => {
    await Promise.all([1, 2, 3].map((i) => storage.put('x/y', bodyOf(String(i)))));
    const broken = new Readable({ read: () => broken.destroy(new Error('boom')) });
    await expect(storage.put('x/z', broken)).rejects.toThrow('boom');
    expect(fs.readdirSync(path.join(outer, 'root', '.anvil-tmp'))).toEqual([]);
  });

  it('removes directories emptied by delete and deletePrefix', async () => {
    await storage.put('a/b/c', bodyOf('1'));
    await storage.put('d/e/f', bodyOf('2'));
    await storage.delete('a/b/c');
    await storage.deletePrefix('d/e/');
    expect(fs.readdirSync(path.join(outer, 'root'))).toEqual(['.anvil-tmp']);
  });

  it('answers null for a key that names a directory', async () => {
    await storage.put('dir/file', bodyOf('1'));
    expect(await storage.get('dir')).toBeNull();
    expect(await storage.head('dir')).toBeNull();
    await storage.delete('dir');
    expect(await storage.head('dir/file')).toMatchObject({ size: 1 });
  });

  it('lists in UTF-8 byte order across directory boundaries', async () => {
    for (const k of ['p/a', 'p-x', 'p.y', 'p0', 'p/é', 'p/z', 'p/\u{1F600}', 'p/\uFFFD']) await storage.put(k, bodyOf(k));
    expect(await keys(storage, '')).toEqual(['p-x', 'p.y', 'p/a', 'p/z', 'p/é', 'p/\uFFFD', 'p/\u{1F600}', 'p0']);
    expect(await keys(storage, 'p')).toEqual(['p-x', 'p.y', 'p/a', 'p/z', 'p/é', 'p/\uFFFD', 'p/\u{1F600}', 'p0']);
  });

  it('does not follow symlinks when listing', async () => {
    const elsewhere = tempDir();
    fs.writeFileSync(path.join(elsewhere, 'secret'), 'x');
    await storage.put('real', bodyOf('1'));
    fs.symlinkSync(elsewhere, path.join(outer, 'root', 'link'));
    expect(await keys(storage, '')).toEqual(['real']);
  });
});
