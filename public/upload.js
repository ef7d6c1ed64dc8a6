// Upload page: pick or drop a PDF, watch the upload progress, then see the chapters with a link to each slice.
// Everything the server sends is inserted with textContent, never as HTML.

import { fetchPage } from './dom.js';

const form = document.getElementById('upload-form');
const input = document.getElementById('file-input');
const dropZone = document.getElementById('drop-zone');
const progressBox = document.getElementById('progress-box');
const progress = document.getElementById('progress');
const progressName = document.getElementById('progress-name');
const progressText = document.getElementById('progress-text');
const status = document.getElementById('status');
const result = document.getElementById('result');
const materialTitle = document.getElementById('material-title');
const materialSummary = document.getElementById('material-summary');
const chapterList = document.getElementById('chapters');
const materialList = document.getElementById('materials');
const limitsHint = document.getElementById('limits-hint');
const moreButton = document.getElementById('materials-more');
/** Materials shown per page; "더 보기" appends the next page (the list is paginated, newest first). */
const MATERIALS_PAGE = 20;
let nextCursor = null;

const SOURCE_NAMES = {
  outline: 'PDF 목차(책갈피)',
  headings: '큰 글씨 제목',
  analyst: 'AI 분석',
  pages: '일정한 쪽 수',
};

// Used when the server could not answer with its own message (e.g. the connection was closed mid-upload).
const FALLBACK_MESSAGES = {
  413: '파일이 너무 큽니다. 더 작은 PDF를 올려 주세요.',
  415: '올린 파일이 PDF가 아닙니다. PDF 파일을 골라 주세요.',
  422: 'PDF를 읽을 수 없습니다. 다른 파일로 다시 시도해 주세요.',
};

let limits = null;

function setStatus(message, kind = '') {
  status.textContent = message;
  status.className = kind;
}

function pageRange(chapter) {
  return chapter.startPage === chapter.endPage ? `${chapter.startPage}쪽` : `${chapter.startPage}–${chapter.endPage}쪽`;
}

function showMaterial(material, created) {
  result.hidden = false;
  result.dataset.materialId = material.id;
  materialTitle.textContent = material.title;
  const parts = [`${material.pageCount}쪽`, `챕터 ${material.chapters.length}개`, `나눈 기준: ${SOURCE_NAMES[material.chapterSource] ?? material.chapterSource}`];
  if (!material.hasTextLayer) parts.push('글자 정보 없음(스캔본)');
  materialSummary.textContent = parts.join(' · ');
  chapterList.replaceChildren(
    ...material.chapters.map((chapter) => {
      const item = document.createElement('li');
      item.className = 'chapter';
      item.dataset.index = String(chapter.index);
      const title = document.createElement('span');
      title.className = 'chapter-title';
      title.textContent = chapter.title;
      const pages = document.createElement('span');
      pages.className = 'pages';
      pages.textContent = pageRange(chapter);
      const link = document.createElement('a');
      link.className = 'slice-link';
      link.href = `/api/materials/${encodeURIComponent(material.id)}/chapters/${chapter.index}.pdf`;
      link.target = '_blank';
      link.rel = 'noopener';
      link.textContent = '이 챕터 PDF 보기';
      item.append(title, pages, link);
      return item;
    }),
  );
  if (created !== undefined) {
    setStatus(created ? '자료를 올리고 챕터로 나누었습니다.' : '이미 올린 적이 있는 자료입니다. 저장된 챕터를 보여 드립니다.', 'good');
  }
}

/** The first page of materials, or with `more` the next page appended. */
async function loadMaterials({ more = false } = {}) {
  try {
    const page = await fetchPage('/api/materials', 'materials', { limit: MATERIALS_PAGE, cursor: more ? nextCursor : null });
    limits = page.body.limits ?? null;
    if (limits) {
      limitsHint.textContent = `PDF 파일만, 최대 ${Math.floor(limits.maxPdfBytes / (1024 * 1024))}MB · ${limits.maxPdfPages}쪽까지 올릴 수 있습니다.`;
    }
    nextCursor = page.nextCursor;
    moreButton.hidden = !nextCursor;
    const materials = page.items;
    if (materials.length === 0 && !more) {
      const empty = document.createElement('li');
      empty.className = 'muted';
      empty.textContent = '아직 올린 자료가 없습니다.';
      materialList.replaceChildren(empty);
      return;
    }
    const items = materials.map((material) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'secondary';
      button.textContent = '챕터 보기';
      button.addEventListener('click', () => showMaterial(material));
      const label = document.createElement('span');
      label.textContent = ` ${material.title} (${material.pageCount}쪽, 챕터 ${material.chapters.length}개)`;
      item.append(button, label);
      return item;
    });
    if (more) materialList.append(...items);
    else materialList.replaceChildren(...items);
  } catch {
    if (!more) materialList.replaceChildren();
  }
}

moreButton.addEventListener('click', () => void loadMaterials({ more: true }));

function isPdf(file) {
  return file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
}

function upload(file) {
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
  const request = new XMLHttpRequest();
  request.open('POST', '/api/materials');
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
    const body = request.response;
    if (request.status === 200 || request.status === 201) {
      showMaterial(body, request.status === 201);
      void loadMaterials();
      return;
    }
    const message = body?.error?.message ?? FALLBACK_MESSAGES[request.status] ?? `올리지 못했습니다. (오류 ${request.status})`;
    setStatus(message, 'error');
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

void loadMaterials();
