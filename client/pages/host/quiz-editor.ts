// Quiz host, "문제 직접 쓰기": a form per question type (4지선다, O/X, 복수 정답, 순서, 수치, 설문, 단답형, 단어 구름)
// that builds the items of POST /api/quizzes, each with an optional picture (uploaded to POST /api/quiz-images, or a
// page of one of the author's materials or the sample, previewed small; its alt text) and LaTeX written as $…$ in any
// text. The server validates every item (Korean messages shown as they come);
// this form only shapes them. Nothing typed here becomes HTML.
import type { QuestionType } from '../../../src/protocol/wire/index.js';
import { apiFetch, jsonBody } from '../../net/http.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { errorText } from '../../ui/messages.js';

const TYPE_LABELS: Record<QuestionType, string> = {
  choice: '4지선다',
  truefalse: 'O/X',
  multi: '복수 정답',
  ordering: '순서 맞추기',
  numeric: '수치',
  poll: '설문',
  short: '단답형',
  cloud: '단어 구름',
};

/** Per type, the fields its card shows (besides question, explanation, difficulty, picture). */
const FIELDS: Record<QuestionType, readonly string[]> = {
  choice: ['choices', 'answers'],
  truefalse: ['truth'],
  multi: ['choices', 'answers', 'allOrNothing'],
  ordering: ['steps'],
  numeric: ['number', 'tolerance', 'range', 'unit'],
  poll: ['choices'],
  short: ['reference', 'accept'],
  cloud: [],
};

export interface QuizEditorDeps {
  /** The chosen class's instructor token, or null when no class is chosen. */
  token(): string | null;
  /** Saves the quiz (POST /api/quizzes) and selects it; false when the server refused it (its message is shown). */
  save(body: { title: string; items: unknown[] }): Promise<boolean>;
}

let counter = 0;

function field(label: string, control: HTMLElement, name: string): HTMLElement {
  const id = `editor-${name}-${(counter += 1)}`;
  control.id = id;
  control.dataset.field = name;
  return element('label', { className: 'field', for: id, 'data-for': name }, label, control);
}

const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

