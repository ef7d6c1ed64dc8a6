/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - OW1 — Every documented route, cross-tenant. The test parses every `### \`METHOD /path\`` heading (several per
 *   heading too) and every row of the Quizzes table of docs/PROTOCOL.md …
 * - OW2 — Every socket command, cross-tenant. B's class token on `/monitor` sends every monitor command: those naming
 *   A's student are refused …
 * - OW3 — Lists per account, paginated. "내 수업" pages newest first with `{classId, name, code, materialId, createdAt,
 *   closed, studentCount}`; "내 퀴즈" (all, and per class), rooms per quiz and per class …
 * - OW4 — Students see their class's material only. A student's session token reads its class's material and chapter
 *   text, not another material (404); anonymous callers read neither …
 * - OW5 — Shared materials. The same PDF uploaded by two accounts is one material with two owners: one owner's delete
 *   leaves it whole for the other; the last owner's delete removes it and its owner set.
 * - OW6 — Disabled accounts. After the admin disables an account, its class token is refused at once on HTTP (403
 *   `ACCOUNT_DISABLED`), on an open `/monitor` socket's next command, on a new handshake …
 * - OW7 — Tokens without an account. A class token without scope (issued before accounts) is refused with 401 and a
 *   Korean message to sign in again, over HTTP and at the `/monitor` handshake …
 * - OW8 — Previews and anonymous callers. An account opens a session on its own material ("강의 미리 보기"); anonymous
 *   callers get 404 `MATERIAL_NOT_FOUND` for a session on an upload …
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_COMMANDS } from '../src/protocol/quiz.js';
import type { MONITOR_COMMANDS } from '../src/protocol/classroom.js';
import { signUp, type SignedUpAccount } from './support/accounts.js';
import { connectInstructor, handshakeOutcome, joinClass, type JoinedStudent } from './support/classroom-client.js';
import { madePdf, uploadPdf } from './support/data-flow.js';
import { call, type CallReply } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { joinRoom, openHost, sampleItems, type JoinedPlayer } from './support/quiz-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';
import { mathKeys } from '../src/math-problems/math-keys.js';

/**
 * OW1–OW8 (test/SPEC.md): ownership. Instructor B, with every credential an instructor has, can neither read, list,
 * use, change nor delete instructor A's materials, classes, quizzes and rooms; every route of docs/PROTOCOL.md has a
 * case here, so a new route without one fails OW1.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What A made, which B tries to reach. */
interface World {
  admin: SignedUpAccount;
  a: SignedUpAccount;
  b: SignedUpAccount;
  materialId: string;
  classId: string;
  code: string;
  classToken: string;
  quizId: string;
  roomId: string;
  roomCode: string;
  hostToken: string;
  student: JoinedStudent;
  player: JoinedPlayer;
  /** A self-study item A started (seed 001's API): only A may answer or evaluate it. */
  selfQuizId: string;
  /** B's own class, quiz and room (their tokens are B's "tokens" for the socket cases). */
  bClassToken: string;
  bHostToken: string;
  /** A's math problem job and set, made directly: the offline model writes no math problems. */
  jobId: string;
  setId: string;
  /** A's live exam, made directly and published to A's class, with A's student's draft. */
  examId: string;
  /** A quiz picture A uploaded (no quiz shows it: only its owner may delete it). */
  imageId: string;
}

/**
 * How each documented route is tried with B's credentials:
 * - `denied`: B calls it on A's thing and must get 403 or 404 (and the thing is unchanged, checked at the end);
 * - `list`: B's list answers 200 and names none of A's ids;
 * - `own`: the route acts only on the caller's own account (nothing of A's can be named), with the reason;
 * - `public`: no credential is involved by design, with the reason.
 */
type Case =
  | { kind: 'denied'; call: (world: World) => { method: Method; path: string; body?: unknown } }
  | { kind: 'list'; path: string }
  | { kind: 'own' | 'public'; why: string };

