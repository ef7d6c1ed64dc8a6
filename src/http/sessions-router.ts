import { Router } from 'express';
import type { ClassService } from '../classroom/index.js';
import type { LectureService } from '../lecture/index.js';
import { CreateSessionBody } from '../protocol/tutor.js';
import { withBody } from './validate.js';

/**
 * `POST /api/sessions {materialId, nickname}` -> `201 {sessionId, token}` for the `/tutor` namespace. With
 * `classCode` it is the class join (`POST /api/classes/:code/join`) and answers its `{sessionId, token, classId,
 * materialId}`.
 */
export function createSessionsRouter({ lectures, classes }: { lectures: LectureService; classes: ClassService }): Router {
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
      response.status(201).json(await lectures.createSession({ materialId: materialId ?? '', nickname }));
    }),
  );
  return router;
}
