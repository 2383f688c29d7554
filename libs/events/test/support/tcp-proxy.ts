import net from 'node:net';

/**
 * A TCP proxy to simulate a broker outage without touching the shared broker: `down()` cuts every
 * connection and refuses new ones (accepted, then destroyed at once), `up()` forwards again.
 */
export class TcpProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private isUp = true;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  down(): void {
    this.isUp = false;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  up(): void {
    this.isUp = true;
  }

  get connections(): number {
    return this.sockets.size;
  }

  async close(): Promise<void> {
    this.down();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    client.on('error', () => undefined);
    if (!this.isUp) {
      client.destroy();
      return;
    }
    const upstream = net.connect({ host: this.targetHost, port: this.targetPort });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
    this.sockets.add(client);
    this.sockets.add(upstream);
    client.on('close', () => this.sockets.delete(client));
    upstream.on('close', () => this.sockets.delete(upstream));
  }
}

/** `url` with its host and port replaced by the proxy's. */
export function viaProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}