function card(deps: QuizEditorDeps): HTMLElement {
  const type = element('select', { 'data-testid': 'editor-type' });
  for (const [value, label] of Object.entries(TYPE_LABELS)) type.append(element('option', { value, text: label }));
  const difficulty = element('select', {});
  for (const [value, label] of [['easy', '쉬움'], ['medium', '보통'], ['hard', '어려움']] as const) difficulty.append(element('option', { value, text: label }));
  const truth = element('select', {});
  truth.append(element('option', { value: 'true', text: '참' }), element('option', { value: 'false', text: '거짓' }));
  const allOrNothing = element('input', { type: 'checkbox' });
  const picture = element('input', { type: 'file', accept: 'image/png,image/jpeg,image/gif,image/webp' });
  const pictureNote = element('span', { className: 'hint', 'data-testid': 'editor-picture-status' });
  const pageMaterial = element('select', { 'data-testid': 'editor-page-material' });
  pageMaterial.append(element('option', { value: '', text: '쓰지 않음' }));
  const pageNumber = element('input', { type: 'number', min: '1', step: '1', value: '1', inputMode: 'numeric', 'data-testid': 'editor-page-number' });
  const pagePreview = element('canvas', { className: 'editor-page-preview', role: 'img', 'data-testid': 'editor-page-preview' });
  pagePreview.hidden = true;
  const parts: Record<string, HTMLElement> = {
    question: field('질문 ($…$로 수식)', element('textarea', { rows: 2, maxLength: 500, 'data-testid': 'editor-question' }), 'question'),
    choices: field('보기 (한 줄에 하나)', element('textarea', { rows: 4, 'data-testid': 'editor-choices' }), 'choices'),
    answers: field('정답 번호 (복수 정답은 1, 3처럼)', element('input', { type: 'text', inputMode: 'numeric', 'data-testid': 'editor-answers' }), 'answers'),
    truth: field('정답', truth, 'truth'),
    allOrNothing: field('모두 맞혀야 점수', allOrNothing, 'allOrNothing'),
    steps: field('단계 (맞는 순서대로 한 줄에 하나)', element('textarea', { rows: 4, 'data-testid': 'editor-steps' }), 'steps'),
    number: field('정답 (수)', element('input', { type: 'text', inputMode: 'decimal', 'data-testid': 'editor-number' }), 'number'),
    tolerance: field('만점 허용 오차', element('input', { type: 'text', inputMode: 'decimal', value: '0' }), 'tolerance'),
    range: field('부분 점수 범위 (비우면 오차의 4배)', element('input', { type: 'text', inputMode: 'decimal' }), 'range'),
    unit: field('단위 (선택)', element('input', { type: 'text', maxLength: 20 }), 'unit'),
    reference: field('모범 답안', element('input', { type: 'text', maxLength: 300, 'data-testid': 'editor-reference' }), 'reference'),
    accept: field('다른 정답 (한 줄에 하나, 선택)', element('textarea', { rows: 2, 'data-testid': 'editor-accept' }), 'accept'),
    explanation: field('해설', element('textarea', { rows: 2, maxLength: 1000, 'data-testid': 'editor-explanation' }), 'explanation'),
    difficulty: field('난이도', difficulty, 'difficulty'),
    picture: field('그림 (PNG·JPEG·GIF·WebP, 2MB까지)', picture, 'picture'),
    pageMaterial: field('또는 자료의 페이지 (자료)', pageMaterial, 'pageMaterial'),
    pageNumber: field('쪽 번호', pageNumber, 'pageNumber'),
    imageAlt: field('그림 설명 (화면 낭독용)', element('input', { type: 'text', maxLength: 300, 'data-testid': 'editor-image-alt' }), 'imageAlt'),
  };
  const remove = element('button', { type: 'button', className: 'secondary', text: '이 문제 빼기' });
  const node = element('li', { className: 'editor-item', 'data-testid': 'editor-item' }, field('유형', type, 'type'), ...Object.values(parts), pagePreview, pictureNote, remove);
  const preview = () => void previewPage(pageMaterial, pageNumber, pagePreview, pictureNote);
  pageMaterial.addEventListener('change', preview);
  pageNumber.addEventListener('change', preview);
  void fillMaterials(pageMaterial);
  const show = () => {
    const wanted = new Set(FIELDS[type.value as QuestionType]);
    for (const name of Object.keys(FIELDS).flatMap((key) => FIELDS[key as QuestionType])) parts[name]!.hidden = !wanted.has(name);
    node.dataset.type = type.value;
  };
  type.addEventListener('change', show);
  remove.addEventListener('click', () => node.remove());
  picture.addEventListener('change', () => {
    const file = picture.files?.[0];
    const token = deps.token();
    if (!file || !token) return;
    pictureNote.textContent = '그림을 올리는 중…';
    void (async () => {
      const response = await apiFetch('/api/quiz-images', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': file.type || 'application/octet-stream' }, body: file });
      const data = await jsonBody<{ imageId?: string; error?: unknown }>(response);
      if (response.ok && data.imageId) {
        node.dataset.image = data.imageId;
        pictureNote.textContent = '그림을 올렸습니다.';
      } else {
        delete node.dataset.image;
        pictureNote.textContent = errorText(data.error, '그림을 올리지 못했습니다.');
      }
    })().catch(() => (pictureNote.textContent = '서버에 연결할 수 없습니다.'));
  });
  show();
  return node;
}

const value = (node: HTMLElement, name: string) => (node.querySelector<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(`[data-field="${name}"]`)?.value ?? '').trim();
const numberOf = (text: string) => (text === '' ? undefined : Number(text.replaceAll(',', '')));

/** The item a card describes (the server checks it). */
export function itemOf(node: HTMLElement): Record<string, unknown> {
  const type = value(node, 'type') as QuestionType;
  const item: Record<string, unknown> = { type, question: value(node, 'question'), explanation: value(node, 'explanation'), difficulty: value(node, 'difficulty') };
  const picks = value(node, 'answers').split(/[\s,]+/).filter(Boolean).map((pick) => Number(pick) - 1);
  switch (type) {
    case 'choice':
      Object.assign(item, { choices: lines(value(node, 'choices')), answer: picks[0] ?? -1 });
      break;
    case 'multi':
      Object.assign(item, { choices: lines(value(node, 'choices')), answers: picks, allOrNothing: node.querySelector<HTMLInputElement>('[data-field="allOrNothing"]')!.checked });
      break;
    case 'poll':
      item.choices = lines(value(node, 'choices'));
      break;
    case 'truefalse':
      item.answer = value(node, 'truth') === 'true';
      break;
    case 'ordering':
      item.steps = lines(value(node, 'steps'));
      break;
    case 'numeric': {
      const range = numberOf(value(node, 'range'));
      const unit = value(node, 'unit');
      Object.assign(item, { answer: numberOf(value(node, 'number')), tolerance: numberOf(value(node, 'tolerance')) ?? 0, ...(range === undefined ? {} : { range }), ...(unit ? { unit } : {}) });
      break;
    }
    case 'short': {
      const accept = lines(value(node, 'accept'));
      Object.assign(item, { answer: value(node, 'reference'), ...(accept.length > 0 ? { accept } : {}) });
      break;
    }
    case 'cloud':
      break;
  }
  const materialId = value(node, 'pageMaterial');
  // A page of the material wins over an uploaded image; its alt text defaults to 「자료 N쪽」 on the server.
  if (materialId) Object.assign(item, { image: { kind: 'page', materialId, page: Number(value(node, 'pageNumber')) }, imageAlt: value(node, 'imageAlt') });
  else if (node.dataset.image) Object.assign(item, { image: node.dataset.image, imageAlt: value(node, 'imageAlt') });
  return item;
}

interface ListedMaterial {
  id: string;
  title: string;
  pageCount: number;
  sample?: boolean;
}

/** The materials whose pages the author may show (its own and the sample: GET /api/materials), asked once per page. */
let materialList: Promise<ListedMaterial[]> | undefined;

async function fillMaterials(select: HTMLSelectElement): Promise<void> {
  materialList ??= apiFetch('/api/materials?limit=50')
    .then((response) => jsonBody<{ materials?: ListedMaterial[] }>(response))
    .then((body) => body.materials ?? [])
    .catch(() => []);
  for (const material of await materialList) {
    select.append(element('option', { value: material.id, text: `${material.sample ? '[예시] ' : ''}${material.title} (${material.pageCount}쪽)` }));
  }
}

/**
 * Draws the picked page small beside the form (the same one-page PDF players get); the note says what went wrong.
 * Only the latest pick may touch the canvas or the note: an earlier one answering late (typing "12" asks for page 1
 * first, clearing the box asks for page 0) must not hide or overwrite the page drawn since.
 */
async function previewPage(select: HTMLSelectElement, number: HTMLInputElement, canvas: HTMLCanvasElement, note: HTMLElement): Promise<void> {
  const materialId = select.value;
  const page = Number(number.value);
  const wanted = `${materialId}:${page}`;
  canvas.dataset.wanted = wanted;
  delete canvas.dataset.drawn;
  if (!materialId) {
    canvas.hidden = true;
    return;
  }
  canvas.setAttribute('aria-label', `자료 ${page}쪽 미리 보기`);
  try {
    const response = await apiFetch(`/api/materials/${materialId}/pages/${page}.pdf`);
    if (canvas.dataset.wanted !== wanted) return;
    if (!response.ok) {
      canvas.hidden = true;
      note.textContent = errorText((await jsonBody<{ error?: unknown }>(response)).error, '그 쪽을 불러오지 못했습니다.');
      return;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const { drawPdfPage } = await import('../../ui/pdf-page.js');
    if (canvas.dataset.wanted !== wanted) return;
    canvas.hidden = false;
    await drawPdfPage(canvas, bytes, 240);
    if (canvas.dataset.wanted === wanted) canvas.dataset.drawn = 'true';
    if (canvas.dataset.wanted === wanted) note.textContent = `자료 ${page}쪽을 그림으로 씁니다.`;
  } catch {
    if (canvas.dataset.wanted !== wanted) return;
    canvas.hidden = true;
    note.textContent = '서버에 연결할 수 없습니다.';
  }
}

export function initQuizEditor(deps: QuizEditorDeps): void {
  const list = $('editor-items');
  const title = $<HTMLInputElement>('editor-title');
  const add = $<HTMLButtonElement>('editor-add');
  const save = $<HTMLButtonElement>('editor-save');
  add.addEventListener('click', () => {
    const node = card(deps);
    list.append(node);
    node.querySelector<HTMLSelectElement>('[data-field="type"]')?.focus();
  });
  save.addEventListener('click', () => {
    const items = [...list.querySelectorAll<HTMLElement>('[data-testid=editor-item]')].map(itemOf);
    void whileBusy(save, null, async () => {
      if (!(await deps.save({ title: title.value.trim(), items }))) return;
      list.replaceChildren();
      title.value = '';
    });
  });
}
