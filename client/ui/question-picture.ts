// A quiz item's picture (an uploaded image served by the server with the type its bytes prove) under the question
// text, with the item's alt text; hidden when the item has none. The URL comes from the server (same origin only).
import type { PublicQuestion } from '../../src/protocol/wire/index.js';

export function showPicture(image: HTMLImageElement, question: Pick<PublicQuestion, 'image'>): void {
  const picture = question.image;
  if (!picture || !picture.url.startsWith('/api/quiz-images/')) {
    image.hidden = true;
    image.removeAttribute('src');
    image.alt = '';
    return;
  }
  image.alt = picture.alt;
  if (image.getAttribute('src') !== picture.url) image.src = picture.url;
  image.hidden = false;
}
