import type { Plugin } from 'chart.js';
import { ITEM_TYPE_NAMES, type AssessmentAnalysis } from '../../../src/protocol/wire/analytics.js';
import { element } from '../../ui/dom.js';
import { barChartSvg } from './chart-svg.js';
import { dataTable, figure, type Figure } from './chart-figure.js';
import { decimal, FLAG_NAMES, percent } from './format.js';

/**
 * Item analysis of one room or exam: difficulty and discrimination per item (bars, flagged items marked ⚠), the
 * choice counts of a room's items (stacked bars, the key in green), and the review list worst first.
 */

const label = (number: number, flagged: boolean) => `${number}번${flagged ? ' ⚠' : ''}`;

/** A room item's type beside its number, where it is not the plain 4-choice one (its figures read differently). */
const numbered = (item: { number: number; type?: string }) => {
  const type = item.type === undefined ? undefined : ITEM_TYPE_NAMES[item.type];
  return type === undefined ? `${item.number}번` : `${item.number}번 (${type})`;
};

export function itemsFigure(assessment: AssessmentAnalysis, csvHref: string): Figure<'bar'> {
  const labels = assessment.items.map((item) => label(item.number, item.flags.length > 0));
  const difficulty = assessment.items.map((item) => item.difficulty);
  const discrimination = assessment.items.map((item) => item.discrimination);
  const table = dataTable(
    `${assessment.title} 문항 분석`,
    ['문항', '문제', '응답자', '정답률', '변별도', '무응답', '검토'],
    assessment.items.map((item) => [
      numbered(item),
      item.question,
      String(item.respondents),
      percent(item.difficulty),
      decimal(item.discrimination),
      String(item.unanswered),
      item.flags.map((flag) => FLAG_NAMES[flag] ?? flag).join(', '),
    ]),
  );
  return figure({
    name: 'items',
    caption: `${assessment.title}: 정답률과 변별도`,
    summary: `${assessment.title}의 문항 ${assessment.items.length}개의 정답률과 변별도 막대그래프. 검토가 필요한 문항 ${assessment.review.length}개.`,
    table,
    csvHref,
    svg: () =>
      barChartSvg(`${assessment.title}: 정답률과 변별도`, labels, [
        { label: '정답률', color: '#2e90fa', values: difficulty },
        { label: '변별도', color: '#7a5af8', values: discrimination },
      ], { min: -1, max: 1 }),
    config: {
      type: 'bar',
      data: {
        labels,
        datasets: [
          { label: '정답률', data: difficulty, backgroundColor: '#2e90fa' },
          { label: '변별도', data: discrimination, backgroundColor: '#7a5af8' },
        ],
      },
      options: { responsive: true, maintainAspectRatio: false, scales: { y: { min: -1, max: 1 } } },
    },
  });
}

/** Writes "2번 4" in each non-empty segment: which choice it is and how many chose it, not colour alone. */
const segmentLabels: Plugin<'bar'> = {
  id: 'segment-labels',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.font = '12px Pretendard, system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#ffffff';
    chart.data.datasets.forEach((dataset, datasetIndex) => {
      const meta = chart.getDatasetMeta(datasetIndex);
      if (meta.hidden) return;
      meta.data.forEach((bar, index) => {
        const value = dataset.data[index];
        if (typeof value !== 'number' || value <= 0) return;
        const { x, y, base } = bar.getProps(['x', 'y', 'base'], true) as { x: number; y: number; base: number };
        if (Math.abs(base - y) < 14) return;
        ctx.fillText(`${datasetIndex + 1}번 ${value}`, x, (y + base) / 2);
      });
    });
    ctx.restore();
  },
};

/** A room's choice counts (null for an exam: its items have no choices). */
export function choicesFigure(assessment: AssessmentAnalysis, csvHref: string): Figure<'bar'> | null {
  const withChoices = assessment.items.filter((item) => item.choices !== undefined);
  if (withChoices.length === 0) return null;
  const width = Math.max(...withChoices.map((item) => item.choices!.length));
  const labels = withChoices.map((item) => `${item.number}번`);
  const series = Array.from({ length: width }, (_, index) => ({
    label: `${index + 1}번 보기`,
    values: withChoices.map((item) => item.choices![index]?.count ?? null),
    keys: withChoices.map((item) => item.choices![index]?.correct === true),
  }));
  const shades = ['#98a2b3', '#667085', '#475467', '#344054', '#1d2939', '#101828'];
  const table = dataTable(
    `${assessment.title} 보기별 선택`,
    ['문항', ...Array.from({ length: width }, (_, index) => `${index + 1}번 보기`), '무응답'],
    withChoices.map((item) => [
      numbered(item),
      ...Array.from({ length: width }, (_, index) => {
        const choice = item.choices![index];
        return choice ? `${choice.count}${choice.correct ? ' (정답)' : ''}` : '—';
      }),
      String(item.unanswered),
    ]),
  );
  return figure({
    name: 'choices',
    caption: `${assessment.title}: 보기별 선택 (정답은 초록 테두리)`,
    summary: `${assessment.title}의 문항마다 각 보기를 고른 학생 수 누적 막대그래프. 정답 보기는 초록 테두리.`,
    table,
    csvHref,
    svg: () =>
      barChartSvg(
        `${assessment.title}: 보기별 선택`,
        labels,
        series.map((entry, index) => ({ label: entry.label, color: shades[index % shades.length]!, values: entry.values })),
        { min: 0, max: Math.max(1, ...withChoices.flatMap((item) => item.choices!.map((choice) => choice.count))) },
      ),
    config: {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((entry, index) => ({
          label: entry.label,
          data: entry.values,
          backgroundColor: shades[index % shades.length]!,
          // The key's segment is outlined green (and named in the table): shape and text as well as colour.
          borderColor: entry.keys.map((key) => (key ? '#12b76a' : 'rgba(0, 0, 0, 0)')),
          borderWidth: entry.keys.map((key) => (key ? 4 : 0)),
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
        // The legend names the choices by their fill (the key's outline differs per item, so it has no legend entry).
        plugins: {
          legend: {
            labels: {
              generateLabels: (chart) =>
                series.map((entry, index) => ({ text: entry.label, fillStyle: shades[index % shades.length]!, strokeStyle: shades[index % shades.length]!, lineWidth: 0, datasetIndex: index, hidden: !chart.isDatasetVisible(index) })),
            },
          },
        },
      },
      plugins: [segmentLabels],
    },
  });
}

export function reviewList(assessment: AssessmentAnalysis): HTMLElement {
  if (assessment.review.length === 0) return element('p', { className: 'muted', text: '검토가 필요한 문항이 없습니다.' });
  const byNumber = new Map(assessment.items.map((item) => [item.number, item]));
  return element(
    'div',
    {},
    element('h3', { text: '검토가 필요한 문항 (나쁜 순서)' }),
    element(
      'ol',
      { className: 'review-list' },
      ...assessment.review.map((number) => {
        const item = byNumber.get(number)!;
        return element(
          'li',
          { 'data-testid': 'review-item' },
          `${number}번 `,
          ...item.flags.map((flag) => element('span', { className: 'flag', text: FLAG_NAMES[flag] ?? flag })),
          ` ${item.question} — 정답률 ${percent(item.difficulty)}, 변별도 ${decimal(item.discrimination)}`,
        );
      }),
    ),
  );
}
