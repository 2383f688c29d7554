import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createLogger } from '@anvil/http';
import { LocalStorage } from '@anvil/storage';
import { ORPHAN_AGE_MS, Transfers } from '../src/transfers';

describe('upload bodies nobody claimed', () => {
  it('are swept once older than a day; younger ones and other objects stay', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-sweep-'));
    try {
      const storage = new LocalStorage(dir);
      const transfers = new Transfers(storage, createLogger('test', 'silent'));
      const old = 'uploads/00000000-0000-4000-8000-000000000001';
      const fresh = 'uploads/00000000-0000-4000-8000-000000000002';
      for (const key of [old, fresh, 'packages/aa/file.tgz']) await storage.put(key, Readable.from([Buffer.from('x')]));
      const longAgo = new Date(Date.now() - ORPHAN_AGE_MS - 60_000);
      fs.utimesSync(storage.localPath(old), longAgo, longAgo);
      fs.utimesSync(storage.localPath('packages/aa/file.tgz'), longAgo, longAgo);
      expect(await transfers.sweep()).toBe(1);
      expect(await storage.head(old)).toBeNull();
      expect(await storage.head(fresh)).not.toBeNull();
      expect(await storage.head('packages/aa/file.tgz')).not.toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('upload bodies received', () => {
  const globals = globalThis as { gc?: unknown };
  const exposed = globals.gc;
  afterEach(() => {
    globals.gc = exposed;
  });

  /** A request carrying `size` bytes in 64 KiB chunks, as Node's HTTP server hands them over. */
  function request(size: number): Readable & { headers: Record<string, string>; complete: boolean } {
    const chunk = Buffer.alloc(64 * 1024, 7);
    const chunks = Array.from({ length: size / chunk.length }, () => chunk);
    return Object.assign(Readable.from(chunks, { objectMode: false }), { headers: { 'content-length': String(size) }, complete: true });
  }

  it('collect the young generation every 4 MiB when gc is exposed, and store the body whole', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-young-'));
    try {
      const calls: unknown[] = [];
      globals.gc = (options: unknown) => calls.push(options);
      const storage = new LocalStorage(dir);
      const transfers = new Transfers(storage, createLogger('test', 'silent'));
      const size = 10 * 1024 * 1024;
      const stored = await transfers.begin(request(size) as never).done;
      expect(calls).toEqual([{ type: 'minor' }, { type: 'minor' }]);
      if (typeof stored !== 'object') throw new Error(`not stored: ${stored}`);
      expect(stored.size).toBe(size);
      expect(fs.statSync(storage.localPath(stored.key)).size).toBe(size);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are stored the same without gc exposed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-young-'));
    try {
      delete globals.gc;
      const transfers = new Transfers(new LocalStorage(dir), createLogger('test', 'silent'));
      const stored = await transfers.begin(request(5 * 1024 * 1024) as never).done;
      expect(typeof stored === 'object' && stored.size).toBe(5 * 1024 * 1024);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
