import { Router } from 'express';
import type { ClassService } from '../classroom/index.js';
import type { TokenSigner } from '../auth/index.js';
import { CreateClassBody, JoinClassBody, JoinCode } from '../protocol/classroom.js';
import { PageQuery } from '../protocol/page.js';
import { requireInstructor } from './bearer.js';
import { parseOrThrow, withBody } from './validate.js';

/**
 * `POST /api/classes` (create), `POST /api/classes/:code/join` (a student joins), `GET /api/classes/:id?cursor=&limit=`
 * (the instructor's view with one page of the roster, `Authorization: Bearer <instructorToken>`).
 */
export function createClassesRouter({ classes, signer }: { classes: ClassService; signer: TokenSigner }): Router {
  const router = Router();
  router.post(
    '/',
    withBody(CreateClassBody, async (body, _request, response) => {
      response.status(201).json(await classes.create(body));
    }),
  );
  router.post(
    '/:code/join',
    withBody(JoinClassBody, async (body, request, response) => {
      const code = parseOrThrow(JoinCode, request.params.code);
      response.status(201).json(await classes.join(code, body));
    }),
  );
  router.get('/:id', async (request, response, next) => {
    try {
      const classId = String(request.params.id);
      requireInstructor(signer, request, response, classId);
      response.json(await classes.info(classId, parseOrThrow(PageQuery, request.query)));
    } catch (error) {
      next(error);
    }
  });
  return router;
}
