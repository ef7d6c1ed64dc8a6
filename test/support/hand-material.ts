import { createOfflineModel } from '../../src/llm/offline-model.js';
import { RetrievalService } from '../../src/retrieval/index.js';
import { MemoryStore } from '../../src/store/index.js';

/**
 * The sample material "기초 통계" as MaterialService.materialText returns it (pages joined by a blank line, the
 * running footer on every page), fixed here so the raise-hand tests need no PDF extraction.
 */
const PAGES: string[][] = [
  [
    '기초 통계',
    '평균에서 대수의 법칙까지 — 확률과 통계의 첫걸음',
    '이 자료는 세 개의 장으로 이루어져 있습니다.',
    '1장 평균의 의미: 자료를 하나의 수로 요약하는 방법',
    '2장 기댓값: 확률변수의 평균',
    '3장 대수의 법칙: 표본평균이 기댓값에 가까워지는 이유',
    '기초 통계 · 1',
  ],
  [
    '1. 평균의 의미',
    '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.',
    'x̄ = (x₁ + x₂ + … + xₙ) / n',
    '예를 들어 시험 점수가 70, 80, 90점이면 평균은 다음과 같습니다.',
    'x̄ = (70 + 80 + 90) / 3 = 80',
    '평균은 자료의 무게중심입니다. 모든 값을 평균으로 바꾸어도 합은 같습니다.',
    '기초 통계 · 2',
  ],
  [
    '평균의 성질',
    '각 값에서 평균을 뺀 편차를 모두 더하면 항상 0이 됩니다.',
    'Σ (xᵢ − x̄) = 0',
    '평균은 아주 크거나 작은 값(이상값)에 크게 흔들립니다.',
    '예: 연봉 3000, 3200, 3100, 50000(만 원)의 평균은 약 14825로,',
    '대부분의 사람이 받는 연봉과 거리가 멉니다. 이럴 때는 중앙값을 함께 봅니다.',
    '기초 통계 · 3',
  ],
  [
    '표본평균과 모평균',
    '관심 있는 집단 전체(모집단)의 평균을 모평균 μ라고 합니다.',
    '모집단에서 일부를 뽑은 표본의 평균을 표본평균 x̄라고 합니다.',
    'μ = 모집단 전체의 평균, x̄ = 표본 n개의 평균',
    '표본을 새로 뽑을 때마다 x̄는 조금씩 달라집니다.',
    '그렇다면 x̄는 μ를 얼마나 잘 추정할까요? 3장에서 답을 찾습니다.',
    '기초 통계 · 4',
  ],
  [
    '2. 기댓값',
    '확률변수 X는 실험의 결과마다 하나의 수를 대응시킵니다.',
    '기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.',
    'E[X] = Σ x·P(X=x)',
    '예: 공정한 주사위를 던져 나온 눈을 X라 하면',
    'E[X] = (1 + 2 + 3 + 4 + 5 + 6) × 1/6 = 3.5',
    '기초 통계 · 5',
  ],
  [
    '기댓값의 선형성',
    '상수 a, b에 대하여 다음이 항상 성립합니다.',
    'E[aX + b] = a·E[X] + b',
    '두 확률변수의 합의 기댓값은 각 기댓값의 합입니다. 독립이 아니어도 됩니다.',
    'E[X + Y] = E[X] + E[Y]',
    '예: 주사위 두 개의 눈의 합의 기댓값은 3.5 + 3.5 = 7입니다.',
    '기초 통계 · 6',
  ],
  [
    '기댓값과 평균',
    '기댓값은 확률을 가중치로 한 평균, 즉 가중평균입니다.',
    '같은 실험을 아주 많이 반복해 얻은 값들의 평균은 기댓값에 가까워집니다.',
    '예: 1000원짜리 복권의 당첨금 기댓값이 400원이라면,',
    'E[이익] = 400 − 1000 = −600 (원)',
    '복권을 많이 살수록 한 장에 평균 600원씩 잃게 됩니다.',
    '기초 통계 · 7',
  ],
  [
    '3. 대수의 법칙',
    'X₁, X₂, …, Xₙ이 서로 독립이고 같은 분포를 따르며 기댓값이 μ라고 합시다.',
    'X̄ₙ = (X₁ + X₂ + … + Xₙ) / n',
    '대수의 법칙: n이 커질수록 표본평균 X̄ₙ은 기댓값 μ에 가까워집니다.',
    'n → ∞ 이면 X̄ₙ → μ',
    '평균의 의미(1장)와 기댓값(2장)이 여기서 만납니다.',
    '기초 통계 · 8',
  ],
  [
    '동전 던지기 예',
    '앞면이면 1, 뒷면이면 0인 확률변수 X의 기댓값은 E[X] = 0.5입니다.',
    '10번 던지면 앞면 비율이 0.3이나 0.7이 되는 일도 흔합니다.',
    '10000번 던지면 앞면 비율은 거의 항상 0.5 근처에 있습니다.',
    'Var(X̄ₙ) = σ² / n',
    '표본평균의 분산이 n에 반비례하므로, n이 커질수록 흩어짐이 줄어듭니다.',
    '기초 통계 · 9',
  ],
  [
    '정리와 주의할 점',
    '대수의 법칙은 많은 반복의 평균에 대한 약속이지, 다음 한 번에 대한 약속이 아닙니다.',
    '앞면이 다섯 번 연속 나왔다고 다음에 뒷면이 나올 확률이 커지지는 않습니다(도박사의 오류).',
    '요약: 평균은 자료의 중심, 기댓값은 확률변수의 중심,',
    '대수의 법칙은 표본평균이 기댓값으로 모인다는 사실입니다.',
    'x̄ ≈ E[X] = μ (n이 충분히 클 때)',
    '기초 통계 · 10',
  ],
];

