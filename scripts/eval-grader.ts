import { dataDirectory } from './eval-support.js';
import { formatConfidence } from './eval-confidence.js';
import { examPathResults, formatExamPath, formatExamTargets, formatProbes, probeResults } from './eval-exam-path.js';
import { formatKinds, formatTable, runEvaluation } from './eval-runner.js';

/**
 * The offline grader (label3: correct / partial / incorrect, and label2) against the tuned word-overlap baseline
 * (two thresholds for 3-way) on each dev file and the Korean dev set: accuracy, macro-F1 and Cohen's κ, on the dev
 * data and under cross-validation grouped by question. SciEntsBank has label3 only for correct and contradictory
 * answers (its other answers are null and left out); shared/eval/README.md names SAF and Beetle for 3-way figures.
 * Beside them, the grader's confidence (coverage, selective precision, calibration) and error kinds under grouped CV.
 * Then the exam grader's offline path (the real ExamGrader on the offline model, eval-exam-path.ts) on the same
 * answers with its targets (beats the tuned baseline 2-way and 3-way, Partial_Correct at most gold + 10 points), and
 * the confidence groups on that path (each group's share right with one model answer, beside the pooled constants
 * eval:judge measures), and the never-Correct probes (give-up, echo, pasted passage, bare keyword list).
 * Prints tables, then the whole result as one JSON object.
 * Usage: npm run eval:grader [-- <data dir, default ../shared/eval/asag>]
 */
const directory = dataDirectory();
const result = runEvaluation(directory, ['label3', 'label2']);
console.log(formatTable('Grader (label3 correct/partial/incorrect): accuracy, macro-F1, Cohen κ', result.label3));
console.log('');
console.log(formatTable('Grader (label2 good/bad): accuracy, macro-F1, Cohen κ', result.label2));
console.log('');
console.log(formatConfidence('Grader confidence (label2), grouped CV by question', result.label2.map((set) => ({ set: set.set, figures: set.confidence.cv }))));
console.log('');
console.log(formatKinds('Grader error kinds, grouped CV by question', result.label2.map((set) => ({ set: set.set, figures: set.kinds.cv }))));
console.log('');
const examPath = await examPathResults(directory);
console.log(formatExamPath(examPath));
console.log('');
console.log(formatExamTargets(examPath, result));
console.log('');
const probes = await probeResults(directory);
console.log(formatProbes(probes));
console.log(
  JSON.stringify({ task: 'grader', dataDirectory: result.dataDirectory, folds: result.folds, model: result.model, label3: result.label3, label2: result.label2, examPath, probes }),
);
