// Drawing the table from a view: the teams, the seats, the centre, the trick,
// the status line. The hand and the bidding and passing panels are hand.js's.

import { cardBack, cardFace, cardName, cardShort, isRed } from "./cards.js";
import { $, div } from "./dom.js";
import { renderBidding, renderHand } from "./hand.js";
import { followRules } from "./rules.js";
import { SEAT_NAMES, SEATS } from "./seats.js";
import { app, blindChoicePending, canAct, seatOf, seatWord, spot, teamLabel, teamOf, you } from "./state.js";
import { bidText, plural } from "./words.js";

export function render(view) {
  app.view = view;
  document.body.classList.add("has-game");
  document.body.classList.toggle("is-busy", app.busy);
  renderTeams(view);
  for (const seat of SEATS) if (seat !== you()) renderSeat(view, seat);
  renderYourSeat(view);
  renderCenter(view);
  renderTrick(view);
  renderTrickResult(view);
  renderBidding(view);
  renderHand(view);
  renderStatus(view);
  // No hint while the cards are face down for blind Nil: it would read them.
  $("hint-button").disabled = !canAct(view) || blindChoicePending(view);
  app.tools?.render(view);
}

export function renderTeams(view) {
  for (const team of ["NS", "EW"]) {
    const info = teamOf(view, team);
    const box = $(`team-${team}`);
    // Each Nil as it was bid: "5+Blind Nil" is worth twice "5+Nil".
    const nils = info.nil_seats.map((seat) => bidText(seatOf(view, seat)?.bid ?? "nil"));
    const bid = info.bid === null ? (nils.length === 2 ? nils.join(", ") : "–") : [info.bid, ...nils].join("+");
    box.replaceChildren(
      div("team-name", teamLabel(team)),
      stat("Bid", bid, "bid"),
      stat("Won", String(info.tricks)),
      stat("Score", String(info.score), "score"),
      stat("Bags", String(info.bags)),
    );
    box.setAttribute(
      "aria-label",
      `${teamLabel(team)}: bid ${bid === "–" ? "not yet" : bid}, ${plural(info.tricks, "trick")} won, ` +
        `score ${info.score}, ${plural(info.bags, "bag")}`,
    );
    box.classList.toggle("leading", info.score > teamOf(view, team === "NS" ? "EW" : "NS").score);
  }
}

export function stat(label, value, extra = "") {
  const node = div(`stat ${extra}`);
  const shown = div("stat-value");
  // "12+Blind Nil" may break after a "+" where the header is short of room, never inside a bid.
  value.split("+").forEach((part, index) => {
    if (index) shown.append("+", document.createElement("wbr"));
    shown.append(part);
  });
  node.append(div("stat-label", label), shown);
  return node;
}

export function seatBadges(view, info) {
  const badges = div("badges");
  const bid = div("badge bid", info.bid === null ? (view.phase === "bidding" ? "Bid ?" : "–") : `Bid ${bidText(info.bid)}`);
  if (info.bid === "nil") bid.classList.add("nil");
  badges.append(bid, div("badge tricks", `Won ${info.tricks}`));
  return badges;
}

export function seatLabel(view, info) {
  const role = info.role === "partner" ? "your partner" : info.role === "opponent" ? "opponent" : "you";
  const parts = [
    `${info.name}, ${role}`,
    info.bid === null ? "no bid yet" : `bid ${bidText(info.bid)}`,
    `${plural(info.tricks, "trick")} won`,
  ];
  if (info.role !== "you") parts.push(plural(info.cards_left, "card"));
  if (info.dealer) parts.push("dealer");
  if (view.turn === info.seat && view.phase !== "over") parts.push(info.role === "you" ? "your turn" : "to play");
  return parts.join(", ");
}

export function renderSeat(view, seat) {
  const info = seatOf(view, seat);
  const box = $(`seat-${spot(seat)}`);
  const head = div("seat-head");
  const name = div("seat-name", info.name);
  const role = div("seat-role", info.role === "partner" ? `partner · ${info.player}` : `opponent · ${info.player}`);
  head.append(name);
  if (info.dealer) head.append(dealerChip());
  const backs = div("backs");
  const shown = Math.min(info.cards_left, 13);
  for (let i = 0; i < shown; i += 1) {
    const back = div("back-card");
    back.append(cardBack());
    backs.append(back);
  }
  backs.append(div("count", info.cards_left ? `${info.cards_left}` : ""));
  backs.style.setProperty("--n", String(shown));
  box.replaceChildren(head, role, seatBadges(view, info), backs);
  app.table?.decorate(box, seat);
  box.classList.toggle("to-act", view.turn === seat && view.phase !== "over");
  box.setAttribute("aria-label", seatLabel(view, info));
}

