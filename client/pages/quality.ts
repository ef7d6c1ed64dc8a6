// "AI 품질": per agent, the grades the Critic Grader gave a sample of its outputs — the histogram of the
// window, the mean per day, the failure types and the worst cases with their fixable issues — and the JSONL export of
// graded outputs filtered by grade (fine-tuning data). An admin sees every output, an instructor their own
// (GET /api/quality/summary). Every model text is set as textContent.
import type { CriticFailureType } from '../../src/protocol/wire/critic.js';
import { GUARD_RULE_NAMES, type GuardRule, type QualityAgentSummary, type QualitySummary } from '../../src/protocol/wire/quality.js';
import { apiJson, requestFailure } from '../net/http.js';
import { requireSignedIn } from '../ui/account-header.js';
import { FAILURE_NAMES, failureTypesLine, fixableList, gradeText } from '../ui/critic-report.js';
import { $, element } from '../ui/dom.js';
import { readableJson } from '../ui/json-report.js';
import { serverModel } from '../net/server-info.js';

const AGENT_NAMES: Record<string, string> = {
  'lecture.write': '강의 작성',
  'lecture.continue': '강의 이어 쓰기',
  'tutor.judge': '튜터 판정',
  'tutor.model-answer': '튜터 모범 답안',
  'tutor.subconcepts': '튜터 하위 개념 나누기',
  'tutor.supplement': '튜터 보충 설명',
  'tutor.remedial': '튜터 다시 설명',
  'assistant.classify': '손 들기 질문 분류',
  'assistant.answer': '손 들기 답변',
  'assistant.explain': '손 들기 설명',
  'assistant.control': '손 들기 이해 확인',
  'assistant.summary': '손 들기 정리',
  'assistant.final': '손 들기 마무리',
  'quiz.generate': '퀴즈 문항 생성',
  'quiz.eval': '퀴즈 문항 검수',
  'math.generate': '수학 문항 생성',
  'exam.plan': '시험 출제 계획',
  'exam.write': '시험 문항 작성',
  'exam.validate': '시험 문항 검토',
  'exam.grade': '시험 채점',
  'exam.feedback': '시험 피드백',
  'critic.grade': '품질 평가',
  'math.short-answer': '수학 단답 채점',
  'assistant.choices': '손 들기 선택지',
  'math.judge': '수학 문항 검수',
  'math.judge-batch': '수학 문항 일괄 검수',
  'materials.analyse': '자료 분석',
  'retrieval.classify': '단락 분류',
};
/** An agent as an instructor reads it: its Korean name, never the model task's identifier (`exam.plan`). */
const agentName = (agent: string) => AGENT_NAMES[agent] ?? '기타 에이전트';

const scopeLine = $('quality-scope');
const heuristicNote = $('quality-heuristic');
const daysSelect = $<HTMLSelectElement>('quality-days');
const errorLine = $('quality-error');
const agentList = $('agent-list');
const agentsEmpty = $('agents-empty');
const exportAgent = $<HTMLSelectElement>('export-agent');
const exportMin = $<HTMLInputElement>('export-min');
const exportMax = $<HTMLInputElement>('export-max');
const exportLink = $<HTMLAnchorElement>('export-link');

function bar(share: number, tone?: string): HTMLElement {
  const fill = element('span', { className: tone ? `bar-fill ${tone}` : 'bar-fill' });
  fill.style.width = `${Math.round(Math.max(0, Math.min(1, share)) * 100)}%`;
  return element('span', { className: 'bar' }, fill);
}

const toneOf = (grade: number) => (grade < 0.5 ? 'low' : grade < 0.8 ? 'mid' : 'high');

function histogram(agent: QualityAgentSummary): HTMLElement {
  const buckets = agent.days.reduce<number[]>((sum, day) => sum.map((value, index) => value + (day.buckets[index] ?? 0)), Array.from({ length: 10 }, () => 0));
  const most = Math.max(1, ...buckets);
  return element(
    'div',
    { className: 'histogram', 'data-testid': 'agent-histogram' },
    ...buckets.flatMap((count, index) => [
      element('span', { text: `${(index / 10).toFixed(1)}–${((index + 1) / 10).toFixed(1)}` }),
      bar(count / most, toneOf(index / 10)),
      element('span', { 'data-testid': 'bucket-count', text: `${count}건` }),
    ]),
  );
}

function daily(agent: QualityAgentSummary): HTMLElement {
  return element(
    'div',
    { className: 'daily', 'data-testid': 'agent-daily' },
    ...agent.days.flatMap((day) => [
      element('span', { text: day.day.slice(5) }),
      day.mean === null ? element('span', { className: 'muted', text: '—' }) : bar(day.mean, toneOf(day.mean)),
      element('span', { text: day.mean === null ? `${day.count}건` : `${gradeText(day.mean)} · ${day.count}건` }),
    ]),
  );
}

function failures(agent: QualityAgentSummary): HTMLElement {
  const entries = Object.entries(agent.failureTypes).sort(([, a], [, b]) => (b ?? 0) - (a ?? 0)) as [CriticFailureType, number][];
  if (entries.length === 0) return element('p', { className: 'muted', text: '실패 유형이 없습니다.' });
  return element('ul', { className: 'failure-list', 'data-testid': 'agent-failures' }, ...entries.map(([type, count]) => element('li', { text: `${FAILURE_NAMES[type] ?? type}: ${count}건` })));
}

