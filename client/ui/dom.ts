/**
 * DOM helpers every page shares: element lookup, and building nodes with textContent only (server and user text
 * is untrusted and never becomes HTML).
 */

/** The page's element with this id (every page's ids are fixed in its HTML). */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from the page`);
  return node as T;
}

export type AttributeValue = string | number | boolean | null | undefined;
export type Child = Node | string | null | undefined | false;

/**
 * A DOM node. `text` becomes textContent (never HTML); `className`, `data-*`, `aria-*`, `role` and `for` are
 * attributes; anything else is set as a property (`type`, `hidden`, `href`, …). Empty values are skipped.
 */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, AttributeValue> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') node.className = String(value);
    else if (name === 'text') node.textContent = String(value);
    else if (name.startsWith('data-') || name.startsWith('aria-') || name === 'role' || name === 'for') node.setAttribute(name, String(value));
    else (node as unknown as Record<string, unknown>)[name] = value;
  }
  for (const child of children) if (child) node.append(child);
  return node;
}
