import { $ } from './dom.js';

/**
 * The page's one live region (`#announcer`, visually hidden, `role=status`, polite, atomic): phase changes and results
 * are said to screen readers in a sentence, since the screens that change are not themselves live (a whole screen
 * read out on every change would drown the sentence that matters). The same text twice is said twice: the region is
 * emptied first.
 */
export function announcer(id = 'announcer'): (text: string) => void {
  const region = $(id);
  let last = '';
  return (text) => {
    if (text === last && region.textContent === text) region.textContent = '';
    last = text;
    // A fresh text node per message: screen readers announce a change of the region's content.
    region.replaceChildren(document.createTextNode(text));
  };
}
