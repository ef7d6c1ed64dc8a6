import type { Socket as ClientSocket } from 'socket.io-client';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { SessionPort } from '../src/lecture/session-port.js';
import type { AcknowledgePayload, AnnouncePayload, HandReplyPayload, MONITOR_COMMANDS, TranscriptRequest } from '../src/protocol/classroom.js';
import type { ExtraTimePayload, JoinRoomPayload, KickPayload, QUIZ_COMMANDS, RoomOptions, SubmitAnswerPayload } from '../src/protocol/quiz.js';
import type { JOBS_COMMANDS } from '../src/protocol/jobs.js';
import type { AnswerSubmitPayload, HandTextPayload, SessionResumePayload, SpeedPayload, TUTOR_COMMANDS } from '../src/protocol/tutor.js';
import type * as wire from '../src/protocol/wire/index.js';
import type { RoomMember } from '../src/quiz/room-member.js';
import type { OnCommand } from '../src/realtime/commands.js';
import type { MonitorSocket, QuizSocket, TutorNamespace, TutorSocket } from '../src/realtime/socket-types.js';

/**
 * Type-level pins of the protocol maps (checked by `npm run typecheck`, which includes test/): every
 * `@ts-expect-error` below must be an error, so a map that loosens (an event name any string, a payload `object`,
 * an ack of any shape) fails the typecheck. The functions are never called: only their bodies' types matter.
 */

/** What a browser client's socket is: events in, commands out (the client/ bundle builds the same from wire/). */
type TutorClient = ClientSocket<wire.EventListeners<wire.TutorSocketEvents>, wire.CommandListeners<wire.TutorCommands>>;
type QuizClient = ClientSocket<wire.EventListeners<wire.QuizServerEvents>, wire.CommandListeners<wire.QuizCommands>>;

export function serverEmits(tutor: TutorSocket, namespace: TutorNamespace, monitor: MonitorSocket, quiz: QuizSocket): void {
  tutor.emit('lecture:delta', { seq: 1, chapter: 0, text: '안녕' });
  // @ts-expect-error an event name that is not in the /tutor map
  tutor.emit('lecture:deltas', { seq: 1, chapter: 0, text: '안녕' });
  // @ts-expect-error a payload without its text
  tutor.emit('lecture:delta', { seq: 1, chapter: 0 });
  // @ts-expect-error a /monitor event on a /tutor socket
  namespace.to('room').emit('class:roster', { classId: 'c', name: 'n', code: 'ABCDEF', closedAt: null, students: [] });
  namespace.to('room').emit('class:closed', { at: 1 });
  // @ts-expect-error the instructor's reply is a numbered session event: it needs its seq
  namespace.to('room').emit('hand:instructor-reply', { text: '답', sentAt: 1 });
  monitor.emit('hand:answered', { sessionId: 's', text: '답', at: 1 });
  // @ts-expect-error the monitor's class:closed carries closedAt
  monitor.emit('class:closed', { at: 1 });
  monitor.emit('student:left', { sessionId: 's' });
  // @ts-expect-error a wrong payload type
  monitor.emit('student:left', { sessionId: 1 });
  quiz.emit('room:recoverable', {});
  // @ts-expect-error /quiz events are payload maps too: one argument, of the event's type
  quiz.emit('room:kicked', 'reason');
}

export function serverCommands(tutorOn: OnCommand<wire.TutorCommands>, quizOn: OnCommand<wire.QuizCommands>): void {
  tutorOn('lecture:speed', ({ tokensPerSecond }) => ({ speed: tokensPerSecond }));
  // @ts-expect-error a command name that is not in the /tutor map
  tutorOn('lecture:sped', () => ({ speed: 1 }));
  // @ts-expect-error the handler's payload is the command's: lecture:speed has no text
  tutorOn('lecture:speed', ({ text }: { text: string }) => ({ speed: text.length }));
  // @ts-expect-error the ack result must be the command's ({speed: number})
  tutorOn('lecture:speed', async () => ({ speed: 'fast' }));
  quizOn('room:kick', () => ({ phase: 'lobby' }));
  // @ts-expect-error a host command acks the room's phase, one of the Phase names
  quizOn('room:kick', () => ({ phase: 'waiting' }));
}

