import { formatDuration, parseDuration } from '../../src/time-tracking/duration';

const H = 3600;
const D = 8 * H;
const W = 5 * D;
const MO = 4 * W;

describe('parseDuration', () => {
  it.each<[string, number | null]>([
    ['3h30m', 3 * H + 30 * 60],
    ['3h 30m', 3 * H + 30 * 60],
    ['1w', W],
    ['1w 2d 3h', W + 2 * D + 3 * H],
    ['3w1h', 3 * W + H],
    ['1d', D],
    ['1mo', MO],
    ['1mo', 20 * D],
    ['2 months', 2 * MO],
    ['1y', 31_557_600],
    ['90m', 90 * 60],
    ['45s', 45],
    ['3', 3 * H],
    ['1.5h', 5400],
    ['0.5d', 4 * H],
    ['-2h', -2 * H],
    ['-1w', -W],
    ['1:30', 90],
    ['1:00:00', H],
    ['2 hrs 20 min', 2 * H + 20 * 60],
    ['3 Mins 4 Sec', 3 * 60 + 4],
    ['3 weeks and, 2 days', 3 * W + 2 * D],
    ['3 weeks with 2 days', 3 * W + 2 * D],
    ['3 weeks, plus 2 days', 3 * W + 2 * D],
    ['day', D],
    ['minute 30s', 90],
    ['1h30', H + 30 * H],
    ['40h', 5 * D],
    ['foo', null],
    ['', null],
    ['0', null],
    ['0h', null],
  ])('%j → %j', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });

  it('treats 1mo as 4w, 1w as 5d and 1d as 8h', () => {
    expect(parseDuration('1mo')).toBe(parseDuration('4w'));
    expect(parseDuration('1w')).toBe(parseDuration('5d'));
    expect(parseDuration('1d')).toBe(parseDuration('8h'));
  });
});

describe('formatDuration', () => {
  it.each<[number, string | null]>([
    [0, null],
    [45, '45s'],
    [60, '1m'],
    [3600, '1h'],
    [3 * H + 30 * 60, '3h 30m'],
    [8 * H, '1d'],
    [W, '1w'],
    [W + 2 * D + 3 * H, '1w 2d 3h'],
    [3 * W + H, '3w 1h'],
    [MO, '1mo'],
    [MO + W + D + H + 60 + 1, '1mo 1w 1d 1h 1m 1s'],
    [5 * MO, '5mo'],
    [36 * H, '4d 4h'],
    [-2 * H, '-2h'],
    [-(W + H), '-1w 1h'],
    [31_557_600, '1y'],
  ])('%j → %j', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });

  it('limits to hours when asked', () => {
    expect(formatDuration(36 * H, { limitToHours: true })).toBe('36h');
  });

  it('round-trips what it prints', () => {
    for (const s of [90, 3 * H + 30 * 60, W + 2 * D + 3 * H, MO + W + D + H + 61, -2 * H]) {
      expect(parseDuration(formatDuration(s) as string)).toBe(s);
    }
  });
});
