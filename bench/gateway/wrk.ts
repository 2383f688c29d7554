import { spawn } from 'node:child_process';

/** What one wrk run measured. Latencies in milliseconds. */
export interface WrkResult {
  rps: number;
  p50: number;
  p75: number;
  p90: number;
  p99: number;
  requests: number;
  errors: number;
}

function ms(value: string, unit: string): number {
  const v = Number(value);
  return unit === 'us' ? v / 1000 : unit === 's' ? v * 1000 : unit === 'm' ? v * 60_000 : v;
}

/** Parses wrk's `--latency` report. */
export function parseWrk(out: string): WrkResult {
  const pct = (p: string) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    if (!m) throw new Error(`wrk output has no ${p}% line:\n${out}`);
    return ms(m[1], m[2]);
  };
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = non2xx + (sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  return { rps, p50: pct('50'), p75: pct('75'), p90: pct('90'), p99: pct('99'), requests, errors };
}

/** Runs `wrk --latency` against `url` with `headers`. */
export function runWrk(url: string, headers: Record<string, string>, opts: { threads: number; connections: number; seconds: number }): Promise<WrkResult> {
  const args = ['-t', String(opts.threads), '-c', String(opts.connections), '-d', `${opts.seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${out}`));
      try {
        resolve(parseWrk(out));
      } catch (e) {
        reject(e);
      }
    });
  });
}
