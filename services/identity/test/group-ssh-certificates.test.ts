import { createHash, generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';
import type { Actor } from '@anvil/auth';
import { addMember, asOnGroup, events, Identity, makeGroup, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
let owner: Actor;
let maintainer: Actor;
let root: Actor;
beforeAll(async () => {
  svc = await startIdentity();
  owner = await makeUser(svc);
  maintainer = await makeUser(svc);
  root = await rootActor(svc);
});
afterAll(async () => svc?.stop());

/** A fresh OpenSSH public key line of the given kind, with a comment. */
function publicKey(kind: 'rsa' | 'ec' | 'ed25519' = 'ed25519'): string {
  const { publicKey: key } =
    kind === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : kind === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  return `${sshpk.parseKey(key.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh')} ca@example.com`;
}

/** OpenSSH's SHA-256 fingerprint of a key line, without `SHA256:` and padding. */
const fingerprintOf = (line: string) => createHash('sha256').update(Buffer.from(line.split(' ')[1], 'base64')).digest('base64').replace(/=+$/, '');

const as = (user: Actor | null, id: number) => asOnGroup(svc, user, id);
const url = (id: number, certId?: number | string) => `/api/v4/groups/${id}/ssh_certificates${certId === undefined ? '' : `/${certId}`}`;

async function group(attrs: Record<string, unknown> = {}) {
  const g = await makeGroup(svc, owner, attrs);
  await addMember(svc, 'groups', g.id, maintainer, 40);
  return g;
}

async function certificate(groupId: number, title = 'CA', key = publicKey()) {
  return (await (await as(owner, groupId)).post(url(groupId)).send({ title, key }).expect(201)).body as { id: number; title: string; key: string; created_at: string };
}

describe('GET /groups/:id/ssh_certificates', () => {
  it('lists a top-level group’s certificates, paginated, to an Owner and an administrator', async () => {
    const g = await group();
    const a = await certificate(g.id, 'first');
    const b = await certificate(g.id, 'second');
    const res = await (await as(owner, g.id)).get(`${url(g.id)}?per_page=1`).expect(200);
    expect(res.body).toEqual([a]);
    expect(res.headers).toMatchObject({ 'x-total': '2', 'x-total-pages': '2', 'x-per-page': '1', 'x-page': '1', 'x-next-page': '2' });
    expect((await svc.as({ user: root }).get(url(g.id)).expect(200)).body).toEqual([a, b]);
  });

  it('refuses a Maintainer and an anonymous caller of a public group (403), hides a private group (404)', async () => {
    const pub = await group({ visibility: 'public' });
    const priv = await group();
    expect((await (await as(maintainer, pub.id)).get(url(pub.id)).expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect((await (await as(null, pub.id)).get(url(pub.id)).expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect((await svc.as({ user: null }).get(url(priv.id)).expect(404)).body).toEqual({ message: '404 Group Not Found' });
  });

  it('answers 403 Forbidden - Group for a subgroup', async () => {
    const parent = await group();
    const sub = await makeGroup(svc, owner, { parent_id: parent.id });
    expect((await (await as(owner, sub.id)).get(url(sub.id)).expect(403)).body).toEqual({ message: '403 Forbidden - Group' });
  });
});

describe('POST /groups/:id/ssh_certificates', () => {
  it.each(['rsa', 'ec', 'ed25519'] as const)('trusts an %s key (201), stores its fingerprint and publishes identity.ssh_certificate.created', async (kind) => {
    const g = await group();
    const key = publicKey(kind);
    const body = await certificate(g.id, `${kind} CA`, key);
    expect(body).toEqual({ id: expect.any(Number), title: `${kind} CA`, key, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    const row = await svc.deps.db('group_ssh_certificates').where({ id: body.id }).first();
    expect(row).toMatchObject({ namespace_id: g.id, title: `${kind} CA`, key, fingerprint: fingerprintOf(key) });
    expect((await events(svc, 'identity.ssh_certificate.created', { id: body.id })).map((e) => e.data)).toEqual([
      { id: body.id, group_id: g.id, title: `${kind} CA`, fingerprint: fingerprintOf(key), actor_id: owner.id },
    ]);
  });

  it('refuses a CA already trusted anywhere on the instance (422)', async () => {
    const key = publicKey();
    const g1 = await group();
    const g2 = await group();
    await certificate(g1.id, 'CA', key);
    const res = await (await as(owner, g2.id)).post(url(g2.id)).send({ title: 'again', key: key.replace(' ca@example.com', ' other') }).expect(422);
    expect(res.body).toEqual({ message: 'Validation failed: Fingerprint must be unique. This CA has already been configured for another namespace.' });
  });

  it.each([
    ['garbage', 'not a key'],
    ['a truncated key', publicKey().slice(0, 40)],
    ['a DSA-style type', 'ssh-dss AAAAB3NzaC1kc3MAAACBAP'],
    ['a private key', generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()],
    ['an empty key', ''],
  ])('refuses %s with 422 Invalid key', async (_what, key) => {
    const g = await group();
    expect((await (await as(owner, g.id)).post(url(g.id)).send({ title: 'CA', key }).expect(422)).body).toEqual({ message: 'Validation failed: Invalid key' });
    expect(await svc.deps.db('group_ssh_certificates').where({ namespace_id: g.id })).toEqual([]);
  });

  it('refuses a blank or too long title (422) and missing params (400)', async () => {
    const g = await group();
    const post = (body: Record<string, unknown>) => as(owner, g.id).then((a) => a.post(url(g.id)).send(body));
    expect((await (await post({ title: ' ', key: publicKey() })).body)).toEqual({ message: "Validation failed: Title can't be blank" });
    expect((await (await post({ title: 'x'.repeat(256), key: publicKey() })).body)).toEqual({ message: 'Validation failed: Title is too long (maximum is 255 characters)' });
    const missing = await post({});
    expect([missing.status, missing.body]).toEqual([400, { error: 'title, key are missing' }]);
    expect((await post({ title: 'CA' })).body).toEqual({ error: 'key is missing' });
  });

  it('refuses a subgroup (403 Forbidden - Group) and a Maintainer (403); an administrator may add', async () => {
    const g = await group();
    const sub = await makeGroup(svc, owner, { parent_id: g.id });
    expect((await (await as(owner, sub.id)).post(url(sub.id)).send({ title: 'CA', key: publicKey() }).expect(403)).body).toEqual({ message: '403 Forbidden - Group' });
    expect((await (await as(maintainer, g.id)).post(url(g.id)).send({ title: 'CA', key: publicKey() }).expect(403)).body).toEqual({ message: '403 Forbidden' });
    await svc.as({ user: root }).post(url(g.id)).send({ title: 'CA', key: publicKey() }).expect(201);
  });
});

describe('DELETE /groups/:id/ssh_certificates/:ssh_certificates_id', () => {
  it('removes the certificate (204) and publishes identity.ssh_certificate.deleted', async () => {
    const g = await group();
    const cert = await certificate(g.id);
    await (await as(owner, g.id)).delete(url(g.id, cert.id)).expect(204);
    expect(await svc.deps.db('group_ssh_certificates').where({ id: cert.id })).toEqual([]);
    expect(await events(svc, 'identity.ssh_certificate.deleted', { id: cert.id, group_id: g.id, actor_id: owner.id })).toHaveLength(1);
    expect((await (await as(owner, g.id)).delete(url(g.id, cert.id)).expect(404)).body).toEqual({ message: 'SSH Certificate not found' });
  });

  it('answers 404 for another group’s certificate and a non-numeric id', async () => {
    const g1 = await group();
    const g2 = await group();
    const cert = await certificate(g1.id);
    expect((await (await as(owner, g2.id)).delete(url(g2.id, cert.id)).expect(404)).body).toEqual({ message: 'SSH Certificate not found' });
    expect((await (await as(owner, g2.id)).delete(url(g2.id, 'abc')).expect(404)).body).toEqual({ message: 'SSH Certificate not found' });
  });

  it('frees the fingerprint for another group once removed', async () => {
    const key = publicKey();
    const g1 = await group();
    const g2 = await group();
    const cert = await certificate(g1.id, 'CA', key);
    await (await as(owner, g1.id)).delete(url(g1.id, cert.id)).expect(204);
    await certificate(g2.id, 'CA', key);
  });

  it('refuses a Maintainer and anonymous callers (403) and a subgroup; an administrator may remove', async () => {
    const g = await group({ visibility: 'public' });
    const sub = await makeGroup(svc, owner, { parent_id: g.id, visibility: 'public' });
    const cert = await certificate(g.id);
    expect((await (await as(maintainer, g.id)).delete(url(g.id, cert.id)).expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect((await (await as(null, g.id)).delete(url(g.id, cert.id)).expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect((await (await as(owner, sub.id)).delete(url(sub.id, cert.id)).expect(403)).body).toEqual({ message: '403 Forbidden - Group' });
    await svc.as({ user: root }).delete(url(g.id, cert.id)).expect(204);
  });
});
