/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - J12 — 개조식 is not a keyword list. A Korean answer whose words carry argument particles (은/는/이/가/을/를/에/
 *   에게/에서/(으)로) before what is said of them is a statement written tersely, not a bare list: a two-term contrast
 *   (`스택은 후입선출, 큐는 선입선출`), a list with one such item (`빛에너지로 포도당 합성, 산소 방출`) or a sentence
 *   without a finite verb (`식물이 양분을 만드는 것`) is never flagged `keyword-list`; lists of bare terms still are,
 *   including items that are single words with a particle (`평균은, 자료의, 모든, 값을`) and items whose 은/는 ends a
 *   verb form (`같은 속력`).
 * - J13 — A short answer with a key term is not confidently bad. A bad verdict that no deciding flag made (give-up,
 *   echo, contradiction, wrong choice, keyword list, integrity) on a short answer (at most 15 content words) that
 *   contains a key term of the reference (a concept the question does not give, or an expected keyword) has a
 *   confidence below CONFIDENT_AT (KEY_TERM_CONFIDENCE): the lecture says it is not sure, the exam holds the item for
 *   review. Over every dev item (ko-dev, and the English ASAG dev files when the shared eval folder is there).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type Assessment,
  CONFIDENT_AT,
  DECIDING_FLAGS,
  KEY_TERM_CONFIDENCE,
  assessAnswer,
  assessmentConfidence,
  isKeywordList,
  analyseText,
} from '../src/judges/index.js';

const STACK = {
  question: '스택과 큐는 어떻게 다른가요?',
  reference: '스택은 나중에 넣은 것을 먼저 꺼내는 후입선출(LIFO) 구조이고, 큐는 먼저 넣은 것을 먼저 꺼내는 선입선출(FIFO) 구조이다.',
};
const PHOTOSYNTHESIS = {
  question: '광합성이란 무엇인가요?',
  reference: '광합성은 식물이 빛에너지를 이용해 이산화탄소와 물로 포도당을 만들고 산소를 내보내는 과정이다.',
};
const OHM = {
  question: '옴의 법칙을 설명해 보세요.',
  reference: '전압이 일정할 때 전류는 저항에 반비례하고, 저항이 일정할 때 전류는 전압에 비례한다.',
};

describe('J12: 개조식 is not a keyword list', () => {
  it.each([
    [STACK, '스택은 후입선출, 큐는 선입선출'],
    [OHM, '전류는 전압에 비례, 저항에 반비례'],
    [PHOTOSYNTHESIS, '빛에너지로 포도당 합성, 산소 방출'],
    [PHOTOSYNTHESIS, '식물이 양분을 만드는 것'],
  ])('J12: a terse statement (%#) is not flagged as a keyword list', (base, answer) => {
    expect(isKeywordList(analyseText(answer), analyseText(base.reference), analyseText(base.question))).toBe(false);
    expect(assessAnswer({ ...base, answer }).evidence.flags).not.toContain('keyword-list');
  });

  it.each([
    [STACK, '스택, 후입선출, 큐, 선입선출'],
    [PHOTOSYNTHESIS, '빛, 이산화탄소, 물, 포도당, 산소'],
    [PHOTOSYNTHESIS, '광합성은, 식물이, 빛에너지를, 이용해'],
    [OHM, '전압 전류 저항'],
    // 같은 is a verb form: its 은 makes no argument.
    [{ question: '관성이란 무엇인가요?', reference: '관성은 물체가 정지해 있거나 같은 속력으로 같은 방향으로 운동하던 상태를 계속 유지하려는 성질이다.' }, '정지, 운동, 같은 속력, 방향'],
  ])('J12: bare terms (%#) are still a keyword list, never correct', (base, answer) => {
    const result = assessAnswer({ ...base, answer });
    expect(result.evidence.flags).toContain('keyword-list');
    expect(result.label2).toBe('bad');
  });
});

function assessment(overrides: Partial<Assessment> & { flags?: Assessment['evidence']['flags'] }): Assessment {
  const { flags = [], ...rest } = overrides;
  return {
    label3: 'incorrect',
    label2: 'bad',
    score: 0.05,
    goodProbability: 0.1,
    shortWithKeyTerm: false,
    shortWithOtherNumber: false,
    namesOtherLabels: false,
    addsNegation: false,
    picksOtherOption: false,
    reordered: false,
    negatesOtherWords: false,
    negationUnread: false,
    evidence: { matched: [], missing: [], flags },
    ...rest,
  };
}

