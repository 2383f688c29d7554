import { sharedAnswerMaxAge } from '@anvil/auth';
import { KEPT_BODY_MAX_BYTES, KeptAnswers, REUSED_ANSWERS_MAX, SHARED_ANSWERS_MAX } from '../src/answers';

describe('shared answers', () => {
  const answer = (until: number, bytes = 0) => ({ status: 200, headers: ['X-Conan-Server-Capabilities', 'revisions'], body: Buffer.alloc(bytes), until });

  it('gives an answer back until its time is up, then forgets it', () => {
    const s = new KeptAnswers(SHARED_ANSWERS_MAX);
    s.set('registry /ping', answer(1000));
    expect(s.get('registry /ping', 999)?.headers).toEqual(['X-Conan-Server-Capabilities', 'revisions']);
    expect(s.get('registry /ping', 1000)).toBeUndefined();
    expect(s.size).toBe(0);
  });

  it('keeps no answer larger than the bound, and at most 1000', () => {
    const s = new KeptAnswers(SHARED_ANSWERS_MAX);
    s.set('big', answer(Date.now() + 1000, KEPT_BODY_MAX_BYTES + 1));
    expect(s.get('big')).toBeUndefined();
    for (let i = 0; i < 1500; i++) s.set(`k${i}`, answer(Date.now() + 10_000));
    expect(s.size).toBeLessThanOrEqual(1000);
    expect(s.get('k1499')).toBeDefined();
  });

  it('holds whatever is written: no write concerns an answer kept without a generation', () => {
    const s = new KeptAnswers(SHARED_ANSWERS_MAX);
    s.set('ping', answer(Date.now() + 10_000));
    s.written(null);
    s.written(1);
    expect(s.get('ping')).toBeDefined();
  });

  it('reads only max-age=1..3600 from the header', () => {
    expect(sharedAnswerMaxAge('max-age=10')).toBe(10);
    expect(sharedAnswerMaxAge(' max-age=3600 ')).toBe(3600);
    for (const v of ['max-age=0', 'max-age=3601', 'max-age=-1', 'no-store', '', undefined, ['max-age=10'], 'max-age=10, private']) expect(sharedAnswerMaxAge(v)).toBeNull();
  });
});

describe('reused answers', () => {
  const answer = (r: KeptAnswers, project: number | null, generation = r.generation(project), until = Date.now() + 10_000) => ({
    file: 'conan/objects/x' as string | undefined,
    body: undefined as Buffer | undefined,
    status: 200,
    headers: ['Content-Type', 'application/octet-stream'],
    until,
    generation,
    project,
  });

  it('gives an answer back until its time is up, then forgets it', () => {
    const r = new KeptAnswers(REUSED_ANSWERS_MAX);
    r.set('a', answer(r, 1, undefined, 1000));
    expect(r.get('a', 999)?.file).toBe('conan/objects/x');
    expect(r.get('a', 1000)).toBeUndefined();
    expect(r.size).toBe(0);
  });

  it('forgets a project’s answers when it is written, and only that project’s', () => {
    const r = new KeptAnswers(REUSED_ANSWERS_MAX);
    r.set('p1', answer(r, 1));
    r.set('p2', answer(r, 2));
    r.written(1);
    expect(r.get('p1')).toBeUndefined();
    expect(r.get('p2')).toBeDefined();
  });

  it('keeps no answer to a request sent before a write to its project (the answer may predate it)', () => {
    const r = new KeptAnswers(REUSED_ANSWERS_MAX);
    const sentAt = r.generation(1);
    r.written(1); // a write sent while the download was on its way
    r.set('racing', answer(r, 1, sentAt));
    expect(r.get('racing')).toBeUndefined();
    expect(r.size).toBe(0);
  });

  it('forgets every answer on a write without a project, and on clear()', () => {
    const r = new KeptAnswers(REUSED_ANSWERS_MAX);
    r.set('p1', answer(r, 1));
    r.written(null);
    expect(r.get('p1')).toBeUndefined();
    r.set('p1', answer(r, 1));
    r.set('none', answer(r, null));
    r.clear();
    expect(r.get('p1')).toBeUndefined();
    expect(r.get('none')).toBeUndefined();
  });

  it('keeps a small body, not one over the bound', () => {
    const r = new KeptAnswers(REUSED_ANSWERS_MAX);
    r.set('jwt', { ...answer(r, 1), file: undefined, body: Buffer.from('eyJ...') });
    expect(r.get('jwt')?.body?.toString()).toBe('eyJ...');
    r.set('big', { ...answer(r, 1), file: undefined, body: Buffer.alloc(KEPT_BODY_MAX_BYTES + 1) });
    expect(r.get('big')).toBeUndefined();
  });

  it('keeps at most 10,000 answers', () => {
    const r = new KeptAnswers(REUSED_ANSWERS_MAX);
    for (let i = 0; i < 12_000; i++) r.set(`k${i}`, answer(r, i % 7));
    expect(r.size).toBeLessThanOrEqual(10_000);
    expect(r.get('k11999')).toBeDefined();
  });
});
