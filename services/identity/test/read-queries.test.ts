import type { Actor } from '@anvil/auth';
import { addMember, asOnGroup, asOnProject, Identity, makeGroup, makeProject, makeUser, startIdentity, unique } from './helpers';

/**
 * The read paths' database work: how many queries a request makes (the same for 1 or many rows:
 * no N+1) and that the hot single-row reads are prepared statements (planned once per connection).
 */

let svc: Identity;
let owner: Actor;
let member: Actor;
let small: { id: number };
let big: { id: number };
let project: { id: number };

interface Seen {
  sql: string;
  name?: string;
}

/** The queries `run` makes, without the outbox relay's polls on the same pool (and their transaction's BEGIN/COMMIT). */
async function queriesOf(run: () => Promise<unknown>): Promise<Seen[]> {
  const seen: Seen[] = [];
  const listen = (q: { sql: string; options?: { name?: string } }) => {
    if (!/\boutbox\b/.test(q.sql) && !/^(BEGIN|COMMIT|ROLLBACK);?$/.test(q.sql)) seen.push({ sql: q.sql, name: q.options?.name });
  };
  svc.deps.db.on('query', listen);
  try {
    await run();
  } finally {
    svc.deps.db.off('query', listen);
  }
  return seen;
}

beforeAll(async () => {
  svc = await startIdentity();
  owner = await makeUser(svc);
  member = await makeUser(svc);
  small = await makeGroup(svc, owner, { path: unique('small') });
  big = await makeGroup(svc, owner, { path: unique('big') });
  project = await makeProject(svc, owner, { namespace_id: small.id });
  for (let i = 0; i < 6; i++) await makeProject(svc, owner, { namespace_id: big.id });
  await addMember(svc, 'groups', big.id, member, 30);
  await addMember(svc, 'projects', project.id, member, 20);
});
afterAll(async () => svc?.stop());

describe('GET /projects/:id', () => {
  it('is one prepared statement, the same one for every caller of that shape', async () => {
    const asMember = await asOnProject(svc, member, project.id);
    const asOwner = await asOnProject(svc, owner, project.id);
    const first = await queriesOf(() => asMember.get(`/api/v4/projects/${project.id}`).expect(200));
    const second = await queriesOf(() => asOwner.get(`/api/v4/projects/${project.id}`).expect(200));
    expect(first).toHaveLength(1);
    expect(first[0].name).toMatch(/^identity_/);
    expect(second.map((q) => q.name)).toEqual([first[0].name]);
  });
});

describe('GET /projects', () => {
  it('makes two queries (page and count) whether it returns one project or many', async () => {
    const one = await queriesOf(() => svc.as({ user: member }).get('/api/v4/projects?membership=true&per_page=1').expect(200));
    const many = await queriesOf(async () => {
      const res = await svc.as({ user: member }).get('/api/v4/projects?membership=true&per_page=20').expect(200);
      expect(res.body.length).toBe(7);
    });
    expect(one).toHaveLength(2);
    expect(many).toHaveLength(2);
  });
});

describe('GET /groups/:id', () => {
  it('reads the group and its embedded projects in two prepared statements, for 1 or 6 projects', async () => {
    for (const g of [small, big]) {
      const client = await asOnGroup(svc, owner, g.id);
      const seen = await queriesOf(async () => {
        const res = await client.get(`/api/v4/groups/${g.id}`).expect(200);
        expect(res.body.projects.length).toBe(g === small ? 1 : 6);
      });
      expect(seen).toHaveLength(2);
      expect(seen.every((q) => q.name?.startsWith('identity_'))).toBe(true);
    }
  });
});

describe('GET /groups and GET /groups/:id/projects', () => {
  it('make two queries for a list and three for a group’s page (the group, the page, the count)', async () => {
    expect(await queriesOf(() => svc.as({ user: member }).get('/api/v4/groups').expect(200))).toHaveLength(2);
    expect(await queriesOf(() => svc.as({ user: member }).get(`/api/v4/groups/${big.id}/projects`).expect(200))).toHaveLength(3);
  });
});
