import { storeKey as key } from '../store/index.js';

/** The classroom's store keys: a class's record, join code, nicknames and roster. */
export const classKeys = {
  /** A class (hash: name, code, materialId?, createdAt); no TTL. */
  classRecord: (id: string) => key('class', id),
  /** Join code -> class id, reserved with SET NX so two classes never share a code; no TTL. */
  classCode: (code: string) => key('classcode', code),
  /** Nicknames taken in a class (hash: case-folded nickname -> session id). */
  classNicknames: (id: string) => key('class', id, 'nicknames'),
  /** A roster class's names (hash: case-folded name -> the name as the instructor wrote it); no TTL, deleted with the class. */
  classRosterNames: (id: string) => key('class', id, 'roster-names'),
  /** The class's students (sorted set of session ids scored by join time: the roster's order). */
  classStudents: (id: string) => key('class', id, 'students'),
  /** One roster entry (hash of scalar fields; see classroom/class-repository.ts). */
  classStudent: (id: string, sessionId: string) => key('class', id, 'student', sessionId),
};
