import { expandBracketKeys, p, params, ParamError } from '../src';

function fails(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ParamError);
    return (e as ParamError).body;
  }
  throw new Error('expected a ParamError');
}

describe('params', () => {
  const schema = params({
    title: p.string().required(),
    confidential: p.boolean(),
    labels: p.list(),
    iids: p.array(p.integer()),
    state: p.enum(['opened', 'closed', 'all'] as const).default('all'),
    weight: p.integer(),
    due: p.date(),
    after: p.datetime(),
    assignee_id: p.oneOf(p.integer(), p.enum(['None', 'Any'] as const, true)),
    not: p.hash({ labels: p.list(), milestone: p.string() }),
  });

  it('coerces what real clients send', () => {
    const v = schema.parseObject({
      title: 'T', confidential: 'True', labels: 'bug,ui', iids: ['2', '4'], weight: '3', due: '2026-01-02',
      after: '2026-01-02T03:04:05Z', assignee_id: 'none', not: { labels: 'x' },
    });
    expect(v).toEqual({
      title: 'T', confidential: true, labels: ['bug', 'ui'], iids: [2, 4], state: 'all', weight: 3, due: '2026-01-02',
      after: new Date('2026-01-02T03:04:05Z'), assignee_id: 'None', not: { labels: ['x'] },
    });
  });

  it.each([
    ['False', false], ['false', false], ['0', false], [false, false], ['True', true], ['1', true], [true, true],
  ])('boolean %j → %j', (raw, out) => {
    expect(schema.parseObject({ title: 't', confidential: raw }).confidential).toBe(out);
  });

  it('accepts labels as a JSON array', () => {
    expect(schema.parseObject({ title: 't', labels: ['a', 'b'] }).labels).toEqual(['a', 'b']);
  });

  it('keeps an integer assignee_id', () => {
    expect(schema.parseObject({ title: 't', assignee_id: '12' }).assignee_id).toBe(12);
  });

  it.each([
    [{}, 'title is missing'],
    [{ title: 't', state: 'weird' }, 'state does not have a valid value'],
    [{ title: 't', weight: 'heavy' }, 'weight is invalid'],
    [{ title: 't', confidential: 'maybe' }, 'confidential is invalid'],
    [{ title: 't', iids: ['1', 'x'] }, 'iids is invalid'],
    [{ title: 't', due: '02/01/2026' }, 'due is invalid'],
    [{ title: 't', not: 'x' }, 'not is invalid'],
    [{ state: 'x' }, 'title is missing, state does not have a valid value'],
  ])('%j → %s', (input, error) => {
    expect(fails(() => schema.parseObject(input))).toEqual({ error });
  });

  it('reports several missing params in one message', () => {
    const s = params({ a: p.string().required(), b: p.string().required() });
    expect(fails(() => s.parseObject({}))).toEqual({ error: 'a, b are missing' });
  });

  it('applies group rules with Grape messages', () => {
    const s = params({ a: p.string(), b: p.string(), c: p.string() }, { mutuallyExclusive: [['a', 'b']], atLeastOneOf: [['b', 'c']], allOrNone: [['a', 'c']] });
    expect(fails(() => s.parseObject({ a: '1', b: '2' }))).toEqual({ error: 'a, b are mutually exclusive, a, c provide all or none of parameters' });
    expect(fails(() => s.parseObject({}))).toEqual({ error: 'b, c are missing, at least one parameter must be provided' });
    expect(s.parseObject({ a: '1', c: '3' })).toEqual({ a: '1', c: '3' });
  });

  it('applies exactlyOneOf with Grape messages', () => {
    const s = params({ cn: p.string(), filter: p.string() }, { exactlyOneOf: [['cn', 'filter']] });
    expect(fails(() => s.parseObject({ cn: 'a', filter: '(uid=a)' }))).toEqual({ error: 'cn, filter are mutually exclusive' });
    expect(fails(() => s.parseObject({}))).toEqual({ error: 'cn, filter are missing, exactly one parameter must be provided' });
    expect(s.parseObject({ filter: '(uid=a)' })).toEqual({ filter: '(uid=a)' });
  });

  it('counts a blank value as given in group rules, as Grape does (PUT ?labels= clears labels)', () => {
    const s = params({ labels: p.list(), title: p.string() }, { atLeastOneOf: [['labels', 'title']] });
    expect(s.parseObject({ labels: '' })).toEqual({ labels: [] });
  });

  it('refuses a blank value where not allowed', () => {
    const s = params({ name: p.string().notBlank().required() });
    expect(fails(() => s.parseObject({ name: '' }))).toEqual({ error: 'name is empty' });
  });

  it('checks predicates', () => {
    const s = params({ n: p.integer().where((x) => x > 0) });
    expect(fails(() => s.parseObject({ n: '0' }))).toEqual({ error: 'n does not have a valid value' });
  });

  it('keeps explicit nulls (python-gitlab sends "expires_at": null)', () => {
    const s = params({ expires_at: p.date() });
    expect(s.parseObject({ expires_at: null })).toEqual({ expires_at: null });
  });
});

describe('expandBracketKeys', () => {
  it('expands flat bracket keys from JSON bodies', () => {
    expect(expandBracketKeys({ path: 'p', 'override_params[visibility]': 'private', 'override_params[description]': 'd', 'ids[]': 3 })).toEqual({
      path: 'p', override_params: { visibility: 'private', description: 'd' }, ids: [3],
    });
  });

  it('leaves plain objects alone', () => {
    const o = { upload: { url: 'u' } };
    expect(expandBracketKeys(o)).toBe(o);
  });
});
