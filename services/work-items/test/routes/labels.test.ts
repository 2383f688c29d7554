import { small, Small } from '../support/small';
import { published } from '../support/published';
import { AccessLevel } from '../support/world';

describe('labels API (project and group)', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
    await s.world.member(s.group, s.reporter, AccessLevel.REPORTER);
  });
  afterAll(() => s?.svc.stop());

  const P = (suffix = '') => `/api/v4/projects/${s.project.id}/labels${suffix}`;
  const G = (suffix = '') => `/api/v4/groups/${s.group.id}/labels${suffix}`;

  describe('POST /projects/:id/labels', () => {
    it('creates a project label (201, ProjectLabel entity)', async () => {
      const res = await s.on(s.reporter).post(P()).send({ name: 'bug', color: '#FF0000', description: 'Broken', priority: 3 }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(Number), name: 'bug', color: '#FF0000', description: 'Broken', description_html: '<p dir="auto">Broken</p>',
        text_color: '#FFFFFF', remove_on_close: false, subscribed: false, priority: 3, is_project_label: true,
      });
      expect(await published(s.svc, 'work-items.label.', { id: res.body.id })).toEqual([{
        type: 'work-items.label.created',
        data: { id: res.body.id, title: 'bug', color: '#FF0000', description: 'Broken', priority: 3, project_id: s.project.id, group_id: null, actor_id: s.reporter.id },
      }]);
    });
    it('answers 409 for a taken name, 400 for a bad color or a missing name', async () => {
      await s.on(s.reporter).post(P()).send({ name: 'dup', color: '#000000' }).expect(201);
      expect((await s.on(s.reporter).post(P()).send({ name: 'dup', color: '#000000' }).expect(409)).body).toEqual({ message: 'Label already exists' });
      expect((await s.on(s.reporter).post(P()).send({ name: 'x', color: 'nope' }).expect(400)).body).toEqual({ message: { color: ['must be a valid color code'] } });
      expect((await s.on(s.reporter).post(P()).send({ color: '#000' }).expect(400)).body).toEqual({ error: 'name is missing' });
    });
    it('is 403 for a guest', async () => {
      await s.on(s.guest).post(P()).send({ name: 'g', color: '#000000' }).expect(403, { message: '403 Forbidden' });
    });
  });

  describe('GET /projects/:id/labels', () => {
    it('lists project and ancestor-group labels, with counts on request', async () => {
      await s.world.onGroup(s.group, s.reporter).post(G()).send({ name: 'team-wide', color: '#00FF00' }).expect(201);
      await s.issue({ labels: 'bug' });
      const res = await s.on(s.guest).get(`${P()}?with_counts=true&search=bug`).expect(200);
      expect(res.body).toEqual([expect.objectContaining({ name: 'bug', open_issues_count: 1, closed_issues_count: 0, open_merge_requests_count: 0 })]);
      const all = await s.on(s.guest).get(P()).expect(200);
      const teamWide = all.body.find((l: { name: string }) => l.name === 'team-wide');
      expect(teamWide).toMatchObject({ is_project_label: false });
      expect(all.body.every((l: Record<string, unknown>) => !('open_issues_count' in l))).toBe(true);
      const own = await s.on(s.guest).get(`${P()}?include_ancestor_groups=false`).expect(200);
      expect(own.body.map((l: { name: string }) => l.name)).not.toContain('team-wide');
    });
  });

  describe('PUT and DELETE /projects/:id/labels/:label_id', () => {
    it('renames by id or name and deletes (204)', async () => {
      const label = (await s.on(s.reporter).post(P()).send({ name: 'old', color: '#111111' }).expect(201)).body;
      const renamed = await s.on(s.reporter).put(P(`/${label.id}`)).send({ new_name: 'new', color: '#222222' }).expect(200);
      expect(renamed.body).toMatchObject({ name: 'new', color: '#222222' });
      expect((await s.on(s.guest).get(P('/new')).expect(200)).body.id).toBe(label.id);
      expect((await s.on(s.reporter).put(P('/new')).send({}).expect(400)).body.error).toBe('new_name, color, description, priority are missing, at least one parameter must be provided');
      await s.on(s.reporter).delete(P('/new')).expect(204, '');
      await s.on(s.guest).get(P(`/${label.id}`)).expect(404, { message: '404 Label Not Found' });
      expect(await s.svc.deps.db('labels').where({ id: label.id }).first()).toBeUndefined();
      const events = await published(s.svc, 'work-items.label.', { id: label.id });
      expect(events.map((e) => [e.type, e.data.title])).toEqual([['work-items.label.created', 'old'], ['work-items.label.updated', 'new'], ['work-items.label.deleted', 'new']]);
    });
    it('announces labels an issue creates by naming them', async () => {
      const issue = await s.issue({ labels: 'fresh-one' });
      const [created] = await published(s.svc, 'work-items.label.created', { title: 'fresh-one' });
      expect(created.data).toMatchObject({ project_id: s.project.id, color: '#6699cc', actor_id: s.reporter.id });
      await s.on(s.reporter).put(s.path(issue.iid)).send({ labels: 'fresh-one' }).expect(200);
      expect(await published(s.svc, 'work-items.label.created', { title: 'fresh-one' })).toHaveLength(1);
    });
  });

  describe('group labels', () => {
    it('create, list, edit and delete', async () => {
      const label = (await s.world.onGroup(s.group, s.reporter).post(G()).send({ name: 'grp', color: '#abcdef' }).expect(201)).body;
      expect(label).not.toHaveProperty('is_project_label');
      expect((await s.world.onGroup(s.group, s.reporter).get(G()).expect(200)).body.map((l: { name: string }) => l.name)).toContain('grp');
      const edited = await s.world.onGroup(s.group, s.reporter).put(G(`/${label.id}`)).send({ description: 'd' }).expect(200);
      expect(edited.body).toEqual({ ...label, description: 'd', description_html: '<p dir="auto">d</p>' });
      await s.world.onGroup(s.group, s.guest).delete(G(`/${label.id}`)).expect(403, { message: '403 Forbidden' });
      expect((await s.world.onGroup(s.group, s.guest).get(G(`/${label.id}`)).expect(200)).body).toEqual(edited.body);
      await s.world.onGroup(s.group, s.reporter).delete(G(`/${label.id}`)).expect(204, '');
      await s.world.onGroup(s.group, s.guest).get(G(`/${label.id}`)).expect(404, { message: '404 Label Not Found' });
      const events = await published(s.svc, 'work-items.label.', { id: label.id });
      expect(events.map((e) => [e.type, e.data.group_id, e.data.project_id])).toEqual(['created', 'updated', 'deleted'].map((v) => [`work-items.label.${v}`, s.group.id, null]));
    });
  });
});
