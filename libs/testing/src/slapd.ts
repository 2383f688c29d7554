import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tcpOpen } from './global-setup';

const SLAPD = '/usr/sbin/slapd';
const SCHEMA_DIR = '/etc/ldap/schema';
const MODULE_DIR = '/usr/lib/ldap';

/** A running OpenLDAP server on a loopback port, seeded and modified through the ldap-utils tools. */
export interface Slapd {
  /** `ldap://127.0.0.1:<port>` */
  url: string;
  /** The directory suffix, e.g. `dc=anvil,dc=test`. */
  suffix: string;
  /** The root DN and its password (full write access). */
  rootDn: string;
  rootPassword: string;
  /** Adds entries (LDIF, `dn:` blocks separated by blank lines) with `ldapadd`. */
  add(ldif: string): Promise<void>;
  /** Applies an LDIF change list (`changetype: modify`, …) with `ldapmodify`. */
  modify(ldif: string): Promise<void>;
  /** Stops the server and deletes its configuration and database. */
  stop(): Promise<void>;
}

/** Options of `startSlapd`. */
export interface SlapdOptions {
  /** Default `dc=anvil,dc=test` (must start with `dc=`). */
  suffix?: string;
  rootPassword?: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

function run(cmd: string, args: string[], input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, (err, _stdout, stderr) => (err ? reject(new Error(`${cmd} failed: ${stderr || err.message}`)) : resolve()));
    child.stdin?.end(input);
  });
}

function slapdConf(dir: string, suffix: string, rootDn: string, rootPassword: string): string {
  const schemas = ['core', 'cosine', 'nis', 'inetorgperson'].map((s) => `include ${SCHEMA_DIR}/${s}.schema`);
  return [
    ...schemas,
    `pidfile ${dir}/slapd.pid`,
    `modulepath ${MODULE_DIR}`,
    'moduleload back_mdb',
    'database mdb',
    'maxsize 67108864',
    `suffix "${suffix}"`,
    `rootdn "${rootDn}"`,
    `rootpw ${rootPassword}`,
    `directory ${dir}/data`,
    'index objectClass eq',
    'index uid,cn,memberUid,member eq',
    '',
  ].join('\n');
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`slapd exited (${child.exitCode}): ${log()}`);
    if (await tcpOpen('127.0.0.1', port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`slapd did not listen on ${port} within 10 s: ${log()}`);
}

/** SIGTERM, then SIGKILL if the process has not exited within 5 s. */
async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5000)))]);
  clearTimeout(timer);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Runs slapd in the foreground (`-d 0`, so the child is the server itself) and keeps what it prints. */
function spawnSlapd(conf: string, url: string): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(SLAPD, ['-f', conf, '-h', url, '-d', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (d: Buffer) => (output = (output + String(d)).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

/**
 * Starts a real `slapd` (mdb backend, schemas core/cosine/nis/inetorgperson) from a generated
 * `slapd.conf` in a temp dir, listening on a free loopback port, with the suffix entry (a `dc=`
 * suffix) created. Fails with a clear message when OpenLDAP's server or client tools are missing.
 */
export async function startSlapd(opts: SlapdOptions = {}): Promise<Slapd> {
  if (!existsSync(SLAPD) || !existsSync('/usr/bin/ldapadd')) {
    throw new Error('slapd and ldap-utils are required for the LDAP tests: apt-get install slapd ldap-utils');
  }
  const suffix = opts.suffix ?? 'dc=anvil,dc=test';
  const rootDn = `cn=admin,${suffix}`;
  const rootPassword = opts.rootPassword ?? 'admin-secret';
  const dir = mkdtempSync(path.join(tmpdir(), 'anvil-slapd-'));
  mkdirSync(path.join(dir, 'data'));
  writeFileSync(path.join(dir, 'slapd.conf'), slapdConf(dir, suffix, rootDn, rootPassword));
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const { child, output } = spawnSlapd(path.join(dir, 'slapd.conf'), url);
  const stop = async () => {
    await terminate(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, output);
    const auth = ['-x', '-H', url, '-D', rootDn, '-w', rootPassword];
    const add = (ldif: string) => run('ldapadd', auth, ldif);
    const modify = (ldif: string) => run('ldapmodify', auth, ldif);
    const dc = /^dc=([^,]+)/.exec(suffix)?.[1] ?? 'anvil';
    await add(`dn: ${suffix}\nobjectClass: dcObject\nobjectClass: organization\ndc: ${dc}\no: ${dc}\n`);
    return { url, suffix, rootDn, rootPassword, add, modify, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