export function renderYourSeat(view) {
  const info = seatOf(view, you());
  const box = $("seat-S");
  const head = div("seat-head");
  head.append(div("seat-name", `You (${SEAT_NAMES[you()]})`));
  if (info.dealer) head.append(dealerChip());
  box.replaceChildren(head, seatBadges(view, info));
  app.table?.decorate(box, you());
  box.classList.toggle("to-act", view.turn === you() && view.phase !== "over");
  box.setAttribute("aria-label", seatLabel(view, info));
}

export function dealerChip() {
  const chip = div("dealer-chip", "D");
  chip.title = "Dealer";
  chip.setAttribute("aria-label", "dealer");
  return chip;
}

export function renderCenter(view) {
  $("hand-label").textContent = `Hand ${view.hand_number}`; // the rules pill beside it says the target
  const rules = $("rules-pill");
  rules.textContent = view.rules_summary;
  rules.title = `Rules: ${view.rules} (see Rules for what each means)`;
  followRules(view.rules); // How to play words this game's rules
  const pill = $("spades-broken");
  pill.classList.toggle("broken", view.spades_broken);
  pill.textContent = view.spades_broken ? "\u2660 Spades broken" : "\u2660 Spades not broken";
  renderDealPill(view);
}

// How the deals were chosen, always in view: the commitment of a fair game (shown
// from the first deal), or "practice" when the player chose the seed.
export function renderDealPill(view) {
  const pill = $("deal-pill");
  const fair = view.fairness;
  pill.hidden = !fair;
  if (!fair) return;
  pill.classList.toggle("practice", fair.practice);
  // In full on a wide screen, in a word on a phone (style.css shows one of the two).
  const long = fair.practice ? `Practice deal · seed ${fair.seed}` : `\u2713 Fair deal · ${fair.commitment.slice(0, 8)}`;
  const short = fair.practice ? "Practice" : "\u2713 Fair deal";
  pill.replaceChildren(span("pill-long", long), span("pill-short", short));
  pill.setAttribute("aria-label", long);
  pill.title = fair.practice
    ? "You chose the seed: anyone who knows it can work out every hand"
    : "The deals were fixed before the first card: see how to check them";
}

function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

export function renderTrick(view) {
  const plays = new Map(view.trick.cards.map((p) => [p.seat, p.card]));
  for (const seat of SEATS) {
    const slot = document.querySelector(`.slot-${spot(seat)}`);
    const card = plays.get(seat);
    if (!card) {
      slot.replaceChildren();
      continue;
    }
    const face = div("played");
    face.setAttribute("role", "img");
    face.setAttribute("aria-label", `${SEAT_NAMES[seat]}: ${cardName(card)}`);
    face.dataset.card = card;
    face.append(cardFace(card));
    face.classList.toggle("winner", view.trick.winner === seat);
    if (view.trick.cards.length && view.trick.cards[0].seat === seat) face.classList.add("lead");
    slot.replaceChildren(face);
  }
}

// Who took the trick and with which card, in words: while the winning card glows, and
// until the next trick's first card is played (a caption under a new card would seem to
// be about it). The line is a live region, so a screen reader says it once per trick
// (the text of a trick never changes, so it is not repeated).
export function renderTrickResult(view) {
  const line = $("trick-result");
  const between = view.phase === "playing" && !view.trick.cards.length;
  const trick = view.trick.winner ? view.trick : between ? view.last_trick : null;
  const key = trick?.winner ? trick.cards.map((p) => p.card).join(" ") : "";
  line.classList.toggle("fresh", Boolean(view.trick.winner));
  if (line.dataset.trick === key) return;
  line.dataset.trick = key;
  if (!key) {
    line.replaceChildren();
    return;
  }
  const card = trick.cards.find((p) => p.seat === trick.winner).card;
  const short = document.createElement("span");
  short.className = `card-short ${isRed(card) ? "red" : "black"}`;
  short.setAttribute("aria-hidden", "true");
  short.textContent = cardShort(card);
  const spoken = document.createElement("span");
  spoken.className = "sr-only";
  spoken.textContent = cardName(card);
  const who = seatWord(trick.winner);
  line.replaceChildren(`${who} won the trick with the `, short, spoken);
}

export function renderStatus(view) {
  let text;
  if (view.phase === "over") text = "Game over.";
  else if (view.turn === you() && view.your_turn && !app.busy) {
    text = {
      bidding: blindChoicePending(view) ? "Your turn: blind Nil, or look at your cards." : "Your turn: choose your bid.",
      passing: "Your turn: click the cards to pass, then Pass.",
    }[view.phase] ?? "Your turn: play a bright card.";
  } else if (view.turn) {
    text = `${SEAT_NAMES[view.turn]} to ${view.phase === "bidding" ? "bid" : "play"}…`;
  } else text = "";
  $("status").textContent = text;
}
