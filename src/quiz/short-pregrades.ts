import type { ShortItem } from '../protocol/quiz.js';
import { gradeShortAnswer, isMathAnswer, type ShortGrade } from './short-answer-judge.js';
import { answerKey, cleanText } from './text-answers.js';

/** Rooms whose open short-text question a node keeps early verdicts for; the least recently judged room goes first. */
const ROOMS_KEPT = 256;

/** Judges one distinct answer of a question: the text the close met first under its key, and how many gave it. */
export type ShortGrader = (text: string, count: number) => ShortGrade;

/**
 * Verdicts of a short-text question's distinct answers judged while it is still open, on the node that recorded them,
 * so that its close, which everyone's reveal waits for, judges only the answers this node has not met. A verdict is
 * the pure gradeShortAnswer of the item and the text, so one judged early is the one the close would give; the close
 * still takes each answer's count, and the text it shows, from every recorded answer. At most `limit` distinct answers
 * per question are judged early (the close judges no more), and only the question a room has open is kept.
 */
export class ShortPregrades {
  private readonly rooms = new Map<string, { q: number; math: boolean; verdicts: Map<string, ShortGrade> }>();

  constructor(private readonly limit: number) {}

  /** Judges `text` now unless this question already has a verdict for its key (call it off the answer path). */
  prejudge(roomId: string, q: number, item: ShortItem, text: string): void {
    let entry = this.rooms.get(roomId);
    if (entry?.q !== q) entry = { q, math: isMathAnswer(item), verdicts: new Map() };
    // Re-inserted: the map's order is the order rooms were last judged in.
    this.rooms.delete(roomId);
    this.rooms.set(roomId, entry);
    if (this.rooms.size > ROOMS_KEPT) this.rooms.delete(this.rooms.keys().next().value!);
    const key = answerKey(text);
    if (key === '' || entry.verdicts.has(key) || entry.verdicts.size >= this.limit) return;
    // Judged as the close would meet it (distinctAnswers keeps the cleaned first spelling).
    entry.verdicts.set(key, gradeShortAnswer(item, cleanText(text), 1, entry.math));
  }

  /** The close's grader for question `q`: an early verdict when there is one (with the close's text and count). */
  grader(roomId: string, q: number, item: ShortItem): ShortGrader {
    const entry = this.rooms.get(roomId);
    const verdicts = entry?.q === q ? entry.verdicts : undefined;
    const math = entry?.q === q ? entry.math : isMathAnswer(item);
    return (text, count) => {
      const early = verdicts?.get(answerKey(text));
      return early ? { ...early, text, count } : gradeShortAnswer(item, text, count, math);
    };
  }

  /** The room's early verdicts are no longer needed (its game ended here). */
  forget(roomId: string): void {
    this.rooms.delete(roomId);
  }
}
