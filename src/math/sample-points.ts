import { type Rational, rational } from './rational.js';
import { mulberry32 } from './seeded-random.js';

/**
 * Where expressions are compared: the same points for every check (a fixed seed), so a verdict never depends on
 * the call order or the time of day. Coordinates are decimals with six places, exact as rationals (for the exact
 * check) and close to exact as doubles; most are small, some negative, a few large, none an integer or a simple
 * fraction (where sin πx or x − ⌊x⌋ would look like something else).
 */
export interface SamplePoint {
  approx: Map<string, number>;
  exact: Map<string, Rational>;
}

const SEED = 0x6c656374; // "lect"
export const SAMPLE_COUNT = 12;

const cache = new Map<string, SamplePoint[]>();

/** Points for these variables, in a stable order (the names are sorted first). Callers must not change them. */
export function samplePoints(variables: Iterable<string>): SamplePoint[] {
  const names = [...variables].sort();
  const key = names.join(' ');
  const known = cache.get(key);
  if (known !== undefined) return known;
  const points = makePoints(names, SAMPLE_COUNT);
  // Variable names are one letter with a short subscript, so the cache stays small; bound it anyway.
  if (cache.size > 500) cache.clear();
  cache.set(key, points);
  return points;
}

function makePoints(names: string[], count: number): SamplePoint[] {
  const next = mulberry32(SEED);
  const points: SamplePoint[] = [];
  for (let index = 0; index < count; index++) {
    const approx = new Map<string, number>();
    const exact = new Map<string, Rational>();
    for (const name of names) {
      // 0–4: positive in (0.1, 3) (domains of ln and √); 5–8: either sign; 9–11: either sign, up to 20.
      const large = index >= 9;
      const magnitude = large ? 3 + next() * 17 : 0.1 + next() * 2.9;
      const negative = index >= 5 && next() < 0.5;
      const millionths = BigInt(Math.round(magnitude * 1e6)) | 1n; // odd: never a round number
      const value = rational(negative ? -millionths : millionths, 1_000_000n);
      if (value === undefined) continue;
      exact.set(name, value);
      approx.set(name, Number(value.n) / 1e6);
    }
    points.push({ approx, exact });
  }
  return points;
}
