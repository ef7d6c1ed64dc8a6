/**
 * Class analytics (분석): what the instructor sees of a class at a glance, computed on request from the records the
 * other features keep (nothing here writes to the store):
 * - item analysis of every quiz room (its stored results) and every exam published to the class (its results with
 *   overrides applied): difficulty = share correct (an exam's partial credit ½, a room answer its stored credit 0–1;
 *   polls are not items), discrimination = point-biserial of the item
 *   score against the total score (Pearson's r, which is the point-biserial for a right/wrong item and the item–total
 *   correlation with partial credit), choice counts where there are distractors (4-choice, O/X, every option of a
 *   multiple-answer item; none for ordering, numeric, short text), and flags that order the worst items for review;
 * - the mastery map, students × chapters, from the facts the learner profile is built from, weighed as it weighs them
 *   (lecture verdicts, a self-assessed one at SELF_ASSESSED_WEIGHT, the question re-asked after a remediation; raised
 *   hands; first answers to self-study and class quiz items; exam items, a student's own self-study exam in their
 *   cells only, never in the item analysis); the reply carries each cell's figure and count, and one cell's facts
 *   come from their own route (a class of 500 students would otherwise answer megabytes). Live room players are nicknames typed
 *   at a room code, tied to no class session, so room answers appear in item analysis only;
 * - the lecture funnel: per chapter, students who reached and went past it, raised hands, remediation.
 * The HTTP edge (src/http/analytics-router.ts) checks that the asker is the class's instructor and wires the sources.
 */
export { ClassAnalytics, MAX_ANALYTICS_STUDENTS, type AnalyticsSources, type ClassExamInput } from './class-analytics.js';
export { analyticsCsv } from './analytics-csv.js';
export { analyseExam, analyseRoom, examItemScore, type ExamResultsInput, type RoomResultsInput } from './item-analysis.js';
export { lectureFunnel, type StudentProgress } from './funnel.js';
export { masteryMap, withoutEvidence, WHOLE_MATERIAL, type MasteryMapWithEvidence, type StudentEvidence } from './mastery.js';
export { itemFlags, mean, pointBiserial, populationSd, reviewPriority } from './statistics.js';
