import { dataDirectory } from './eval-support.js';
import { formatCeiling, formatConfidence, formatGroups } from './eval-confidence.js';
import { formatKinds, formatTable, runEvaluation } from './eval-runner.js';

/**
 * The offline judge (label2: good only for a fully correct answer) against the tuned word-overlap baseline on
 * each dev file and the Korean dev set: accuracy, macro-F1 and Cohen's κ, on the dev data and under
 * cross-validation grouped by question. Prints a table, then the whole result as one JSON object.
 * Usage: npm run eval:judge [-- <data dir, default ../shared/eval/asag>]
 */
const result = runEvaluation(dataDirectory(), ['label2']);
console.log(formatTable('Judge (label2 good/bad): accuracy, macro-F1, Cohen κ', result.label2));
console.log('');
console.log(formatConfidence('Judge confidence, grouped CV by question', result.label2.map((set) => ({ set: set.set, figures: set.confidence.cv }))));
console.log('');
console.log(formatConfidence('Judge confidence, dev', result.label2.map((set) => ({ set: set.set, figures: set.confidence.dev }))));
console.log('');
console.log(formatCeiling('Ceiling of the assessor\'s P(good), grouped CV by question', result.label2.map((set) => ({ set: set.set, ceiling: set.ceiling.cv }))));
console.log('');
console.log(formatKinds('Judge error kinds, grouped CV by question', result.label2.map((set) => ({ set: set.set, figures: set.kinds.cv }))));
console.log(formatKinds('Judge error kinds, dev', result.label2.map((set) => ({ set: set.set, figures: set.kinds.dev }))));
console.log('');
console.log(formatGroups('Confidence groups of verdict-confidence.ts, grouped CV by question, every set pooled (told: the constant; right: measured)', result.groups));
console.log(JSON.stringify({ task: 'judge', dataDirectory: result.dataDirectory, folds: result.folds, model: result.model, label2: result.label2, groups: result.groups }));
