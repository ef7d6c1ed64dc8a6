/**
 * The sample material's names, apart from its builder (sample-pdf.ts), so the main thread can name the sample
 * without loading pdf-lib and fontkit (about half a second of every start): only the PDF worker builds it.
 */
export const SAMPLE_TITLE = '기초 통계';
export const SAMPLE_FILENAME = '기초-통계.pdf';
export const SAMPLE_CHAPTERS = ['평균의 의미', '기댓값', '대수의 법칙'] as const;
