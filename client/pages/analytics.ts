// 분석 (class analytics) for the class's instructor: item analysis of every quiz room and exam, the mastery map of
// students × chapters with its evidence, and the lecture funnel — each a Chart.js chart with its table, PNG, SVG and
// CSV. One GET (`/api/analytics/classes/:classId`, the owner's session cookie); every name and question is textContent.
import type { AssessmentAnalysis, ClassAnalyticsReply, MasteryEvidenceReply } from '../../src/protocol/wire/analytics.js';
import { apiJson, requestFailure } from '../net/http.js';
import { requireSignedIn } from '../ui/account-header.js';
import { $, element } from '../ui/dom.js';
import type { Figure } from './analytics/chart-figure.js';
import { funnelFigure } from './analytics/funnel-view.js';
import { choicesFigure, itemsFigure, reviewList } from './analytics/items-view.js';
import { masteryFigure, showEvidence } from './analytics/mastery-view.js';

const classId = new URLSearchParams(location.search).get('class') ?? '';
const base = `/api/analytics/classes/${encodeURIComponent(classId)}`;
const status = $('analytics-status');
const errorLine = $('analytics-error');
const select = $<HTMLSelectElement>('assessment-select');
const itemFigures: Figure<'bar'>[] = [];

const kindName = (assessment: AssessmentAnalysis) => (assessment.kind === 'room' ? '퀴즈' : '시험');
const dateOf = (at: number) => new Date(at).toLocaleDateString('ko-KR');

function showAssessment(assessment: AssessmentAnalysis | undefined): void {
  for (const built of itemFigures.splice(0)) built.destroy();
  const itemsHolder = $('items-chart');
  const choicesHolder = $('choices-chart');
  const review = $('review-list');
  itemsHolder.replaceChildren();
  choicesHolder.replaceChildren();
  review.replaceChildren();
  if (!assessment) return;
  const items = itemsFigure(assessment, `${base}/items.csv`);
  itemsHolder.append(items.node);
  itemFigures.push(items);
  const choices = choicesFigure(assessment, `${base}/items.csv`);
  if (choices) {
    choicesHolder.append(choices.node);
    itemFigures.push(choices);
  }
  review.append(reviewList(assessment));
}

/** Fetches one cell's facts and shows them; a later click wins over an earlier answer still on its way. */
let asked = 0;
async function openEvidence(sessionId: string, chapter: number): Promise<void> {
  const ask = ++asked;
  const panel = $('evidence');
  try {
    const reply = await apiJson<MasteryEvidenceReply>(`${base}/evidence?sessionId=${encodeURIComponent(sessionId)}&chapter=${chapter}`, { fallback: '근거를 불러오지 못했습니다.' });
    if (ask === asked) showEvidence(panel, reply);
  } catch (error) {
    if (ask !== asked) return;
    panel.hidden = false;
    panel.replaceChildren(element('p', { className: 'error', role: 'alert', text: requestFailure(error) }));
  }
}

function render(analytics: ClassAnalyticsReply): void {
  $('class-name').textContent = `· ${analytics.name}`;
  select.replaceChildren(
    ...analytics.assessments.map((assessment, index) =>
      element('option', { value: String(index), text: `[${kindName(assessment)}] ${assessment.title} (${dateOf(assessment.at)}, ${assessment.students}명)` }),
    ),
  );
  select.disabled = analytics.assessments.length === 0;
  $('items-empty').hidden = analytics.assessments.length > 0;
  select.addEventListener('change', () => showAssessment(analytics.assessments[Number(select.value)]));
  showAssessment(analytics.assessments[0]);
  $('mastery-chart').append(masteryFigure(analytics.mastery, `${base}/mastery.csv`, (sessionId, chapter) => void openEvidence(sessionId, chapter)).node);
  $('funnel-chart').append(funnelFigure(analytics.funnel, `${base}/funnel.csv`).node);
  status.textContent = `학생 ${analytics.funnel.students}명 · 퀴즈와 시험 ${analytics.assessments.length}개 · ${new Date(analytics.generatedAt).toLocaleString('ko-KR')} 기준`;
  document.body.dataset.ready = 'true';
}

async function main(): Promise<void> {
  await requireSignedIn();
  if (classId === '') {
    status.textContent = '';
    errorLine.textContent = '수업을 고르세요: 내 수업에서 「분석」을 누르면 열립니다.';
    return;
  }
  try {
    render(await apiJson<ClassAnalyticsReply>(base, { fallback: '분석을 불러오지 못했습니다.' }));
  } catch (error) {
    status.textContent = '';
    errorLine.textContent = requestFailure(error);
  }
}

void main();
