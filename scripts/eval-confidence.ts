import { CONFIDENT_AT } from '../src/judges/index.js';

/**
 * Coverage, selective precision and calibration of verdicts with a confidence: among the verdicts at or above
 * CONFIDENT_AT (the ones told as final), the share of answers covered and the precision of good and of bad verdicts;
 * over all verdicts, a reliability table (10 bins of confidence: mean confidence against the share right) and the
 * expected calibration error (bin-weighted |confidence − accuracy|).
 */

export interface ConfidentVerdict {
  gold: 'good' | 'bad';
  predicted: 'good' | 'bad';
  confidence: number;
}

export interface ConfidenceFigures {
  n: number;
  coverage: number;
  precisionGood: number;
  precisionBad: number;
  /** Confident good / confident bad verdicts (how many the precisions rest on). */
  confidentGood: number;
  confidentBad: number;
  ece: number;
  reliability: { from: number; to: number; n: number; confidence: number; accuracy: number }[];
}

const round = (value: number) => Math.round(value * 1000) / 1000;

export function confidenceFigures(verdicts: readonly ConfidentVerdict[], threshold = CONFIDENT_AT): ConfidenceFigures {
  const confident = verdicts.filter((verdict) => verdict.confidence >= threshold);
  const side = (label: 'good' | 'bad') => confident.filter((verdict) => verdict.predicted === label);
  const precision = (label: 'good' | 'bad') => {
    const chosen = side(label);
    return chosen.length === 0 ? 0 : chosen.filter((verdict) => verdict.gold === label).length / chosen.length;
  };
  const reliability: ConfidenceFigures['reliability'] = [];
  let ece = 0;
  for (let bin = 0; bin < 10; bin += 1) {
    const from = bin / 10;
    const to = (bin + 1) / 10;
    const inBin = verdicts.filter((verdict) => verdict.confidence >= from && (bin === 9 ? verdict.confidence <= to : verdict.confidence < to));
    if (inBin.length === 0) continue;
    const confidence = inBin.reduce((sum, verdict) => sum + verdict.confidence, 0) / inBin.length;
    const accuracy = inBin.filter((verdict) => verdict.gold === verdict.predicted).length / inBin.length;
    ece += (inBin.length / verdicts.length) * Math.abs(confidence - accuracy);
    reliability.push({ from, to, n: inBin.length, confidence: round(confidence), accuracy: round(accuracy) });
  }
  return {
    n: verdicts.length,
    coverage: round(verdicts.length === 0 ? 0 : confident.length / verdicts.length),
    precisionGood: round(precision('good')),
    precisionBad: round(precision('bad')),
    confidentGood: side('good').length,
    confidentBad: side('bad').length,
    ece: round(ece),
    reliability,
  };
}

/** §3's targets for confident verdicts: precision at least 0.85 on both sides, at least half of the answers covered. */
export const TARGET_PRECISION = 0.85;
export const TARGET_COVERAGE = 0.5;

export function meetsTargets(figures: ConfidenceFigures): boolean {
  return figures.coverage >= TARGET_COVERAGE && figures.precisionGood >= TARGET_PRECISION && figures.precisionBad >= TARGET_PRECISION;
}

/**
 * What any confidence read from one score could reach: the ROC AUC of the score for good answers, and the most answers
 * a pair of thresholds covers with both precisions at TARGET_PRECISION (bad at or below `low`, good at or above
 * `high`), the pair chosen on these very answers. The pair is fitted to the answers it is scored on, so the coverage
 * is an upper bound: when it is below TARGET_COVERAGE, no threshold on this score meets §3, and a better signal is
 * needed rather than a better threshold.
 */
export interface ScoreCeiling {
  auc: number;
  coverage: number;
  low: number;
  high: number;
}

