import { QuotaExceededError, type QuotaName } from '../kernel/index.js';

/**
 * The refusal of each quota, in Korean, naming the limit in words and numbers: what is full, how big it is, and what
 * the person can do about it (delete something, end a room). Programs read `quota` and `limit` instead.
 */
export function quotaExceeded(quota: QuotaName, limit: number): QuotaExceededError {
  return new QuotaExceededError(quota, limit, MESSAGES[quota](limit));
}

const count = (value: number) => value.toLocaleString('ko-KR');

/** 2 GiB as "2GB", 1.5 MiB as "1.5MB": the units people see in file managers (binary, as they compute them). */
export function formatBytes(bytes: number): string {
  const units = [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
  ] as const;
  for (const [unit, size] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1)).toLocaleString('ko-KR')}${unit}`;
  }
  return `${count(bytes)}바이트`;
}

const MESSAGES: Record<QuotaName, (limit: number) => string> = {
  materials: (limit) => `자료는 계정당 ${count(limit)}개까지 올릴 수 있습니다. 쓰지 않는 자료를 삭제한 뒤 다시 올려 주세요.`,
  'pdf-bytes': (limit) =>
    `계정에 올린 PDF 파일의 크기는 모두 합해 ${formatBytes(limit)}까지입니다. 쓰지 않는 자료를 삭제한 뒤 다시 올려 주세요.`,
  'quizzes-per-class': (limit) =>
    `퀴즈는 수업당 ${count(limit)}개까지 만들 수 있습니다. 쓰지 않는 퀴즈를 삭제한 뒤 다시 만들어 주세요.`,
  'quiz-image-bytes': (limit) =>
    `퀴즈 그림은 계정당 모두 합해 ${formatBytes(limit)}까지 올릴 수 있습니다. 쓰지 않는 그림을 삭제하거나, 그림이 든 퀴즈를 삭제한 뒤 다시 올려 주세요.`,
  'open-rooms': (limit) =>
    `동시에 열어 둘 수 있는 퀴즈 방은 ${count(limit)}개까지입니다. 끝난 방을 종료하거나 삭제한 뒤 다시 만들어 주세요.`,
};
