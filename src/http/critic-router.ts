import { Router, type NextFunction, type Request, type Response } from 'express';
import type { CriticGrader } from '../critic/index.js';
import { AppError } from '../kernel/index.js';
import { runBilledTo } from '../llm/index.js';
import { CriticGradeBody } from '../protocol/critic.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { requireAccount } from './principal.js';
import { parseOrThrow } from '../boundary/index.js';
import { abortedWith } from './client-gone.js';

/**
 * The Critic Grader over HTTP (seed 004), mounted at /api/critic:
 * - `POST /api/critic/grade` (CriticGradeBody: `{data_to_grade: {instruction, input, output, expected_output?},
 *   grading_criteria?: {criteria_name, weights?}, agent_name?}`) -> 200 CriticReport (seed 004's output and our
 *   extras); 400 INVALID_CRITERIA for weights the rubric refuses; 502 GRADING_ERROR (no grade) when the model gave no
 *   usable grading.
 * A signed-in account only (cookie with its CSRF token, or an API token): anonymous callers never start a model call,
 * and the call is billed to the account's daily model budget. Nothing is stored. The credential is checked before
 * the body.
 */

export interface CriticRouterDeps {
  critic: CriticGrader;
}

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

export function createCriticRouter({ critic }: CriticRouterDeps): Router {
  const router = Router();

  router.post(
    '/grade',
    route(async (request, response) => {
      const { accountId } = requireAccount(response);
      const body = parseOrThrow(CriticGradeBody, request.body);
      const result = await runBilledTo(accountId, () => critic.grade(body, { accountId, signal: abortedWith(response) }));
      if (result.ok) {
        response.json(result.report);
        return;
      }
      const status = result.code === ErrorCode.GRADING_ERROR ? 502 : 400;
      throw new AppError(result.code, result.message, { status, retryable: result.code === ErrorCode.GRADING_ERROR });
    }),
  );

  return router;
}

