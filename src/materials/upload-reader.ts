import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { materialErrors } from './material-errors.js';

export interface PdfUpload {
  bytes: Buffer;
  /** Hex sha256 of `bytes`, computed while the upload streamed in. */
  sha256: string;
  filename: string | null;
}

export interface ReadUploadOptions {
  maxBytes: number;
  /** The multipart field holding the file. */
  field?: string;
}

/** The PDF header may follow a little junk (the spec allows it, readers accept it); look this far for it. */
const MAGIC_WINDOW = 1024;
const PDF_MAGIC = Buffer.from('%PDF-');
/** Room for multipart boundaries and headers on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * Reads the PDF from a multipart upload, streaming: it hashes as bytes arrive, rejects a non-PDF as soon as its
 * first kilobyte is in, and stops reading the moment the size cap is passed (the caller answers and closes the
 * connection; the rest of the body is never read).
 */
export function readPdfUpload(request: IncomingMessage, options: ReadUploadOptions): Promise<PdfUpload> {
  const field = options.field ?? 'file';
  const { maxBytes } = options;
  return new Promise<PdfUpload>((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_OVERHEAD) {
      reject(materialErrors.tooLarge(maxBytes));
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        defParamCharset: 'utf8',
        limits: { files: 1, fileSize: maxBytes, fields: 20, fieldSize: 16 * 1024, parts: 40 },
      });
    } catch {
      // Not multipart at all (e.g. a JSON body): there is no file field to read.
      reject(materialErrors.fileRequired());
      return;
    }

    let settled = false;
    let found: Promise<PdfUpload | null> | null = null;
    // The per-file cap does not bound what busboy reads around it (ignored files, many parts): cap the body too.
    let received = 0;
    const countBytes = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes + MULTIPART_OVERHEAD) fail(materialErrors.tooLarge(maxBytes));
    };
    const fail = (error: AppError) => {
      if (settled) return;
      settled = true;
      // Stop reading: no listener keeps the request flowing, so the unread rest stays in the socket.
      request.off('data', countBytes);
      request.unpipe(parser);
      request.pause();
      parser.removeAllListeners();
      parser.on('error', () => undefined);
      reject(error);
    };

    parser.on('file', (name, stream, info) => {
      if (name !== field || found) {
        stream.resume();
        return;
      }
      found = new Promise<PdfUpload | null>((resolveFile) => {
        const hash = createHash('sha256');
        const chunks: Buffer[] = [];
        let length = 0;
        let magicChecked = false;
        const checkMagic = () => {
          magicChecked = true;
          const head = Buffer.concat(chunks).subarray(0, MAGIC_WINDOW);
          if (head.indexOf(PDF_MAGIC) === -1) {
            stream.destroy();
            fail(materialErrors.notAPdf());
          }
        };
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          chunks.push(chunk);
          length += chunk.length;
          hash.update(chunk);
          if (!magicChecked && length >= MAGIC_WINDOW) checkMagic();
        });
        stream.on('limit', () => {
          stream.destroy();
          fail(materialErrors.tooLarge(maxBytes));
        });
        stream.on('end', () => {
          if (settled) return;
          if (length === 0) {
            resolveFile(null);
            return;
          }
          if (!magicChecked) checkMagic();
          if (settled) return;
          resolveFile({ bytes: Buffer.concat(chunks, length), sha256: hash.digest('hex'), filename: info.filename || null });
        });
      });
    });
    parser.on('error', () =>
      fail(new AppError(ErrorCode.INVALID_PAYLOAD, '업로드 요청 형식이 올바르지 않습니다. 다시 시도해 주세요.')),
    );
    parser.on('close', () => {
      if (settled) return;
      const pending = found as Promise<PdfUpload | null> | null;
      if (!pending) {
        fail(materialErrors.fileRequired());
        return;
      }
      void pending.then((upload) => {
        if (settled) return;
        if (!upload) {
          fail(materialErrors.fileRequired());
          return;
        }
        settled = true;
        resolve(upload);
      });
    });
    request.on('data', countBytes);
    request.on('aborted', () => fail(new AppError(ErrorCode.INVALID_PAYLOAD, '업로드가 중간에 끊겼습니다.')));
    request.pipe(parser);
  });
}
