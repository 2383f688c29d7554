import { changedRanges, diffMain } from '../../src/notes/char-diff';
import { cleanupSemantic } from '../../src/notes/char-diff-cleanup';

// Vectors from GitLab's char_diff_spec.rb and inline_diff_spec.rb, and diff-match-patch's own tests.
describe('diffMain + cleanupSemantic', () => {
  it.each<[string, string, [number, string][]]>([
    ['Helo \n Worlld', 'Hello \n World', [[0, 'Hel'], [1, 'l'], [0, 'o \n Worl'], [-1, 'l'], [0, 'd']]],
    ['', 'Hello \n World', [[1, 'Hello \n World']]],
    ['abc', 'abc', [[0, 'abc']]],
    ['abc', 'ab123c', [[0, 'ab'], [1, '123'], [0, 'c']]],
    ['a123bc', 'abc', [[0, 'a'], [-1, '123'], [0, 'bc']]],
    ['a', 'b', [[-1, 'a'], [1, 'b']]],
    ['Apples are a fruit.', 'Bananas are also fruit.', [[-1, 'Apple'], [1, 'Banana'], [0, 's are a'], [1, 'lso'], [0, ' fruit.']]],
    ['abcy', 'xaxcxabc', [[1, 'xaxcx'], [0, 'abc'], [-1, 'y']]],
  ])('%j → %j', (a, b, expected) => {
    expect(cleanupSemantic(diffMain(a, b))).toEqual(expected);
  });
});

describe('changedRanges', () => {
  it.each<[string, string, [number, number][], [number, number][]]>([
    ['Helo \n Worlld', 'Hello \n World', [[11, 11]], [[3, 3]]],
    [' def initialize(test = true)', ' def initialize(test = false)', [[23, 25]], [[23, 26]]],
    [' Hello, how are you?', ' Hi, how are you doing?', [[2, 5]], [[2, 2], [16, 21]]],
    ['Old title', 'New title', [[0, 2]], [[0, 2]]],
    ['🚀 a', '🚀 bc', [[2, 2]], [[2, 3]]],
  ])('%j → %j', (a, b, oldRanges, newRanges) => {
    expect(changedRanges(a, b)).toEqual({ old: oldRanges, new: newRanges });
  });
});
