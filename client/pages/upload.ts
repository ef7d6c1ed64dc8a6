// Upload page ("내 자료", signed-in instructors): pick or drop a PDF, watch the upload progress, then see the chapters
// with a link to each slice and the next steps (수업 만들기, 퀴즈 만들기, 강의 미리 보기). The list is the account's own
// materials from the server. Everything the server sends is inserted with textContent, never as HTML.
import type { Chapter, ChapterSource, Material } from '../../src/materials/types.js';
import type { ErrorCode } from '../../src/protocol/wire/index.js';
import { csrfHeaders, deleteResource, fetchPage, requestFailure, type ErrorBody } from '../net/http.js';
import { requireSignedIn } from '../ui/account-header.js';
import { $, element } from '../ui/dom.js';
import { errorText } from '../ui/messages.js';

const form = $<HTMLFormElement>('upload-form');
const input = $<HTMLInputElement>('file-input');
const dropZone = $('drop-zone');
const progressBox = $('progress-box');
const progress = $<HTMLProgressElement>('progress');
const progressName = $('progress-name');
const progressText = $('progress-text');
const status = $('status');
const result = $('result');
const materialTitle = $('material-title');
const materialSummary = $('material-summary');
const chapterList = $('chapters');
const materialList = $('materials');
const limitsHint = $('limits-hint');
const moreButton = $('materials-more');
const nextClass = $<HTMLAnchorElement>('next-class');
const nextQuiz = $<HTMLAnchorElement>('next-quiz');
const nextPreview = $<HTMLAnchorElement>('next-preview');
/** Materials shown per page; "더 보기" appends the next page (the list is paginated, newest first). */
const MATERIALS_PAGE = 20;
let nextCursor: string | null = null;

const SOURCE_NAMES: Record<ChapterSource, string> = {
  outline: 'PDF 목차(책갈피)',
  headings: '큰 글씨 제목',
  analyst: 'AI 분석',
  pages: '일정한 쪽 수',
};

// The error a status stands for when the server could not answer with its own body (e.g. the connection was closed
// mid-upload): the protocol's sentence for that code is shown.
const STATUS_ERRORS: Record<number, ErrorCode> = { 413: 'PDF_TOO_LARGE', 415: 'NOT_A_PDF', 422: 'CORRUPT_PDF' };

interface Limits {
  maxPdfBytes: number;
  maxPdfPages: number;
}

let limits: Limits | null = null;

function setStatus(message: string, kind = ''): void {
  status.textContent = message;
  status.className = kind;
}

function pageRange(chapter: Chapter): string {
  return chapter.startPage === chapter.endPage ? `${chapter.startPage}쪽` : `${chapter.startPage}–${chapter.endPage}쪽`;
}

function showMaterial(material: Material, created?: boolean): void {
  result.hidden = false;
  result.dataset.materialId = material.id;
  // What an instructor does next with this material: a class that studies it, a quiz from it, or the lecture itself.
  const id = encodeURIComponent(material.id);
  nextClass.href = `/dashboard.html?material=${id}`;
  nextQuiz.href = `/host.html?material=${id}`;
  nextPreview.href = `/classroom.html?material=${id}`;
  materialTitle.textContent = material.title;
  const parts = [`${material.pageCount}쪽`, `챕터 ${material.chapters.length}개`, `나눈 기준: ${SOURCE_NAMES[material.chapterSource] ?? material.chapterSource}`];
  if (!material.hasTextLayer) parts.push('글자 정보 없음(스캔본)');
  materialSummary.textContent = parts.join(' · ');
  chapterList.replaceChildren(
    ...material.chapters.map((chapter) =>
      element(
        'li',
        { className: 'chapter', 'data-index': String(chapter.index) },
        element('span', { className: 'chapter-title', text: chapter.title }),
        element('span', { className: 'pages', text: pageRange(chapter) }),
        element('a', {
          className: 'slice-link',
          href: `/api/materials/${encodeURIComponent(material.id)}/chapters/${chapter.index}.pdf`,
          target: '_blank',
          rel: 'noopener',
          text: '이 챕터 PDF 보기',
        }),
      ),
    ),
  );
  if (created !== undefined) {
    setStatus(created ? '자료를 올리고 챕터로 나누었습니다.' : '이미 올린 적이 있는 자료입니다. 저장된 챕터를 보여 드립니다.', 'good');
  }
}

