import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { PdfJobError } from './pdf-worker-pool.js';

/**
 * Every error an upload can end in, with the status and the plain-Korean message the upload page shows as is.
 * The messages say what to do next, not what went wrong inside.
 */
export const materialErrors = {
  fileRequired: () =>
    new AppError(ErrorCode.FILE_REQUIRED, 'PDF 파일을 첨부해 주세요. (multipart 필드 이름: file)'),
  notAPdf: () => new AppError(ErrorCode.NOT_A_PDF),
  tooLarge: (maxBytes: number) =>
    new AppError(
      ErrorCode.PDF_TOO_LARGE,
      `파일이 너무 큽니다. ${Math.floor(maxBytes / (1024 * 1024))}MB 이하의 PDF만 올릴 수 있습니다.`,
    ),
  corrupt: (cause?: unknown) =>
    new AppError(
      ErrorCode.CORRUPT_PDF,
      'PDF 파일이 손상되었거나 끝까지 전송되지 않아 열 수 없습니다. 원본 파일을 다시 올려 주세요.',
      { cause },
    ),
  encrypted: () =>
    new AppError(ErrorCode.ENCRYPTED_PDF, '암호가 걸린 PDF는 읽을 수 없습니다. 암호를 해제한 뒤 다시 올려 주세요.'),
  tooManyPages: (pageCount: number | undefined, maxPages: number) =>
    new AppError(
      ErrorCode.TOO_MANY_PAGES,
      `쪽수가 너무 많습니다${pageCount === undefined ? '' : `(${pageCount}쪽)`}. ${maxPages}쪽 이하의 PDF만 올릴 수 있습니다.`,
    ),
  noTextLayer: () =>
    new AppError(
      ErrorCode.NO_TEXT_LAYER,
      '이 PDF에는 글자 정보가 없습니다(스캔한 이미지로 보입니다). 글자를 선택하거나 복사할 수 있는 PDF를 올려 주세요.',
    ),
  timeout: () =>
    new AppError(
      ErrorCode.PDF_TIMEOUT,
      'PDF를 분석하는 데 너무 오래 걸려 중단했습니다. 파일을 더 작게 나누어 다시 올려 주세요.',
    ),
  tooComplex: () =>
    new AppError(
      ErrorCode.PDF_TOO_COMPLEX,
      'PDF의 압축을 풀면 너무 커지거나 내부 구성 요소가 너무 많아 분석하지 않았습니다. 파일을 여러 개로 나누거나 다른 프로그램에서 PDF로 다시 저장해 올려 주세요.',
    ),
  busy: () =>
    new AppError(ErrorCode.SERVER_BUSY, '지금 PDF를 분석하려는 요청이 너무 많습니다. 잠시 후 다시 올려 주세요.', { retryable: true }),
  materialNotFound: () => new AppError(ErrorCode.NOT_FOUND, '해당 자료를 찾을 수 없습니다.'),
  chapterNotFound: () => new AppError(ErrorCode.NOT_FOUND, '해당 챕터를 찾을 수 없습니다.'),
  pageOutOfRange: (pageCount: number) => new AppError(ErrorCode.PAGE_OUT_OF_RANGE, `자료에 없는 쪽입니다. 이 자료는 1쪽부터 ${pageCount}쪽까지 있습니다.`),
};

/** Maps a failed PDF worker job to its wire error. */
export function fromPdfJobError(error: PdfJobError, maxPages: number): AppError {
  switch (error.kind) {
    case 'encrypted':
      return materialErrors.encrypted();
    case 'too-many-pages':
      return materialErrors.tooManyPages(error.pageCount, maxPages);
    case 'timeout':
      return materialErrors.timeout();
    case 'corrupt':
      return materialErrors.corrupt(error);
    case 'busy':
      return materialErrors.busy();
    case 'too-complex':
      return materialErrors.tooComplex();
  }
}
