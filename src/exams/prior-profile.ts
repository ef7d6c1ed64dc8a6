import {
  type ComplexityLevel,
  DEFAULT_SCORE_WEIGHTS,
  type ExamLog,
  type ExamType,
  type LearnerProfile,
  type LearnerSignals,
  type QuestionType,
  type TargetDepth,
  type TopicEvidence,
} from './exam-types.js';
import { EXAM_STATUS_LABELS, SELF_ASSESSED_WEIGHT } from '../protocol/wire/exams.js';

/**
 * `Execute_Generator_PriorProfile(prev_userProfile, exam_type)`, and the profile arithmetic the
 * feedback agent's update shares.
 *
 * Deterministic on purpose: every field is a count over facts lectern recorded itself (the tutor's verdicts, hands
 * raised, quiz answers, graded exam items), and the server decides — the same rule the rest of lectern follows for
 * the model's proposals. A model would add cost and variance to what is arithmetic, and could invent topics no
 * evidence supports; the topics' names already come from the model-written concepts and exam topics, and the
 * feedback agent's report (a model step) is where wording is written for people.
 *
 * - proficiency: the share of good outcomes (good verdicts, re-asked questions answered after their remediation, correct quiz answers, exam items weighted like the
 *   score) — at least {@link ADVANCED_SHARE} Advanced, at least {@link INTERMEDIATE_SHARE} Intermediate, else Basic —
 *   once there are {@link MIN_EVIDENCE} outcomes; with fewer the previous level stays (Basic for a first profile);
 * - weak topics: a bad verdict's concepts, a topic asked with a raised hand {@link REPEATED_HAND} times or more, an
 *   exam topic graded Incorrect or Partial_Correct, the topic (chapter) of a quiz item answered wrong first; strong
 *   topics: an exam topic graded Correct, a quiz item's topic answered right first. A topic with both
 *   goes where most of its evidence points (a tie: weak) and keeps all of it. Each carries short Korean evidence,
 *   newest last;
 * - target depth and its description: the instructor's, kept from the previous profile (Conceptual Understanding
 *   for a first one);
 * - preferred item types: the previous profile's, else both types, Short_Keyword only at Basic.
 */

export const MIN_EVIDENCE = 5;
export const ADVANCED_SHARE = 0.8;
export const INTERMEDIATE_SHARE = 0.5;
export const REPEATED_HAND = 2;
export const DEFAULT_TARGET_DEPTH: TargetDepth = 'Conceptual Understanding';
const MAX_TOPICS = 30;
const MAX_EVIDENCE = 10;
const MAX_EXAMS = 200;

/** The level a share of good outcomes shows, or the fallback with too little evidence. */
export function proficiencyFrom(good: number, count: number, fallback: ComplexityLevel): ComplexityLevel {
  if (count < MIN_EVIDENCE) return fallback;
  const share = good / count;
  if (share >= ADVANCED_SHARE) return 'Advanced';
  return share >= INTERMEDIATE_SHARE ? 'Intermediate' : 'Basic';
}

const topicKey = (topic: string): string => topic.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Which way a piece of evidence points, read from its own words (an exam status, a wrong lecture answer, hands
 * raised), else from the list it was stored in: a topic keeps its counter-evidence in its one list, and a later
 * update still counts it on the right side.
 */
function sideOf(evidence: string, stored: 'weak' | 'strong'): 'weak' | 'strong' {
  if (/: (?:Correct|정답)$/u.test(evidence)) return 'strong';
  if (/: (?:Incorrect|Partial_Correct|부분 정답)$|오답|손들고/u.test(evidence)) return 'weak';
  return stored;
}

/** An exam item's evidence, as {@link TopicTally.addLog} writes it (and as older versions wrote it, in English). */
const EXAM_EVIDENCE = /^시험 \d+번: /u;

/**
 * The profile without the evidence of exam items: what a profile read or an exam's feedback adds back from the
 * class's exams as they count now (an override or a regrade changes a status after its evidence was stored). Topics
 * left with no evidence go too.
 */
export function withoutExamEvidence(profile: LearnerProfile): LearnerProfile {
  const keep = (topics: TopicEvidence[]) =>
    topics.flatMap((topic) => {
      const evidence = topic.evidence.filter((text) => !EXAM_EVIDENCE.test(text));
      return evidence.length > 0 ? [{ ...topic, evidence }] : [];
    });
  return { ...profile, user_status: { ...profile.user_status, weak_topics: keep(profile.user_status.weak_topics), strong_topics: keep(profile.user_status.strong_topics) } };
}

/** Topics with their weak and strong evidence, in order of first mention; evidence in the order it came. */
export class TopicTally {
  private readonly topics = new Map<string, { topic: string; evidence: { text: string; side: 'weak' | 'strong' }[] }>();

  add(topic: string, side: 'weak' | 'strong', evidence: string): void {
    const name = clip(topic.trim(), 200);
    if (name === '') return;
    const key = topicKey(name);
    const entry = this.topics.get(key) ?? { topic: name, evidence: [] };
    const text = clip(evidence, 300);
    if (!entry.evidence.some((known) => known.text === text)) entry.evidence.push({ text, side });
    this.topics.set(key, entry);
  }

  /** Carries a previous profile's topics forward (its evidence first, so new evidence ends up newest). */
  addProfile(profile: LearnerProfile): void {
    for (const entry of profile.user_status.weak_topics) for (const evidence of entry.evidence) this.add(entry.topic, sideOf(evidence, 'weak'), evidence);
    for (const entry of profile.user_status.strong_topics) for (const evidence of entry.evidence) this.add(entry.topic, sideOf(evidence, 'strong'), evidence);
  }

