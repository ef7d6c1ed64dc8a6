// "내 수업": the instructor's home after sign-in. The classes come from the server (GET /api/classes, newest first,
// "더 보기" for the next page) with their code, material, student count and closed state, links to the monitor,
// the quiz host and the export, and on demand their quiz rooms and results. A new class is made here (name + one of
// "내 자료"; `?material=` preselects the one just uploaded; optionally a roster, one name per line) and opens in the
// monitor. Below, "내 퀴즈" (dashboard/quiz-list.ts); the rooms of a class or quiz are dashboard/room-list.ts.
import type { Material } from '../../src/materials/types.js';
import { classesPage, createClass, type ClassSummary } from '../net/classes.js';
import { fetchAllPages, requestFailure } from '../net/http.js';
import { requireSignedIn } from '../ui/account-header.js';
import { $, element } from '../ui/dom.js';
import { whileBusy } from '../ui/forms.js';
import { createdLabel } from '../ui/remembered-list.js';
import { startQuizList } from './dashboard/quiz-list.js';
import { roomListDetails } from './dashboard/room-list.js';

const createForm = $<HTMLFormElement>('create-form');
const nameInput = $<HTMLInputElement>('class-name');
const materialSelect = $<HTMLSelectElement>('class-material');
const rosterInput = $<HTMLTextAreaElement>('class-roster');
const createButton = $<HTMLButtonElement>('create-button');
const createError = $('create-error');
const classList = $('class-list');
const classListEmpty = $('class-list-empty');
const classesError = $('classes-error');
const more = $<HTMLButtonElement>('classes-more');
const CLASSES_PAGE = 20;

let cursor: string | null = null;
const materialTitles = new Map<string, string>();

async function loadMaterials(): Promise<void> {
  let materials: Array<Material & { sample?: boolean }>;
  try {
    materials = await fetchAllPages<Material & { sample?: boolean }>('/api/materials', 'materials');
  } catch (error) {
    materialSelect.replaceChildren(element('option', { value: '', text: '자료 목록을 불러오지 못했습니다' }));
    createError.textContent = requestFailure(error);
    return;
  }
  for (const material of materials) materialTitles.set(material.id, material.title);
  const options = materials.map((material) => element('option', { value: material.id, text: `${material.sample ? '[예시] ' : ''}${material.title} (챕터 ${material.chapters.length}개)` }));
  options.push(element('option', { value: '', text: '정하지 않음 (학생이 직접 고름)' }));
  materialSelect.replaceChildren(...options);
  const wanted = new URLSearchParams(location.search).get('material');
  if (wanted && materials.some((material) => material.id === wanted)) materialSelect.value = wanted;
  // Titles arrive after the first class cards may have been drawn.
  for (const node of classList.querySelectorAll<HTMLElement>('[data-material-id]')) node.textContent = materialLine(node.dataset.materialId ?? null);
}

function materialLine(materialId: string | null): string {
  if (!materialId) return '강의 자료: 학생이 직접 고름';
  return `강의 자료: ${materialTitles.get(materialId) ?? '불러오는 중…'}`;
}

async function loadClasses(next = false): Promise<void> {
  classesError.textContent = '';
  try {
    const page = await classesPage(next ? cursor : null, CLASSES_PAGE);
    cursor = page.nextCursor;
    more.hidden = !cursor;
    const cards = page.items.map(classCard);
    if (next) classList.append(...cards);
    else classList.replaceChildren(...cards);
    classListEmpty.hidden = classList.childElementCount > 0;
  } catch (error) {
    classesError.textContent = requestFailure(error);
  }
}

function classCard(entry: ClassSummary): HTMLLIElement {
  const id = encodeURIComponent(entry.classId);
  const state = entry.closed ? '끝난 수업' : '진행 중';
  return element(
    'li',
    { className: 'class-card', 'data-testid': 'dashboard-class', 'data-class-id': entry.classId },
    element('h3', { text: entry.name }),
    element(
      'p',
      { className: 'muted' },
      '참여 코드 ',
      element('span', { className: 'class-code', 'data-testid': 'class-code', text: entry.code }),
      ` · 학생 ${entry.studentCount}명 · ${state} · ${createdLabel(entry.createdAt)}`,
    ),
    element('p', { className: 'muted', 'data-material-id': entry.materialId ?? '', text: materialLine(entry.materialId) }),
    element(
      'div',
      { className: 'class-links' },
      element('a', { href: `/monitor.html?class=${id}`, 'data-testid': 'open-monitor', text: '모니터 열기' }),
      element('a', { href: `/host.html?class=${id}`, text: '퀴즈 진행' }),
      element('a', { href: `/analytics.html?class=${id}`, 'data-testid': 'open-analytics', text: '분석' }),
      element('a', { href: `/api/classes/${id}/export.csv`, download: '', text: '내보내기 (CSV)' }),
      element('a', { href: `/api/classes/${id}/export.json`, download: '', text: '내보내기 (JSON)' }),
    ),
    roomListDetails({ summary: '퀴즈 방과 결과', query: { classId: entry.classId }, empty: '이 수업에서 연 퀴즈 방이 없습니다.' }),
  );
}

/**
 * The names pasted into the roster box: one per line (a spreadsheet column pastes that way; commas and tabs split
 * too), trimmed, blank lines dropped. The server checks the rest (length, duplicates) and says what is wrong in Korean.
 */
function rosterNames(text: string): string[] {
  return text
    .split(/[\n,\t]/)
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
}

createForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  createError.textContent = '';
  const name = nameInput.value.trim();
  if (!name) {
    createError.textContent = '수업 이름을 적어 주세요.';
    nameInput.focus();
    return;
  }
  await whileBusy(createButton, '만드는 중…', async () => {
    try {
      const created = await createClass(name, materialSelect.value || null, rosterNames(rosterInput.value));
      location.assign(`/monitor.html?class=${encodeURIComponent(created.classId)}`);
    } catch (error) {
      createError.textContent = requestFailure(error);
    }
  });
});

more.addEventListener('click', () => void loadClasses(true));

void requireSignedIn().then(() => {
  void loadMaterials();
  void loadClasses();
  startQuizList({ list: $('quiz-list'), empty: $('quiz-list-empty'), error: $('quizzes-error'), more: $<HTMLButtonElement>('quizzes-more') });
});
