import { expect } from 'vitest';
import { answerChecks, dialogueOf, findEvent, lectureDeltasBetween, raiseHand, VAGUE_QUESTION } from './hand-client.js';
import type { RecordedRequest } from './fake-gemini.js';
import {
  explainText,
  finalText,
  HAND_ANSWER,
  HAND_CONCEPT,
  HAND_SUBCONCEPTS,
  isHandClassify,
  isHandControl,
  isHandExplain,
  isHandFinal,
  isHandReexplain,
  isHandSummary,
  reexplainText,
  summaryText,
  tagged,
} from './hand-gemini.js';
import type { LectureClient } from './lecture-client.js';
import { bodyOf, displayedLecture, promptOf, SCRIPTED_CHAPTERS } from './lecture-gemini.js';

/**
 * The raise-hand scenario on the scripted lecture, whichever provider's fake serves the script (hand-gemini and
 * hand-openai integration tests): raising the hand, the student's replies, and what the student must have seen
 * (rules H1–H4 of test/SPEC.md).
 */

/** The student's replies to the vague dialogue's checks, in order. */
export const VAGUE_REPLIES = ['아니요', '네', '헷갈려요', '이해했어요', '네, 이해했어요'];

/** Raises the hand once a little of the scripted lecture arrived (its first question is 80 characters in). */
export async function raiseEarly(client: LectureClient): Promise<{ sent: number; acked: number }> {
  await client.ok('lecture:speed', { tokensPerSecond: 10 });
  await client.ok('lecture:start');
  await client.waitForText(0, 12);
  const raised = await raiseHand(client);
  await client.ok('lecture:speed', { tokensPerSecond: 200 });
  await client.waitForEvent('assistant:prompt', { from: raised.sent });
  return raised;
}

/** H4 on the scripted lecture: the text before the first question, exactly. */
export async function expectLectureResumes(client: LectureClient): Promise<void> {
  await client.waitForEvent('lecture:question', { from: findEvent(client.events, 'hand:closed') });
  const first = SCRIPTED_CHAPTERS[0]?.parts[0];
  expect(client.text.get(0)).toBe(first && 'text' in first ? first.text : '?');
  expect(client.seqErrors).toEqual([]);
  // The whole scripted chapter is still what the student will read (nothing of the dialogue leaked into it).
  expect(displayedLecture(SCRIPTED_CHAPTERS[0] ?? { title: '', parts: [] }).startsWith(client.text.get(0) ?? '?')).toBe(true);
}

/** H2 H4: one streamed answer, unchanged, and no lecture text while the hand was up. */
export function expectSpecificDialogue(client: LectureClient, sent: number, acked: number): void {
  const view = dialogueOf(client.events, findEvent(client.events, 'assistant:prompt', sent));
  expect(view.shape).toEqual(['prompt', 'ask', 'asked', 'answer', 'closed:specific', 'lecture']);
  expect(view.replies[0]?.text).toBe(HAND_ANSWER.join(''));
  expect(lectureDeltasBetween(client.events, acked, findEvent(client.events, 'hand:closed', sent))).toEqual([]);
}

/** H3 H4: answers the checks with VAGUE_REPLIES; parts explained in order, re-explained when not understood, final, summary. */
export async function answerVagueDialogue(client: LectureClient, sent: number, acked: number): Promise<void> {
  expect(await answerChecks(client, sent, (_check, n) => VAGUE_REPLIES[n - 1] ?? 'unexpected')).toMatchObject({ kind: 'vague' });
  await expectLectureResumes(client);

  const view = dialogueOf(client.events, findEvent(client.events, 'assistant:prompt', sent));
  const [first, second] = HAND_SUBCONCEPTS.map((part) => part.concept) as [string, string];
  expect(view.shape).toEqual([
    'prompt',
    'ask',
    'asked',
    'explain',
    'check1/3',
    'reply:아니요',
    'explain',
    'check1/3',
    'reply:네',
    'explain',
    'check2/3',
    'reply:헷갈려요',
    'explain',
    'check2/3',
    'reply:이해했어요',
    'explain',
    'check3/3',
    'reply:네, 이해했어요',
    'summary',
    'closed:vague',
    'lecture',
  ]);
  expect(view.replies.map((reply) => reply.text)).toEqual([
    explainText('1/2', first),
    reexplainText(first, 2),
    explainText('2/2', second),
    reexplainText(second, 2),
    finalText([first, second]),
    summaryText([first, second, HAND_CONCEPT]),
  ]);
  expect(view.checks.map(({ index, total, concept }) => ({ index, total, concept }))).toEqual([
    { index: 0, total: 3, concept: first },
    { index: 0, total: 3, concept: first },
    { index: 1, total: 3, concept: second },
    { index: 1, total: 3, concept: second },
    { index: 2, total: 3, concept: HAND_CONCEPT },
  ]);
  expect(lectureDeltasBetween(client.events, acked, findEvent(client.events, 'hand:closed', sent))).toEqual([]);
}

/**
 * H10 on the vague dialogue's requests (Gemini-shaped: an OpenAI test maps them with geminiShaped): the question
 * delimited with its closing tag defused, each reply delimited for Control, explanations from the passages only, the
 * re-explanation quoting the earlier one.
 */
export function expectVagueRequests(requests: readonly RecordedRequest[]): void {
  const classify = requests.find(isHandClassify);
  const first = HAND_SUBCONCEPTS[0]?.concept ?? '?';
  const partsOf = (request: RecordedRequest) => bodyOf(request).contents?.[0]?.parts ?? [];
  const asked = tagged(promptOf(classify!), '학생_질문') ?? '';
  expect(asked).toContain(VAGUE_QUESTION);
  expect(asked).not.toContain('</학생_질문>');
  expect(promptOf(classify!).match(/<\/학생_질문>/gu)).toHaveLength(1);
  expect(requests.filter(isHandControl).map((request) => tagged(promptOf(request), '학생_답변'))).toEqual(VAGUE_REPLIES);
  // Explanations work from the passages only; the re-explanation quotes the earlier one.
  const explains = requests.filter(isHandExplain);
  expect(explains.map((request) => partsOf(request).length)).toEqual([1, 1]);
  const reexplains = requests.filter(isHandReexplain);
  expect(reexplains).toHaveLength(2);
  expect(tagged(promptOf(reexplains[0]!), '이전_설명')).toBe(`[설명 1]\n${explainText('1/2', first)}`);
  expect(tagged(promptOf(reexplains[1]!), '학생_답변')).toBe('헷갈려요');
  expect(requests.filter(isHandFinal)).toHaveLength(1);
  expect(requests.filter(isHandSummary)).toHaveLength(1);
}
