import { z } from 'zod';

/**
 * Names people choose for others to read — nicknames (sessions, class joins, quiz rooms) and class names — on a
 * roster, a leaderboard, the projector. One schema for all of them, so a name always looks like what it is: NFC
 * (a name typed as decomposed Hangul is the same name as the composed one), trimmed, and free of characters that
 * show nothing or move text around: four different "ab"s (with a zero-width space, a soft hyphen, a word joiner…)
 * would otherwise be four people with one name, and a Hangul filler a blank name on the projector.
 */

/** Controls (NUL, tab, newlines, C1) and the line and paragraph separators: a name is one line. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

/**
 * Characters that draw nothing or change the direction of text: soft hyphen, combining grapheme joiner, Arabic
 * letter mark, the Hangul fillers, Mongolian vowel separator and free variation selectors, zero-width
 * space/non-joiner/joiner, LRM/RLM, bidi embeddings and overrides, word joiner and invisible operators, bidi isolates,
 * the Braille blank, variation selectors (emoji presentation where it changes the drawing excepted, below), byte order mark, the object
 * replacement character, and the tag characters (a subdivision flag's excepted, below).
 */
const INVISIBLE =
  // The combining ones (variation selectors, the grapheme joiner) are listed to be refused, not combined.
  // eslint-disable-next-line no-misleading-character-class
  /\u034f|\u115f|\u1160|\u3164|\uffa0|\u2800|\ufffc|[\u00ad\u061c\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff]|[\u{e0000}-\u{e007f}]|[\u{e0100}-\u{e01ef}]/u;

/** A zero-width joiner inside an emoji sequence (👩‍💻, 👨‍👩‍👧, 🏳️‍🌈): that one draws a single picture and stays allowed. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}(?:\ufe0f|\p{Emoji_Modifier})?)\u200d(?=\p{Extended_Pictographic})/gu;
/**
 * The emoji presentation selector where it changes what is drawn: after a symbol drawn as text by default (❤️, ☺️,
 * 🏳️), and in a keycap (1️⃣). Anywhere else (after a letter, or after 😀, which is an emoji anyway) it draws the same
 * name as without it, so it is refused like the other variation selectors.
 */
const EMOJI_PRESENTATION = /(?<=(?!\p{ASCII})(?!\p{Emoji_Presentation})\p{Emoji})\ufe0f|(?<=[#*0-9])\ufe0f(?=\u20e3)/gu;
/** A subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿: a black flag, tag letters or digits, a cancel tag): the one use of tag characters. */
const FLAG_TAGS = /(?<=\u{1f3f4})[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]{1,7}\u{e007f}/gu;

/** `을`/`은` after a final consonant, `를`/`는` after a vowel (the labels are Korean words). */
function particle(word: string, afterConsonant: string, afterVowel: string): string {
  const code = word.charCodeAt(word.length - 1) - 0xac00;
  return word + (code >= 0 && code < 11_172 && code % 28 === 0 ? afterVowel : afterConsonant);
}

export function hasControlCharacter(value: string): boolean {
  return CONTROL.test(value);
}

export function hasInvisibleCharacter(value: string): boolean {
  return INVISIBLE.test(value.replace(FLAG_TAGS, '').replace(EMOJI_PRESENTATION, '').replace(EMOJI_JOINER, ''));
}

/**
 * Half of a surrogate pair without the other half: not a character at all. JSON carries it as `\ud800` and the two
 * stores would keep it differently (Redis as the UTF-8 replacement character), so it is refused with the invisibles.
 */
export function hasLoneSurrogate(value: string): boolean {
  return /(?:[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/.test(value);
}

/**
 * A chosen name: normalised to NFC, trimmed, 1..`max` characters (UTF-16 units), no control, invisible or
 * direction-control characters (emoji joined with ZWJ, emoji presentation selectors and subdivision flags excepted)
 * and no lone surrogates. `label` names the field in Korean messages
 * (`닉네임`, `수업 이름`).
 */
export function displayName(label: string, max: number) {
  return z
    .string()
    .transform((value) => value.normalize('NFC').trim())
    .pipe(
      z
        .string()
        .min(1, `${particle(label, '을', '를')} 입력해 주세요.`)
        .max(max, `${particle(label, '은', '는')} ${max}자 이하여야 합니다.`)
        .refine((value) => !hasControlCharacter(value), `${label}에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.`)
        .refine((value) => !hasInvisibleCharacter(value) && !hasLoneSurrogate(value), `${label}에는 보이지 않는 문자나 글자 방향을 바꾸는 문자를 쓸 수 없습니다.`),
    );
}

/** Nicknames of students and quiz players. */
export const Nickname = displayName('닉네임', 20);
/** Class names (what students see when they join). */
export const ClassName = displayName('수업 이름', 60);
