import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { classExportCsv, type DataLifecycle } from '../data/index.js';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { OwnershipRepository } from '../ownership/index.js';
import type { Authorizer } from './authorize.js';
import { parseOrThrow } from '../boundary/index.js';
import { contentDisposition } from './content-disposition.js';

export interface DataRouterDeps {
  data: DataLifecycle;
  access: Authorizer;
  ownership: OwnershipRepository;
  /** The built-in sample's id: it loses owners but is never deleted. */
  sampleId(): Promise<string>;
  /** Credits an account's material quota when it gives up a material others still own (Quotas satisfies it). */
  quotas?: { releaseMaterial(accountId: string, materialId: string): Promise<void> };
}

/** Ids as they appear in paths: letters, digits, `-` and `_` (class ids are UUIDs, quiz/room/material ids hex). */
const Id = z.string().min(1, '주소의 식별자가 비어 있습니다.').max(100, '주소의 식별자가 너무 깁니다.').regex(/^[\w-]+$/, '주소의 식별자 형식이 올바르지 않습니다.');

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

const notFound = (code: ErrorCode, message: string) => new AppError(code, message, { status: 404 });

/**
 * Deletion and export (data/), each behind its resource's authorisation function (ownership):
 * `DELETE /api/classes/:id` (authorizeClass), `/api/quizzes/:id` (authorizeQuiz), `/api/rooms/:id` (authorizeRoom;
 * all 204), `DELETE /api/materials/:id` (authorizeMaterialWrite: removes this account's ownership, and the material
 * itself once nobody owns it and it is not the built-in sample; 204; 409 MATERIAL_IN_USE while a quiz of the account
 * shows one of its pages as a picture), and `GET /api/classes/:id/export.json` /
 * `export.csv` (authorizeClass). Mounted on `/api`.
 */
export function createDataRouter({ data, access, ownership, sampleId, quotas }: DataRouterDeps): Router {
  const router = Router();
  const id = (request: Request) => parseOrThrow(Id, request.params.id);

  router.delete(
    '/classes/:id',
    route(async (request, response) => {
      const classId = id(request);
      await access.authorizeClass(request, response, classId);
      if (!(await data.classes.delete(classId))) throw notFound(ErrorCode.CLASS_NOT_FOUND, '해당 수업을 찾을 수 없습니다.');
      response.status(204).end();
    }),
  );

  router.delete(
    '/quizzes/:id',
    route(async (request, response) => {
      const { quiz } = await access.authorizeQuiz(request, response, id(request));
      await data.quizzes.delete(quiz.quizId, quiz.classId === '' ? undefined : quiz.classId);
      response.status(204).end();
    }),
  );

  router.delete(
    '/rooms/:id',
    route(async (request, response) => {
      const roomId = id(request);
      await access.authorizeRoom(request, response, roomId);
      if (!(await data.rooms.delete(roomId))) throw notFound(ErrorCode.ROOM_NOT_FOUND, '해당 퀴즈 방을 찾을 수 없습니다.');
      response.status(204).end();
    }),
  );

  router.delete(
    '/materials/:id',
    route(async (request, response) => {
      const materialId = id(request);
      const { accountId } = await access.authorizeMaterialWrite(request, response, materialId);
      // A quiz of this account shows one of its pages: the quiz goes first (everyone may show the sample's pages).
      if (materialId !== (await sampleId()) && (await data.materials.shownBy(materialId, accountId))) throw new AppError(ErrorCode.MATERIAL_IN_USE);
      const left = await ownership.removeMaterialOwner(materialId, accountId);
      if (left === 0 && materialId !== (await sampleId())) await data.materials.delete(materialId);
      // The deletion credits every charged account; a material that stays (other owners, the sample) credits this one.
      else await quotas?.releaseMaterial(accountId, materialId);
      response.status(204).end();
    }),
  );

  const exported = async (request: Request, response: Response) => {
    const classId = id(request);
    await access.authorizeClass(request, response, classId);
    const result = await data.exporter.export(classId);
    if (!result) throw notFound(ErrorCode.CLASS_NOT_FOUND, '해당 수업을 찾을 수 없습니다.');
    response.set('Cache-Control', 'no-store');
    return result;
  };
  router.get(
    '/classes/:id/export.json',
    route(async (request, response) => {
      const result = await exported(request, response);
      response.set('Content-Disposition', contentDisposition('attachment', `class-${result.class.id}.json`)).json(result);
    }),
  );
  router.get(
    '/classes/:id/export.csv',
    route(async (request, response) => {
      const result = await exported(request, response);
      response.set('Content-Disposition', contentDisposition('attachment', `class-${result.class.id}.csv`)).type('text/csv; charset=utf-8').send(classExportCsv(result));
    }),
  );

  return router;
}
