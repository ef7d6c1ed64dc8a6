/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MJ9 — Deletion. A material's math problem sets (records, list entries, each account's list and summary of it) go
 *   with the material (`test/data-deletion.integration.test.ts`, DL1's leftover scan).
 * - DL1 — Nothing of a deleted thing is left. A real run (two PDFs uploaded over HTTP; two classes each with a
 *   student who answered questions and raised a hand; a quiz played in a room per class) …
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson } from './support/classroom-client.js';
import { defaultInstructor } from './support/accounts.js';
import { blobFiles, madePdf, runClass, scanStore, uploadPdf, type ClassRun } from './support/data-flow.js';
import { samplePdfBytes } from './support/lecture-client.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { WAIT_TIMEOUT_MS } from './support/waits.js';
import { lectureKeys } from '../src/lecture/lecture-keys.js';
import { materialKeys } from '../src/materials/material-keys.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';
import { mathKeys } from '../src/math-problems/math-keys.js';
import { qualityKeys } from '../src/quality/quality-keys.js';
import { examKeys } from '../src/exams/exam-keys.js';

/**
 * DL1 (test/SPEC.md): a real run — two materials uploaded over HTTP, two classes each with a student who followed the
 * lecture (answers, a raised hand), a quiz played in a room — then one material and one class are deleted over HTTP.
 * A scan of every `lectern:` key (and of DATA_DIR's blobs on the memory store) finds nothing of the deleted things,
 * and everything of the other class and material is still there. On the memory store and on a throwaway Redis (the
 * app's keys all start with `lectern:`, so the Redis is the test's own rather than a prefix of the shared one).
 */

let app: TestApp | undefined;
let redis: RedisServer | undefined;
beforeAll(samplePdfBytes);
afterEach(async () => {
  await app?.stop();
  await redis?.stop();
  app = undefined;
  redis = undefined;
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function del(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'DELETE', headers });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as { error?: { code: string } }) : null };
}

/** Identifiers whose appearance in a key (or a sorted set member) means something of the deleted things is left. */
function traces(run: ClassRun, materialId: string, lectureKeys: string[]): string[] {
  return [run.classId, run.created.code, run.quizId, run.roomId, run.roomCode, ...run.sessionIds, ...run.selfQuizIds, materialId, ...lectureKeys];
}

async function lectureKeysOf(current: TestApp, materialId: string): Promise<string[]> {
  return (await current.store.zrange(lectureKeys.materialLectures(materialId), 0, -1)).map((entry) => entry.member);
}

/** Members of the shared indexes, which outlive any one material or room. */
async function sharedMembers(current: TestApp): Promise<string[]> {
  const sets = [materialKeys.materialIndex(), quizKeys.activeRooms(), quizKeys.retentionRooms()];
  return (await Promise.all(sets.map((key) => current.store.zrange(key, 0, -1)))).flat().map((entry) => entry.member);
}

/** The quality console's sampled outputs (queued and graded) as stored: their text can quote the students. */
async function qualityRecords(current: TestApp, redisUrl?: string): Promise<string[]> {
  const records = (await scanStore(current, redisUrl)).filter((key) => /^lectern:quality:(?:case|interaction):/u.test(key));
  return (await current.store.mget(records)).filter((value): value is string => value !== null);
}

/**
 * Resolves once the session's driver has renewed its lease `count` times (its time to live went up between two
 * readings; a reading may miss a renewal, so this waits for at least `count`, never fewer).
 */
async function renewals(current: TestApp, sessionId: string, count: number): Promise<void> {
  const lease = lectureKeys.sessionDriver(sessionId);
  // A renewal made late on a busy machine may find the lease expired (no key, -2): that renewal counts as well.
  let last = await current.store.pttl(lease);
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (let seen = 0; seen < count; ) {
    if (Date.now() > deadline) throw new Error(`session ${sessionId}: its driver renewed its lease ${seen} times of ${count}`);
    await new Promise((resolve) => setTimeout(resolve, DRIVER_LEASE_MS / 30));
    const ttl = await current.store.pttl(lease);
    if (ttl > last) seen += 1;
    last = ttl;
  }
}

/** Short, so that a driver's renewal (every third of it) comes round quickly. */
const DRIVER_LEASE_MS = 900;

