import { randomBytes } from 'node:crypto';
import { AppError } from '../kernel/index.js';
import type { BlobStore } from '../materials/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';

/**
 * Pictures on quiz items: images an instructor uploads, kept in the blob store like the materials' bytes (Redis for
 * several nodes, the disk for one). A material's page is not rendered into a picture: the server has no PDF
 * rasteriser (PDF.js needs a canvas in Node), so a page is uploaded as an image too.
 *
 * Only PNG, JPEG, GIF and WebP are taken, recognised by their first bytes (never by the declared type or a name);
 * SVG (which can carry script) and anything else are refused. The content type served is the one the bytes prove.
 * An image's id is 128 random bits: players are anonymous nicknames, so the id in a question is what lets them
 * fetch it (a capability), and nothing else of the quiz can be reached from it.
 */

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const IMAGE_ID = /^[0-9a-f]{32}$/;

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

export class QuizImages {
  constructor(private readonly blobs: BlobStore) {}

  /** Stores an uploaded image; INVALID_PAYLOAD when it is empty, too large or not one of the four types. */
  async save(bytes: Uint8Array): Promise<{ imageId: string; type: ImageType; bytes: number }> {
    if (bytes.length === 0) throw new AppError(ErrorCode.INVALID_PAYLOAD, '그림 파일이 비어 있습니다.');
    if (bytes.length > MAX_IMAGE_BYTES) throw new AppError(ErrorCode.INVALID_PAYLOAD, `그림은 ${MAX_IMAGE_BYTES / 1024 / 1024}MB까지 올릴 수 있습니다.`);
    const type = imageTypeOf(bytes);
    if (!type) throw new AppError(ErrorCode.INVALID_PAYLOAD, 'PNG, JPEG, GIF, WebP 그림만 올릴 수 있습니다 (SVG는 안 됩니다).');
    const imageId = randomBytes(16).toString('hex');
    await this.blobs.put(blobName(imageId), bytes);
    return { imageId, type, bytes: bytes.length };
  }

  /** The image and its proven type, or null when there is none by that id. */
  async get(imageId: string): Promise<{ bytes: Buffer; type: ImageType } | null> {
    if (!IMAGE_ID.test(imageId)) return null;
    const bytes = await this.blobs.get(blobName(imageId));
    const type = bytes ? imageTypeOf(bytes) : null;
    return bytes && type ? { bytes, type } : null;
  }
}
