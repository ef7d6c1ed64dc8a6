import type { TextStream } from '../llm/index.js';
import type { ReplyKind, TranscriptItem, TutorEvent } from '../protocol/wire/tutor.js';
import type { Interrupts } from './interrupts.js';
import type { SessionOutbox } from './session-outbox.js';
import type { ReplyOptions } from './hand/hand-steps.js';
import type { SourcedTextStream } from './hand/student-assistant.js';
import type { LectureView } from './lecture-view.js';
import type { QaTutor } from './qa-tutor.js';
import { reaskId, shortQuestion, subquestionId, type SessionState } from './session-state.js';
import { CONFIDENT_AT } from '../judges/index.js';
import { SELF_ASSESS_CHOICES, type SelfAssessment } from '../protocol/wire/tutor.js';

/** What the tutor says when it is not sure of its verdict. */
export const UNSURE_TEXT = '이 답이 맞는지 확실하게 판단하기 어려워요. 아래 모범 답안과 비교해 보고, 내 답이 비슷했는지 골라 주세요.';
/** What the tutor says after the student's own comparison. */
const SELF_ASSESSED_FEEDBACK: Record<SelfAssessment, string> = {
  similar: '스스로 비교해 보고 비슷하게 답했다고 했어요. 핵심을 한 번 더 정리해 볼게요.',
  review: '좋아요, 함께 다시 살펴봐요. 작은 개념부터 차근차근 확인해 봅시다.',
};

/**
 * The student's comparison after an unsure verdict (`answer:self-assess`): recorded as a self-assessed verdict
 * (good for 비슷하게 답했어요, bad for 다시 볼래요), then the tutoring goes on as after a told verdict: the supplement,
 * or the subconcepts. Throws when no comparison is asked for this question.
 */
export function selfAssess(
  host: Pick<TutoringHost, 'outbox' | 'view'>,
  state: Tutoring,
  choice: SelfAssessment,
  at: { chapter: number; at: number },
): 'good' | 'bad' {
  const verdict = choice === 'similar' ? 'good' : 'bad';
  const feedback = SELF_ASSESSED_FEEDBACK[choice];
  const step = state.step;
  if (step.kind === 'self-assessing' && step.index !== undefined) {
    // A subconcept's question: 다시 볼래요 gets the remedial explanation, 비슷하게 답했어요 the next subconcept.
    const id = subquestionId(state.question.id, step.index);
    const events: TutorEvent[] = [{ event: 'tutor:verdict', payload: { questionId: id, verdict, feedback, selfAssessed: true } }];
    const items: TranscriptItem[] = [{ type: 'verdict', ...at, questionId: id, verdict, feedback, selfAssessed: true }];
    if (verdict === 'bad') {
      host.outbox.transition({ ...state, step: { kind: 'remedial', index: step.index, answer: step.answer ?? '' } }, events, items);
    } else {
      host.outbox.transition(state, events, items);
      askSubquestion(host, state, step.index + 1);
    }
    return verdict;
  }
  host.outbox.transition(
    { ...state, step: verdict === 'good' ? { kind: 'supplement' } : { kind: 'splitting' } },
    [{ event: 'tutor:verdict', payload: { questionId: state.question.id, verdict, feedback, selfAssessed: true } }],
    [{ type: 'verdict', ...at, questionId: state.question.id, verdict, feedback, selfAssessed: true }],
  );
  return verdict;
}

export type Tutoring = Extract<SessionState, { kind: 'tutoring' }>;

/** What the tutoring steps need from the session actor (its persistence and streaming, the lecture as shown). */
export interface TutoringHost {
  /** The material the session studies: the model answer is written from its passages. */
  readonly materialId: string;
  readonly tutor: QaTutor;
  readonly view: LectureView;
  /** Saves states and sends events, in order. */
  readonly outbox: Pick<SessionOutbox, 'transition'>;
  /** Whether the step is still current; the options of its model calls. */
  readonly interrupts: Pick<Interrupts, 'isCurrent' | 'modelCall'>;
  streamReply(kind: ReplyKind, epoch: number, open: () => TextStream | SourcedTextStream, options: ReplyOptions): Promise<string | false>;
}

/**
 * Runs one step of the tutoring that follows an answered question (seed 003, steps 5–7) and saves its outcome:
 * the verdict, then either the supplementary reply (good) or the subconcepts, asked one by one with a remedial
 * reply after each wrong one, then the parent question asked again and judged (bad). Resolves false when it waits for the student (or was interrupted).
 */
export function runTutoringStep(host: TutoringHost, state: Tutoring, epoch: number): Promise<boolean> {
  switch (state.step.kind) {
    case 'subquestion':
    case 'reasking':
    case 'self-assessing':
      return Promise.resolve(false);
    case 'rejudging':
      return rejudge(host, state, state.step.answer, epoch);
    case 'judging':
      return judge(host, state, epoch);
    case 'splitting':
      return split(host, state, epoch);
    case 'subjudging':
      return subjudge(host, state, state.step.index, state.step.answer, epoch);
    case 'remedial':
      return remedial(host, state, state.step.index, state.step.answer, epoch);
    case 'supplement':
      return supplement(host, state, epoch);
  }
}