async function scenario(env: Record<string, string>, redisUrl?: string) {
  // Every model output is sampled for the quality console, so deletion must find those samples too.
  app = await startTestApp({ QUALITY_SAMPLE_RATE: '1', ...env }, { driverLeaseMs: DRIVER_LEASE_MS });
  const current = app;
  // Not the sample's bytes: the built-in sample is never deleted (OW5).
  const gone = await uploadPdf(current, await madePdf('지울 자료'), 'gone.pdf');
  const kept = await uploadPdf(current, await madePdf('남겨 둘 자료'), 'kept.pdf');
  expect(gone.id).not.toBe(kept.id);
  const deleted = await runClass(current, gone.id, '지울 반');
  const untouched = await runClass(current, kept.id, '남길 반', { wholeLecture: false });
  // MJ9: a math problem set of each material (stored as a math job stores it; the offline model writes none).
  const instructor = await defaultInstructor(current);
  const mathSet = (materialId: string) =>
    current.mathSets.create({ materialId, accountId: instructor.accountId, request: { count: 1, multipleChoice: 1 }, problems: [], rejected: [], attempts: 1, jobId: 'job', judgeModel: '', complete: false });
  const goneSet = await mathSet(gone.id);
  const keptSet = await mathSet(kept.id);
  // A set shared with the deleted class; the class's index of shared sets goes with the class, the set stays.
  const shared = await postJson(`${current.url}/api/math-sets/${keptSet.setId}/share`, { classId: deleted.classId }, instructor.bearer);
  expect(shared.status, JSON.stringify(shared.body)).toBe(200);
  expect(await current.store.zcard(mathKeys.classMathSets(deleted.classId))).toBe(1);

  // EL12: a live exam of each material, published to its class and taken by its student (drafts, submission, the
  // grading's keys), and the deleted class's student's learner profile with a goal set.
  const exam = async (materialId: string, run: ClassRun) => {
    const made = await current.exams.create({
      accountId: instructor.accountId,
      materialId,
      title: '지울지 남길지',
      request: { count: 1, descriptive: 0 },
      plan: { planning_strategy: '정의', planned_items: [{ id: 1, target_topic: '개념', question_type: 'Short_Keyword', intent_type: 'Definition', complexity_level: 'Basic', source_reference_hint: '1장' }] },
      problems: [{ id: 1, type: 'Short_Keyword', question_content: '핵심 개념은?', model_answer: '개념', key_keywords: ['개념'], intent_diagnosis: '정의' }],
      complaints: [],
      valid: true,
      rounds: 1,
    });
    await current.exams.publish(made, run.classId, 30);
    await current.exams.saveDraft(made.examId, run.classId, run.sessionIds[0]!, { 1: '개념' });
    await current.exams.submit(made.examId, run.classId, run.sessionIds[0]!);
    await current.exams.setGoal(run.classId, run.sessionIds[0]!, { target_depth: 'Deep Understanding', description: '목표' });
    return made;
  };
  const goneExam = await exam(gone.id, deleted);
  const keptExam = await exam(kept.id, untouched);
  await current.exams.settled();

  const goneLectures = await lectureKeysOf(current, gone.id);
  const keptLectures = await lectureKeysOf(current, kept.id);
  // The lecture index recorded the chapters that were generated (every chapter of the whole lecture).
  expect(goneLectures.length).toBeGreaterThan(1);
  expect(keptLectures.length).toBeGreaterThan(0);
  const before = await scanStore(current, redisUrl);
  const filesBefore = blobFiles(current);
  const goneTraces = [...traces(deleted, gone.id, goneLectures), goneSet.setId, goneExam.examId];
  const keptTraces = [...traces(untouched, kept.id, keptLectures), keptSet.setId, keptExam.examId];
  // The run left traces of both in the store (otherwise the scan below proves nothing).
  for (const trace of [deleted.classId, deleted.sessionIds[0]!, deleted.roomId, deleted.selfQuizIds[0]!, gone.id, goneLectures[0]!, goneSet.setId, goneExam.examId]) {
    expect(before.some((key) => key.includes(trace)), trace).toBe(true);
  }
  // A driver's lease key comes and goes with its renewals (a late one on a busy machine lets it expire for a moment):
  // the kept session's is no evidence either way, so the comparison of what is kept leaves that lease out.
  const keptKeys = (keys: string[]) => keys.filter((key) => keptTraces.some((trace) => key.includes(trace)) && key !== lectureKeys.sessionDriver(untouched.sessionIds[0]!));
  const keptBefore = keptKeys(before);
  expect(keptBefore.length).toBeGreaterThan(10);

  // Grade a first batch of the samples (the rest stays queued): both kinds of record exist for the deleted class.
  await current.quality.sampler.settled();
  await current.quality.grader.runOnce();
  const samplesBefore = await qualityRecords(current, redisUrl);
  expect(samplesBefore.some((record) => record.includes(gone.id))).toBe(true);
  expect(samplesBefore.some((record) => record.includes(deleted.sessionIds[0]!))).toBe(true);
  expect(await current.store.zcard(qualityKeys.qualityQueue())).toBeGreaterThan(0);

  // The class (with its students, sessions, quiz and room) and the material, over HTTP.
  expect((await del(`${current.url}/api/classes/${deleted.classId}`, bearer(deleted.created.instructorToken))).status).toBe(204);
  // A material is deleted by its owner account only: class tokens are the wrong kind of credential.
  const owner = (await defaultInstructor(current)).bearer;
  expect((await del(`${current.url}/api/materials/${gone.id}`, bearer(untouched.created.instructorToken))).status).toBe(403);
  expect((await del(`${current.url}/api/materials/${gone.id}`)).status).toBe(401);
  expect((await del(`${current.url}/api/materials/${gone.id}`, owner)).status).toBe(204);
  expect((await del(`${current.url}/api/materials/${gone.id}`, owner)).status).toBe(404);
  expect((await del(`${current.url}/api/classes/${deleted.classId}`, bearer(deleted.created.instructorToken))).status).toBe(404);

  // A deleted session's driver still running would write its lease back at its next renewal. The kept session's
  // driver (in its grace period) renews on the same period: once it has renewed twice since the deletions, every
  // driver of this node has had a renewal come round.
  await renewals(current, untouched.sessionIds[0]!, 2);
  const after = await scanStore(current, redisUrl);
  const leftovers = after.filter((key) => goneTraces.some((trace) => key.includes(trace)));
  expect(leftovers).toEqual([]);
  // No sampled output of the deleted material or class is left, queued or graded; the other class's still are.
  const samplesAfter = await qualityRecords(current, redisUrl);
  expect(samplesAfter.filter((record) => record.includes(gone.id) || deleted.sessionIds.some((sessionId) => record.includes(sessionId)))).toEqual([]);
  expect(samplesAfter.some((record) => record.includes(untouched.sessionIds[0]!))).toBe(true);
  const members = await sharedMembers(current);
  expect(members.filter((member) => goneTraces.includes(member))).toEqual([]);
  // The live exams' shared indexes (open exams, gradings to retry) name nothing of the deleted exam.
  const examMembers = (await Promise.all([examKeys.examsOpen(), examKeys.examsPending()].map((key) => current.store.zrange(key, 0, -1)))).flat().map((entry) => entry.member);
  expect(examMembers.filter((member) => member.includes(goneExam.examId))).toEqual([]);
  expect(examMembers.some((member) => member.includes(keptExam.examId))).toBe(true);
  expect((await getJson(`${current.url}/api/exams/${keptExam.examId}`, owner)).status).toBe(200);
  expect((await getJson(`${current.url}/api/exams/${goneExam.examId}`, owner)).status).toBe(404);
  // Everything of the other class and material is still there, and still works.
  expect(keptKeys(after)).toEqual(keptBefore);
  expect(members).toContain(kept.id);
  expect(members).toContain(untouched.roomId);
  expect((await getJson(`${current.url}/api/materials/${kept.id}`, owner)).status).toBe(200);
  expect((await getJson(`${current.url}/api/math-sets/${keptSet.setId}`, owner)).status).toBe(200);
  expect((await getJson(`${current.url}/api/math-sets/${goneSet.setId}`, owner)).status).toBe(404);
  expect((await getJson(`${current.url}/api/materials/${gone.id}`, owner)).status).toBe(404);
  expect((await getJson(`${current.url}/api/classes/${untouched.classId}`, bearer(untouched.created.instructorToken))).status).toBe(200);
  expect((await getJson(`${current.url}/api/rooms/${untouched.roomId}/results`, bearer(untouched.created.instructorToken))).status).toBe(200);
  expect(await current.store.xlen(lectureKeys.sessionTranscript(untouched.sessionIds[0]!))).toBeGreaterThan(0);
  return { filesBefore, gone, kept };
}

describe('DL1: deleting a class and a material leaves nothing of them', () => {
  it('DL1 on the memory store, with the PDF, slices and page texts on disk', async () => {
    const { filesBefore, gone, kept } = await scenario({});
    expect(filesBefore.filter((file) => file.startsWith(gone.id)).length).toBeGreaterThan(2);
    const files = blobFiles(app!);
    expect(files.filter((file) => file.startsWith(gone.id))).toEqual([]);
    expect(files.filter((file) => file.startsWith(kept.id))).toEqual(filesBefore.filter((file) => file.startsWith(kept.id)));
  });

  it('DL1 on Redis, blobs in the store', async () => {
    redis = await startRedisServer();
    await scenario({ REDIS_URL: redis.url }, redis.url);
  });
});
