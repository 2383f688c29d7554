import { extractQuickActions } from '../../src/notes/quick-actions';

describe('extractQuickActions', () => {
  const promote = new Set(['promote']);
  it.each([
    ['/promote', ['promote'], ''],
    ['/promote\n', ['promote'], ''],
    ['Looks like an epic\n/promote', ['promote'], 'Looks like an epic'],
    ['/promote\nand more text', ['promote'], 'and more text'],
    ['text /promote inline', [], 'text /promote inline'],
    [' /promote', [], '/promote'],
    ['/promotion', [], '/promotion'],
    ['/label ~bug', [], '/label ~bug'],
    ['```\n/promote\n```', [], '```\n/promote\n```'],
    ['/promote\n/promote', ['promote'], ''],
    ['/PROMOTE', ['promote'], ''],
    ['x \n /promote', [], 'x \n /promote'],
  ])('%j', (body, commands, text) => {
    expect(extractQuickActions(body, promote)).toEqual({ commands, text });
  });

  it('leaves an unavailable command as text', () => {
    expect(extractQuickActions('/promote', new Set())).toEqual({ commands: [], text: '/promote' });
  });
});