async function judge(host: TutoringHost, state: Tutoring, epoch: number): Promise<boolean> {
  const lecture = await host.view.chapterLecture(state.chapter);
  const context = { question: state.question.text, lecture, ...host.interrupts.modelCall() };
  const written =
    state.modelAnswer === undefined
      ? await host.tutor.modelAnswer({ ...context, source: { materialId: host.materialId, chapter: state.chapter } })
      : { modelAnswer: state.modelAnswer, sources: state.modelAnswerSources ?? [] };
  const { modelAnswer } = written;
  if (!host.interrupts.isCurrent(epoch)) return false;
  const verdict = await host.tutor.judge({ ...context, modelAnswer, answer: state.answer });
  if (!host.interrupts.isCurrent(epoch)) return false;
  const at = await host.view.displayOffset(state);
  const cited = written.sources.length > 0 ? { modelAnswerSources: written.sources } : {};
  if (verdict.confidence < CONFIDENT_AT) {
    // Not sure: no verdict is told; the student compares their answer with the model answer (selfAssess below).
    // Without a model answer (the judge abstained) there is none to show: the student compares with the lecture.
    const text = verdict.abstained ? verdict.feedback : UNSURE_TEXT;
    const shown = verdict.abstained ? '' : modelAnswer;
    host.outbox.transition(
      { ...state, modelAnswer, ...cited, step: { kind: 'self-assessing' } },
      [{ event: 'tutor:unsure', payload: { questionId: state.question.id, text, modelAnswer: shown, choices: SELF_ASSESS_CHOICES.map((choice) => ({ ...choice })) } }],
      [{ type: 'unsure', ...at, questionId: state.question.id, text, modelAnswer: shown }],
    );
    return true;
  }
  host.outbox.transition(
    { ...state, modelAnswer, ...cited, step: verdict.verdict === 'good' ? { kind: 'supplement' } : { kind: 'splitting' } },
    [{ event: 'tutor:verdict', payload: { questionId: state.question.id, verdict: verdict.verdict, feedback: verdict.feedback } }],
    [{ type: 'verdict', ...at, questionId: state.question.id, verdict: verdict.verdict, feedback: verdict.feedback }],
  );
  return true;
}

async function split(host: TutoringHost, state: Tutoring, epoch: number): Promise<boolean> {
  const lecture = await host.view.chapterLecture(state.chapter);
  const subconcepts = await host.tutor.subconcepts({
    question: state.question.text,
    lecture,
    modelAnswer: state.modelAnswer ?? '',
    source: { materialId: host.materialId, chapter: state.chapter },
    ...host.interrupts.modelCall(),
  });
  if (!host.interrupts.isCurrent(epoch)) return false;
  askSubquestion(host, { ...state, subconcepts }, 0);
  return true;
}

function askSubquestion(host: Pick<TutoringHost, 'outbox' | 'view'>, state: Tutoring, index: number): void {
  const subconcepts = state.subconcepts ?? [];
  const sub = subconcepts[index];
  if (!sub) {
    // After the subconcept exchanges the loop closes on the concept itself: the parent question, asked again.
    if (subconcepts.length > 0) reask(host, state);
    else host.outbox.transition({ ...state, step: { kind: 'supplement' } });
    return;
  }
  const id = subquestionId(state.question.id, index);
  const payload = {
    questionId: id,
    parentQuestionId: state.question.id,
    index: index + 1,
    total: subconcepts.length,
    concept: sub.concept,
    text: sub.question,
  };
  const at = host.view.displayOffsetNow(state);
  host.outbox.transition(
    { ...state, step: { kind: 'subquestion', index } },
    [{ event: 'tutor:subquestion', payload }],
    [{ type: 'subquestion', ...at, ...payload }],
  );
}

/** Asks the parent question again, in short form (seed 003: the student shows they now have the concept). */
function reask(host: Pick<TutoringHost, 'outbox' | 'view'>, state: Tutoring): void {
  const payload = { questionId: reaskId(state.question.id), parentQuestionId: state.question.id, text: shortQuestion(state.question.text) };
  const at = host.view.displayOffsetNow(state);
  host.outbox.transition({ ...state, step: { kind: 'reasking' } }, [{ event: 'tutor:reask', payload }], [{ type: 'reask', ...at, ...payload }]);
}

/**
 * Judges the reply to the re-asked question with the judge and context of the first answer (the whole question, the
 * chapter's lecture, the model answer) and records the verdict; an unsure verdict counts as not yet shown (bad):
 * there is no comparison step here, and the supplement that follows states the model answer either way.
 */
