import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { LocalStorage } from '@anvil/storage';
import { unpackArchive, UnsafeArchiveError } from '../src/imports/safe-unpack';
import { type Entry, makeArchive, streamOf, validEntries } from './support/hostile';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/gitlab-export');

let dir: string;
let storage: LocalStorage;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'anvil-unpack-'));
  storage = new LocalStorage(dir, { fsync: false });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every file under the storage root (temporary files excluded). */
function files(root = dir, rel = ''): string[] {
  return readdirSync(path.join(root, rel)).flatMap((n) => {
    if (n === '.anvil-tmp') return [];
    const r = rel ? `${rel}/${n}` : n;
    return statSync(path.join(root, r)).isDirectory() ? files(root, r) : [r];
  });
}

const PREFIX = 'imports/job-1/';
const withValid = (...extra: Entry[]) => [...validEntries(), ...extra];

describe('unpackArchive refuses hostile archives, writing nothing', () => {
  const corpus: [string, () => Promise<Buffer>, RegExp][] = [
    ['a symlink', () => makeArchive(withValid({ name: './tree/project/labels.ndjson', type: 'symlink', linkname: '/etc/passwd' })), /links/],
    ['a hard link', () => makeArchive(withValid({ name: './tree/project/labels.ndjson', type: 'link', linkname: 'tree/project.json' })), /links/],
    ['a character device', () => makeArchive(withValid({ name: './dev', type: 'character-device' })), /type character-device/],
    ['a fifo', () => makeArchive(withValid({ name: './fifo', type: 'fifo' })), /type fifo/],
    ['an absolute path', () => makeArchive(withValid({ name: '/tmp/evil.ndjson', body: 'x' })), /absolute path/],
    ['a .. segment', () => makeArchive(withValid({ name: './tree/project/../../../evil.ndjson', body: 'x' })), /escapes/],
    ['a leading ..', () => makeArchive(withValid({ name: '../evil', body: 'x' })), /escapes/],
    ['a newline in a name', () => makeArchive(withValid({ name: './tree/project/is\nsues.ndjson', body: 'x' })), /control characters/],
    ['a control character', () => makeArchive(withValid({ name: './tree/\u0007x', body: 'x' })), /control characters/],
    ['a backslash', () => makeArchive(withValid({ name: '..\\..\\evil', body: 'x' })), /control characters/],
    ['a duplicate entry', () => makeArchive(withValid({ name: 'tree/project.json', body: '{}' })), /duplicate/],
    ['an unknown VERSION', () => makeArchive([{ name: './VERSION', body: '9.9.9' }, ...validEntries().slice(1)]), /version mismatch/],
    ['no VERSION', () => makeArchive(validEntries().slice(1)), /VERSION file is missing/],
    ['no tree/project.json', () => makeArchive([{ name: './VERSION', body: '0.2.4' }, { name: './tree/project/issues.ndjson', body: '' }]), /invalid import format/],
    ['too many entries', () => makeArchive(withValid(...Array.from({ length: 10 }, (_, i) => ({ name: `./junk${i}`, body: 'x' })))), /more than 8 entries/],
    ['a gzip bomb', () => makeArchive(withValid({ name: './tree/project/issues.ndjson.big', body: Buffer.alloc(64 * 1024 * 1024) })), /larger than the import limit/],
    ['not a gzip stream', async () => Buffer.from('this is not an archive'), /could not be read/],
  ];

  it.each(corpus)('%s', async (_what, build, message) => {
    const archive = await build();
    const err = await unpackArchive(storage, streamOf(archive), PREFIX, { maxEntries: 8, maxBytes: 1024 * 1024 }).catch((e) => e);
    expect(err).toBeInstanceOf(UnsafeArchiveError);
    expect(err.message).toMatch(message);
    expect(files()).toEqual([]);
  });

  it('stops a gzip bomb early: far less is decompressed than the bomb holds', async () => {
    const archive = await makeArchive(withValid({ name: './bomb', body: Buffer.alloc(256 * 1024 * 1024) }));
    let read = 0;
    const counting = Readable.from((async function* () {
      for (let i = 0; i < archive.length; i += 4096) {
        read += Math.min(4096, archive.length - i);
        yield archive.subarray(i, i + 4096);
      }
    })());
    await expect(unpackArchive(storage, counting, PREFIX, { maxEntries: 100, maxBytes: 1024 * 1024 })).rejects.toThrow(/larger than the import limit/);
    expect(read).toBeLessThan(archive.length / 4);
  });
});

describe('unpackArchive accepts GitLab archives', () => {
  it.each([
    ['light', ['tree/project.json', 'tree/project/custom_attributes.ndjson', 'tree/project/issues.ndjson', 'tree/project/milestones.ndjson', 'tree/project/services.ndjson']],
    ['group', ['tree/project.json', 'tree/project/issues.ndjson', 'tree/project/labels.ndjson', 'tree/project/milestones.ndjson']],
  ])('%s.tar.gz, byte for byte under the job prefix only', async (fixture, expected) => {
    const kept = await unpackArchive(storage, streamOf(readFileSync(path.join(FIXTURES, `${fixture}.tar.gz`))), PREFIX);
    expect(kept.sort()).toEqual(expected);
    expect(files().sort()).toEqual(expected.map((f) => PREFIX + f));
    for (const f of expected) expect(readFileSync(path.join(dir, PREFIX + f)).equals(readFileSync(path.join(FIXTURES, fixture, f)))).toBe(true);
  });
});
