import { storeKey as key } from '../store/index.js';

/** The lecture's store keys: generated chapter lectures (and their index per material) and tutoring sessions. */
export const lectureKeys = {
  /** Generated chapter lecture, shared by every student and node: raw model text as an append-only stream. */
  lectureText: (cacheKey: string) => key('lecture', cacheKey, 'text'),
  /** 'done' once the chapter is complete; absent while generating or after a failed attempt. */
  lectureStatus: (cacheKey: string) => key('lecture', cacheKey, 'status'),
  /** Single-flight lease of the node generating a chapter. */
  lectureLock: (cacheKey: string) => key('lecture', cacheKey, 'lock'),
  /** A tutoring session's record (hash: profile fields, `state` JSON, `speed`). */
  session: (id: string) => key('session', id),
  /** Every event sent to the session, numbered by seq (capped stream), for replay on resume. */
  sessionLog: (id: string) => key('session', id, 'log'),
  /** The rendered history besides lecture text: questions, answers, verdicts, finished replies. */
  sessionTranscript: (id: string) => key('session', id, 'transcript'),
  /**
   * instructor replies to a raised hand waiting for the session's driver to number and send them
   * (stream, same TTL as the session; the record's `inbox` field is the id of the last one delivered).
   */
  sessionInbox: (id: string) => key('session', id, 'inbox'),
  /** Lease of the node currently driving the session. */
  sessionDriver: (id: string) => key('session', id, 'driver'),
  /**
   * The lecture cache keys ever generated for a material (sorted set scored by first use), recorded before the first
   * write of a chapter lecture: deleting the material enumerates its lectures from here, never by SCAN; no TTL.
   */
  materialLectures: (materialId: string) => key('material', materialId, 'lectures'),
};
