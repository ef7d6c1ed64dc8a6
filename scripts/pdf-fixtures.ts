/**
 * PDF generators shared by the tests and the ingest benchmark: every PDF the test suite reads is made here (or by
 * the sample maker), so no binary fixture has to be trusted or kept in sync.
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, PDFHexString, PDFName, PDFNumber, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import { addOutline, type OutlineEntry } from '../src/materials/pdf-outline-writer.js';
import { pretendardRegular } from '../src/materials/sample-pdf.js';

export type { OutlineEntry };
export { pretendardRegular };
export { buildSamplePdf } from '../src/materials/sample-pdf.js';

export interface FixturePage {
  /** Drawn large at the top of the page (what the headings planner looks for). */
  heading?: string;
  lines: string[];
}

export interface BuildPdfOptions {
  title?: string;
  pages: FixturePage[];
  outline?: OutlineEntry[];
  namedDestinations?: boolean;
  /** Embed Pretendard (subset) so Hangul can be drawn; Helvetica otherwise (Latin only, faster). */
  korean?: boolean;
  headingSize?: number;
  bodySize?: number;
}

const FIXED_DATE = new Date('2024-03-01T00:00:00Z');
/** Embeds the fonts a document needs; Pretendard is subset so a 300-page file stays small. */
export async function embedFont(doc: PDFDocument, korean: boolean): Promise<PDFFont> {
  if (!korean) return doc.embedFont(StandardFonts.Helvetica);
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(pretendardRegular(), { subset: true });
  // fontkit lays Hangul out slowly (~3 ms a line); fixtures repeat a few sentences, so remember each encoding.
  // The subset still sees every glyph because the first encoding of each text goes through the real method.
  const encode = font.encodeText.bind(font);
  const cache = new Map<string, ReturnType<PDFFont['encodeText']>>();
  font.encodeText = (text: string) => {
    let encoded = cache.get(text);
    if (!encoded) cache.set(text, (encoded = encode(text)));
    return encoded;
  };
  return font;
}

/** Builds a PDF page by page; dates are fixed so the same options give the same bytes (and the same id). */
export async function buildPdf(options: BuildPdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  if (options.title) doc.setTitle(options.title);
  const font = await embedFont(doc, options.korean ?? false);
  const headingSize = options.headingSize ?? 24;
  const bodySize = options.bodySize ?? 11;
  for (const content of options.pages) {
    const page = doc.addPage([595, 842]);
    let y = 780;
    if (content.heading) {
      page.drawText(content.heading, { x: 50, y, size: headingSize, font });
      y -= headingSize * 2;
    }
    // One multi-line call per page: pdf-lib's per-call overhead dominates fixture generation otherwise.
    const room = Math.max(0, Math.floor((y - 40) / (bodySize * 1.6)) + 1);
    const lines = content.lines.slice(0, room);
    if (lines.length > 0) page.drawText(lines.join('\n'), { x: 50, y, size: bodySize, font, lineHeight: bodySize * 1.6 });
  }
  if (options.outline) addOutline(doc, options.outline, { namedDestinations: options.namedDestinations ?? false });
  return doc.save({ useObjectStreams: false });
}

const LATIN_SENTENCES = [
  'The sample mean estimates the population mean.',
  'Variance measures how far values spread from the mean.',
  'A random variable assigns a number to each outcome.',
  'Independent trials do not influence each other.',
  'The expected value is a probability weighted average.',
];
const KOREAN_SENTENCES = [
  '표본평균은 모평균을 추정하는 가장 기본적인 통계량이다.',
  '분산은 값들이 평균에서 얼마나 흩어져 있는지를 나타낸다.',
  '확률변수는 각 결과에 하나의 수를 대응시키는 함수이다.',
  '독립인 시행은 서로의 결과에 영향을 주지 않는다.',
  '기댓값은 확률을 가중치로 한 평균이다: E[X] = Σ x·P(X=x)',
];