export function scoreCeiling(scores: readonly number[], gold: readonly ('good' | 'bad')[]): ScoreCeiling {
  const ranked = scores.map((score, index) => ({ score, good: gold[index] === 'good' })).sort((left, right) => left.score - right.score);
  const n = ranked.length;
  const goodTotal = ranked.filter((entry) => entry.good).length;
  // AUC by ranks: the share of (good, bad) pairs the score orders right, ties counted half.
  let pairs = 0;
  let badBelow = 0;
  for (let start = 0; start < n; ) {
    let end = start;
    while (end < n && ranked[end]?.score === ranked[start]?.score) end += 1;
    const tied = ranked.slice(start, end);
    const goods = tied.filter((entry) => entry.good).length;
    pairs += goods * (badBelow + (tied.length - goods) / 2);
    badBelow += tied.length - goods;
    start = end;
  }
  const badTotal = n - goodTotal;
  // Cut points between distinct scores: answers [0, cut) are below it. goodBelow[cut] counts the good ones.
  const cuts = [0];
  for (let index = 1; index < n; index += 1) if (ranked[index]?.score !== ranked[index - 1]?.score) cuts.push(index);
  cuts.push(n);
  const goodBelow = [0];
  ranked.forEach((entry, index) => goodBelow.push((goodBelow[index] ?? 0) + (entry.good ? 1 : 0)));
  let best: ScoreCeiling = { auc: 0, coverage: 0, low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY };
  for (const lowCut of cuts) {
    const badSide = lowCut - (goodBelow[lowCut] ?? 0);
    if (lowCut > 0 && badSide / lowCut < TARGET_PRECISION) continue;
    for (const highCut of cuts) {
      if (highCut < lowCut) continue;
      const goodSide = goodTotal - (goodBelow[highCut] ?? 0);
      const size = n - highCut;
      if (size > 0 && goodSide / size < TARGET_PRECISION) continue;
      const coverage = (lowCut + size) / Math.max(1, n);
      if (coverage > best.coverage) {
        best = { auc: 0, coverage, low: ranked[lowCut - 1]?.score ?? Number.NEGATIVE_INFINITY, high: ranked[highCut]?.score ?? Number.POSITIVE_INFINITY };
      }
    }
  }
  return { ...best, auc: round(goodTotal === 0 || badTotal === 0 ? 0.5 : pairs / (goodTotal * badTotal)), coverage: round(best.coverage) };
}

/** One line per set: the score's AUC and the ceiling of its coverage at the target precision. */
export function formatCeiling(title: string, sets: readonly { set: string; ceiling: ScoreCeiling }[]): string {
  const lines = [
    `${title} (coverage reachable by any threshold pair at precision ≥ ${TARGET_PRECISION} on both sides, chosen on the set itself)`,
    `${'set'.padEnd(22)} AUC    coverage ceiling  reaches ${TARGET_COVERAGE}`,
  ];
  for (const { set, ceiling } of sets) {
    lines.push(`${set.padEnd(22)} ${ceiling.auc.toFixed(3)}  ${ceiling.coverage.toFixed(3).padEnd(16)}  ${ceiling.coverage >= TARGET_COVERAGE ? 'yes' : 'no'}`);
  }
  return lines.join('\n');
}

/** One line per set: coverage, selective precision (good, bad), ECE, whether the targets hold; then the reliability rows. */
export function formatConfidence(title: string, sets: readonly { set: string; figures: ConfidenceFigures }[]): string {
  const lines = [
    `${title} (confident at ≥ ${CONFIDENT_AT}; targets: precision ≥ ${TARGET_PRECISION} for good and bad, coverage ≥ ${TARGET_COVERAGE})`,
    `${'set'.padEnd(22)} ${'n'.padStart(4)}  coverage  prec.good (n)    prec.bad (n)     ECE    targets  reliability (conf→acc, n)`,
  ];
  for (const { set, figures } of sets) {
    const bins = figures.reliability.map((row) => `${row.confidence.toFixed(2)}→${row.accuracy.toFixed(2)} (${row.n})`).join(', ');
    lines.push(
      `${set.padEnd(22)} ${String(figures.n).padStart(4)}  ${figures.coverage.toFixed(3).padEnd(8)}  ${`${figures.precisionGood.toFixed(3)} (${figures.confidentGood})`.padEnd(15)}  ${`${figures.precisionBad.toFixed(3)} (${figures.confidentBad})`.padEnd(15)}  ${figures.ece.toFixed(3)}  ${(meetsTargets(figures) ? 'met' : 'MISSED').padEnd(7)}  ${bins}`,
    );
  }
  return lines.join('\n');
}

