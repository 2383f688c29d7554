import { sharedAnswerMaxAge } from '@anvil/auth';
import { SHARED_ANSWER_MAX_BYTES, SharedAnswers } from '../src/shared-answers';

describe('shared answers', () => {
  const answer = (until: number, bytes = 0) => ({ status: 200, headers: ['X-Conan-Server-Capabilities', 'revisions'], body: Buffer.alloc(bytes), until });

  it('gives an answer back until its time is up, then forgets it', () => {
    const s = new SharedAnswers();
    s.set('registry /ping', answer(1000));
    expect(s.get('registry /ping', 999)?.headers).toEqual(['X-Conan-Server-Capabilities', 'revisions']);
    expect(s.get('registry /ping', 1000)).toBeUndefined();
    expect(s.size).toBe(0);
  });

  it('keeps no answer larger than the bound, and at most 1000', () => {
    const s = new SharedAnswers();
    s.set('big', answer(Date.now() + 1000, SHARED_ANSWER_MAX_BYTES + 1));
    expect(s.get('big')).toBeUndefined();
    for (let i = 0; i < 1500; i++) s.set(`k${i}`, answer(Date.now() + 10_000));
    expect(s.size).toBeLessThanOrEqual(1000);
    expect(s.get('k1499')).toBeDefined();
  });

  it('reads only max-age=1..3600 from the header', () => {
    expect(sharedAnswerMaxAge('max-age=10')).toBe(10);
    expect(sharedAnswerMaxAge(' max-age=3600 ')).toBe(3600);
    for (const v of ['max-age=0', 'max-age=3601', 'max-age=-1', 'no-store', '', undefined, ['max-age=10'], 'max-age=10, private']) expect(sharedAnswerMaxAge(v)).toBeNull();
  });
});
