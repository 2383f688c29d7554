/**
 * `rules:if` expressions as GitLab's Gitlab::Ci::Pipeline::Expression: `$VAR`, `"string"`, `'string'`,
 * `/regex/flags`, `null`, `==`, `!=`, `=~`, `!~`, `&&`, `||`, parentheses. `&&` binds tighter than
 * `||`. Pure; regexes are guarded against catastrophic backtracking. See ../shared/reference/ci-config.md §5.
 */

type Token =
  | { t: 'var'; name: string }
  | { t: 'str'; value: string }
  | { t: 're'; source: string; flags: string }
  | { t: 'null' }
  | { t: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' }
  | { t: 'lp' }
  | { t: 'rp' };

/** An expression that cannot be parsed. */
export class ExpressionError extends Error {}

const LEXEMES: [RegExp, (m: RegExpExecArray) => Token][] = [
  [/^\$([A-Za-z_][A-Za-z0-9_]*)/, (m) => ({ t: 'var', name: m[1] })],
  [/^"([^"]*)"/, (m) => ({ t: 'str', value: m[1] })],
  [/^'([^']*)'/, (m) => ({ t: 'str', value: m[1] })],
  [/^\/((?:\\.|[^/\\])*)\/([imsx]*)/, (m) => ({ t: 're', source: m[1], flags: m[2] })],
  [/^null\b/, () => ({ t: 'null' })],
  [/^(==|!=|=~|!~|&&|\|\|)/, (m) => ({ t: 'op', op: m[1] as '==' })],
  [/^\(/, () => ({ t: 'lp' })],
  [/^\)/, () => ({ t: 'rp' })],
];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let rest = text;
  while ((rest = rest.replace(/^\s+/, '')) !== '') {
    const hit = LEXEMES.map(([re, make]) => [re.exec(rest), make] as const).find(([m]) => m);
    if (!hit) throw new ExpressionError('Unknown pipeline expression');
    tokens.push(hit[1](hit[0]!));
    rest = rest.slice(hit[0]![0].length);
  }
  return tokens;
}

/** A parsed expression tree. */
export type Expr =
  | { k: 'var'; name: string }
  | { k: 'str'; value: string }
  | { k: 're'; source: string; flags: string }
  | { k: 'null' }
  | { k: 'cmp'; op: '==' | '!=' | '=~' | '!~'; left: Expr; right: Expr }
  | { k: 'and' | 'or'; left: Expr; right: Expr };

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Expr {
    if (this.tokens.length === 0) throw new ExpressionError('Empty expression');
    const expr = this.or();
    if (this.pos !== this.tokens.length) throw new ExpressionError('Unexpected token');
    return expr;
  }

  private peekOp(op: string): boolean {
    const tok = this.tokens[this.pos];
    return tok?.t === 'op' && tok.op === op;
  }

  private or(): Expr {
    let left = this.and();
    while (this.peekOp('||')) {
      this.pos++;
      left = { k: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): Expr {
    let left = this.comparison();
    while (this.peekOp('&&')) {
      this.pos++;
      left = { k: 'and', left, right: this.comparison() };
    }
    return left;
  }

  private comparison(): Expr {
    const left = this.operand();
    const tok = this.tokens[this.pos];
    if (tok?.t === 'op' && (tok.op === '==' || tok.op === '!=' || tok.op === '=~' || tok.op === '!~')) {
      this.pos++;
      return { k: 'cmp', op: tok.op, left, right: this.operand() };
    }
    return left;
  }

  private operand(): Expr {
    const tok = this.tokens[this.pos++];
    if (!tok) throw new ExpressionError('Unexpected end of expression');
    switch (tok.t) {
      case 'var':
        return { k: 'var', name: tok.name };
      case 'str':
        return { k: 'str', value: tok.value };
      case 're':
        return { k: 're', source: tok.source, flags: tok.flags };
      case 'null':
        return { k: 'null' };
      case 'lp': {
        const inner = this.or();
        if (this.tokens[this.pos++]?.t !== 'rp') throw new ExpressionError('Unbalanced parentheses');
        return inner;
      }
      default:
        throw new ExpressionError('Unexpected token');
    }
  }
}

/** Parses an expression; throws ExpressionError when the syntax is invalid. */
export function parseExpression(text: string): Expr {
  return new Parser(tokenize(text)).parse();
}

/** True when the text is a valid expression. */
export function isValidExpression(text: string): boolean {
  try {
    parseExpression(text);
    return true;
  } catch {
    return false;
  }
}

type Value = string | null | { re: RegExp } | boolean;

/** Nested quantifiers (`(a+)+`, `(a*)*`, `(a|a)*`) are where JavaScript's backtracking explodes. */
const DANGEROUS = /\([^)]*[+*}][^)]*\)\s*[+*{]|\(([^)|]*)\|\1\)\s*[+*]/;

/** A RegExp from `/source/flags`, refused (ExpressionError) when too long or prone to catastrophic backtracking. */
export function compileRegex(source: string, flags: string): RegExp {
  if (source.length > 1000 || DANGEROUS.test(source)) throw new ExpressionError(`invalid regular expression: /${source}/`);
  try {
    return new RegExp(source, flags.replace(/[^ims]/g, ''));
  } catch {
    throw new ExpressionError(`invalid regular expression: /${source}/`);
  }
}

function asRegex(value: Value): RegExp | null {
  if (value && typeof value === 'object') return value.re;
  if (typeof value === 'string') {
    const m = /^\/(.*)\/([imsx]*)$/s.exec(value);
    if (m) return compileRegex(m[1], m[2]);
  }
  return null;
}

function evaluate(expr: Expr, vars: Record<string, string>): Value {
  switch (expr.k) {
    case 'var':
      return Object.prototype.hasOwnProperty.call(vars, expr.name) ? vars[expr.name] : null;
    case 'str':
      return expr.value;
    case 're':
      return { re: compileRegex(expr.source, expr.flags) };
    case 'null':
      return null;
    case 'and': {
      const left = evaluate(expr.left, vars);
      return truthy(left) ? evaluate(expr.right, vars) : left;
    }
    case 'or': {
      const left = evaluate(expr.left, vars);
      return truthy(left) ? left : evaluate(expr.right, vars);
    }
    case 'cmp': {
      const left = evaluate(expr.left, vars);
      const right = evaluate(expr.right, vars);
      if (expr.op === '==' || expr.op === '!=') {
        const isRe = (v: Value) => v !== null && typeof v === 'object';
        const equal = isRe(left) || isRe(right) ? false : left === right;
        return expr.op === '==' ? equal : !equal;
      }
      const re = asRegex(right);
      const matched = re !== null && typeof left === 'string' && re.test(left.slice(0, 10000));
      return expr.op === '=~' ? matched : !matched;
    }
  }
}

function truthy(value: Value): boolean {
  if (value === null || value === false) return false;
  if (typeof value === 'string') return value !== '';
  return true;
}

/** Evaluates an expression against variables (absent variables are null; `$VAR` alone is true when non-empty). */
export function evaluateExpression(text: string, vars: Record<string, string>): boolean {
  return truthy(evaluate(parseExpression(text), vars));
}