/** The first page of materials, or with `more` the next page appended. */
async function loadMaterials({ more = false } = {}): Promise<void> {
  try {
    const page = await fetchPage<Material>('/api/materials', 'materials', { limit: MATERIALS_PAGE, cursor: more ? nextCursor : null });
    limits = (page.body.limits as Limits | undefined) ?? null;
    if (limits) {
      limitsHint.textContent = `PDF 파일만, 최대 ${Math.floor(limits.maxPdfBytes / (1024 * 1024))}MB · ${limits.maxPdfPages}쪽까지 올릴 수 있습니다.`;
    }
    nextCursor = page.nextCursor;
    moreButton.hidden = !nextCursor;
    const materials = page.items;
    if (materials.length === 0 && !more) {
      materialList.replaceChildren(element('li', { className: 'muted', text: '아직 올린 자료가 없습니다.' }));
      return;
    }
    const items = materials.map((material) => {
      const button = element('button', { type: 'button', className: 'secondary', text: '챕터 보기' });
      button.addEventListener('click', () => showMaterial(material));
      const remove = element('button', { type: 'button', className: 'secondary small', text: '삭제', 'aria-label': `${material.title} 자료 삭제`, 'data-testid': 'delete-material' });
      remove.addEventListener('click', () => void deleteMaterial(material));
      return element('li', {}, button, element('span', { text: ` ${material.title} (${material.pageCount}쪽, 챕터 ${material.chapters.length}개) ` }), remove);
    });
    if (more) materialList.append(...items);
    else materialList.replaceChildren(...items);
  } catch {
    if (!more) materialList.replaceChildren();
  }
}

/** Deletes a material after the instructor confirms what goes with it. */
async function deleteMaterial(material: Material): Promise<void> {
  const question = `"${material.title}" 자료를 삭제할까요?\n원본 PDF, 챕터 PDF, 만들어 둔 강의와 검색 자료가 모두 지워지며 되돌릴 수 없습니다. 이 자료를 쓰는 수업은 강의를 시작할 수 없게 됩니다.`;
  if (!window.confirm(question)) return;
  try {
    await deleteResource(`/api/materials/${encodeURIComponent(material.id)}`);
    result.hidden = true;
    setStatus(`"${material.title}" 자료를 삭제했습니다.`);
    void requireSignedIn().then(() => loadMaterials());
  } catch (error) {
    setStatus(requestFailure(error), 'error');
  }
}

moreButton.addEventListener('click', () => void loadMaterials({ more: true }));

function isPdf(file: File): boolean {
  return file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
}

function upload(file: File): void {
  if (!isPdf(file)) {
    setStatus('PDF 파일만 올릴 수 있습니다. 확장자가 .pdf인 파일을 골라 주세요.', 'error');
    return;
  }
  if (limits && file.size > limits.maxPdfBytes) {
    setStatus(`파일이 너무 큽니다. ${Math.floor(limits.maxPdfBytes / (1024 * 1024))}MB 이하의 PDF만 올릴 수 있습니다.`, 'error');
    return;
  }
  const data = new FormData();
  data.append('file', file, file.name);
  // XMLHttpRequest, not fetch: only it reports upload progress.
  const request = new XMLHttpRequest();
  request.open('POST', '/api/materials');
  for (const [name, value] of Object.entries(csrfHeaders())) request.setRequestHeader(name, value);
  request.responseType = 'json';
  progressBox.hidden = false;
  progress.value = 0;
  progressName.textContent = file.name;
  progressText.textContent = '0%';
  dropZone.classList.add('busy');
  setStatus('올리는 중…');
  request.upload.addEventListener('progress', (event) => {
    if (!event.lengthComputable) return;
    const percent = Math.round((event.loaded / event.total) * 100);
    progress.value = percent;
    progressText.textContent = `${percent}%`;
  });
  request.upload.addEventListener('load', () => {
    progress.value = 100;
    progressText.textContent = '100%';
    setStatus('올리기를 마쳤습니다. PDF를 분석해 챕터로 나누는 중…');
  });
  request.addEventListener('load', () => {
    dropZone.classList.remove('busy');
    if (request.status === 200 || request.status === 201) {
      showMaterial(request.response as Material, request.status === 201);
      void requireSignedIn().then(() => loadMaterials());
      return;
    }
    const body = request.response as ErrorBody | null;
    const error = body?.error ?? { code: STATUS_ERRORS[request.status] };
    setStatus(errorText(error, `올리지 못했습니다. (오류 ${request.status})`), 'error');
  });
  request.addEventListener('error', () => {
    dropZone.classList.remove('busy');
    setStatus('서버와 연결이 끊겨 올리지 못했습니다. 파일이 너무 크지 않은지 확인하고 다시 시도해 주세요.', 'error');
  });
  request.send(data);
}

input.addEventListener('change', () => {
  const file = input.files?.[0];
  if (file) upload(file);
  input.value = '';
});
form.addEventListener('submit', (event) => event.preventDefault());

for (const type of ['dragenter', 'dragover']) {
  dropZone.addEventListener(type, (event) => {
    event.preventDefault();
    dropZone.classList.add('dragging');
  });
}
for (const type of ['dragleave', 'drop']) {
  dropZone.addEventListener(type, () => dropZone.classList.remove('dragging'));
}
dropZone.addEventListener('drop', (event) => {
  event.preventDefault();
  const file = event.dataTransfer?.files?.[0];
  if (file) upload(file);
});

void requireSignedIn().then(() => loadMaterials());
