import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { PagePicture, RoomItem } from '../protocol/quiz.js';
import type { Store } from '../store/index.js';
import { quizKeys } from './quiz-keys.js';
import type { PhaseRecord } from './room-phase.js';
import type { RoomMeta } from './room-repository.js';

/**
 * Pages of a material as quiz items' pictures (`image: {kind: 'page', materialId, page}`).
 *
 * - On save, every page named must be of a material the quiz's owner account may use (one it owns, or the built-in
 *   sample: the caller decides through `mayUse`); another's or an unknown material is 404 MATERIAL_NOT_FOUND exactly
 *   like a missing one, a page past the material's last 400 PAGE_OUT_OF_RANGE.
 * - A quiz records the materials whose pages it shows (`material:{id}:picture-quizzes`), so an owner cannot give up a
 *   material one of its quizzes shows (409 MATERIAL_IN_USE, data/); the entry goes with the quiz.
 * - In a room, every item's picture is served by the room (`roomPictureUrl`) to the room's players and host only for a
 *   question that is on screen or was (its index at most the current question's); a future question's picture is 403
 *   PICTURE_NOT_SHOWN, so it never tells what comes next. In the lobby and after the last question nothing is on
 *   screen, and nothing is served. A page is a one-page PDF (cut once per page by the materials service); an uploaded
 *   image is its bytes with the type they prove (quiz-images.ts, whose own route only serves its owner).
 */

/** What the pictures need of the materials service. */
export interface PageSource {
  get(id: string): Promise<{ pageCount: number } | null>;
  pagePdf(id: string, page: number): Promise<Uint8Array>;
}

export interface PagePicturesOptions {
  store: Store;
  materials: PageSource;
  /** Whether the account may show pages of the material (it owns it, or it is the built-in sample). */
  mayUse(materialId: string, accountId: string): Promise<boolean>;
  /** Uploaded images (quiz-images.ts), served by the room like the pages. */
  images?: { get(imageId: string): Promise<{ bytes: Uint8Array; type: string } | null> } | undefined;
  now?: () => number;
}

/** A picture as a room serves it: its bytes and their content type. */
export interface RoomPicture {
  bytes: Uint8Array;
  type: string;
}

/** The page picture of an item, or null (no picture, or an uploaded image). */
export function pagePictureOf(item: Pick<RoomItem, 'image'>): PagePicture | null {
  return typeof item.image === 'object' ? item.image : null;
}

/** The materials whose pages the items show, each once. */
export function pageMaterialsOf(items: readonly Pick<RoomItem, 'image'>[]): string[] {
  return [...new Set(items.flatMap((item) => pagePictureOf(item)?.materialId ?? []))];
}

/** Where a room's players load the picture of question `index` (a page's one-page PDF, or an uploaded image). */
export const roomPictureUrl = (roomId: string, index: number) => `/api/rooms/${roomId}/pictures/${index}`;

/** The alt text of a page picture when the item gives none. */
export const pageAlt = (page: number) => `자료 ${page}쪽`;

const materialNotUsable = () => new AppError(ErrorCode.MATERIAL_NOT_FOUND, '자료를 찾을 수 없습니다. 내가 올린 자료나 예시 자료의 페이지만 그림으로 쓸 수 있습니다.');

/** Whether question `index` is on screen or was: a question with an index past the current one is not shown yet. */
export function pictureShown(record: PhaseRecord | null, index: number): boolean {
  if (record === null || !('q' in record)) return false;
  return index <= record.q;
}

export class PagePictures {
  private readonly now: () => number;

  constructor(private readonly options: PagePicturesOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Throws unless every page the items show is one the account may use (see the module comment). */
  async assertUsable(items: readonly Pick<RoomItem, 'image'>[], accountId: string): Promise<void> {
    for (const [index, item] of items.entries()) {
      const picture = pagePictureOf(item);
      if (!picture) continue;
      if (!(await this.options.mayUse(picture.materialId, accountId))) throw materialNotUsable();
      const material = await this.options.materials.get(picture.materialId);
      if (!material) throw materialNotUsable();
      if (picture.page > material.pageCount) {
        throw new AppError(ErrorCode.PAGE_OUT_OF_RANGE, `${index + 1}번 문제의 그림: 자료에 ${picture.page}쪽이 없습니다. 이 자료는 ${material.pageCount}쪽까지 있습니다.`);
      }
    }
  }

  /** Records that a quiz shows pages of these materials. */
  async attach(quizId: string, items: readonly Pick<RoomItem, 'image'>[]): Promise<void> {
    const now = this.now();
    for (const materialId of pageMaterialsOf(items)) await this.options.store.zadd(quizKeys.materialPictureQuizzes(materialId), now, quizId);
  }

  /** Question `index`'s picture, for a room member (see the module comment). */
  async roomPicture(meta: RoomMeta, record: PhaseRecord | null, index: number): Promise<RoomPicture> {
    const item = meta.items[index];
    if (!item) throw new AppError(ErrorCode.NOT_FOUND, '해당 문제가 없습니다.');
    if (!pictureShown(record, index)) throw new AppError(ErrorCode.PICTURE_NOT_SHOWN);
    const noPicture = () => new AppError(ErrorCode.NOT_FOUND, '이 문제에는 그림이 없습니다.');
    if (typeof item.image === 'string') {
      const image = await this.options.images?.get(item.image);
      if (!image) throw noPicture();
      return image;
    }
    const picture = pagePictureOf(item);
    if (!picture) throw noPicture();
    return { bytes: await this.options.materials.pagePdf(picture.materialId, picture.page), type: 'application/pdf' };
  }
}