const CASES: Record<string, Case> = {
  'GET /api/auth/oidc': { kind: 'public', why: 'whether single sign-on is configured' },
  'GET /api/auth/oidc/start': { kind: 'public', why: 'starts a sign-in' },
  'GET /api/auth/oidc/callback': { kind: 'public', why: 'ends a sign-in' },
  'GET /healthz': { kind: 'public', why: 'operations' },
  'GET /readyz': { kind: 'public', why: 'operations' },
  'GET /metrics': { kind: 'public', why: 'operations, its own token' },
  'GET /favicon.ico': { kind: 'public', why: 'the site icon' },
  'POST /api/materials': { kind: 'own', why: 'an upload becomes the uploader’s (OW5 covers shared bytes)' },
  'GET /api/materials': { kind: 'list', path: '/api/materials' },
  'GET /api/materials/:id': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/materials/${w.materialId}` }) },
  'GET /api/materials/:id/chapters/:index/text': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/materials/${w.materialId}/chapters/0/text` }) },
  'GET /api/materials/:id/chapters/:index.pdf': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/materials/${w.materialId}/chapters/0.pdf` }) },
  'GET /api/materials/:id/pages/:page.pdf': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/materials/${w.materialId}/pages/1.pdf` }) },
  'POST /api/sessions': { kind: 'denied', call: (w) => ({ method: 'POST', path: '/api/sessions', body: { materialId: w.materialId, nickname: '미리보기' } }) },
  'POST /api/classes': { kind: 'denied', call: (w) => ({ method: 'POST', path: '/api/classes', body: { name: '남의 자료로', materialId: w.materialId } }) },
  'GET /api/classes': { kind: 'list', path: '/api/classes' },
  'POST /api/classes/:code/join': { kind: 'public', why: 'students join with the class code, which is the secret' },
  'GET /api/classes/:code/roster': { kind: 'public', why: 'students pick their name by class code' },
  'PUT /api/classes/:id/roster': { kind: 'denied', call: (w) => ({ method: 'PUT', path: `/api/classes/${w.classId}/roster`, body: { names: ['B가 넣은 이름'] } }) },
  'POST /api/classes/:id/roster/release': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/classes/${w.classId}/roster/release`, body: { name: '민지' } }) },
  'GET /api/classes/:id': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/classes/${w.classId}` }) },
  'POST /api/classes/:id/close': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/classes/${w.classId}/close` }) },
  'POST /api/classes/:id/code': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/classes/${w.classId}/code` }) },
  'GET /api/analytics/classes/:classId': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/analytics/classes/${w.classId}` }) },
  'GET /api/analytics/classes/:classId/:part.csv': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/analytics/classes/${w.classId}/mastery.csv` }) },
  'GET /api/analytics/classes/:classId/evidence': {
    kind: 'denied',
    call: (w) => ({ method: 'GET', path: `/api/analytics/classes/${w.classId}/evidence?sessionId=${w.student.sessionId}&chapter=0` }),
  },
  'POST /api/quizzes': { kind: 'denied', call: (w) => ({ method: 'POST', path: '/api/quizzes', body: { title: '남의 반', items: sampleItems(1), classId: w.classId } }) },
  'GET /api/quizzes': { kind: 'list', path: '/api/quizzes' },
  'POST /api/quiz-images': { kind: 'own', why: 'an upload names nothing of anyone’s; an item refers to it by its random id' },
  'GET /api/quiz-images': { kind: 'list', path: '/api/quiz-images' },
  'DELETE /api/quiz-images/:id': { kind: 'denied', call: (w) => ({ method: 'DELETE', path: `/api/quiz-images/${w.imageId}` }) },
  'GET /api/quiz-images/:id': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/quiz-images/${w.imageId}` }) },
  'GET /api/quizzes/:id': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/quizzes/${w.quizId}` }) },
  'POST /api/quizzes/:id/items/:itemId/keep': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/quizzes/${w.quizId}/items/0a1b2c3d/keep`, body: { kept: true } }) },
  'GET /api/materials/:id/quiz-topics': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/materials/${w.materialId}/quiz-topics` }) },
  'GET /api/materials/:id/key-terms': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/materials/${w.materialId}/key-terms` }) },
  'POST /api/materials/:id/quiz': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/materials/${w.materialId}/quiz`, body: {} }) },
  'POST /api/quiz/start': { kind: 'denied', call: (w) => ({ method: 'POST', path: '/api/quiz/start', body: { topic: 'general', materialId: w.materialId } }) },
  'POST /api/quiz/answer': { kind: 'denied', call: (w) => ({ method: 'POST', path: '/api/quiz/answer', body: { quiz_id: w.selfQuizId, answer: 0 } }) },
  'POST /api/quiz/evaluate': { kind: 'denied', call: (w) => ({ method: 'POST', path: '/api/quiz/evaluate', body: { quiz_id: w.selfQuizId, topic: 'general' } }) },
  'POST /api/materials/:id/math-problems': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/materials/${w.materialId}/math-problems`, body: { count: 1, multipleChoice: 1 } }) },
  'GET /api/jobs/:id': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/jobs/${w.jobId}` }) },
  'POST /api/jobs/:id/cancel': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/jobs/${w.jobId}/cancel` }) },
  'GET /api/materials/:id/math-sets': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/materials/${w.materialId}/math-sets` }) },
  'GET /api/math-sets/:id': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/math-sets/${w.setId}` }) },
  'POST /api/math-sets/:id/quiz': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/math-sets/${w.setId}/quiz`, body: {} }) },
  'POST /api/math-sets/:id/problems/:problemId/answer': {
    kind: 'denied',
    call: (w) => ({ method: 'POST', path: `/api/math-sets/${w.setId}/problems/p1/answer`, body: { answer: '1' } }),
  },
  'POST /api/math-sets/:id/share': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/math-sets/${w.setId}/share`, body: { classId: w.classId } }) },
  // A class's students (their session token) answer the sets shared with their class; an instructor's credential 403.
  'GET /api/class-math/problems': { kind: 'denied', call: () => ({ method: 'GET', path: '/api/class-math/problems' }) },
  'POST /api/class-math/answer': { kind: 'denied', call: (w) => ({ method: 'POST', path: '/api/class-math/answer', body: { setId: w.setId, problemId: 'p1', answer: '1' } }) },
  'POST /api/materials/:id/exams': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/materials/${w.materialId}/exams`, body: { count: 1, descriptive: 0 } }) },
  'GET /api/exams': { kind: 'list', path: '/api/exams' },
  'GET /api/exams/:examId': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/exams/${w.examId}` }) },
  'PATCH /api/exams/:examId/problems/:id': { kind: 'denied', call: (w) => ({ method: 'PATCH', path: `/api/exams/${w.examId}/problems/1`, body: { model_answer: 'B의 답' } }) },
  'POST /api/exams/:examId/problems/:id/accept': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/exams/${w.examId}/problems/1/accept`, body: {} }) },
  'POST /api/exams/:examId/publish': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/exams/${w.examId}/publish`, body: { classId: w.classId, timeLimitMinutes: 5 } }) },
  'POST /api/exams/:examId/end': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/exams/${w.examId}/end` }) },
  'GET /api/exams/:examId/progress': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/exams/${w.examId}/progress` }) },
  'GET /api/exams/:examId/results': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/exams/${w.examId}/results` }) },
  'GET /api/exams/:examId/results.json': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/exams/${w.examId}/results.json` }) },
  'GET /api/exams/:examId/results.csv': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/exams/${w.examId}/results.csv` }) },
  'GET /api/exams/:examId/decisions.jsonl': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/exams/${w.examId}/decisions.jsonl` }) },
  'POST /api/exams/:examId/students/:sessionId/items/:questionId/override': {
    kind: 'denied',
    call: (w) => ({ method: 'POST', path: `/api/exams/${w.examId}/students/${w.student.sessionId}/items/1/override`, body: { status: 'Correct', reason: 'B의 정정' } }),
  },
  'GET /api/exams/:examId/items/:questionId/groups': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/exams/${w.examId}/items/1/groups` }) },
  'POST /api/exams/:examId/items/:questionId/groups/:groupId/grade': {
    kind: 'denied',
    call: (w) => ({ method: 'POST', path: `/api/exams/${w.examId}/items/1/groups/0123456789ab/grade`, body: { status: 'Correct', reason: 'B의 묶음 채점' } }),
  },
  'POST /api/exams/:examId/items/:questionId/answers/:sessionId/move-out': {
    kind: 'denied',
    call: (w) => ({ method: 'POST', path: `/api/exams/${w.examId}/items/1/answers/${w.student.sessionId}/move-out` }),
  },
  'POST /api/exams/:examId/items/:questionId/answers/:sessionId/move-in': {
    kind: 'denied',
    call: (w) => ({ method: 'POST', path: `/api/exams/${w.examId}/items/1/answers/${w.student.sessionId}/move-in` }),
  },
  'DELETE /api/exams/:examId': { kind: 'denied', call: (w) => ({ method: 'DELETE', path: `/api/exams/${w.examId}` }) },
  'GET /api/classes/:classId/students/:sessionId/profile': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/classes/${w.classId}/students/${w.student.sessionId}/profile` }) },
  'PATCH /api/classes/:classId/students/:sessionId/profile': {
    kind: 'denied',
    call: (w) => ({ method: 'PATCH', path: `/api/classes/${w.classId}/students/${w.student.sessionId}/profile`, body: { target_depth: 'Basic Recall', description: 'B의 목표' } }),
  },
  // A class's students (their session token) take the exams of their class; an instructor's credential 403.
  'GET /api/class-exams': { kind: 'denied', call: () => ({ method: 'GET', path: '/api/class-exams' }) },
  'GET /api/class-exams/:examId': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/class-exams/${w.examId}` }) },
  'PUT /api/class-exams/:examId/draft': { kind: 'denied', call: (w) => ({ method: 'PUT', path: `/api/class-exams/${w.examId}/draft`, body: { answers: { 1: 'B의 답' } } }) },
  'POST /api/class-exams/:examId/submit': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/class-exams/${w.examId}/submit`, body: {} }) },
  'GET /api/class-exams/:examId/result': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/class-exams/${w.examId}/result` }) },
  'POST /api/class-exams/:examId/regrade': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/class-exams/${w.examId}/regrade`, body: { questionId: 1, comment: 'B' } }) },
  'GET /api/class-exams/profile': { kind: 'denied', call: () => ({ method: 'GET', path: '/api/class-exams/profile' }) },
  'POST /api/class-exams/self-study': { kind: 'denied', call: () => ({ method: 'POST', path: '/api/class-exams/self-study', body: { count: 1, descriptive: 0 } }) },
  'GET /api/class-exams/self-study/jobs/:jobId': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/class-exams/self-study/jobs/${w.jobId}` }) },
  'POST /api/rooms': { kind: 'denied', call: (w) => ({ method: 'POST', path: '/api/rooms', body: { quizId: w.quizId } }) },
  'GET /api/rooms': { kind: 'list', path: '/api/rooms' },
  'GET /api/rooms/:id/results': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/rooms/${w.roomId}/results` }) },
  'GET /api/rooms/:id/pictures/:index': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/rooms/${w.roomId}/pictures/0` }) },
  'GET /api/rooms/:id/results.csv': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/rooms/${w.roomId}/results.csv` }) },
  'GET /api/rooms/join-qr.svg': { kind: 'public', why: 'a QR code of a join link' },
  'GET /api/site': { kind: 'public', why: 'the public address' },
  'DELETE /api/classes/:id': { kind: 'denied', call: (w) => ({ method: 'DELETE', path: `/api/classes/${w.classId}` }) },
  'DELETE /api/quizzes/:id': { kind: 'denied', call: (w) => ({ method: 'DELETE', path: `/api/quizzes/${w.quizId}` }) },
  'DELETE /api/rooms/:id': { kind: 'denied', call: (w) => ({ method: 'DELETE', path: `/api/rooms/${w.roomId}` }) },
  'DELETE /api/materials/:id': { kind: 'denied', call: (w) => ({ method: 'DELETE', path: `/api/materials/${w.materialId}` }) },
  'GET /api/classes/:id/export.json': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/classes/${w.classId}/export.json` }) },
  'GET /api/classes/:id/export.csv': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/classes/${w.classId}/export.csv` }) },
  'GET /api/auth/signup': { kind: 'public', why: 'the sign-up mode' },
  'POST /api/auth/signup': { kind: 'public', why: 'makes a new account' },
  'POST /api/auth/signin': { kind: 'public', why: 'signs into the account whose password is given' },
  'POST /api/auth/signout': { kind: 'own', why: 'ends the caller’s session' },
  'POST /api/auth/signout-all': { kind: 'own', why: 'ends the caller’s sessions' },
  'GET /api/auth/me': { kind: 'own', why: 'the caller’s account' },
  'POST /api/auth/password': { kind: 'own', why: 'the caller’s password' },
  'GET /api/auth/tokens': { kind: 'own', why: 'the caller’s API tokens' },
  'POST /api/auth/tokens': { kind: 'own', why: 'the caller’s API tokens' },
  'DELETE /api/auth/tokens/:id': { kind: 'denied', call: (w) => ({ method: 'DELETE', path: `/api/auth/tokens/${tokenIdOf(w.a)}` }) },
  'POST /api/auth/reset': { kind: 'public', why: 'a one-time link from the admin' },
  'GET /api/auth/invites/:code': { kind: 'public', why: 'checks an invite code' },
  'POST /api/critic/grade': { kind: 'own', why: 'grades the texts in its body, billed to the caller; nothing is stored or named' },
  // The graded outputs an instructor sees are those billed to their account: B's lists hold none of A's (A's are
  // sampled at QUALITY_SAMPLE_RATE=1 and graded when the world is made; an interaction names its material).
  'GET /api/quality/summary': { kind: 'list', path: '/api/quality/summary' },
  'GET /api/quality/interactions': { kind: 'list', path: '/api/quality/interactions' },
  'GET /api/quality/export.jsonl': { kind: 'list', path: '/api/quality/export.jsonl' },
  'GET /api/admin/accounts': { kind: 'denied', call: () => ({ method: 'GET', path: '/api/admin/accounts' }) },
  'POST /api/admin/invites': { kind: 'denied', call: () => ({ method: 'POST', path: '/api/admin/invites', body: {} }) },
  'POST /api/admin/accounts/:id/disable': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/admin/accounts/${w.a.accountId}/disable` }) },
  'POST /api/admin/accounts/:id/enable': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/admin/accounts/${w.a.accountId}/enable` }) },
  'POST /api/admin/accounts/:id/reset-link': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/admin/accounts/${w.a.accountId}/reset-link` }) },
  // LTI 1.3: the LMS's routes carry the platform's signed token or one-use codes; the admin's routes refuse B.
  'GET /lti/login': { kind: 'public', why: 'an LMS starts a launch; the platform signs what follows' },
  'POST /lti/login': { kind: 'public', why: 'an LMS starts a launch; the platform signs what follows' },
  'POST /lti/launch': { kind: 'public', why: 'the platform’s signed id token is the credential' },
  'GET /lti/jwks': { kind: 'public', why: 'lectern’s public keys' },
  'GET /lti/register': { kind: 'public', why: 'the admin’s one-use registration code is the credential' },
  'GET /lti/sign-in': { kind: 'public', why: 'a one-use sign-in code from a verified launch' },
  'GET /api/lti/platforms': { kind: 'denied', call: () => ({ method: 'GET', path: '/api/lti/platforms' }) },
  'POST /api/lti/platforms': {
    kind: 'denied',
    call: () => ({ method: 'POST', path: '/api/lti/platforms', body: { name: 'B', issuer: 'https://lms.b.example', clientId: 'b', deploymentIds: ['1'], jwksUrl: 'https://lms.b.example/jwks', authUrl: 'https://lms.b.example/auth', tokenUrl: 'https://lms.b.example/token' } }),
  },
  'PUT /api/lti/platforms/:id': { kind: 'denied', call: () => ({ method: 'PUT', path: '/api/lti/platforms/any', body: {} }) },
  'DELETE /api/lti/platforms/:id': { kind: 'denied', call: () => ({ method: 'DELETE', path: '/api/lti/platforms/any' }) },
  'POST /api/lti/registration-codes': { kind: 'denied', call: () => ({ method: 'POST', path: '/api/lti/registration-codes', body: {} }) },
  'POST /api/lti/tool-keys/rotate': { kind: 'denied', call: () => ({ method: 'POST', path: '/api/lti/tool-keys/rotate' }) },
  'GET /api/lti/deep-links/:secret': { kind: 'public', why: 'the secret a verified deep linking launch gave is the credential' },
  'POST /api/lti/deep-links/:secret': { kind: 'public', why: 'the secret a verified deep linking launch gave is the credential' },
  'GET /api/lti/quiz-tickets/:ticket': { kind: 'public', why: 'the ticket a verified launch gave is the credential' },
  'GET /api/lti/exams/:examId/grades': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/lti/exams/${w.examId}/grades` }) },
  'POST /api/lti/exams/:examId/grades/retry': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/lti/exams/${w.examId}/grades/retry` }) },
  'GET /api/lti/classes/:classId': { kind: 'denied', call: (w) => ({ method: 'GET', path: `/api/lti/classes/${w.classId}` }) },
  'POST /api/lti/classes/:classId/roster': { kind: 'denied', call: (w) => ({ method: 'POST', path: `/api/lti/classes/${w.classId}/roster` }) },
};

