import { Router, type Request, type Response } from 'express';
import QRCode from 'qrcode';
import type { TokenSigner } from '../auth/index.js';
import { AppError } from '../errors.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { PageQuery } from '../protocol/page.js';
import { CreateRoomBody, RoomCode } from '../protocol/quiz.js';
import { resultsCsv, type RoomResults, type RoomService } from '../quiz/index.js';
import { bearerToken, instructorClassId } from './bearer.js';
import { parseOrThrow } from './validate.js';

/**
 * `POST /api/rooms` (instructor token: a room for one of the class's quizzes), `GET /api/rooms?cursor=&limit=` (one
 * page of the class's rooms, newest first: `{rooms, nextCursor}`), `GET /api/rooms/:id/results` and `/results.csv` (instructor of the class or the room's host), and
 * `GET /api/rooms/join-qr.svg?code=` (the join link as a QR code, made here: no outside service).
 */
export function createRoomsRouter({ rooms, signer }: { rooms: RoomService; signer: TokenSigner }): Router {
  const router = Router();

  router.post('/', async (request, response, next) => {
    try {
      // The token before the body, as for quizzes: an anonymous caller learns nothing about what a valid body is.
      const classId = instructorClassId(signer, request, response);
      response.status(201).json(await rooms.create(classId, parseOrThrow(CreateRoomBody, request.body)));
    } catch (error) {
      next(error);
    }
  });

  router.get('/', async (request, response, next) => {
    try {
      const classId = instructorClassId(signer, request, response);
      const { items, nextCursor } = await rooms.repository.listByClass(classId, parseOrThrow(PageQuery, request.query));
      const list = items.map((entry) => ({
        ...entry,
        resultsUrl: `/api/rooms/${entry.roomId}/results`,
        csvUrl: `/api/rooms/${entry.roomId}/results.csv`,
      }));
      response.json({ rooms: list, nextCursor });
    } catch (error) {
      next(error);
    }
  });

  router.get('/join-qr.svg', async (request, response, next) => {
    try {
      const code = parseOrThrow(RoomCode, request.query.code);
      const svg = await QRCode.toString(`${request.protocol}://${request.get('host') ?? 'localhost'}/play.html?code=${code}`, {
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

  const results = async (request: Request, response: Response): Promise<RoomResults> => {
    const roomId = String(request.params.id);
    const token = bearerToken(signer, request, response, ['instructor', 'host']);
    const stored = await rooms.repository.results(roomId);
    const allowed = stored && (token.kind === 'host' ? token.sub === roomId : token.sub === stored.classId);
    if (!stored) throw new AppError(ErrorCode.ROOM_NOT_FOUND, '퀴즈 방을 찾을 수 없습니다.', { status: 404 });
    if (!allowed) throw new AppError(ErrorCode.FORBIDDEN, '이 방의 결과를 볼 수 없는 토큰입니다.', { status: 403 });
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
        .set('Content-Disposition', `attachment; filename="quiz-${stored.code}-results.csv"`)
        .send(resultsCsv(stored));
    } catch (error) {
      next(error);
    }
  });
  return router;
}
