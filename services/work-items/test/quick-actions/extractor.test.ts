import { SHRUG, SUBSTITUTIONS, TABLEFLIP, extractCommands, type CommandName } from '../../src/quick-actions/extractor';

// The definitions GitLab's extractor spec uses.
const defs: CommandName[] = [
  { name: 'reopen', aliases: ['open'] },
  { name: 'assign' },
  { name: 'label', aliases: ['labels'] },
  { name: 'power' },
  { name: 'substitution', substitution: 'foo' },
  { name: 'shrug', substitution: 'SHRUG' },
];
type Row = [string, string, [string, string | null][]];
const run = (body: string, d: readonly CommandName[] = defs) => {
  const { text, commands } = extractCommands(body, d);
  return [text, commands.map((c) => [c.name, c.arg])];
};

describe('extractCommands', () => {
  it.each<Row>([
    ['/reopen\nworld', 'world', [['reopen', null]]],
    ['hello\n/reopen\nworld', 'hello\nworld', [['reopen', null]]],
    ['hello\nworld /reopen', 'hello\nworld /reopen', []],
    ['hello\n/reopen', 'hello', [['reopen', null]]],
    ['/assign @joe\nworld', 'world', [['assign', '@joe']]],
    ['/assign @joe / @jane\nworld', 'world', [['assign', '@joe / @jane']]],
    ['hello\n/assign @joe\nworld', 'hello\nworld', [['assign', '@joe']]],
    ['hello\n/assign@joe\nworld', 'hello\n/assign@joe\nworld', []],
    ['/labels ~foo ~"bar baz" label\nworld', 'world', [['label', '~foo ~"bar baz" label']]],
    ['hello\n/labels~foo ~"bar baz" label\nworld', 'hello\n/labels~foo ~"bar baz" label\nworld', []],
    ['hello\n/power @user.name %9.10 ~"bar baz.2"\nworld', 'hello\nworld', [['power', '@user.name %9.10 ~"bar baz.2"']]],
    ['hello\n/PoWer @user.name %9.10 ~"bar baz.2"\nworld', 'hello\nworld', [['power', '@user.name %9.10 ~"bar baz.2"']]],
    ['hello\nworld\n/reopen\n/noop_command', 'hello\nworld\n/noop_command', [['reopen', null]]],
    ['hello\nworld\n/reopen\n/substitution', 'hello\nworld\nfoo', [['reopen', null], ['substitution', null]]],
    ['hello\nworld\n/reopen\n/shrug this is great?', 'hello\nworld\nSHRUG', [['reopen', null], ['shrug', 'this is great?']]],
    ['hello\nworld\n/reopen\n/shrug this is great?\n/shrug', 'hello\nworld\nSHRUG\nSHRUG', [['reopen', null], ['shrug', 'this is great?'], ['shrug', null]]],
    ['hello\nworld\n/reopen\n`/tableflip this is great`?', 'hello\nworld\n`/tableflip this is great`?', [['reopen', null]]],
    ['hello\nworld\n/reOpen\n/sHRuG this is great?', 'hello\nworld\nSHRUG', [['reopen', null], ['shrug', 'this is great?']]],
    ['hello\n/power @user.name %9.10 ~"bar baz.2" label\nworld\n/reopen', 'hello\nworld', [['power', '@user.name %9.10 ~"bar baz.2" label'], ['reopen', null]]],
    ['<!-- this is a comment -->\n\n/label ~bug\n\n<p>\n</p>', '<!-- this is a comment -->\n\n<p>\n</p>', [['label', '~bug']]],
    ['Fixes #123', 'Fixes #123', []],
    ['/reopen\n`some inline code`\n/label ~a\n`more inline code`', '`some inline code`\n`more inline code`', [['reopen', null], ['label', '~a']]],
    ['/reopen\n```\nsome blockcode\n```\n/label ~a\n```\nmore blockcode\n```', '```\nsome blockcode\n```\n```\nmore blockcode\n```', [['reopen', null], ['label', '~a']]],
    ['/open', '', [['reopen', null]]],
    ['/reopen\r\nworld\r\n', 'world', [['reopen', null]]],
    ['/reopen   \nworld', 'world', [['reopen', null]]],
    ['/assign  @joe  \nworld', 'world', [['assign', ' @joe  ']]],
    ['/reopen\n\n\nworld', '\nworld', [['reopen', null]]],
    ['hello\n\n/reopen\n\nworld', 'hello\n\nworld', [['reopen', null]]],
    [' /reopen', ' /reopen', []],
    ['/reopened', '/reopened', []],
    ['- item\n/reopen', '- item\n/reopen', []],
    ['- item\n\n/reopen', '- item', [['reopen', null]]],
    ['# Title\n/reopen', '# Title', [['reopen', null]]],
    ['/reopen\n---', '/reopen\n---', []],
    ['    /reopen', '    /reopen', []],
    ['~~~\n/reopen\n~~~', '~~~\n/reopen\n~~~', []],
    ['```\n/reopen', '```\n/reopen', []],
    ['a | b\n--- | ---\n/reopen', 'a | b\n--- | ---\n/reopen', []],
    ['/reopen\nworld\n/assign @joe', 'world', [['reopen', null], ['assign', '@joe']]],
    ['/reopen\n/reopen', '', [['reopen', null], ['reopen', null]]],
  ])('%j', (body, text, commands) => {
    expect(run(body)).toEqual([text, commands]);
  });

  // GitLab's spec: "does not extract commands inside"
  it.each([
    ['block HTML tags', 'Hello\r\n<div>\r\nText\r\n/close\r\n/assign @user\r\n</div>\r\n\r\nWorld'],
    ['raw HTML with sourcepos', '<p data-sourcepos="0:1-2:10">\r\n/close\r\n</p>'],
    ['inline html on separated rows', 'Text\r\n<b>\r\n/close\r\n</b>'],
    ['HTML comments', '<!--\n/assign @user\n-->'],
    ['blockquotes', '> Text\r\n/reopen'],
    ['multiline blockquotes', 'Hello\r\n\r\n>>>\r\nText\r\n/close\r\n/assign @user\r\n>>>\r\n\r\nWorld'],
    ['code blocks', 'Hello\r\n```\r\nText\r\n/close\r\n/assign @user\r\n```\r\n\r\nWorld'],
    ['inline code on separated rows', 'Hello `Text\r\n/close\r\n/assign @user\r\n`\r\n\r\nWorld'],
    ['inline code from the first column', '`This is some text\r\n/close\r\n/assign @user\r\n`\r\n\r\nWorld'],
  ])('leaves commands inside %s', (_, body) => {
    const defsWithClose = [...defs, { name: 'close' }];
    expect(extractCommands(body, defsWithClose)).toEqual({ text: body.replace(/\r/g, ''), commands: [] });
  });

  it('substitutes the issuable shrug and tableflip', () => {
    expect(extractCommands('hi\n/shrug whatever\n/tableflip', SUBSTITUTIONS)).toEqual({
      text: `hi\n${SHRUG}\n${TABLEFLIP}`,
      commands: [{ name: 'shrug', arg: 'whatever' }, { name: 'tableflip', arg: null }],
    });
  });

  it('is fast on many newlines', () => {
    const t = Date.now();
    extractCommands('`' + '\n'.repeat(100_000), defs);
    expect(Date.now() - t).toBeLessThan(3000);
  });
});
