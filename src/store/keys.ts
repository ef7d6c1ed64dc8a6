/**
 * Every store key is built here, so the key space can be read in one place. All keys share one prefix so a
 * Redis can be shared with other applications. Ephemeral things (sessions, rooms, locks) get TTLs where they are
 * written; results, exam logs and learner profiles have none.
 */
export const KEY_PREFIX = 'lectern:';

const key = (...parts: (string | number)[]) => KEY_PREFIX + parts.join(':');

export const keys = {
  /** A string used by readiness checks. */
  health: () => key('health'),
  /**
   * The deployment's token secret when TOKEN_SECRET is unset (string, SET NX by the first node); durable, no TTL:
   * every token in circulation depends on it (see classroom/token-secrets.ts).
   */
  tokenSecret: () => key('token-secret'),
  /** Token usage attributed to a session, room or material (hash: field per role and direction). */
  usage: (scope: 'session' | 'room' | 'material', id: string) => key('usage', scope, id),
  material: (id: string) => key('material', id),
  materialIndex: () => key('materials'),
  materialLock: (id: string) => key('material', id, 'lock'),
  blob: (name: string) => key('blob', name),
  /** A material's retrieval index (bytes: passages, labels, BM25 postings, vectors; see retrieval/index-codec.ts); no TTL. */
  retrievalIndex: (materialId: string) => key('material', materialId, 'retrieval'),
  /** Single-flight lease of the node building or re-embedding a material's retrieval index. */
  retrievalLock: (materialId: string) => key('material', materialId, 'retrieval', 'lock'),
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
  /** Lease of the node currently driving the session. */
  sessionDriver: (id: string) => key('session', id, 'driver'),
  /** A class (hash: name, code, materialId?, createdAt); no TTL. */
  classRecord: (id: string) => key('class', id),
  /** Join code -> class id, reserved with SET NX so two classes never share a code; no TTL. */
  classCode: (code: string) => key('classcode', code),
  /** Nicknames taken in a class (hash: case-folded nickname -> session id). */
  classNicknames: (id: string) => key('class', id, 'nicknames'),
  /** The class's students (sorted set of session ids scored by join time: the roster's order). */
  classStudents: (id: string) => key('class', id, 'students'),
  /** One roster entry (hash of scalar fields; see classroom/class-repository.ts). */
  classStudent: (id: string, sessionId: string) => key('class', id, 'student', sessionId),
  /** A quiz (JSON: title, items with solutions, classId); no TTL. */
  quiz: (id: string) => key('quiz', id),
  /** A quiz's list entry (JSON: quizId, title, itemCount, createdAt), written with the quiz; no TTL. */
  quizSummary: (id: string) => key('quiz', id, 'summary'),
  /** The quizzes of a class (sorted set of quiz ids scored by creation time); no TTL. */
  classQuizzes: (classId: string) => key('class', classId, 'quizzes'),
  /** A live room (hash: `meta` JSON fixed at creation, `phase` JSON, `locked`); TTL. */
  room: (id: string) => key('room', id),
  /** Room code -> room id, reserved with SET NX; TTL like the room. */
  roomCode: (code: string) => key('roomcode', code),
  /** Players of a room (hash: player id -> JSON record). */
  roomPlayers: (id: string) => key('room', id, 'players'),
  /** Nicknames taken in a room (hash: case-folded nickname -> player id; HSETNX makes them unique). */
  roomNicknames: (id: string) => key('room', id, 'nicknames'),
  /** Live player sockets of a room (hash: `nodeId|socketId` -> player id), for the host's player list. */
  roomPresence: (id: string) => key('room', id, 'presence'),
  /** A node's heartbeat (short TTL, renewed every second): presence entries of a node without one are stale. */
  nodeHeartbeat: (nodeId: string) => key('node', nodeId),
  /** Answers to one question (hash: player id -> JSON {choice, responseMs}; HSETNX: first write wins). */
  roomAnswers: (id: string, questionIndex: number) => key('room', id, 'answers', questionIndex),
  /** Phase changes of a room, in order (stream); every node tails it to render its own sockets' views. */
  roomEvents: (id: string) => key('room', id, 'events'),
  /** Lease of the node driving the room's timers. */
  roomDriver: (id: string) => key('room', id, 'driver'),
  /** Short mutex around a phase transition (read phase, check, write), so host commands and timers never race. */
  roomTransition: (id: string) => key('room', id, 'transition'),
  /** Rooms with a question running (preview or open; sorted set scored by when it started): what drivers look after. */
  activeRooms: () => key('rooms', 'active'),
  /** The rooms of a class (sorted set scored by creation time); no TTL. */
  classRooms: (classId: string) => key('class', classId, 'rooms'),
  /** A room's list entry (JSON: code, title, createdAt, phase, players), written with its results; no TTL. */
  roomSummary: (id: string) => key('room', id, 'summary'),
  /** A room's results (JSON, derived from the recorded answers; rewritten at each reveal and at the end); no TTL. */
  roomResults: (id: string) => key('room', id, 'results'),
};

export type Keys = typeof keys;
