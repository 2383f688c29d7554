import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Which outbound URLs a web hook or an export upload may call: GitLab's URL blocker
 * (`gems/gitlab-http/lib/gitlab/http_v2/url_blocker.rb`). Hosts are parsed as browsers parse them
 * (WHATWG), so decimal, octal, hex and short IPv4 forms become the address they mean; IPv4-mapped,
 * IPv4-compatible and NAT64 IPv6 addresses are judged by their IPv4 address; a name is resolved and
 * refused if any of its addresses is internal. No I/O but the injected resolver.
 */

/** Resolves a host name to its addresses (may throw or return none when unresolvable). */
export type Resolver = (host: string) => Promise<string[]>;

/** What decides a URL's fate beyond its own text. */
export interface GuardOptions {
  /** `allow_local_requests_from_web_hooks_and_services`: loopback and private networks allowed. */
  allowLocal: boolean;
  /** `outbound_local_requests_whitelist`: host names, IPs or CIDR ranges, optionally `:port`. */
  allowlist: string[];
  resolve?: Resolver;
}

/** An allowed URL with the address to connect to (the one that was checked), or why it is refused. */
export type GuardResult = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; reason: string };

const loopbackOrUnspecified = new BlockList();
loopbackOrUnspecified.addSubnet('0.0.0.0', 8, 'ipv4');
loopbackOrUnspecified.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackOrUnspecified.addSubnet('::', 128, 'ipv6');
loopbackOrUnspecified.addSubnet('::1', 128, 'ipv6');

const localNetwork = new BlockList();
for (const [net, bits] of [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['169.254.0.0', 16], ['100.64.0.0', 10], ['255.255.255.255', 32]] as const) localNetwork.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['fc00::', 7], ['fec0::', 10], ['fe80::', 10]] as const) localNetwork.addSubnet(net, bits, 'ipv6');

const METADATA_ADDRESSES = new Set(['169.254.169.254', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254']);
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.google.internal.']);

function groups(ipv6: string): number[] {
  let s = ipv6.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (v4) s = s.slice(0, v4.index) + `${((+v4[1] << 8) | +v4[2]).toString(16)}:${((+v4[3] << 8) | +v4[4]).toString(16)}`;
  const [head, tail] = s.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

/** An IPv6 address that embeds an IPv4 one (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::`) as that IPv4; otherwise unchanged. */
export function canonicalAddress(ip: string): string {
  const bare = ip.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 6) return bare;
  const g = groups(bare);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embedded = (zeros(5) && g[5] === 0xffff) || (zeros(6) && (g[6] !== 0 || g[7] > 1)) || (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0));
  return embedded ? [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join('.') : bare;
}

/** Whether an address is a cloud metadata endpoint (refused even when local requests are allowed). */
export function isMetadataAddress(ip: string): boolean {
  const c = canonicalAddress(ip);
  return METADATA_ADDRESSES.has(c) || (isIP(c) === 6 && groups(c).join(':') === groups('fd00:ec2::254').join(':'));
}

/** Why an address is internal (`localhost`, `local network`, `metadata`), or null for a public one. */
export function internalKind(ip: string): 'localhost' | 'local network' | 'metadata' | null {
  const c = canonicalAddress(ip);
  const family = isIP(c) === 4 ? 'ipv4' : 'ipv6';
  if (isMetadataAddress(c)) return 'metadata';
  if (loopbackOrUnspecified.check(c, family)) return 'localhost';
  if (localNetwork.check(c, family)) return 'local network';
  return null;
}

/** An allowlist entry split into its host, IP or CIDR part and its optional port. */
function splitEntry(raw: string): { target: string; port: number | null } {
  const entry = raw.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { target: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : null };
  if (isIP(entry) === 6 || entry.includes('/')) return { target: entry, port: null };
  const withPort = /^(.+):(\d+)$/.exec(entry);
  return withPort ? { target: withPort[1], port: Number(withPort[2]) } : { target: entry, port: null };
}

function inSubnet(cidr: string, address: string): boolean {
  const [net, bits] = cidr.split('/');
  const family = isIP(net);
  const a = canonicalAddress(address);
  if (!family || isIP(a) !== family) return false;
  const list = new BlockList();
  list.addSubnet(net, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  return list.check(a, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether `outbound_local_requests_whitelist` lets `host` (resolved to `address`) on `port` through. */
export function allowlisted(allowlist: string[], host: string, address: string, port: number): boolean {
  return allowlist.some((raw) => {
    const { target, port: entryPort } = splitEntry(raw);
    if (entryPort !== null && entryPort !== port) return false;
    if (target.includes('/')) return inSubnet(target, address);
    if (isIP(target)) return canonicalAddress(target) === canonicalAddress(address);
    return target === host;
  });
}

/** How long a host name may take to resolve (GitLab's `Addrinfo.getaddrinfo` timeout). */
export const RESOLVE_TIMEOUT_MS = 15_000;

/** The system resolver: every address of `host`, in the order the system gives them; none after the timeout. */
export const systemResolver: Resolver = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => (timer = setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS)));
  try {
    return await Promise.race([lookup(host, { all: true, verbatim: true }).then((list) => list.map((a) => a.address)), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

async function addressesOf(host: string, resolve: Resolver): Promise<string[]> {
  if (isIP(host)) return [host];
  try {
    return await resolve(host);
  } catch {
    return [];
  }
}

/** Checks `raw` as an outbound URL (hook, upload); the result names the address to pin the connection to. */
export async function checkUrl(raw: string, opts: GuardOptions): Promise<GuardResult> {
  if (/[\r\n\0]/.test(raw)) return { ok: false, reason: 'URI is invalid' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'URI is invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'Only allowed schemes are http, https' };
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!host || (!isIP(host) && !/^[a-z0-9]/.test(host))) return { ok: false, reason: 'Hostname or IP address invalid' };
  if (METADATA_HOSTS.has(host) || (isIP(host) && isMetadataAddress(host))) return { ok: false, reason: 'Requests to cloud metadata endpoints are not allowed' };
  const addresses = await addressesOf(host, opts.resolve ?? systemResolver);
  if (!addresses.length) return { ok: false, reason: 'Host cannot be resolved or invalid' };
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  for (const address of addresses) {
    const kind = internalKind(address);
    if (kind === 'metadata') return { ok: false, reason: 'Requests to cloud metadata endpoints are not allowed' };
    if (kind && !opts.allowLocal && !allowlisted(opts.allowlist, host, address, port)) {
      return { ok: false, reason: kind === 'localhost' ? 'Requests to localhost are not allowed' : 'Requests to the local network are not allowed' };
    }
  }
  const address = canonicalAddress(addresses[0]);
  return { ok: true, url, address, family: isIP(address) === 6 ? 6 : 4 };
}
