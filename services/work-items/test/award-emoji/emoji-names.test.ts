import { DOWNVOTE, UPVOTE, alphaCodeFromDescription, isEmojiName, normalizeEmojiName } from '../../src/award-emoji/emoji-names';

describe('normalizeEmojiName', () => {
  it.each([
    ['thumbsup', 'thumbsup'],
    ['+1', 'thumbsup'],
    [':+1:', 'thumbsup'],
    [':thumbsup:', 'thumbsup'],
    ['thumbs_up', 'thumbsup'],
    ['-1', 'thumbsdown'],
    ['thumbsdown', 'thumbsdown'],
    ['smile', 'smile'],
    ['tada', 'tada'],
    ['party_popper', 'tada'],
    ['heart', 'heart'],
    ['red_heart', 'heart'],
    ['rocket', 'rocket'],
    ['eyes', 'eyes'],
    ['100', '100'],
    ['1234', '1234'],
    ['white_check_mark', 'white_check_mark'],
    ['thumbsup_tone2', 'thumbsup_tone2'],
    ['+1_tone2', 'thumbsup_tone2'],
    ['thumbsdown_tone5', 'thumbsdown_tone5'],
    ['small_airplane', 'airplane_small'],
    ['airplane_small', 'airplane_small'],
    ['sunglasses', 'sunglasses'],
    ['dark_sunglasses', 'dark_sunglasses'],
    ['cow', 'cow'],
    ['keycap_hash', 'hash'],
    ['laughing', 'laughing'],
    ['nonexistent_emoji', null],
    ['', null],
    ['::', null],
    [':thumbsup', null],
    ['Thumbsup', null],
  ])('%j → %j', (input, expected) => {
    expect(normalizeEmojiName(input)).toBe(expected);
  });

  it('names the vote emoji', () => {
    expect([UPVOTE, DOWNVOTE]).toEqual(['thumbsup', 'thumbsdown']);
    expect(isEmojiName(UPVOTE) && isEmojiName(DOWNVOTE)).toBe(true);
  });
});

describe('alphaCodeFromDescription', () => {
  it.each([
    ['thumbs up', 'thumbs_up'],
    ['thumbs up: medium-light skin tone', 'thumbs_up_medium_light_skin_tone'],
    ['piñata', 'pinata'],
    ['keycap: *', 'keycap_asterisk'],
    ['keycap: #', 'keycap_hash'],
    ['flag: Côte d’Ivoire', 'flag_cote_d_ivoire'],
  ])('%j → %j', (input, expected) => {
    expect(alphaCodeFromDescription(input)).toBe(expected);
  });
});
