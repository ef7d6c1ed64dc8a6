import type { LectureFunnel } from '../../../src/protocol/wire/analytics.js';
import { barChartSvg } from './chart-svg.js';
import { dataTable, figure, type Figure } from './chart-figure.js';

/** The lecture funnel: per chapter, students who started and finished it, raised hands, students remediated. */
export function funnelFigure(funnel: LectureFunnel, csvHref: string): Figure<'bar'> {
  const labels = funnel.steps.map((step) => `${step.chapter + 1}장`);
  const series = [
    { label: '시작한 학생', color: '#84caff', values: funnel.steps.map((step) => step.reached) },
    { label: '마친 학생', color: '#1570ef', values: funnel.steps.map((step) => step.completed) },
    { label: '손들기', color: '#fdb022', values: funnel.steps.map((step) => step.hands) },
    { label: '보충 설명 학생', color: '#f04438', values: funnel.steps.map((step) => step.remediated) },
  ];
  const table = dataTable(
    '장별 강의 진행',
    ['장', '제목', '시작한 학생', '마친 학생', '손들기', '손든 학생', '보충 설명 학생'],
    funnel.steps.map((step) => [`${step.chapter + 1}장`, step.title, String(step.reached), String(step.completed), String(step.hands), String(step.handStudents), String(step.remediated)]),
  );
  return figure({
    name: 'funnel',
    caption: `강의 진행 (학생 ${funnel.students}명)`,
    summary: `학생 ${funnel.students}명이 장마다 어디까지 왔는지, 어디서 손을 들고 보충 설명을 받았는지 보여 주는 막대그래프.`,
    table,
    csvHref,
    svg: () => barChartSvg('강의 진행', labels, series, { min: 0, max: Math.max(1, funnel.students, ...funnel.steps.map((step) => step.hands)) }),
    config: {
      type: 'bar',
      data: { labels, datasets: series.map((entry) => ({ label: entry.label, data: entry.values, backgroundColor: entry.color })) },
      // The scale is the class: a bar's height reads as a share of all students.
      options: { responsive: true, maintainAspectRatio: false, scales: { y: { beginAtZero: true, suggestedMax: funnel.students, ticks: { precision: 0 } } } },
    },
  });
}
