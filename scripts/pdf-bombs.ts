/**
 * Hostile PDFs for the decompression budget's tests and benchmark (src/materials/pdf-budget.ts), made with pdf-lib
 * and zlib in a few hundred milliseconds and a few megabytes: the inflated data is never held in memory here.
 */
import { createDeflate } from 'node:zlib';
import { PDFDocument, PDFName, StandardFonts, type PDFObject } from 'pdf-lib';

/** zlib (Flate) data that inflates to `unit` repeated `times` times, deflated as it is written. */
async function deflateRepeated(unit: Uint8Array, times: number): Promise<Uint8Array> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  for (let index = 0; index < times; index += 1) {
    if (!deflate.write(unit)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat(chunks);
}

/** 768 KiB of path operators: what the content stream of a bomb repeats. */
const PATH_OPERATORS = Buffer.from('0 0 m\n'.repeat(1 << 17));

export interface BombOptions {
  /** About how many MiB the bomb's stream inflates to. */
  inflatedMb: number;
  /** Text on the page (different bombs have different bytes, so they are different materials). */
  label?: string;
  /** Where the bomb hides: the page's content stream (default), one declared an image, or under an ASCIIHex filter. */
  disguise?: 'content' | 'image' | 'hex';
}

/** A one-page PDF whose second content stream is a flate bomb; the file itself is about 1/690 of `inflatedMb`. */
export async function flateBombPdf(options: BombOptions): Promise<Uint8Array> {
  const times = Math.ceil((options.inflatedMb * 1024 * 1024) / PATH_OPERATORS.byteLength);
  const deflated = await deflateRepeated(PATH_OPERATORS, times);
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage();
  page.drawText(options.label ?? 'A lecture page', { font, x: 50, y: 700, size: 14 });
  const disguise = options.disguise ?? 'content';
  const data = disguise === 'hex' ? Buffer.from(`${Buffer.from(deflated).toString('hex')}>`, 'latin1') : deflated;
  const dictionary: Record<string, PDFObject | string | number> = {
    Filter: disguise === 'hex' ? document.context.obj(['ASCIIHexDecode', 'FlateDecode']) : 'FlateDecode',
    Length: data.byteLength,
  };
  if (disguise === 'image') Object.assign(dictionary, { Type: 'XObject', Subtype: 'Image', Width: 1, Height: 1, ColorSpace: 'DeviceGray', BitsPerComponent: 8 });
  const bomb = document.context.register(document.context.stream(data, dictionary));
  const contents = page.node.get(PDFName.of('Contents'));
  page.node.set(PDFName.of('Contents'), document.context.obj(contents ? [contents, bomb] : [bomb]));
  return document.save();
}

/** A one-page PDF with `count` extra indirect objects (packed in object streams, as pdf-lib saves them). */
export async function manyObjectsPdf(count: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage().drawText('Many objects', { font, x: 50, y: 700, size: 14 });
  for (let index = 0; index < count; index += 1) document.context.register(document.context.obj(index));
  return document.save();
}
