import express from 'express';
import request from 'supertest';
import { offsetHeaders, paginateArray } from '../src/pagination';

const app = express();
app.use((req, _res, next) => {
  Object.assign(req, { anvil: { base: 'http://gw.test/' } });
  next();
});
app.get('/api/v4/headers', (req, res) => {
  const n = (k: string) => (req.query[k] === undefined ? null : Number(req.query[k]));
  res.json(offsetHeaders(req, { page: n('page') ?? 1, perPage: n('per_page') ?? 20, total: n('total'), hasNext: req.query.next === '1' }));
});
app.get('/api/v4/array', (req, res) => {
  res.json(paginateArray(req, req.query.n ? Array.from({ length: Number(req.query.n) }, (_, i) => i) : [1, 2, 3, 4, 5]));
});

async function get(url: string): Promise<Record<string, unknown>> {
  const r = await request(app).get(url).expect(200);
  expect(r.headers['x-total']).toBeUndefined();
  return r.body;
}

describe('offsetHeaders', () => {
  it('returns every GitLab header for a middle page, in GitLab order', async () => {
    const h = await get('/api/v4/headers?page=2&per_page=10&total=25&next=1');
    expect(Object.keys(h)).toEqual(['X-Per-Page', 'X-Page', 'X-Next-Page', 'X-Prev-Page', 'X-Total', 'X-Total-Pages', 'Link']);
    expect(h).toEqual({
      'X-Per-Page': '10', 'X-Page': '2', 'X-Next-Page': '3', 'X-Prev-Page': '1', 'X-Total': '25', 'X-Total-Pages': '3',
      Link: '<http://gw.test/api/v4/headers?page=1&per_page=10&total=25&next=1>; rel="prev", <http://gw.test/api/v4/headers?page=3&per_page=10&total=25&next=1>; rel="next", '
        + '<http://gw.test/api/v4/headers?page=1&per_page=10&total=25&next=1>; rel="first", <http://gw.test/api/v4/headers?page=3&per_page=10&total=25&next=1>; rel="last"',
    });
  });

  it('never repeats a token given in the query in its links', async () => {
    const h = await get('/api/v4/headers?private_token=glpat-secret1&next=1&access_token=secret2&job_token=secret3&total=40');
    expect(h.Link).toBe(
      '<http://gw.test/api/v4/headers?next=1&total=40&page=2&per_page=20>; rel="next", <http://gw.test/api/v4/headers?next=1&total=40&page=1&per_page=20>; rel="first", '
        + '<http://gw.test/api/v4/headers?next=1&total=40&page=2&per_page=20>; rel="last"',
    );
  });

  it('leaves out X-Total, X-Total-Pages and rel="last" when the total is not counted', async () => {
    const h = await get('/api/v4/headers?next=1');
    expect(h).toEqual({
      'X-Per-Page': '20', 'X-Page': '1', 'X-Next-Page': '2', 'X-Prev-Page': '',
      Link: '<http://gw.test/api/v4/headers?next=1&page=2&per_page=20>; rel="next", <http://gw.test/api/v4/headers?next=1&page=1&per_page=20>; rel="first"',
    });
  });

  it('counts an empty list as one page', async () => {
    const h = await get('/api/v4/headers?total=0');
    expect(h['X-Total-Pages']).toBe('1');
    expect(h['X-Next-Page']).toBe('');
  });
});

describe('paginateArray', () => {
  it('returns the page and its headers without touching the response', async () => {
    const page = await get('/api/v4/array?page=3&per_page=2');
    expect(page.items).toEqual([5]);
    expect(page.headers).toMatchObject({ 'X-Total': '5', 'X-Total-Pages': '3', 'X-Page': '3', 'X-Next-Page': '', 'X-Prev-Page': '2' });
  });
  it('omits the totals and rel="last" from 10,000 items on, as GitLab does for arrays', async () => {
    expect(((await get('/api/v4/array?n=9999')).headers as Record<string, string>)['X-Total']).toBe('9999');
    const headers = (await get('/api/v4/array?n=10000&page=2')).headers as Record<string, string>;
    expect(headers).not.toHaveProperty('X-Total');
    expect(headers).not.toHaveProperty('X-Total-Pages');
    expect(headers.Link).not.toContain('rel="last"');
  });
});