/** One verdict with what its confidence rests on (verdict-confidence.ts's ConfidenceBasis and margin row). */
export interface GroupedVerdict extends ConfidentVerdict {
  basis: string;
  row?: number;
  /** The three-way gold label and status, where the set has one: how often the status, not only the side, is right. */
  status?: { gold: string; predicted: string };
}

export interface ConfidenceGroup {
  /** `margin good ≥ 0.3`, or the basis (`flag`, `key-term`, ...) and the verdict side. */
  group: string;
  n: number;
  /** Mean confidence told, and the share right: a constant of verdict-confidence.ts is the latter, measured. */
  told: number;
  right: number;
  /** Over the members with a three-way gold label, if any: how many, and the share whose status is the gold one. */
  status?: { n: number; right: number };
}

/** Orders group names by name, margin rows by their row (`margin good ≥ 0.15` before `margin good ≥ 0.3`). */
export function compareGroupNames(left: string, right: string): number {
  const rowOf = (group: string): number => Number(/[\d.]+$/u.exec(group)?.[0] ?? 0);
  return left.replace(/[\d.]+$/u, '').localeCompare(right.replace(/[\d.]+$/u, '')) || rowOf(left) - rowOf(right);
}

/**
 * The verdicts pooled over every set, grouped as verdict-confidence.ts reads them (a margin row of a side's table, or
 * the flag or unsure reading that set the confidence): the share right per group is what each constant there
 * states, so this is how they are measured, and re-measured when a rule moves verdicts between groups.
 */
export function confidenceGroups(verdicts: readonly GroupedVerdict[]): ConfidenceGroup[] {
  const groups = new Map<string, GroupedVerdict[]>();
  for (const verdict of verdicts) {
    const group = verdict.basis === 'margin' ? `margin ${verdict.predicted} ≥ ${verdict.row ?? 0}` : `${verdict.basis} (${verdict.predicted})`;
    groups.set(group, [...(groups.get(group) ?? []), verdict]);
  }
  return [...groups]
    .map(([group, members]) => ({
      group,
      n: members.length,
      told: round(members.reduce((sum, member) => sum + member.confidence, 0) / members.length),
      right: round(members.filter((member) => member.gold === member.predicted).length / members.length),
      ...statusShare(members),
    }))
    .sort((left, right) => compareGroupNames(left.group, right.group));
}

function statusShare(members: readonly GroupedVerdict[]): { status?: { n: number; right: number } } {
  const graded = members.flatMap((member) => (member.status === undefined ? [] : [member.status]));
  if (graded.length === 0) return {};
  return { status: { n: graded.length, right: round(graded.filter((status) => status.gold === status.predicted).length / graded.length) } };
}

/**
 * One line per group: n, the confidence told, the share right (the side), and the share whose three-way status is
 * right among those with a three-way label (what an exam tells: verdict-confidence.ts statusConfidence).
 */
export function formatGroups(title: string, groups: readonly ConfidenceGroup[]): string {
  const lines = [title, `${'group'.padEnd(28)} ${'n'.padStart(5)}  told   right   status right (n)`];
  for (const group of groups) {
    const status = group.status === undefined ? '—' : `${group.status.right.toFixed(3)} (${group.status.n})`;
    lines.push(`${group.group.padEnd(28)} ${String(group.n).padStart(5)}  ${group.told.toFixed(2)}   ${group.right.toFixed(3)}   ${status}`);
  }
  return lines.join('\n');
}
