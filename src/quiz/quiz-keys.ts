import { storeKey as key } from '../store/index.js';

/** The quiz feature's store keys: quizzes, self-study items, live rooms and their kept results, uploaded pictures. */
export const quizKeys = {
  /** A quiz (JSON: title, items with solutions, classId); no TTL. */
  quiz: (id: string) => key('quiz', id),
  /** A quiz's list entry (JSON: quizId, classId, title, itemCount, createdAt), written with the quiz; no TTL. */
  quizSummary: (id: string) => key('quiz', id, 'summary'),
  /** A short lease held while a quiz's stored JSON is rewritten (an instructor keeping a failed item); TTL. */
  quizEditLock: (id: string) => key('quiz', id, 'edit', 'lock'),
  /**
   * The quizzes whose items show a page of the material as their picture (sorted set of quiz ids by when they were
   * saved); an owner cannot give up the material while one of its quizzes is here; no TTL, entries go with the quiz.
   */
  materialPictureQuizzes: (materialId: string) => key('material', materialId, 'picture-quizzes'),
  /** The quizzes of a class (sorted set of quiz ids scored by creation time); no TTL. */
  classQuizzes: (classId: string) => key('class', classId, 'quizzes'),
  /**
   * One served self-study item of seed 001's API (hash: `record` JSON — item with solution, material, caller scope,
   * gate review — created with HSETNX so a colliding 8-hex id never overwrites; `answer` JSON, HSETNX: the first
   * answer is the recorded one; `eval:{topic}` JSON, the EvalAgent's verdict for that topic); TTL 24 h, set with each write.
   */
  selfQuizItem: (quizId: string) => key('self-quiz', quizId),
  /**
   * The self-study items served from a material, or to a class's students (sorted set of quiz ids by creation time),
   * so deleting the material or the class deletes them too; the same TTL as the items, refreshed by each new item.
   */
  selfQuizIndex: (owner: 'material' | 'class', id: string) => key(owner, id, 'self-quiz'),
  /**
   * Seed 001's `/answer` and `/evaluate` on the items of a class quiz (hash: `answer:{index}:{caller}` JSON, HSETNX:
   * a caller's first answer to the item is the recorded one; `eval:{index}:{topic}` JSON, the EvalAgent's verdict);
   * the self-study TTL, set with each write; deleted with the quiz.
   */
  classQuizItems: (quizId: string) => key('quiz', quizId, 'seed-items'),
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
  /** A room's results head (JSON, derived from the recorded answers; rewritten at each reveal and at the end); no TTL. */
  roomResults: (id: string) => key('room', id, 'results'),
  /** An uploaded quiz picture's record (JSON: accountId, classId, type, bytes, createdAt; the bytes are a blob); no TTL. */
  quizImage: (imageId: string) => key('quiz-image', imageId),
  /** The quizzes whose items show a picture (sorted set of quiz ids); the picture goes when the last one does; no TTL. */
  quizImageQuizzes: (imageId: string) => key('quiz-image', imageId, 'quizzes'),
  /** A deletion of the picture under way (string, SET NX; quiz-images.ts): a quiz's claim then gives up; TTL. */
  quizImageDeleting: (imageId: string) => key('quiz-image', imageId, 'deleting'),
  /** An account's uploaded quiz pictures (sorted set of image ids scored by upload time); no TTL. */
  accountQuizImages: (accountId: string) => key('account', accountId, 'quiz-images'),
  /** Rooms whose results hold student data (sorted set scored by the last results write): the retention purge's queue. */
  retentionRooms: () => key('retention', 'rooms'),
  /** Uploaded quiz pictures no quiz showed yet (sorted set scored by upload time): the retention purge's other queue. */
  retentionImages: () => key('retention', 'quiz-images'),
  /** Set once the pictures uploaded before retentionImages existed were queued from their accounts' lists; no TTL. */
  retentionImagesBackfilled: () => key('retention', 'quiz-images', 'backfilled'),
  /** A room's results per question (hash: question index -> JSON {player id: result}; see room-results.ts); no TTL. */
  roomQuestionResults: (id: string) => key('room', id, 'question-results'),
};
