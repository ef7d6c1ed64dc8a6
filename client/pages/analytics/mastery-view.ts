import type { Plugin } from 'chart.js';
import type { MasteryEvidenceReply, MasteryMap } from '../../../src/protocol/wire/analytics.js';
import { element } from '../../ui/dom.js';
import { heatmapSvg } from './chart-svg.js';
import { dataTable, figure, type Figure } from './chart-figure.js';
import { masteryColor, percent } from './format.js';

/**
 * The mastery map: students × chapters as a heatmap (Chart.js matrix), each cell's figure written in it, and the
 * evidence one click away — on the canvas, or on the table's cell buttons for the keyboard and screen readers.
 */

const KIND_NAMES: Record<string, string> = { lecture: '강의 질문', hand: '손 들기', quiz: '퀴즈', exam: '시험' };
/** A fact counting less than 1 says so beside its score (a self-assessed verdict counts ½). */
const weightNote = (weight: number | undefined) => (weight === undefined || weight === 1 ? '' : `, 자기 평가라 ${weight}배로 셈`);
const columnLabel = (chapter: { index: number; title: string }) => (chapter.index < 0 ? chapter.title : `${chapter.index + 1}장 ${chapter.title}`);

/** One cell's facts, as the evidence route answers them. */
export function showEvidence(panel: HTMLElement, reply: MasteryEvidenceReply): void {
  panel.hidden = false;
  panel.replaceChildren(
    element('h3', { text: `${reply.nickname} · ${columnLabel(reply.chapter)} — ${percent(reply.mastery)}` }),
    reply.evidence.length === 0
      ? element('p', { className: 'muted', text: '근거가 없습니다.' })
      : element(
          'ul',
          {},
          ...reply.evidence.map((evidence) =>
            element(
              'li',
              { 'data-testid': 'evidence-item' },
              `[${KIND_NAMES[evidence.kind] ?? evidence.kind}] ${evidence.text} — ${evidence.score === null ? '점수 없음' : percent(evidence.score)} (${evidence.source}${weightNote(evidence.weight)})`,
            ),
          ),
        ),
  );
}

/** Writes each cell's percentage in it (the colours alone are not the figure). */
const cellLabels: Plugin<'matrix'> = {
  id: 'cell-labels',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    const meta = chart.getDatasetMeta(0);
    const points = chart.data.datasets[0]?.data ?? [];
    ctx.save();
    ctx.font = '12px Pretendard, system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#101828';
    meta.data.forEach((shape, index) => {
      const point = points[index] as { v?: number | null } | undefined;
      const props = shape.getProps(['x', 'y', 'width', 'height'], true) as { x: number; y: number; width: number; height: number };
      ctx.fillText(point?.v === undefined || point.v === null ? '—' : percent(point.v), props.x + props.width / 2, props.y + props.height / 2);
    });
    ctx.restore();
  },
};

/** `open(sessionId, chapter)`: shows that cell's evidence (the page fetches it). */
export function masteryFigure(map: MasteryMap, csvHref: string, open: (sessionId: string, chapter: number) => void): Figure<'matrix'> {
  const columns = map.chapters.map(columnLabel);
  const rows = map.students.map((student) => student.nickname);
  const data = map.students.flatMap((student, row) => student.cells.map((cell, column) => ({ x: columns[column]!, y: rows[row]!, v: cell.mastery as number, row, column })));
  const table = dataTable(
    '학생별·장별 이해도',
    ['학생', ...columns],
    map.students.map((student) => [
      student.nickname,
      ...student.cells.map((cell, column) => {
        const button = element('button', { type: 'button', className: 'cell', 'data-testid': 'mastery-cell', text: percent(cell.mastery) });
        button.setAttribute('aria-label', `${student.nickname} ${columns[column]} ${percent(cell.mastery)}, 근거 ${cell.evidenceCount}개 보기`);
        button.addEventListener('click', () => open(student.sessionId, map.chapters[column]!.index));
        return button;
      }),
    ]),
  );
  const built = figure({
    name: 'mastery',
    caption: '이해도 지도 (학생 × 장)',
    summary: `학생 ${rows.length}명 × ${columns.length}개 장의 이해도 색 지도. 칸마다 백분율이 적혀 있고, 표에서 칸을 누르면 근거가 나옵니다.`,
    table,
    csvHref,
    height: Math.max(200, 80 + rows.length * 40),
    svg: () =>
      heatmapSvg('이해도 지도', rows, columns, (row, column) => {
        const mastery = map.students[row]?.cells[column]?.mastery ?? null;
        return { color: masteryColor(mastery), text: percent(mastery) };
      }),
    config: {
      type: 'matrix',
      data: {
        datasets: [
          {
            label: '이해도',
            data,
            backgroundColor: (context) => masteryColor((context.raw as { v: number | null } | undefined)?.v ?? null),
            borderColor: '#ffffff',
            borderWidth: 1,
            width: ({ chart }) => (chart.chartArea?.width ?? 0) / Math.max(1, columns.length) - 2,
            height: ({ chart }) => (chart.chartArea?.height ?? 0) / Math.max(1, rows.length) - 2,
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { display: false }, tooltip: { enabled: false } },
        scales: {
          x: { type: 'category', labels: columns, offset: true, position: 'top', grid: { display: false } },
          y: { type: 'category', labels: rows, offset: true, reverse: false, grid: { display: false } },
        },
        onClick: (_event, elements) => {
          const hit = elements[0];
          const point = hit ? (data[hit.index] as { row: number; column: number } | undefined) : undefined;
          if (point) open(map.students[point.row]!.sessionId, map.chapters[point.column]!.index);
        },
      },
      plugins: [cellLabels],
    },
  });
  return built;
}