export const SAMPLE_MATERIAL_TEXT = PAGES.map((lines) => lines.join('\n')).join('\n\n');
export const SAMPLE_PAGE_TEXTS = PAGES.map((lines) => lines.join('\n'));
/** The chapter plan the sample PDF gets at ingest (its outline). */
export const SAMPLE_CHAPTERS = [
  { index: 0, title: '평균의 의미', startPage: 1, endPage: 4 },
  { index: 1, title: '기댓값', startPage: 5, endPage: 7 },
  { index: 2, title: '대수의 법칙', startPage: 8, endPage: 10 },
];
export const SAMPLE_MATERIAL_ID = 'sample-material';
/** Stand-in bytes: the fake Gemini never parses the PDF, the tests only check it is attached. */
export const SAMPLE_PDF = new TextEncoder().encode('%PDF-1.7 기초 통계');

/** The material's page texts (blank-line separated pages), each chapter its own pages as MaterialService cuts them. */
export function sampleMaterials(text = SAMPLE_MATERIAL_TEXT, pdf = SAMPLE_PDF) {
  const calls = { chapter: 0, pdf: 0 };
  const pages = text.split('\n\n');
  return {
    calls,
    async chapterText(id: string, index: number): Promise<string> {
      calls.chapter += 1;
      if (id !== SAMPLE_MATERIAL_ID) throw new Error(`no material ${id}`);
      const chapter = SAMPLE_CHAPTERS[index];
      if (!chapter) throw new Error(`no chapter ${index}`);
      return pages.slice(chapter.startPage - 1, chapter.endPage).join('\n\n');
    },
    async materialPdf(id: string): Promise<Uint8Array> {
      calls.pdf += 1;
      if (id !== SAMPLE_MATERIAL_ID) throw new Error(`no material ${id}`);
      return pdf;
    },
  };
}

/**
 * A real RetrievalService (memory store, offline embeddings) with the sample material indexed from `text`'s pages
 * under SAMPLE_MATERIAL_ID and SAMPLE_CHAPTERS, as ingest indexes it.
 */
export async function sampleRetriever(text = SAMPLE_MATERIAL_TEXT): Promise<RetrievalService> {
  const retriever = new RetrievalService({ store: new MemoryStore(), model: createOfflineModel({}) });
  const pageTexts = text.split('\n\n');
  const last = Math.max(1, pageTexts.length);
  const chapters = SAMPLE_CHAPTERS.map((chapter) => ({ ...chapter, startPage: Math.min(chapter.startPage, last), endPage: Math.min(chapter.endPage, last) }));
  await retriever.buildIndex(SAMPLE_MATERIAL_ID, { chapters, pageTexts });
  return retriever;
}
