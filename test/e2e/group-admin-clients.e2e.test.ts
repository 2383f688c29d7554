import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { userWithToken } from './support/fleet-api';

async function call(fleet: Fleet, token: string | null, method: string, p: string, body?: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${fleet.url}/api/v4${p}`, {
    method,
    headers: { ...(token ? { 'PRIVATE-TOKEN': token } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, text: await res.text() };
}

async function json(fleet: Fleet, token: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await call(fleet, token, method, p, body);
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${res.text}`);
  return res.text ? JSON.parse(res.text) : null;
}

/** An SSH wire-format string (RFC 4251 section 5): a 32-bit length, then the bytes. */
function sshString(b: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(b.length);
  return Buffer.concat([len, b]);
}

/** An SSH mpint (RFC 4251 section 5) of an unsigned big-endian integer. */
const mpint = (b: Buffer) => sshString(b[0] & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);

/** A fresh OpenSSH public key line (RFC 4253 section 6.6, RFC 8709) for a certificate authority. */
function caKey(kind: 'ed25519' | 'rsa' = 'ed25519'): string {
  if (kind === 'ed25519') {
    const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    return `ssh-ed25519 ${Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(Buffer.from(jwk.x as string, 'base64url'))]).toString('base64')} corp-ca`;
  }
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
  const blob = Buffer.concat([sshString(Buffer.from('ssh-rsa')), mpint(Buffer.from(jwk.e as string, 'base64url')), mpint(Buffer.from(jwk.n as string, 'base64url'))]);
  return `ssh-rsa ${blob.toString('base64')} corp-ca`;
}

/**
 * Group push rules, SAML group links and group SSH certificates through the real gateway, with
 * python-gitlab and @gitbeaker/rest, and the gateway's part (group by path, private groups hidden).
 */
describe('group administration clients through the gateway', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let maintainer: { id: number; token: string };
  let stranger: { id: number; token: string };

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity'] });
    const admin = (m: string, p: string, b?: unknown) => json(fleet, fleet.adminToken, m, p, b);
    const user = (username: string) => userWithToken(fleet, username);
    owner = await user('grpowner');
    maintainer = await user('grpmaint');
    stranger = await user('grpstranger');
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  async function ownedGroup(path: string): Promise<number> {
    const g = await json(fleet, owner.token, 'POST', '/groups', { name: path, path, visibility: 'private' });
    await json(fleet, owner.token, 'POST', `/groups/${g.id}/members`, { user_id: maintainer.id, access_level: 40 });
    return g.id;
  }

  it('python-gitlab: push rules, SAML group links and SSH certificates', async () => {
    const groupId = await ownedGroup('pyadmin');
    const key = caKey('rsa');
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'group_admin_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, OWNER_TOKEN: owner.token, MAINTAINER_TOKEN: maintainer.token, GROUP_ID: String(groupId), CA_KEY: key },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out.created).toEqual({ regex: '^(feat|fix): ', deny_delete_tag: true, max_file_size: 25 });
    expect(out.second_create).toEqual([422, 'Group push rule exists, try updating']);
    expect(out.updated).toEqual({ branch: '^(main|release/.*)$', regex: '^(feat|fix): ', id_same: true });
    expect(out.maintainer).toBe(403);
    expect(out.after_delete).toBe(404);
    expect(out.saml_list).toEqual([
      { name: 'engineering', access_level: 30, member_role_id: null, provider: null },
      { name: 'leads', access_level: 40, member_role_id: null, provider: 'saml_okta' },
    ]);
    expect(out.saml_one).toEqual({ name: 'leads', access_level: 40, member_role_id: null, provider: 'saml_okta' });
    expect(out.saml_after_delete).toEqual(['leads']);
    expect(out.cert).toEqual({ title: 'Corp CA', key_same: true, keys: ['created_at', 'id', 'key', 'title'] });
    expect(out.bad_cert).toEqual([422, 'Validation failed: Invalid key']);
    expect(out.cert_titles).toEqual(['Corp CA']);
    expect(out.certs_after_delete).toEqual([]);
  }, 120_000);

  it('@gitbeaker/rest: GroupPushRules, GroupSAMLLinks and SSH certificates by group path', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: owner.token });
    const groupId = await ownedGroup('gbadmin');
    const created = await api.GroupPushRules.create('gbadmin', { fileNameRegex: '(exe|jar)$', preventSecrets: true, rejectUnsignedCommits: true });
    expect(created).toMatchObject({ file_name_regex: '(exe|jar)$', prevent_secrets: true, reject_unsigned_commits: true, member_check: false });
    const edited = await api.GroupPushRules.edit(groupId, { memberCheck: true, fileNameRegex: '(exe)$' });
    expect(edited).toMatchObject({ id: created.id, member_check: true, file_name_regex: '(exe)$', prevent_secrets: true });
    expect(await api.GroupPushRules.show(groupId)).toEqual(edited);
    await expect(api.GroupPushRules.edit(groupId, { commitMessageRegex: '(?=x)' })).rejects.toMatchObject({ cause: { response: { status: 400 } } });
    await api.GroupPushRules.remove(groupId);
    await expect(api.GroupPushRules.show(groupId)).rejects.toMatchObject({ cause: { response: { status: 404 } } });

    expect(await api.GroupSAMLLinks.create(groupId, 'ops', 20)).toEqual({ name: 'ops', access_level: 20, member_role_id: null, provider: null });
    expect(await api.GroupSAMLLinks.all(groupId, {})).toEqual([{ name: 'ops', access_level: 20, member_role_id: null, provider: null }]);
    expect(await api.GroupSAMLLinks.show(groupId, 'ops', {})).toMatchObject({ name: 'ops' });
    await api.GroupSAMLLinks.remove(groupId, 'ops');
    expect(await api.GroupSAMLLinks.all(groupId, {})).toEqual([]);

    const key = caKey();
    const cert = await api.requester.post(`groups/${groupId}/ssh_certificates`, { body: { title: 'GB CA', key } });
    expect((cert as { body: Record<string, unknown> }).body).toMatchObject({ title: 'GB CA', key });
    const dup = await call(fleet, owner.token, 'POST', `/groups/${groupId}/ssh_certificates`, { title: 'dup', key });
    expect([dup.status, JSON.parse(dup.text)]).toEqual([422, { message: 'Validation failed: Fingerprint must be unique. This CA has already been configured for another namespace.' }]);
  });

  it('hides a private group from strangers and refuses subgroups SSH certificates, through the gateway', async () => {
    const groupId = await ownedGroup('gwadmin');
    for (const p of ['push_rule', 'saml_group_links', 'ssh_certificates']) {
      expect(await call(fleet, stranger.token, 'GET', `/groups/gwadmin/${p}`)).toEqual({ status: 404, text: JSON.stringify({ message: '404 Group Not Found' }) });
    }
    expect((await call(fleet, maintainer.token, 'GET', `/groups/${groupId}/saml_group_links`)).status).toBe(401);
    expect((await call(fleet, null, 'GET', `/groups/${groupId}/push_rule`)).status).toBe(404);
    const sub = await json(fleet, owner.token, 'POST', '/groups', { name: 'sub', path: 'sub', parent_id: groupId });
    expect(await call(fleet, owner.token, 'POST', `/groups/gwadmin%2Fsub/ssh_certificates`, { title: 'CA', key: caKey() })).toEqual({ status: 403, text: JSON.stringify({ message: '403 Forbidden - Group' }) });
    expect(sub.parent_id).toBe(groupId);
  });
});
