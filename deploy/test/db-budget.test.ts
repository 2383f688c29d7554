import { loadConfig } from '@anvil/config';
import { DB_CONNECTION_BUDGET, poolMaxOf } from '@anvil/runtime';
import { BASE_DIR, type Doc, schemaOf, SERVICES } from './manifests';
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

/** Every Deployment of the base and the process whose image it runs (the gateway's pool serves its rate limits). */
function deployments(): Array<{ name: string; service: string }> {
  const docs = fs.readdirSync(BASE_DIR).filter((f) => f.endsWith('.yaml')).flatMap((f) => yaml.loadAll(fs.readFileSync(path.join(BASE_DIR, f), 'utf8')) as Doc[]);
  return docs
    .filter((d) => d?.kind === 'Deployment')
    .map((d) => ({ name: d.metadata.name, service: String(d.spec.template.spec.containers[0].image).replace(/^anvil\//, '') }));
}

describe('the Postgres connection budget', () => {
  it('every service has its own DB_POOL_MAX default', () => {
    for (const s of SERVICES) expect(poolMaxOf(loadConfig(schemaOf(s), {}) as { DB_POOL_MAX: number })).toBeGreaterThanOrEqual(3);
  });

  it('two replicas of every Deployment that connects, at their default pool sizes, fit max_connections less the reserve', () => {
    const ds = deployments();
    // the six services, the project-transfer worker and the gateway
    expect(ds.map((d) => d.name).sort()).toEqual([...SERVICES, 'project-transfer-worker', 'gateway'].sort());
    const used = ds.reduce((sum, d) => sum + DB_CONNECTION_BUDGET.replicas * poolMaxOf(loadConfig(schemaOf(d.service), {}) as { DB_POOL_MAX: number }), 0);
    expect(used).toBeLessThanOrEqual(DB_CONNECTION_BUDGET.maxConnections - DB_CONNECTION_BUDGET.reserved);
    // the README's table states the same total
    const readme = fs.readFileSync(path.join(BASE_DIR, '..', '..', '..', 'README.md'), 'utf8');
    expect(readme).toContain(`| total (× ${DB_CONNECTION_BUDGET.replicas}) | **${used}** of ${DB_CONNECTION_BUDGET.maxConnections - DB_CONNECTION_BUDGET.reserved} |`);
  });
});
