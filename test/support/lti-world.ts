import type { AppOverrides } from '../../src/app.js';
import { signUp, type SignedUpAccount } from './accounts.js';
import { madePdf, uploadPdf } from './data-flow.js';
import { startFakeLms, ROLES, type FakeLms, type FakeUser } from './fake-lms.js';
import { call } from './http-call.js';
import { startTestApp, type TestApp } from './test-app.js';

/**
 * The LTI tests' world: lectern (its first account the admin), a fake LMS registered by the admin on the account
 * page's route, and a teacher with a lectern account of their own (the LMS instructor with the same e-mail) who has
 * a material and a one-item exam on it.
 */
export interface LtiWorld {
  app: TestApp;
  lms: FakeLms;
  admin: SignedUpAccount;
  teacher: SignedUpAccount;
  platformId: string;
  materialId: string;
  examId: string;
  instructor: FakeUser;
  students: FakeUser[];
  stop(): Promise<void>;
}

export const EXAM_PROBLEM = {
  id: 1,
  type: 'Short_Keyword' as const,
  question_content: '자료가 흩어진 정도를 나타내는 값은?',
  model_answer: '분산',
  key_keywords: ['분산'],
  intent_diagnosis: '정의',
};

export async function startLtiWorld(options: { env?: Record<string, string>; overrides?: AppOverrides; registration?: Record<string, unknown> } = {}): Promise<LtiWorld> {
  const app = await startTestApp(options.env ?? {}, { ...options.overrides, lti: { keySets: { cooldownMs: 0 }, ...options.overrides?.lti } });
  const lms = await startFakeLms();
  lms.useTool(app.url);
  const admin = await signUp(app);
  const teacher = await signUp(app, { email: 'kim.teacher@school.example' });
  const registered = await call(`${app.url}/api/lti/platforms`, 'POST', { headers: admin.bearer, body: lms.registration({ trustEmails: true, ...options.registration }) });
  if (registered.status !== 201) throw new Error(`registration refused: ${registered.status} ${JSON.stringify(registered.body)}`);
  const material = await uploadPdf(app, await madePdf('확률과 분산'), 'stat.pdf', teacher);
  const exam = await app.exams.create({
    accountId: teacher.accountId,
    materialId: material.id,
    title: '분산 확인 시험',
    request: { count: 1, descriptive: 0 },
    plan: { planning_strategy: '정의', planned_items: [{ id: 1, target_topic: '분산', question_type: 'Short_Keyword', intent_type: 'Definition', complexity_level: 'Basic', source_reference_hint: '1장' }] },
    problems: [EXAM_PROBLEM],
    complaints: [],
    valid: true,
    rounds: 1,
  });
  const instructor: FakeUser = { sub: 'lms-teacher-7', name: '김선생', email: 'kim.teacher@school.example', roles: ROLES.instructor };
  const students: FakeUser[] = [
    { sub: 'lms-student-1', name: '이서연', email: 'seoyeon@school.example', roles: ROLES.learner },
    { sub: 'lms-student-2', name: '박민준', roles: ROLES.learner },
    { sub: 'lms-student-3', name: '최지우', roles: ROLES.learner },
  ];
  lms.members = [instructor, ...students];
  return {
    app,
    lms,
    admin,
    teacher,
    platformId: String(registered.body.platformId),
    materialId: material.id,
    examId: exam.examId,
    instructor,
    students,
    async stop() {
      await lms.close();
      await app.stop();
    },
  };
}

/** The teacher adds the lecture and the exam (published for 30 minutes) to the course by Deep Linking. */
export async function linkLectureAndExam(world: LtiWorld, exam: { timeLimitMinutes: number } | { selfStudy: true } = { timeLimitMinutes: 30 }) {
  const { app, lms } = world;
  const launch = await lms.launch(app.url, { user: world.instructor, message: 'deep-link' });
  if (launch.landing?.kind !== 'picker') throw new Error(`deep link launch: ${launch.status} ${launch.errorCode} ${launch.html.slice(0, 300)}`);
  const picker = String(launch.landing.picker);
  const answer = await call(`${app.url}/api/lti/deep-links/${picker}`, 'POST', {
    body: { choices: [{ kind: 'lecture', id: world.materialId }, { kind: 'exam', id: world.examId, publish: exam }] },
  });
  if (answer.status !== 200) throw new Error(`deep link answer: ${answer.status} ${JSON.stringify(answer.body)}`);
  const returned = await lms.returnDeepLink(answer.body.returnUrl, answer.body.jwt);
  if (returned.status !== 200) throw new Error(`fake LMS refused the deep link: ${returned.text}`);
  const [lecture, examLink] = lms.links.slice(-2);
  if (!lecture || !examLink) throw new Error('no links made');
  return { launch, picker, lecture, exam: examLink };
}
