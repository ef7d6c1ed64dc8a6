/** How the 분석 page writes its figures: the same text in the chart labels, the tables and the tests' checks. */

/** 0.6667 -> "66.7%"; null -> "—". */
export const percent = (value: number | null): string => (value === null ? '—' : `${(Math.round(value * 1000) / 10).toFixed(1)}%`);

/** 0.77302 -> "0.773"; null -> "—". */
export const decimal = (value: number | null): string => (value === null ? '—' : (Math.round(value * 1000) / 1000).toFixed(3));

export const FLAG_NAMES: Record<string, string> = {
  'negative-discrimination': '변별도 음수 (정답 확인)',
  'distractor-beats-key': '오답 보기가 정답보다 많이 선택됨',
  'low-discrimination': '변별도 낮음',
  'too-hard': '너무 어려움',
  'too-easy': '너무 쉬움',
};

/** Red (0) through amber to green (1); grey for no evidence. Each step also differs in lightness, not only hue. */
export function masteryColor(value: number | null): string {
  if (value === null) return '#eaecf0';
  if (value < 0.4) return '#f97066';
  if (value < 0.7) return '#fdb022';
  return '#32d583';
}
