import { Router, type NextFunction, type Request, type Response } from 'express';
import type { ClassService } from '../classroom/index.js';
import type { OwnershipRepository } from '../ownership/index.js';
import { CreateClassBody, JoinClassBody, JoinCode, ReleaseRosterNameBody, SetRosterBody } from '../protocol/classroom.js';
import { PageQuery } from '../protocol/page.js';
import type { Authorizer } from './authorize.js';
import { requireAccount } from './principal.js';
import { parseOrThrow, withBody } from '../boundary/index.js';

export interface ClassesRouterDeps {
  classes: ClassService;
  ownership: OwnershipRepository;
  access: Authorizer;
}

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

/**
 * Classes (every class belongs to an account):
 * - `POST /api/classes` (account) `{name, materialId?}` -> 201 `{classId, name, code, materialId, createdAt, instructorToken}`
 * - `GET /api/classes?cursor=&limit=` (account) -> "내 수업" `{classes: [ClassSummary], nextCursor}`, newest first
 * - `POST /api/classes/:code/join` (a student, no credential)
 * - `GET /api/classes/:id?cursor=&limit=` (owner account or the class's instructor token) -> the class with one page
 *   of its roster, `closed`, and for the account a fresh `instructorToken`
 * - `POST /api/classes/:id/close`, `POST /api/classes/:id/code`, `PUT /api/classes/:id/roster`,
 *   `POST /api/classes/:id/roster/release` (same credentials); `GET /api/classes/:code/roster` (a student, by code)
 */
export function createClassesRouter({ classes, ownership, access }: ClassesRouterDeps): Router {
  const router = Router();
  router.post(
    '/',
    route(async (request, response) => {
      const { accountId } = requireAccount(response);
      const body = parseOrThrow(CreateClassBody, request.body);
      if (body.materialId !== undefined) await access.authorizeMaterialRead(request, response, body.materialId);
      const created = await classes.create(body, accountId);
      await ownership.setOwner('class', created.classId, accountId, created.createdAt);
      response.status(201).json(created);
    }),
  );
  router.get(
    '/',
    route(async (request, response) => {
      const { accountId } = requireAccount(response);
      const { members, nextCursor } = await ownership.page(accountId, 'class', parseOrThrow(PageQuery, request.query));
      response.json({ classes: await classes.summaries(members), nextCursor });
    }),
  );
  router.post(
    '/:code/join',
    withBody(JoinClassBody, async (body, request, response) => {
      const code = parseOrThrow(JoinCode, request.params.code);
      response.status(201).json(await classes.join(code, body));
    }),
  );
  // A student who typed a code sees the class's name and, for a roster class, the names to pick from (a code probe
  // like a join: server.ts charges it to the address's join attempts).
  router.get('/:code/roster', async (request, response, next) => {
    try {
      const code = parseOrThrow(JoinCode, request.params.code);
      response.set('Cache-Control', 'no-store').json(await classes.rosterChoices(code));
    } catch (error) {
      next(error);
    }
  });
  router.get(
    '/:id',
    route(async (request, response) => {
      const classId = String(request.params.id);
      const grant = await access.authorizeClass(request, response, classId);
      const info = await classes.info(classId, parseOrThrow(PageQuery, request.query));
      response.json({
        ...info,
        closed: info.closedAt !== null,
        ...(grant.via === 'account' ? { instructorToken: classes.instructorToken(classId, grant.accountId) } : {}),
      });
    }),
  );
  // the instructor ends the class or replaces its join code (as /monitor's class:close and
  // class:rotate-code do). No body is read.
  const instructorAction = (action: (classId: string, request: Request) => Promise<object>) =>
    route(async (request, response) => {
      const classId = String(request.params.id);
      await access.authorizeClass(request, response, classId);
      response.json(await action(classId, request));
    });
  router.post('/:id/close', instructorAction((classId) => classes.close(classId)));
  router.post('/:id/code', instructorAction((classId) => classes.rotateCode(classId)));
  // A required roster: replace its names, or free a name whose student lost their device.
  router.put('/:id/roster', instructorAction((classId, request) => classes.setRoster(classId, parseOrThrow(SetRosterBody, request.body).names)));
  router.post(
    '/:id/roster/release',
    instructorAction((classId, request) => classes.releaseRosterName(classId, parseOrThrow(ReleaseRosterNameBody, request.body).name)),
  );
  return router;
}
