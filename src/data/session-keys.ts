import { keys } from '../store/index.js';

/** Every key of a tutoring session: record, event log, transcript (answers, verdicts, hand dialogue), driver lease, usage, first short math answers. */
export function sessionKeys(sessionId: string): string[] {
  return [keys.session(sessionId), keys.sessionLog(sessionId), keys.sessionTranscript(sessionId), keys.sessionDriver(sessionId), keys.usage('session', sessionId), keys.sessionMathAnswers(sessionId)];
}
