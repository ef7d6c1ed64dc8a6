import type { Logger } from '../kernel/index.js';
import { type Store } from '../store/index.js';
import { createMarkerParser, displayText as segmentsText, type LectureSegment, type MarkerParser } from './marker-parser.js';
import { lectureKeys } from './lecture-keys.js';

/**
 * One chapter's generated lecture as seen by this node: the raw text tailed from the store, parsed once into
 * segments that every student on the node reads with their own cursor (a source offset). The store stream is the
 * truth; a feed is a cache of it, so any node builds the same segments from the same stream.
 *
 * Stream entries (written by LectureGenerator): `{t}` a piece of raw model text, `{e:'done'}` the chapter is
 * complete, `{e:'failed',code,message}` an attempt failed (text so far stays; a later attempt continues it).
 */
export type FeedState = 'generating' | 'done' | 'failed';

export interface FeedFailure {
  code: string;
  message: string;
}

export class ChapterFeed {
  /** Certain segments in source order; text segments are exact slices of the raw text. */
  readonly segments: LectureSegment[] = [];
  state: FeedState = 'generating';
  failure: FeedFailure | undefined;
  /**
   * Failed attempts seen so far (the number of `failed` entries in the stream, the same on every node). A session
   * remembers how many it has reported, so after `lecture:resume` it waits for the retry instead of reporting the
   * same failure again.
   */
  failures = 0;
  private raw = '';
  private parser: MarkerParser = createMarkerParser();
  private readonly listeners = new Set<() => void>();

  constructor(readonly cacheKey: string) {}

  /** Raw source length received so far. */
  get rawLength(): number {
    return this.raw.length;
  }

  /** The model text as generated (markers included); what continuation prompts are built from. */
  get rawText(): string {
    return this.raw;
  }

  /** The text a student sees for the whole chapter so far (markers removed, questions excluded). */
  displayText(upTo = Number.POSITIVE_INFINITY): string {
    return segmentsText(this.segments, upTo);
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Applies one stream entry. */
  apply(fields: Record<string, string>): void {
    if (fields.t !== undefined) {
      this.raw += fields.t;
      this.segments.push(...this.parser.push(fields.t));
      if (this.state === 'failed') this.state = 'generating';
      this.failure = undefined;
    } else if (fields.e === 'done') {
      this.segments.push(...this.parser.end());
      this.state = 'done';
    } else if (fields.e === 'failed') {
      this.state = 'failed';
      this.failures += 1;
      this.failure = { code: fields.code ?? 'MODEL_UNAVAILABLE', message: fields.message ?? '' };
    } else if (fields.e === 'attempt') {
      this.state = 'generating';
      this.failure = undefined;
    }
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * All chapter feeds of this node, each fed by one store tail no matter how many students read it. Completed feeds
 * are kept (bounded, least recently used first out) because they are just text.
 */
export class FeedHub {
  private readonly feeds = new Map<string, { feed: ChapterFeed; abort: AbortController }>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly maxFeeds = 512,
  ) {}

  get(cacheKey: string): ChapterFeed {
    const existing = this.feeds.get(cacheKey);
    if (existing) {
      // Refresh recency.
      this.feeds.delete(cacheKey);
      this.feeds.set(cacheKey, existing);
      return existing.feed;
    }
    const feed = new ChapterFeed(cacheKey);
    const abort = new AbortController();
    this.feeds.set(cacheKey, { feed, abort });
    void this.tail(feed, abort.signal);
    this.evict();
    return feed;
  }

  close(): void {
    for (const { abort } of this.feeds.values()) abort.abort();
    this.feeds.clear();
  }

  private async tail(feed: ChapterFeed, signal: AbortSignal): Promise<void> {
    let lastId = '0';
    // A tail survives store outages: xtail waits through them; anything else is retried after a pause.
    while (!signal.aborted) {
      try {
        for await (const entry of this.store.xtail(lectureKeys.lectureText(feed.cacheKey), lastId, { signal })) {
          lastId = entry.id;
          feed.apply(entry.fields);
          if (feed.state === 'done') return;
        }
        return;
      } catch (error) {
        if (signal.aborted) return;
        this.logger.warn({ err: error, cacheKey: feed.cacheKey }, 'lecture feed tail failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  private evict(): void {
    if (this.feeds.size <= this.maxFeeds) return;
    for (const [cacheKey, entry] of this.feeds) {
      if (this.feeds.size <= this.maxFeeds) break;
      if (entry.feed.subscriberCount > 0) continue;
      entry.abort.abort();
      this.feeds.delete(cacheKey);
    }
  }
}
