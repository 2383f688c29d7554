/** The part of libsodium (sodium-native) the context signer and verifier use. */
export interface Sodium {
  crypto_sign_detached(signature: Buffer, message: Buffer, secretKey: Buffer): void;
  crypto_sign_seed_keypair(publicKey: Buffer, secretKey: Buffer, seed: Buffer): void;
  crypto_sign_verify_detached(signature: Buffer, message: Buffer, publicKey: Buffer): boolean;
}

/**
 * libsodium when it is installed (an optional native dependency), else null: its Ed25519 signs and
 * verifies about twice as fast as OpenSSL 3's through node:crypto, with identical results (Ed25519
 * is deterministic). `<flag>=0` in the environment forces node:crypto.
 */
export function optionalSodium(flag: string): Sodium | null {
  if (process.env[flag] === '0') return null;
  try {
    return require('sodium-native') as Sodium;
  } catch {
    return null;
  }
}
