import { SharedResults } from '../shared-results.js';
import { createTextStream, loadPrompt, type Attribution, type LanguageModel, type ModelFile, type ModelRequestBase, type TextStream } from '../../llm/index.js';
import { fence } from '../../text/index.js';
import { materialConcepts } from '../material-concepts.js';
import { isAnswerSentence } from '../model-answer.js';
import { questionFocus } from './assistant-cues.js';
import { passageText, selectPassages, splitPassages, type Passage } from './assistant-retrieval.js';
import { ASSISTANT_TASKS, ClassificationSchema, ControlSchema, type Classification, type ControlResult, type ExplainedPart, type HandSubconcept } from './assistant-schemas.js';

/**
 * The raise-hand agents behind one facade (seed 003, 번외 1–4), mirroring QaTutor: the Student Assistant
 * (classify, answer), the explanation agent (explain, final), the Control Agent and the summary agent. Each is one
 * method, one task, one prompt file. Before any call the facade retrieves the material passages the question is
 * about; the offline model works only from them, Gemini gets them too and, for the Student Assistant's calls, the
 * whole material PDF.
 */

/** What the assistant needs of the materials (MaterialService has both). */
export interface MaterialSource {
  materialText(id: string): Promise<string>;
  chapterText(id: string, index: number): Promise<string>;
  materialPdf(id: string): Promise<Uint8Array>;
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

export class StudentAssistant {
  // A material's passages are derived from its immutable text (ids are content hashes): split once per material.
  private readonly passages: SharedResults<Passage[]>;
  // The classification depends only on the question and the material: students asking the same thing share it.
  private readonly classifications = new SharedResults<Classification>();

  constructor(
    private readonly model: LanguageModel,
    private readonly materials: MaterialSource,
    options: { materialCapacity?: number } = {},
  ) {
    this.passages = new SharedResults<Passage[]>(options.materialCapacity ?? 32);
  }

  /** The material passages most relevant to `query`, as the texts agents see. */
  async retrieve(materialId: string, query: string): Promise<string[]> {
    const passages = await this.passages.get(materialId, async () => splitPassages(await this.materials.materialText(materialId)));
    return selectPassages(passages, query).map(passageText);
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
    const text = await this.materials.chapterText(materialId, chapter);
    // Line by line: extracted PDF text runs formulas into the next sentence when its lines are joined.
    const sentences = text.split('\n').flatMap((line) => line.split(/(?<=[.!?。？！])\s+/u)).map((line) => line.trim()).filter(isAnswerSentence);
    return materialConcepts(text)
      // Taught in a sentence of the chapter, not only named on its cover or in a running header.
      .filter((entry) => sentences.some((sentence) => sentence.includes(entry.concept)))
      .slice(0, limit)
      .sort((left, right) => left.at - right.at)
      .map((entry) => entry.concept);
  }

  /** Student Assistant: is the question specific or vague, about which concept, and (vague) its subconcepts. */
  classify(request: MaterialCall & { question: string }): Promise<Classification> {
    const question = request.question.replace(/\s+/gu, ' ').trim();
    const key = SharedResults.key(this.model.modelName('judge'), request.materialId, question);
    // Not the caller's signal: one student lowering their hand must not cancel a call others may share.
    return this.classifications.get(key, () => this.writeClassification(request.materialId, question));
  }

  private async writeClassification(materialId: string, question: string): Promise<Classification> {
    const [passages, files] = await Promise.all([this.retrieve(materialId, questionFocus(question)), this.pdfFiles(materialId)]);
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
  answer(request: MaterialCall & { question: string; concept: string }): TextStream {
    return this.streamAfter(request, async () => {
      const query = `${questionFocus(request.question)} ${request.concept}`;
      const [passages, files] = await Promise.all([this.retrieve(request.materialId, query), this.pdfFiles(request.materialId)]);
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
      };
    });
  }

  /** Explanation agent: one subconcept; a re-explanation aims at what the student did not understand. */
  explain(request: ExplainRequest): TextStream {
    return this.streamAfter(request, async () => {
      const { question, concept, subconcept, index, total, previous, confusion } = request;
      const passages = await this.retrieve(request.materialId, `${subconcept.concept} ${concept} ${questionFocus(confusion)}`);
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
      return { task: ASSISTANT_TASKS.explain, input, prompt: rendered };
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
  finalExplanation(request: FinalRequest): TextStream {
    return this.streamAfter(request, async () => {
      const { question, concept, parts, previous, confusion } = request;
      const query = `${concept} ${questionFocus(question)} ${questionFocus(confusion)}`;
      const passages = await this.retrieve(request.materialId, query);
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
      return { task: ASSISTANT_TASKS.final, input, prompt: rendered };
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

  /**
   * A stream whose request needs material first (passages, the PDF). The model call starts once they are there;
   * the caller's signal and the consumer stopping early both abort it.
   */
  private streamAfter(options: CallOptions, prepare: () => Promise<Pick<ModelRequestBase, 'task' | 'input' | 'prompt' | 'files'>>): TextStream {
    return createTextStream(async (push, cancel) => {
      const request = await prepare();
      const signal = options.signal ? AbortSignal.any([options.signal, cancel]) : cancel;
      const stream = this.model.streamText({
        ...request,
        system: system(),
        role: 'generation',
        temperature: 0.4,
        signal,
        ...(options.attribution ? { attribution: options.attribution } : {}),
      });
      for await (const delta of stream) push(delta);
      return stream.result;
    });
  }
}