export function clientSide(tutor: TutorClient, quiz: QuizClient): void {
  tutor.emit('lecture:speed', { tokensPerSecond: 40 }, (response) => {
    if (response.ok) expectTypeOf(response.speed).toEqualTypeOf<number>();
  });
  // @ts-expect-error a wrong payload type
  tutor.emit('lecture:speed', { tokensPerSecond: '40' }, () => undefined);
  // @ts-expect-error a command that does not exist
  tutor.emit('lecture:stop', {}, () => undefined);
  tutor.on('tutor:verdict', (payload) => expectTypeOf(payload.verdict).toEqualTypeOf<'good' | 'bad'>());
  // @ts-expect-error a listener of the wrong payload type
  tutor.on('lecture:end', (payload: { seq: string }) => payload);
  quiz.emit('room:join', { code: '123456', nickname: '민지' }, (response) => {
    if (response.ok) expectTypeOf(response).toHaveProperty('playerToken');
    else expectTypeOf(response.error.code).toEqualTypeOf<wire.ErrorCode>();
  });
}

export function ports(port: SessionPort, member: RoomMember): void {
  port.emit('tutor:reply-delta', { seq: 3, replyId: 'r', text: '...' });
  // @ts-expect-error the session port is typed by the /tutor map, not `(event: string, payload: object)`
  port.emit('tutor:reply-delta', { seq: 3, replyId: 'r' });
  // @ts-expect-error a session event the map does not have
  port.emit('tutor:reply-middle', { seq: 3 });
  member.send('room:kicked', { reason: 'x' });
  // @ts-expect-error a room member is sent /quiz events only
  member.send('lecture:end', { seq: 1 });
}

describe('protocol maps (type level; the @ts-expect-error cases are checked by npm run typecheck)', () => {
  it('every zod schema outputs exactly its wire type', () => {
    expectTypeOf<z.output<typeof SpeedPayload>>().toEqualTypeOf<wire.SpeedPayload>();
    expectTypeOf<z.output<typeof AnswerSubmitPayload>>().toEqualTypeOf<wire.AnswerSubmitPayload>();
    expectTypeOf<z.output<typeof SessionResumePayload>>().toEqualTypeOf<wire.SessionResumePayload>();
    expectTypeOf<z.output<typeof HandTextPayload>>().toEqualTypeOf<wire.HandTextPayload>();
    expectTypeOf<z.output<typeof AnnouncePayload>>().toEqualTypeOf<wire.AnnouncePayload>();
    expectTypeOf<z.output<typeof AcknowledgePayload>>().toEqualTypeOf<wire.AcknowledgePayload>();
    expectTypeOf<z.output<typeof TranscriptRequest>>().toEqualTypeOf<wire.TranscriptRequest>();
    expectTypeOf<z.output<typeof HandReplyPayload>>().toEqualTypeOf<wire.HandReplyPayload>();
    expectTypeOf<z.output<typeof JoinRoomPayload>>().toEqualTypeOf<wire.JoinRoomPayload>();
    expectTypeOf<z.output<typeof SubmitAnswerPayload>>().toEqualTypeOf<wire.SubmitAnswerPayload>();
    expectTypeOf<z.output<typeof KickPayload>>().toEqualTypeOf<wire.KickPayload>();
    expectTypeOf<z.output<typeof ExtraTimePayload>>().toEqualTypeOf<wire.ExtraTimePayload>();
    expectTypeOf<z.output<typeof RoomOptions>>().toEqualTypeOf<wire.RoomOptions>();
  });

  it('every namespace has a schema for each of its commands, and none besides', () => {
    expectTypeOf<keyof typeof TUTOR_COMMANDS>().toEqualTypeOf<keyof wire.TutorCommands>();
    expectTypeOf<keyof typeof MONITOR_COMMANDS>().toEqualTypeOf<keyof wire.MonitorCommands>();
    expectTypeOf<keyof typeof QUIZ_COMMANDS>().toEqualTypeOf<keyof wire.QuizCommands>();
    expectTypeOf<keyof typeof JOBS_COMMANDS>().toEqualTypeOf<keyof wire.JobsCommands>();
  });

  it('the namespace table names the four namespaces and their maps', () => {
    expectTypeOf<wire.NamespaceName>().toEqualTypeOf<'/tutor' | '/monitor' | '/quiz' | '/jobs'>();
    expectTypeOf<wire.Namespaces['/jobs']['events']['job:state']>().toEqualTypeOf<wire.JobState>();
    expectTypeOf<wire.Namespaces['/quiz']['events']['room:state']>().toEqualTypeOf<wire.RoomStatePayload>();
    expectTypeOf<wire.Namespaces['/tutor']['commands']['session:resume']['result']>().toEqualTypeOf<wire.ResumeResult>();
  });
});
