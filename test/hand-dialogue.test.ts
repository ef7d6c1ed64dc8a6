import { describe, expect, it } from 'vitest';
import type { Classification } from '../src/lecture/hand/assistant-schemas.js';
import {
  acceptsAsk,
  acceptsReply,
  checkText,
  CLARIFY_TEXT,
  HAND_PROMPT_TEXT,
  HandDialogueError,
  MAX_TRIES_PER_PART,
  nextAction,
  onAnswered,
  onAsk,
  onClassified,
  onControl,
  onExplained,
  onFinalExplained,
  onPrompted,
  onReply,
  onSummarised,
  onUnclear,
  pendingCheck,
  startDialogue,
  summaryParts,
} from '../src/lecture/hand/hand-dialogue.js';
import type { HandDialogue } from '../src/lecture/hand/hand-dialogue.js';

/** The raise-hand dialogue as a pure state machine: every transition and every action, exactly. */

const QUESTION = '대수의 법칙이 뭔지 잘 모르겠어요';
const VAGUE: Classification = {
  kind: 'vague',
  concept: '대수의 법칙',
  subconcepts: [
    { concept: '평균의 의미', focus: '평균이 자료를 하나의 수로 요약한다는 것' },
    { concept: '기댓값의 의미', focus: '기댓값이 확률변수의 평균이라는 것' },
    { concept: '극한을 이용한 근사', focus: 'n이 커질 때 표본평균이 어디로 가는지' },
  ],
};
const HINT = '(네/아니요, 또는 헷갈리는 부분을 적어 주세요)';
const YES = { understood: true, confusion: '' };
const NO = (confusion: string) => ({ understood: false, confusion });

/** Every state must survive the session store: JSON in, JSON out, same dialogue. */
function persisted(d: HandDialogue): HandDialogue {
  const copy = JSON.parse(JSON.stringify(d)) as HandDialogue;
  expect(copy).toEqual(d);
  return copy;
}

function asked(question: string): HandDialogue {
  const d = onPrompted(startDialogue());
  return persisted(onAsk(d, question));
}

/** Streams an explanation, asks the check and takes the reply: the dialogue is then in 'controlling'. */
function explainAndReply(d: HandDialogue, text: string, reply: string): HandDialogue {
  return persisted(onReply(onPrompted(onExplained(d, text)), reply));
}

describe('hand dialogue: start and question', () => {
  it('prompts once, then waits for the question', () => {
    const d = startDialogue();
    expect(d).toEqual({ question: null, parts: [], index: 0, step: 'asking', asked: false, final: [] });
    expect(nextAction(d)).toEqual({ type: 'prompt-ask', text: HAND_PROMPT_TEXT });
    const prompted = onPrompted(d);
    expect(nextAction(prompted)).toEqual({ type: 'wait-for-ask' });
    expect(acceptsAsk(prompted)).toBe(true);
    expect(acceptsReply(prompted)).toBe(false);
  });

  it('takes the trimmed question and classifies it; an empty one is refused', () => {
    const d = onAsk(startDialogue(), '  기댓값 공식에서 확률은 왜 곱하나요?  ');
    expect(d).toMatchObject({ question: '기댓값 공식에서 확률은 왜 곱하나요?', step: 'classifying', asked: false });
    expect(nextAction(d)).toEqual({ type: 'classify', question: '기댓값 공식에서 확률은 왜 곱하나요?' });
    expect(acceptsAsk(d)).toBe(false);
    expect(() => onAsk(startDialogue(), '   ')).toThrow(HandDialogueError);
  });

  it('refuses events that do not fit the step', () => {
    const d = asked(QUESTION);
    expect(() => onAsk(d, '또 질문')).toThrow(HandDialogueError);
    expect(() => onReply(d, '네')).toThrow(/'reply' does not apply in step 'classifying'/);
    expect(() => onControl(d, YES)).toThrow(HandDialogueError);
    expect(() => onExplained(d, 'x')).toThrow(HandDialogueError);
    expect(() => onFinalExplained(d, 'x')).toThrow(HandDialogueError);
    expect(() => onSummarised(d)).toThrow(HandDialogueError);
    expect(() => onAnswered(d)).toThrow(HandDialogueError);
    expect(() => onPrompted(d)).toThrow(HandDialogueError);
  });
});

