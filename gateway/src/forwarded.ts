import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * The proxies whose `X-Forwarded-*` headers the gateway believes (`TRUSTED_PROXIES`, CIDRs). As Rails'
 * `RemoteIp` resolves it for GitLab: the client is the rightmost address of `X-Forwarded-For` plus
 * the peer that is not a trusted proxy; a peer that is not trusted is the client whatever it claims.
 */
export class TrustedProxies {
  private readonly list = new BlockList();

  constructor(cidrs: string) {
    for (const raw of cidrs.split(',').map((s) => s.trim()).filter(Boolean)) {
      const [addr, bits] = raw.split('/');
      const family = isIP(addr);
      if (!family) throw new Error(`TRUSTED_PROXIES: '${raw}' is not an address or CIDR`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) throw new Error(`TRUSTED_PROXIES: '${raw}' has a bad prefix length`);
      this.list.addSubnet(addr, prefix, type);
    }
  }

  trusts(address: string): boolean {
    const a = plain(address);
    const family = isIP(a);
    return family !== 0 && this.list.check(a, family === 4 ? 'ipv4' : 'ipv6');
  }

  /** Whether the request came straight from a trusted proxy (its forwarded headers count). */
  fromProxy(req: IncomingMessage): boolean {
    return this.trusts(req.socket.remoteAddress ?? '');
  }

  /** The client's address: the peer, or through trusted proxies the rightmost untrusted forwarded one. */
  clientIp(req: IncomingMessage): string {
    const peer = plain(req.socket.remoteAddress ?? '');
    if (!this.trusts(peer)) return peer;
    const chain = forwardedFor(req);
    for (let i = chain.length - 1; i >= 0; i--) {
      if (!this.trusts(chain[i])) return chain[i];
    }
    // every hop is a trusted proxy: the farthest one
    return chain[0] ?? peer;
  }
}

/** `::ffff:1.2.3.4` → `1.2.3.4`. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** The valid addresses of every `X-Forwarded-For` header, in order. */
export function forwardedFor(req: IncomingMessage): string[] {
  const header = req.headers['x-forwarded-for'];
  if (!header) return [];
  return (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((s) => plain(s.trim()))
    .filter((s) => isIP(s) !== 0);
}