export function bodyLines(seed: number, count: number, korean = false): string[] {
  const pool = korean ? KOREAN_SENTENCES : LATIN_SENTENCES;
  return Array.from({ length: count }, (_, index) => pool[(seed + index) % pool.length] as string);
}

export interface SectionSpec {
  title: string;
  pages: number;
}

function sectionsToPages(sections: readonly SectionSpec[], korean: boolean, headings: boolean, lines: number) {
  const pages: FixturePage[] = [];
  const outline: OutlineEntry[] = [];
  for (const section of sections) {
    outline.push({ title: section.title, pageIndex: pages.length });
    for (let page = 0; page < section.pages; page += 1) {
      const heading = headings && page === 0 ? section.title : undefined;
      pages.push({ ...(heading ? { heading } : {}), lines: bodyLines(pages.length, lines, korean) });
    }
  }
  return { pages, outline };
}

export interface SectionedPdfOptions {
  sections: SectionSpec[];
  outline?: boolean;
  headings?: boolean;
  korean?: boolean;
  namedDestinations?: boolean;
  linesPerPage?: number;
  title?: string;
}

/** A document made of titled sections, with an outline and/or large headings (or neither). */
export async function sectionedPdf(options: SectionedPdfOptions): Promise<Uint8Array> {
  const korean = options.korean ?? false;
  const { pages, outline } = sectionsToPages(options.sections, korean, options.headings ?? false, options.linesPerPage ?? 12);
  return buildPdf({
    pages,
    korean,
    namedDestinations: options.namedDestinations ?? false,
    ...(options.outline ? { outline } : {}),
    ...(options.title ? { title: options.title } : {}),
  });
}

const chapterNames = (count: number, korean: boolean) =>
  Array.from({ length: count }, (_, index) => (korean ? `${index + 1}장 확률과 통계 주제 ${index + 1}` : `Chapter ${index + 1}`));

/** Chapters with an outline (one top-level entry per chapter). */
export function outlinePdf(chapters = 4, pagesPerChapter = 3, korean = false): Promise<Uint8Array> {
  return sectionedPdf({
    sections: chapterNames(chapters, korean).map((title) => ({ title, pages: pagesPerChapter })),
    outline: true,
    korean,
  });
}

/** Chapters marked only by large headings, no outline. */
export function headingsPdf(chapters = 4, pagesPerChapter = 3, korean = false): Promise<Uint8Array> {
  return sectionedPdf({
    sections: chapterNames(chapters, korean).map((title) => ({ title, pages: pagesPerChapter })),
    headings: true,
    korean,
  });
}

/** Uniform text, no outline, no headings: only page windows can split it. */
export function plainPdf(pages = 10, korean = false): Promise<Uint8Array> {
  return buildPdf({ pages: Array.from({ length: pages }, (_, index) => ({ lines: bodyLines(index, 12, korean) })), korean });
}

/** Lecture slides exported with one bookmark per slide (what the merge rule exists for). */
export function slidesPdf(slides = 40, korean = false): Promise<Uint8Array> {
  const topics = korean ? ['평균', '분산', '기댓값', '확률변수', '대수의 법칙'] : ['Mean', 'Variance', 'Expectation', 'Random variables', 'Law of large numbers'];
  return sectionedPdf({
    sections: Array.from({ length: slides }, (_, index) => ({
      title: `${topics[Math.floor((index * topics.length) / slides)] ?? 'Slide'} ${index + 1}`,
      pages: 1,
    })),
    outline: true,
    headings: true,
    korean,
    linesPerPage: 6,
  });
}

/** The benchmark's document: many pages, Korean text, an outline of real chapters. */
export function largePdf(pages = 300, chapters = 10): Promise<Uint8Array> {
  const base = Math.floor(pages / chapters);
  const sections = Array.from({ length: chapters }, (_, index) => ({
    title: `${index + 1}장 확률과 통계 주제 ${index + 1}`,
    pages: index === chapters - 1 ? pages - base * (chapters - 1) : base,
  }));
  return sectionedPdf({ sections, outline: true, headings: true, korean: true, linesPerPage: 20 });
}

