// Math in untrusted text (quiz items, math problems, model replies): KaTeX's auto-render, bundled from node_modules.
// It reads only text nodes and KaTeX escapes what it writes (no `trust`: \href, \url, \htmlClass stay off), so an
// element filled with textContent stays free of markup anyone else wrote.
import renderMathInElement from 'katex/contrib/auto-render';
import { element, type AttributeValue } from './dom.js';

const MATH_DELIMITERS = [
  { left: '$$', right: '$$', display: true },
  { left: '\\[', right: '\\]', display: true },
  { left: '\\(', right: '\\)', display: false },
  { left: '$', right: '$', display: false },
];

/** Renders the math of an element that holds sanitized HTML or plain text. */
export function typeset(element: HTMLElement): void {
  const text = element.textContent ?? '';
  if (!text.includes('$') && !text.includes('\\')) return;
  renderMathInElement(element, { delimiters: MATH_DELIMITERS, throwOnError: false, output: 'htmlAndMathml' });
}

/** Untrusted text with `$…$` math: set as text, then the math inside it rendered. */
export function setMathText(element: HTMLElement, text: string): void {
  element.textContent = text;
  typeset(element);
}

/** `element(tag, attributes)` holding untrusted text with its math rendered. */
export function mathElement<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, AttributeValue>, text: string): HTMLElementTagNameMap[K] {
  const node = element(tag, attributes);
  setMathText(node, text);
  return node;
}
