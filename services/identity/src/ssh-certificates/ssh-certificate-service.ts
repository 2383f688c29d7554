import type { Actor } from '@anvil/auth';
import { HttpError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import type { SshCertificate } from './ssh-certificate';
import { sshCertificateStore } from './ssh-certificate-store';
import { sshFingerprint } from './ssh-public-key';

const MAX_KEY = 512 * 1024;

/** GitLab's create failure: 422 `{"message":"Validation failed: …"}`. */
function failed(...messages: string[]): HttpError {
  return new HttpError(422, { message: `Validation failed: ${messages.join(', ')}` });
}

/**
 * Trusts an SSH certificate authority in a top-level group and writes
 * `identity.ssh_certificate.created`. An unparseable key is `Invalid key`; a CA already trusted
 * anywhere on the instance is `Fingerprint must be unique…` (both 422, as GitLab answers).
 */
export async function createSshCertificate(ctx: IdentityContext, actor: Actor, groupId: number, input: { title: string; key: string }): Promise<SshCertificate> {
  const fingerprint = sshFingerprint(input.key);
  if (!fingerprint) throw failed('Invalid key');
  const errors: string[] = [];
  if (!input.title.trim()) errors.push("Title can't be blank");
  if (input.title.length > 255) errors.push('Title is too long (maximum is 255 characters)');
  if (input.key.length > MAX_KEY) errors.push(`Key is too long (maximum is ${MAX_KEY} characters)`);
  if (errors.length) throw failed(...errors);
  try {
    return await ctx.db.transaction(async (trx) => {
      const cert = await sshCertificateStore.insert(trx, { namespace_id: groupId, title: input.title, key: input.key, fingerprint });
      await publish.sshCertificate(trx, 'created', cert, actor.id);
      return cert;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'group_ssh_certificates_fingerprint_idx')) throw failed('Fingerprint must be unique. This CA has already been configured for another namespace.');
    throw e;
  }
}

/** Removes a group's certificate (404 `SSH Certificate not found`) and writes `identity.ssh_certificate.deleted`. */
export async function deleteSshCertificate(ctx: IdentityContext, actor: Actor, groupId: number, id: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const cert = await sshCertificateStore.find(trx, groupId, id);
    if (!cert) throw new HttpError(404, { message: 'SSH Certificate not found' });
    await sshCertificateStore.delete(trx, cert.id);
    await publish.sshCertificate(trx, 'deleted', cert, actor.id);
  });
}
