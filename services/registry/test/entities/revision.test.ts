import { revisionTime, toRevisionEntity, toRevisionsList } from '../../src/entities/revision';

/** The revision entry's `time` as the spec writes it: `YYYY-MM-DDTHH:MM:SS.mmm+0000`. */
describe('revisionTime', () => {
  it.each([
    ['milliseconds kept', '2024-01-01T12:00:00.334Z', '2024-01-01T12:00:00.334+0000'],
    ['whole seconds written with .000', '2024-12-17T09:16:40.000Z', '2024-12-17T09:16:40.000+0000'],
    ['a non-UTC instant written in UTC', '2024-06-30T23:59:59.999-02:00', '2024-07-01T01:59:59.999+0000'],
    ['the epoch', '1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000+0000'],
  ])('%s', (_case, at, expected) => {
    expect(revisionTime(new Date(at))).toBe(expected);
    expect(revisionTime(new Date(at))).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
  });
});

describe('toRevisionEntity and toRevisionsList', () => {
  const rev = { id: 1, revision: 'd41d8cd98f00b204e9800998ecf8427e', createdAt: new Date('2024-01-01T12:00:00.334Z') };

  it('exposes exactly revision and time', () => {
    expect(toRevisionEntity(rev)).toEqual({ revision: rev.revision, time: '2024-01-01T12:00:00.334+0000' });
  });

  it('lists under the reference, in the order given', () => {
    expect(toRevisionsList('hello/1.0@_/_', [rev])).toEqual({ reference: 'hello/1.0@_/_', revisions: [{ revision: rev.revision, time: '2024-01-01T12:00:00.334+0000' }] });
  });
});
