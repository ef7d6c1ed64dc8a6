/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EC1 — English lectures name concepts. On English material the offline lecture's questions and connectives name the
 *   material's noun phrases and slide titles (`Round Robin`, `fork and exec`, `Context Switching`), never a word of
 *   its prose that names nothing alone (`what`, `time`, `new`, `moves`, `between`, `low`, `high`, `child`, `round`,
 *   `reading`); a closing slide (`Questions?` / `Reading: …`) is not lectured.
 * - EC2 — English feedback names compounds. The offline judge's feedback and the supplement quote the reference's noun
 *   compounds (`CPU utilization`, `time quantum`), never a verb, an adjective or a function word of it.
 * - EC3 — A raised hand about two things. "What is the difference between a process and a thread? 프로세스와 스레드의
 *   차이가 뭔가요?" is specific, about `process와 thread의 차이`, answered with the material's definition of each; an
 *   English question's concept is the material's multi-word term it names (`round robin`), never `what`.
 * - EC4 — English feedback names glossary terms. The offline judge never quotes a noun+verb chunk the tagger misread
 *   (`process share` of "Threads of one process share the address space"), an everyday noun the reference does not
 *   define (`work` of "no useful work is done") or a name that only sets the scene (`Unix` of "On Unix, fork() …");
 *   it names the compound (`context switch` of "a context switch saves …", not `switch`).
 * - EC5 — An English term's particle is read as Koreans say it: a t, k or p after one short vowel keeps its consonant
 *   (unit 유닛 → `'unit'이`), after a long vowel or a silent e it is 트 (state 스테이트 → `'state'가`).
 * - EC6 — A tutoring question asks what its explanation answers: a concept with one defining sentence is asked about
 *   the example its slide gives (`Race Conditions의 예시`), or what it is, never "강의의 어느 부분에서 쓰였는지" answered
 *   with its definition.
 * - EC7 — Connectives announce each topic once: a slide on a topic already announced goes on with it (`이어서
 *   Threads를 조금 더 살펴보겠습니다.`), and a summary slide is the wrap-up (`끝으로 지금까지의 내용을 정리해
 *   보겠습니다.`), never `이어서 Summary를 살펴보겠습니다.`
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goldenMaterial, startGoldenApp, type GoldenMaterial } from '../scripts/golden-lectures.js';
import type { App } from '../src/app.js';
import { questionConcept } from '../src/lecture/offline/offline-lecture.js';
import { judgeOfflineAnswer } from '../src/lecture/offline/offline-judge.js';
import { lectureOfflineTasks } from '../src/lecture/offline/offline-tasks.js';
import { offlineSubconcepts } from '../src/lecture/offline/offline-subconcepts.js';
import { TUTOR_TASKS } from '../src/lecture/qa-tutor.js';
import { englishCompounds } from '../src/text/index.js';
import { parseLecture } from '../src/lecture/marker-parser.js';
import { deckPdf, operatingSystemsDeck } from '../scripts/slide-decks.js';

/** Words of the deck's prose that name nothing on their own: never what a student is asked about or told. */
const FILLER = ['what', 'time', 'new', 'moves', 'between', 'low', 'high', 'child', 'round', 'reading', 'waiting', 'too'];
const quotedTerms = (text: string): string[] => Array.from(text.matchAll(/'([^']+)'/gu), (match) => match[1] ?? '');

let app: App;
let stop: () => Promise<void>;
let golden: GoldenMaterial;

beforeAll(async () => {
  ({ app, stop } = await startGoldenApp());
  golden = await goldenMaterial(app, { name: operatingSystemsDeck.name, filename: 'os-lecture5.pdf', build: () => deckPdf(operatingSystemsDeck) });
}, 60_000);

afterAll(async () => {
  await stop();
});

describe('EC1 English lectures name concepts', () => {
  it('EC1 every question of the OS deck asks about a slide title or noun phrase, never a filler word', () => {
    const questions = golden.chapters.flatMap((chapter) => parseLecture(chapter.raw).flatMap((segment) => (segment.type === 'question' ? [segment.text] : [])));
    expect(questions.length).toBeGreaterThanOrEqual(4);
    const concepts = questions.map((question) => questionConcept(question));
    for (const concept of concepts) expect(FILLER).not.toContain(concept.toLowerCase());
    expect(concepts).toEqual(expect.arrayContaining(['Round Robin', 'fork and exec']));
  });

  it('EC1 connectives announce slide titles as noun phrases and skip the closing slide', () => {
    const announced = golden.chapters.flatMap((chapter) => Array.from(chapter.raw.matchAll(/^(?:먼저|이어서) (.+?)(?:을|를) 살펴보겠습니다\.$/gmu), (match) => match[1] ?? ''));
    for (const topic of announced) expect(FILLER).not.toContain(topic.toLowerCase());
    expect(announced).toEqual(expect.arrayContaining(['Process', 'fork and exec', 'First-Come, First-Served', 'Round Robin', 'Context Switching']));
    expect(golden.chapters.map((chapter) => chapter.raw).join('\n')).not.toContain('OSTEP');
  });
});

