import type { Router } from 'express';
import type { Actor } from '@anvil/auth';
import { HttpError, NotFoundError, p, params, ValidationError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { namespaceStore } from '../namespaces/namespace-store';
import type { Project } from '../projects/project';
import { createProject, deleteProject } from '../projects/project-service';
import { resolveProject } from '../internal/resolve';
import { AccessLevel } from '@anvil/auth';
import { projectStore } from '../projects/project-store';
import { usersByEmail } from './project-import';

const idParams = params({ id: p.integer().required() });
const createParams = params({
  user_id: p.integer().required(), path: p.string().required(), name: p.string(), namespace: p.string(),
  description: p.string(), visibility: p.enum(['private', 'internal', 'public'] as const), overwrite: p.boolean().default(false),
});
const emailParams = params({ emails: p.array(p.string()).required() });

/** The project identity project-transfer's status records show. */
function identityOf(project: Project) {
  return {
    id: project.id, description: project.description, name: project.name, name_with_namespace: project.nameWithNamespace,
    path: project.path, path_with_namespace: project.pathWithNamespace, created_at: project.createdAt.toISOString(),
  };
}

/** `Import::GitlabProjects::CreateProjectService` answers: the first error as a sentence, 400. */
function firstError(e: ValidationError): HttpError {
  const [field, messages] = Object.entries(e.fieldErrors)[0] ?? ['base', ['is invalid']];
  const label = field === 'base' ? '' : `${field.charAt(0).toUpperCase()}${field.slice(1).replace(/_/g, ' ')} `;
  return new HttpError(400, { message: `${label}${messages[0]}` });
}

/**
 * `overwrite`: the project already at `<namespace>/<path>` is deleted when `user` may admin it
 * (Maintainer+ or an administrator), so the import takes its path; otherwise it stays and the
 * create answers as without `overwrite`.
 */
async function removeOverwritten(ictx: IdentityContext, user: Actor, namespaceId: number | undefined, path: string): Promise<void> {
  const ns = namespaceId !== undefined ? await namespaceStore.findById(ictx.db, namespaceId) : await namespaceStore.findByOwner(ictx.db, user.id);
  if (!ns) return;
  const scope = await resolveProject(ictx.db, `${ns.fullPath}/${path}`, user.id);
  if (!scope || (!user.admin && scope.access_level < AccessLevel.MAINTAINER)) return;
  const existing = await projectStore.find(ictx.db, scope.id, null);
  if (existing) await deleteProject(ictx, existing);
}

/** Internal routes project-transfer calls: project identities, projects created for imports, users by e-mail. */
export function transferInternalRoutes(router: Router, ictx: IdentityContext): void {
  // GET /internal/v1/transfer/projects/:id
  router.get('/v1/transfer/projects/:id', async (req, res) => {
    const { id } = idParams.parse(req);
    const project = await projectStore.find(ictx.db, id, null);
    if (!project) throw new NotFoundError('Project');
    res.json(identityOf(project));
  });

  // POST /internal/v1/transfer/projects: the project an import fills, created as the importer
  router.post('/v1/transfer/projects', async (req, res) => {
    const input = createParams.parse(req);
    const user = await ictx.db('users').where({ id: input.user_id }).first('id', 'username', 'name', 'admin', 'state');
    if (!user) throw new NotFoundError('User');
    let namespaceId: number | undefined;
    if (input.namespace !== undefined) {
      const ns = /^\d+$/.test(input.namespace) ? await namespaceStore.findById(ictx.db, Number(input.namespace)) : await namespaceStore.findByFullPath(ictx.db, input.namespace);
      if (!ns) throw new NotFoundError('Namespace');
      namespaceId = ns.id;
    }
    if (input.overwrite) await removeOverwritten(ictx, user as Actor, namespaceId, input.path);
    try {
      const project = await createProject(ictx, user as Actor, { path: input.path, name: input.name ?? input.path, description: input.description, visibility: input.visibility, settings: {}, namespace_id: namespaceId });
      res.status(201).json(identityOf(project));
    } catch (e) {
      throw e instanceof ValidationError ? firstError(e) : e;
    }
  });

  // POST /internal/v1/transfer/users/by-email: ids of the users owning these e-mail addresses (primary or confirmed secondary)
  router.post('/v1/transfer/users/by-email', async (req, res) => {
    const { emails } = emailParams.parse(req);
    const out = Object.fromEntries(await usersByEmail(ictx.db, emails.slice(0, 10_000)));
    res.json(out);
  });
}
