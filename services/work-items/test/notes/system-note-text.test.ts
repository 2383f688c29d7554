import {
  assigneeChangedText, assigneesChangedText, checklistItemText, confidentialityChangedText, crossReference, discussionLockText,
  dueDateChangedText, markRanges, markedCanonicalText, markedDuplicateText, mentionedInText, movedText, relationText,
  timeEstimateChangedText, timeSpentChangedText, timelogDeletedText, titleChangedText, typeChangedText,
} from '../../src/notes/system-note-text';

describe('assignees', () => {
  it.each<[string[], string[], string]>([
    [[], ['a'], 'assigned to @a'],
    [['b'], [], 'unassigned @b'],
    [['b'], ['a'], 'assigned to @a and unassigned @b'],
    [[], ['a', 'b', 'c'], 'assigned to @a, @b and @c'],
    [['a', 'b'], ['b', 'c', 'd'], 'assigned to @c and @d and unassigned @a'],
    [['a'], ['a'], ''],
  ])('%j → %j', (before, after, text) => {
    expect(assigneesChangedText(before, after)).toBe(text);
  });
  it.each([['a', 'assigned to @a'], [null, 'removed assignee']])('legacy %j', (u, text) => expect(assigneeChangedText(u)).toBe(text));
});

describe('title', () => {
  it.each([
    ['Old title', 'New title', 'changed title from **{-Old-} title** to **{+New+} title**'],
    ['Old title', 'Lorem ipsum', 'changed title from **{-Old title-}** to **{+Lorem ipsum+}**'],
    ['[$1] This is a test issue', '[$2] This is a test issue', 'changed title from **[${-1-}] This is a test issue** to **[${+2+}] This is a test issue**'],
    ['Fix bug', 'Fix bug in parser', 'changed title from **Fix bug** to **Fix bug{+ in parser+}**'],
    ['', 'New', 'changed title from **** to **New**'],
    ['Ship it 🚀 now', 'Ship it 🎉 now', 'changed title from **Ship it {-🚀-} now** to **Ship it {+🎉+} now**'],
    ['🚀 a', '🚀 b', 'changed title from **🚀 {-a-}** to **🚀 {+b+}**'],
  ])('%j → %j', (before, after, text) => {
    expect(titleChangedText(before, after)).toBe(text);
  });
  it('marks ranges as StringRangeMarker does', () => {
    expect(markRanges("abc 'def'", [[2, 5]], '-')).toBe("ab{-c 'd-}ef'");
    expect(markRanges('abcdef', [[0, 0], [3, 4]], '+')).toBe('{+a+}bc{+de+}f');
  });
});

describe('other texts', () => {
  it.each([
    [dueDateChangedText('2018-09-20', null), 'changed due date to September 20, 2018'],
    [dueDateChangedText(null, '2018-09-20'), 'removed due date September 20, 2018'],
    [dueDateChangedText(null, null), 'removed due date'],
    [timeEstimateChangedText(0, 3600), 'added time estimate of 1h'],
    [timeEstimateChangedText(3600, 7200), 'changed time estimate to 2h from 1h'],
    [timeEstimateChangedText(7200, 0), 'removed time estimate of 2h'],
    [timeEstimateChangedText(0, 0), ''],
    [timeSpentChangedText(5400, null, '2024-06-12'), 'added 1h 30m of time spent'],
    [timeSpentChangedText(5400, '2024-06-12', '2024-06-12'), 'added 1h 30m of time spent'],
    [timeSpentChangedText(-1800, '2024-06-01', '2024-06-12'), 'subtracted 30m of time spent at 2024-06-01'],
    [timeSpentChangedText('reset', null, '2024-06-12'), 'removed time spent'],
    [timelogDeletedText(3600, '2024-06-01'), 'deleted 1h of spent time from 2024-06-01'],
    [timelogDeletedText(-1800, '2022-03-30'), 'deleted -30m of spent time from 2022-03-30'],
    [timeEstimateChangedText(0, 277200), 'added time estimate of 1w 4d 5h'],
    [timeEstimateChangedText(0, 277200, { limitToHours: true }), 'added time estimate of 77h'],
    [timeEstimateChangedText(277200, 3600), 'changed time estimate to 1h from 1w 4d 5h'],
    [timeSpentChangedText(277200, null, '2024-06-12', { limitToHours: true }), 'added 77h of time spent'],
    [timeSpentChangedText(1800, '2022-03-30', '2024-06-12'), 'added 30m of time spent at 2022-03-30'],
    [confidentialityChangedText(true), 'made the issue confidential'],
    [confidentialityChangedText(false, 'incident'), 'made the incident visible to everyone'],
    [discussionLockText(true), 'locked the discussion in this issue'],
    [discussionLockText(false, 'merge request'), 'unlocked the discussion in this merge request'],
    [checklistItemText('write tests', true), 'marked the checklist item **write tests** as completed'],
    [checklistItemText('write tests', false), 'marked the checklist item **write tests** as incomplete'],
    [mentionedInText('issue', '#12'), 'mentioned in issue #12'],
    [mentionedInText('merge request', '!3'), 'mentioned in merge request !3'],
    [mentionedInText('commit', '54f7727c'), 'mentioned in commit 54f7727c'],
    [markedDuplicateText('#1234'), 'marked this issue as a duplicate of #1234'],
    [markedCanonicalText('#5'), 'marked #5 as a duplicate of this issue'],
    [relationText(true, '#9'), 'marked this issue as related to #9'],
    [relationText(false, '#9'), 'removed the relation with #9'],
    [movedText('moved', 'to', 'grp/proj#11'), 'moved to grp/proj#11'],
    [typeChangedText('issue', 'incident'), 'changed type from issue to incident'],
  ])('%j', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('crossReference', () => {
  it.each([
    [{ prefix: '#', iid: 12, projectPath: 'g/p' }, 'g/p', '#12'],
    [{ prefix: '!', iid: 3, projectPath: 'g/other' }, 'g/p', 'other!3'],
    [{ prefix: '#', iid: 12, projectPath: 'h/q' }, 'g/p', 'h/q#12'],
    [{ prefix: '#', iid: 1, projectPath: 'g/sub/q' }, 'g/p', 'g/sub/q#1'],
  ])('%j from %s', (target, from, ref) => {
    expect(crossReference(target, from)).toBe(ref);
  });
});
