import { MAX_INFO_JSON_LENGTH, parseConanInfo } from '../../src/conan/conaninfo';

const conan1 = `[settings]
    arch=x86_64
    build_type=Release
    compiler=gcc
    compiler.version=12
    os=Linux

[requires]
    zlib/1.Y.Z

[options]
    shared=False

[full_settings]
    arch=x86_64

[full_requires]
    zlib/1.2.13:hash

[full_options]
    shared=False

[recipe_hash]
    b5b8e0bb5e6dcac4ef0bd7b1e9d9f1e2

[env]

`;

const conan2 = `[settings]
arch=x86_64
build_type=Release
os=Linux

[options]
fPIC=True
shared=False

[requires]
zlib/1.2.Z
openssl/3.1.Z
`;

describe('parseConanInfo', () => {
  it.each<[string, string, unknown]>([
    [
      'Conan 1 layout (indented, extra sections ignored)',
      conan1,
      {
        settings: { arch: 'x86_64', build_type: 'Release', compiler: 'gcc', 'compiler.version': '12', os: 'Linux' },
        requires: { 'zlib/1.Y.Z': null },
        options: { shared: 'False' },
        recipe_hash: 'b5b8e0bb5e6dcac4ef0bd7b1e9d9f1e2',
      },
    ],
    [
      'Conan 2 layout (flat, no recipe_hash)',
      conan2,
      {
        settings: { arch: 'x86_64', build_type: 'Release', os: 'Linux' },
        options: { fPIC: 'True', shared: 'False' },
        requires: { 'zlib/1.2.Z': null, 'openssl/3.1.Z': null },
      },
    ],
    ['an empty file (header-only package)', '', {}],
    ['only blank lines and unknown sections', '\n\n[env]\nFOO=bar\n', {}],
    ['CRLF line ends', '[settings]\r\nos=Windows\r\n', { settings: { os: 'Windows' } }],
    ['a value containing =', '[options]\ndefine=A=B\n', { options: { define: 'A=B' } }],
    ['spaces around =', '[settings]\n os = Linux \n', { settings: { os: 'Linux' } }],
    ['lines before any section are ignored', 'junk\n[settings]\nos=Linux\n', { settings: { os: 'Linux' } }],
  ])('%s', (_name, text, info) => {
    expect(parseConanInfo(text)).toEqual({ ok: true, info });
  });

  it.each([
    ['a bad section header', '[settings\nos=Linux', 'Invalid section header: [settings'],
    ['a header with a dash', '[full-settings]\n', 'Invalid section header: [full-settings]'],
    ['a setting without =', '[settings]\nLinux\n', 'Invalid key-value line: Linux'],
    ['an empty value', '[options]\nshared=\n', 'Invalid key-value line: shared='],
    ['an empty key', '[options]\n=True\n', 'Invalid key-value line: =True'],
    ['two recipe hashes', '[recipe_hash]\na\nb\n', 'The recipe_hash section cannot have multiple lines'],
  ])('refuses %s', (_name, text, error) => {
    expect(parseConanInfo(text)).toEqual({ ok: false, error });
  });

  it('refuses metadata larger than GitLab keeps', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `opt${i}=value${i}`).join('\n');
    const r = parseConanInfo(`[options]\n${lines}\n`);
    expect(r).toEqual({ ok: false, error: 'conaninfo.txt file too large' });
    expect(MAX_INFO_JSON_LENGTH).toBe(20000);
  });
});
