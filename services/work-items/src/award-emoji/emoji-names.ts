/**
 * Emoji names as GitLab stores them on awards (`AwardEmojis::BaseService#normalize_name`,
 * `Gitlab::EmojiNameValidator`): a name is valid when it is a known alpha code, and it is stored
 * under the emoji's primary name. GitLab's index (TanukiEmoji) names every Unicode emoji after its
 * CLDR description, then renames those gemojione knows to the gemojione short name (`thumbsup`,
 * `thumbsup_tone2`, `airplane_small`) and keeps the other codes as aliases (`+1`, `thumbs_up`).
 * Here the same index is built from emojibase: JoyPixels short codes (gemojione's successor) give the
 * primary name, GitHub (gemoji) short codes and the CLDR-derived codes are aliases.
 *
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/app/validators/gitlab/emoji_name_validator.rb
 * https://gitlab.com/gitlab-org/ruby/gems/tanuki_emoji (lib/tanuki_emoji/db/gemojione.rb, emoji_test_parser.rb)
 */
import compactData from 'emojibase-data/en/compact.json';
import githubData from 'emojibase-data/en/shortcodes/github.json';
import joypixelsData from 'emojibase-data/en/shortcodes/joypixels.json';

/** The award name GitLab counts as an upvote (`AwardEmoji::UPVOTE_NAME`). */
export const UPVOTE = 'thumbsup';
/** The award name GitLab counts as a downvote (`AwardEmoji::DOWNVOTE_NAME`). */
export const DOWNVOTE = 'thumbsdown';

type Shortcodes = Record<string, string | string[]>;
interface Emoji {
  hexcode: string;
  label: string;
  skins?: Emoji[];
}

const JOYPIXELS = joypixelsData as unknown as Shortcodes;
const GITHUB = githubData as unknown as Shortcodes;
const COMPACT = compactData as unknown as Emoji[];

function codes(set: Shortcodes, hexcode: string): string[] {
  const v = set[hexcode];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * TanukiEmoji's name for a Unicode description: transliterated, runs of anything but letters,
 * digits, `#` and `*` become `_`, lower-cased, one trailing `_` dropped; keycaps spelled out.
 */
export function alphaCodeFromDescription(description: string): string {
  const code = description
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z#*\d]+/g, '_')
    .toLowerCase()
    .replace(/_$/, '');
  if (code === 'keycap_*') return 'keycap_asterisk';
  if (code === 'keycap_#') return 'keycap_hash';
  return code;
}

/** Every emoji (skin tones included) as hexcode → CLDR description. */
function descriptions(): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of COMPACT) {
    out.set(e.hexcode, e.label);
    for (const s of e.skins ?? []) out.set(s.hexcode, s.label);
  }
  return out;
}

/**
 * alias → primary name. Registration order decides clashes (first wins): primary names, then
 * JoyPixels aliases, then GitHub codes, then description-derived codes — so `sunglasses` stays 😎.
 */
function buildIndex(): Map<string, string> {
  const labels = descriptions();
  const hexcodes = new Set([...labels.keys(), ...Object.keys(JOYPIXELS), ...Object.keys(GITHUB)]);
  const primary = new Map<string, string>();
  for (const hex of hexcodes) {
    const label = labels.get(hex);
    const name = codes(JOYPIXELS, hex)[0] ?? (label ? alphaCodeFromDescription(label) : codes(GITHUB, hex)[0]);
    if (name) primary.set(hex, name);
  }
  const index = new Map<string, string>();
  const add = (alias: string, hex: string) => {
    const name = primary.get(hex);
    if (alias && name && !index.has(alias)) index.set(alias, name);
  };
  for (const [hex, name] of primary) add(name, hex);
  for (const hex of hexcodes) for (const c of codes(JOYPIXELS, hex)) add(c, hex);
  for (const hex of hexcodes) for (const c of codes(GITHUB, hex)) add(c, hex);
  for (const [hex, label] of labels) add(alphaCodeFromDescription(label), hex);
  return index;
}

const INDEX = buildIndex();

/**
 * The name GitLab stores for `input` (`+1`, `:thumbsup:`, `thumbs_up` → `thumbsup`), or null when it
 * is not a known emoji. Surrounding colons are optional; matching is exact otherwise. O(1).
 * Custom (group) emoji are not known here: the caller checks those separately.
 */
export function normalizeEmojiName(input: string): string | null {
  if (typeof input !== 'string') return null;
  const bare = input.startsWith(':') && input.endsWith(':') && input.length > 2 ? input.slice(1, -1) : input;
  return INDEX.get(bare) ?? null;
}

/** True when `input` is a known emoji alpha code or alias (with or without colons). */
export function isEmojiName(input: string): boolean {
  return normalizeEmojiName(input) !== null;
}

/** Every accepted alias with its primary name (for building patterns such as `/react :name:`). */
export function emojiAliases(): ReadonlyMap<string, string> {
  return INDEX;
}
