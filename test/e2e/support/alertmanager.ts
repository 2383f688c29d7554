import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@anvil/testing';

/** Where Debian's `prometheus-alertmanager` package puts the binary. */
export const ALERTMANAGER_BIN = process.env.ALERTMANAGER_BIN ?? '/usr/bin/prometheus-alertmanager';

/** A receiver of the generated configuration: a webhook to `url` with the key as Basic password or Bearer credentials; alerts labelled `via=<name>` go to it (the first one also takes the rest). */
export interface Receiver {
  name: string;
  url: string;
  key: string;
  auth: 'basic' | 'bearer';
}

/** A running Alertmanager on loopback, clustering off, its storage in a temp directory. */
export interface RunningAlertmanager {
  url: string;
  process: ChildProcess;
  output(): string;
  /** Pushes alerts (`POST /api/v2/alerts`). */
  push(alerts: unknown[]): Promise<void>;
  stop(): Promise<void>;
}

function configYaml(receivers: Receiver[], timing: { groupWait: string; groupInterval: string; repeatInterval: string }): string {
  const q = (s: string) => JSON.stringify(s);
  const lines = [
    'route:',
    `  receiver: ${q(receivers[0].name)}`,
    "  group_by: ['alertname']",
    `  group_wait: ${timing.groupWait}`,
    `  group_interval: ${timing.groupInterval}`,
    `  repeat_interval: ${timing.repeatInterval}`,
    '  routes:',
    ...receivers.flatMap((r) => [`    - receiver: ${q(r.name)}`, `      matchers: [${q(`via="${r.name}"`)}]`]),
    'receivers:',
    ...receivers.flatMap((r) => [
      `  - name: ${q(r.name)}`,
      '    webhook_configs:',
      `      - url: ${q(r.url)}`,
      '        http_config:',
      ...(r.auth === 'basic' ? ['          basic_auth:', '            username: ""', `            password: ${q(r.key)}`] : ['          authorization:', `            credentials: ${q(r.key)}`]),
    ]),
  ];
  return lines.join('\n') + '\n';
}

/** Starts Alertmanager with webhook receivers for `receivers` and short group/repeat timings; waits until it is ready. */
export async function startAlertmanager(receivers: Receiver[], timing = { groupWait: '1s', groupInterval: '1s', repeatInterval: '2s' }): Promise<RunningAlertmanager> {
  const dir = mkdtempSync(path.join(tmpdir(), 'anvil-alertmanager-'));
  const config = path.join(dir, 'alertmanager.yml');
  writeFileSync(config, configYaml(receivers, timing));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [`--config.file=${config}`, `--storage.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address=', '--log.level=debug'];
  const proc = spawn(ALERTMANAGER_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-50_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const stop = async () => {
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`alertmanager exited (${proc.exitCode}):\n${out}`);
    const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(`alertmanager not ready:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    process: proc,
    output: () => out,
    async push(alerts) {
      const res = await fetch(`${url}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(alerts) });
      if (!res.ok) throw new Error(`alertmanager refused alerts: ${res.status} ${await res.text()}`);
    },
    stop,
  };
}
