import { type Store } from '../store/index.js';
import type { FeedHub } from './chapter-feed.js';
import type { LectureGenerator, LectureMaterial } from './lecture-generator.js';
import { displayText, parseLecture, type LectureSegment } from './marker-parser.js';
import { lectureKeys } from './lecture-keys.js';

export { displayText };
import { isActive, type ActiveState, type SessionState } from './session-state.js';

export interface LectureViewDeps {
  store: Store;
  generator: LectureGenerator;
  feeds: FeedHub;
  material: LectureMaterial;
}

/**
 * A session's lecture as the student sees it: a chapter's display text and where a state stands in it, read from
 * this node's feed when that holds the text, from the store otherwise. The session actor, the tutoring steps and
 * the snapshot all read positions through it, so they agree on them.
 */
export class LectureView {
  constructor(private readonly deps: LectureViewDeps) {}

  async readSegments(chapter: number): Promise<LectureSegment[]> {
    const cacheKey = this.deps.generator.cacheKey(this.deps.material.id, chapter);
    const entries = await this.deps.store.xread(lectureKeys.lectureText(cacheKey), '0');
    return parseLecture(entries.map((entry) => entry.fields.t ?? '').join(''));
  }

  /** The chapter's lecture as the student sees it (what the tutor judges against). */
  async chapterLecture(chapter: number): Promise<string> {
    const feed = this.deps.feeds.get(this.deps.generator.cacheKey(this.deps.material.id, chapter));
    // The feed this node streams from is the cheap source; a feed still loading is read from the store instead.
    if (feed.state === 'done') return feed.displayText();
    return displayText(await this.readSegments(chapter), Number.POSITIVE_INFINITY);
  }

  async displayOffset(state: SessionState): Promise<{ chapter: number; at: number }> {
    const active = state.kind === 'paused' ? state.previous : state;
    if (!isActive(active)) return { chapter: 0, at: 0 };
    const feed = this.deps.feeds.get(this.deps.generator.cacheKey(this.deps.material.id, active.chapter));
    // This node's feed usually holds the text already; only a freshly loaded session reads the store.
    if (feed.rawLength >= sourceOffset(active)) return this.displayOffsetNow(active);
    return { chapter: active.chapter, at: displayText(await this.readSegments(active.chapter), sourceOffset(active)).length };
  }

  /** Like displayOffset, from this node's feed (already loaded while a question is being tutored). */
  displayOffsetNow(state: ActiveState): { chapter: number; at: number } {
    const feed = this.deps.feeds.get(this.deps.generator.cacheKey(this.deps.material.id, state.chapter));
    return { chapter: state.chapter, at: displayText(feed.segments, sourceOffset(state)).length };
  }
}

/** Source offset up to which the chapter's lecture text has been shown in this state. */
export function sourceOffset(state: SessionState): number {
  switch (state.kind) {
    case 'streaming':
      return state.offset;
    case 'awaiting-answer':
    case 'tutoring':
      return state.question.start;
    case 'paused':
      return sourceOffset(state.previous);
    default:
      return Number.POSITIVE_INFINITY;
  }
}
