/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - N1 — Normalised. Nicknames and class names are normalised to NFC and trimmed; the stored name is the normalised
 *   one, so a name typed as decomposed Hangul is the same name as the composed one.
 * - N2 — Visible and one line. A name with a control character (NUL, tab, newlines, C1, U+2028/2029) or an invisible
 *   or direction-control character (U+00AD, U+034F, U+061C, U+115F, U+1160, U+180E …
 */
import { describe, expect, it } from 'vitest';
import { ClassName, Nickname } from '../src/protocol/display-name.js';

/** N rules (test/SPEC.md): the one schema of names people choose (nicknames, class names). */

const refusal = (value: string, schema = Nickname) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

const INVISIBLE_MESSAGE = '닉네임에는 보이지 않는 문자나 글자 방향을 바꾸는 문자를 쓸 수 없습니다.';
const CONTROL_MESSAGE = '닉네임에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.';

describe('display names', () => {
  it('N1 are normalised to NFC and trimmed', () => {
    const decomposed = '한별'.normalize('NFD');
    expect(decomposed).not.toBe('한별');
    expect(Nickname.parse(decomposed)).toBe('한별');
    expect(Nickname.parse('  민지 \u3000')).toBe('민지');
    expect(ClassName.parse(' 통계 1반 ')).toBe('통계 1반');
  });

  const invisible: [string, string][] = [
    ['U+200B zero-width space', '\u200b'],
    ['U+200C zero-width non-joiner', '\u200c'],
    ['U+200D zero-width joiner outside an emoji', '\u200d'],
    ['U+200E left-to-right mark', '\u200e'],
    ['U+200F right-to-left mark', '\u200f'],
    ['U+202A left-to-right embedding', '\u202a'],
    ['U+202B right-to-left embedding', '\u202b'],
    ['U+202C pop directional formatting', '\u202c'],
    ['U+202D left-to-right override', '\u202d'],
    ['U+202E right-to-left override', '\u202e'],
    ['U+2060 word joiner', '\u2060'],
    ['U+2061 function application', '\u2061'],
    ['U+2062 invisible times', '\u2062'],
    ['U+2063 invisible separator', '\u2063'],
    ['U+2064 invisible plus', '\u2064'],
    ['U+2066 left-to-right isolate', '\u2066'],
    ['U+2069 pop directional isolate', '\u2069'],
    ['U+00AD soft hyphen', '\u00ad'],
    ['U+034F combining grapheme joiner', '\u034f'],
    ['U+3164 Hangul filler', '\u3164'],
    ['U+FFA0 halfwidth Hangul filler', '\uffa0'],
    ['U+115F Hangul choseong filler', '\u115f'],
    ['U+FEFF byte order mark', '\ufeff'],
    ['U+061C Arabic letter mark', '\u061c'],
  ];
  for (const [name, character] of invisible) {
    it(`N2 refuses ${name} inside a name, with a Korean message`, () => {
      expect(refusal(`a${character}b`)).toBe(INVISIBLE_MESSAGE);
      expect(refusal(`수업${character}이름`, ClassName)).toBe('수업 이름에는 보이지 않는 문자나 글자 방향을 바꾸는 문자를 쓸 수 없습니다.');
    });
  }

  it('N2 refuses a name that is only a Hangul filler (a blank name on the projector)', () => {
    expect(refusal('\u3164')).toBe(INVISIBLE_MESSAGE);
    expect(refusal('\u3164\u3164\u3164')).toBe(INVISIBLE_MESSAGE);
  });

  const controls: [string, string][] = [
    ['NUL', '\u0000'],
    ['a line feed', '\n'],
    ['a carriage return', '\r'],
    ['a tab', '\t'],
    ['DEL', '\u007f'],
    ['U+0085 next line', '\u0085'],
    ['U+2028 line separator', '\u2028'],
    ['U+2029 paragraph separator', '\u2029'],
  ];
  for (const [name, character] of controls) {
    it(`N2 refuses ${name} inside a name, with a Korean message`, () => {
      expect(refusal(`민${character}지`)).toBe(CONTROL_MESSAGE);
    });
  }

  it('N2 keeps emoji joined with ZWJ (and skin tones, flags, variation selectors)', () => {
    for (const name of ['👩‍💻코더', '👨‍👩‍👧', '🏳️‍🌈 무지개', '🧑🏽‍🚀', '❤️‍🔥불꽃', '민지😀']) expect(Nickname.parse(name)).toBe(name);
    // A joiner after an emoji but before a letter is not an emoji sequence.
    expect(refusal('😀\u200d민지')).toBe(INVISIBLE_MESSAGE);
  });

  it('N2 refuses empty and over-long names in Korean', () => {
    expect(refusal('   ')).toBe('닉네임을 입력해 주세요.');
    expect(refusal('가'.repeat(21))).toBe('닉네임은 20자 이하여야 합니다.');
    expect(refusal('가'.repeat(61), ClassName)).toBe('수업 이름은 60자 이하여야 합니다.');
    expect(Nickname.parse('가'.repeat(20))).toBe('가'.repeat(20));
  });
});
