import { TWO_LETTER_WORDS } from './units.js';

/**
 * Text clean-up before parsing: what students and models put around an answer (`$…$`, `\boxed{}`, `답:`,
 * `입니다`), other spellings of the same symbols (², ≤, ±, √, full-width characters), thousands separators,
 * and the words that join solutions (`또는`, `or`). The result is LaTeX-ish text for the splitter and the parser.
 */
export interface NormalisedText {
  text: string;
  /** `100,200` was read as one number; it could also be a list of two. */
  thousands: boolean;
}

/** Longest answer read, in characters (a longer one is `unknown`: nothing hostile gets near the parser). */
export const MAX_ANSWER_LENGTH = 500;

const SUPERSCRIPTS: Readonly<Record<string, string>> = {
  '⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9', '⁻': '-', '⁺': '+',
};

const SYMBOLS: ReadonlyArray<[RegExp, string]> = [
  [/[−–—﹣－]/g, '-'],
  [/×/g, ' \\times '],
  [/÷/g, ' \\div '],
  [/[·⋅∙]/g, ' \\cdot '],
  [/√/g, ' sqrt'],
  [/π/g, ' \\pi '],
  [/[≤≦⩽]/g, ' \\le '],
  [/[≥≧⩾]/g, ' \\ge '],
  [/≠/g, ' \\ne '],
  [/∞/g, ' \\infty '],
  [/±/g, ' \\pm '],
  [/∓/g, ' \\mp '],
  [/∅/g, ' \\emptyset '],
  [/∪/g, ' \\cup '],
  [/∩/g, ' \\cap '],
  [/∈/g, ' \\in '],
  [/[°º]/g, '^\\circ '],
];

/** Removes `\command{…}` keeping its content (balanced braces); `replace` decides what the content becomes. */
function unwrapCommand(text: string, command: string, replace: (content: string) => string): string {
  let output = text;
  for (let guard = 0; guard < 20; guard++) {
    const start = output.indexOf(`\\${command}{`);
    if (start === -1) break;
    let depth = 0;
    let end = -1;
    for (let index = start + command.length + 1; index < output.length; index++) {
      const char = output[index];
      if (char === '{') depth += 1;
      else if (char === '}') {
        depth -= 1;
        if (depth === 0) {
          end = index;
          break;
        }
      }
    }
    if (end === -1) break;
    output = output.slice(0, start) + replace(output.slice(start + command.length + 2, end)) + output.slice(end + 1);
  }
  return output;
}

function stripWrappers(text: string): string {
  let output = text.trim();
  for (let guard = 0; guard < 6; guard++) {
    const before = output;
    output = output
      .replace(/^(?:the\s+)?(?:final\s+)?(?:answer|ans)\s*(?:is|:)?\s*/i, '')
      .replace(/^(?:정답|답)\s*(?:[:=]|은|는|이|:)?\s*/, '')
      .replace(/^\$\$([\s\S]*)\$\$$/, '$1')
      .replace(/^\$([\s\S]*)\$$/, '$1')
      .replace(/^\\\(([\s\S]*)\\\)$/, '$1')
      .replace(/^\\\[([\s\S]*)\\\]$/, '$1')
      .replace(/(?:입니다|이다|이에요|예요|에요|임)\s*[.。]?$/, '')
      .replace(/(?<=\D|^)[.。]$/, '')
      .trim();
    output = unwrapCommand(output, 'boxed', (content) => content);
    output = unwrapCommand(output, 'fbox', (content) => content);
    if (output === before) break;
  }
  return output;
}

/** Reads `1,000` and `1{,}000` as one number; `thousands` says the comma form could also have been a list. */
function joinThousands(text: string): NormalisedText {
  let output = text.replace(/(\d)\{,\}(?=\d{3}(?!\d))/g, '$1').replace(/(\d)\\,(?=\d{3}(?!\d))/g, '$1');
  const whole = /^((?:[A-Za-z]\s*=\s*)?[+-]?\d{1,3})((?:,\d{3})+)(\.\d+)?([^\d,]*)$/.exec(output);
  if (!whole) return { text: output, thousands: false };
  output = `${whole[1]}${(whole[2] ?? '').replace(/,/g, '')}${whole[3] ?? ''}${whole[4] ?? ''}`;
  return { text: output, thousands: true };
}

const FUNCTION_WORDS =
  /(?:arcsin|arccos|arctan|sinh|cosh|tanh|sqrt|sin|cos|tan|cot|sec|csc|ln|log|lg|exp|abs|pi|infinity|inf)/;

