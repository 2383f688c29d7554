import { REUSED_BODY_MAX_BYTES, ReusedAnswers } from '../src/reused-answers';

describe('reused answers', () => {
  const answer = (r: ReusedAnswers, project: number | null, generation = r.generation(project), until = Date.now() + 10_000) => ({
    file: 'conan/objects/x' as string | undefined,
    body: undefined as Buffer | undefined,
    status: 200,
    headers: ['Content-Type', 'application/octet-stream'],
    until,
    generation,
    project,
  });

  it('gives an answer back until its time is up, then forgets it', () => {
    const r = new ReusedAnswers();
    r.set('a', answer(r, 1, undefined, 1000));
    expect(r.get('a', 999)?.file).toBe('conan/objects/x');
    expect(r.get('a', 1000)).toBeUndefined();
    expect(r.size).toBe(0);
  });

  it('forgets a project’s answers when it is written, and only that project’s', () => {
    const r = new ReusedAnswers();
    r.set('p1', answer(r, 1));
    r.set('p2', answer(r, 2));
    r.written(1);
    expect(r.get('p1')).toBeUndefined();
    expect(r.get('p2')).toBeDefined();
  });

  it('keeps no answer to a request sent before a write to its project (the answer may predate it)', () => {
    const r = new ReusedAnswers();
    const sentAt = r.generation(1);
    r.written(1); // a write sent while the download was on its way
    r.set('racing', answer(r, 1, sentAt));
    expect(r.get('racing')).toBeUndefined();
    expect(r.size).toBe(0);
  });

  it('forgets every answer on a write without a project, and on clear()', () => {
    const r = new ReusedAnswers();
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
    const r = new ReusedAnswers();
    r.set('jwt', { ...answer(r, 1), file: undefined, body: Buffer.from('eyJ...') });
    expect(r.get('jwt')?.body?.toString()).toBe('eyJ...');
    r.set('big', { ...answer(r, 1), file: undefined, body: Buffer.alloc(REUSED_BODY_MAX_BYTES + 1) });
    expect(r.get('big')).toBeUndefined();
  });

  it('keeps at most 10,000 answers', () => {
    const r = new ReusedAnswers();
    for (let i = 0; i < 12_000; i++) r.set(`k${i}`, answer(r, i % 7));
    expect(r.size).toBeLessThanOrEqual(10_000);
    expect(r.get('k11999')).toBeDefined();
  });
});
