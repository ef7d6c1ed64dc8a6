// A quiz item's picture under the question text, with the item's alt text; hidden when the item has none. An uploaded
// image is an <img> (served by the server with the type its bytes prove); a page of the material is a one-page PDF
// fetched with the room's token (the server serves it only once its question is on screen) and drawn into a canvas
// with PDF.js (loaded on first use). URLs come from the server (same origin only).
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
  image.removeAttribute('src');
  image.alt = '';
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
  if (!picture || picture.kind === 'page' || !picture.url.startsWith('/api/quiz-images/')) {
    hideImage(image);
    return;
  }
  image.alt = picture.alt;
  if (image.getAttribute('src') !== picture.url) image.src = picture.url;
  image.hidden = false;
}

/** Fetches and draws the page; a later question (another URL) wins over a slow earlier one. */
async function drawPage({ page, token }: PictureElements, url: string): Promise<void> {
  try {
    const credential = token();
    const response = await fetch(url, { headers: credential ? { authorization: `Bearer ${credential}` } : {}, cache: 'no-store' });
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
