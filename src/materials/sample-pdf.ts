import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { addOutline } from './pdf-outline-writer.js';
import { SAMPLE_CHAPTERS, SAMPLE_TITLE } from './sample-names.js';

/**
 * The sample material "기초 통계" that `npm start` preloads, so a newcomer can try a lecture at once. It is built
 * in code (no binary in the repository) with a font from an npm package (Pretendard), never a system font, and
 * with fixed dates so every build gives the same bytes — and therefore the same material id.
 */

export { SAMPLE_CHAPTERS, SAMPLE_FILENAME, SAMPLE_TITLE } from './sample-names.js';

let pretendard: Buffer | undefined;

/** Pretendard-Regular.ttf from the `pretendard` package; its OTF files do not load in fontkit (TECH-NOTES). */
export function pretendardRegular(): Buffer {
  if (!pretendard) {
    const packageDir = path.dirname(createRequire(import.meta.url).resolve('pretendard/package.json'));
    pretendard = readFileSync(path.join(packageDir, 'dist/public/static/alternative/Pretendard-Regular.ttf'));
  }
  return pretendard;
}

type Block = { kind: 'title' | 'heading' | 'text' | 'formula'; text: string };
type SamplePage = Block[];

const h = (text: string): Block => ({ kind: 'heading', text });
const t = (text: string): Block => ({ kind: 'text', text });
const f = (text: string): Block => ({ kind: 'formula', text });

const COVER: SamplePage = [
  { kind: 'title', text: SAMPLE_TITLE },
  t('평균에서 대수의 법칙까지 — 확률과 통계의 첫걸음'),
  t(''),
  t('이 자료는 세 개의 장으로 이루어져 있습니다.'),
  t('1장 평균의 의미: 자료를 하나의 수로 요약하는 방법'),
  t('2장 기댓값: 확률변수의 평균'),
  t('3장 대수의 법칙: 표본평균이 기댓값에 가까워지는 이유'),
];

const CHAPTER_PAGES: SamplePage[][] = [
  [
    [
      h('1. 평균의 의미'),
      t('평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.'),
      f('x̄ = (x₁ + x₂ + … + xₙ) / n'),
      t('예를 들어 시험 점수가 70, 80, 90점이면 평균은 다음과 같습니다.'),
      f('x̄ = (70 + 80 + 90) / 3 = 80'),
      t('평균은 자료의 무게중심입니다. 모든 값을 평균으로 바꾸어도 합은 같습니다.'),
    ],
    [
      h('평균의 성질'),
      t('각 값에서 평균을 뺀 편차를 모두 더하면 항상 0이 됩니다.'),
      f('Σ (xᵢ − x̄) = 0'),
      t('평균은 아주 크거나 작은 값(이상값)에 크게 흔들립니다.'),
      t('예: 연봉 3000, 3200, 3100, 50000(만 원)의 평균은 약 14825로,'),
      t('대부분의 사람이 받는 연봉과 거리가 멉니다. 이럴 때는 중앙값을 함께 봅니다.'),
    ],
    [
      h('표본평균과 모평균'),
      t('관심 있는 집단 전체(모집단)의 평균을 모평균 μ라고 합니다.'),
      t('모집단에서 일부를 뽑은 표본의 평균을 표본평균 x̄라고 합니다.'),
      f('μ = 모집단 전체의 평균,  x̄ = 표본 n개의 평균'),
      t('표본을 새로 뽑을 때마다 x̄는 조금씩 달라집니다.'),
      t('그렇다면 x̄는 μ를 얼마나 잘 추정할까요? 3장에서 답을 찾습니다.'),
    ],
  ],
  [
    [
      h('2. 기댓값'),
      t('확률변수 X는 실험의 결과마다 하나의 수를 대응시킵니다.'),
      t('기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.'),
      f('E[X] = Σ x·P(X=x)'),
      t('예: 공정한 주사위를 던져 나온 눈을 X라 하면'),
      f('E[X] = (1 + 2 + 3 + 4 + 5 + 6) × 1/6 = 3.5'),
    ],
    [
      h('기댓값의 선형성'),
      t('상수 a, b에 대하여 다음이 항상 성립합니다.'),
      f('E[aX + b] = a·E[X] + b'),
      t('두 확률변수의 합의 기댓값은 각 기댓값의 합입니다. 독립이 아니어도 됩니다.'),
      f('E[X + Y] = E[X] + E[Y]'),
      t('예: 주사위 두 개의 눈의 합의 기댓값은 3.5 + 3.5 = 7입니다.'),
    ],
    [
      h('기댓값과 평균'),
      t('기댓값은 확률을 가중치로 한 평균, 즉 가중평균입니다.'),
      t('같은 실험을 아주 많이 반복해 얻은 값들의 평균은 기댓값에 가까워집니다.'),
      t('예: 1000원짜리 복권의 당첨금 기댓값이 400원이라면,'),
      f('E[이익] = 400 − 1000 = −600 (원)'),
      t('복권을 많이 살수록 한 장에 평균 600원씩 잃게 됩니다.'),
    ],
  ],
  [
    [
      h('3. 대수의 법칙'),
      t('X₁, X₂, …, Xₙ이 서로 독립이고 같은 분포를 따르며 기댓값이 μ라고 합시다.'),
      f('X̄ₙ = (X₁ + X₂ + … + Xₙ) / n'),
      t('대수의 법칙: n이 커질수록 표본평균 X̄ₙ은 기댓값 μ에 가까워집니다.'),
      f('n → ∞ 이면  X̄ₙ → μ'),
      t('평균의 의미(1장)와 기댓값(2장)이 여기서 만납니다.'),
    ],
    [
      h('동전 던지기 예'),
      t('앞면이면 1, 뒷면이면 0인 확률변수 X의 기댓값은 E[X] = 0.5입니다.'),
      t('10번 던지면 앞면 비율이 0.3이나 0.7이 되는 일도 흔합니다.'),
      t('10000번 던지면 앞면 비율은 거의 항상 0.5 근처에 있습니다.'),
      f('Var(X̄ₙ) = σ² / n'),
      t('표본평균의 분산이 n에 반비례하므로, n이 커질수록 흩어짐이 줄어듭니다.'),
    ],
    [
      h('정리와 주의할 점'),
      t('대수의 법칙은 많은 반복의 평균에 대한 약속이지, 다음 한 번에 대한 약속이 아닙니다.'),
      t('앞면이 다섯 번 연속 나왔다고 다음에 뒷면이 나올 확률이 커지지는 않습니다(도박사의 오류).'),
      t('요약: 평균은 자료의 중심, 기댓값은 확률변수의 중심,'),
      t('대수의 법칙은 표본평균이 기댓값으로 모인다는 사실입니다.'),
      f('x̄ ≈ E[X] = μ   (n이 충분히 클 때)'),
    ],
  ],
];

