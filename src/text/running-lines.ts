/**
 * Running headers and footers of extracted PDF text (`기초 통계 · 3` on every page): short lines (at most 40
 * characters) at the top or bottom of a page or paragraph block that come back at least three times once their
 * numbers are ignored. Agents working from extracted text drop them, so a page footer never becomes lecture text or
 * a quiz sentence; a formula repeated inside paragraphs is kept.
 */
export class RunningLines {
  private readonly shapes: Set<string>;

  constructor(text: string) {
    const counts = new Map<string, number>();
    for (const block of text.split(/\r?\n[^\S\r\n]*\r?\n/u)) {
      const lines = block.split(/\r\n?|\n/u).filter((line) => line.trim() !== '');
      const edges = new Set([lineShape(lines[0] ?? ''), lineShape(lines.at(-1) ?? '')]);
      for (const shape of edges) {
        if (shape !== '' && shape.length <= MAX_RUNNING_LINE) counts.set(shape, (counts.get(shape) ?? 0) + 1);
      }
    }
    this.shapes = new Set([...counts].filter(([, seen]) => seen >= 3).map(([shape]) => shape));
  }

  has(line: string): boolean {
    return this.shapes.has(lineShape(line));
  }
}

const MAX_RUNNING_LINE = 40;

function lineShape(line: string): string {
  return line.replace(/\d+/gu, '#').replace(/\s+/gu, ' ').trim();
}
