import { SharedResults } from '../shared-results.js';
import { createTextStream, loadPrompt, type Attribution, type LanguageModel, type ModelFile, type ModelRequestBase, type TextStream } from '../../llm/index.js';
import type { Logger } from '../../kernel/index.js';
import { checkChoices, refusalsOf, type GuardReport } from '../../guard/index.js';
import type { ReplySource } from '../../protocol/wire/tutor.js';
import type { Retriever } from '../../retrieval/index.js';
import { fence } from '../../text/index.js';
import { materialConcepts } from '../material-concepts.js';
import { isAnswerSentence } from '../model-answer.js';
import { readingText } from '../offline/offline-blocks.js';
import { mainNames } from '../offline/offline-subconcepts.js';
import { questionFocus } from './assistant-cues.js';
import { chapterFirstPassages, MAX_PASSAGE_CHARS, MAX_PASSAGES, sourcesOf, type PassageQuery } from './assistant-passages.js';
import { ASSISTANT_TASKS, ClassificationSchema, ControlSchema, type Classification, type ControlResult, type ExplainedPart, type HandSubconcept } from './assistant-schemas.js';

/**
 * The raise-hand agents behind one facade (seed 003, 번외 1–4), mirroring QaTutor: the Student Assistant
 * (classify, answer), the explanation agent (explain, final), the Control Agent and the summary agent. Each is one
 * method, one task, one prompt file. Before any call the facade asks the Retriever for the material passages the
 * question is about, the current chapter's first (assistant-passages.ts); the offline model works only from them,
 * Gemini gets them too and, for the Student Assistant's calls, the whole material PDF. Answers and explanations
 * carry the chapters and pages of those passages as their sources.
 */

/** What the assistant needs of the materials (MaterialService has both). */
export interface MaterialSource {
  chapterText(id: string, index: number): Promise<string>;
  materialPdf(id: string): Promise<Uint8Array>;
}

/** Passages as the agents see them, and where they come from (empty when they are the chapter text fallback). */
export interface FoundPassages {
  texts: string[];
  sources: ReplySource[];
}

/** A reply stream that also tells which material passages it was written from (settles before the first delta). */
export interface SourcedTextStream extends TextStream {
  readonly sources: Promise<ReplySource[]>;
}

/**
 * Gemini takes at most 20 MB of inline request data and base64 grows bytes by a third: larger PDFs are not
 * attached and the model works from the retrieved passages alone.
 */
export const MAX_INLINE_PDF_BYTES = 14 * 1024 * 1024;

export interface CallOptions {
  attribution?: Attribution;
  signal?: AbortSignal;
}

export interface MaterialCall extends CallOptions {
  materialId: string;
  /** The chapter the student is in (0-based): its passages are preferred. */
  chapter: number;
}

export interface ExplainRequest extends MaterialCall {
  question: string;
  concept: string;
  subconcept: HandSubconcept;
  index: number;
  total: number;
  /** Earlier explanations of this subconcept; non-empty makes this a re-explanation. */
  previous: string[];
  /** What the student said they did not understand ('' on a first explanation). */
  confusion: string;
}

export interface FinalRequest extends MaterialCall {
  question: string;
  concept: string;
  parts: ExplainedPart[];
  previous: string[];
  confusion: string;
}

/** Most concepts a "which part?" prompt offers. */
export const MAX_CHOICES = 6;

const prompt = (name: string) => loadPrompt(name);
const system = () => prompt('assistant-system').render({});

// Everything below is untrusted (the student's words, the material, what models wrote): fenced, never bare.
function renderPassages(passages: readonly string[]): string {
  return fence('자료_발췌', passages.length > 0 ? passages.join('\n\n---\n\n') : '(관련된 발췌가 없습니다)');
}

function renderExplanations(texts: readonly string[]): string {
  return fence('이전_설명', texts.map((text, index) => `[설명 ${index + 1}]\n${text.trim()}`).join('\n\n'));
}

