import { z } from 'zod';

/**
 * The zod schemas of the live exam routes (server only). Their outbound types are in ./wire/exams.ts
 * (browser-safe), re-exported here. The generation body is the seed's request, `ExamRequest` of src/exams/.
 */
export type * from './wire/exams.js';

const text = (max: number) => z.string().trim().min(1).max(max);

/** `PATCH /api/exams/:examId/problems/:id`: any of the editable fields of one problem. */
export const ExamProblemPatch = z
  .object({
    question_content: text(2000).optional(),
    model_answer: text(4000).optional(),
    key_keywords: z.array(text(200)).max(20).optional(),
    intent_diagnosis: text(2000).optional(),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: '고칠 내용을 하나 이상 보내 주세요.' });
export type ExamProblemPatch = z.infer<typeof ExamProblemPatch>;

/**
 * `POST /api/exams/:examId/publish`: with a time limit, or opened as self-study (`selfStudy: true`, no time limit:
 * each student takes it on their own time and sees the result at their own submission).
 */
export const ExamPublishBody = z.union([
  z
    .object({
      classId: z.string().trim().min(1).max(64),
      timeLimitMinutes: z.number().int().min(1, '제한 시간은 1분에서 300분 사이입니다.').max(300, '제한 시간은 1분에서 300분 사이입니다.'),
    })
    .strict(),
  z.object({ classId: z.string().trim().min(1).max(64), selfStudy: z.literal(true) }).strict(),
]);


/** `POST /api/exams/:examId/students/:sessionId/items/:questionId/override`. */
export const ExamOverrideBody = z
  .object({
    status: z.enum(['Correct', 'Partial_Correct', 'Incorrect']),
    reason: text(1000),
  })
  .strict();

/** `POST /api/exams/:examId/items/:questionId/groups/:groupId/grade`: one status and one reason for the whole group. */
export const ExamGroupGradeBody = ExamOverrideBody;

/** `PATCH /api/classes/:classId/students/:sessionId/profile`: the learning goal. */
export const ExamGoalBody = z
  .object({
    target_depth: z.enum(['Basic Recall', 'Conceptual Understanding', 'Deep Understanding']),
    description: z.string().trim().max(500),
  })
  .strict();

/** `GET /api/exams?materialId=&cursor=&limit=`. */
export const ExamListQuery = z.object({ materialId: z.string().trim().min(1).max(128).optional() });

/** `PUT /api/class-exams/:examId/draft`: answers by question id, each at most 4000 characters (empty allowed). */
export const ExamDraftBody = z
  .object({
    answers: z.record(z.string().regex(/^\d{1,4}$/, '문항 번호는 숫자입니다.'), z.string().max(4000, '답안은 4000자 이하여야 합니다.')),
  })
  .strict()
  .refine((body) => Object.keys(body.answers).length <= 20, { message: '답안은 20문항까지 보낼 수 있습니다.', path: ['answers'] });

/** `POST /api/class-exams/:examId/submit`: the named items, or the whole exam when `questionIds` is absent. */
export const ExamSubmitBody = z
  .object({ questionIds: z.array(z.number().int().min(1).max(1000)).min(1).max(20).optional() })
  .strict();

/** `POST /api/class-exams/:examId/regrade`. */
export const ExamRegradeBody = z
  .object({
    questionId: z.number().int().min(1).max(1000),
    comment: text(1000),
  })
  .strict();
