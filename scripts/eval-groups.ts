import { existsSync } from 'node:fs';
import path from 'node:path';
import { TERM_THRESHOLD, groupAnswers } from '../src/exams/index.js';
import { DEV_FILES, type EvalItem, KOREAN_DEV_SETS, dataDirectory, loadItems } from './eval-support.js';

/**
 * What grading by groups (src/exams/answer-groups.ts, the results page's 묶어서 채점) saves a teacher and what it
 * risks, on every dev set: each question's answers are grouped as the results page groups them offline (term vectors,
 * complete linkage, contradictions apart), and the gold status (three-way where the set has one, else good/bad) is
 * what the teacher would give. A teacher who grades a group in one action with its most common gold status, then
 * overrides each member whose gold status differs (one action each), grades every answer right in `actions` actions,
 * against one per answer without groups. `purity` is the share of answers whose gold status is their group's: what a
 * group grade gets right when the teacher does not read every member. Beside the product's threshold, the same
 * figures when only equal texts are grouped (the floor: what a class's repeated answers alone save) and at other
 * thresholds, so the product's choice is seen against its neighbours.
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
}

/** The gold statuses of one set's answers, grouped question by question at `threshold`. */
export function groupedLabels(items: readonly EvalItem[], threshold: number): string[][] {
  const byQuestion = new Map<string, EvalItem[]>();
  for (const item of items) byQuestion.set(item.questionId, [...(byQuestion.get(item.questionId) ?? []), item]);
  return [...byQuestion.values()].flatMap((answers, index) => {
    const groups = groupAnswers(
      index + 1,
      answers.map((item, position) => ({ sessionId: String(position), text: item.answer, status: 'Needs_Review' as const })),
      { threshold },
    );
    return groups.map((group) => group.answers.map((member) => {
      const item = answers[Number(member.sessionId)] as EvalItem;
      return item.label3 ?? item.label2;
    }));
  });
}

export function groupingResults(directory: string): SetGrouping[] {
  const sets = DEV_FILES.map((file) => ({ name: file.replace('.dev.jsonl', ''), items: loadItems(path.join(directory, file)) }));
  for (const { name, file } of KOREAN_DEV_SETS) if (existsSync(file)) sets.push({ name, items: loadItems(file) });
  return sets.map(({ name, items }) => ({
    set: name,
    questions: new Set(items.map((item) => item.questionId)).size,
    rows: THRESHOLDS.map(({ name: rowName, threshold }) => ({ name: rowName, threshold, ...groupingWork(groupedLabels(items, threshold)) })),
  }));
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
  return lines.join('\n');
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const results = groupingResults(dataDirectory());
  console.log(formatGrouping(results));
  console.log(JSON.stringify({ task: 'groups', results }));
}
