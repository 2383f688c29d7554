import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import { ctx, p, paginateArray, params } from '@anvil/http';
import { ADMIN_ALERTING, requireLevel } from '../access/project';
import { toIntegration } from '../entities/integration';
import { createIntegration, editIntegration, loadIntegration, removeIntegration, resetIntegrationToken } from '../integrations/integration-service';
import { integrationsOf } from '../integrations/integration-store';

const BASE = '/projects/:id/alert_management/http_integrations';
const createParams = params({
  name: p.string().required().notBlank().where((s) => s.length <= 255),
  type: p.enum(['http', 'prometheus'] as const).default('http'),
  active: p.boolean().default(true),
});
const idParam = params({ integration_id: p.integer().required() });
const updateParams = params(
  { integration_id: p.integer().required(), name: p.string().notBlank().where((s) => s.length <= 255), active: p.boolean() },
  { atLeastOneOf: [['name', 'active']] },
);

function admin(req: Request) {
  return requireLevel(ctx(req), ADMIN_ALERTING).project;
}

/** The alert integrations REST API (GitLab offers it over GraphQL; these paths are Anvil's). */
export function mountHttpIntegrations(router: Router, db: Knex): void {
  // POST /projects/:id/alert_management/http_integrations (GraphQL httpIntegrationCreate / prometheusIntegrationCreate)
  router.post(BASE, async (req, res) => {
    const project = admin(req);
    const { integration, token } = await createIntegration(db, project.id, createParams.parse(req));
    res.status(201).json(toIntegration(integration, project, token));
  });
  // GET /projects/:id/alert_management/http_integrations (GraphQL project.alertManagementIntegrations)
  router.get(BASE, async (req, res) => {
    const project = admin(req);
    const page = paginateArray(req, await integrationsOf(db, project.id));
    res.set(page.headers).json(page.items.map((i) => toIntegration(i, project)));
  });
  // GET /projects/:id/alert_management/http_integrations/:integration_id
  router.get(`${BASE}/:integration_id`, async (req, res) => {
    const project = admin(req);
    res.json(toIntegration(await loadIntegration(db, project.id, idParam.parse(req).integration_id), project));
  });
  // PUT /projects/:id/alert_management/http_integrations/:integration_id (GraphQL httpIntegrationUpdate)
  router.put(`${BASE}/:integration_id`, async (req, res) => {
    const project = admin(req);
    const input = updateParams.parse(req);
    const updated = await editIntegration(db, await loadIntegration(db, project.id, input.integration_id), input);
    res.json(toIntegration(updated, project));
  });
  // DELETE /projects/:id/alert_management/http_integrations/:integration_id (GraphQL httpIntegrationDestroy)
  router.delete(`${BASE}/:integration_id`, async (req, res) => {
    const project = admin(req);
    await removeIntegration(db, await loadIntegration(db, project.id, idParam.parse(req).integration_id));
    res.status(204).end();
  });
  // POST /projects/:id/alert_management/http_integrations/:integration_id/reset_token (GraphQL httpIntegrationResetToken)
  router.post(`${BASE}/:integration_id/reset_token`, async (req, res) => {
    const project = admin(req);
    const { integration, token } = await resetIntegrationToken(db, await loadIntegration(db, project.id, idParam.parse(req).integration_id));
    res.json(toIntegration(integration, project, token));
  });
}
