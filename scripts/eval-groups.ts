import path from 'node:path';
import { ExamGrader, TERM_THRESHOLD, groupAnswers } from '../src/exams/index.js';
import { createOfflineModel } from '../src/llm/index.js';
import { offlineTasks } from '../src/offline-tasks.js';
import { context, problemOf, setsIn } from './eval-exam-path.js';
import { type EvalItem, dataDirectory } from './eval-support.js';

/**
 * What grading by groups (src/exams/answer-groups.ts, the results page's 묶어서 채점) saves a teacher and what it
 * risks, on every dev set: each question's answers are grouped as the results page groups them offline (term vectors,
 * complete linkage, contradictions apart), and the gold status (three-way where the set has one, else good/bad) is
 * what the teacher would give. A teacher who grades a group in one action with its most common gold status, then
 * overrides each member whose gold status differs (one action each), grades every answer right in `actions` actions,
 * against one per answer without groups. `purity` is the share of answers whose gold status is their group's: what a
 * group grade gets right when the teacher does not read every member. Beside the product's threshold, the same
 * figures when only equal texts are grouped (the floor: what a class's repeated answers alone save) and at other
 * thresholds, so the product's choice is seen against its neighbours. Then the review queue: the answers the offline
 * exam grader holds for the teacher (one model answer per item, as eval:grader's exam path), one action each one by
 * one, against the actions to settle them by groups, a group graded only where that is fewer actions.
 * Usage: npm run eval:groups [-- <data dir, default ../shared/eval/asag>]
 */

export interface GroupingWork {
  answers: number;
  groups: number;
  /** Group grades plus one override per member whose gold status is not the group's most common one. */
  actions: number;
  /** Share of answers whose gold status is their group's most common one. */
  purity: number;
}

/** The work of grading groups whose members have these gold statuses (pure). */
export function groupingWork(groups: readonly (readonly string[])[]): GroupingWork {
  let answers = 0;
  let agreeing = 0;
  let actions = 0;
  let counted = 0;
  for (const group of groups) {
    if (group.length === 0) continue;
    const counts = new Map<string, number>();
    for (const label of group) counts.set(label, (counts.get(label) ?? 0) + 1);
    const majority = Math.max(...counts.values());
    counted += 1;
    answers += group.length;
    agreeing += majority;
    actions += 1 + (group.length - majority);
  }
  return { answers, groups: counted, actions, purity: answers === 0 ? 1 : agreeing / answers };
}

/** A threshold above any similarity: only equal texts share a group. */
const EQUAL_TEXTS = 2;
export const THRESHOLDS: readonly { name: string; threshold: number }[] = [
  { name: 'equal texts', threshold: EQUAL_TEXTS },
  { name: '0.8', threshold: 0.8 },
  { name: '0.6', threshold: 0.6 },
  { name: `${TERM_THRESHOLD} (product)`, threshold: TERM_THRESHOLD },
  { name: '0.3', threshold: 0.3 },
];

export interface SetGrouping {
  set: string;
  questions: number;
  rows: ({ name: string; threshold: number } & GroupingWork)[];
  /** The answers the offline exam grader held for review, at the product's threshold. */
  review: ReviewWork;
}

/** One grouped answer: its gold status, and whether the grader held it for review. */
export interface GroupedMember {
  gold: string;
  held: boolean;
}

/**
 * One set's answers, grouped question by question at `threshold` as the results page groups them; `held[i]` says
 * whether the grader held `items[i]` for review (none when not given).
 */
export function groupedMembers(items: readonly EvalItem[], threshold: number, held: readonly boolean[] = []): GroupedMember[][] {
  const byQuestion = new Map<string, number[]>();
  items.forEach((item, index) => byQuestion.set(item.questionId, [...(byQuestion.get(item.questionId) ?? []), index]));
  return [...byQuestion.values()].flatMap((indexes, question) => {
    const groups = groupAnswers(
      question + 1,
      indexes.map((index) => ({ sessionId: String(index), text: items[index]?.answer ?? '', status: held[index] === true ? ('Needs_Review' as const) : ('Correct' as const) })),
      { threshold },
    );
    return groups.map((group) =>
      group.answers.map((member) => {
        const item = items[Number(member.sessionId)] as EvalItem;
        return { gold: item.label3 ?? item.label2, held: held[Number(member.sessionId)] === true };
      }),
    );
  });
}

