import { generateKeyPairSync } from 'node:crypto';
import { CONTEXT_EXP_BUCKET_MS, CONTEXT_TTL_MS, ContextSigner, ContextVerifier, generateContextKeys, type TransferFields, type UnsignedContext } from '@anvil/auth';
import { actor, projectScope } from '@anvil/testing';
import { GatewaySigner } from '../src/signer';

const keys = generateContextKeys();
const ctx = {
  rid: 'r-1',
  m: 'GET',
  p: '/api/v4/projects/7/issues?state=opened',
  aud: 'work-items',
  base: 'http://127.0.0.1:8080',
  user: actor('alice', { id: 12 }),
  scopes: ['api'],
  auth: 'pat' as const,
  token_id: 3,
  project: projectScope(7, { access_level: 30 }),
};

describe('GatewaySigner', () => {
  test('uses libsodium here (the optional dependency is installed)', () => {
    expect(new GatewaySigner(keys.privateKey).implementation).toBe('libsodium');
  });

  test.each([['libsodium', undefined], ['node:crypto', '0']])('%s output is byte-identical to ContextSigner and verifies', (impl, flag) => {
    const before = process.env.GATEWAY_SODIUM;
    if (flag) process.env.GATEWAY_SODIUM = flag;
    try {
      const signer = new GatewaySigner(keys.privateKey);
      expect(signer.implementation).toBe(impl);
      const exp = Date.now() + 30_000;
      const header = signer.sign({ ...ctx, exp });
      expect(header).toBe(new ContextSigner(keys.privateKey).sign({ ...ctx, exp }));
      expect(new ContextVerifier(keys.publicKey, 'work-items').verify(header, 'GET', ctx.p)).toMatchObject({ user: { id: 12 }, project: { id: 7 }, exp });
    } finally {
      if (before === undefined) delete process.env.GATEWAY_SODIUM;
      else process.env.GATEWAY_SODIUM = before;
    }
  });

  test('leaves the request id out of what it signs, so identical contexts give identical headers', () => {
    const signer = new GatewaySigner(keys.privateKey);
    const exp = Date.now() + 30_000;
    const header = signer.sign({ ...ctx, exp });
    expect(JSON.parse(Buffer.from(header.split('.')[0], 'base64url').toString())).not.toHaveProperty('rid');
    expect(signer.sign({ ...ctx, rid: 'r-2', exp })).toBe(header);
    expect(new GatewaySigner(keys.privateKey).sign({ ...ctx, rid: 'r-3', exp })).toBe(header);
  });

  test('keeps no header naming a stored upload (no other request carries it), and signs it all the same', () => {
    for (const signer of [new GatewaySigner(keys.privateKey), new ContextSigner(keys.privateKey)]) {
      const exp = Date.now() + 30_000;
      signer.sign({ ...ctx, exp });
      expect(signer.cachedHeaders).toBe(1);
      const upload = { key: 'uploads/00000000-0000-4000-8000-000000000000', size: 1, md5: 'a', sha1: 'b', sha256: 'c' };
      const stored: UnsignedContext & TransferFields = { ...ctx, m: 'PUT', exp, transfer: { phase: 'stored', upload } };
      const header = signer.sign(stored);
      expect(signer.cachedHeaders).toBe(1);
      expect(signer.sign(stored)).toBe(header);
      expect(new ContextVerifier(keys.publicKey, 'work-items').verify(header, 'PUT', ctx.p)).toMatchObject({ transfer: { phase: 'stored', upload } });
      // an authorisation context may recur (the same upload tried again): it is kept
      const authorize: UnsignedContext & TransferFields = { ...ctx, m: 'PUT', exp, transfer: { phase: 'authorize', declared: 10 } };
      signer.sign(authorize);
      expect(signer.cachedHeaders).toBe(2);
    }
  });

  test('a cached header is never given for a different context', () => {
    const signer = new GatewaySigner(keys.privateKey);
    const verifier = new ContextVerifier(keys.publicKey, 'work-items');
    const exp = Date.now() + 30_000;
    const first = signer.sign({ ...ctx, exp });
    const other = signer.sign({ ...ctx, p: '/api/v4/projects/7/issues?state=closed', exp });
    const later = signer.sign({ ...ctx, exp: exp + 1 });
    expect(new Set([first, other, later]).size).toBe(3);
    expect(verifier.verify(other, 'GET', '/api/v4/projects/7/issues?state=closed').exp).toBe(exp);
    expect(() => verifier.verify(other, 'GET', ctx.p)).toThrow('another request');
    expect(verifier.verify(later, 'GET', ctx.p).exp).toBe(exp + 1);
  });

  test('a context without an expiry expires at the end of its 10-second bucket plus the TTL', () => {
    const before = Date.now();
    const { exp } = new ContextVerifier(keys.publicKey, 'work-items').verify(new GatewaySigner(keys.privateKey).sign(ctx), 'GET', ctx.p);
    expect(exp % CONTEXT_EXP_BUCKET_MS).toBe(0);
    expect(exp).toBeGreaterThan(before + CONTEXT_TTL_MS);
    expect(exp).toBeLessThanOrEqual(Date.now() + CONTEXT_TTL_MS + CONTEXT_EXP_BUCKET_MS);
  });

  test('a context signed with another key does not verify', () => {
    const other = new GatewaySigner(generateContextKeys().privateKey).sign(ctx);
    expect(() => new ContextVerifier(keys.publicKey, 'work-items').verify(other, 'GET', ctx.p)).toThrow('bad signature');
  });

  test('refuses a key that is not Ed25519', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => new GatewaySigner(ec)).toThrow('Ed25519');
  });
});
