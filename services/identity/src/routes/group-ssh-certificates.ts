import type { Request, Router } from 'express';
import type { Actor } from '@anvil/auth';
import { ctx, ForbiddenError, p, paginate, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toSshCertificate } from '../entities/ssh-certificate';
import type { Group } from '../groups/group-store';
import { Level } from '../policy';
import { SshCertificateRow, toSshCertificate as certificateOf } from '../ssh-certificates/ssh-certificate';
import { createSshCertificate, deleteSshCertificate } from '../ssh-certificates/ssh-certificate-service';
import { sshCertificateStore } from '../ssh-certificates/ssh-certificate-store';
import { loadGroup } from './loaders';

const createParams = params({ title: p.string().required(), key: p.string().required() });

/**
 * The top-level group of the request for its Owners and administrators: anyone else (anonymous
 * callers too) is 403, and a subgroup is `403 Forbidden - Group`, in GitLab's order.
 */
async function certificateGroup(ictx: IdentityContext, req: Request): Promise<{ actor: Actor; group: Group }> {
  const actor = ctx(req).user;
  const group = await loadGroup(ictx, req);
  if (!actor || (!actor.admin && group.accessLevel < Level.OWNER)) throw new ForbiddenError();
  if (group.parentId !== null) throw new ForbiddenError('Group');
  return { actor, group };
}

/** Group SSH certificates: the certificate authorities a top-level group trusts for SSH sign-in. */
export function groupSshCertificatesRoutes(router: Router, ictx: IdentityContext): void {
  // GET /groups/:id/ssh_certificates
  router.get('/groups/:id/ssh_certificates', async (req, res) => {
    const { group } = await certificateGroup(ictx, req);
    const { items, headers } = await paginate<SshCertificateRow>(req, sshCertificateStore.query(ictx.db, group.id));
    res.set(headers);
    res.json(items.map((r) => toSshCertificate(certificateOf(r))));
  });

  // POST /groups/:id/ssh_certificates
  router.post('/groups/:id/ssh_certificates', async (req, res) => {
    const input = createParams.parse(req);
    const { actor, group } = await certificateGroup(ictx, req);
    res.status(201).json(toSshCertificate(await createSshCertificate(ictx, actor, group.id, input)));
  });

  // DELETE /groups/:id/ssh_certificates/:ssh_certificates_id
  router.delete('/groups/:id/ssh_certificates/:ssh_certificates_id', async (req, res) => {
    const { actor, group } = await certificateGroup(ictx, req);
    const raw = String(req.params.ssh_certificates_id);
    await deleteSshCertificate(ictx, actor, group.id, /^\d{1,9}$/.test(raw) ? Number(raw) : 0);
    res.status(204).end();
  });
}
