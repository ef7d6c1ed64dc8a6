import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { BlobStore } from '../materials/index.js';
import type { PageRequest } from '../protocol/page.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { RoomItem } from '../protocol/quiz.js';
import { accountCounter } from '../quota/index.js';
import { pageOfIndex, type Store } from '../store/index.js';
import { quizKeys } from './quiz-keys.js';

/**
 * Pictures on quiz items: images an instructor uploads, kept in the blob store like the materials' bytes (Redis for
 * several nodes, the disk for one). A material's page as a picture is page-pictures.ts.
 *
 * Only PNG, JPEG, GIF and WebP are taken, recognised by their first bytes (never by the declared type or a name);
 * SVG (which can carry script) and anything else are refused. The content type served is the one the bytes prove.
 * An image's id is 128 random bits, but it is not a capability: its own route serves it only to its owner (the editor,
 * the owner's list), and players get it through their room, once its question is on screen (page-pictures.ts), so
 * an id copied out of a room or a list opens nothing for anyone else.
 *
 * Every image belongs to the account that uploaded it (and to the class, when a class instructor token uploaded it):
 * only that owner lists it, deletes it, or names it on a quiz item (a class token only the class's own pictures).
 * The bytes count against the account's `quiz-image-bytes` quota (429 QUOTA_EXCEEDED). A quiz records the pictures
 * its items show; when the last quiz showing a picture is deleted (directly or with its class, src/data), the picture
 * goes too, and its bytes are credited back; a class's deletion also takes the pictures its token uploaded that no
 * quiz shows. A picture no quiz shows is deleted by its owner (DELETE), or by the retention purge (src/data) once it
 * is older than the retention: every upload is queued in quizKeys.retentionImages by its upload time, and the purge
 * deletes the due ones no quiz shows (crediting their bytes back) and drops the others from the queue, since a picture
 * a quiz shows goes with its last quiz. (Quiz items never change after creation, so "a quiz shows it" is exactly
 * "a quiz item names it".)
 *
 * A quiz's save and a deletion (the purge, the owner's DELETE, a quiz's or class's deletion) may run at once on two
 * nodes; a picture must never be deleted under a quiz that names it. Both sides write first and read the other's
 * mark after (so at least one of them sees the other; the store's single-key operations are atomic on both stores):
 * a save claims (its entry in quizImageQuizzes, under a pending name until the quiz exists), then gives up (404)
 * when a deletion is marked (quizImageDeleting) or done; a deletion marks (SET NX), then backs off when a claim is
 * there. At worst both back off: the save is refused and the picture kept, never a quiz without its picture.
 */

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const IMAGE_ID = /^[0-9a-f]{32}$/;
const QUOTA_FIELD = 'quiz-image-bytes' as const;

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/** The image type the bytes are, or null (SVG, HTML, a PDF, anything else). */
export function imageTypeOf(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

const blobName = (imageId: string) => `quiz-image-${imageId}`;

/** The URL a page loads an image from. */
export const imageUrl = (imageId: string) => `/api/quiz-images/${imageId}`;

/** Who uploads (and may use) a picture: the account, and the class when a class instructor token acts. */
export interface ImageOwner {
  accountId: string;
  classId?: string | undefined;
}

const ImageRecord = z.object({ accountId: z.string(), classId: z.string(), type: z.string(), bytes: z.number(), createdAt: z.number() });
type ImageRecord = z.infer<typeof ImageRecord>;

/** One picture of an owner's list (GET /api/quiz-images). */
export interface ImageSummary {
  imageId: string;
  url: string;
  type: string;
  bytes: number;
  createdAt: number;
  /** How many quizzes show it. */
  quizzes: number;
}

/** The uploaded picture ids a quiz's items name (a material's page is not one). */
export function imagesOf(items: readonly Pick<RoomItem, 'image'>[]): string[] {
  return [...new Set(items.flatMap((item) => (typeof item.image === 'string' ? [item.image] : [])))];
}

const imageNotFound = () => new AppError(ErrorCode.NOT_FOUND, '그림을 찾을 수 없습니다. 직접 올린 그림만 쓰거나 지울 수 있습니다.');

/** A race point of claims and deletions, where tests run the other side (see the module comment). */
export type QuizImageStep = (step: 'claim' | 'purge', imageId: string) => Promise<void>;

/** How long a deletion's mark lives if its node dies before it ends (the picture then stays). */
const DELETING_MS = 60_000;

export interface QuizImagesOptions {
  blobs: BlobStore;
  /** Runs just before a claim is written and just before a due picture's deletion (tests interleave them). */
  step?: QuizImageStep;
  store: Store;
  /** MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT. */
  quotaBytes: number;
  now?: () => number;
}

export class QuizImages {
  private readonly now: () => number;

  constructor(private readonly options: QuizImagesOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Stores an uploaded image as the owner's; INVALID_PAYLOAD when it is empty, too large or not one of the four types,
   * QUOTA_EXCEEDED (`quiz-image-bytes`) when the account's pictures would exceed its quota.
   */
  async save(bytes: Uint8Array, owner: ImageOwner): Promise<{ imageId: string; type: ImageType; bytes: number }> {
    if (bytes.length === 0) throw new AppError(ErrorCode.INVALID_PAYLOAD, '그림 파일이 비어 있습니다.');
    if (bytes.length > MAX_IMAGE_BYTES) throw new AppError(ErrorCode.INVALID_PAYLOAD, `그림은 ${MAX_IMAGE_BYTES / 1024 / 1024}MB까지 올릴 수 있습니다.`);
    const type = imageTypeOf(bytes);
    if (!type) throw new AppError(ErrorCode.INVALID_PAYLOAD, 'PNG, JPEG, GIF, WebP 그림만 올릴 수 있습니다 (SVG는 안 됩니다).');
    const { store, blobs, quotaBytes } = this.options;
    // Counted first (two uploads at once cannot both slip under the quota), and back down when the upload fails.
    await accountCounter.reserve(store, owner.accountId, QUOTA_FIELD, bytes.length, quotaBytes);
    const imageId = randomBytes(16).toString('hex');
    try {
      await blobs.put(blobName(imageId), bytes);
      const record: ImageRecord = { accountId: owner.accountId, classId: owner.classId ?? '', type, bytes: bytes.length, createdAt: this.now() };
      await store.set(quizKeys.quizImage(imageId), JSON.stringify(record));
      await store.zadd(quizKeys.accountQuizImages(owner.accountId), record.createdAt, imageId);
      await store.zadd(quizKeys.retentionImages(), record.createdAt, imageId);
    } catch (error) {
      await accountCounter.release(store, owner.accountId, QUOTA_FIELD, bytes.length);
      await blobs.delete(blobName(imageId));
      throw error;
    }
    return { imageId, type, bytes: bytes.length };
  }

  /** The owner's image and its proven type; 404 for another's or an unknown id (as if it did not exist). */
  async getOwned(imageId: string, owner: ImageOwner): Promise<{ bytes: Buffer; type: ImageType }> {
    const record = await this.record(imageId);
    const image = record !== null && QuizImages.owns(record, owner) ? await this.get(imageId) : null;
    if (!image) throw imageNotFound();
    return image;
  }

  /** The image and its proven type, or null when there is none by that id (no owner check: the room serves it). */
  async get(imageId: string): Promise<{ bytes: Buffer; type: ImageType } | null> {
    if (!IMAGE_ID.test(imageId)) return null;
    const bytes = await this.options.blobs.get(blobName(imageId));
    const type = bytes ? imageTypeOf(bytes) : null;
    return bytes && type ? { bytes, type } : null;
  }

  private async record(imageId: string): Promise<ImageRecord | null> {
    if (!IMAGE_ID.test(imageId)) return null;
    const raw = await this.options.store.get(quizKeys.quizImage(imageId));
    if (raw === null) return null;
    try {
      const parsed = ImageRecord.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  private static owns(record: ImageRecord, owner: ImageOwner): boolean {
    return record.accountId === owner.accountId && (owner.classId === undefined || record.classId === owner.classId);
  }

  /** Throws 404 NOT_FOUND unless every picture named is the owner's (see the module comment). */
  async assertUsable(imageIds: readonly string[], owner: ImageOwner): Promise<void> {
    for (const imageId of imageIds) {
      const record = await this.record(imageId);
      if (record === null || !QuizImages.owns(record, owner)) throw imageNotFound();
    }
  }

  /**
   * Saves a quiz that shows these pictures: claims them first (under a name no quiz id has), so a deletion running
   * meanwhile either keeps them or the save is refused (404 NOT_FOUND, nothing saved, when one is gone or being
   * deleted); then records the saved quiz as showing them, or gives the claims up when the save failed.
   */
  async saveShowing<T extends { quizId: string }>(imageIds: readonly string[], save: () => Promise<T>): Promise<T> {
    if (imageIds.length === 0) return save();
    const pending = `pending-${randomBytes(16).toString('hex')}`;
    await this.claim(pending, imageIds);
    let saved: T;
    try {
      saved = await save();
    } catch (error) {
      await this.release(pending, imageIds);
      throw error;
    }
    const { store } = this.options;
    for (const imageId of imageIds) {
      await store.zadd(quizKeys.quizImageQuizzes(imageId), this.now(), saved.quizId);
      await store.zrem(quizKeys.quizImageQuizzes(imageId), pending);
    }
    return saved;
  }

  /** Claims the pictures under `pending`; 404 NOT_FOUND, with nothing claimed, when one is gone or being deleted. */
  private async claim(pending: string, imageIds: readonly string[]): Promise<void> {
    const { store, step } = this.options;
    const claimed: string[] = [];
    for (const imageId of imageIds) {
      await step?.('claim', imageId);
      await store.zadd(quizKeys.quizImageQuizzes(imageId), this.now(), pending);
      claimed.push(imageId);
      if ((await store.exists(quizKeys.quizImageDeleting(imageId))) || !(await store.exists(quizKeys.quizImage(imageId)))) {
        await this.release(pending, claimed);
        throw imageNotFound();
      }
    }
  }

  /**
   * A claim given up (the quiz was not saved): a picture left unclaimed goes back into the retention queue at its
   * upload time (a purge may have dropped it while it was claimed).
   */
  private async release(pending: string, imageIds: readonly string[]): Promise<void> {
    const { store } = this.options;
    for (const imageId of imageIds) {
      await store.zrem(quizKeys.quizImageQuizzes(imageId), pending);
      const record = await this.record(imageId);
      if (record && (await store.zcard(quizKeys.quizImageQuizzes(imageId))) === 0) await store.zadd(quizKeys.retentionImages(), record.createdAt, imageId);
    }
  }

  /** A quiz is gone: the pictures no other quiz shows go with it. */
  async quizDeleted(quizId: string, imageIds: readonly string[]): Promise<void> {
    for (const imageId of imageIds) {
      await this.options.store.zrem(quizKeys.quizImageQuizzes(imageId), quizId);
      await this.removeUnclaimed(imageId);
    }
  }

  /** A class is gone: the pictures its token uploaded that no quiz shows go with it. */
  async classDeleted(classId: string, accountId: string): Promise<void> {
    const { store } = this.options;
    const all = await store.zrange(quizKeys.accountQuizImages(accountId), 0, -1);
    for (const { member: imageId } of all) {
      const record = await this.record(imageId);
      if (record?.classId === classId) await this.removeUnclaimed(imageId);
    }
  }

  /** The owner's pictures, newest first. */
  async list(owner: ImageOwner, page: PageRequest): Promise<{ images: ImageSummary[]; nextCursor: string | null }> {
    const { members, nextCursor } = await pageOfIndex(this.options.store, quizKeys.accountQuizImages(owner.accountId), page, { reverse: true });
    const images: ImageSummary[] = [];
    for (const imageId of members) {
      const record = await this.record(imageId);
      if (record === null || !QuizImages.owns(record, owner)) continue;
      const quizzes = await this.options.store.zcard(quizKeys.quizImageQuizzes(imageId));
      images.push({ imageId, url: imageUrl(imageId), type: record.type, bytes: record.bytes, createdAt: record.createdAt, quizzes });
    }
    return { images, nextCursor };
  }

  /** Deletes one of the owner's pictures that no quiz shows: 404 for another's, 409 while a quiz shows it. */
  async delete(imageId: string, owner: ImageOwner): Promise<void> {
    const record = await this.record(imageId);
    if (record === null || !QuizImages.owns(record, owner)) throw imageNotFound();
    if ((await this.removeUnclaimed(imageId)) === 'claimed') throw new AppError(ErrorCode.IMAGE_IN_USE);
  }

  /**
   * The retention purge's step: of the `limit` oldest queued pictures, those uploaded at or before `before` are
   * deleted when no quiz shows them (bytes credited back) and leave the queue either way. Returns how many were
   * deleted and whether the batch was full of due pictures (more may be due).
   */
  async purgeUnused(before: number, limit: number): Promise<{ purged: number; more: boolean }> {
    const { store } = this.options;
    const oldest = await store.zrange(quizKeys.retentionImages(), 0, limit - 1);
    const due = oldest.filter((entry) => entry.score <= before);
    let purged = 0;
    for (const { member: imageId } of due) {
      if ((await store.zcard(quizKeys.quizImageQuizzes(imageId))) === 0) {
        await this.options.step?.('purge', imageId);
        if ((await this.removeUnclaimed(imageId)) === 'removed') purged += 1;
      }
      await store.zrem(quizKeys.retentionImages(), imageId);
    }
    return { purged, more: due.length === limit };
  }

  /**
   * Deletes the picture unless a quiz (or a save under way) claims it, marking the deletion first and reading the
   * claims after (see the module comment): 'removed', 'claimed' (kept), or 'busy' (another deletion is under way).
   */
  private async removeUnclaimed(imageId: string): Promise<'removed' | 'claimed' | 'busy'> {
    const { store } = this.options;
    const mark = quizKeys.quizImageDeleting(imageId);
    if (!(await store.set(mark, '1', { nx: true, ttlMs: DELETING_MS }))) return 'busy';
    try {
      if ((await store.zcard(quizKeys.quizImageQuizzes(imageId))) > 0) return 'claimed';
      const existed = (await this.record(imageId)) !== null;
      await this.remove(imageId);
      return existed ? 'removed' : 'busy';
    } finally {
      await store.del(mark);
    }
  }

  /**
   * Queues for the retention purge, once, the pictures uploaded before the queue existed: from each account's list,
   * those no quiz shows and not queued yet, at their upload time. Idempotent (queuing again changes nothing); a store
   * flag makes later runs skip the scan. Returns how many it queued.
   */
  async queueEarlierUploads(accountIds: AsyncIterable<string>): Promise<number> {
    const { store } = this.options;
    if ((await store.get(quizKeys.retentionImagesBackfilled())) !== null) return 0;
    let queued = 0;
    for await (const accountId of accountIds) {
      for (const { member: imageId } of await store.zrange(quizKeys.accountQuizImages(accountId), 0, -1)) {
        if ((await store.zscore(quizKeys.retentionImages(), imageId)) !== null) continue;
        if ((await store.zcard(quizKeys.quizImageQuizzes(imageId))) > 0) continue;
        const record = await this.record(imageId);
        if (record === null) continue;
        await store.zadd(quizKeys.retentionImages(), record.createdAt, imageId);
        queued += 1;
      }
    }
    await store.set(quizKeys.retentionImagesBackfilled(), String(this.now()));
    return queued;
  }

  /** The picture's bytes, record and list entry gone, its bytes credited back (idempotent). */
  private async remove(imageId: string): Promise<void> {
    const { store, blobs } = this.options;
    const record = await this.record(imageId);
    await blobs.delete(blobName(imageId));
    await store.zrem(quizKeys.retentionImages(), imageId);
    if (record === null) return;
    if ((await store.del(quizKeys.quizImage(imageId))) > 0) {
      await store.zrem(quizKeys.accountQuizImages(record.accountId), imageId);
      await accountCounter.release(store, record.accountId, QUOTA_FIELD, record.bytes);
    }
    await store.del(quizKeys.quizImageQuizzes(imageId));
  }
}
