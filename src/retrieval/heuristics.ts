import { idf, type LexicalIndex } from './bm25.js';
import { LEVELS, type DocumentType, type Level } from './metadata.js';

/**
 * The offline passage classifier: deterministic rules used when no model with structured output is configured (and
 * for any passage the analyst agent did not label).
 *
 * Document type: cue words and patterns in Korean and English, each worth a weight per occurrence (at most three
 * occurrences of one cue count). The type with the highest total wins when it reaches CUE_THRESHOLD; ties go to the
 * earlier type in CUE_PRIORITY (the more specific one); a passage with no clear cue is an `explanation`.
 *
 * Level: a difficulty score per passage from three signals, each turned into its percentile among the material's
 * passages so no unit or scale dominates — position in the material (later passages build on earlier ones: 0.4),
 * mean sentence length (0.3) and term rarity (mean IDF of the passage's distinct terms within the material: a passage
 * full of terms used nowhere else introduces new vocabulary: 0.3). Passages are then split into thirds by that
 * score: the easiest third `beginner`, the middle `working`, the hardest `manager`. Thirds rather than fixed
 * thresholds, so every material has passages at every level and a difficulty filter never comes back empty on a
 * material of three passages or more.
 */

interface Cue {
  type: DocumentType;
  pattern: RegExp;
  weight: number;
}

const CUES: readonly Cue[] = [
  // Definitions: `X란`, `X(이)라고 한다`, `정의`, `is defined as`, `refers to`.
  { type: 'definition', pattern: /\S(?:이)?란\s|(?:이)?라고\s*(?:한다|합니다|부른다|부릅니다)|정의(?:한다|합니다|하면|는|:)|뜻한다|뜻합니다|의미한다|의미합니다/gu, weight: 2 },
  { type: 'definition', pattern: /\bis defined as\b|\bare defined as\b|\brefers? to\b|\bis called\b|\bare called\b|\bdefinition\b|\bmeans\b/gu, weight: 2 },
  { type: 'example', pattern: /예를 들(?:어|면)|예시|예제|(?:^|\s)예\s*[:：)]|이를테면/gu, weight: 2 },
  { type: 'example', pattern: /\bfor example\b|\bfor instance\b|\be\.g\.|\bexample\b|\bsuppose\b/gu, weight: 2 },
  { type: 'common_mistake', pattern: /흔한 실수|실수|오해|착각|주의(?:할|해야|하세요|점|사항)?|잘못|오류|혼동/gu, weight: 2 },
  { type: 'common_mistake', pattern: /\bmistakes?\b|\bpitfalls?\b|\bmisconceptions?\b|\bcommon errors?\b|\bbeware\b|\bavoid\b|\bwrongly\b|\bconfuse[ds]?\b/gu, weight: 2 },
  { type: 'procedure', pattern: /절차|단계|순서(?:대로|는|로)|먼저|다음으로|그다음|마지막으로|\d+\s*단계/gu, weight: 1.5 },
  { type: 'procedure', pattern: /\bsteps?\b|\bprocedures?\b|\bfirst,|\bsecond,|\bnext,|\bfinally,|\bthen\b/gu, weight: 1.5 },
  { type: 'error_checklist', pattern: /체크리스트|점검|확인(?:할|해야 할) (?:사항|항목|것)|확인 사항|검토 항목|□|☐|✓/gu, weight: 2 },
  { type: 'error_checklist', pattern: /\bchecklists?\b|\bcheck (?:that|whether|the)\b|\bverify\b|\bmake sure\b/gu, weight: 2 },
  { type: 'case', pattern: /사례|실제로|케이스|[a-z]사(?:는|의|가)/gu, weight: 1.5 },
  { type: 'case', pattern: /\bcase stud(?:y|ies)\b|\bin one case\b|\bincident\b|\bin practice\b/gu, weight: 1.5 },
  { type: 'guideline', pattern: /권장|권고|지침|가이드라인|바람직|해야 한다|해야 합니다|하는 것이 좋/gu, weight: 1 },
  { type: 'guideline', pattern: /\bshould\b|\brecommend(?:ed|s)?\b|\bguidelines?\b|\bbest practices?\b|\bmust\b/gu, weight: 1 },
  {
    type: 'country_guideline',
    pattern: /(?:미국|중국|일본|베트남|인도|유럽|유럽연합|독일|영국|한국|국가별|각국|현지|수입국|수출국)(?:에서는|의 경우|으로|에|은|는|의)/gu,
    weight: 2,
  },
  {
    type: 'country_guideline',
    pattern: /\bin (?:the )?(?:us|usa|united states|china|japan|eu|european union|europe|uk|korea|vietnam|india|germany)\b|\bcountry[- ]specific\b|\bby country\b/gu,
    weight: 2,
  },
  { type: 'negotiation_strategy', pattern: /협상|양보|결렬|상대방의 제안|batna/gu, weight: 2 },
  { type: 'negotiation_strategy', pattern: /\bnegotiat\w*|\bbargain\w*|\bconcessions?\b|\bbatna\b|\bcounter-?offers?\b/gu, weight: 2 },
];

