import type { Knex } from 'knex';

/** The instance settings project-transfer applies, by GitLab's names: sizes in MB (0: unlimited), limits per minute (0: off). */
export interface TransferSettings {
  max_export_size: number;
  max_import_size: number;
  project_export_limit: number;
  project_download_export_limit: number;
  project_import_limit: number;
  allow_local_requests_from_web_hooks_and_services: boolean;
  outbound_local_requests_whitelist: string[];
}

/** How old the values a request uses may be (replicas that consume no events read the stored row this often). */
export const REFRESH_MS = 1000;

const COUNTS = ['max_export_size', 'max_import_size', 'project_export_limit', 'project_download_export_limit', 'project_import_limit'] as const;

/** The settings among `input` with a value of the right type (anything else is left as it is). */
export function pickSettings(input: Record<string, unknown>): Partial<TransferSettings> {
  const out: Partial<TransferSettings> = {};
  for (const k of COUNTS) {
    const v = input[k];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) out[k] = v;
  }
  const local = input.allow_local_requests_from_web_hooks_and_services;
  if (typeof local === 'boolean') out.allow_local_requests_from_web_hooks_and_services = local;
  const list = input.outbound_local_requests_whitelist;
  if (Array.isArray(list) && list.every((e) => typeof e === 'string')) out.outbound_local_requests_whitelist = list as string[];
  return out;
}

/** The initial values, from the environment. */
export function settingsFromConfig(config: Record<string, unknown>): TransferSettings {
  return {
    max_export_size: Number(config.MAX_EXPORT_SIZE_MB ?? 0),
    max_import_size: Number(config.MAX_IMPORT_SIZE_MB ?? 0),
    project_export_limit: Number(config.PROJECT_EXPORT_LIMIT ?? 6),
    project_download_export_limit: Number(config.PROJECT_DOWNLOAD_EXPORT_LIMIT ?? 1),
    project_import_limit: Number(config.PROJECT_IMPORT_LIMIT ?? 6),
    allow_local_requests_from_web_hooks_and_services: Boolean(config.ALLOW_LOCAL_REQUESTS),
    outbound_local_requests_whitelist: [],
  };
}

/**
 * The settings in force in this process: the environment's until identity's first
 * `identity.settings.updated`, then the administrator's. Each change is stored in the service's
 * schema (`instance_settings`) and read back at start, so a restart keeps it.
 */
export class LiveSettings {
  private values: TransferSettings;
  private loadedAt = 0;
  /** When the event the values come from was published (none: the environment's). */
  private occurredAt?: Date;
  private loading?: Promise<void>;
  /** Bumped on every applied event, so a slower read of the stored row never undoes a newer event. */
  private version = 0;

  constructor(initial: TransferSettings) {
    this.values = initial;
  }

  get current(): TransferSettings {
    return this.values;
  }

  /** `max_import_size` in bytes (0: unlimited). */
  get maxImportBytes(): number {
    return this.values.max_import_size * 1024 * 1024;
  }

  /** `max_export_size` in bytes (0: unlimited). */
  get maxExportBytes(): number {
    return this.values.max_export_size * 1024 * 1024;
  }

  /**
   * Applies the settings of an event published at `occurredAt` and stores them; an event older than
   * the one applied changes nothing (applying the same one twice is harmless).
   */
  async apply(db: Knex, settings: Record<string, unknown>, occurredAt: Date): Promise<void> {
    this.version += 1;
    if (!this.occurredAt || occurredAt >= this.occurredAt) {
      this.values = { ...this.values, ...pickSettings(settings) };
      this.occurredAt = occurredAt;
    }
    await db.raw(
      `INSERT INTO instance_settings (id, settings, occurred_at, updated_at) VALUES (1, ?::jsonb, ?, now())
       ON CONFLICT (id) DO UPDATE SET settings = instance_settings.settings || EXCLUDED.settings, occurred_at = EXCLUDED.occurred_at, updated_at = now()
       WHERE instance_settings.occurred_at <= EXCLUDED.occurred_at`,
      [JSON.stringify(pickSettings(settings)), occurredAt],
    );
    this.version += 1;
  }

  /** Reads the stored settings back (at start); the environment's values stay when none are stored. */
  async load(db: Knex): Promise<void> {
    const seen = this.version;
    const row = (await db('instance_settings').where({ id: 1 }).first()) as { settings: Record<string, unknown>; occurred_at: Date } | undefined;
    if (!row || this.version !== seen || (this.occurredAt && row.occurred_at < this.occurredAt)) return;
    this.values = { ...this.values, ...pickSettings(row.settings) };
    this.occurredAt = row.occurred_at;
  }

  /**
   * The settings with the stored row read again when older than `maxAgeMs`: a replica that consumes no
   * events (`ROLE=api`) follows the values the workers store. A failed read keeps the values in memory.
   */
  async fresh(db: Knex, maxAgeMs = REFRESH_MS): Promise<TransferSettings> {
    if (Date.now() - this.loadedAt >= maxAgeMs) {
      this.loading ??= this.load(db).catch(() => undefined).finally(() => {
        this.loadedAt = Date.now();
        this.loading = undefined;
      });
      await this.loading;
    }
    return this.values;
  }
}

const live = new WeakMap<object, LiveSettings>();

/** The one `LiveSettings` of a running service (its app, consumers and start hook share it). */
export function liveSettingsFor(deps: { config: Record<string, unknown> }): LiveSettings {
  let s = live.get(deps);
  if (!s) {
    s = new LiveSettings(settingsFromConfig(deps.config));
    live.set(deps, s);
  }
  return s;
}