async function rejudge(host: TutoringHost, state: Tutoring, answer: string, epoch: number): Promise<boolean> {
  const lecture = await host.view.chapterLecture(state.chapter);
  const verdict = await host.tutor.judge({
    question: state.question.text,
    lecture,
    modelAnswer: state.modelAnswer ?? '',
    answer,
    ...host.interrupts.modelCall(),
  });
  if (!host.interrupts.isCurrent(epoch)) return false;
  const told = verdict.confidence < CONFIDENT_AT ? 'bad' : verdict.verdict;
  const feedback = verdict.confidence < CONFIDENT_AT ? REASK_UNSURE_TEXT : verdict.feedback;
  const id = reaskId(state.question.id);
  const at = host.view.displayOffsetNow(state);
  host.outbox.transition(
    { ...state, step: { kind: 'supplement' } },
    [{ event: 'tutor:verdict', payload: { questionId: id, verdict: told, feedback } }],
    [{ type: 'verdict', ...at, questionId: id, verdict: told, feedback }],
  );
  return true;
}

/** What the tutor says when it cannot tell whether the re-asked question was answered. */
const REASK_UNSURE_TEXT = '이번 답이 맞는지 확실하게 판단하기 어려워요. 아래 정리를 보며 내 답과 비교해 보세요.';

async function subjudge(host: TutoringHost, state: Tutoring, index: number, answer: string, epoch: number): Promise<boolean> {
  const sub = state.subconcepts?.[index];
  if (!sub) {
    host.outbox.transition({ ...state, step: { kind: 'supplement' } });
    return true;
  }
  const verdict = await host.tutor.judge({
    question: sub.question,
    lecture: sub.explanation,
    modelAnswer: sub.explanation,
    answer,
    ...host.interrupts.modelCall(),
  });
  if (!host.interrupts.isCurrent(epoch)) return false;
  const id = subquestionId(state.question.id, index);
  const at = host.view.displayOffsetNow(state);
  if (verdict.confidence < CONFIDENT_AT) {
    // Not sure here either: the student compares their reply with the subconcept's explanation (selfAssess above).
    const text = verdict.abstained ? verdict.feedback : UNSURE_TEXT;
    const shown = verdict.abstained ? '' : sub.explanation;
    host.outbox.transition(
      { ...state, step: { kind: 'self-assessing', index, answer } },
      [{ event: 'tutor:unsure', payload: { questionId: id, text, modelAnswer: shown, choices: SELF_ASSESS_CHOICES.map((choice) => ({ ...choice })) } }],
      [{ type: 'unsure', ...at, questionId: id, text, modelAnswer: shown }],
    );
    return true;
  }
  const events: TutorEvent[] = [
    { event: 'tutor:verdict', payload: { questionId: id, verdict: verdict.verdict, feedback: verdict.feedback } },
  ];
  const items: TranscriptItem[] = [
    { type: 'verdict', ...at, questionId: id, verdict: verdict.verdict, feedback: verdict.feedback },
  ];
  if (verdict.verdict === 'bad') {
    host.outbox.transition({ ...state, step: { kind: 'remedial', index, answer } }, events, items);
  } else {
    host.outbox.transition(state, events, items);
    askSubquestion(host, state, index + 1);
  }
  return true;
}

async function remedial(host: TutoringHost, state: Tutoring, index: number, answer: string, epoch: number): Promise<boolean> {
  const sub = state.subconcepts?.[index];
  if (sub) {
    const done = await tutorReply(host, 'remedial', state, epoch, () =>
      host.tutor.remedial({ subconcept: sub, answer, ...host.interrupts.modelCall() }),
    );
    if (done === false) return false;
  }
  askSubquestion(host, state, index + 1);
  return true;
}

async function supplement(host: TutoringHost, state: Tutoring, epoch: number): Promise<boolean> {
  const lecture = await host.view.chapterLecture(state.chapter);
  // The supplement states the model answer, so it cites the passages that answer was written from.
  const done = await tutorReply(host, 'supplement', state, epoch, () => ({
    ...host.tutor.supplement({
      question: state.question.text,
      lecture,
      modelAnswer: state.modelAnswer ?? '',
      answer: state.answer,
      ...host.interrupts.modelCall(),
    }),
    sources: Promise.resolve(state.modelAnswerSources ?? []),
  }));
  if (done === false) return false;
  host.outbox.transition({ kind: 'streaming', chapter: state.chapter, offset: state.question.end });
  return true;
}

/** Streams one tutoring reply; its id is kept in the step so a reload can tell a reply was cut off. */
function tutorReply(
  host: TutoringHost,
  kind: ReplyKind,
  state: Tutoring,
  epoch: number,
  open: () => TextStream | SourcedTextStream,
): Promise<string | false> {
  const step = state.step;
  if (step.kind !== 'supplement' && step.kind !== 'remedial') return Promise.resolve('');
  return host.streamReply(kind, epoch, open, {
    place: host.view.displayOffsetNow(state),
    previousReplyId: step.replyId,
    withReplyId: (replyId) => ({ ...state, step: { ...step, replyId } }),
  });
}
