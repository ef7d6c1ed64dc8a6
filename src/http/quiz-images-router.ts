import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { MAX_IMAGE_BYTES, imageUrl, type ImageOwner, type QuizImages } from '../quiz/index.js';
import { PageQuery } from '../protocol/page.js';
import { parseOrThrow } from '../boundary/index.js';
import type { Authorizer, Grant } from './authorize.js';

/**
 * Pictures for quiz items (quiz/quiz-images.ts). Every picture belongs to the account that uploaded it (and to the
 * class, with a class instructor token); only that owner lists it, deletes it or names it on a quiz item.
 * - `POST /api/quiz-images` (an account or a class instructor token; the body is the image's bytes, any content type:
 *   PNG, JPEG, GIF or WebP by their first bytes, at most 2 MB; SVG refused) -> 201 `{imageId, url, type, bytes}`;
 *   an item names it as `image` (with `imageAlt`, its text for screen readers). The account's pictures together may
 *   hold MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT: beyond it 429 QUOTA_EXCEEDED (`quota: 'quiz-image-bytes'`).
 * - `GET /api/quiz-images?cursor=&limit=` -> `{images: [{imageId, url, type, bytes, createdAt, quizzes}], nextCursor}`,
 *   the caller's own pictures newest first (a class token: the class's), `quizzes` how many quizzes show each.
 * - `GET /api/quiz-images/:id` (its owner only, like DELETE; another's or unknown 404) -> the bytes with the type they
 *   prove, `nosniff`, a CSP that runs nothing, never stored by a cache (the answer depends on the credential). Players
 *   get an item's picture from their room, once its question is on screen (`GET /api/rooms/:id/pictures/:index`).
 * - `DELETE /api/quiz-images/:id` -> 204; another's or unknown 404, 409 IMAGE_IN_USE while a quiz shows it (a
 *   picture goes by itself when the last quiz showing it is deleted).
 * The credential is checked before the body is read.
 */

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

const readBody = express.raw({ type: () => true, limit: MAX_IMAGE_BYTES });

function bodyOf(request: Request, response: Response): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    readBody(request, response, (error?: unknown) => {
      if (error) reject(error);
      else resolve(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
    });
  });
}

/** The picture owner a credential acts as: the account, within its class for a class instructor token. */
export function ownerOf(grant: Grant & { classId?: string }): ImageOwner {
  return { accountId: grant.accountId, ...(grant.via === 'token' ? { classId: grant.classId } : {}) };
}

export function createQuizImagesRouter({ images, access }: { images: QuizImages; access: Authorizer }): Router {
  const router = Router();

  router.post(
    '/',
    route(async (request, response) => {
      const owner = ownerOf(await access.accountOrClassToken(request, response));
      const saved = await images.save(await bodyOf(request, response), owner);
      response.status(201).json({ imageId: saved.imageId, url: imageUrl(saved.imageId), type: saved.type, bytes: saved.bytes });
    }),
  );

  router.get(
    '/',
    route(async (request, response) => {
      const owner = ownerOf(await access.accountOrClassToken(request, response));
      response.json(await images.list(owner, parseOrThrow(PageQuery, request.query)));
    }),
  );

  router.delete(
    '/:id',
    route(async (request, response) => {
      const owner = ownerOf(await access.accountOrClassToken(request, response));
      await images.delete(String(request.params.id), owner);
      response.status(204).end();
    }),
  );

  router.get(
    '/:id',
    route(async (request, response) => {
      const owner = ownerOf(await access.accountOrClassToken(request, response));
      const image = await images.getOwned(String(request.params.id), owner);
      response.setHeader('Content-Type', image.type);
      response.setHeader('X-Content-Type-Options', 'nosniff');
      response.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      response.setHeader('Content-Disposition', 'inline');
      response.setHeader('Cache-Control', 'private, no-store');
      response.end(image.bytes);
    }),
  );

  return router;
}
