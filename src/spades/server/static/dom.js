// Small helpers for building the page's elements.

export const $ = (id) => document.getElementById(id);

// An element with a class and, if given, its text.
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export const div = (className, text) => el("div", className, text);
