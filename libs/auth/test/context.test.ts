import { ContextSigner, ContextVerifier, generateContextKeys, RequestContext } from '../src';

const base: Omit<RequestContext, 'v' | 'exp'> = {
  rid: 'r1', m: 'GET', p: '/api/v4/projects/1?x=1', base: 'http://127.0.0.1:8080',
  user: { id: 1, username: 'root', name: 'Admin', admin: true, state: 'active' }, scopes: ['api'], auth: 'pat',
};

describe('internal request context', () => {
  const keys = generateContextKeys();
  const signer = new ContextSigner(keys.privateKey);
  const verifier = new ContextVerifier(keys.publicKey);

  it('round-trips a context signed by the gateway', () => {
    const ctx = verifier.verify(signer.sign(base), 'GET', '/api/v4/projects/1?x=1');
    expect(ctx.user?.username).toBe('root');
    expect(ctx.v).toBe(1);
  });

  it('refuses a missing header', () => {
    expect(() => verifier.verify(undefined, 'GET', '/')).toThrow('missing context');
  });

  it('refuses a context bound to another path or method', () => {
    const h = signer.sign(base);
    expect(() => verifier.verify(h, 'GET', '/api/v4/projects/2')).toThrow('another request');
    expect(() => verifier.verify(h, 'DELETE', '/api/v4/projects/1?x=1')).toThrow('another request');
  });

  it('refuses an expired context', () => {
    const h = signer.sign({ ...base, exp: Date.now() - 1 });
    expect(() => verifier.verify(h, 'GET', base.p)).toThrow('expired');
  });

  it('refuses a tampered payload', () => {
    const [payload, sig] = signer.sign(base).split('.');
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString());
    forged.user.id = 2;
    const h = `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${sig}`;
    expect(() => verifier.verify(h, 'GET', base.p)).toThrow('bad signature');
  });

  it('refuses a context signed by another key (a service cannot mint one)', () => {
    const other = new ContextSigner(generateContextKeys().privateKey);
    expect(() => verifier.verify(other.sign(base), 'GET', base.p)).toThrow('bad signature');
  });
});
