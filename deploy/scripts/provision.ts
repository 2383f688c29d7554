/**
 * One-shot job: creates each service's (and the gateway's) database login (`provisionService` of libs/db), run with an
 * administrative URL before the services start (docker-compose's `provision`, the Kubernetes Job
 * `anvil-provision`). The services never see that URL.
 *
 *   DATABASE_ADMIN_URL=postgres://admin:…@host/db  IDENTITY_DATABASE_URL=postgres://identity:…@host/db  …  node dist/provision.js
 *
 * For every `<SERVICE>_DATABASE_URL` given (the URL the service itself connects with), the login is
 * that URL's user, with its password, owning the schema of the same name (the service's default
 * schema is its name with `-` → `_`). Passwords must be real secrets (at least 16 characters, no
 * placeholder). Idempotent: a later run changes passwords and nothing else. Retries while Postgres starts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, isPlaceholderSecret, loadConfig, url } from '@anvil/config';
import { provisionService, SERVICE_EXTENSIONS } from '@anvil/db';

/** The processes with a database login, in the order they are provisioned (the gateway's holds its rate limits). */
export const DB_SERVICES = ['identity', 'registry', 'project-transfer', 'work-items', 'pipelines', 'alerting', 'gateway'] as const;

/** `<SERVICE>_DATABASE_URL`, e.g. `WORK_ITEMS_DATABASE_URL`. */
export function loginVar(service: string): string {
  return `${service.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;
}

const ATTEMPTS = 30;

/** What `provision` will create: one login (user, password) per given service URL. */
export function loginsOf(env: Record<string, string | undefined>): Array<{ service: string; schema: string; password: string }> {
  const logins = DB_SERVICES.filter((s) => env[loginVar(s)]).map((service) => {
    const u = new URL(loadConfig({ [loginVar(service)]: url(['postgres', 'postgresql']) }, env)[loginVar(service)]!);
    const schema = decodeURIComponent(u.username);
    const password = decodeURIComponent(u.password);
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new ConfigError(`${loginVar(service)}: the user must be the service's schema name (lower case, digits, _), not ${JSON.stringify(schema)}`);
    if (password.length < 16 || isPlaceholderSecret(password)) throw new ConfigError(`${loginVar(service)}: the password must be a generated secret of at least 16 characters`);
    return { service, schema, password };
  });
  if (!logins.length) throw new ConfigError(`nothing to provision: set ${DB_SERVICES.map(loginVar).join(', ')}`);
  return logins;
}

/** Creates every login `env` names, retrying for up to ~a minute while Postgres is not up yet. */
export async function provision(env: Record<string, string | undefined> = process.env): Promise<string[]> {
  const adminUrl = loadConfig({ DATABASE_ADMIN_URL: url(['postgres', 'postgresql']) }, env).DATABASE_ADMIN_URL!;
  const logins = loginsOf(env);
  for (let attempt = 1; ; attempt++) {
    try {
      for (const l of logins) await provisionService({ adminUrl, schema: l.schema, password: l.password, extensions: SERVICE_EXTENSIONS[l.service] });
      return logins.map((l) => l.schema);
    } catch (e) {
      const code = (e as { code?: string }).code;
      // only a Postgres that is not reachable yet is worth waiting for
      if (attempt >= ATTEMPTS || !(code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '57P03')) throw e;
      await sleep(2000);
    }
  }
}

if (require.main === module) {
  provision().then(
    (done) => process.stdout.write(`provisioned the database logins: ${done.join(', ')}\n`),
    (e) => {
      process.stderr.write(`provisioning failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
