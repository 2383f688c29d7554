import { small, Small } from '../support/small';

describe('issue time tracking', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  describe('POST …/time_estimate', () => {
    it('sets the estimate from JSON, query or form, and reports it in human form', async () => {
      const issue = await s.issue();
      const res = await s.on(s.reporter).post(s.path(issue.iid, '/time_estimate')).send({ duration: '3h30m' }).expect(200);
      expect(res.body).toEqual({ time_estimate: 12600, total_time_spent: 0, human_time_estimate: '3h 30m', human_total_time_spent: null });
      expect((await s.on(s.reporter).post(s.path(issue.iid, '/time_estimate?duration=1w')).send({}).expect(200)).body.human_time_estimate).toBe('1w');
      expect((await s.on(s.reporter).post(s.path(issue.iid, '/time_estimate')).type('form').send('duration=3w1h').expect(200)).body.human_time_estimate).toBe('3w 1h');
      const shown = await s.on(s.guest).get(s.path(issue.iid)).expect(200);
      expect(shown.body.time_stats).toEqual({ time_estimate: 3 * 144000 + 3600, total_time_spent: 0, human_time_estimate: '3w 1h', human_total_time_spent: null });
    });

    it('keeps the old value on a bad duration (400) and requires duration', async () => {
      const issue = await s.issue();
      await s.on(s.reporter).post(s.path(issue.iid, '/time_estimate')).send({ duration: '1w' }).expect(200);
      const bad = await s.on(s.reporter).post(s.path(issue.iid, '/time_estimate')).send({ duration: 'foo' }).expect(400);
      expect(bad.body).toEqual({ message: { time_estimate: ['must have a valid format and be greater than or equal to zero.'] } });
      expect((await s.on(s.reporter).get(s.path(issue.iid, '/time_stats')).expect(200)).body.human_time_estimate).toBe('1w');
      expect((await s.on(s.reporter).post(s.path(issue.iid, '/time_estimate')).send({}).expect(400)).body).toEqual({ error: 'duration is missing' });
    });

    it('is 403 for a guest and a non-member of a public project, 401 anonymous', async () => {
      const issue = await s.issue();
      await s.on(s.guest).post(s.path(issue.iid, '/time_estimate')).send({ duration: '1h' }).expect(403, { message: '403 Forbidden' });
      await s.on(s.outsider).post(s.path(issue.iid, '/time_estimate')).send({ duration: '1h' }).expect(403, { message: '403 Forbidden' });
      await s.on(null).post(s.path(issue.iid, '/time_estimate')).send({ duration: '1h' }).expect(401, { message: '401 Unauthorized' });
      expect((await s.on(s.reporter).get(s.path(issue.iid, '/time_stats')).expect(200)).body.time_estimate).toBe(0);
    });
  });

  describe('POST …/reset_time_estimate', () => {
    it('sets the estimate to 0', async () => {
      const issue = await s.issue();
      await s.on(s.reporter).post(s.path(issue.iid, '/time_estimate')).send({ duration: '2h' }).expect(200);
      const res = await s.on(s.reporter).post(s.path(issue.iid, '/reset_time_estimate')).send({}).expect(200);
      expect(res.body).toMatchObject({ time_estimate: 0, human_time_estimate: null });
    });
  });

  describe('POST …/add_spent_time', () => {
    it('adds (201), subtracts, and refuses to go below zero', async () => {
      const issue = await s.issue();
      const res = await s.on(s.reporter).post(s.path(issue.iid, '/add_spent_time')).send({ duration: '2h', summary: 'worked' }).expect(201);
      expect(res.body).toMatchObject({ total_time_spent: 7200, human_total_time_spent: '2h' });
      expect((await s.on(s.reporter).post(s.path(issue.iid, '/add_spent_time')).send({ duration: '-1h' }).expect(201)).body.total_time_spent).toBe(3600);
      const over = await s.on(s.reporter).post(s.path(issue.iid, '/add_spent_time')).send({ duration: '-1w' }).expect(400);
      expect(over.body).toEqual({ message: { base: ['Time to subtract exceeds the total time spent'] } });
      const log = await s.svc.deps.db('timelogs').where({ issue_id: issue.id }).orderBy('id');
      expect(log.map((l: { time_spent: number; summary: string | null }) => [l.time_spent, l.summary])).toEqual([[7200, 'worked'], [-3600, null]]);
    });
  });

  describe('POST …/reset_spent_time', () => {
    it('logs minus the total', async () => {
      const issue = await s.issue();
      await s.on(s.reporter).post(s.path(issue.iid, '/add_spent_time')).send({ duration: '1d' }).expect(201);
      const res = await s.on(s.reporter).post(s.path(issue.iid, '/reset_spent_time')).send({}).expect(200);
      expect(res.body).toMatchObject({ total_time_spent: 0, human_total_time_spent: null });
    });
  });

  describe('GET …/time_stats', () => {
    it('is readable by anyone who can read the issue, 404 on a confidential one', async () => {
      const issue = await s.issue();
      await s.on(s.reporter).post(s.path(issue.iid, '/add_spent_time')).send({ duration: '30m' }).expect(201);
      expect((await s.on(null).get(s.path(issue.iid, '/time_stats')).expect(200)).body).toEqual({ time_estimate: 0, total_time_spent: 1800, human_time_estimate: null, human_total_time_spent: '30m' });
      const secret = await s.issue({ confidential: true });
      await s.on(null).get(s.path(secret.iid, '/time_stats')).expect(404, { message: '404 Not found' });
    });
  });
});
