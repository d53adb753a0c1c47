// South's hand and the panels beside it: the bidding, the Nil pass, the cards
// fanned in one row (two on a narrow screen).

import { cardBack, cardFace, cardName, suitOf } from "./cards.js";
import { $, div } from "./dom.js";
import { nextSeat, PARTNER, SEAT_NAMES } from "./seats.js";
import { app, blindChoicePending, canAct, seatOf, seatWord, you } from "./state.js";
import { bidText, isNil, plural } from "./words.js";

export function biddingOrder(view) {
  const order = [];
  let seat = nextSeat(view.dealer);
  for (let i = 0; i < 4; i += 1) {
    order.push(seat);
    seat = nextSeat(seat);
  }
  return order;
}

export function renderBidding(view) {
  const panel = $("bidding");
  const bidding = view.phase === "bidding";
  panel.hidden = !bidding;
  $("center").classList.toggle("bidding-now", bidding);
  renderPassing(view);
  if (!bidding) return;
  const blind = blindChoicePending(view);
  $("blind-choice").hidden = !blind;
  $("bid-buttons").hidden = blind;
  const list = $("bid-list");
  list.replaceChildren(
    ...biddingOrder(view).map((seat) => {
      const info = seatOf(view, seat);
      const item = document.createElement("li");
      item.className = "bid-entry";
      if (view.turn === seat) item.classList.add("current");
      item.append(div("bid-seat", seatWord(seat)));
      const value = info.bid === null ? (view.turn === seat ? "…" : "") : bidText(info.bid);
      item.append(div("bid-value", value));
      return item;
    }),
  );
  const partner = seatOf(view, PARTNER[you()]);
  const myTurn = canAct(view);
  $("bid-prompt").textContent = blind
    ? "Blind Nil is open to you: bid it now, before you look at your cards, or look first."
    : myTurn
      ? partner.bid === null
        ? "How many tricks will you take?"
        : `${SEAT_NAMES[partner.seat]} bid ${bidText(partner.bid)}. How many tricks will you take?`
      : view.turn === you()
        ? ""
        : `Waiting for ${SEAT_NAMES[view.turn]}…`;
  const buttons = $("bid-buttons");
  const values = ["nil", ...Array.from({ length: 13 }, (_, i) => i + 1)];
  if (buttons.childElementCount !== values.length) {
    buttons.replaceChildren(
      ...values.map((value, index) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = value === "nil" ? "bid-button nil" : "bid-button";
        button.textContent = bidText(value);
        button.dataset.bid = String(value);
        button.dataset.index = String(index);
        button.setAttribute("aria-label", value === "nil" ? "Bid Nil: take no tricks" : `Bid ${value}`);
        return button;
      }),
    );
  }
  const suggested = app.hint?.kind === "bid" ? String(app.hint.bid) : null;
  // The rules may rule out some bids (a minimum team bid, no double Nil): those stay dimmed.
  const legal = new Set(view.legal_bids.map(String));
  for (const button of buttons.children) {
    button.disabled = !myTurn || !legal.has(button.dataset.bid);
    button.classList.toggle("suggested", button.dataset.bid === suggested);
    button.tabIndex = Number(button.dataset.index) === app.bidFocus ? 0 : -1;
  }
  $("bid-suggestion").textContent = myTurn && app.hint?.kind === "bid" ? `Suggested: ${bidText(app.hint.bid)}. ${app.hint.reason}.` : "";
}

export function renderPassing(view) {
  const panel = $("passing");
  const passing = view.phase === "passing";
  panel.hidden = !passing;
  $("center").classList.toggle("passing-now", passing);
  if (!passing) {
    app.toPass = new Set();
    return;
  }
  const turn = view.passing;
  const mine = Boolean(turn?.your_turn && canAct(view));
  const partner = seatOf(view, PARTNER[you()]);
  const why = isNil(partner.bid) ? `${SEAT_NAMES[partner.seat]} bid Nil` : "You bid Nil";
  $("pass-prompt").textContent = !turn
    ? "Cards are being passed…"
    : mine
      ? `${why}: choose ${plural(turn.count, "card")} to pass to ${SEAT_NAMES[turn.to]}, then Pass.`
      : `Waiting for ${SEAT_NAMES[turn.seat]} to pass ${plural(turn.count, "card")} to ${turn.to === you() ? "you" : SEAT_NAMES[turn.to]}…`;
  const button = $("pass-button");
  button.hidden = !mine;
  button.disabled = !mine || app.toPass.size !== turn.count;
  button.textContent = mine ? `Pass ${app.toPass.size} of ${turn.count}` : "Pass";
  $("pass-suggestion").textContent = mine && app.hint?.kind === "pass" ? `Suggested: ${app.hint.reason}.` : "";
}

