import { z } from 'zod';
import { ANALYTICS_CSV_PARTS } from './wire/analytics.js';

export type * from './wire/analytics.js';

/** A class id as the classes routes issue them (opaque, URL-safe). */
const ClassIdParam = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, '수업 id가 올바르지 않습니다.');

/** `GET /api/analytics/classes/:classId`. */
export const AnalyticsParams = z.object({ classId: ClassIdParam }).strict();

/** `GET /api/analytics/classes/:classId/:part.csv`. */
export const AnalyticsCsvParams = z.object({ classId: ClassIdParam, part: z.enum(ANALYTICS_CSV_PARTS) }).strict();

/** `GET /api/analytics/classes/:classId/evidence?sessionId=&chapter=` (chapter −1: the whole-material column). */
export const AnalyticsEvidenceQuery = z
  .object({
    sessionId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, '학생 id가 올바르지 않습니다.'),
    chapter: z
      .string()
      .regex(/^-?\d{1,4}$/, '장 번호가 올바르지 않습니다.')
      .transform(Number)
      .pipe(z.number().int().min(-1).max(9999)),
  })
  .strict();
