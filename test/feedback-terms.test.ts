/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GR12 — Whole terms in feedback. (`test/feedback-terms.test.ts`). Over every dev item (ko-dev and the English ASAG
 *   dev files when the shared folder is there), every term the offline judge's feedback quotes is a whole word of the
 *   model answer (a particle or a 하다/되다 ending may follow); a noun is never quoted with the copula (`가치이`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { judgeOfflineAnswer } from '../src/lecture/offline/offline-judge.js';

/**
 * GR12 (test/SPEC.md, "Grading: …"): the offline judge's feedback quotes only whole words or terms of the model
 * answer — never a verb stem with its ending cut, a noun with half a copula (`가치이`), a name cut mid-word. A property
 * over every dev item: the Korean dev set in eval/, and the English ASAG dev files where the shared eval folder is
 * beside the repository. A quoted term counts as whole when the reference has it starting at a word start and
 * followed by the end of the word, a particle, or a 하다/되다 ending (증가하면: '증가').
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ASAG = [path.join(ROOT, '..', 'shared', 'eval', 'asag'), path.join(ROOT, '..', '..', 'shared', 'eval', 'asag')].find((directory) => existsSync(directory));
const FILES = [
  path.join(ROOT, 'eval', 'ko-dev.jsonl'),
  ...(ASAG === undefined ? [] : ['saf-en', 'semeval-beetle', 'semeval-scientsbank'].map((name) => path.join(ASAG, `${name}.dev.jsonl`))),
];
const WORD_END = /^(?:[^\p{L}\p{N}]|$|들|하|한|할|함|해|했|되|된|될|됨|돼|됐|시키|적|은|는|이|가|을|를|의|에|에서|에게|로|으로|와|과|도|만|이다|이며|이고|입니다|이라는|라는|라고|이라|란|이란)/u;

function isWholeTerm(term: string, reference: string): boolean {
  const text = reference.normalize('NFC').toLowerCase();
  const wanted = term.toLowerCase();
  for (let index = text.indexOf(wanted); index >= 0; index = text.indexOf(wanted, index + 1)) {
    const before = index === 0 ? '' : (text[index - 1] ?? '');
    if (!/[\p{L}\p{N}]/u.test(before) && WORD_END.test(text.slice(index + wanted.length))) return true;
  }
  return false;
}

interface Row {
  id: string;
  question: string;
  reference: string;
  answer: string;
  source?: string;
}

describe('GR12 feedback quotes whole terms of the reference', () => {
  it('GR12 on every dev item, every quoted term of the offline judge\'s feedback is a whole word of the model answer', () => {
    const broken: string[] = [];
    let quoted = 0;
    for (const file of FILES) {
      for (const line of readFileSync(file, 'utf8').split('\n').filter((entry) => entry.trim() !== '')) {
        const row = JSON.parse(line) as Row;
        const judged = judgeOfflineAnswer({ question: row.question, modelAnswer: row.reference, answer: row.answer, ...(row.source === undefined ? {} : { lecture: row.source }) });
        for (const match of judged.feedback.matchAll(/'([^']+)'/gu)) {
          quoted += 1;
          const term = match[1] ?? '';
          if (!isWholeTerm(term, row.reference)) broken.push(`${row.id}: '${term}'`);
        }
      }
    }
    expect(quoted).toBeGreaterThan(300);
    expect(broken).toEqual([]);
    // About 1,700 answers are judged: more than the default time of one test on a shared machine.
  });

  it('GR12 a noun quoted with the copula attached is quoted alone (가치이다 → 가치)', () => {
    const reference = '기회비용(opportunity cost)은 어떤 것을 선택했을 때 포기한 대안들 가운데 가장 큰 가치이다.';
    const judged = judgeOfflineAnswer({ question: '기회비용이란 무엇인가요?', modelAnswer: reference, answer: '선택할 때 포기한 대안이에요.' });
    expect(judged.feedback).not.toContain("'가치이'");
  });
});