/** Pages with drawings only, like a scan without OCR. */
export async function scannedPdf(pages = 3): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let index = 0; index < pages; index += 1) {
    const page = doc.addPage([595, 842]);
    page.drawRectangle({ x: 50, y: 50, width: 495, height: 742, color: rgb(0.9, 0.9, 0.85) });
  }
  return doc.save();
}

/**
 * A PDF with a standard-security /Encrypt dictionary whose keys match no password: pdf-lib refuses it
 * (EncryptedPDFError) and pdf.js asks for a password, exactly like a password-protected upload.
 */
export async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('secret', { x: 50, y: 780, size: 12, font });
  const filler = (byte: number) => PDFHexString.of(byte.toString(16).padStart(2, '0').repeat(32));
  const encrypt = doc.context.obj({ Filter: 'Standard', V: 1, R: 2, O: filler(0xab), U: filler(0xcd), P: PDFNumber.of(-44) });
  doc.context.trailerInfo.Encrypt = doc.context.register(encrypt);
  const id = PDFHexString.of('0123456789abcdef0123456789abcdef');
  doc.context.trailerInfo.ID = doc.context.obj([id, id]);
  return doc.save({ useObjectStreams: false });
}

/**
 * Korean text in a CID font that is NOT embedded (HYSMyeongJo-Medium, UniKS-UCS2-H): readers need the
 * predefined CMaps to map the codes to Unicode. This is what many Korean office exports look like.
 */
export async function nonEmbeddedKoreanPdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const context = doc.context;
  const descriptor = context.obj({
    Type: 'FontDescriptor', FontName: 'HYSMyeongJo-Medium', Flags: 6, FontBBox: [-28, -148, 1001, 880],
    ItalicAngle: 0, Ascent: 880, Descent: -120, CapHeight: 880, StemV: 93,
  });
  const cidFont = context.obj({
    Type: 'Font', Subtype: 'CIDFontType0', BaseFont: 'HYSMyeongJo-Medium',
    FontDescriptor: context.register(descriptor), DW: 1000,
  });
  // CIDSystemInfo values must be PDF strings; context.obj would turn JS strings into names.
  const info = context.obj({});
  info.set(PDFName.of('Registry'), PDFHexString.fromText('Adobe'));
  info.set(PDFName.of('Ordering'), PDFHexString.fromText('Korea1'));
  info.set(PDFName.of('Supplement'), PDFNumber.of(1));
  cidFont.set(PDFName.of('CIDSystemInfo'), info);
  const type0 = context.obj({
    Type: 'Font', Subtype: 'Type0', BaseFont: 'HYSMyeongJo-Medium-UniKS-UCS2-H', Encoding: 'UniKS-UCS2-H',
    DescendantFonts: [context.register(cidFont)],
  });
  const fontRef = context.register(type0);
  const page = doc.addPage([595, 842]);
  page.node.setFontDictionary(PDFName.of('F1'), fontRef);
  const ucs2 = (text: string) =>
    Array.from(text).map((char) => (char.codePointAt(0) ?? 32).toString(16).padStart(4, '0')).join('');
  const operators = lines
    .map((line, index) => `BT /F1 14 Tf 50 ${780 - index * 24} Td <${ucs2(line)}> Tj ET`)
    .join('\n');
  const stream = context.flateStream(operators);
  page.node.addContentStream(context.register(stream));
  return doc.save({ useObjectStreams: false });
}

/** Cuts a valid PDF short, like an interrupted download. */
export function truncated(bytes: Uint8Array, keepRatio = 0.6): Uint8Array {
  return bytes.slice(0, Math.floor(bytes.length * keepRatio));
}

/** Starts like a PDF but is garbage after the header. */
export function corruptPdf(): Uint8Array {
  const garbage = Buffer.alloc(4096, 0x5a);
  return Buffer.concat([Buffer.from('%PDF-1.7\n%âãÏÓ\n'), garbage, Buffer.from('\n%%EOF\n')]);
}