describe('EC2 English feedback names compounds', () => {
  it('EC2 praise and missing ideas are noun compounds of the model answer', () => {
    const states = judgeOfflineAnswer({
      question: 'Process States에 대해 자신의 말로 설명해 보세요.',
      modelAnswer: 'A process moves between the states new, ready, running, waiting and terminated. A process waiting for I/O moves to the waiting state until the I/O completes.',
      answer: 'The states are new, ready, running, waiting and terminated. The scheduler moves a ready process to running, and a process that waits for I/O goes to waiting until the I/O completes.',
    });
    expect(states.verdict).toBe('good');
    for (const term of quotedTerms(states.feedback)) expect(FILLER).not.toContain(term.toLowerCase());
    const goals = judgeOfflineAnswer({
      question: 'CPU Scheduling Goals에 대해 자신의 말로 설명해 보세요.',
      modelAnswer: 'The scheduler picks which ready process runs next on the CPU. Goals: high CPU utilization, high throughput, low turnaround time, low waiting time and low response time.',
      answer: 'The scheduler picks which ready process runs next.',
    });
    expect(quotedTerms(goals.feedback)).toContain('CPU utilization');
    for (const term of quotedTerms(goals.feedback)) expect(FILLER).not.toContain(term.toLowerCase());
  });

  it('EC2 the supplement says which compounds the model answer joins', () => {
    const supplement = lectureOfflineTasks[TUTOR_TASKS.supplement];
    const write = (modelAnswer: string): string => {
      const text = supplement?.text?.({ question: 'Round Robin이 무엇인지, 왜 중요한지 자신의 말로 설명해 보세요.', lecture: '', modelAnswer, answer: 'x' }) ?? '';
      return typeof text === 'string' ? text : [...text].join('');
    };
    const roundRobin = write('Round robin gives each ready process a time quantum, for example 10 ms, then preempts it. A quantum that is too large behaves like FCFS; one that is too small wastes time on context switches.');
    const goals = write('The scheduler picks which ready process runs next on the CPU. Goals: high CPU utilization, high throughput, low turnaround time, low waiting time and low response time.');
    expect(quotedTerms(roundRobin)).toContain('time quantum');
    expect(quotedTerms(goals)).toEqual(expect.arrayContaining(['turnaround time', 'CPU utilization']));
    for (const term of [...quotedTerms(roundRobin), ...quotedTerms(goals)]) expect(FILLER).not.toContain(term.toLowerCase());
  });
});

describe('EC3 a raised hand about two things', () => {
  let id = '';
  const materialId = (): string => id;
  beforeAll(async () => {
    // The same bytes as the golden walk: the same material, ingested once.
    ({ material: { id } } = await app.materials.ingest({ bytes: await deckPdf(operatingSystemsDeck), filename: 'os-lecture5.pdf' }));
  });

  it('EC3 the difference between a process and a thread is answered from both definitions', async () => {
    const question = 'What is the difference between a process and a thread? 프로세스와 스레드의 차이가 뭔가요?';
    const assistant = app.lectures.assistant;
    const classification = await assistant.classify({ materialId: materialId(), chapter: 1, question });
    expect(classification).toMatchObject({ kind: 'specific', concept: 'process와 thread의 차이' });
    let answer = '';
    for await (const delta of assistant.answer({ materialId: materialId(), chapter: 1, question, concept: classification.concept })) answer += delta;
    expect(answer.split('\n')[0]).toBe('**질문하신 내용: process와 thread의 차이**');
    expect(answer).toContain('A process is a program in execution');
    expect(answer).toContain('a thread is a unit of execution inside a process.');
    expect(answer).not.toMatch(/\bwhat\b/iu);
  });

  it('EC3 an English question is about the material term it names, whole', async () => {
    const assistant = app.lectures.assistant;
    const roundRobin = await assistant.classify({ materialId: materialId(), chapter: 2, question: 'What is round robin?' });
    expect(roundRobin.concept).toBe('round robin');
    for (const part of roundRobin.subconcepts) expect(FILLER).not.toContain(part.concept.toLowerCase());
    const overhead = await assistant.classify({ materialId: materialId(), chapter: 2, question: "I don't understand why a context switch is pure overhead" });
    expect(overhead.concept).toBe('context switch');
  });
});

