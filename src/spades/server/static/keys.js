// Playing by keyboard: arrows move along the hand and the bids, H asks a hint, R
// opens the records, S the statistics, N or digits choose a bid.

import { openRecords } from "./records.js";
import { askHint, showStatistics } from "./actions.js";
import { $ } from "./dom.js";
import { render } from "./draw.js";
import { app, blindChoicePending, canAct, lookKey } from "./state.js";

export function moveFocus(container, selector, current, delta, setIndex) {
  const items = [...container.querySelectorAll(selector)];
  if (!items.length) return;
  let index = current;
  if (delta === "home") index = 0;
  else if (delta === "end") index = items.length - 1;
  else index = (current + delta + items.length) % items.length;
  setIndex(index);
  items.forEach((item, i) => {
    item.tabIndex = i === index ? 0 : -1;
  });
  items[index].focus();
}

export const KEY_MOVES = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "home", End: "end" };

export function onHandKey(event) {
  const move = KEY_MOVES[event.key];
  if (move === undefined) return;
  event.preventDefault();
  moveFocus($("hand"), ".card", app.handFocus, move, (i) => {
    app.handFocus = i;
  });
}

export function onBidKey(event) {
  const move = KEY_MOVES[event.key];
  if (move !== undefined) {
    event.preventDefault();
    moveFocus($("bid-buttons"), ".bid-button", app.bidFocus, move, (i) => {
      app.bidFocus = i;
    });
  }
}

export function focusBid(index) {
  app.bidFocus = index;
  const buttons = [...$("bid-buttons").children];
  buttons.forEach((b, i) => {
    b.tabIndex = i === index ? 0 : -1;
  });
  buttons[index]?.focus();
}

export function onGlobalKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const tag = document.activeElement?.tagName;
  if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
  const view = app.view;
  if (app.tools?.onKey(event)) return;
  if (event.key === "h" || event.key === "H") {
    event.preventDefault();
    askHint();
    return;
  }
  if (event.key === "r" || event.key === "R") {
    event.preventDefault();
    openRecords();
    return;
  }
  if ((event.key === "s" || event.key === "S") && !app.table) {
    event.preventDefault();
    showStatistics();
    return;
  }
  if (!view || view.phase !== "bidding" || !canAct(view)) return;
  // While blind Nil is open, choosing a bid by its key means looking at the cards first.
  if (blindChoicePending(view) && /^[0-9nN]$/.test(event.key)) {
    app.looked = lookKey(view);
    render(view);
  }
  if (event.key === "n" || event.key === "N") {
    event.preventDefault();
    focusBid(0);
  } else if (/^[0-9]$/.test(event.key)) {
    // Type a bid: "4", or "1" then "2" for 12; Enter then bids it.
    event.preventDefault();
    clearTimeout(app.digitTimer);
    const typed = `${app.digits}${event.key}`;
    const value = Number(typed) >= 1 && Number(typed) <= 13 ? typed : event.key;
    app.digits = value;
    app.digitTimer = setTimeout(() => {
      app.digits = "";
    }, 900);
    if (Number(value) >= 1 && Number(value) <= 13) focusBid(Number(value));
  }
}
