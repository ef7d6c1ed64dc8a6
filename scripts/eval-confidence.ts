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
