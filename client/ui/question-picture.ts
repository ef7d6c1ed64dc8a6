// A quiz item's picture under the question text, with the item's alt text; hidden when the item has none. Both kinds
// are fetched from the room with the room's token (the server serves them only once their question is on screen): an
// uploaded image is shown in an <img> from a blob: URL of its bytes (the pages' CSP allows blob: images), a page of the
// material is a one-page PDF drawn into a canvas with PDF.js (loaded on first use). URLs come from the server (same
// origin only).
import type { PublicQuestion } from '../../src/protocol/wire/index.js';

export interface PictureElements {
  image: HTMLImageElement;
  /** The page's canvas (`role="img"`; its alt text is its aria-label). */
  page: HTMLCanvasElement;
  /** The player's or host's token for the room (null: none yet). */
  token: () => string | null;
}

const PAGE_URL = /^\/api\/rooms\/[^/]+\/pictures\/\d+$/;

function hideImage(image: HTMLImageElement): void {
  image.hidden = true;
  const shown = image.getAttribute('src');
  if (shown?.startsWith('blob:')) URL.revokeObjectURL(shown);
  image.removeAttribute('src');
  image.alt = '';
  delete image.dataset.url;
}

async function roomBytes(url: string, token: () => string | null): Promise<Response> {
  const credential = token();
  return fetch(url, { headers: credential ? { authorization: `Bearer ${credential}` } : {}, cache: 'no-store' });
}

function hidePage(page: HTMLCanvasElement): void {
  page.hidden = true;
  page.removeAttribute('aria-label');
  delete page.dataset.url;
  delete page.dataset.drawn;
}

export function showPicture(elements: PictureElements, question: Pick<PublicQuestion, 'image'>): void {
  const { image, page } = elements;
  const picture = question.image;
  if (picture?.kind === 'page' && PAGE_URL.test(picture.url)) {
    hideImage(image);
    page.setAttribute('aria-label', picture.alt);
    if (page.dataset.url === picture.url) return;
    page.dataset.url = picture.url;
    delete page.dataset.drawn;
    // The last question's page is not left on screen while this one loads.
    page.hidden = true;
    void drawPage(elements, picture.url);
    return;
  }
  hidePage(page);
  if (!picture || picture.kind === 'page' || !PAGE_URL.test(picture.url)) {
    hideImage(image);
    return;
  }
  if (image.dataset.url === picture.url) {
    image.alt = picture.alt;
    return;
  }
  // The last question's picture is not left on screen while this one loads.
  hideImage(image);
  image.alt = picture.alt;
  image.dataset.url = picture.url;
  void loadImage(elements, picture.url);
}

/** Fetches the uploaded image and shows it; a later question (another URL) wins over a slow earlier one. */
async function loadImage({ image, token }: PictureElements, url: string): Promise<void> {
  try {
    const response = await roomBytes(url, token);
    if (!response.ok || image.dataset.url !== url) return;
    const blob = await response.blob();
    if (image.dataset.url !== url) return;
    image.src = URL.createObjectURL(blob);
    image.hidden = false;
  } catch {
    // The alt text stays for screen readers; the question itself is never blocked by its picture.
  }
}

/** Fetches and draws the page; a later question (another URL) wins over a slow earlier one. */
async function drawPage({ page, token }: PictureElements, url: string): Promise<void> {
  try {
    const response = await roomBytes(url, token);
    if (!response.ok || page.dataset.url !== url) return;
    const bytes = new Uint8Array(await response.arrayBuffer());
    const { drawPdfPage } = await import('./pdf-page.js');
    if (page.dataset.url !== url) return;
    page.hidden = false;
    await drawPdfPage(page, bytes, page.parentElement?.clientWidth || 640);
    if (page.dataset.url === url) page.dataset.drawn = 'true';
  } catch {
    // The alt text stays for screen readers; the question itself is never blocked by its picture.
    if (page.dataset.url === url) page.hidden = true;
  }
}
