import { generateKeyPairSync } from 'node:crypto';
import { ContextSigner, ContextVerifier, generateContextKeys } from '@anvil/auth';
import { actor, projectScope } from '@anvil/testing';
import { GatewaySigner } from '../src/signer';

const keys = generateContextKeys();
const ctx = {
  rid: 'r-1',
  m: 'GET',
  p: '/api/v4/projects/7/issues?state=opened',
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
      expect(new ContextVerifier(keys.publicKey).verify(header, 'GET', ctx.p)).toMatchObject({ user: { id: 12 }, project: { id: 7 }, exp });
    } finally {
      if (before === undefined) delete process.env.GATEWAY_SODIUM;
      else process.env.GATEWAY_SODIUM = before;
    }
  });

  test('a context signed with another key does not verify', () => {
    const other = new GatewaySigner(generateContextKeys().privateKey).sign(ctx);
    expect(() => new ContextVerifier(keys.publicKey).verify(other, 'GET', ctx.p)).toThrow('bad signature');
  });

  test('refuses a key that is not Ed25519', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => new GatewaySigner(ec)).toThrow('Ed25519');
  });
});