export function renderHand(view) {
  const hand = $("hand");
  if (blindChoicePending(view)) {
    // Face down: a blind Nil is decided without seeing them.
    hand.replaceChildren(
      fanRow(
        view.hand.map(() => {
          const back = div("card idle face-down");
          back.append(cardBack());
          return back;
        }),
      ),
    );
    hand.classList.remove("my-turn");
    return;
  }
  const hadFocus = hand.contains(document.activeElement);
  const playing = view.phase === "playing" && canAct(view);
  const legal = new Set(playing ? view.legal_cards : []);
  const cards = view.hand;
  app.handFocus = Math.max(0, Math.min(app.handFocus, cards.length - 1));
  if (playing && !legal.has(cards[app.handFocus])) {
    const first = cards.findIndex((c) => legal.has(c));
    if (first >= 0 && !hadFocus) app.handFocus = first;
  }
  const buttons = cards.map((card, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card";
    button.dataset.card = card;
    button.dataset.index = String(index);
    button.setAttribute("aria-label", cardName(card));
    if (playing) {
      if (legal.has(card)) button.classList.add("playable");
      else {
        button.classList.add("dimmed");
        button.setAttribute("aria-disabled", "true");
      }
    } else {
      button.classList.add("idle");
    }
    if (index > 0 && suitOf(cards[index - 1]) !== suitOf(card)) button.classList.add("suit-start");
    if (app.hint?.kind === "card" && app.hint.card === card && playing) button.classList.add("suggested");
    if (view.phase === "passing" && view.passing?.your_turn) {
      button.classList.add("passable");
      if (app.hint?.kind === "pass" && app.hint.cards.includes(card)) button.classList.add("suggested");
      button.classList.toggle("to-pass", app.toPass.has(card));
      button.setAttribute("aria-pressed", String(app.toPass.has(card)));
    }
    if (view.received.includes(card)) button.classList.add("received");
    button.tabIndex = index === app.handFocus ? 0 : -1;
    button.append(cardFace(card));
    return button;
  });
  hand.replaceChildren(...handRows(buttons).map(fanRow));
  hand.classList.toggle("my-turn", playing);
  if (hadFocus && buttons.length) buttons[app.handFocus].focus({ preventScroll: true });
}

// On a narrow screen a hand of more than seven cards is laid out in two rows, so
// that every card keeps a strip wide enough to tap (44 px or more).
export const NARROW = window.matchMedia("(max-width: 640px)");

export const ROW_OF = 7;

export function handRows(cards) {
  if (!NARROW.matches || cards.length <= ROW_OF) return [cards];
  const first = Math.ceil(cards.length / 2);
  return [cards.slice(0, first), cards.slice(first)];
}

export function fanRow(cards) {
  const row = div("hand-row");
  const middle = (cards.length - 1) / 2;
  cards.forEach((button, index) => {
    button.style.setProperty("--tilt", `${(index - middle) * 1.6}deg`);
    button.style.setProperty("--drop", `${Math.abs(index - middle) ** 2 * 0.4}px`);
  });
  row.style.setProperty("--gaps", String(Math.max(1, cards.length - 1)));
  row.append(...cards);
  return row;
}

// After a deal (or any answer) that leaves the player to act, the keyboard's focus
// goes where the action is, unless the player has put it somewhere themselves: left
// on "New game" after the dialog closed, Enter would open it again. While blind Nil
// is open the safe choice takes it (Enter looks at the cards); during the bidding
// the panel (digits and N choose a bid, Tab reaches the buttons); during the play
// the card the arrows start from.
export function focusTheTurn(view) {
  if (!canAct(view) || document.querySelector("dialog[open]")) return;
  const focused = document.activeElement;
  const lost = !focused || focused === document.body || focused.closest(".topbar") || !focused.checkVisibility?.();
  if (!lost) return;
  if (view.phase === "bidding") {
    (blindChoicePending(view) ? $("look-button") : $("bidding")).focus({ preventScroll: true });
  } else if ((view.phase === "playing" || view.phase === "passing") && app.keyboard) {
    // Only for a player on the keyboard: a focused card is raised over its neighbours,
    // which a thumb would then tap instead.
    $("hand").querySelector('.card[tabindex="0"]')?.focus({ preventScroll: true });
  }
}