export interface ReviewWork {
  /** Answers the grader held for review: one action each without groups. */
  held: number;
  /**
   * Actions to settle them with groups: for each group holding one, the fewer of a group grade (with its most common
   * gold status, plus one override per member of another) and one action per held member.
   */
  actions: number;
}

/** The teacher's work on the answers held for review, grading by groups where that is fewer actions (pure). */
export function reviewWork(groups: readonly (readonly GroupedMember[])[]): ReviewWork {
  let held = 0;
  let actions = 0;
  for (const group of groups) {
    const waiting = group.filter((member) => member.held).length;
    if (waiting === 0) continue;
    held += waiting;
    actions += Math.min(waiting, groupingWork([group.map((member) => member.gold)]).actions);
  }
  return { held, actions };
}

/** Whether the offline exam grader (one model answer per item, as eval:grader's exam path) holds each answer. */
async function heldByGrader(items: readonly EvalItem[]): Promise<boolean[]> {
  const grader = new ExamGrader({ model: createOfflineModel(offlineTasks) });
  const held: boolean[] = [];
  for (const [index, item] of items.entries()) {
    const graded = await grader.grade(problemOf(item, index + 1), item.answer, context(item));
    held.push(graded.result_status === 'Needs_Review');
  }
  return held;
}

export async function groupingResults(directory: string): Promise<SetGrouping[]> {
  const results: SetGrouping[] = [];
  for (const { name, items } of setsIn(directory)) {
    const held = await heldByGrader(items);
    results.push({
      set: name,
      questions: new Set(items.map((item) => item.questionId)).size,
      rows: THRESHOLDS.map(({ name: rowName, threshold }) => ({
        name: rowName,
        threshold,
        ...groupingWork(groupedMembers(items, threshold).map((group) => group.map((member) => member.gold))),
      })),
      review: reviewWork(groupedMembers(items, TERM_THRESHOLD, held)),
    });
  }
  return results;
}

const pad = (text: string, width: number) => text.padEnd(width);

export function formatGrouping(results: readonly SetGrouping[]): string {
  const lines = [
    'Grading by groups, dev: teacher actions per answer to grade every answer right (group grade + one override per member of another gold status; 1.00 = no groups) and purity (share of answers whose gold status is their group\'s)',
    `${pad('set', 22)}${pad('answers', 9)}${pad('questions', 11)}${THRESHOLDS.map((row) => pad(row.name, 22)).join('')}`,
  ];
  for (const result of results) {
    const answers = result.rows[0]?.answers ?? 0;
    const cells = result.rows.map((row) => pad(`${(row.actions / Math.max(1, row.answers)).toFixed(2)} / ${row.purity.toFixed(3)}`, 22));
    lines.push(`${pad(result.set, 22)}${pad(String(answers), 9)}${pad(String(result.questions), 11)}${cells.join('')}`);
  }
  lines.push('', 'The review queue (answers the offline exam grader holds, one model answer per item) at the product\'s threshold: held answers → teacher actions to settle them, grading by groups where fewer');
  lines.push(`${pad('set', 22)}${pad('held', 8)}actions (per held answer)`);
  for (const result of results) {
    lines.push(`${pad(result.set, 22)}${pad(String(result.review.held), 8)}${result.review.actions} (${(result.review.actions / Math.max(1, result.review.held)).toFixed(2)})`);
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const results = await groupingResults(dataDirectory());
  console.log(formatGrouping(results));
  console.log(JSON.stringify({ task: 'groups', results }));
}
