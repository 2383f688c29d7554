import type { Router } from 'express';
import { ctx, p, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toApplicationSetting } from '../entities/application-setting';
import { requireAdmin } from '../policy';
import { ApplicationSettings, settingsStore, updateSettings } from '../settings/application-settings';
import { defined } from './helpers';

const updateParams = params({
  allow_local_requests_from_web_hooks_and_services: p.boolean(),
  allow_local_requests_from_system_hooks: p.boolean(),
  outbound_local_requests_whitelist: p.array(p.string()),
  max_export_size: p.integer(),
  max_import_size: p.integer(),
  max_attachment_size: p.integer(),
  notes_create_limit: p.integer(),
  project_export_limit: p.integer(),
  project_download_export_limit: p.integer(),
  project_import_limit: p.integer(),
});

/** Instance settings (administrators only): read and change. */
export function settingsRoutes(router: Router, ictx: IdentityContext): void {
  // GET /application/settings
  router.get('/application/settings', async (req, res) => {
    requireAdmin(ctx(req).user);
    res.json(toApplicationSetting(await settingsStore.get(ictx.db)));
  });

  // PUT /application/settings
  router.put('/application/settings', async (req, res) => {
    const actor = requireAdmin(ctx(req).user);
    const input = defined(updateParams.parse(req)) as Partial<ApplicationSettings>;
    res.json(toApplicationSetting(await updateSettings(ictx.db, actor.id, input)));
  });
}