describe('EC4 English feedback names glossary terms', () => {
  it('EC4 the judge quotes no noun+verb chunk, no everyday noun and no scene-setting name (the OS deck trial)', () => {
    const switching = judgeOfflineAnswer({
      question: '방금 살펴본 내용에서 Context Switching이 어떤 역할을 하는지 설명해 보세요.',
      modelAnswer: 'a context switch saves the state of the running process and restores the state of the next one. It is pure overhead: no useful work is done during the switch.',
      answer: 'A context switch saves the state of the running process into its PCB and restores the state of the next one; it is pure overhead, takes a few microseconds, and caches and the TLB are cold afterwards. Switching threads of the same process is cheaper because the address space stays the same.',
    });
    expect(switching.feedback).toBe("좋아요, 핵심을 잘 이해하고 있어요. 특히 'context switch', 'state'를 정확히 짚었어요.");
    const forkExec = judgeOfflineAnswer({
      question: 'fork and exec가 무엇인지, 왜 중요한지 자신의 말로 설명해 보세요.',
      modelAnswer: "On Unix, fork() creates a child process that is a copy of the parent. exec() replaces the child's memory image with a new program.",
      answer: "I don't know",
    });
    expect(quotedTerms(forkExec.feedback)).not.toContain('Unix');
    expect(quotedTerms(forkExec.feedback)).toContain('child process');
    const threads = 'a thread is a unit of execution inside a process. Threads of one process share the address space, open files and heap. Each thread has its own stack, registers and program counter.';
    expect(englishCompounds(threads)).not.toContain('process share');
    expect(englishCompounds(threads)).toContain('address space');
    const property = judgeOfflineAnswer({
      question: '강의에서 Threads는 어떤 성질이 있다고 했나요?',
      modelAnswer: 'Threads of one process share the address space, open files and heap.',
      answer: 'Threads of one process share the address space, open files and heap, and each has its own stack.',
    });
    for (const term of quotedTerms(property.feedback)) expect(term).not.toMatch(/\bshare\b/u);
    // A ditransitive verb's first object stays a compound (`gives each ready process a time quantum`).
    expect(englishCompounds('Round robin gives each ready process a time quantum.')).toEqual(['Round robin', 'process', 'time quantum']);
    // An everyday noun the text defines is its concept.
    expect(englishCompounds('Work is force times distance. No useful work is done.')).toContain('Work');
  });
});

describe('EC5 an English term takes the particle of how Koreans read it', () => {
  it("EC5 the supplement of the Threads question says 'unit'이, not 'unit'가", () => {
    const supplement = lectureOfflineTasks[TUTOR_TASKS.supplement];
    const text = supplement?.text?.({ question: 'Threads에 대해 자신의 말로 설명해 보세요.', lecture: '', modelAnswer: 'a thread is a unit of execution inside a process.', answer: 'x' }) ?? '';
    const written = typeof text === 'string' ? text : [...text].join('');
    expect(written).toContain("'unit'이 어떻게 연결되는지");
    expect(written).not.toMatch(/'unit'가/u);
  });
});

describe('EC6 a tutoring question asks what its explanation answers', () => {
  it('EC6 Race Conditions, taught by one definition, is asked about its example, never where the lecture used it', () => {
    const threads = golden.chapters.find((chapter) => chapter.raw.includes('Race Conditions를 살펴보겠습니다.'));
    expect(threads).toBeDefined();
    const parts = offlineSubconcepts({ question: 'Race Conditions가 무엇인지, 왜 중요한지 자신의 말로 설명해 보세요.', passage: threads?.raw ?? '' });
    expect(parts.map((part) => part.question)).toEqual(['Race Conditions가 무엇을 가리키는지 한 문장으로 말해 볼까요?', '강의에서는 Race Conditions의 예로 무엇을 들었나요?']);
    expect(parts[1]?.explanation).toBe('Two threads increment the same counter without a lock and an update is lost.');
    const all = golden.chapters.flatMap((chapter) => chapter.questions.flatMap((question) => question.subconcepts));
    for (const part of all) expect(part.question).not.toContain('어느 부분에서 쓰였는지');
  });
});

describe('EC7 connectives announce each topic once', () => {
  it('EC7 a second slide on Threads goes on with it, and the summary slide is the wrap-up', () => {
    const raw = golden.chapters.map((chapter) => chapter.raw).join('\n');
    const announced = Array.from(raw.matchAll(/^(?:먼저|이어서) (.+?)(?:을|를) 살펴보겠습니다\.$/gmu), (match) => match[1] ?? '');
    expect(new Set(announced).size).toBe(announced.length);
    expect(raw).toContain('이어서 Threads를 조금 더 살펴보겠습니다.\n\nThreads are cheaper to create and switch than processes.');
    expect(raw).not.toContain('Summary를 살펴보겠습니다');
    expect(raw).toContain('끝으로 지금까지의 내용을 정리해 보겠습니다.\n\nA process is a program in execution tracked by its PCB.');
  });
});
