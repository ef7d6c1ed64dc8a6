import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { MATERIAL_ID, materialErrors, readPdfUpload, type MaterialService } from '../materials/index.js';
import { PageQuery } from '../protocol/page.js';
import { parseOrThrow } from './validate.js';

export interface MaterialsRouterDeps {
  materials: MaterialService;
  logger: Logger;
}

const IdParams = z.object({ id: z.string().regex(MATERIAL_ID, '자료 id는 32자리 16진수입니다.') });
const ChapterParams = IdParams.extend({
  index: z
    .string()
    .regex(/^\d{1,4}$/, '챕터 번호는 0 이상의 정수입니다.')
    .transform(Number),
});

/** RFC 5987 filename so Korean chapter titles survive the Content-Disposition header. */
function pdfDisposition(name: string): string {
  const safe = name.replace(/[\\/:*?"<>|\r\n]+/g, ' ').trim() || 'chapter';
  return `inline; filename="chapter.pdf"; filename*=UTF-8''${encodeURIComponent(`${safe}.pdf`)}`;
}

/**
 * /api/materials: upload (multipart field `file`), list (`?cursor=&limit=`, one page newest first:
 * `{materials, nextCursor, limits}`), one material, a chapter's text and its PDF slice.
 * Errors reach the error middleware as AppErrors and answer `{"error":{"code","message"}}`.
 */
export function createMaterialsRouter({ materials, logger }: MaterialsRouterDeps): Router {
  const router = Router();
  const log = logger.child({ component: 'materials-router' });

  router.post('/', async (request: Request, response: Response, next: NextFunction) => {
    let upload;
    try {
      upload = await readPdfUpload(request, { maxBytes: materials.limits.maxPdfBytes });
    } catch (error) {
      // The body may be left unread on purpose (too large, not a PDF): answer, then close the connection
      // instead of draining megabytes nobody will use.
      response.setHeader('Connection', 'close');
      response.once('finish', () => {
        if (!request.complete) request.socket.destroySoon();
      });
      next(error);
      return;
    }
    try {
      const { material, created, timings } = await materials.ingest(upload);
      if (timings) log.debug({ materialId: material.id, timings }, 'upload ingested');
      response.status(created ? 201 : 200).json(material);
    } catch (error) {
      next(error);
    }
  });

  router.get('/', async (request, response, next) => {
    try {
      const { items, nextCursor } = await materials.list(parseOrThrow(PageQuery, request.query));
      response.json({ materials: items, nextCursor, limits: materials.limits });
    } catch (error) {
      next(error);
    }
  });

  router.get('/:id', async (request, response, next) => {
    try {
      const { id } = parseOrThrow(IdParams, request.params);
      const material = await materials.get(id);
      if (!material) throw materialErrors.materialNotFound();
      response.json(material);
    } catch (error) {
      next(error);
    }
  });

  router.get('/:id/chapters/:index/text', async (request, response, next) => {
    try {
      const { id, index } = parseOrThrow(ChapterParams, request.params);
      const text = await materials.chapterText(id, index);
      const chapter = (await materials.get(id))?.chapters[index];
      response.json({ ...chapter, text });
    } catch (error) {
      next(error);
    }
  });

  router.get('/:id/chapters/:index.pdf', async (request, response, next) => {
    try {
      const { id, index } = parseOrThrow(ChapterParams, request.params);
      const bytes = await materials.chapterPdf(id, index);
      const chapter = (await materials.get(id))?.chapters[index];
      response.setHeader('Content-Type', 'application/pdf');
      response.setHeader('Content-Disposition', pdfDisposition(chapter?.title ?? `chapter-${index + 1}`));
      response.setHeader('Cache-Control', 'public, max-age=3600, immutable');
      response.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch (error) {
      next(error);
    }
  });

  return router;
}
