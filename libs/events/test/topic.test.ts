import { assertEventType, assertPattern, createBus, AmqpBus, InMemoryBus, topicMatches } from '../src';

describe('topicMatches', () => {
  it.each([
    ['identity.project.created', 'identity.project.created', true],
    ['identity.project.created', 'identity.project.deleted', false],
    ['identity.project.*', 'identity.project.created', true],
    ['identity.project.*', 'identity.project', false],
    ['identity.project.*', 'identity.project.a.b', false],
    ['*.project.*', 'work-items.project.created', true],
    ['identity.#', 'identity', true],
    ['identity.#', 'identity.user.created', true],
    ['identity.#', 'identityx.user', false],
    ['#', 'anything.at.all', true],
    ['#.created', 'created', true],
    ['#.created', 'a.b.created', true],
    ['#.created', 'a.b.created.not', false],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.c.z', true],
    ['a.#.#.z', 'a.b.z', true],
    ['a.*.#', 'a', false],
    ['a.*.#', 'a.b', true],
    ['*.export.part.completed', 'pipelines.export.part.completed', true],
  ])('%s matches %s: %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });
});

describe('validation', () => {
  it('rejects wildcards and empty words in event types', () => {
    expect(() => assertEventType('a.*.c')).toThrow(/invalid event type/);
    expect(() => assertEventType('a..c')).toThrow(/invalid event type/);
    expect(() => assertEventType('')).toThrow(/invalid event type/);
    expect(() => assertEventType('work-items.issue.created')).not.toThrow();
  });

  it('rejects malformed binding patterns', () => {
    expect(() => assertPattern('a.b*')).toThrow(/invalid binding pattern/);
    expect(() => assertPattern('a.#.*')).not.toThrow();
  });
});

describe('createBus', () => {
  it('picks the adapter from the URL scheme without connecting', async () => {
    const mem = createBus('memory://');
    expect(mem).toBeInstanceOf(InMemoryBus);
    expect(createBus('amqp://guest:guest@127.0.0.1:1')).toBeInstanceOf(AmqpBus);
    expect(createBus('amqps://u:p@127.0.0.1:1/vhost')).toBeInstanceOf(AmqpBus);
    expect(() => createBus('redis://127.0.0.1')).toThrow(/unsupported event bus URL/);
    await mem.close();
  });
});