describe('hand dialogue: specific question', () => {
  it('answers once and closes as specific', () => {
    let d = asked('기댓값 공식에서, 확률이 곱해지는데 이게 무슨 의미로 곱해지는지 모르겠다');
    d = persisted(onClassified(d, { kind: 'specific', concept: '기댓값', subconcepts: [] }));
    expect(d).toMatchObject({ kind: 'specific', concept: '기댓값', parts: [], step: 'answering' });
    expect(nextAction(d)).toEqual({
      type: 'stream-answer',
      question: '기댓값 공식에서, 확률이 곱해지는데 이게 무슨 의미로 곱해지는지 모르겠다',
      concept: '기댓값',
    });
    expect(acceptsReply(d)).toBe(false);
    d = persisted(onAnswered(d));
    expect(d.step).toBe('done');
    expect(nextAction(d)).toEqual({ type: 'close', kind: 'specific' });
  });

  it('ignores subconcepts a model sent with a specific question', () => {
    const d = onClassified(asked('x'), { kind: 'specific', concept: 'x', subconcepts: VAGUE.subconcepts });
    expect(d.parts).toEqual([]);
  });
});

describe('hand dialogue: vague question', () => {
  it('explains each part, checks it, then the final explanation, its check and the summary', () => {
    let d = persisted(onClassified(asked(QUESTION), VAGUE));
    expect(d).toMatchObject({ kind: 'vague', concept: '대수의 법칙', index: 0, step: 'explaining' });
    expect(d.parts).toEqual(VAGUE.subconcepts.map((sub) => ({ ...sub, explanations: [] })));

    for (const [index, sub] of VAGUE.subconcepts.entries()) {
      expect(nextAction(d)).toEqual({
        type: 'stream-explain',
        index,
        total: 3,
        reExplain: false,
        question: QUESTION,
        concept: '대수의 법칙',
        subconcept: sub,
        previous: [],
        confusion: '',
      });
      d = persisted(onExplained(d, `설명 ${index + 1}`));
      const check = { index, total: 4, concept: sub.concept, text: `'${sub.concept}' 설명이 이해되셨나요? ${HINT}` };
      expect(nextAction(d)).toEqual({ type: 'ask-check', ...check });
      expect(pendingCheck(d)).toEqual(check);
      d = onPrompted(d);
      expect(nextAction(d)).toEqual({ type: 'wait-for-reply' });
      expect(pendingCheck(d)).toEqual(check);
      expect(acceptsReply(d)).toBe(true);
      d = persisted(onReply(d, ' 네, 이해했어요 '));
      expect(nextAction(d)).toEqual({
        type: 'control',
        target: 'part',
        index,
        concept: sub.concept,
        explanation: `설명 ${index + 1}`,
        reply: '네, 이해했어요',
      });
      d = persisted(onControl(d, YES));
      expect(d.parts[index]?.understood).toBe(true);
      expect(d).not.toHaveProperty('lastReply');
    }

    expect(d).toMatchObject({ step: 'final', index: 3 });
    const parts = [
      { concept: '평균의 의미', explanation: '설명 1' },
      { concept: '기댓값의 의미', explanation: '설명 2' },
      { concept: '극한을 이용한 근사', explanation: '설명 3' },
    ];
    expect(nextAction(d)).toEqual({
      type: 'stream-final',
      reExplain: false,
      question: QUESTION,
      concept: '대수의 법칙',
      parts,
      previous: [],
      confusion: '',
    });
    d = persisted(onFinalExplained(d, '최종 설명'));
    expect(nextAction(d)).toEqual({
      type: 'ask-check',
      index: 3,
      total: 4,
      concept: '대수의 법칙',
      text: `지금까지의 내용을 바탕으로 '대수의 법칙'을 정리했어요. 이해되셨나요? ${HINT}`,
    });
    d = onReply(onPrompted(d), '알겠어요');
    expect(nextAction(d)).toEqual({
      type: 'control',
      target: 'final',
      index: 3,
      concept: '대수의 법칙',
      explanation: '최종 설명',
      reply: '알겠어요',
    });
    d = persisted(onControl(d, YES));
    expect(d).toMatchObject({ step: 'summarizing', finalUnderstood: true });
    const summary = [...parts, { concept: '대수의 법칙', explanation: '최종 설명' }];
    expect(summaryParts(d)).toEqual(summary);
    expect(nextAction(d)).toEqual({ type: 'summarize', question: QUESTION, concept: '대수의 법칙', parts: summary });
    d = persisted(onSummarised(d));
    expect(nextAction(d)).toEqual({ type: 'close', kind: 'vague' });
  });

  it('re-explains a part that was not understood, aimed at the confusion, then moves on', () => {
    let d = onClassified(asked(QUESTION), VAGUE);
    d = explainAndReply(d, '평균 설명', '무게중심이 무슨 뜻인지 모르겠어요');
    d = persisted(onControl(d, NO('무게중심이라는 말의 뜻')));
    expect(d).toMatchObject({ step: 'explaining', index: 0, confusion: '무게중심이라는 말의 뜻' });
    expect(d.parts[0]).toMatchObject({ explanations: ['평균 설명'], understood: false });
    expect(nextAction(d)).toMatchObject({
      type: 'stream-explain',
      index: 0,
      reExplain: true,
      previous: ['평균 설명'],
      confusion: '무게중심이라는 말의 뜻',
    });
    d = persisted(onExplained(d, '평균 다시 설명'));
    expect(d).not.toHaveProperty('confusion');
    expect(nextAction(d)).toMatchObject({
      type: 'ask-check',
      index: 0,
      text: `'평균의 의미'를 다시 설명했어요. 이번에는 이해되셨나요? ${HINT}`,
    });
    d = onControl(onReply(onPrompted(d), '이제 알겠어요'), YES);
    expect(d).toMatchObject({ step: 'explaining', index: 1 });
    expect(d.parts[0]).toMatchObject({ explanations: ['평균 설명', '평균 다시 설명'], understood: true });
  });

  it('falls back to the reply as the confusion when Control gives none', () => {
    const d = onControl(explainAndReply(onClassified(asked(QUESTION), VAGUE), '설명', '아니요'), NO(''));
    expect(d).toMatchObject({ step: 'explaining', confusion: '아니요' });
  });

  it(`moves on after ${MAX_TRIES_PER_PART} explanations of a part even if it is still not understood`, () => {
    let d = onClassified(asked(QUESTION), VAGUE);
    for (let attempt = 1; attempt <= MAX_TRIES_PER_PART; attempt++) {
      expect(d).toMatchObject({ step: 'explaining', index: 0 });
      d = onControl(explainAndReply(d, `시도 ${attempt}`, '모르겠어요'), NO('모르겠어요'));
    }
    expect(d).toMatchObject({ step: 'explaining', index: 1 });
    expect(d).not.toHaveProperty('confusion');
    expect(d.parts[0]).toMatchObject({ explanations: ['시도 1', '시도 2', '시도 3'], understood: false });
    expect(nextAction(d)).toMatchObject({ type: 'stream-explain', index: 1, reExplain: false, previous: [], confusion: '' });
  });

  it('re-explains the final explanation when it is not understood, bounded the same way', () => {
    let d = onClassified(asked(QUESTION), { ...VAGUE, subconcepts: VAGUE.subconcepts.slice(0, 2) });
    d = onControl(explainAndReply(d, 'a', '네'), YES);
    d = onControl(explainAndReply(d, 'b', '네'), YES);
    expect(d).toMatchObject({ step: 'final', index: 2 });
    d = onFinalExplained(d, '최종 1');
    d = persisted(onControl(onReply(onPrompted(d), '헷갈려요'), NO('표본평균이 왜 모이는지')));
    expect(d).toMatchObject({ step: 'final', finalUnderstood: false, confusion: '표본평균이 왜 모이는지' });
    expect(nextAction(d)).toEqual({
      type: 'stream-final',
      reExplain: true,
      question: QUESTION,
      concept: '대수의 법칙',
      parts: [
        { concept: '평균의 의미', explanation: 'a' },
        { concept: '기댓값의 의미', explanation: 'b' },
      ],
      previous: ['최종 1'],
      confusion: '표본평균이 왜 모이는지',
    });
    d = onFinalExplained(d, '최종 2');
    expect(pendingCheck(d)).toEqual({
      index: 2,
      total: 3,
      concept: '대수의 법칙',
      text: `'대수의 법칙'을 다시 설명했어요. 이번에는 이해되셨나요? ${HINT}`,
    });
    d = onControl(onReply(onPrompted(d), '아니요'), NO('아니요'));
    d = onControl(onReply(onPrompted(onFinalExplained(d, '최종 3')), '아니요'), NO('아니요'));
    expect(d).toMatchObject({ step: 'summarizing', finalUnderstood: false, final: ['최종 1', '최종 2', '최종 3'] });
    expect(summaryParts(d).at(-1)).toEqual({ concept: '대수의 법칙', explanation: '최종 1\n\n최종 2\n\n최종 3' });
  });

  it('joins a part’s explanations for the final and the summary', () => {
    let d = onClassified(asked(QUESTION), { ...VAGUE, subconcepts: VAGUE.subconcepts.slice(0, 2) });
    d = onControl(explainAndReply(d, 'a1', '아니요'), NO('아니요'));
    d = onControl(explainAndReply(d, 'a2', '네'), YES);
    d = onControl(explainAndReply(d, 'b', '네'), YES);
    expect(nextAction(d)).toMatchObject({ parts: [{ concept: '평균의 의미', explanation: 'a1\n\na2' }, { concept: '기댓값의 의미', explanation: 'b' }] });
  });

  it('goes straight to the final explanation when a vague question has no subconcepts, and keeps at most 4', () => {
    const none = onClassified(asked('x'), { kind: 'vague', concept: '분산', subconcepts: [] });
    expect(none).toMatchObject({ step: 'final', index: 0, parts: [] });
    expect(nextAction(none)).toMatchObject({ type: 'stream-final', parts: [], previous: [] });
    const many = Array.from({ length: 6 }, (_, index) => ({ concept: `c${index}`, focus: `f${index}` }));
    expect(onClassified(asked('x'), { kind: 'vague', concept: 'x', subconcepts: many }).parts).toHaveLength(4);
  });
});

