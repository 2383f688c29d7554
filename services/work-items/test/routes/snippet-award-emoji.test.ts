import { awardEvents, awardJson, storedAwards } from '../support/award-emoji';
import { small, Small } from '../support/small';

/** GitLab's `visibility_level` integers. */
const LEVEL = { private: 0, internal: 10, public: 20 } as const;

describe('award emoji on project snippets', () => {
  describe('with snippets stored', () => {
    let s: Small;
    beforeAll(async () => {
      s = await small();
    });
    afterAll(() => s?.svc.stop());

    const snippet = async (visibility: keyof typeof LEVEL, author = s.reporter): Promise<number> => {
      const created = await s.on(author).post(`/api/v4/projects/${s.project.id}/snippets`).send({ title: `a ${visibility} snippet`, file_name: 'a.txt', content: 'x', visibility }).expect(201);
      return created.body.id;
    };

    it('answers 404 Not found on every route of a snippet the project does not have', async () => {
      const base = `/api/v4/projects/${s.project.id}/snippets/999999`;
      await s.on(s.guest).get(`${base}/award_emoji`).expect(404, { message: '404 Not found' });
      await s.on(s.guest).get(`${base}/award_emoji/1`).expect(404, { message: '404 Not found' });
      await s.on(s.guest).post(`${base}/award_emoji`).send({ name: 'tada' }).expect(404, { message: '404 Not found' });
      await s.on(s.guest).delete(`${base}/award_emoji/1`).expect(404, { message: '404 Not found' });
      await s.on(s.guest).get(`${base}/notes/1/award_emoji`).expect(404, { message: '404 Not found' });
      await s.on(s.guest).post(`${base}/award_emoji`).send({}).expect(400, { error: 'name is missing' });
    });
    const awards = (id: number, suffix = '') => `/api/v4/projects/${s.project.id}/snippets/${id}/award_emoji${suffix}`;

    it('awards a public snippet (201, awardable_type Snippet), lists and shows it anonymously, removes it by the awarder', async () => {
      const id = await snippet('public');
      const a = (await s.on(s.outsider).post(awards(id)).send({ name: ':heart:' }).expect(201)).body;
      expect(a).toEqual(awardJson(s.outsider, 'heart', 'Snippet', id));
      expect((await s.on(null).get(awards(id)).expect(200)).body).toEqual([a]);
      expect((await s.on(null).get(awards(id, `/${a.id}`)).expect(200)).body).toEqual(a);
      await s.on(null).post(awards(id)).send({ name: 'tada' }).expect(404, { message: '404 Award Emoji Not Found' });
      await s.on(s.guest).delete(awards(id, `/${a.id}`)).expect(401, { message: '401 Unauthorized' });
      await s.on(s.outsider).delete(awards(id, `/${a.id}`)).expect(204);
      expect(await storedAwards(s.svc, 'Snippet', id)).toEqual([]);
      expect(await awardEvents(s.svc, 'removed', a.id)).toEqual([expect.objectContaining({ awardable_type: 'Snippet', awardable_id: id })]);
    });

    it('shows a private snippet’s awards to members only', async () => {
      const id = await snippet('private');
      const a = (await s.on(s.guest).post(awards(id)).send({ name: 'tada' }).expect(201)).body;
      expect((await s.on(s.reporter).get(awards(id)).expect(200)).body).toEqual([a]);
      await s.on(s.outsider).get(awards(id)).expect(404, { message: '404 Award Emoji Not Found' });
      await s.on(null).get(awards(id)).expect(404, { message: '404 Award Emoji Not Found' });
      const stranger = await s.world.user('stranger');
      await s.on(stranger).get(awards(id)).expect(404, { message: '404 Award Emoji Not Found' });
      await s.on(stranger).post(awards(id)).send({ name: 'tada' }).expect(404, { message: '404 Award Emoji Not Found' });
    });

    it('lets signed-in users see internal snippets, anonymous ones not', async () => {
      const id = await snippet('internal');
      await s.on(s.outsider).post(awards(id)).send({ name: 'tada' }).expect(201);
      await s.on(null).get(awards(id)).expect(404, { message: '404 Award Emoji Not Found' });
    });

    it('awards a snippet’s notes; a note of another snippet is 404 Not found', async () => {
      const [id, other] = [await snippet('public'), await snippet('public')];
      const [note] = await s.svc.deps.db('notes').insert({ noteable_type: 'Snippet', noteable_id: id, project_id: s.project.id, author_id: s.reporter.id, body: 'x' }).returning('id');
      const path = `/api/v4/projects/${s.project.id}/snippets/${id}/notes/${note.id}/award_emoji`;
      const a = (await s.on(s.guest).post(path).send({ name: 'thumbsup' }).expect(201)).body;
      expect(a).toEqual(awardJson(s.guest, 'thumbsup', 'Note', note.id));
      expect((await s.on(null).get(path).expect(200)).body).toEqual([a]);
      await s.on(null).get(`/api/v4/projects/${s.project.id}/snippets/${other}/notes/${note.id}/award_emoji`).expect(404, { message: '404 Not found' });
    });
  });
});
