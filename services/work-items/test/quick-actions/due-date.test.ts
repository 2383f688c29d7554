import { formatLongDate, formatShortDate, parseDueDate } from '../../src/quick-actions/due-date';

// 2024-06-12 is a Wednesday.
const today = '2024-06-12';

describe('parseDueDate', () => {
  it.each([
    ['2024-12-31', '2024-12-31'],
    ['2024/12/31', '2024-12-31'],
    ['12/31/2024', '2024-12-31'],
    ['today', '2024-06-12'],
    ['tomorrow', '2024-06-13'],
    ['yesterday', '2024-06-11'],
    ['in 2 days', '2024-06-14'],
    ['in 1 day', '2024-06-13'],
    ['in two weeks', '2024-06-26'],
    ['in 3 months', '2024-09-12'],
    ['in a year', '2025-06-12'],
    ['3 days from now', '2024-06-15'],
    ['next week', '2024-06-19'],
    ['next month', '2024-07-16'],
    ['friday', '2024-06-14'],
    ['Friday', '2024-06-14'],
    ['this friday', '2024-06-14'],
    ['next friday', '2024-06-14'],
    ['wednesday', '2024-06-19'],
    ['tue', '2024-06-18'],
    ['Dec 31', '2024-12-31'],
    ['December 31st', '2024-12-31'],
    ['dec. 31', '2024-12-31'],
    ['June 1', '2024-06-01'],
    ['May 1', '2025-05-01'],
    ['31 December 2024', '2024-12-31'],
    ['31st of December', '2024-12-31'],
    ['Dec 31, 2025', '2025-12-31'],
    ['Feb 30', null],
    ['2024-02-30', null],
    ['whenever', null],
    ['', null],
  ])('%j', (text, date) => {
    expect(parseDueDate(text, today)).toBe(date);
  });
});

describe('date formats', () => {
  it.each([
    ['2024-12-31', 'Dec 31, 2024', 'December 31, 2024'],
    ['2018-09-20', 'Sep 20, 2018', 'September 20, 2018'],
    ['2024-05-01', 'May 1, 2024', 'May 1, 2024'],
  ])('%j', (date, short, long) => {
    expect([formatShortDate(date), formatLongDate(date)]).toEqual([short, long]);
  });
});
