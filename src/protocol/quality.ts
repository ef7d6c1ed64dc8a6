import { z } from 'zod';
import { PageQuery } from './page.js';
import { QUALITY_DAYS_DEFAULT, QUALITY_DAYS_MAX } from './wire/quality.js';

/**
 * The zod schemas of the "AI 품질" console's queries (server only); the answers' types are in ./wire/quality.ts
 * (browser-safe), re-exported here.
 */
export type * from './wire/quality.js';

/** A model task name as the sampler records it ('lecture.write', 'tutor.judge', …). */
export const AgentName = z.string().regex(/^[a-z][a-z0-9._-]{0,63}$/, '에이전트 이름이 올바르지 않습니다.');

const gradeMessage = '점수는 0과 1 사이의 숫자입니다.';
const Grade = z
  .string()
  .regex(/^(?:0(?:\.\d{1,3})?|1(?:\.0{1,3})?|\.\d{1,3})$/, gradeMessage)
  .transform(Number);

const GradeFilter = z.object({
  agent: AgentName.optional(),
  minGrade: Grade.optional(),
  maxGrade: Grade.optional(),
});

const ordered = (filter: { minGrade?: number | undefined; maxGrade?: number | undefined }) =>
  filter.minGrade === undefined || filter.maxGrade === undefined || filter.minGrade <= filter.maxGrade;
const orderMessage = { message: '최저 점수(minGrade)가 최고 점수(maxGrade)보다 클 수 없습니다.', path: ['minGrade'] };

export const QualitySummaryQuery = z.object({
  days: z
    .string()
    .regex(/^\d{1,2}$/, `기간(days)은 1–${QUALITY_DAYS_MAX} 사이의 정수입니다.`)
    .transform(Number)
    .pipe(z.number().int().min(1, `기간(days)은 1–${QUALITY_DAYS_MAX} 사이의 정수입니다.`).max(QUALITY_DAYS_MAX, `기간(days)은 1–${QUALITY_DAYS_MAX} 사이의 정수입니다.`))
    .default(QUALITY_DAYS_DEFAULT),
});

export const QualityInteractionsQuery = PageQuery.extend(GradeFilter.shape).refine(ordered, orderMessage);
export type QualityInteractionsQuery = z.infer<typeof QualityInteractionsQuery>;

export const QualityExportQuery = GradeFilter.refine(ordered, orderMessage);
export type QualityExportQuery = z.infer<typeof QualityExportQuery>;
