// Markdown with math for the classroom: marked -> DOMPurify -> KaTeX auto-render. Model output is untrusted, so
// every piece of HTML goes through DOMPurify before it touches the DOM. All three libraries are bundled from
// node_modules (never a CDN).
// Raw HTML in the markdown is not HTML to us: a lecture about HTML quotes `<form>`, `<br>` or `<script>` from its
// material, and the student must see them. marked therefore never recognises an HTML block or tag; they stay text
// (escaped like any text), so nothing is parsed, nothing is stripped, and the rest of the paragraph stays.
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { typeset } from './math.js';

const marked = new Marked({ gfm: true, breaks: false, async: false });
// No HTML tokens at all (returning undefined, not false, so marked does not fall back to its own): `<tag>` is read
// as text. Autolinks (`<https://…>`) are a markdown token of their own and still work.
marked.use({ tokenizer: { html: () => undefined, tag: () => undefined } });

// Math is taken out before markdown runs (so `_`, `*` and `\\` inside formulas are not read as markdown) and put
// back, escaped, as plain text for auto-render. Private-use characters mark the places; marked leaves them alone.
const MATH = /\$\$[\s\S]+?\$\$|\\\[[\s\S]+?\\\]|\\\([\s\S]+?\\\)|\$(?=\S)(?:\\.|[^$\\\n])+?(?<=\S)\$/g;
const MARK = /\uE000(\d+)\uE001/g;

const FORBID_TAGS = ['img', 'picture', 'source', 'video', 'audio', 'iframe', 'object', 'embed', 'style', 'link', 'meta', 'form', 'input', 'button', 'textarea', 'select', 'svg', 'math'];

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  // Links from the model open elsewhere and carry nothing of ours.
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Sanitized HTML for a markdown source (math left as text for `typeset`). */
export function markdownToSafeHtml(source: string): string {
  const formulas: string[] = [];
  const protectedSource = source.replace(/[\uE000\uE001]/g, '').replace(MATH, (formula) => {
    formulas.push(formula);
    return `\uE000${formulas.length - 1}\uE001`;
  });
  const html = (marked.parse(protectedSource) as string).replace(MARK, (_whole, index: string) => escapeHtml(formulas[Number(index)] ?? ''));
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS, FORBID_ATTR: ['style', 'srcset', 'class', 'id'] });
}

/** Puts a markdown source into an element: sanitized HTML, then KaTeX. */
export function renderMarkdownInto(element: HTMLElement, source: string): void {
  element.innerHTML = markdownToSafeHtml(source);
  typeset(element);
}
