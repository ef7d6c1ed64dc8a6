/** socket.io room names, shared by the namespaces that emit into each other's rooms. */

/** Every socket of one tutoring session (on `/tutor`). */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** A class: its instructors on `/monitor`, its students on `/tutor`. */
export const classRoom = (classId: string) => `class:${classId}`;

/** The owner's sockets watching one background job (on `/jobs`). */
export const jobRoom = (jobId: string) => `job:${jobId}`;