describe('check texts', () => {
  it('use the particle that fits the concept', () => {
    expect(checkText('평균의 의미', 1, false)).toBe(`'평균의 의미' 설명이 이해되셨나요? ${HINT}`);
    expect(checkText('기댓값', 2, false)).toBe(`'기댓값'을 다시 설명했어요. 이번에는 이해되셨나요? ${HINT}`);
    expect(checkText('분산', 1, true)).toBe(`지금까지의 내용을 바탕으로 '분산'을 정리했어요. 이해되셨나요? ${HINT}`);
    expect(checkText('대수의 법칙', 3, true)).toBe(`'대수의 법칙'을 다시 설명했어요. 이번에는 이해되셨나요? ${HINT}`);
    expect(checkText('확률변수', 2, false)).toBe(`'확률변수'를 다시 설명했어요. 이번에는 이해되셨나요? ${HINT}`);
  });

  it('is absent outside the check steps', () => {
    expect(pendingCheck(startDialogue())).toBeNull();
    expect(pendingCheck(onClassified(asked(QUESTION), VAGUE))).toBeNull();
  });
});

describe('SC3: a question that names nothing is asked again, which part, with choices', () => {
  const CHOICES = ['평균', '표본평균', '모평균'];
  const unclear = (): HandDialogue => onUnclear(onAsk(onPrompted(startDialogue()), '잘 모르겠어요'), CHOICES);

  it('goes back to asking, with the which-part prompt and the choices', () => {
    const d = unclear();
    expect(d).toMatchObject({ step: 'asking', question: null, asked: false, choices: CHOICES });
    expect(acceptsAsk(d)).toBe(true);
    expect(nextAction(d)).toEqual({ type: 'prompt-ask', text: CLARIFY_TEXT, choices: CHOICES });
    expect(nextAction(onPrompted(d))).toEqual({ type: 'wait-for-ask' });
  });

  it('asks which part without choices when the chapter offers none', () => {
    const action = nextAction(onUnclear(onAsk(onPrompted(startDialogue()), '?'), []));
    expect(action).toMatchObject({ type: 'prompt-ask', choices: [] });
    expect(action.type === 'prompt-ask' ? action.text : '').toContain('어느 부분이 궁금한지');
    expect(action.type === 'prompt-ask' ? action.text : '').not.toBe(HAND_PROMPT_TEXT);
  });

  it('a picked choice is the next question; the choices are gone', () => {
    const d = onAsk(onPrompted(unclear()), '표본평균');
    expect(d).toMatchObject({ step: 'classifying', question: '표본평균' });
    expect('choices' in d).toBe(false);
    expect(nextAction(d)).toEqual({ type: 'classify', question: '표본평균' });
  });

  it('only a question being classified can be unclear', () => {
    expect(() => onUnclear(startDialogue(), CHOICES)).toThrow(HandDialogueError);
  });
});