/**
 * Cleans an answer; undefined when it is too long or empty. It does not decide whether the rest is math: the
 * splitter and `isProse` do.
 */
export function normaliseAnswer(raw: string): NormalisedText | undefined {
  if (raw.length > MAX_ANSWER_LENGTH) return undefined;
  let text = raw.replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+/g, (run) => `^{${[...run].map((char) => SUPERSCRIPTS[char] ?? '').join('')}}`);
  for (const [pattern, replacement] of SYMBOLS) text = text.replace(pattern, replacement);
  text = text.normalize('NFKC');
  text = stripWrappers(text);
  text = unwrapCommand(text, 'text', (content) => ` ${content} `);
  text = unwrapCommand(text, 'textrm', (content) => ` ${content} `);
  text = unwrapCommand(text, 'mathrm', (content) => ` ${content} `);
  text = unwrapCommand(text, 'mbox', (content) => ` ${content} `);
  text = stripWrappers(text);
  const joined = joinThousands(text);
  text = joined.text
    .replace(/\\(?:displaystyle|textstyle|left\.|right\.|left|right|!)/g, '')
    .replace(/\\(?:d|t)frac/g, '\\frac')
    .replace(/\\(?:,|;|:| |quad|qquad)|~/g, ' ')
    .replace(/\\(sin|cos|tan)\s*\^\s*\{?\s*-1\s*\}?/g, '\\arc$1 ')
    .replace(/(\d)\s*도(?![가-힣])/g, '$1^\\circ ')
    .replace(/\s*(?:또는|혹은|\\lor|\\vee|\bor\b)\s*/gi, ' \\lor ')
    .replace(/\s*(?:그리고|이고|\\land|\\wedge|\band\b)\s*/gi, ' \\land ')
    .replace(/해(?:가|는)?\s*없(?:다|음|습니다)|^없음$|\bno\s+solutions?\b|\bnone\b/gi, ' \\emptyset ')
    .replace(/모든\s*실수|실수\s*전체|\ball\s+real\s+numbers\b/gi, ' \\mathbb{R} ')
    .replace(/(?<![A-Za-z\\])(?:infinity|inf)(?![A-Za-z])/g, '\\infty ')
    // `sinx` is sin x; a function name glued to one more letter is otherwise a run of letters.
    .replace(new RegExp(`(?<![A-Za-z\\\\])(${FUNCTION_WORDS.source})([A-Za-z])(?![A-Za-z(])`, 'g'), '$1 $2')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return undefined;
  return { text, thousands: joined.thousands };
}

/**
 * True when a piece of an answer is words rather than math: any Hangul left, three or more Latin letters in a
 * row that are not a function name, a two-letter word or unit name, or a plain-text fraction whose denominator
 * runs into a letter (`1/2x` reads as 1/(2x) to the parser and as x/2 to many students).
 */
export function isProse(text: string): boolean {
  if (/[\u3131-\u318e\uac00-\ud7a3]/.test(text)) return true;
  if (/\/\s*\d+(?:\.\d+)?\s*(?:[A-Za-z(]|\\(?!cdot|times|div))/.test(text)) return true;
  const words = text
    .replace(/\\[A-Za-z]+/g, ' ')
    .replace(new RegExp(`(?<![A-Za-z])${FUNCTION_WORDS.source}(?![A-Za-z])`, 'g'), ' ')
    .match(/[A-Za-z]+/g);
  return (words ?? []).some((word) => word.length >= 3 || (word.length === 2 && TWO_LETTER_WORDS.has(word.toLowerCase())));
}

/** Deepest bracket nesting read, and deepest nesting of `[` inside `[` (the parser's time grows exponentially with it). */
export const MAX_NESTING = 30;
export const MAX_SQUARE_NESTING = 2;

/**
 * True when brackets nest deeper than the parser handles quickly: 20 nested `[` take it about 5 s (measured on
 * 0.140.0), so `[` inside `[` is allowed two levels deep and any bracket thirty.
 */
export function nestsTooDeep(text: string): boolean {
  const open: string[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '(' || char === '[' || char === '{') {
      if (char === '[' && open.filter((bracket) => bracket === '[').length >= MAX_SQUARE_NESTING) return true;
      open.push(char);
      if (open.length > MAX_NESTING) return true;
    } else if (char === ')' || char === ']' || char === '}') {
      open.pop();
    }
  }
  return false;
}
