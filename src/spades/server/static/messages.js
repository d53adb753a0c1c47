// What the page says: the message line, and the live region a screen reader reads.

import { $ } from "./dom.js";

export function announce(text) {
  const region = $("announcer");
  const line = document.createElement("p");
  line.textContent = text;
  region.append(line);
  while (region.childElementCount > 6) region.firstElementChild.remove();
}

export function showMessage(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
}

export function clearMessage() {
  showMessage("", "error");
}
