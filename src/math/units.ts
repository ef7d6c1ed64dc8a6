/**
 * Units at the end of an answer (`12 cm`, `5개`, `1,500원`, `30%`). A unit is taken off only when what is left is
 * a number (no variable), so `2m` is two metres but `2m + 1` stays an expression in m.
 */
export type UnitKind = 'counter' | 'measure' | 'percent';

export interface Unit {
  name: string;
  kind: UnitKind;
}

/** Korean counters and currency: no scale, so a bare number means the same count. */
const COUNTERS = [
  '개', '명', '마리', '권', '장', '자루', '송이', '대', '가지', '번', '회', '켤레', '쌍', '척', '그루', '살', '세', '층',
  '쪽', '칸', '줄', '병', '잔', '봉지', '상자', '묶음', '배', '점', '원', '등', '벌', '채', '통', '판', '곳', '명분', '인분',
];

/** Units with a scale (centimetres are not metres): one-sided, the bare number could be in any of them. */
const MEASURES = [
  'mm', 'cm', 'km', 'm', 'mm^2', 'cm^2', 'm^2', 'km^2', 'cm^3', 'm^3', 'mL', 'ml', 'L', 'l', 'mg', 'g', 'kg', 't',
  'km/h', 'm/s', 'cm/s', 'km/L', 'a', 'ha', 's', 'sec', 'min', 'h', 'hr',
  '초', '분', '시간', '일', '주', '개월', '달', '년', '시', '℃', '°C',
];

const PERCENT = ['%', '\\%', '퍼센트', '프로'];

interface UnitPattern {
  pattern: RegExp;
  unit: Unit;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** cm^2, cm^{2} and cm2 (what NFKC makes of ㎠) are one unit. */
function spellings(name: string): string {
  const [base, power] = name.split('^');
  if (power === undefined) return escape(name);
  return `${escape(base ?? '')}(?:\\^\\{?${power}\\}?|${power})`;
}

const PATTERNS: UnitPattern[] = [
  ...PERCENT.map((name) => ({ name, unit: { name: '%', kind: 'percent' as const } })),
  ...COUNTERS.map((name) => ({ name, unit: { name, kind: 'counter' as const } })),
  ...MEASURES.map((name) => ({ name, unit: { name: name.toLowerCase() === 'l' ? 'L' : name.replace('°C', '℃'), kind: 'measure' as const } })),
]
  // Longest first, so `cm` is not read as `m` after a `c`.
  .sort((a, b) => b.name.length - a.name.length)
  // The unit must not continue a word or a command (`\\alpha` does not end in the unit `a`).
  .map(({ name, unit }) => ({ pattern: new RegExp(`^(.*?)\\s*(?<![A-Za-z\\\\])(?:${spellings(name)})$`, 's'), unit }));

/** A number with nothing else: digits, sign, decimal point, thousands commas and LaTeX commands (\frac, \sqrt, \pi). */
function isNumeric(text: string): boolean {
  const stripped = text.replace(/\\[A-Za-z]+/g, '').trim();
  return stripped !== '' && /\d/.test(stripped) && !/[A-Za-z\u3131-\u318e\uac00-\ud7a3]/.test(stripped);
}

/** Splits `12 cm` into `12` and the unit; the text unchanged when it has none. */
export function splitUnit(text: string): { text: string; unit?: Unit } {
  for (const { pattern, unit } of PATTERNS) {
    const match = pattern.exec(text);
    if (match && isNumeric(match[1] ?? '')) return { text: (match[1] ?? '').trim(), unit };
  }
  return { text };
}

/** Two letters that are a unit name or a short word, never a product of two variables. */
export const TWO_LETTER_WORDS = new Set([
  'cm', 'mm', 'km', 'kg', 'mg', 'ml', 'ha', 'hr', 'no', 'on', 'is', 'if', 'at', 'to', 'or', 'an', 'of', 'in', 'it', 'as',
  'be', 'by', 'do', 'go', 'he', 'me', 'my', 'so', 'up', 'us', 'we', 'am', 'ok',
]);
