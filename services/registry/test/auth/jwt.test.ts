import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { conanJwtSecret, mintConanJwt, verifyConanJwt } from '../../src/auth/jwt';

/** The gateway's check: HMAC-SHA256 over `header.payload` keyed with the secret string's UTF-8 bytes. */
function hmacMatches(token: string, secret: string): boolean {
  const [h, p, s] = token.split('.');
  return createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url') === s;
}

describe('registry JWT key', () => {
  const secrets = [
    ['CONAN_JWT_SECRET', conanJwtSecret({ CONAN_JWT_SECRET: 'plain sécret ✓' })],
    ['derived from INTERNAL_API_TOKEN', conanJwtSecret({ INTERNAL_API_TOKEN: 'internal-token' })],
  ];

  it.each(secrets)('mints tokens keyed with the UTF-8 bytes of the secret (%s), as the gateway verifies them', (_name, secret) => {
    const token = mintConanJwt(secret, { access_token: 4, user_id: 9 }, null);
    expect(hmacMatches(token, secret)).toBe(true);
    expect(verifyConanJwt(secret, token)).toEqual({ access_token: 4, user_id: 9 });
  });

  it.each(secrets)('accepts tokens signed with the secret as a string, as before (%s)', (_name, secret) => {
    const now = Math.floor(Date.now() / 1000);
    const token = jwt.sign({ access_token: 1, user_id: 2, iat: now, nbf: now - 5, exp: now + 60 }, secret, { algorithm: 'HS256' });
    expect(verifyConanJwt(secret, token)).toEqual({ access_token: 1, user_id: 2 });
  });

  it('refuses a token signed with another secret, also after a key for it was built', () => {
    const a = mintConanJwt('secret-a', { access_token: 1, user_id: 2 }, null);
    const b = mintConanJwt('secret-b', { access_token: 1, user_id: 2 }, null);
    expect(verifyConanJwt('secret-a', b)).toBeNull();
    expect(verifyConanJwt('secret-b', a)).toBeNull();
    expect(verifyConanJwt('secret-a', a)).toEqual({ access_token: 1, user_id: 2 });
  });

  it('refuses an expired token', () => {
    const token = mintConanJwt('s', { access_token: 1, user_id: 2 }, null, Date.now() - 100 * 86400_000);
    expect(verifyConanJwt('s', token)).toBeNull();
  });
});