function renderParts(parts: readonly ExplainedPart[]): string {
  const rendered = parts.map((part, index) => `## ${index + 1}. ${part.concept}\n${part.explanation.trim()}`).join('\n\n');
  return fence('설명한_내용', rendered || '(하위 개념 없이 바로 설명합니다)');
}

const fencedQuestion = (text: string) => fence('학생_질문', text);
const fencedConcept = (text: string) => fence('핵심_개념', text);

function extras(options: CallOptions) {
  return {
    ...(options.attribution ? { attribution: options.attribution } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

export interface StudentAssistantOptions {
  model: LanguageModel;
  materials: MaterialSource;
  retriever: Retriever;
  logger?: Logger | undefined;
  /** Where the item guard's refusals of "which part?" choices go. */
  guard?: GuardReport | undefined;
}

export class StudentAssistant {
  // The classification depends only on the question, the chapter and the material: students asking the same share it.
  private readonly classifications = new SharedResults<Classification>();
  private readonly model: LanguageModel;
  private readonly materials: MaterialSource;
  private readonly retriever: Retriever;
  private readonly logger: Logger | undefined;

  private readonly guard: GuardReport | undefined;

  constructor(options: StudentAssistantOptions) {
    this.model = options.model;
    this.materials = options.materials;
    this.retriever = options.retriever;
    this.logger = options.logger;
    this.guard = options.guard;
  }

  /**
   * The passages for `query`, the chapter's first (assistant-passages.ts). When the Retriever fails (a store
   * outage, an index that cannot be built) the student's question is still answered: from the chapter's text,
   * without sources.
   */
  async retrieve(request: PassageQuery): Promise<FoundPassages> {
    try {
      const passages = await chapterFirstPassages(this.retriever, { ...request, semantic: request.semantic ?? this.model.capabilities.semanticEmbeddings });
      return { texts: passages.map((passage) => passage.text), sources: sourcesOf(passages) };
    } catch (error) {
      if (request.signal?.aborted) throw error;
      this.logger?.warn({ err: error, materialId: request.materialId, chapter: request.chapter }, 'retrieval failed; the assistant works from the chapter text');
      return { texts: chapterPieces(await this.materials.chapterText(request.materialId, request.chapter)), sources: [] };
    }
  }

  /** The whole material PDF for a model that reads PDFs (offline works from passages only). */
  private async pdfFiles(materialId: string): Promise<ModelFile[]> {
    if (!this.model.capabilities.pdfInput) return [];
    const data = await this.materials.materialPdf(materialId);
    return data.byteLength <= MAX_INLINE_PDF_BYTES ? [{ mimeType: 'application/pdf', data }] : [];
  }

  /**
   * The concepts a chapter teaches (material-concepts.ts), at most `limit`, the most emphasised in the chapter's
   * order: the choices of a "which part?" prompt. Deterministic and model-free, so every provider offers the same.
   */
  async chapterConcepts(materialId: string, chapter: number, limit = MAX_CHOICES): Promise<string[]> {
    // As the offline lecture reads the pages: wrapped lines joined into sentences (a line starting `움직이는 물체는`
    // is not a definition of `움직이`), formulas on lines of their own, no cover, contents or administrative page.
    const text = readingText(await this.materials.chapterText(materialId, chapter));
    const sentences = text.split('\n').flatMap((line) => line.split(/(?<=[.!?。？！])\s+/u)).map((line) => line.trim()).filter(isAnswerSentence);
    const taught = materialConcepts(text)
      // Taught in a sentence of the chapter, not only named on its cover or in a running header.
      .filter((entry) => sentences.some((sentence) => sentence.includes(entry.concept)));
    // `평균(산술평균)` is one choice, not two.
    const distinct = taught.filter((entry, index) => !taught.slice(0, index).some((kept) => mainNames(kept.concept, text).has(entry.concept)));
    // The item guard: never the medium, a placeholder, a word met only in code, or one concept twice.
    const verdicts = checkChoices(
      distinct.map((entry) => entry.concept),
      { passages: [text] },
    );
    const sound = distinct.filter((entry, index) => {
      const refusals = verdicts[index] ?? [];
      if (refusals.length > 0) this.guard?.refused(refusalsOf('assistant.choices', entry.concept, refusals, { materialId }));
      return refusals.length === 0;
    });
    return sound
      .slice(0, limit)
      .sort((left, right) => left.at - right.at)
      .map((entry) => entry.concept);
  }

  /** Student Assistant: is the question specific or vague, about which concept, and (vague) its subconcepts. */
  classify(request: MaterialCall & { question: string }): Promise<Classification> {
    const question = request.question.replace(/\s+/gu, ' ').trim();
    const key = SharedResults.key(this.model.modelName('judge'), request.materialId, String(request.chapter), question);
    // Not the caller's signal: one student lowering their hand must not cancel a call others may share.
    return this.classifications.get(key, () => this.writeClassification(request.materialId, request.chapter, question));
  }

  private async writeClassification(materialId: string, chapter: number, question: string): Promise<Classification> {
    const [found, files] = await Promise.all([this.retrieve({ materialId, chapter, query: questionFocus(question) }), this.pdfFiles(materialId)]);
    const passages = found.texts;
    const input = { question, passages };
    const result = await this.model.generateObject({
      task: ASSISTANT_TASKS.classify,
      input,
      prompt: prompt('assistant-classify').render({ passages: renderPassages(passages), question: fencedQuestion(question) }),
      system: system(),
      schema: ClassificationSchema,
      role: 'judge',
      temperature: 0.2,
      files,
      attribution: { materialId },
    });
    const { kind, concept, subconcepts } = result.object;
    return { kind, concept: concept.trim(), subconcepts: kind === 'specific' ? [] : subconcepts };
  }

  /** Student Assistant, specific question: the answer, streamed as markdown. */
  answer(request: MaterialCall & { question: string; concept: string }): SourcedTextStream {
    return this.streamAfter(request, async () => {
      const query = `${questionFocus(request.question)} ${request.concept}`;
      const [found, files] = await Promise.all([this.find(request, query), this.pdfFiles(request.materialId)]);
      const passages = found.texts;
      const input = { question: request.question, concept: request.concept, passages };
      return {
        task: ASSISTANT_TASKS.answer,
        input,
        prompt: prompt('assistant-answer').render({
          passages: renderPassages(passages),
          concept: fencedConcept(request.concept),
          question: fencedQuestion(request.question),
        }),
        files,
        sources: found.sources,
      };
    });
  }

  /** Explanation agent: one subconcept; a re-explanation aims at what the student did not understand. */
  explain(request: ExplainRequest): SourcedTextStream {
    return this.streamAfter(request, async () => {
      const { question, concept, subconcept, index, total, previous, confusion } = request;
      const found = await this.find(request, `${subconcept.concept} ${concept} ${questionFocus(confusion)}`);
      const passages = found.texts;
      const input = { question, concept, subconcept, index, total, passages, previous, confusion };
      const common = { passages: renderPassages(passages), question: fencedQuestion(question), concept: fencedConcept(concept) };
      const rendered =
        previous.length === 0
          ? prompt('assistant-explain').render({
              ...common,
              subconcept: fence('하위_개념', subconcept.concept),
              focus: fence('설명할_점', subconcept.focus),
              position: `${index + 1}/${total}`,
            })
          : prompt('assistant-reexplain').render({
              ...common,
              target: fence('다시_설명할_개념', subconcept.concept),
              previous: renderExplanations(previous),
              confusion: fence('학생_답변', confusion),
            });
      return { task: ASSISTANT_TASKS.explain, input, prompt: rendered, sources: found.sources };
    });
  }

  /** Control Agent: whether the reply to "이해했나요?" says the explanation was understood, and what was not. */
  async control(request: CallOptions & { concept: string; explanation: string; reply: string }): Promise<ControlResult> {
    const input = { concept: request.concept, explanation: request.explanation, reply: request.reply };
    const result = await this.model.generateObject({
      task: ASSISTANT_TASKS.control,
      input,
      prompt: prompt('assistant-control').render({
        concept: fencedConcept(request.concept),
        explanation: fence('설명', request.explanation),
        reply: fence('학생_답변', request.reply),
      }),
      system: system(),
      schema: ControlSchema,
      role: 'judge',
      temperature: 0,
      ...extras(request),
    });
    return result.object;
  }

  /** Explanation agent: the original concept once every subconcept is done (or again, aimed at the confusion). */
  finalExplanation(request: FinalRequest): SourcedTextStream {
    return this.streamAfter(request, async () => {
      const { question, concept, parts, previous, confusion } = request;
      const query = `${concept} ${questionFocus(question)} ${questionFocus(confusion)}`;
      const found = await this.find(request, query);
      const passages = found.texts;
      const input = { question, concept, parts, passages, previous, confusion };
      const common = { passages: renderPassages(passages), question: fencedQuestion(question), concept: fencedConcept(concept) };
      const rendered =
        previous.length === 0
          ? prompt('assistant-final').render({ ...common, parts: renderParts(parts) })
          : prompt('assistant-reexplain').render({
              ...common,
              target: fence('다시_설명할_개념', concept),
              previous: renderExplanations(previous),
              confusion: fence('학생_답변', confusion),
            });
      return { task: ASSISTANT_TASKS.final, input, prompt: rendered, sources: found.sources };
    });
  }

  /** Summary agent: every part, section by section, as one markdown document. */
  summary(request: CallOptions & { question: string; concept: string; parts: ExplainedPart[] }): TextStream {
    const input = { question: request.question, concept: request.concept, parts: request.parts };
    return this.model.streamText({
      task: ASSISTANT_TASKS.summary,
      input,
      prompt: prompt('assistant-summary').render({
        question: fencedQuestion(request.question),
        concept: fencedConcept(request.concept),
        parts: renderParts(request.parts),
      }),
      system: system(),
      role: 'generation',
      temperature: 0.3,
      ...extras(request),
    });
  }

  private find(request: MaterialCall, query: string): Promise<FoundPassages> {
    return this.retrieve({ materialId: request.materialId, chapter: request.chapter, query, signal: request.signal });
  }

  /**
   * A stream whose request needs material first (passages, the PDF). The model call starts once they are there;
   * the caller's signal and the consumer stopping early both abort it. `sources` settles with the passages (empty if
   * preparing failed: the stream's own error says why).
   */
  private streamAfter(
    options: CallOptions,
    prepare: () => Promise<Pick<ModelRequestBase, 'task' | 'input' | 'prompt' | 'files'> & { sources: ReplySource[] }>,
  ): SourcedTextStream {
    let settleSources: (sources: ReplySource[]) => void = () => undefined;
    const sources = new Promise<ReplySource[]>((resolve) => {
      settleSources = resolve;
    });
    const stream = createTextStream(async (push, cancel) => {
      const prepared = await prepare().catch((error: unknown) => {
        settleSources([]);
        throw error;
      });
      const { sources: found, ...request } = prepared;
      settleSources(found);
      const signal = options.signal ? AbortSignal.any([options.signal, cancel]) : cancel;
      const modelStream = this.model.streamText({
        ...request,
        system: system(),
        role: 'generation',
        temperature: 0.4,
        signal,
        ...(options.attribution ? { attribution: options.attribution } : {}),
      });
      for await (const delta of modelStream) push(delta);
      return modelStream.result;
    });
    return { result: stream.result, sources, [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator]() };
  }
}

/** The chapter text as passages (pages, cut at line ends) when the Retriever cannot answer: the same caps. */
function chapterPieces(text: string): string[] {
  const pieces: string[] = [];
  let used = 0;
  for (const page of text.split(/\n\s*\n/u)) {
    const piece = page.trim().slice(0, MAX_PASSAGE_CHARS - used);
    if (piece.length === 0) continue;
    pieces.push(piece);
    used += piece.length;
    if (pieces.length >= MAX_PASSAGES || used >= MAX_PASSAGE_CHARS) break;
  }
  return pieces;
}
