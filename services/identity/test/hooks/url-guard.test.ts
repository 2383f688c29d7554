import { allowlisted, canonicalAddress, checkUrl, Resolver } from '../../src/hooks/url-guard';

const publicResolver: Resolver = async (host) => ({ 'example.com': ['93.184.216.34'], 'mixed.test': ['93.184.216.34', '10.0.0.5'], 'rebind.test': ['127.0.0.1'] })[host] ?? [];
const off = { allowLocal: false, allowlist: [], resolve: publicResolver };

describe('checkUrl with local requests refused', () => {
  it.each([
    ['http://127.0.0.1/', 'Requests to localhost are not allowed'],
    ['http://2130706433/', 'Requests to localhost are not allowed'],
    ['http://0177.0.0.1/', 'Requests to localhost are not allowed'],
    ['http://0x7f000001/', 'Requests to localhost are not allowed'],
    ['http://0x7f.0.0.1/', 'Requests to localhost are not allowed'],
    ['http://127.1/', 'Requests to localhost are not allowed'],
    ['http://[::1]/', 'Requests to localhost are not allowed'],
    ['http://[::ffff:127.0.0.1]/', 'Requests to localhost are not allowed'],
    ['http://[::ffff:7f00:1]:8080/', 'Requests to localhost are not allowed'],
    ['http://[::127.0.0.1]/', 'Requests to localhost are not allowed'],
    ['http://0.0.0.0/', 'Requests to localhost are not allowed'],
    ['http://[::]/', 'Requests to localhost are not allowed'],
    ['http://10.1.2.3/', 'Requests to the local network are not allowed'],
    ['http://172.16.0.1/', 'Requests to the local network are not allowed'],
    ['http://172.31.255.255/', 'Requests to the local network are not allowed'],
    ['http://192.168.1.1/', 'Requests to the local network are not allowed'],
    ['http://[::ffff:192.168.1.1]/', 'Requests to the local network are not allowed'],
    ['http://169.254.1.1/', 'Requests to the local network are not allowed'],
    ['http://100.64.0.1/', 'Requests to the local network are not allowed'],
    ['http://100.127.255.254/', 'Requests to the local network are not allowed'],
    ['http://[fd12::1]/', 'Requests to the local network are not allowed'],
    ['http://[fe80::1]/', 'Requests to the local network are not allowed'],
    ['http://169.254.169.254/latest/meta-data', 'Requests to cloud metadata endpoints are not allowed'],
    ['http://[::ffff:169.254.169.254]/', 'Requests to cloud metadata endpoints are not allowed'],
    ['http://[fd00:ec2::254]/', 'Requests to cloud metadata endpoints are not allowed'],
    ['http://metadata.google.internal/', 'Requests to cloud metadata endpoints are not allowed'],
    ['http://rebind.test/', 'Requests to localhost are not allowed'],
    ['http://mixed.test/', 'Requests to the local network are not allowed'],
    ['http://unknown.test/', 'Host cannot be resolved or invalid'],
    ['ftp://example.com/', 'Only allowed schemes are http, https'],
    ['http://example.com/\nx', 'URI is invalid'],
    ['not a url', 'URI is invalid'],
  ])('refuses %s', async (url, reason) => {
    expect(await checkUrl(url, off)).toEqual({ ok: false, reason });
  });

  it('resolves localhost through the system resolver and refuses it', async () => {
    expect(await checkUrl('http://localhost:3000/hook', { allowLocal: false, allowlist: [] })).toEqual({ ok: false, reason: 'Requests to localhost are not allowed' });
  });

  it.each([['http://example.com/hook'], ['https://example.com:8443/x?y=1'], ['http://93.184.216.34/'], ['http://172.32.0.1/'], ['http://100.128.0.1/']])('accepts %s and pins the checked address', async (url) => {
    const r = await checkUrl(url, off);
    expect(r.ok).toBe(true);
    if (r.ok) expect(['93.184.216.34', '172.32.0.1', '100.128.0.1']).toContain(r.address);
  });
});

describe('checkUrl with local requests allowed', () => {
  const on = { allowLocal: true, allowlist: [], resolve: publicResolver };
  it.each([['http://127.0.0.1:9/'], ['http://[::ffff:127.0.0.1]/'], ['http://10.0.0.1/'], ['http://rebind.test/']])('accepts %s', async (url) => {
    expect((await checkUrl(url, on)).ok).toBe(true);
  });
  it('still refuses cloud metadata', async () => {
    expect(await checkUrl('http://169.254.169.254/', on)).toEqual({ ok: false, reason: 'Requests to cloud metadata endpoints are not allowed' });
  });
  it('pins the IPv4 of a mapped address', async () => {
    expect(await checkUrl('http://[::ffff:127.0.0.1]:81/', on)).toMatchObject({ ok: true, address: '127.0.0.1', family: 4 });
  });
});

describe('the outbound allowlist', () => {
  it.each([
    [['rebind.test'], 'rebind.test', '127.0.0.1', 80, true],
    [['127.0.0.1'], 'x', '127.0.0.1', 80, true],
    [['127.0.0.0/8'], 'x', '127.9.9.9', 80, true],
    [['10.0.0.0/8'], 'x', '127.0.0.1', 80, false],
    [['rebind.test:8080'], 'rebind.test', '127.0.0.1', 80, false],
    [['rebind.test:8080'], 'rebind.test', '127.0.0.1', 8080, true],
    [['[::1]:9'], 'x', '::1', 9, true],
    [['fd00::/8'], 'x', 'fd12::1', 80, true],
  ])('%j lets %s (%s:%d) through: %s', (list, host, address, port, expected) => {
    expect(allowlisted(list, host, address, port)).toBe(expected);
  });
  it('admits an allowlisted loopback host while local requests are refused', async () => {
    expect((await checkUrl('http://rebind.test/', { ...off, allowlist: ['rebind.test'] })).ok).toBe(true);
  });
});

describe('canonicalAddress', () => {
  it.each([['::ffff:7f00:1', '127.0.0.1'], ['::ffff:10.0.0.1', '10.0.0.1'], ['64:ff9b::a00:1', '10.0.0.1'], ['::1', '::1'], ['2001:db8::1', '2001:db8::1'], ['1.2.3.4', '1.2.3.4']])('%s → %s', (a, b) => {
    expect(canonicalAddress(a)).toBe(b);
  });
});