/** What the item guard refused of this agent's items, by rule: never shown to a student, rewritten or dropped. */
function refusals(agent: QualityAgentSummary): HTMLElement {
  const entries = (Object.entries(agent.refusals ?? {}) as [GuardRule, number][]).sort(([, a], [, b]) => b - a);
  if (entries.length === 0) return element('p', { className: 'muted', text: '거부된 문항이 없습니다.' });
  return element('ul', { className: 'failure-list', 'data-testid': 'agent-refusals' }, ...entries.map(([rule, count]) => element('li', { text: `${GUARD_RULE_NAMES[rule] ?? rule}: ${count}건` })));
}

function worst(agent: QualityAgentSummary): HTMLElement {
  if (agent.worst.length === 0) return element('p', { className: 'muted', text: '아직 없습니다.' });
  return element(
    'ol',
    { className: 'worst-list', 'data-testid': 'agent-worst' },
    ...agent.worst.map((item) =>
      element(
        'li',
        { 'data-testid': 'worst-case' },
        element('strong', { 'data-testid': 'worst-grade', text: `${gradeText(item.grade)}점` }),
        item.failure_types.length > 0 ? element('span', { className: 'muted', text: ` · ${failureTypesLine(item.failure_types)}` }) : null,
        readableJson(item.excerpt, item.excerpt.endsWith('…')) ?? element('p', { className: 'worst-excerpt', text: item.excerpt }),
        item.fixable_issues.length > 0 ? fixableList(item.fixable_issues) : null,
        item.unfixable_issues.length > 0 ? element('ul', { className: 'failure-list' }, ...item.unfixable_issues.map((issue) => element('li', { text: `수정 불가: ${issue}` }))) : null,
      ),
    ),
  );
}

function agentCard(agent: QualityAgentSummary): HTMLElement {
  return element(
    'section',
    { className: 'card', 'data-testid': 'quality-agent', 'data-agent': agent.agent },
    element('h2', { text: agentName(agent.agent) }),
    element(
      'p',
      { className: 'agent-stats' },
      element('span', { 'data-testid': 'agent-count', text: `채점 ${agent.count}건` }),
      element('span', { 'data-testid': 'agent-mean', text: `평균 ${agent.mean === null ? '—' : gradeText(agent.mean)}` }),
      agent.ungraded > 0 ? element('span', { className: 'muted', text: `채점 실패 ${agent.ungraded}건` }) : null,
    ),
    element(
      'div',
      { className: 'quality-grid' },
      element('div', {}, element('h3', { text: '점수 분포' }), histogram(agent)),
      element('div', {}, element('h3', { text: '날짜별 평균' }), daily(agent)),
      element('div', {}, element('h3', { text: '실패 유형' }), failures(agent)),
      element('div', {}, element('h3', { text: '검사에서 거부된 문항' }), refusals(agent)),
    ),
    element('h3', { text: '가장 낮은 점수' }),
    worst(agent),
  );
}

function updateExportLink(): void {
  const query = new URLSearchParams();
  if (exportAgent.value) query.set('agent', exportAgent.value);
  for (const [name, input] of [['minGrade', exportMin], ['maxGrade', exportMax]] as const) {
    const value = Number(input.value);
    if (input.value !== '' && Number.isFinite(value) && value >= 0 && value <= 1) query.set(name, String(Math.round(value * 1000) / 1000));
  }
  const text = query.toString();
  exportLink.href = `/api/quality/export.jsonl${text ? `?${text}` : ''}`;
}

async function load(): Promise<void> {
  errorLine.textContent = '';
  let summary: QualitySummary;
  try {
    summary = await apiJson<QualitySummary>(`/api/quality/summary?days=${encodeURIComponent(daysSelect.value)}`, { fallback: 'AI 품질 정보를 불러오지 못했습니다.' });
  } catch (error) {
    errorLine.textContent = requestFailure(error);
    return;
  }
  const rate = `${Math.round(summary.sampling.rate * 1000) / 10}%`;
  const budget = summary.budget.dailyTokens === 0 ? '채점 꺼짐' : `오늘 채점 토큰 ${summary.budget.spentToday.toLocaleString('ko-KR')} / ${summary.budget.dailyTokens.toLocaleString('ko-KR')}`;
  scopeLine.textContent = `${summary.scope === 'all' ? '모든 강사의 답' : '내 수업과 자료에서 나온 답'} · 표본 비율 ${rate} · ${budget} · 채점 대기 ${summary.queued}건`;
  agentList.replaceChildren(...summary.agents.map(agentCard));
  agentsEmpty.hidden = summary.agents.length > 0;
  const chosen = exportAgent.value;
  exportAgent.replaceChildren(element('option', { value: '', text: '전체' }), ...summary.agents.map((agent) => element('option', { value: agent.agent, text: agentName(agent.agent) })));
  exportAgent.value = summary.agents.some((agent) => agent.agent === chosen) ? chosen : '';
  updateExportLink();
}

async function main(): Promise<void> {
  await requireSignedIn();
  // Said before any grade is read: the offline model's critic scores by rules (term overlap, length), not judgement.
  void serverModel().then((model) => {
    heuristicNote.hidden = !model.offline;
  });
  daysSelect.addEventListener('change', () => void load());
  for (const input of [exportAgent, exportMin, exportMax]) input.addEventListener('input', updateExportLink);
  exportAgent.addEventListener('change', updateExportLink);
  updateExportLink();
  await load();
}

void main();
