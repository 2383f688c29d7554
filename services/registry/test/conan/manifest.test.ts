import { createHash } from 'node:crypto';
import { formatConanManifest, manifestSummaryHash, parseConanManifest } from '../../src/conan/manifest';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

describe('parseConanManifest', () => {
  it.each<[string, string, unknown]>([
    [
      'a recipe manifest',
      '1700000000\nconanfile.py: 5e3e2d6f7d1c4b5a6978d0e1f2a3b4c5\nconan_export.tgz: 0123456789abcdef0123456789abcdef\n',
      { time: 1700000000, files: { 'conanfile.py': '5e3e2d6f7d1c4b5a6978d0e1f2a3b4c5', 'conan_export.tgz': '0123456789abcdef0123456789abcdef' } },
    ],
    ['only a time', '1700000000\n', { time: 1700000000, files: {} }],
    ['a path with ": " inside', '1\na: b.h: 0123456789abcdef0123456789abcdef\n', { time: 1, files: { 'a: b.h': '0123456789abcdef0123456789abcdef' } }],
    ['upper-case digests', '1\nx: 0123456789ABCDEF0123456789ABCDEF', { time: 1, files: { x: '0123456789abcdef0123456789abcdef' } }],
  ])('%s', (_n, text, manifest) => {
    expect(parseConanManifest(text)).toEqual({ ok: true, manifest });
  });

  it.each([
    ['empty', '', 'empty manifest'],
    ['no time', 'conanfile.py: 0123456789abcdef0123456789abcdef\n', 'invalid manifest time: conanfile.py: 0123456789abcdef0123456789abcdef'],
    ['a line without a digest', '1\nconanfile.py\n', 'invalid manifest line: conanfile.py'],
    ['a short digest', '1\nx: abc\n', 'invalid manifest line: x: abc'],
  ])('refuses %s', (_n, text, error) => {
    expect(parseConanManifest(text)).toEqual({ ok: false, error });
  });

  it('round-trips through Conan’s format and gives Conan’s summary hash', () => {
    const text = '1700000000\na.txt: 0123456789abcdef0123456789abcdef\nb.txt: fedcba9876543210fedcba9876543210\n';
    const r = parseConanManifest(text);
    if (!r.ok) throw new Error(r.error);
    expect(formatConanManifest(r.manifest)).toBe(text);
    expect(manifestSummaryHash(r.manifest, md5)).toBe(md5('a.txt: 0123456789abcdef0123456789abcdef\nb.txt: fedcba9876543210fedcba9876543210\n'));
  });
});
