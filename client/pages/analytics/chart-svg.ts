/**
 * The analytics charts as SVG files: the same figures Chart.js draws on the canvas, written as vector shapes (Chart.js
 * draws only to canvas). Built as text, every label escaped: names and questions are people's text.
 */

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
const FONT = 'font-family="Pretendard, sans-serif" font-size="12"';

export interface BarSeries {
  label: string;
  color: string;
  values: (number | null)[];
}

/** Grouped vertical bars: one group per label, one bar per series, the value axis from `min` to `max`. */
export function barChartSvg(title: string, labels: readonly string[], series: readonly BarSeries[], range: { min: number; max: number }): string {
  const width = Math.max(480, 80 + labels.length * (series.length * 18 + 24));
  const height = 360;
  const left = 56;
  const top = 40;
  const plotHeight = 240;
  const plotWidth = width - left - 16;
  const y = (value: number) => top + plotHeight - ((value - range.min) / (range.max - range.min || 1)) * plotHeight;
  const group = plotWidth / Math.max(1, labels.length);
  const bar = Math.min(18, (group - 12) / Math.max(1, series.length));
  const parts: string[] = [`<rect width="${width}" height="${height}" fill="#fff"/>`, `<text x="${left}" y="22" ${FONT} font-weight="bold">${escape(title)}</text>`];
  for (const tick of [range.min, (range.min + range.max) / 2, range.max]) {
    parts.push(`<line x1="${left}" x2="${width - 16}" y1="${y(tick)}" y2="${y(tick)}" stroke="#e4e7ec"/>`, `<text x="${left - 6}" y="${y(tick) + 4}" text-anchor="end" ${FONT}>${Math.round(tick * 100) / 100}</text>`);
  }
  labels.forEach((label, index) => {
    const start = left + index * group + (group - bar * series.length) / 2;
    series.forEach((entry, position) => {
      const value = entry.values[index];
      if (value === null || value === undefined) return;
      const base = y(Math.max(range.min, Math.min(0, range.max)));
      const end = y(value);
      parts.push(`<rect x="${start + position * bar}" y="${Math.min(base, end)}" width="${bar - 2}" height="${Math.abs(base - end)}" fill="${entry.color}"><title>${escape(`${entry.label} ${label}: ${value}`)}</title></rect>`);
    });
    parts.push(`<text x="${left + index * group + group / 2}" y="${top + plotHeight + 16}" text-anchor="middle" ${FONT}>${escape(label)}</text>`);
  });
  series.forEach((entry, position) => {
    const x = left + position * 150;
    parts.push(`<rect x="${x}" y="${height - 30}" width="12" height="12" fill="${entry.color}"/>`, `<text x="${x + 16}" y="${height - 20}" ${FONT}>${escape(entry.label)}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}

/** A grid of coloured cells with their text: rows × columns. */
export function heatmapSvg(title: string, rows: readonly string[], columns: readonly string[], cell: (row: number, column: number) => { color: string; text: string }): string {
  const left = 120;
  const top = 60;
  const size = { width: 96, height: 32 };
  const width = left + columns.length * size.width + 16;
  const height = top + rows.length * size.height + 16;
  const parts: string[] = [`<rect width="${width}" height="${height}" fill="#fff"/>`, `<text x="8" y="22" ${FONT} font-weight="bold">${escape(title)}</text>`];
  columns.forEach((column, index) => parts.push(`<text x="${left + index * size.width + size.width / 2}" y="${top - 8}" text-anchor="middle" ${FONT}>${escape(column.slice(0, 14))}</text>`));
  rows.forEach((row, rowIndex) => {
    parts.push(`<text x="${left - 8}" y="${top + rowIndex * size.height + 20}" text-anchor="end" ${FONT}>${escape(row)}</text>`);
    columns.forEach((_, columnIndex) => {
      const { color, text } = cell(rowIndex, columnIndex);
      const x = left + columnIndex * size.width;
      const yTop = top + rowIndex * size.height;
      parts.push(
        `<rect x="${x}" y="${yTop}" width="${size.width - 2}" height="${size.height - 2}" fill="${color}"/>`,
        `<text x="${x + size.width / 2}" y="${yTop + 20}" text-anchor="middle" ${FONT}>${escape(text)}</text>`,
      );
    });
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}
