import { createPrivateKey, KeyObject, sign } from 'node:crypto';
import { contextPayloadJson, optionalSodium, SignedContextCache, type Sodium, UnsignedContext } from '@anvil/auth';

/**
 * Signs request contexts exactly as `ContextSigner` in `@anvil/auth` does (same payload, same
 * deterministic Ed25519 signature, so the output is byte-identical and `ContextVerifier` accepts it),
 * but with libsodium when it is installed: signing is the largest single CPU cost per request.
 * The payload leaves `rid` out and its default `exp` is quantised (`contextPayloadJson`), so an
 * identical context within one 10-second bucket is the same payload, signed once and then cached.
 */
export class GatewaySigner {
  private readonly key: KeyObject;
  private readonly sodium: Sodium | null;
  private readonly secretKey = Buffer.alloc(64);
  private readonly signature = Buffer.alloc(64);
  private readonly cache = new SignedContextCache();

  constructor(privateKeyPem: string) {
    this.key = createPrivateKey(privateKeyPem);
    if (this.key.asymmetricKeyType !== 'ed25519') throw new Error('GATEWAY_PRIVATE_KEY must be an Ed25519 private key');
    this.sodium = optionalSodium('GATEWAY_SODIUM');
    if (this.sodium) {
      const seed = Buffer.from(this.key.export({ format: 'jwk' }).d as string, 'base64url');
      this.sodium.crypto_sign_seed_keypair(Buffer.alloc(32), this.secretKey, seed);
    }
  }

  /** Which Ed25519 implementation signs. */
  get implementation(): 'libsodium' | 'node:crypto' {
    return this.sodium ? 'libsodium' : 'node:crypto';
  }

  /** The `x-anvil-context` value for `ctx` (its `rid` is not signed), bound to its method and path, valid until its `exp`. */
  sign(ctx: UnsignedContext): string {
    const now = Date.now();
    const json = contextPayloadJson(ctx, now);
    const cached = this.cache.get(ctx, json, now);
    if (cached) return cached;
    const payload = Buffer.from(json).toString('base64url');
    const message = Buffer.from(payload, 'latin1');
    let signature: Buffer;
    if (this.sodium) {
      this.sodium.crypto_sign_detached(this.signature, message, this.secretKey);
      signature = this.signature;
    } else {
      signature = sign(null, message, this.key);
    }
    const header = `${payload}.${signature.toString('base64url')}`;
    this.cache.set(ctx, json, header);
    return header;
  }

  /** How many signed headers are kept (for tests). */
  get cachedHeaders(): number {
    return this.cache.size;
  }
}