/** Earlier wins a tie: the more specific reading of a passage. */
const CUE_PRIORITY: readonly DocumentType[] = [
  'common_mistake',
  'error_checklist',
  'negotiation_strategy',
  'country_guideline',
  'case',
  'procedure',
  'definition',
  'example',
  'guideline',
  'explanation',
];

const CUE_THRESHOLD = 2;
const MAX_HITS_PER_CUE = 3;

/** Cue totals of a passage per type (exported for tests and for people tuning the cues). */
export function cueScores(text: string): Map<DocumentType, number> {
  const lower = text.normalize('NFKC').toLowerCase();
  const scores = new Map<DocumentType, number>();
  for (const cue of CUES) {
    const hits = Math.min(MAX_HITS_PER_CUE, lower.match(cue.pattern)?.length ?? 0);
    if (hits > 0) scores.set(cue.type, (scores.get(cue.type) ?? 0) + hits * cue.weight);
  }
  return scores;
}

/** The document type the cues point to, `explanation` when none is clear. */
export function heuristicDocumentType(text: string): DocumentType {
  const scores = cueScores(text);
  let best: DocumentType = 'explanation';
  let bestScore = CUE_THRESHOLD - Number.EPSILON;
  for (const type of CUE_PRIORITY) {
    const score = scores.get(type) ?? 0;
    if (score > bestScore) {
      best = type;
      bestScore = score;
    }
  }
  return best;
}

/** Percentile of each value among all (ties share their mean rank), in [0, 1]. */
function percentiles(values: readonly number[]): number[] {
  if (values.length <= 1) return values.map(() => 0);
  const order = values.map((value, index) => ({ value, index })).sort((left, right) => left.value - right.value);
  const result = new Array<number>(values.length).fill(0);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.value === order[start]?.value) end++;
    const rank = (start + end) / 2 / (values.length - 1);
    for (let at = start; at <= end; at++) result[order[at]?.index ?? 0] = rank;
    start = end + 1;
  }
  return result;
}

export interface LevelInput {
  text: string;
  sentences: number;
}

/** Levels of a material's passages, in order (see the file comment for the rules). */
export function heuristicLevels(chunks: readonly LevelInput[], lexical: LexicalIndex): Level[] {
  const count = chunks.length;
  if (count === 0) return [];
  const frequency = new Uint32Array(lexical.terms.length);
  for (let at = 0; at < lexical.postings.length; at += 2) {
    const term = lexical.postings[at] ?? 0;
    frequency[term] = (frequency[term] ?? 0) + 1;
  }
  const rarity = chunks.map((_, chunk) => {
    const start = lexical.offsets[chunk] ?? 0;
    const end = lexical.offsets[chunk + 1] ?? 0;
    let sum = 0;
    for (let at = start; at < end; at++) sum += idf(frequency[lexical.postings[2 * at] ?? 0] ?? 0, count);
    return end > start ? sum / (end - start) : 0;
  });
  const position = percentiles(chunks.map((_, index) => index));
  const sentenceLength = percentiles(chunks.map((chunk) => chunk.text.length / Math.max(1, chunk.sentences)));
  const rare = percentiles(rarity);
  const score = chunks.map((_, index) => 0.4 * (position[index] ?? 0) + 0.3 * (sentenceLength[index] ?? 0) + 0.3 * (rare[index] ?? 0));
  const order = score.map((value, index) => ({ value, index })).sort((left, right) => left.value - right.value || left.index - right.index);
  const levels = new Array<Level>(count).fill('beginner');
  for (const [rank, { index }] of order.entries()) levels[index] = LEVELS[Math.min(2, Math.floor((rank * 3) / count))] ?? 'beginner';
  return levels;
}
