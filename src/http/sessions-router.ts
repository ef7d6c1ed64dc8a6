import { Router } from 'express';
import type { ClassService } from '../classroom/index.js';
import type { LectureService } from '../lecture/index.js';
import { CreateSessionBody } from '../protocol/tutor.js';
import type { Authorizer } from './authorize.js';
import { optionalAccount } from './principal.js';
import { withBody } from '../boundary/index.js';

/**
 * `POST /api/sessions {materialId, nickname}` -> `201 {sessionId, token}` for the `/tutor` namespace. With
 * `classCode` it is the class join (`POST /api/classes/:code/join`) and answers its `{sessionId, token, classId,
 * materialId}`. Without a class: the built-in sample for anyone, a material the account owns for an account
 * (preview, "강의 미리 보기"); anything else 404 MATERIAL_NOT_FOUND.
 */
export function createSessionsRouter({ lectures, classes, access }: { lectures: LectureService; classes: ClassService; access: Authorizer }): Router {
  const router = Router();
  router.post(
    '/',
    withBody(CreateSessionBody, async (body, _request, response) => {
      const { classCode, materialId, nickname } = body;
      if (classCode !== undefined) {
        response.status(201).json(await classes.join(classCode, { nickname, ...(materialId !== undefined ? { materialId } : {}) }));
        return;
      }
      // The schema requires materialId when there is no classCode.
      await access.authorizeSessionMaterial(response, materialId ?? '');
      // An instructor's preview spends their own model budget; the sample, taken without an account, bills nobody.
      const billTo = optionalAccount(response)?.accountId;
      response.status(201).json(await lectures.createSession({ materialId: materialId ?? '', nickname, billTo }));
    }),
  );
  return router;
}
