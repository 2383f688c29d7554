import { closingReferences, issueReferences } from '../../src/merge-requests/issue-references';

const BASE = 'http://gitlab.example';

describe('closingReferences', () => {
  it.each([
    ['Closes #1', [{ path: null, iid: 1 }]],
    ['closes #1', [{ path: null, iid: 1 }]],
    ['Fixes #2 and #3', [{ path: null, iid: 2 }, { path: null, iid: 3 }]],
    ['fixed #2, #3', [{ path: null, iid: 2 }, { path: null, iid: 3 }]],
    ['Resolves: #4', [{ path: null, iid: 4 }]],
    ['Implements issue #5', [{ path: null, iid: 5 }]],
    ['Closing issues #6 and group/other#7', [{ path: null, iid: 6 }, { path: 'group/other', iid: 7 }]],
    [`Closes ${BASE}/g/p/-/issues/8`, [{ path: 'g/p', iid: 8 }]],
    ['Closes http://elsewhere/g/p/-/issues/8', []],
    ['Related to #9', []],
    ['This encloses #10', []],
    ['Fix #11\nand mention #12', [{ path: null, iid: 11 }]],
    ['', []],
  ])('%j', (text, expected) => {
    expect(closingReferences(text, BASE)).toEqual(expected);
  });
});

describe('issueReferences', () => {
  it.each([
    ['see #1 and #1 again', [{ path: null, iid: 1 }]],
    ['see a/b#2 and a/b/c#3', [{ path: 'a/b', iid: 2 }, { path: 'a/b/c', iid: 3 }]],
    [`link ${BASE}/a/b/issues/4`, [{ path: 'a/b', iid: 4 }]],
    ['no refs here, just a#b and x#', []],
  ])('%j', (text, expected) => {
    expect(issueReferences(text, BASE)).toEqual(expected);
  });
});
