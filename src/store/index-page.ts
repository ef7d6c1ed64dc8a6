import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { PageRequest } from '../protocol/page.js';
import type { Store } from './store.js';

/**
 * One page of a sorted-set index (the lists of quizzes, rooms, materials, students), newest first or in order. The
 * cursor is the last member of the previous page: the next page starts right after wherever that member ranks now,
 * so members added in front (newer items) never push an item onto the next page twice. Two store calls (ZRANK,
 * ZRANGE of limit + 1) whatever the index's size; the caller then reads the page's items in one batch.
 */
export async function pageOfIndex(
  store: Store,
  key: string,
  page: PageRequest,
  options: { reverse: boolean },
): Promise<{ members: string[]; nextCursor: string | null }> {
  let start = 0;
  if (page.cursor !== undefined) {
    const rank = await store.zrank(key, page.cursor, options);
    if (rank === null) {
      throw new AppError(ErrorCode.INVALID_PAYLOAD, '목록 위치(cursor)를 찾을 수 없습니다. 처음부터 다시 불러와 주세요.');
    }
    start = rank + 1;
  }
  const entries = await store.zrange(key, start, start + page.limit, options);
  const members = entries.slice(0, page.limit).map((entry) => entry.member);
  return { members, nextCursor: entries.length > page.limit ? (members.at(-1) ?? null) : null };
}
