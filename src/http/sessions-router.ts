import { Router } from 'express';
import type { LectureService } from '../lecture/lecture-service.js';
import { CreateSessionBody } from '../protocol/tutor.js';
import { withBody } from './validate.js';

/** `POST /api/sessions {materialId, nickname}` -> `201 {sessionId, token}` for the `/tutor` namespace. */
export function createSessionsRouter({ lectures }: { lectures: LectureService }): Router {
  const router = Router();
  router.post(
    '/',
    withBody(CreateSessionBody, async (body, _request, response) => {
      const created = await lectures.createSession(body);
      response.status(201).json(created);
    }),
  );
  return router;
}