const STYLE = {
  title: { size: 30, gap: 2.2, x: 56, color: rgb(0.1, 0.15, 0.35) },
  heading: { size: 22, gap: 2.0, x: 56, color: rgb(0.1, 0.15, 0.35) },
  text: { size: 13, gap: 1.8, x: 56, color: rgb(0.1, 0.1, 0.1) },
  formula: { size: 15, gap: 2.0, x: 88, color: rgb(0.05, 0.25, 0.15) },
} as const;

function drawPage(page: PDFPage, blocks: SamplePage, font: PDFFont, pageNumber: number): void {
  let y = 770;
  for (const block of blocks) {
    const style = STYLE[block.kind];
    if (block.text) page.drawText(block.text, { x: style.x, y, size: style.size, font, color: style.color });
    y -= style.size * style.gap;
  }
  page.drawText(`${SAMPLE_TITLE} · ${pageNumber}`, { x: 500, y: 30, size: 9, font, color: rgb(0.5, 0.5, 0.5) });
}

/** Builds the sample PDF: a cover and three three-page chapters, with an outline naming the chapters. */
export async function buildSamplePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fixed = new Date('2024-03-01T00:00:00Z');
  doc.setTitle(SAMPLE_TITLE);
  doc.setLanguage('ko-KR');
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(pretendardRegular(), { subset: true });
  const pages = [COVER, ...CHAPTER_PAGES.flat()];
  pages.forEach((blocks, index) => drawPage(doc.addPage([595, 842]), blocks, font, index + 1));
  addOutline(
    doc,
    SAMPLE_CHAPTERS.map((title, chapter) => ({
      title,
      pageIndex: 1 + chapter * 3,
      children: (CHAPTER_PAGES[chapter] ?? []).slice(1).map((blocks, offset) => ({
        title: blocks[0]?.text ?? title,
        pageIndex: 2 + chapter * 3 + offset,
      })),
    })),
  );
  return doc.save({ useObjectStreams: false });
}
