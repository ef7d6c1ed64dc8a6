/**
 * Pagination of every list endpoint: `?cursor=&limit=` in, `{<items>: [...], nextCursor}` out. `limit` is 1–50
 * (default 20); `cursor` is the opaque `nextCursor` of the previous page (absent for the first page). A page holds at
 * most `limit` items; `nextCursor: null` means there is nothing after it. A cursor stays valid while items are added
 * in front of it (new items appear on the first page, never twice). See docs/PROTOCOL.md ("Conventions").
 */
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 50;

export interface PageRequest {
  cursor?: string | undefined;
  limit: number;
}

export interface Page<T> {
  items: T[];
  /** Pass it back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}
