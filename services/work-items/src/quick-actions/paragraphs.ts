/**
 * The top-level Markdown paragraphs of a note, by line: GitLab looks for quick actions only there
 * (`Banzai::Pipeline::QuickActionPipeline` + `Banzai::Filter::QuickActionFilter`), so a `/command`
 * inside a fenced or indented code block, an HTML block, a `>`/`>>>` quote, a list item, a heading or
 * a table is never run. This is a CommonMark block scanner reduced to what decides that question.
 *
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/banzai/filter/quick_action_filter.rb
 * https://spec.commonmark.org/0.31.2/#blocks-and-inlines
 */

/** Inclusive 0-based line range of one top-level paragraph. */
export interface LineRange {
  start: number;
  end: number;
}

const BLANK = /^[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const LEGACY_QUOTE_FENCE = /^>>>[ \t]*$/;
const QUOTE = /^ {0,3}>/;
const BULLET = /^ {0,3}([-+*])([ \t]+|$)/;
const ORDERED = /^ {0,3}(\d{1,9})[.)]([ \t]+|$)/;
const ATX = /^ {0,3}#{1,6}([ \t]|$)/;
const THEMATIC = /^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const INDENTED = /^( {4}|\t)/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

const HTML_BLOCK_TAGS =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|' +
  'fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|' +
  'main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|' +
  'title|tr|track|ul';
/** HTML block kinds 1–5 end at a marker; 6 and 7 at a blank line (CommonMark §4.6). */
const HTML_WITH_END: [RegExp, RegExp][] = [
  [/^ {0,3}<(script|pre|style|textarea)([ \t>]|$)/i, /<\/(script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![a-z]/i, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];
const HTML_KIND_6 = new RegExp(`^ {0,3}</?(${HTML_BLOCK_TAGS})([ \\t>]|/>|$)`, 'i');
const ATTRIBUTE = `[ \\t]+[a-zA-Z_:][a-zA-Z0-9_.:-]*([ \\t]*=[ \\t]*([^ \\t"'=<>\`]+|'[^']*'|"[^"]*"))?`;
const HTML_KIND_7 = new RegExp(`^ {0,3}(<[a-zA-Z][a-zA-Z0-9-]*(${ATTRIBUTE})*[ \\t]*/?>|</[a-zA-Z][a-zA-Z0-9-]*[ \\t]*>)[ \\t]*$`);

type Scan = (lines: string[], i: number) => number;

/** A code fence opener (a backtick fence's info string may not hold a backtick). */
function isFence(line: string): boolean {
  const m = FENCE.exec(line);
  return m !== null && !(m[1][0] === '`' && m[2].includes('`'));
}

/** Index after a fenced code block opened at `i` (unclosed fences run to the end). */
const skipFence: Scan = (lines, i) => {
  const fence = FENCE.exec(lines[i])![1];
  const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  let j = i + 1;
  while (j < lines.length && !close.test(lines[j])) j++;
  return Math.min(j + 1, lines.length);
};

/** Index after a block that lasts until a blank line (quotes with lazy lines, tables, HTML 6/7). */
const skipToBlank: Scan = (lines, i) => {
  let j = i + 1;
  while (j < lines.length && !BLANK.test(lines[j])) j++;
  return j;
};

function listContentIndent(line: string): number | null {
  const m = BULLET.exec(line) ?? ORDERED.exec(line);
  if (!m || THEMATIC.test(line)) return null;
  const spaces = m[2].length;
  return m[0].length - spaces + (spaces === 0 || spaces > 4 ? 1 : spaces);
}

const indentOf = (line: string) => /^[ ]*/.exec(line.replace(/\t/g, '    '))![0].length;

/** Index after a list: blank lines end it only when the next line is neither indented nor an item. */
const skipList: Scan = (lines, i) => {
  const indent = listContentIndent(lines[i])!;
  let j = i + 1;
  while (j < lines.length) {
    if (!BLANK.test(lines[j])) {
      j++;
      continue;
    }
    let k = j;
    while (k < lines.length && BLANK.test(lines[k])) k++;
    if (k < lines.length && (indentOf(lines[k]) >= indent || listContentIndent(lines[k]) !== null)) j = k;
    else return j;
  }
  return j;
};

const skipIndentedCode: Scan = (lines, i) => {
  let j = i + 1;
  while (j < lines.length && (INDENTED.test(lines[j]) || BLANK.test(lines[j]))) j++;
  return j;
};

function htmlEnd(lines: string[], i: number): number | null {
  for (const [start, end] of HTML_WITH_END) {
    if (!start.test(lines[i])) continue;
    let j = i;
    while (j < lines.length && !end.test(lines[j])) j++;
    return Math.min(j + 1, lines.length);
  }
  return HTML_KIND_6.test(lines[i]) ? skipToBlank(lines, i) : null;
}

/** True when `line` ends a paragraph by starting another block (CommonMark "can interrupt"). */
function interrupts(line: string): boolean {
  if (isFence(line) || ATX.test(line) || THEMATIC.test(line) || QUOTE.test(line)) return true;
  if (HTML_WITH_END.some(([start]) => start.test(line)) || HTML_KIND_6.test(line)) return true;
  const bullet = BULLET.exec(line);
  if (bullet) return bullet[2] !== '';
  const ordered = ORDERED.exec(line);
  return ordered !== null && ordered[1] === '1' && ordered[2] !== '';
}

/** The block starting at the non-blank line `i`: where it ends, and whether it is a paragraph. */
function block(lines: string[], i: number): { next: number; paragraph: boolean } {
  const line = lines[i];
  if (isFence(line)) return { next: skipFence(lines, i), paragraph: false };
  if (LEGACY_QUOTE_FENCE.test(line)) {
    const close = lines.findIndex((l, k) => k > i && LEGACY_QUOTE_FENCE.test(l));
    return { next: close > 0 ? close + 1 : skipToBlank(lines, i), paragraph: false };
  }
  if (QUOTE.test(line)) return { next: skipToBlank(lines, i), paragraph: false };
  if (listContentIndent(line) !== null) return { next: skipList(lines, i), paragraph: false };
  if (ATX.test(line) || THEMATIC.test(line)) return { next: i + 1, paragraph: false };
  if (INDENTED.test(line)) return { next: skipIndentedCode(lines, i), paragraph: false };
  const html = htmlEnd(lines, i) ?? (HTML_KIND_7.test(line) ? skipToBlank(lines, i) : null);
  if (html !== null) return { next: html, paragraph: false };
  if (i + 1 < lines.length && line.includes('|') && TABLE_DELIMITER.test(lines[i + 1]) && lines[i + 1].includes('|')) {
    return { next: skipToBlank(lines, i), paragraph: false };
  }
  let j = i + 1;
  while (j < lines.length && !BLANK.test(lines[j])) {
    if (SETEXT.test(lines[j])) return { next: j + 1, paragraph: false };
    if (interrupts(lines[j])) break;
    j++;
  }
  return { next: j, paragraph: true };
}

/**
 * The top-level paragraphs of `lines` (line texts without their newline) that may hold a quick
 * action: those with a line whose text starts with `/`.
 */
export function quickActionParagraphs(lines: readonly string[]): LineRange[] {
  const all = [...lines];
  const out: LineRange[] = [];
  let i = 0;
  while (i < all.length) {
    if (BLANK.test(all[i])) {
      i++;
      continue;
    }
    const { next, paragraph } = block(all, i);
    if (paragraph && all.slice(i, next).some((l) => /^[ \t]*\//.test(l))) out.push({ start: i, end: next - 1 });
    i = next;
  }
  return out;
}
