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
