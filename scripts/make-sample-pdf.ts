/**
 * Writes the sample lecture PDF "기초 통계" (cover + 평균의 의미, 기댓값, 대수의 법칙, with an outline and formulas,
 * set in Pretendard from the npm package). The server preloads the same document at start (PRELOAD_SAMPLE); tests
 * import `buildSamplePdf` from here or from src/materials.
 *
 * Usage: tsx scripts/make-sample-pdf.ts [output.pdf]   (default: data/기초-통계.pdf)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSamplePdf, SAMPLE_FILENAME } from '../src/materials/sample-pdf.js';

export { buildSamplePdf, SAMPLE_CHAPTERS, SAMPLE_FILENAME, SAMPLE_TITLE } from '../src/materials/sample-pdf.js';

/** Builds the sample and writes it to `output`; returns the absolute path and size. */
export async function writeSamplePdf(output = path.join('data', SAMPLE_FILENAME)): Promise<{ path: string; bytes: number }> {
  const bytes = await buildSamplePdf();
  const target = path.resolve(output);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, bytes);
  return { path: target, bytes: bytes.byteLength };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const written = await writeSamplePdf(process.argv[2]);
  console.log(`wrote ${written.path} (${written.bytes} bytes)`);
}
