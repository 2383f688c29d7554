import { quickActionParagraphs } from '../../src/quick-actions/paragraphs';

const ranges = (text: string) => quickActionParagraphs(text.split('\n')).map(({ start, end }) => [start, end]);

describe('quickActionParagraphs', () => {
  it.each<[string, number[][]]>([
    ['/close', [[0, 0]]],
    ['hello\n/close\nworld', [[0, 2]]],
    ['hello\n\n/close', [[2, 2]]],
    ['no command here', []],
    ['```\n/close\n```\n/close', [[3, 3]]],
    ['~~~~\n/close\n~~~\n/close\n~~~~', []],
    ['```ruby\n/close', []],
    ['> quote\n/close', []],
    ['> quote\n\n/close', [[2, 2]]],
    ['>>>\n/close\n>>>\n/close', [[3, 3]]],
    ['- item\n/close', []],
    ['- item\n\n  more\n\n/close', [[4, 4]]],
    ['1. item\n/close', []],
    ['# Heading\n/close', [[1, 1]]],
    ['/close\n===', []],
    ['hello\n/close\n---', []],
    ['***\n/close', [[1, 1]]],
    ['    /close\n/close', [[1, 1]]],
    ['text\n    /close', [[0, 1]]],
    ['<div>\n/close\n</div>', []],
    ['<div>\n/close\n\n/close', [[3, 3]]],
    ['<!--\n/close\n-->\n/close', [[3, 3]]],
    ['<b>\n/close\n</b>', []],
    ['Text\n<b>\n/close\n</b>', [[0, 3]]],
    ['a | b\n--- | ---\n/close', []],
    ['/close\n- item', [[0, 0]]],
    ['/close\n2. item', [[0, 1]]],
  ])('%j', (text, expected) => {
    expect(ranges(text)).toEqual(expected);
  });
});