describe('J13: a short answer with a key term is not confidently bad', () => {
  it('J13: a bad verdict far below the threshold is unsure when the short answer has a key term, sure without one', () => {
    const withTerm = assessmentConfidence(assessment({ shortWithKeyTerm: true, flags: ['thin-coverage'] }));
    expect(withTerm).toBe(KEY_TERM_CONFIDENCE);
    expect(withTerm).toBeLessThan(CONFIDENT_AT);
    expect(assessmentConfidence(assessment({ shortWithKeyTerm: false, flags: ['thin-coverage'] }))).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });

  it('J13: a deciding flag still decides, and a good verdict is not touched', () => {
    expect(assessmentConfidence(assessment({ shortWithKeyTerm: true, flags: ['negation'] }))).toBeGreaterThanOrEqual(CONFIDENT_AT);
    expect(assessmentConfidence(assessment({ shortWithKeyTerm: true, flags: ['keyword-list'] }))).toBeGreaterThanOrEqual(CONFIDENT_AT);
    const good = assessment({ label3: 'correct', label2: 'good', score: 0.95, goodProbability: 0.95, shortWithKeyTerm: true });
    expect(assessmentConfidence(good)).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });

  it('J13: shortWithKeyTerm reads the reference\'s new concepts, or the expected keywords when there are some', () => {
    expect(assessAnswer({ ...PHOTOSYNTHESIS, answer: '산소' }).shortWithKeyTerm).toBe(true);
    // 광합성 is the question's own word: naming it is no key term.
    expect(assessAnswer({ ...PHOTOSYNTHESIS, answer: '광합성이요' }).shortWithKeyTerm).toBe(false);
    expect(assessAnswer({ ...PHOTOSYNTHESIS, answer: '산소', keywords: ['포도당'] }).shortWithKeyTerm).toBe(false);
    expect(assessAnswer({ ...PHOTOSYNTHESIS, answer: '포도당', keywords: ['포도당'] }).shortWithKeyTerm).toBe(true);
    const long = '식물은 잎에 있는 엽록체에서 햇빛을 받아 뿌리에서 올라온 물과 공기 중의 이산화탄소로 양분을 만들어 줄기와 열매에 저장하고 남는 기체를 공기 중으로 내보내요';
    expect(analyseText(long).units.length).toBeGreaterThan(15);
    expect(assessAnswer({ ...PHOTOSYNTHESIS, answer: long }).shortWithKeyTerm).toBe(false);
  });

  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const asag = [path.join(root, '..', 'shared', 'eval', 'asag'), path.join(root, '..', '..', 'shared', 'eval', 'asag')].find((directory) => existsSync(directory));
  const files = [
    path.join(root, 'eval', 'ko-dev.jsonl'),
    ...(asag === undefined ? [] : ['saf-en', 'semeval-beetle', 'semeval-scientsbank'].map((name) => path.join(asag, `${name}.dev.jsonl`))),
  ];

  it.each(files)('J13: over every dev item of %s, no short answer with a key term is told bad with confidence unless a flag decided it', (file) => {
    const offenders: string[] = [];
    let held = 0;
    for (const line of readFileSync(file, 'utf8').split('\n').filter((entry) => entry.trim() !== '')) {
      const row = JSON.parse(line) as { id: string; question: string; reference: string; alt_references?: string[]; answer: string; source?: string };
      const result = assessAnswer({
        question: row.question,
        reference: row.reference,
        alternatives: row.alt_references ?? [],
        answer: row.answer,
        ...(row.source === undefined ? {} : { source: row.source }),
      });
      if (result.label2 !== 'bad' || !result.shortWithKeyTerm || result.evidence.flags.some((flag) => DECIDING_FLAGS.has(flag))) continue;
      held += 1;
      if (assessmentConfidence(result) >= CONFIDENT_AT) offenders.push(row.id);
    }
    expect(offenders).toEqual([]);
    expect(held).toBeGreaterThan(0);
  });
});
