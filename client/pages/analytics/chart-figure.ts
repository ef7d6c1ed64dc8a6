import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartConfiguration, type ChartType, type Plugin } from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import { element } from '../../ui/dom.js';

/**
 * One chart of the 분석 page: a Chart.js canvas (bundled by esbuild, no CDN) with the same figures as a table for
 * screen readers (always in the page; "표로 보기" shows it to everyone), and its exports: PNG (the canvas), SVG
 * (chart-svg.ts) and CSV (the server's). Only the parts of Chart.js the page uses are registered, which keeps the
 * bundle small; animation is off (instant figures, nothing moves for people who asked for reduced motion).
 */
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip, MatrixController, MatrixElement);
Chart.defaults.animation = false;
Chart.defaults.font.family = 'Pretendard, system-ui, sans-serif';

/** A white page under the chart, so the PNG is readable on any background. */
export const whiteBackground: Plugin = {
  id: 'white-background',
  beforeDraw(chart) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
};

export interface FigureOptions<T extends ChartType> {
  /** Used for test ids and file names: `items`, `choices`, `mastery`, `funnel`. */
  name: string;
  caption: string;
  /** What the chart shows, in one sentence (the canvas's accessible name). */
  summary: string;
  config: ChartConfiguration<T>;
  table: HTMLTableElement;
  svg: () => string;
  csvHref: string;
  /** Canvas height in CSS pixels. */
  height?: number;
}

export interface Figure<T extends ChartType> {
  node: HTMLElement;
  chart: Chart<T>;
  destroy(): void;
}

function save(href: string, filename: string): void {
  const link = element('a', { href, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
}

export function figure<T extends ChartType>(options: FigureOptions<T>): Figure<T> {
  const canvas = element('canvas', { role: 'img', 'aria-label': options.summary, 'data-testid': `${options.name}-canvas` });
  const holder = element('div', { className: 'chart-canvas' }, canvas);
  holder.style.height = `${options.height ?? 320}px`;
  const tableHolder = element('div', { className: 'visually-hidden', 'data-testid': `${options.name}-table-holder` }, options.table);
  options.table.classList.add('chart-table');
  options.table.dataset.testid = `${options.name}-table`;
  const toggle = element('button', { type: 'button', className: 'secondary', 'aria-expanded': 'false', 'data-testid': `${options.name}-show-table`, text: '표로 보기' });
  toggle.addEventListener('click', () => {
    const shown = tableHolder.classList.toggle('visually-hidden') === false;
    toggle.textContent = shown ? '표 숨기기' : '표로 보기';
    toggle.setAttribute('aria-expanded', String(shown));
  });
  const png = element('button', { type: 'button', className: 'secondary', 'data-testid': `${options.name}-png`, text: 'PNG 저장' });
  const svg = element('button', { type: 'button', className: 'secondary', 'data-testid': `${options.name}-svg`, text: 'SVG 저장' });
  const csv = element('a', { className: 'button secondary', href: options.csvHref, download: '', 'data-testid': `${options.name}-csv`, text: 'CSV 내려받기' });
  const config = { ...options.config, plugins: [...(options.config.plugins ?? []), whiteBackground] } as ChartConfiguration<T>;
  const chart = new Chart<T>(canvas, config);
  png.addEventListener('click', () => save(chart.toBase64Image('image/png'), `${options.name}.png`));
  svg.addEventListener('click', () => {
    const href = URL.createObjectURL(new Blob([options.svg()], { type: 'image/svg+xml' }));
    save(href, `${options.name}.svg`);
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  });
  const node = element(
    'figure',
    { className: 'chart-figure', 'data-testid': `${options.name}-figure` },
    element('figcaption', { text: options.caption }),
    holder,
    element('div', { className: 'chart-actions' }, toggle, png, svg, csv),
    tableHolder,
  );
  return { node, chart, destroy: () => chart.destroy() };
}

/** A table with a caption, a header row and body rows of cells (text or nodes). */
export function dataTable(caption: string, header: readonly string[], rows: readonly (readonly (string | Node)[])[]): HTMLTableElement {
  const headerRow = element('tr', {}, ...header.map((text) => element('th', { scope: 'col', text } as Record<string, string>)));
  const body = rows.map((cells) =>
    element(
      'tr',
      {},
      ...cells.map((cell, index) => {
        if (index === 0) return element('th', { scope: 'row' } as Record<string, string>, cell);
        const numeric = typeof cell === 'string' && /^-?[\d.]+%?$/.test(cell);
        return element('td', numeric ? { className: 'number' } : {}, cell);
      }),
    ),
  );
  return element('table', {}, element('caption', { className: 'visually-hidden', text: caption }), element('thead', {}, headerRow), element('tbody', {}, ...body));
}
