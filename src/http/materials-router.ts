import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { MATERIAL_ID, materialErrors, readPdfUpload, type MaterialService } from '../materials/index.js';
import type { OwnershipRepository } from '../ownership/index.js';
import { PageQuery } from '../protocol/page.js';
import type { Authorizer } from './authorize.js';
import { optionalAccount, requireAccount } from './principal.js';
import type { Quotas } from '../quota/index.js';
import type { ModelBudget } from '../llm/index.js';
import { ingestCharged, uploadingAccount } from './quota-hooks.js';
import { contentDisposition } from './content-disposition.js';
import { parseOrThrow } from '../boundary/index.js';
import type { MaterialKeyTerms } from '../protocol/wire/material-terms.js';

export interface MaterialsRouterDeps {
  materials: MaterialService;
  ownership: OwnershipRepository;
  access: Authorizer;
  logger: Logger;
  quotas: Quotas;
  budget: ModelBudget;
  /**
   * The key terms a chapter teaches (the raise-hand assistant's deterministic concept list, no model call): what the
   * host's quiz topics and the classroom's question example are made of. Absent: the route answers no terms.
   */
  keyTerms?: (materialId: string, chapter: number) => Promise<string[]>;
}

const IdParams = z.object({ id: z.string().regex(MATERIAL_ID, '자료 id는 32자리 16진수입니다.') });
const ChapterParams = IdParams.extend({
  index: z
    .string()
    .regex(/^\d{1,4}$/, '챕터 번호는 0 이상의 정수입니다.')
    .transform(Number),
});

const PageParams = IdParams.extend({
  page: z
    .string()
    .regex(/^[1-9]\d{0,4}$/, '쪽 번호는 1 이상의 정수입니다.')
    .transform(Number),
});

const unknownCursor = () =>
  new AppError(ErrorCode.INVALID_PAYLOAD, '목록 위치(cursor)를 찾을 수 없습니다. 처음부터 다시 불러와 주세요.');

/**
 * /api/materials (materials have owners): upload (an account; multipart field `file`; the account becomes
 * an owner, also of bytes another account uploaded before), list (`?cursor=&limit=`: an account's "내 자료" newest
 * first with the built-in sample flagged `sample: true` on the first page; anonymous callers and students get only
 * the sample: `{materials, nextCursor, limits}`), and, per authorizeMaterialRead, one material, a chapter's text, its
 * PDF slice and one page as a one-page PDF (`/:id/pages/:page.pdf`, 1-based; 400 PAGE_OUT_OF_RANGE past the last). Errors reach the error middleware as AppErrors and answer `{"error":{"code","message"}}`.
 */
export function createMaterialsRouter({ materials, ownership, access, logger, quotas, budget, keyTerms }: MaterialsRouterDeps): Router {
  const router = Router();
  const log = logger.child({ component: 'materials-router' });

  router.post('/', async (request: Request, response: Response, next: NextFunction) => {
    let upload;
    let accountId: string;
    try {
      // The account before the body: an anonymous upload would start the analyst's model call. Then its quotas and
      // today's model budget (QUOTA).
      ({ accountId } = requireAccount(response));
      await uploadingAccount(quotas, budget, response);
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
      const { material, created, timings } = await ingestCharged(quotas, accountId, upload, () => materials.ingest({ ...upload, owner: accountId }));
      if (timings) log.debug({ materialId: material.id, timings }, 'upload ingested');
      await ownership.addMaterialOwner(material.id, accountId, Date.now());
      response.status(created ? 201 : 200).json(material);
    } catch (error) {
      next(error);
    }
  });

  router.get('/', async (request, response, next) => {
    try {
      const page = parseOrThrow(PageQuery, request.query);
      const principal = optionalAccount(response);
      const sample = page.cursor === undefined ? await materials.get(await materials.sampleId()) : null;
      const flagged = sample ? [{ ...sample, sample: true }] : [];
      if (!principal) {
        // One page of one item; a cursor can only be the sample's own id (then nothing follows).
        if (page.cursor !== undefined && page.cursor !== (await materials.sampleId())) throw unknownCursor();
        response.json({ materials: flagged, nextCursor: null, limits: materials.limits });
        return;
      }
      const { members, nextCursor } = await ownership.page(principal.accountId, 'material', page);
      const own = (await Promise.all(members.map((id) => materials.get(id)))).filter((material) => material !== null && material.id !== sample?.id);
      response.json({ materials: [...flagged, ...own], nextCursor, limits: materials.limits });
    } catch (error) {
      next(error);
    }
  });

  router.get('/:id', async (request, response, next) => {
    try {
      const { id } = parseOrThrow(IdParams, request.params);
      await access.authorizeMaterialRead(request, response, id, materialErrors.materialNotFound);
      const material = await materials.get(id);
      if (!material) throw materialErrors.materialNotFound();
      response.json(material);
    } catch (error) {
      next(error);
    }
  });

  // `GET /api/materials/:id/key-terms` -> MaterialKeyTerms: per chapter its title and the terms it teaches.
  router.get('/:id/key-terms', async (request, response, next) => {
    try {
      const { id } = parseOrThrow(IdParams, request.params);
      await access.authorizeMaterialRead(request, response, id, materialErrors.materialNotFound);
      const material = await materials.get(id);
      if (!material) throw materialErrors.materialNotFound();
      const chapters = await Promise.all(
        material.chapters.map(async (chapter) => ({ index: chapter.index, title: chapter.title, terms: keyTerms ? await keyTerms(id, chapter.index) : [] })),
      );
      const reply: MaterialKeyTerms = { materialId: id, chapters };
      response.json(reply);
    } catch (error) {
      next(error);
    }
  });

  router.get('/:id/chapters/:index/text', async (request, response, next) => {
    try {
      const { id, index } = parseOrThrow(ChapterParams, request.params);
      await access.authorizeMaterialRead(request, response, id, materialErrors.materialNotFound);
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
      await access.authorizeMaterialRead(request, response, id, materialErrors.materialNotFound);
      const bytes = await materials.chapterPdf(id, index);
      const chapter = (await materials.get(id))?.chapters[index];
      response.setHeader('Content-Type', 'application/pdf');
      response.setHeader('Content-Disposition', contentDisposition('inline', `${chapter?.title ?? `chapter-${index + 1}`}.pdf`));
      response.setHeader('Cache-Control', 'private, max-age=3600, immutable');
      response.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch (error) {
      next(error);
    }
  });

  // One page as a PDF of that page alone (the quiz editor's preview of a page picked as an item's picture).
  router.get('/:id/pages/:page.pdf', async (request, response, next) => {
    try {
      const { id, page } = parseOrThrow(PageParams, request.params);
      await access.authorizeMaterialRead(request, response, id, materialErrors.materialNotFound);
      const bytes = await materials.pagePdf(id, page);
      response.setHeader('Content-Type', 'application/pdf');
      response.setHeader('Content-Disposition', contentDisposition('inline', `page-${page}.pdf`));
      response.setHeader('Cache-Control', 'private, max-age=3600, immutable');
      response.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch (error) {
      next(error);
    }
  });

  return router;
}
