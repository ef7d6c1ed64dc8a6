/**
 * A Critic Grader report (seed 004) as the instructor reads it: the grade, the five criteria as bars, the failure
 * types, fixable and unfixable issues and the report text. Every text comes from a model: textContent only. Shared by
 * the monitor's "AI 평가" and the "AI 품질" page's worst cases.
 */
import { CRITIC_CRITERIA, type CriticCriterion, type CriticFailureType, type CriticFixableIssue, type CriticReport, type CriticSeverity } from '../../src/protocol/wire/critic.js';
import { element } from './dom.js';

export const CRITERION_NAMES: Record<CriticCriterion, string> = {
  completeness: '완전성',
  accuracy: '정확성',
  consistency: '일관성',
  safety: '안전성',
  helpfulness: '유용성',
};

export const FAILURE_NAMES: Record<CriticFailureType, string> = {
  MISSING_REQUIRED_INFO: '필수 정보 누락',
  INCORRECT_FACT: '사실 오류',
  LOGIC_ERROR: '논리 오류',
  FORMAT_ERROR: '형식 오류',
  POLICY_VIOLATION: '정책 위반',
  UNSAFE_CONTENT: '위험한 내용',
  INCOMPLETE_RESPONSE: '불완전한 응답',
  HALLUCINATION: '환각',
  INCONSISTENCY: '일관성 부족',
  NOT_HELPFUL: '유용하지 않음',
};

const SEVERITY_NAMES: Record<CriticSeverity, string> = { high: '높음', medium: '보통', low: '낮음' };

/** A grade in [0, 1] as people read it: "0.62". */
export const gradeText = (grade: number) => grade.toFixed(2);

/** A horizontal bar of `value` in [0, 1] (plain CSS: the fill's width). */
export function meter(value: number, label: string): HTMLElement {
  const fill = element('span', { className: 'meter-fill' });
  fill.style.width = `${Math.round(Math.max(0, Math.min(1, value)) * 100)}%`;
  return element('span', { className: 'meter', role: 'img', 'aria-label': label }, fill);
}

export function fixableList(issues: readonly CriticFixableIssue[]): HTMLElement {
  return element(
    'ul',
    { className: 'critic-issues', 'data-testid': 'critic-fixable' },
    ...issues.map((issue) =>
      element(
        'li',
        { 'data-severity': issue.severity },
        element('strong', { text: `[${SEVERITY_NAMES[issue.severity] ?? issue.severity}] ` }),
        element('span', { text: issue.issue }),
        issue.suggestion ? element('span', { className: 'muted', text: ` → ${issue.suggestion}` }) : null,
      ),
    ),
  );
}

export function failureTypesLine(types: readonly CriticFailureType[]): string {
  return types.map((type) => FAILURE_NAMES[type] ?? type).join(', ');
}

/** The whole report. */
export function criticReportView(report: CriticReport): HTMLElement {
  return element(
    'div',
    { className: 'critic-report', 'data-testid': 'critic-report' },
    element('p', { className: 'critic-grade' }, element('strong', { text: '전체 점수 ' }), element('span', { 'data-testid': 'critic-grade', text: gradeText(report.grade) }), ' / 1.00'),
    element(
      'dl',
      { className: 'critic-criteria' },
      ...CRITIC_CRITERIA.flatMap((criterion) => [
        element('dt', { text: CRITERION_NAMES[criterion] }),
        element('dd', {}, meter(report.criteria_scores[criterion], `${CRITERION_NAMES[criterion]} ${gradeText(report.criteria_scores[criterion])}`), ` ${gradeText(report.criteria_scores[criterion])}`),
      ]),
    ),
    report.failure_types.length > 0 ? element('p', { 'data-testid': 'critic-failures', text: `실패 유형: ${failureTypesLine(report.failure_types)}` }) : null,
    report.fixable_issues.length > 0 ? element('p', { className: 'critic-heading', text: '수정 가능한 문제' }) : null,
    report.fixable_issues.length > 0 ? fixableList(report.fixable_issues) : null,
    report.unfixable_issues.length > 0 ? element('p', { className: 'critic-heading', text: '수정할 수 없는 문제' }) : null,
    report.unfixable_issues.length > 0 ? element('ul', { className: 'critic-issues' }, ...report.unfixable_issues.map((issue) => element('li', { text: issue }))) : null,
    element('p', { className: 'critic-text', text: report.grading_report }),
  );
}
