import { CONTEXT_CACHE_ENTRIES, CONTEXT_EXP_BUCKET_MS, CONTEXT_MAX_LIFETIME_MS, CONTEXT_TTL_MS, ContextSigner, ContextVerifier, contextExpiry, generateContextKeys, RequestContext } from '../src';

const base: Omit<RequestContext, 'v' | 'exp'> = {
  rid: 'r1', m: 'GET', p: '/api/v4/projects/1?x=1', aud: 'work-items', base: 'http://127.0.0.1:8080',
  user: { id: 1, username: 'root', name: 'Admin', admin: true, state: 'active' }, scopes: ['api'], auth: 'pat',
};

describe('internal request context', () => {
  const keys = generateContextKeys();
  const signer = new ContextSigner(keys.privateKey);
  const verifier = new ContextVerifier(keys.publicKey, 'work-items');

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

  it('does not sign the request id', () => {
    const [payload] = signer.sign(base).split('.');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).not.toHaveProperty('rid');
    const exp = Date.now() + 30_000;
    expect(signer.sign({ ...base, rid: 'other', exp })).toBe(signer.sign({ ...base, exp }));
  });

  it('expires at the end of the 5-second bucket plus the TTL, at most 10 s after signing, unless an expiry is given', () => {
    expect(contextExpiry(1_700_000_000_000)).toBe(1_700_000_010_000);
    expect(contextExpiry(1_700_000_004_999)).toBe(1_700_000_010_000);
    expect(contextExpiry(1_700_000_005_000)).toBe(1_700_000_015_000);
    for (const now of [1_700_000_000_000, 1_700_000_004_999, 1_700_000_003_333]) expect(contextExpiry(now) - now).toBeLessThanOrEqual(CONTEXT_MAX_LIFETIME_MS);
    expect(CONTEXT_MAX_LIFETIME_MS).toBe(10_000);
    const before = Date.now();
    const { exp } = verifier.verify(signer.sign(base), 'GET', base.p);
    expect(exp % CONTEXT_EXP_BUCKET_MS).toBe(0);
    expect(exp).toBeGreaterThan(before + CONTEXT_TTL_MS);
    expect(exp).toBeLessThanOrEqual(Date.now() + CONTEXT_TTL_MS + CONTEXT_EXP_BUCKET_MS);
    const given = Date.now() + 1234;
    expect(verifier.verify(signer.sign({ ...base, exp: given }), 'GET', base.p).exp).toBe(given);
  });

  it('refuses a context signed for another service, cached or not', () => {
    const h = signer.sign({ ...base, aud: 'registry' });
    expect(() => verifier.verify(h, 'GET', base.p)).toThrow('context signed for another service');
    expect(new ContextVerifier(keys.publicKey, 'registry').verify(h, 'GET', base.p).aud).toBe('registry');
    const own = signer.sign(base);
    verifier.verify(own, 'GET', base.p);
    expect(() => new ContextVerifier(keys.publicKey, 'registry').verify(own, 'GET', base.p)).toThrow('context signed for another service');
    const { aud, ...unnamed } = base;
    void aud;
    expect(() => verifier.verify(signer.sign(unnamed as typeof base), 'GET', base.p)).toThrow('context signed for another service');
  });
});

describe.each([
  ['libsodium', undefined],
  ['node:crypto', '0'],
])('signature check with %s', (impl, flag) => {
  const keys = generateContextKeys();
  const signer = new ContextSigner(keys.privateKey);
  let verifier: ContextVerifier;
  beforeAll(() => {
    const before = process.env.ANVIL_SODIUM;
    if (flag) process.env.ANVIL_SODIUM = flag;
    try {
      verifier = new ContextVerifier(keys.publicKey, 'work-items');
    } finally {
      if (before === undefined) delete process.env.ANVIL_SODIUM;
      else process.env.ANVIL_SODIUM = before;
    }
  });

  it('uses that implementation (libsodium is installed here)', () => {
    expect(verifier.implementation).toBe(impl);
  });

  it('accepts the gateway’s signature and refuses a flipped bit, a short or long signature, or another key', () => {
    const h = signer.sign(base);
    expect(verifier.verify(h, 'GET', base.p).user?.id).toBe(1);
    const [payload, sig] = signer.sign({ ...base, p: '/other' }).split('.');
    const bytes = Buffer.from(sig, 'base64url');
    bytes[10] ^= 1;
    expect(() => verifier.verify(`${payload}.${bytes.toString('base64url')}`, 'GET', '/other')).toThrow('bad signature');
    expect(() => verifier.verify(`${payload}.${bytes.subarray(0, 63).toString('base64url')}`, 'GET', '/other')).toThrow('bad signature');
    expect(() => verifier.verify(`${payload}.${Buffer.concat([bytes, Buffer.alloc(1)]).toString('base64url')}`, 'GET', '/other')).toThrow('bad signature');
    const other = new ContextSigner(generateContextKeys().privateKey);
    expect(() => verifier.verify(other.sign({ ...base, p: '/third' }), 'GET', '/third')).toThrow('bad signature');
  });
});