  /** Adds an exam log's graded items: Incorrect and Partial_Correct topics weak, Correct strong. */
  addLog(log: ExamLog, label: string): void {
    for (const item of log.evaluation_items) {
      if (item.result_status === 'Ungraded' || item.result_status === 'Needs_Review') continue;
      const evidence = `${label} ${item.question_id}번: ${EXAM_STATUS_LABELS[item.result_status]}`;
      this.add(item.related_topic, item.result_status === 'Correct' ? 'strong' : 'weak', evidence);
    }
  }

  /** Weak and strong lists: each topic where most of its evidence points (a tie: weak), its newest evidence kept. */
  result(): { weak: TopicEvidence[]; strong: TopicEvidence[] } {
    const weak: TopicEvidence[] = [];
    const strong: TopicEvidence[] = [];
    for (const entry of this.topics.values()) {
      const weakCount = entry.evidence.filter((evidence) => evidence.side === 'weak').length;
      const isWeak = weakCount * 2 >= entry.evidence.length;
      (isWeak ? weak : strong).push({ topic: entry.topic, evidence: entry.evidence.map((evidence) => evidence.text).slice(-MAX_EVIDENCE) });
    }
    return { weak: weak.slice(-MAX_TOPICS), strong: strong.slice(-MAX_TOPICS) };
  }
}

/** Points and graded count of a log (Ungraded left out), weighted like the default score. */
export function logOutcomes(log: ExamLog): { good: number; count: number } {
  let good = 0;
  let count = 0;
  for (const item of log.evaluation_items) {
    if (item.result_status === 'Ungraded' || item.result_status === 'Needs_Review') continue;
    good += DEFAULT_SCORE_WEIGHTS[item.result_status];
    count += 1;
  }
  return { good, count };
}

/** Exam ids, oldest first, without repeats, the newest {@link MAX_EXAMS} kept. */
export function appendExams(previous: readonly string[], added: readonly string[]): string[] {
  const all = [...previous];
  for (const id of added) if (!all.includes(id)) all.push(id);
  return all.slice(-MAX_EXAMS);
}

export function preferredTypesFor(level: ComplexityLevel): QuestionType[] {
  return level === 'Basic' ? ['Short_Keyword'] : ['Short_Keyword', 'Descriptive'];
}

const short = (text: string): string => clip(text.replace(/\s+/gu, ' ').trim(), 60);

export { SELF_ASSESSED_WEIGHT };

export function buildPriorProfile(previous: LearnerProfile | null, examType: ExamType, signals: LearnerSignals, now: number): LearnerProfile {
  // One exam type exists (short_answer); the type is part of the seed's signature and the profile serves it.
  void examType;
  const tally = new TopicTally();
  if (previous !== null) tally.addProfile(previous);
  let good = 0;
  let count = 0;
  for (const verdict of signals.lectureVerdicts) {
    // A student's own comparison after an unsure verdict is weaker evidence than the tutor's judgement.
    const weight = verdict.selfAssessed ? SELF_ASSESSED_WEIGHT : 1;
    count += weight;
    if (verdict.verdict === 'good') good += weight;
    else {
      const again = verdict.afterRemediation === undefined ? '' : verdict.afterRemediation === 'good' ? ' (다시 물었을 때 이해함)' : ' (다시 물었을 때도 오답)';
      for (const concept of verdict.concepts) tally.add(concept, 'weak', `강의 확인 질문 오답${again}: ${short(verdict.question)}`);
      // The re-asked question after the remediation is a second outcome on the same concept, at full weight.
      if (verdict.afterRemediation !== undefined) {
        count += 1;
        if (verdict.afterRemediation === 'good') good += 1;
      }
    }
  }
  const hands = new Map<string, { topic: string; times: number }>();
  for (const topic of signals.handTopics) {
    const key = topicKey(topic);
    if (key === '') continue;
    const entry = hands.get(key) ?? { topic: topic.trim(), times: 0 };
    entry.times += 1;
    hands.set(key, entry);
  }
  for (const entry of hands.values()) if (entry.times >= REPEATED_HAND) tally.add(entry.topic, 'weak', `손들고 ${entry.times}번 질문함`);
  for (const answer of signals.quizAnswers) {
    count += 1;
    if (answer.correct) good += 1;
    // A quiz item drawn from a topic (its chapter): a wrong first answer makes it weak, a right one strong.
    if (answer.topic !== undefined) {
      const label = `${answer.source ?? '퀴즈'} ${answer.correct ? '정답' : '오답'}: ${short(answer.question)}`;
      tally.add(answer.topic, answer.correct ? 'strong' : 'weak', label);
    }
  }
  for (const exam of signals.exams) {
    const outcome = logOutcomes(exam.log);
    good += outcome.good;
    count += outcome.count;
    // The feedback agent's wording: an exam the update already recorded adds no second copy of its evidence.
    tally.addLog(exam.log, '시험');
  }
  const proficiency = proficiencyFrom(good, count, previous?.user_status.proficiency_level ?? 'Basic');
  const topics = tally.result();
  return {
    learning_goal: previous?.learning_goal ?? { target_depth: DEFAULT_TARGET_DEPTH, description: '' },
    user_status: { proficiency_level: proficiency, weak_topics: topics.weak, strong_topics: topics.strong },
    preferred_question_types:
      previous !== null && previous.preferred_question_types.length > 0 ? previous.preferred_question_types : preferredTypesFor(proficiency),
    exams_taken: appendExams(previous?.exams_taken ?? [], signals.exams.map((exam) => exam.examId)),
    updated_at: now,
  };
}
