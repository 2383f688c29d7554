import { randomUUID } from 'node:crypto';
import { AccessLevel } from '@anvil/auth';
import type { EventEnvelope } from '@anvil/events';
import { registryDeps } from '../../src/app';
import { projectDeletedConsumer } from '../../src/events/consumers';
import { asUser, project, recipePath, RREV, RREV2, seedV2, user, usernameOf, v1p, v2, registryForTests, type Registry } from '../helpers';

let svc: Registry;
registryForTests((s) => (svc = s));

const owner = user('owner');
const outbox = async (projectId: number) =>
  (await svc.deps.db('outbox').orderBy('id')).filter((r: { data: { project_id: number } }) => r.data?.project_id === projectId).map((r: { type: string; producer: string; data: unknown }) => ({ type: r.type, producer: r.producer, data: r.data }));

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met in time');
}

describe('registry.package.created and registry.package.deleted', () => {
  it('announces a new package once, and its deletion', async () => {
    const p = project('private', AccessLevel.MAINTAINER);
    const who = asUser(owner, p);
    await seedV2(svc, p, who);
    await seedV2(svc, p, who, { rrev: RREV2 });
    const pkg = await svc.deps.db('conan_packages').where({ project_id: p.id }).first();
    const data = { id: Number(pkg.id), project_id: p.id, package_type: 'conan', name: 'hello', version: '1.0', package_username: usernameOf(p), package_channel: 'stable' };
    expect(await outbox(p.id)).toEqual([{ type: 'registry.package.created', producer: 'registry', data }]);
    await svc.as(who).delete(`${v2(p)}/${recipePath(p)}/revisions/${RREV}`).expect(200);
    expect(await outbox(p.id)).toHaveLength(1);
    await svc.as(who).delete(`${v2(p)}/${recipePath(p)}/revisions/${RREV2}`).expect(200);
    expect(await outbox(p.id)).toEqual([
      { type: 'registry.package.created', producer: 'registry', data },
      { type: 'registry.package.deleted', producer: 'registry', data },
    ]);
  });

  it('publishes them on the bus through the outbox relay', async () => {
    const seen: EventEnvelope[] = [];
    const sub = await svc.deps.bus.subscribe(`test.${randomUUID()}`, ['registry.package.*'], async (e) => {
      seen.push(e);
    });
    try {
      const p = project('private', AccessLevel.MAINTAINER);
      await svc.as(asUser(owner, p)).put(`${v1p(p)}/files/bus/1.0/${usernameOf(p)}/stable/0/export/conanfile.py`).send('x').expect(200);
      await svc.as(asUser(owner, p)).delete(`${v1p(p)}/conans/bus/1.0/${usernameOf(p)}/stable`).expect(200);
      await until(async () => seen.filter((e) => (e.data as { project_id: number }).project_id === p.id).length === 2);
      expect(seen.filter((e) => (e.data as { project_id: number }).project_id === p.id).map((e) => e.type)).toEqual(['registry.package.created', 'registry.package.deleted']);
    } finally {
      await sub.close();
    }
  });
});

describe('consuming identity.project.deleted', () => {
  const projectDeleted = (id: number): EventEnvelope => ({
    id: randomUUID(),
    type: 'identity.project.deleted',
    occurred_at: new Date().toISOString(),
    producer: 'identity',
    version: 1,
    data: { id, name: 'p', path: 'p', path_with_namespace: `group/p-${id}`, namespace_id: 1, namespace_kind: 'group', group_id: 1, group_traversal_ids: [1], visibility: 'private', archived: false, creator_id: null, web_url: '' },
  });

  it('deletes the project’s packages, rows and stored files (once), and only that project’s', async () => {
    const gone = project('private', AccessLevel.MAINTAINER);
    const kept = project('private', AccessLevel.MAINTAINER);
    await seedV2(svc, gone, asUser(owner, gone));
    await seedV2(svc, gone, asUser(owner, gone), { name: 'world' });
    await seedV2(svc, kept, asUser(owner, kept));
    const goneKeys: string[] = await svc.deps.db('conan_files').where({ project_id: gone.id }).pluck('storage_key');
    const keptKeys: string[] = await svc.deps.db('conan_files').where({ project_id: kept.id }).pluck('storage_key');
    expect(goneKeys).toHaveLength(10);

    const event = projectDeleted(gone.id);
    await svc.deps.bus.publish(event);
    await until(async () => (await svc.deps.db('conan_packages').where({ project_id: gone.id })).length === 0);
    await until(async () => (await Promise.all(goneKeys.map((k) => svc.deps.storage.head(k)))).every((h) => h === null));
    for (const k of keptKeys) expect(await svc.deps.storage.head(k)).not.toBeNull();
    expect(await svc.deps.db('conan_files').where({ project_id: gone.id })).toEqual([]);
    await until(async () => (await outbox(gone.id)).filter((e) => e.type === 'registry.package.deleted').length === 2);

    await svc.deps.bus.publish(event);
    await new Promise((r) => setTimeout(r, 200));
    expect((await outbox(gone.id)).filter((e) => e.type === 'registry.package.deleted')).toHaveLength(2);
    expect(await svc.deps.db('inbox').where({ consumer: 'registry.project-deleted', event_id: event.id })).toHaveLength(1);
    await svc.as(asUser(owner, kept)).get(`${v2(kept)}/${recipePath(kept)}/latest`).expect(200);
  });

  it('keeps every stored file when the deleting transaction fails to commit, and removes them once it commits', async () => {
    const p = project('private', AccessLevel.MAINTAINER);
    await seedV2(svc, p, asUser(owner, p));
    const keys: string[] = await svc.deps.db('conan_files').where({ project_id: p.id }).pluck('storage_key');
    expect(keys.length).toBeGreaterThan(0);
    const consumer = projectDeletedConsumer(registryDeps(svc.deps));
    const event = projectDeleted(p.id);
    await svc.deps.db.raw("create function refuse_package_delete() returns trigger language plpgsql as $$ begin raise exception 'deletion refused'; end $$");
    // checked at commit, after everything the deletion does inside its transaction
    await svc.deps.db.raw('create constraint trigger refuse_package_delete after delete on conan_packages deferrable initially deferred for each row execute function refuse_package_delete()');
    try {
      await expect(consumer.handler(event)).rejects.toThrow('deletion refused');
    } finally {
      await svc.deps.db.raw('drop trigger refuse_package_delete on conan_packages');
      await svc.deps.db.raw('drop function refuse_package_delete()');
    }
    for (const k of keys) expect(await svc.deps.storage.head(k)).not.toBeNull();
    expect(await svc.deps.db('conan_packages').where({ project_id: p.id })).toHaveLength(1);
    expect(await svc.deps.db('inbox').where({ event_id: event.id })).toEqual([]);

    await consumer.handler(event);
    expect(await svc.deps.db('conan_packages').where({ project_id: p.id })).toEqual([]);
    for (const k of keys) expect(await svc.deps.storage.head(k)).toBeNull();
  });
});