describe('verified-header cache', () => {
  const keys = generateContextKeys();
  const signer = new ContextSigner(keys.privateKey);

  it('refuses a verified header replayed on another path or method', () => {
    const verifier = new ContextVerifier(keys.publicKey, 'work-items');
    const h = signer.sign(base);
    expect(verifier.verify(h, 'GET', base.p).user?.id).toBe(1);
    expect(verifier.cachedHeaders).toBe(1);
    expect(() => verifier.verify(h, 'GET', '/api/v4/projects/2')).toThrow('another request');
    expect(() => verifier.verify(h, 'POST', base.p)).toThrow('another request');
    expect(verifier.verify(h, 'get', base.p).user?.id).toBe(1);
  });

  it('refuses a verified header once it has expired', async () => {
    const verifier = new ContextVerifier(keys.publicKey, 'work-items');
    const h = signer.sign({ ...base, exp: Date.now() + 30 });
    expect(verifier.verify(h, 'GET', base.p).user?.id).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(() => verifier.verify(h, 'GET', base.p)).toThrow('expired');
  });

  it('refuses a tampered copy of a verified header', () => {
    const verifier = new ContextVerifier(keys.publicKey, 'work-items');
    const h = signer.sign(base);
    verifier.verify(h, 'GET', base.p);
    const [payload, sig] = h.split('.');
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString());
    forged.user.admin = true;
    forged.user.id = 2;
    expect(() => verifier.verify(`${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${sig}`, 'GET', base.p)).toThrow('bad signature');
    // Flip a byte of R (the first half): the top byte of S is often 0, so zeroing it may change nothing.
    const bytes = Buffer.from(sig, 'base64url');
    bytes[0] ^= 0xff;
    expect(() => verifier.verify(`${payload}.${bytes.toString('base64url')}`, 'GET', base.p)).toThrow('bad signature');
  });

  it('never caches a failed verification', () => {
    const verifier = new ContextVerifier(keys.publicKey, 'work-items');
    const expired = signer.sign({ ...base, exp: Date.now() - 1 });
    expect(() => verifier.verify(expired, 'GET', base.p)).toThrow('expired');
    const h = signer.sign(base);
    expect(() => verifier.verify(h, 'GET', '/elsewhere')).toThrow('another request');
    const foreign = new ContextSigner(generateContextKeys().privateKey).sign(base);
    expect(() => verifier.verify(foreign, 'GET', base.p)).toThrow('bad signature');
    expect(() => verifier.verify(foreign, 'GET', base.p)).toThrow('bad signature');
    expect(verifier.cachedHeaders).toBe(0);
  });

  it('answers each request with its own copy of the context', () => {
    const verifier = new ContextVerifier(keys.publicKey, 'work-items');
    const h = signer.sign(base);
    const first = verifier.verify(h, 'GET', base.p);
    first.user!.admin = false;
    first.scopes.push('sudo');
    const again = verifier.verify(h, 'GET', base.p);
    expect(again.user?.admin).toBe(true);
    expect(again.scopes).toEqual(['api']);
  });

  it('does not keep a header naming a stored upload (no other request carries it), and still verifies it', () => {
    const verifier = new ContextVerifier(keys.publicKey, 'work-items');
    const kept = signer.sign(base);
    verifier.verify(kept, 'GET', base.p);
    const stored = { ...base, m: 'PUT', transfer: { phase: 'stored', upload: { key: 'uploads/00000000-0000-4000-8000-000000000000', size: 1, md5: 'a', sha1: 'b', sha256: 'c' } } };
    const h = signer.sign(stored as Parameters<typeof signer.sign>[0]);
    expect(verifier.verify(h, 'PUT', base.p)).toMatchObject({ transfer: stored.transfer });
    expect(verifier.cachedHeaders).toBe(1);
    const [payload, sig] = h.split('.');
    const swapped = JSON.parse(Buffer.from(payload, 'base64url').toString());
    swapped.transfer.upload.key = 'uploads/11111111-1111-4111-8111-111111111111';
    expect(() => verifier.verify(`${Buffer.from(JSON.stringify(swapped)).toString('base64url')}.${sig}`, 'PUT', base.p)).toThrow('bad signature');
    // an authorisation context may recur (the same upload tried again): it is kept
    verifier.verify(signer.sign({ ...base, m: 'PUT', transfer: { phase: 'authorize', declared: 10 } } as Parameters<typeof signer.sign>[0]), 'PUT', base.p);
    expect(verifier.cachedHeaders).toBe(2);
  });

  it(`keeps at most ${CONTEXT_CACHE_ENTRIES} headers`, () => {
    const verifier = new ContextVerifier(keys.publicKey, 'work-items');
    for (let i = 0; i <= CONTEXT_CACHE_ENTRIES + 10; i++) {
      const p = `/api/v4/projects/${i}`;
      verifier.verify(signer.sign({ ...base, p }), 'GET', p);
      expect(verifier.cachedHeaders).toBeLessThanOrEqual(CONTEXT_CACHE_ENTRIES);
    }
    expect(verifier.cachedHeaders).toBeGreaterThan(0);
  });
});

