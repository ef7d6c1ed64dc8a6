import { Router, type Request, type Response } from 'express';
import QRCode from 'qrcode';
import { z } from 'zod';
import { roomNotFound, type OwnershipRepository } from '../ownership/index.js';
import { PageQuery } from '../protocol/page.js';
import { CreateRoomBody, RoomCode } from '../protocol/quiz.js';
import { resultsCsv, type PagePictures, type RoomListEntry, type RoomResults, type RoomService } from '../quiz/index.js';
import type { Authorizer } from './authorize.js';
import type { Quotas } from '../quota/index.js';
import { roomQuotaOwner } from './quota-hooks.js';
import { parseOrThrow } from '../boundary/index.js';
import { contentDisposition } from './content-disposition.js';

/**
 * `POST /api/rooms` (the quiz's owner account, or its class's instructor token: a room for the quiz; 201
 * `{roomId, code, hostToken}`), `GET /api/rooms?quizId=&classId=&cursor=&limit=` (the account's rooms, one quiz's or
 * one class's, newest first: `{rooms, nextCursor}`; a class token: its class's), `GET /api/rooms/:id/results` and
 * `/results.csv` (owner, class token of its class or the room's host token), and `GET /api/rooms/join-qr.svg?code=`
 * (the join link as a QR code, made here: no outside service), and `GET /api/rooms/:id/pictures/:index` (a member of
 * the room: a player's or the host's token, the owner, its class's token): question `index`'s picture (a page as a
 * one-page PDF, an uploaded image as its bytes), only once that question is on screen (403 PICTURE_NOT_SHOWN before,
 * and in the lobby or after the game).
 */
export interface RoomsRouterDeps {
  rooms: RoomService;
  ownership: OwnershipRepository;
  access: Authorizer;
  publicUrl?: string | undefined;
  quotas: Quotas;
  /** Pages of materials as items' pictures (served to the room's members once their question is on screen). */
  pagePictures?: PagePictures | undefined;
}

const ListQuery = PageQuery.extend({
  quizId: z.string().trim().min(1).max(64).optional(),
  classId: z.string().trim().min(1).max(64).optional(),
});

const PictureParams = z.object({
  id: z.string().trim().min(1).max(64),
  index: z.string().regex(/^\d{1,3}$/, '문제 번호는 0 이상의 정수입니다.').transform(Number),
});

export function createRoomsRouter({ rooms, ownership, access, publicUrl, quotas, pagePictures }: RoomsRouterDeps): Router {
  const router = Router();

  router.post('/', async (request, response, next) => {
    try {
      // The credential before the body, as for quizzes: an anonymous caller learns nothing about what a valid body is.
      await access.accountOrClassToken(request, response);
      const body = parseOrThrow(CreateRoomBody, request.body);
      const { quiz, grant } = await access.authorizeQuiz(request, response, body.quizId);
      // The room counts against its owner's open rooms (QUOTA).
      const { createdAt, ...room } = await quotas.openRoom(roomQuotaOwner({ classId: quiz.classId, accountId: grant.accountId }), () =>
        rooms.create(quiz.classId, body, grant.accountId),
      );
      await ownership.setOwner('room', room.roomId, grant.accountId, createdAt);
      await ownership.addQuizRoom(quiz.quizId, room.roomId, createdAt);
      response.status(201).json(room);
    } catch (error) {
      next(error);
    }
  });

  router.get('/', async (request, response, next) => {
    try {
      const grant = await access.accountOrClassToken(request, response);
      const { quizId, classId, ...page } = parseOrThrow(ListQuery, request.query);
      let listed: { items: RoomListEntry[]; nextCursor: string | null };
      if (quizId !== undefined) {
        await access.authorizeQuiz(request, response, quizId);
        const { members, nextCursor } = await ownership.quizRoomsPage(quizId, page);
        listed = { items: await rooms.repository.listEntries(members), nextCursor };
      } else if (classId !== undefined || grant.classId !== undefined) {
        const asked = classId ?? grant.classId ?? '';
        await access.authorizeClass(request, response, asked);
        listed = await rooms.repository.listByClass(asked, page);
      } else {
        const { members, nextCursor } = await ownership.page(grant.accountId, 'room', page);
        listed = { items: await rooms.repository.listEntries(members), nextCursor };
      }
      const list = listed.items.map((entry) => ({
        ...entry,
        resultsUrl: `/api/rooms/${entry.roomId}/results`,
        csvUrl: `/api/rooms/${entry.roomId}/results.csv`,
      }));
      response.json({ rooms: list, nextCursor: listed.nextCursor });
    } catch (error) {
      next(error);
    }
  });

  router.get('/join-qr.svg', async (request, response, next) => {
    try {
      const code = parseOrThrow(RoomCode, request.query.code);
      // PUBLIC_URL when set (the address phones can reach), else the address this page was opened at.
      const base = publicUrl ?? `${request.protocol}://${request.get('host') ?? 'localhost'}`;
      const svg = await QRCode.toString(`${base}/play.html?code=${code}`, {
        type: 'svg',
        margin: 1,
        errorCorrectionLevel: 'M',
      });
      // The link is built from this request's host, so caches must keep one copy per host.
      response.type('image/svg+xml').set({ 'Cache-Control': 'private, max-age=3600', Vary: 'Host' }).send(svg);
    } catch (error) {
      next(error);
    }
  });

  router.get('/:id/pictures/:index', async (request, response, next) => {
    try {
      const { id: roomId, index } = parseOrThrow(PictureParams, request.params);
      await access.authorizeRoomMember(request, response, roomId);
      const [meta, record] = await Promise.all([rooms.repository.meta(roomId), rooms.repository.phase(roomId)]);
      if (!meta || !pagePictures) throw roomNotFound();
      const { bytes, type } = await pagePictures.roomPicture(meta, record, index);
      response.setHeader('Content-Type', type);
      response.setHeader('X-Content-Type-Options', 'nosniff');
      // Nothing in it runs, whatever it is opened as.
      response.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      response.setHeader('Content-Disposition', 'inline');
      // Private: the answer depends on the caller's token and on the room's phase.
      response.setHeader('Cache-Control', 'private, no-store');
      response.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch (error) {
      next(error);
    }
  });

  const results = async (request: Request, response: Response): Promise<RoomResults> => {
    const roomId = String(request.params.id);
    await access.authorizeRoom(request, response, roomId, { host: true });
    const stored = await rooms.repository.results(roomId);
    if (!stored) throw roomNotFound();
    // Results are rewritten at each reveal and at the end; the phase in between is the live one.
    const live = await rooms.repository.phase(roomId);
    return live ? { ...stored, phase: live.phase } : stored;
  };
  router.get('/:id/results', async (request, response, next) => {
    try {
      response.json(await results(request, response));
    } catch (error) {
      next(error);
    }
  });
  router.get('/:id/results.csv', async (request, response, next) => {
    try {
      const stored = await results(request, response);
      response
        .type('text/csv; charset=utf-8')
        .set('Content-Disposition', contentDisposition('attachment', `quiz-${stored.code}-results.csv`))
        .send(resultsCsv(stored));
    } catch (error) {
      next(error);
    }
  });
  return router;
}
