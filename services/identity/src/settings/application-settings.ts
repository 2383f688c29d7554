import { ValidationError } from '@anvil/http';
import { publish } from '../events/publish';
import type { Db } from '../sql';

/** The instance settings identity keeps, by GitLab's names (`ApplicationSetting`). */
export interface ApplicationSettings {
  allow_local_requests_from_web_hooks_and_services: boolean;
  allow_local_requests_from_system_hooks: boolean;
  outbound_local_requests_whitelist: string[];
  max_export_size: number;
  max_import_size: number;
  max_attachment_size: number;
  notes_create_limit: number;
  project_export_limit: number;
  project_download_export_limit: number;
  project_import_limit: number;
}

/** GitLab's defaults (`ApplicationSettingImplementation.defaults`); sizes in MiB, limits per minute. */
export const SETTING_DEFAULTS: ApplicationSettings = {
  allow_local_requests_from_web_hooks_and_services: false,
  allow_local_requests_from_system_hooks: true,
  outbound_local_requests_whitelist: [],
  max_export_size: 0,
  max_import_size: 0,
  max_attachment_size: 100,
  notes_create_limit: 300,
  project_export_limit: 6,
  project_download_export_limit: 1,
  project_import_limit: 6,
};

const SINGLE_ROW = 1;

/** The names that are settings (unknown keys of initial values are dropped). */
export const SETTING_NAMES = Object.keys(SETTING_DEFAULTS) as (keyof ApplicationSettings)[];

/** The known settings among `input` (an absent or null value leaves the setting as it is). */
function pick(input: Record<string, unknown>): Partial<ApplicationSettings> {
  return Object.fromEntries(SETTING_NAMES.filter((k) => input[k] !== undefined && input[k] !== null).map((k) => [k, input[k]])) as Partial<ApplicationSettings>;
}

/** Field errors of changed values, as the model's validations word them. */
function settingErrors(s: ApplicationSettings): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (f: string, m: string) => (errors[f] ??= []).push(m);
  if (s.max_attachment_size <= 0) add('max_attachment_size', 'must be greater than 0');
  for (const k of ['max_export_size', 'max_import_size', 'notes_create_limit', 'project_export_limit', 'project_download_export_limit', 'project_import_limit'] as const) {
    if (s[k] < 0) add(k, 'must be greater than or equal to 0');
  }
  if (s.outbound_local_requests_whitelist.length > 1000) add('outbound_local_requests_whitelist', 'is too long (maximum is 1000 entries)');
  if (s.outbound_local_requests_whitelist.some((e) => e.length > 255)) add('outbound_local_requests_whitelist', 'contains an entry longer than 255 characters');
  return errors;
}

/** Reads and changes the one row of instance settings. */
export const settingsStore = {
  /** The current settings: stored values over the defaults. */
  async get(db: Db): Promise<ApplicationSettings> {
    const row = (await db('application_settings').where({ id: SINGLE_ROW }).first()) as { settings: Record<string, unknown> } | undefined;
    return { ...SETTING_DEFAULTS, ...pick(row?.settings ?? {}) };
  },

  /** Creates the row with `initial` values unless it exists (environment values count only the first time). */
  async ensure(db: Db, initial: Record<string, unknown>): Promise<void> {
    await db('application_settings').insert({ id: SINGLE_ROW, settings: JSON.stringify(pick(initial)) }).onConflict('id').ignore();
  },
};

/**
 * Applies `changes` (already type-checked) and writes `identity.settings.updated` in the same
 * transaction; invalid values → 400 `{"message":{field:[...]}}` and nothing stored.
 */
export async function updateSettings(db: Db, actorId: number | null, changes: Partial<ApplicationSettings>): Promise<ApplicationSettings> {
  return db.transaction(async (trx) => {
    await trx.raw('INSERT INTO application_settings (id) VALUES (?) ON CONFLICT (id) DO NOTHING', [SINGLE_ROW]);
    await trx.raw('SELECT 1 FROM application_settings WHERE id = ? FOR UPDATE', [SINGLE_ROW]);
    const current = await settingsStore.get(trx);
    const next = { ...current, ...pick(changes) };
    const errors = settingErrors(next);
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const changed = SETTING_NAMES.filter((k) => JSON.stringify(current[k]) !== JSON.stringify(next[k]));
    await trx('application_settings').where({ id: SINGLE_ROW }).update({ settings: JSON.stringify(next), updated_at: trx.fn.now() });
    if (changed.length) await publish.settingsUpdated(trx, { settings: next, changes: changed, actor_id: actorId });
    return next;
  });
}
