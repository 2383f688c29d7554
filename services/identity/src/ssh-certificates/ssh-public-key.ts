import sshpk from 'sshpk';

/**
 * OpenSSH public key algorithms a group may trust as its certificate authority
 * (https://man.openbsd.org/ssh-keygen#CERTIFICATES): RSA, ECDSA and Ed25519.
 */
const SUPPORTED = new Set(['rsa', 'ecdsa', 'ed25519']);

/**
 * The SHA-256 fingerprint of an OpenSSH public key line (`ssh-ed25519 AAAA… comment`), base64
 * without padding or the `SHA256:` prefix, as GitLab stores it; null when the text is not one
 * public key of a supported algorithm (private keys, certificates and other formats included).
 */
export function sshFingerprint(text: string): string | null {
  const line = text.trim();
  if (!/^(ssh-rsa|ssh-ed25519|ecdsa-sha2-nistp(256|384|521)) /.test(line) || line.includes('\n')) return null;
  try {
    const key = sshpk.parseKey(line, 'ssh');
    if (!SUPPORTED.has(key.type)) return null;
    return key.fingerprint('sha256').toString('base64').replace(/^SHA256:/, '');
  } catch {
    return null;
  }
}
