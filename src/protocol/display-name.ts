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
 * letter mark, the Hangul fillers, Mongolian vowel separator, zero-width space/non-joiner/joiner, LRM/RLM, bidi
 * embeddings and overrides, word joiner and invisible operators, bidi isolates, byte order mark.
 */
const INVISIBLE = /\u034f|\u115f|\u1160|\u3164|\uffa0|[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/u;

/** A zero-width joiner inside an emoji sequence (👩‍💻, 👨‍👩‍👧, 🏳️‍🌈): that one draws a single picture and stays allowed. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}(?:\ufe0f|\p{Emoji_Modifier})?)\u200d(?=\p{Extended_Pictographic})/gu;

/** `을`/`은` after a final consonant, `를`/`는` after a vowel (the labels are Korean words). */
function particle(word: string, afterConsonant: string, afterVowel: string): string {
  const code = word.charCodeAt(word.length - 1) - 0xac00;
  return word + (code >= 0 && code < 11_172 && code % 28 === 0 ? afterVowel : afterConsonant);
}

export function hasControlCharacter(value: string): boolean {
  return CONTROL.test(value);
}

export function hasInvisibleCharacter(value: string): boolean {
  return INVISIBLE.test(value.replace(EMOJI_JOINER, ''));
}

/**
 * A chosen name: normalised to NFC, trimmed, 1..`max` characters (UTF-16 units), no control, invisible or
 * direction-control characters (emoji joined with ZWJ excepted). `label` names the field in Korean messages
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
        .refine((value) => !hasInvisibleCharacter(value), `${label}에는 보이지 않는 문자나 글자 방향을 바꾸는 문자를 쓸 수 없습니다.`),
    );
}

/** Nicknames of students and quiz players. */
export const Nickname = displayName('닉네임', 20);
/** Class names (what students see when they join). */
export const ClassName = displayName('수업 이름', 60);
