import { Router, type NextFunction, type Request, type Response } from 'express';
import type { QualityBudget, QualityRepository, QualityScope } from '../quality/index.js';
import {
  QualityExportQuery,
  QualityInteractionsQuery,
  QualitySummaryQuery,
  type QualityExportLine,
  type QualityInteractionPage,
  type QualitySummary,
} from '../protocol/quality.js';
import { QUALITY_EXPORT_MAX } from '../protocol/wire/quality.js';
import { contentDisposition } from './content-disposition.js';
import { requireAccount, type Principal } from './principal.js';
import { parseOrThrow } from '../boundary/index.js';

/**
 * The "AI 품질" console, mounted at /api/quality, read-only:
 * - `GET /summary?days=` -> QualitySummary: per agent the daily grade distribution, mean, failure types, worst cases;
 * - `GET /interactions?agent=&minGrade=&maxGrade=&cursor=&limit=` -> QualityInteractionPage, newest first;
 * - `GET /export.jsonl?agent=&minGrade=&maxGrade=` -> one QualityExportLine per line (an attachment, streamed a page
 *   at a time, at most QUALITY_EXPORT_MAX lines, newest first).
 * A signed-in account only. An admin sees every graded output (`scope: 'all'`); an instructor sees the outputs billed
 * to their own account (`scope: 'own'`: their lectures' chapters and tutors, their quizzes and problems), never
 * another instructor's. Sending one output to the critic is `POST /api/critic/grade`.
 */

export interface QualityRouterDeps {
  repository: QualityRepository;
  budget: QualityBudget;
  sampling: { rate: number; perAgent: Record<string, number> };
}

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

const scopeOf = (principal: Principal): QualityScope => (principal.role === 'admin' ? { kind: 'all' } : { kind: 'account', accountId: principal.accountId });

export function createQualityRouter({ repository, budget, sampling }: QualityRouterDeps): Router {
  const router = Router();

  router.get(
    '/summary',
    route(async (request, response) => {
      const principal = requireAccount(response);
      const { days } = parseOrThrow(QualitySummaryQuery, request.query);
      const [agents, spentToday, queued] = await Promise.all([repository.summary(scopeOf(principal), days), budget.spentToday(), repository.queued()]);
      const summary: QualitySummary = {
        scope: principal.role === 'admin' ? 'all' : 'own',
        days,
        sampling,
        budget: { dailyTokens: budget.dailyTokens, spentToday },
        queued,
        agents,
      };
      response.json(summary);
    }),
  );

  router.get(
    '/interactions',
    route(async (request, response) => {
      const principal = requireAccount(response);
      const { cursor, limit, ...filter } = parseOrThrow(QualityInteractionsQuery, request.query);
      const page: QualityInteractionPage = await repository.page(scopeOf(principal), filter, { cursor, limit });
      response.json(page);
    }),
  );

  router.get(
    '/export.jsonl',
    route(async (request, response) => {
      const principal = requireAccount(response);
      const filter = parseOrThrow(QualityExportQuery, request.query);
      const lines = repository.each(scopeOf(principal), filter, QUALITY_EXPORT_MAX)[Symbol.asyncIterator]();
      // The first page is read before the headers go out, so a store failure is still an ordinary error answer.
      let next = await lines.next();
      const day = new Date().toISOString().slice(0, 10);
      response
        .status(200)
        .type('application/x-ndjson; charset=utf-8')
        .set('Content-Disposition', contentDisposition('attachment', `lectern-quality-${filter.agent ?? 'all'}-${day}.jsonl`));
      while (next.done !== true) {
        const { instruction, input, output, report, agent } = next.value;
        const line: QualityExportLine = { instruction, input, output, grade: report.grade, criteria: report.criteria_scores, agent, failure_types: report.failure_types };
        if (!response.write(`${JSON.stringify(line)}\n`)) await new Promise((resolve) => response.once('drain', resolve));
        if (response.destroyed) return;
        next = await lines.next();
      }
      response.end();
    }),
  );

  return router;
}
