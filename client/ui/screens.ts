import { element } from './dom.js';

/** Shows one of several screens (elements with `data-screen`) inside `root`. */
export function showScreen(root: HTMLElement, name: string): void {
  root.dataset.screen = name;
  for (const screen of root.querySelectorAll<HTMLElement>('[data-screen]')) screen.hidden = screen.dataset.screen !== name;
}

export interface StatusLine {
  show(message: string, action?: HTMLElement | null): void;
  hide(): void;
}

/** A page's status line (`node`): one message, optionally followed by an action button. */
export function statusLine(node: HTMLElement): StatusLine {
  return {
    show(message, action = null) {
      node.replaceChildren(element('span', { text: message }), ...(action ? [action] : []));
      node.hidden = false;
    },
    hide() {
      node.hidden = true;
      node.replaceChildren();
    },
  };
}

/** A small secondary button that runs `onClick` (the status lines' and lists' actions). */
export function actionButton(text: string, onClick: () => void): HTMLButtonElement {
  const button = element('button', { type: 'button', className: 'secondary small', text });
  button.addEventListener('click', onClick);
  return button;
}
