import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { type Fleet, startFleet } from '@anvil/testing';
import { call, userWithToken } from './support/fleet-api';

/**
 * Instance settings followed by project-transfer without a restart, through the gateway, with identity
 * and two project-transfer processes over RabbitMQ: `max_import_size` refuses a larger upload, the
 * value survives a crash and restart (whose environment says unlimited), and `project_export_limit`
 * answers GitLab's 429.
 */
describe('project-transfer follows PUT /application/settings', () => {
  let fleet: Fleet;
  let user: { id: number; token: string };

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'project-transfer'], replicas: { 'project-transfer': 2 }, env: { MAX_IMPORT_SIZE_MB: '0', PROJECT_EXPORT_LIMIT: '6' } });
    user = await userWithToken(fleet, 'settings-importer');
  }, 180_000);
  afterAll(async () => fleet?.stop());

  // not a valid archive, but the size is refused before anything reads it; about 2 MB
  const big = () => gzipSync(randomBytes(2 * 1024 * 1024));
  const upload = async (file: Buffer) => {
    const form = new FormData();
    form.append('path', `imp-${randomBytes(4).toString('hex')}`);
    form.append('file', new Blob([file]), 'export.tar.gz');
    const res = await fetch(`${fleet.url}/api/v4/projects/import`, { method: 'POST', headers: { 'PRIVATE-TOKEN': user.token }, body: form });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  const until = async (fn: () => Promise<boolean>) => {
    for (const end = Date.now() + 15_000; !(await fn());) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it('max_import_size: 1 refuses a 2 MB upload with 413, also after project-transfer restarts', async () => {
    expect((await upload(big())).status).not.toBe(413);
    await call(fleet, fleet.adminToken, 'PUT', '/application/settings', { max_import_size: 1 });
    await until(async () => (await upload(big())).status === 413);
    expect(await upload(big())).toEqual({ status: 413, body: { message: '413 Request Entity Too Large' } });

    await fleet.crashAndRestart('project-transfer');
    expect(await upload(big())).toEqual({ status: 413, body: { message: '413 Request Entity Too Large' } });
  }, 120_000);

  it('project_export_limit: 1 answers the second export within a minute with 429', async () => {
    const project = await call(fleet, user.token, 'POST', '/projects', { path: `exp-${randomBytes(4).toString('hex')}` });
    await call(fleet, fleet.adminToken, 'PUT', '/application/settings', { project_export_limit: 1 });
    const exportOnce = (token = user.token, id = project.id) => fetch(`${fleet.url}/api/v4/projects/${id}/export`, { method: 'POST', headers: { 'PRIVATE-TOKEN': token } });
    // the change reaches project-transfer: each probe is a fresh user's first two exports
    let n = 0;
    await until(async () => {
      const probe = await userWithToken(fleet, `settings-probe-${n++}-${randomBytes(3).toString('hex')}`);
      const own = await call(fleet, probe.token, 'POST', '/projects', { path: `probe-${randomBytes(4).toString('hex')}` });
      return (await exportOnce(probe.token, own.id)).status === 202 && (await exportOnce(probe.token, own.id)).status === 429;
    });
    expect((await exportOnce()).status).toBe(202);
    const res = await exportOnce();
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
    expect(res.headers.get('retry-after')).toBe('60');
  }, 120_000);
});
