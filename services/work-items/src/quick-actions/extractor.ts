/**
 * Quick actions in a note or description, as GitLab's `Gitlab::QuickActions::Extractor` finds them:
 * `\r` is dropped; only top-level Markdown paragraphs are searched (see `paragraphs.ts`); inside
 * them a command is a line `/<name>` (a known name or alias, any case), optionally followed by one
 * space and an argument that runs to the end of the line. Inline code (`` `…` ``, across lines) and
 * inline HTML elements spanning lines are skipped. Matched lines and the blank lines after them are
 * removed; substitutions (`/shrug`, `/tableflip`) replace their line. The result is right-stripped.
 *
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/quick_actions/extractor.rb
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/spec/lib/gitlab/quick_actions/extractor_spec.rb
 */
import { quickActionParagraphs } from './paragraphs';

/** `/shrug` output (`Gitlab::QuickActions::IssuableActions::SHRUG`). */
export const SHRUG = '¯\\＿(ツ)＿/¯';
/** `/tableflip` output (`Gitlab::QuickActions::IssuableActions::TABLEFLIP`). */
export const TABLEFLIP = '(╯°□°)╯︵ ┻━┻';

/** A command the extractor should recognise: its canonical name and aliases. */
export interface CommandName {
  name: string;
  aliases?: readonly string[];
  /** For substitutions: the text that replaces the command line. */
  substitution?: string;
}

/** One command found, in text order: canonical name and the raw argument (null when blank). */
export interface ExtractedCommand {
  name: string;
  arg: string | null;
}

/** The text left after extraction and the commands found. */
export interface Extraction {
  text: string;
  commands: ExtractedCommand[];
}

/** The substitutions every issuable supports. */
export const SUBSTITUTIONS: readonly CommandName[] = [
  { name: 'shrug', substitution: SHRUG },
  { name: 'tableflip', substitution: TABLEFLIP },
];

/** Ruby's `^` and `$` (line anchors on `\n` only) and `\s` (ASCII whitespace). */
const BOL = '(?:(?<![\\s\\S])|(?<=\\n))';
const EOL = '(?=\\n|(?![\\s\\S]))';
const SPACE = '[ \\t\\n\\v\\f\\r]';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const union = (names: string[]) => names.map(escape).join('|') || '(?!)';

function commandsRegex(commands: string[], substitutions: string[]): RegExp {
  const inlineCode = '`.+?`';
  const html = `${BOL}<[^>]+?>\\n.+?\\n<\\/[^>]+?>${EOL}`;
  const tail = `(?:${SPACE}*\\n|${EOL})`;
  const cmd = `${BOL}\\/(?<cmd>${union(commands)})(?:[ ](?<arg>[^\\n]*))?${tail}`;
  const sub = `${BOL}\\/(?<sub>${union(substitutions)})(?:[ ](?<sarg>[^\\n]*))?${tail}`;
  return new RegExp(`(?:${inlineCode})|(?:${html})|(?:${cmd})|(?:${sub})`, 'gis');
}

interface Table {
  regex: RegExp;
  canonical: Map<string, CommandName>;
}

const tables = new WeakMap<readonly CommandName[], Table>();

function tableFor(definitions: readonly CommandName[]): Table {
  const cached = tables.get(definitions);
  if (cached) return cached;
  const canonical = new Map<string, CommandName>();
  const commands: string[] = [];
  const substitutions: string[] = [];
  for (const d of definitions) {
    for (const n of [d.name, ...(d.aliases ?? [])]) {
      canonical.set(n.toLowerCase(), d);
      (d.substitution === undefined ? commands : substitutions).push(n);
    }
  }
  const table = { regex: commandsRegex(commands, substitutions), canonical };
  tables.set(definitions, table);
  return table;
}

const blankToNull = (arg: string | undefined) => (arg === undefined || /^\s*$/.test(arg) ? null : arg);

/** Replaces the commands in one paragraph's text, collecting them in order. */
function replaceIn(paragraph: string, table: Table, found: ExtractedCommand[]): string {
  return paragraph.replace(table.regex, (matched, ...rest) => {
    const groups = rest[rest.length - 1] as Record<string, string | undefined>;
    const typed = groups.cmd ?? groups.sub;
    if (typed === undefined) return matched;
    const definition = table.canonical.get(typed.toLowerCase())!;
    found.push({ name: definition.name, arg: blankToNull(groups.arg ?? groups.sarg) });
    if (definition.substitution === undefined) return '';
    const newline = matched.indexOf('\n');
    return definition.substitution + (newline < 0 ? '' : matched.slice(newline));
  });
}

/** Ruby `String#lines`: each line keeps its `\n`. */
const linesOf = (s: string): string[] => s.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/**
 * Takes the quick actions out of `content`. `definitions` lists the known commands (canonical name
 * and aliases) and substitutions; unknown `/words` stay as text. Pure; the same definitions array
 * reuses its compiled pattern.
 */
export function extractCommands(content: string, definitions: readonly CommandName[]): Extraction {
  const text = content.replace(/\r/g, '');
  const table = tableFor(definitions);
  const lines = linesOf(text);
  const commands: ExtractedCommand[] = [];
  const paragraphs = quickActionParagraphs(lines.map((l) => l.replace(/\n$/, '')));
  for (const { start, end } of paragraphs) {
    const last = lines[end + 1] === '\n' ? end + 1 : end;
    const replaced = replaceIn(lines.slice(start, last + 1).join(''), table, commands);
    lines.fill('', start, last + 1);
    lines[start] = replaced;
  }
  return { text: lines.join('').replace(/[\0\t\n\v\f\r ]+$/, ''), commands };
}