/** A's API token id, read once when the world is made (DELETE /api/auth/tokens/:id names it). */
const tokenIds = new Map<string, string>();
const tokenIdOf = (account: SignedUpAccount) => tokenIds.get(account.accountId) ?? 'missing';

/**
 * Every route of docs/PROTOCOL.md: the `### \`METHOD /path\`` headings (several per heading too) and the rows of the
 * Quizzes table, without their query strings; the relative `/results.csv` and `/enable` forms are expanded.
 */
function documentedRoutes(markdown: string): string[] {
  const routes = new Set<string>();
  const pattern = /`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s?]*)[^`]*`/g;
  for (const line of markdown.split('\n')) {
    // The generated route table: "| GET | `/api/...` | src/http/… |".
    const row = /^\| (GET|POST|PUT|PATCH|DELETE) \| `(\/[^`\s?]*)` \|/.exec(line);
    if (row) {
      routes.add(`${row[1]} ${row[2]}`);
      continue;
    }
    // Headings, table rows and bullets that open with a route (the roster routes are documented as bullets).
    const bullet = /^- `(GET|POST|PUT|PATCH|DELETE) /.test(line);
    if (!line.startsWith('### ') && !bullet && !/^\| `(GET|POST|PUT|PATCH|DELETE) /.test(line)) continue;
    const heading = line.startsWith('### ') ? line : bullet ? (/^- (`[^`]*`)/.exec(line)?.[1] ?? '') : (line.split('|')[1] ?? '');
    for (const match of heading.matchAll(pattern)) routes.add(`${match[1]} ${match[2]}`);
    // "`POST /api/admin/accounts/:id/disable` and `/enable`": the same route with another last segment.
    const tail = /`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s?]*)` and `(\/[\w.-]+)`/.exec(heading);
    if (tail) routes.add(`${tail[1]} ${tail[2]!.replace(/\/[\w.-]+$/, '')}${tail[3]}`);
  }
  return [...routes];
}

let app: TestApp;
let world: World;

beforeAll(async () => {
  // Every route is tried several times from one address: more model-call requests than the default window allows.
  app = await startTestApp({ QUALITY_SAMPLE_RATE: '1', RATE_GENERATION_MAX: '100' });
  await samplePdfBytes();
  // The first account is the admin: A and B are two ordinary instructors.
  const admin = await signUp(app);
  const [a, b] = await Promise.all([signUp(app), signUp(app)]);
  const tokens = await call(`${app.url}/api/auth/tokens`, 'GET', { headers: a.bearer });
  tokenIds.set(a.accountId, String(tokens.body.tokens?.[0]?.tokenId ?? tokens.body.tokens?.[0]?.id));
  const material = await uploadPdf(app, await madePdf('A의 자료'), 'a.pdf', a);
  const created = await call(`${app.url}/api/classes`, 'POST', { headers: a.bearer, body: { name: 'A의 반', materialId: material.id } });
  expect(created.status).toBe(201);
  const quiz = await call(`${app.url}/api/quizzes`, 'POST', { headers: a.bearer, body: { title: 'A의 퀴즈', items: sampleItems(2), classId: created.body.classId } });
  expect(quiz.status).toBe(201);
  const room = await call(`${app.url}/api/rooms`, 'POST', { headers: a.bearer, body: { quizId: quiz.body.quizId, options: { previewSeconds: 0 } } });
  expect(room.status).toBe(201);
  const student = await joinClass(app, created.body.code, '민지');
  const player = await joinRoom(app.url, room.body.code, '지호');
  // A self-study item of A's (seed 001's API), on A's material.
  const selfQuiz = await call(`${app.url}/api/quiz/start`, 'POST', { headers: a.bearer, body: { topic: 'general', materialId: material.id } });
  expect(selfQuiz.status, JSON.stringify(selfQuiz.body)).toBe(200);
  // A's agent outputs (the upload's analysis, the self-study item), graded for the quality console.
  await app.quality.sampler.settled();
  while ((await app.quality.grader.runOnce()).graded > 0);
  const aQuality = await call(`${app.url}/api/quality/interactions`, 'GET', { headers: a.bearer });
  expect(JSON.stringify(aQuality.body.interactions)).toContain(material.id);
  const bClass = await call(`${app.url}/api/classes`, 'POST', { headers: b.bearer, body: { name: 'B의 반' } });
  const bQuiz = await call(`${app.url}/api/quizzes`, 'POST', { headers: b.bearer, body: { title: 'B의 퀴즈', items: sampleItems(1), classId: bClass.body.classId } });
  const bRoom = await call(`${app.url}/api/rooms`, 'POST', { headers: b.bearer, body: { quizId: bQuiz.body.quizId } });
  const request = { count: 1, multipleChoice: 1 };
  const job = await app.jobs.repository.create('math-problems', a.accountId, { materialId: material.id, request });
  const set = await app.mathSets.create({ materialId: material.id, accountId: a.accountId, request, problems: [], rejected: [], attempts: 1, jobId: job.jobId, judgeModel: '', complete: false });
  const problem = { id: 1, type: 'Short_Keyword' as const, question_content: '흩어진 정도를 나타내는 값은?', model_answer: '분산', key_keywords: ['분산'], intent_diagnosis: '정의' };
  const exam = await app.exams.create({
    accountId: a.accountId,
    materialId: material.id,
    title: 'A의 시험',
    request: { count: 1, descriptive: 0 },
    plan: { planning_strategy: '정의', planned_items: [{ id: 1, target_topic: '분산', question_type: 'Short_Keyword', intent_type: 'Definition', complexity_level: 'Basic', source_reference_hint: '1장' }] },
    problems: [problem],
    complaints: [],
    valid: true,
    rounds: 1,
  });
  const published = await call(`${app.url}/api/exams/${exam.examId}/publish`, 'POST', { headers: a.bearer, body: { classId: created.body.classId, timeLimitMinutes: 120 } });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  const examDraft = await call(`${app.url}/api/class-exams/${exam.examId}/draft`, 'PUT', { headers: { authorization: `Bearer ${student.token}` }, body: { answers: { 1: 'A 학생의 답' } } });
  expect(examDraft.status, JSON.stringify(examDraft.body)).toBe(200);
  const image = await fetch(`${app.url}/api/quiz-images`, { method: 'POST', headers: a.bearer, body: Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex') });
  const imageId = ((await image.json()) as { imageId: string }).imageId;
  world = {
    admin,
    a,
    b,
    materialId: material.id,
    classId: created.body.classId,
    code: created.body.code,
    classToken: created.body.instructorToken,
    quizId: quiz.body.quizId,
    roomId: room.body.roomId,
    roomCode: room.body.code,
    hostToken: room.body.hostToken,
    student,
    player,
    selfQuizId: String(selfQuiz.body.response[0].quiz_id),
    bClassToken: bClass.body.instructorToken,
    bHostToken: bRoom.body.hostToken,
    jobId: job.jobId,
    setId: set.setId,
    examId: exam.examId,
    imageId,
  };
});
afterAll(async () => {
  world?.player.client.close();
  await app?.stop();
});

/** A's things are all still there and unchanged (read with A's credentials). */
async function expectWorldIntact(): Promise<void> {
  const as = { headers: world.a.bearer };
  expect((await call(`${app.url}/api/materials/${world.materialId}`, 'GET', as)).status).toBe(200);
  const info = await call(`${app.url}/api/classes/${world.classId}`, 'GET', as);
  expect([info.status, info.body.code, info.body.closed]).toEqual([200, world.code, false]);
  expect((await call(`${app.url}/api/quizzes/${world.quizId}`, 'GET', as)).status).toBe(200);
  expect((await fetch(`${app.url}/api/quiz-images/${world.imageId}`, { headers: world.a.bearer })).status).toBe(200);
  expect((await call(`${app.url}/api/rooms/${world.roomId}/results`, 'GET', as)).status).toBe(200);
  expect((await call(`${app.url}/api/auth/me`, 'GET', as)).status).toBe(200);
  // A's self-study item is unanswered: B's attempts recorded nothing.
  expect(await app.store.hget(quizKeys.selfQuizItem(world.selfQuizId), 'record')).not.toBeNull();
  expect(await app.store.hget(quizKeys.selfQuizItem(world.selfQuizId), 'answer')).toBeNull();
  expect((await call(`${app.url}/api/jobs/${world.jobId}`, 'GET', as)).status).toBe(200);
  expect((await call(`${app.url}/api/math-sets/${world.setId}`, 'GET', as)).status).toBe(200);
  // A's exam is there, still published to A's class with its problem, and A's student's draft unchanged.
  const exam = await call(`${app.url}/api/exams/${world.examId}`, 'GET', as);
  expect([exam.status, exam.body.publication?.classId, exam.body.problems?.[0]?.model_answer]).toEqual([200, world.classId, '분산']);
  const studentView = await call(`${app.url}/api/class-exams/${world.examId}`, 'GET', { headers: { authorization: `Bearer ${world.student.token}` } });
  expect([studentView.body.drafts, studentView.body.submittedAll]).toEqual([{ 1: 'A 학생의 답' }, false]);
  // B shared nothing with A's class.
  expect(await app.store.zcard(mathKeys.classMathSets(world.classId))).toBe(0);
}

const denied = (reply: CallReply) => reply.status === 403 || reply.status === 404;

describe('OW1: every documented route, with instructor B’s credentials on A’s things', () => {
  it('OW1 PROTOCOL.md routes are parsed, and every one has a case in this test', () => {
    const routes = documentedRoutes(readFileSync('docs/PROTOCOL.md', 'utf8'));
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((route) => !(route in CASES))).toEqual([]);
  });

  it('OW1 the route parser finds headings with several routes and the Quizzes table rows', () => {
    const markdown = '### `GET /x/:id` and `POST /x/:id/close`\n### `POST /y/:id/disable` and `/enable`\n| `POST /z` | `{a}` | `201` |\n- `PUT /w/:id` (a bullet) → `200 {}`\n  see `GET /not-a-route-line`';
    expect(documentedRoutes(markdown).sort()).toEqual(['GET /x/:id', 'POST /x/:id/close', 'POST /y/:id/disable', 'POST /y/:id/enable', 'POST /z', 'PUT /w/:id']);
  });

  it.each(['api token', 'cookie and CSRF'] as const)('OW1 with B’s %s: 403/404 on A’s things, lists without them', async (via) => {
    const headers = via === 'api token' ? world.b.bearer : world.b.browser;
    const aIds = [world.materialId, world.classId, world.quizId, world.roomId, world.examId, world.imageId];
    for (const route of documentedRoutes(readFileSync('docs/PROTOCOL.md', 'utf8'))) {
      const found = CASES[route];
      if (!found || found.kind === 'own' || found.kind === 'public') continue;
      if (found.kind === 'list') {
        const reply = await call(`${app.url}${found.path}`, 'GET', { headers });
        expect(reply.status, route).toBe(200);
        for (const id of aIds) expect(JSON.stringify(reply.body), `${route} names ${id}`).not.toContain(id);
        continue;
      }
      if (found.kind !== 'denied') continue;
      const { method, path, body } = found.call(world);
      const reply = await call(`${app.url}${path}`, method, { headers, ...(body === undefined ? {} : { body }) });
      expect(denied(reply), `${route} answered ${reply.status} ${JSON.stringify(reply.body)}`).toBe(true);
    }
    await expectWorldIntact();
  });
});

describe('OW2: every /monitor and /quiz host command, with B’s tokens', () => {
  it('OW2 B’s class token reaches only B’s class: A’s students are not B’s, A’s class stays open with its code', async () => {
    const { monitor } = await connectInstructor(app, world.bClassToken);
    const sessionId = world.student.sessionId;
    const payloads: Record<keyof typeof MONITOR_COMMANDS, unknown> = {
      'class:announce': { text: 'B의 공지' },
      'hand:acknowledge': { sessionId },
      'student:transcript': { sessionId },
      'hand:reply': { sessionId, text: 'B의 답' },
      'class:close': {},
      'class:rotate-code': {},
    };
    for (const [command, payload] of Object.entries(payloads)) {
      const ack = (await monitor.unchecked(command, payload)) as { ok: boolean; error?: { code: string } };
      // Commands naming A's student are refused; the others act on B's own class.
      if (command === 'hand:acknowledge' || command === 'student:transcript' || command === 'hand:reply') {
        expect([command, ack.ok]).toEqual([command, false]);
      }
    }
    expect(world.student.client.events.some((event) => JSON.stringify(event.payload).includes('B의'))).toBe(false);
    await expectWorldIntact();
    monitor.socket.disconnect();
  });

  it('OW2 B’s host token drives only B’s room: A’s room stays in the lobby with its player', async () => {
    const host = await openHost(app.url, world.bHostToken);
    for (const command of Object.keys(HOST_COMMANDS)) {
      await host.emit(command, command === 'room:kick' ? { playerId: world.player.playerId } : {});
    }
    const results = await call(`${app.url}/api/rooms/${world.roomId}/results`, 'GET', { headers: world.a.bearer });
    expect(results.body.phase).toBe('lobby');
    expect((await call(`${app.url}/api/rooms/${world.roomId}/results`, 'GET', { headers: { authorization: `Bearer ${world.bHostToken}` } })).status).toBe(404);
    host.close();
  });
});

describe('OW3–OW8: lists, students, shared materials, disabled accounts, old tokens, previews, anonymous callers', () => {
  it('OW3 "내 수업", "내 퀴즈", "내 자료" and rooms are per account and paginated', async () => {
    const c = await signUp(app);
    const classIds: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      // The lists order by creation time in milliseconds: two classes made within one millisecond tie (and then go
      // by id), so each is made in a millisecond of its own.
      const madeAfter = Date.now();
      while (Date.now() === madeAfter) await new Promise((resolve) => setImmediate(resolve));
      const created = await call(`${app.url}/api/classes`, 'POST', { headers: c.bearer, body: { name: `반 ${index}` } });
      classIds.push(created.body.classId);
    }
    const first = await call(`${app.url}/api/classes?limit=2`, 'GET', { headers: c.bearer });
    expect(first.body.classes.map((entry: { classId: string }) => entry.classId)).toEqual([classIds[4], classIds[3]]);
    expect(first.body.classes[0]).toEqual({ classId: classIds[4], name: '반 4', code: expect.any(String), materialId: null, createdAt: expect.any(Number), closed: false, studentCount: 0 });
    const second = await call(`${app.url}/api/classes?limit=2&cursor=${first.body.nextCursor}`, 'GET', { headers: c.bearer });
    expect(second.body.classes.map((entry: { classId: string }) => entry.classId)).toEqual([classIds[2], classIds[1]]);
    const third = await call(`${app.url}/api/classes?limit=2&cursor=${second.body.nextCursor}`, 'GET', { headers: c.bearer });
    expect([third.body.classes.length, third.body.nextCursor]).toEqual([1, null]);

    const quiz = await call(`${app.url}/api/quizzes`, 'POST', { headers: c.browser, body: { title: '내 퀴즈', items: sampleItems(1), classId: classIds[0] } });
    expect(quiz.status).toBe(201);
    expect((await call(`${app.url}/api/quizzes`, 'GET', { headers: c.bearer })).body.quizzes.map((entry: { quizId: string }) => entry.quizId)).toEqual([quiz.body.quizId]);
    expect((await call(`${app.url}/api/quizzes?classId=${classIds[1]}`, 'GET', { headers: c.bearer })).body.quizzes).toEqual([]);
    const room = await call(`${app.url}/api/rooms`, 'POST', { headers: c.bearer, body: { quizId: quiz.body.quizId } });
    const byQuiz = await call(`${app.url}/api/rooms?quizId=${quiz.body.quizId}`, 'GET', { headers: c.bearer });
    expect(byQuiz.body.rooms.map((entry: { roomId: string }) => entry.roomId)).toEqual([room.body.roomId]);
    expect((await call(`${app.url}/api/rooms?classId=${classIds[0]}`, 'GET', { headers: c.bearer })).body.rooms).toHaveLength(1);
    expect((await call(`${app.url}/api/materials`, 'GET', { headers: c.bearer })).body.materials).toEqual([]);
  });

  it('OW4 students read only their class’s material (and the sample); anonymous lists show only the sample', async () => {
    const asStudent = { headers: { authorization: `Bearer ${world.student.token}` } };
    expect((await call(`${app.url}/api/materials/${world.materialId}`, 'GET', asStudent)).status).toBe(200);
    expect((await call(`${app.url}/api/materials/${world.materialId}/chapters/0/text`, 'GET', asStudent)).status).toBe(200);
    const other = await uploadPdf(app, await madePdf('B의 자료'), 'b.pdf', world.b);
    expect((await call(`${app.url}/api/materials/${other.id}`, 'GET', asStudent)).status).toBe(404);
    expect((await call(`${app.url}/api/materials/${world.materialId}`, 'GET')).status).toBe(404);
    const listed = await call(`${app.url}/api/materials`, 'GET', asStudent);
    expect(JSON.stringify(listed.body)).not.toContain(world.materialId);
    expect((await call(`${app.url}/api/materials`, 'GET')).body.materials.every((material: { sample?: boolean }) => material.sample === true)).toBe(true);
    // The class's instructor token reads it too.
    expect((await call(`${app.url}/api/materials/${world.materialId}`, 'GET', { headers: { authorization: `Bearer ${world.classToken}` } })).status).toBe(200);
  });

  it('OW5 a material uploaded by two accounts survives one owner’s delete and goes with the last', async () => {
    const [d, e] = await Promise.all([signUp(app), signUp(app)]);
    const bytes = await madePdf('같이 쓰는 자료');
    const first = await uploadPdf(app, bytes, 'd.pdf', d);
    expect((await uploadPdf(app, bytes, 'e.pdf', e)).id).toBe(first.id);
    const url = `${app.url}/api/materials/${first.id}`;
    expect((await call(url, 'DELETE', { headers: d.bearer })).status).toBe(204);
    expect((await call(url, 'GET', { headers: d.bearer })).status).toBe(404);
    expect((await call(url, 'GET', { headers: e.bearer })).status).toBe(200);
    expect((await call(`${url}/chapters/0.pdf`, 'GET', { headers: e.bearer })).status).toBe(200);
    expect((await call(url, 'DELETE', { headers: e.browser })).status).toBe(204);
    expect(await app.materials.get(first.id)).toBeNull();
    expect(await app.store.exists(`lectern:material:${first.id}:owners`)).toBe(false);
  });

  it('OW5 the built-in sample loses an owner but is never deleted', async () => {
    const f = await signUp(app);
    const sample = await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', f);
    expect((await call(`${app.url}/api/materials/${sample.id}`, 'DELETE', { headers: f.bearer })).status).toBe(204);
    expect(await app.materials.get(sample.id)).not.toBeNull();
    expect((await call(`${app.url}/api/materials/${sample.id}`, 'GET')).status).toBe(200);
  });

  it('OW6 a disabled account’s class and host tokens are refused at once, on HTTP, handshakes and open sockets', async () => {
    const g = await signUp(app);
    const created = await call(`${app.url}/api/classes`, 'POST', { headers: g.bearer, body: { name: 'G의 반' } });
    const token = created.body.instructorToken as string;
    const quiz = await call(`${app.url}/api/quizzes`, 'POST', { headers: g.bearer, body: { title: 'G', items: sampleItems(1) } });
    const room = await call(`${app.url}/api/rooms`, 'POST', { headers: g.bearer, body: { quizId: quiz.body.quizId } });
    const { monitor } = await connectInstructor(app, token);
    const host = await openHost(app.url, room.body.hostToken);
    const disabled = await call(`${app.url}/api/admin/accounts/${g.accountId}/disable`, 'POST', { headers: world.admin.bearer });
    expect(disabled.status).toBe(200);
    const info = await call(`${app.url}/api/classes/${created.body.classId}`, 'GET', { headers: { authorization: `Bearer ${token}` } });
    expect([info.status, info.body.error?.code]).toEqual([403, 'ACCOUNT_DISABLED']);
    const ack = (await monitor.unchecked('class:announce', { text: '안녕' })) as { ok: boolean; error?: { code: string } };
    expect([ack.ok, ack.error?.code]).toEqual([false, 'ACCOUNT_DISABLED']);
    const hostAck = await host.emit('room:lock');
    expect(hostAck.ok).toBe(false);
    const again = app.socket('/monitor', { token });
    expect(await handshakeOutcome(again)).toMatchObject({ data: { code: 'ACCOUNT_DISABLED' } });
    expect((await call(`${app.url}/api/rooms/${room.body.roomId}/results`, 'GET', { headers: { authorization: `Bearer ${room.body.hostToken}` } })).status).toBe(403);
    monitor.socket.disconnect();
    host.close();
  });

  it('OW7 class and host tokens without an account (issued before accounts) are refused with 401 and a Korean message', async () => {
    const old = app.signer.sign({ kind: 'instructor', sub: world.classId }, 60_000);
    const reply = await call(`${app.url}/api/classes/${world.classId}`, 'GET', { headers: { authorization: `Bearer ${old}` } });
    expect([reply.status, reply.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(reply.body.error.message).toMatch(/로그인/);
    expect(await handshakeOutcome(app.socket('/monitor', { token: old }))).toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    const oldHost = app.signer.sign({ kind: 'host', sub: world.roomId, scope: world.classId }, 60_000);
    expect((await call(`${app.url}/api/rooms/${world.roomId}/results`, 'GET', { headers: { authorization: `Bearer ${oldHost}` } })).status).toBe(404);
  });

  it('OW8 a preview session on an own material; anonymous callers never start a model call', async () => {
    const preview = await call(`${app.url}/api/sessions`, 'POST', { headers: world.a.bearer, body: { materialId: world.materialId, nickname: '강의 미리 보기' } });
    expect(preview.status).toBe(201);
    const anonymous = await call(`${app.url}/api/sessions`, 'POST', { body: { materialId: world.materialId, nickname: '손님' } });
    expect([anonymous.status, anonymous.body.error.code]).toEqual([404, 'MATERIAL_NOT_FOUND']);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(await madePdf('익명'))], { type: 'application/pdf' }), 'x.pdf');
    expect((await fetch(`${app.url}/api/materials`, { method: 'POST', body: form })).status).toBe(401);
    expect((await call(`${app.url}/api/materials/${world.materialId}/quiz`, 'POST', { body: {} })).status).toBe(401);
    const sample = await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', world.a);
    expect((await call(`${app.url}/api/sessions`, 'POST', { body: { materialId: sample.id, nickname: '손님' } })).status).toBe(201);
    expect((await call(`${app.url}/api/materials/${sample.id}/quiz`, 'POST', { body: {} })).status).toBe(401);
  });
});

// Last: it makes a class of B's with a material, which the lists of OW3 must not see.
describe('OW1: A’s class quiz items', () => {
  it('OW1 A’s class quiz items over seed 001’s /answer and /evaluate (`<quiz id>:<index>`): B’s account and a student of B’s class are refused', async () => {
    const sample = await loadSample(app);
    const bClass = await call(`${app.url}/api/classes`, 'POST', { headers: world.b.bearer, body: { name: 'B의 자료 반', materialId: sample.id } });
    expect(bClass.status, JSON.stringify(bClass.body)).toBe(201);
    const bStudent = await joinClass(app, String(bClass.body.code), '서준');
    try {
      for (const headers of [world.b.bearer, world.b.browser, { authorization: `Bearer ${bStudent.token}` }]) {
        const answered = await call(`${app.url}/api/quiz/answer`, 'POST', { headers, body: { quiz_id: `${world.quizId}:0`, answer: 0 } });
        const evaluated = await call(`${app.url}/api/quiz/evaluate`, 'POST', { headers, body: { quiz_id: `${world.quizId}:0`, topic: 'general' } });
        for (const reply of [answered, evaluated]) expect([reply.status, reply.body.error?.code]).toEqual([404, 'QUIZ_NOT_FOUND']);
      }
    } finally {
      bStudent.client.socket.disconnect();
    }
    expect(await app.store.hgetall(quizKeys.classQuizItems(world.quizId))).toEqual({});
  });
});
