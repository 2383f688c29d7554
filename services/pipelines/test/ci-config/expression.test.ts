import { evaluateExpression, isValidExpression } from '../../src/ci-config/expression';
import { parseDuration } from '../../src/ci-config/duration';

const VARS = { BRANCH: 'main', EMPTY: '', TAG: 'v1.2.3', PATTERN: '/^v\\d+/', NUM: '42' };

describe('rules:if expressions', () => {
  it.each([
    ['$BRANCH', true],
    ['$MISSING', false],
    ['$EMPTY', false],
    ['$BRANCH == "main"', true],
    ["$BRANCH == 'main'", true],
    ['$BRANCH != "main"', false],
    ['$MISSING == null', true],
    ['$BRANCH == null', false],
    ['$EMPTY == ""', true],
    ['$BRANCH == $BRANCH', true],
    ['$NUM == "42"', true],
    ['$TAG =~ /^v\\d+\\.\\d+/', true],
    ['$TAG =~ /^V/i', true],
    ['$TAG !~ /^v/', false],
    ['$MISSING =~ /.*/', false],
    ['$TAG =~ $PATTERN', true],
    ['$BRANCH == "main" && $TAG', true],
    ['$BRANCH == "x" || $TAG == "v1.2.3"', true],
    ['$BRANCH == "x" || $TAG == "y" && $NUM', false],
    ['$BRANCH == "main" || $TAG == "y" && $MISSING', true],
    ['($BRANCH == "main" || $TAG == "y") && $MISSING', false],
    ['(($BRANCH))', true],
  ])('%s is %s', (expr, expected) => {
    expect(evaluateExpression(expr, VARS)).toBe(expected);
  });

  it.each([
    ['$A ==', false],
    ['$A == main', false],
    ['$A = "x"', false],
    ['($A', false],
    ['$A)', false],
    ['', false],
    ['"x" == "x"', true],
    ['null', true],
    ['$A =~ /a/ && ($B || $C != "d")', true],
  ])('syntax of %j valid: %s', (expr, valid) => {
    expect(isValidExpression(expr)).toBe(valid);
  });

  it('refuses a regex prone to catastrophic backtracking instead of hanging', () => {
    const started = Date.now();
    expect(() => evaluateExpression('$X =~ /^(a+)+$/', { X: `${'a'.repeat(40)}!` })).toThrow('invalid regular expression');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('durations', () => {
  it.each([
    ['30', 30],
    [30, 30],
    ['30 seconds', 30],
    ['1 minute', 60],
    ['5 mins', 300],
    ['1h 30m', 5400],
    ['2 hours and 10 minutes', 7800],
    ['1 day', 86400],
    ['1 week', 604800],
    ['3 mins 4 sec', 184],
    ['1:30', 90],
    ['soon', null],
    ['1 fortnight', null],
    ['', null],
    [null, null],
    [true, null],
  ])('%j is %s seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });
});
