// The replay viewer: a game (one of yours, or a record file) stepped through
// card by card, trick by trick, hand by hand, with buttons and keys.
//
// It draws what the server sent: the server has already checked the record by
// re-playing it, and leaves out the cards of a hand still being played (a
// seat's deal is then null and drawn as card backs). The viewer only counts
// which dealt cards are still in each hand at the step shown. Moves taken back
// by an undo are not in a replay; a hand ended by a claim stops where the claim
// was made, and says so.

import { cardBack, cardFace, cardName, cardShort } from "./cards.js";
import { $, el } from "./dom.js";
import { SEAT_NAMES, SEATS, TEAM_LABELS } from "./seats.js";
import { bidText } from "./words.js";


/** "South claims all 3 tricks left: South 3." for a hand's ``claim``. */
function claimText(claim) {
  const { left, tricks } = claim;
  const what =
    tricks === left
      ? left === 1 ? "the last trick" : left === 2 ? "both tricks left" : `all ${left} tricks left`
      : `${tricks} of the ${left} tricks left`;
  const credited = SEATS.filter((seat) => claim.awarded[seat] > 0)
    .map((seat) => `${SEAT_NAMES[seat]} ${claim.awarded[seat]}`)
    .join(", ");
  return `${SEAT_NAMES[claim.seat]} claims ${what}; the claim holds and ends the hand (credited: ${credited}).`;
}

const viewer = {
  replay: null,
  hand: 0, // index into replay.hands
  step: 0, // cards of that hand shown played
  onReview: null, // (gameId, handNumber, container) => void, for your own games
};

/** Every card of a hand in play order, with who played it and the trick it belongs to. */
function playsOf(hand) {
  const plays = [];
  hand.tricks.forEach((trick, index) => {
    for (const played of trick.cards) plays.push({ ...played, trick: index });
  });
  return plays;
}

/** Open ``replay`` (the server's Replay) at the start of ``handNumber`` (default: the first). */
export function openReplay(replay, { title, handNumber, onReview } = {}) {
  viewer.replay = replay;
  viewer.onReview = onReview ?? null;
  viewer.hand = Math.max(0, Math.min(replay.hands.length - 1, (handNumber ?? 1) - 1));
  viewer.step = 0;
  $("replay-title").textContent = title ?? "Replay";
  $("replay-ending").textContent = replay.ending ?? (replay.finished ? "" : "Game in progress: the cards of a hand still being played stay hidden.");
  fillHandPicker();
  draw();
  const dialog = $("replay-dialog");
  if (!dialog.open) dialog.showModal();
  // The table, not the first control (the hand menu, whose own arrow keys
  // would change hands): from here the keys step through the game.
  $("rp-table").focus();
}

function fillHandPicker() {
  const picker = $("rp-hand-picker");
  picker.replaceChildren(
    ...viewer.replay.hands.map((hand, index) => {
      const option = el("option", "", `Hand ${hand.number}${hand.over ? "" : " (in progress)"}`);
      option.value = String(index);
      return option;
    }),
  );
}

// ---------------------------------------------------------------- stepping

const currentHand = () => viewer.replay.hands[viewer.hand];

function goTo(handIndex, step) {
  const hands = viewer.replay.hands;
  viewer.hand = Math.max(0, Math.min(hands.length - 1, handIndex));
  const total = playsOf(currentHand()).length;
  viewer.step = Math.max(0, Math.min(total, step));
  draw();
}

/** Step by one card (±1), one trick (±"trick"), or to either end of the hand. */
export function move(kind) {
  const hand = currentHand();
  const total = playsOf(hand).length;
  const step = viewer.step;
  switch (kind) {
    case "next-card":
      if (step < total) goTo(viewer.hand, step + 1);
      else if (viewer.hand < viewer.replay.hands.length - 1) goTo(viewer.hand + 1, 0);
      break;
    case "prev-card":
      if (step > 0) goTo(viewer.hand, step - 1);
      else if (viewer.hand > 0) goTo(viewer.hand - 1, Number.MAX_SAFE_INTEGER);
      break;
    case "next-trick":
      goTo(viewer.hand, Math.min(total, (Math.floor(step / 4) + 1) * 4));
      break;
    case "prev-trick":
      goTo(viewer.hand, step % 4 ? step - (step % 4) : step - 4);
      break;
    case "start":
      goTo(viewer.hand, 0);
      break;
    case "end":
      goTo(viewer.hand, total);
      break;
    case "next-hand":
      goTo(viewer.hand + 1, 0);
      break;
    case "prev-hand":
      goTo(viewer.hand - 1, 0);
      break;
    default:
      break;
  }
}

const KEYS = {
  ArrowRight: "next-card",
  ArrowLeft: "prev-card",
  ArrowDown: "next-trick",
  ArrowUp: "prev-trick",
  PageDown: "next-hand",
  PageUp: "prev-hand",
  Home: "start",
  End: "end",
};

function onKey(event) {
  if (event.target.closest?.("select, input, .review")) return;
  let kind = KEYS[event.key];
  if (event.shiftKey && event.key === "ArrowRight") kind = "next-trick";
  if (event.shiftKey && event.key === "ArrowLeft") kind = "prev-trick";
  if (!kind) return;
  event.preventDefault();
  move(kind);
}

// ----------------------------------------------------------------- drawing

function draw() {
  const hand = currentHand();
  const plays = playsOf(hand);
  const shown = plays.slice(0, viewer.step);
  const playedBy = { N: new Set(), E: new Set(), S: new Set(), W: new Set() };
  for (const play of shown) playedBy[play.seat].add(play.card);
  const finishedTricks = Math.floor(viewer.step / 4);
  const won = { N: 0, E: 0, S: 0, W: 0 };
  hand.tricks.slice(0, finishedTricks).forEach((trick) => {
    if (trick.winner) won[trick.winner] += 1;
  });
  for (const seat of SEATS) drawSeat(hand, seat, playedBy[seat], won[seat]);
  drawTrick(hand, shown);
  drawWhere(hand, plays);
  drawResult(hand, plays);
  $("rp-hand-picker").value = String(viewer.hand);
  const last = viewer.replay.hands.length - 1;
  $("rp-prev-hand").disabled = viewer.hand === 0;
  $("rp-next-hand").disabled = viewer.hand === last;
  $("rp-start").disabled = $("rp-prev-trick").disabled = viewer.step === 0;
  $("rp-prev-card").disabled = viewer.step === 0 && viewer.hand === 0;
  $("rp-end").disabled = $("rp-next-trick").disabled = viewer.step === plays.length;
  $("rp-next-card").disabled = viewer.step === plays.length && viewer.hand === last;
}

// The cards a seat held when the play began: as dealt, after any Nil pass (given
// away, and received from the partner). null when the seat's cards are hidden.
function heldAtPlay(hand, seat) {
  const dealt = hand.deal[seat];
  if (dealt === null) return null;
  let held = [...dealt];
  for (const pass of hand.passes ?? []) {
    if (pass.cards === null) continue;
    if (pass.seat === seat) held = held.filter((card) => !pass.cards.includes(card));
    if (pass.to === seat) held = [...held, ...pass.cards];
  }
  const order = "SHCD";
  const rank = "23456789TJQKA";
  return held.sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]) || rank.indexOf(b[0]) - rank.indexOf(a[0]));
}

function drawSeat(hand, seat, played, tricksWon) {
  const box = $(`rp-${seat}`);
  const bid = hand.bids.find((b) => b.seat === seat);
  const head = el("div", "rp-seat-head");
  head.append(el("span", "rp-seat-name", SEAT_NAMES[seat]));
  if (hand.dealer === seat) head.append(el("span", "dealer-chip", "D"));
  const player = viewer.replay.players[seat];
  if (player) head.append(el("span", "rp-player", player === "human" ? "you" : player));
  const facts = el("div", "rp-facts", `${bid ? `Bid ${bidText(bid.bid)}` : "No bid"} · Won ${tricksWon}`);
  const cards = el("div", "rp-cards");
  const dealt = heldAtPlay(hand, seat);
  if (dealt === null) {
    const left = 13 - played.size;
    for (let i = 0; i < left; i += 1) {
      const back = el("span", "rp-card back");
      back.append(cardBack());
      cards.append(back);
    }
    cards.setAttribute("aria-label", `${SEAT_NAMES[seat]}: ${left} hidden cards`);
  } else {
    const left = dealt.filter((card) => !played.has(card));
    for (const card of left) {
      const face = el("span", "rp-card");
      face.dataset.card = card;
      face.append(cardFace(card));
      cards.append(face);
    }
    cards.setAttribute("aria-label", `${SEAT_NAMES[seat]} holds ${left.length ? left.map(cardShort).join(" ") : "no cards"}`);
  }
  cards.setAttribute("role", "img");
  box.replaceChildren(head, facts, cards);
}

function drawTrick(hand, shown) {
  const slots = Object.fromEntries(SEATS.map((seat) => [seat, document.querySelector(`#rp-trick .slot-${seat}`)]));
  for (const slot of Object.values(slots)) slot.replaceChildren();
  if (!shown.length) return;
  const trickIndex = shown.at(-1).trick;
  const trick = hand.tricks[trickIndex];
  const inTrick = shown.filter((p) => p.trick === trickIndex);
  const complete = inTrick.length === trick.cards.length && trick.winner !== null;
  for (const play of inTrick) {
    const face = el("div", "played");
    face.dataset.card = play.card;
    face.setAttribute("role", "img");
    face.setAttribute("aria-label", `${SEAT_NAMES[play.seat]}: ${cardName(play.card)}`);
    face.append(cardFace(play.card));
    if (complete && play.seat === trick.winner) face.classList.add("winner");
    slots[play.seat].append(face);
  }
}

function drawWhere(hand, plays) {
  const total = plays.length;
  let text;
  if (viewer.step === 0) {
    const bids = hand.bids.map((b) => `${SEAT_NAMES[b.seat]} ${bidText(b.bid)}`).join(", ");
    text = `Hand ${hand.number}, ${SEAT_NAMES[hand.dealer]} deals. Bids: ${bids || "none yet"}.`;
  } else {
    const last = plays[viewer.step - 1];
    const trick = hand.tricks[last.trick];
    const position = viewer.step - last.trick * 4;
    text = `Hand ${hand.number}, trick ${last.trick + 1}: ${SEAT_NAMES[last.seat]} plays the ${cardName(last.card)}.`;
    if (position === 4 && trick.winner) {
      const winning = trick.cards.find((c) => c.seat === trick.winner);
      text += ` ${SEAT_NAMES[trick.winner]} wins the trick with the ${cardName(winning.card)}.`;
    }
  }
  if (viewer.step === total && hand.claim) text += ` ${claimText(hand.claim)}`;
  else if (viewer.step === total && total > 0) text += hand.over ? " End of the hand." : " (The hand goes on from here.)";
  $("replay-where").textContent = text;
  $("rp-step").textContent = `Card ${viewer.step} of ${total}`;
}

function drawResult(hand, plays) {
  const box = $("replay-result");
  const atEnd = viewer.step === plays.length;
  if (!atEnd || !hand.result) {
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const parts = hand.result.teams.map((team) => {
    const block = el("div", `rp-team team-${team.team}`);
    block.append(el("strong", "", TEAM_LABELS[team.team]));
    const list = el("ul");
    for (const line of team.summary) list.append(el("li", "", line));
    block.append(list, el("div", "rp-total", `This hand ${team.delta >= 0 ? "+" : ""}${team.delta} · total ${team.total}`));
    return block;
  });
  box.replaceChildren(...parts);
  if (hand.result.notes?.length) {
    const notes = el("ul", "rp-notes");
    for (const note of hand.result.notes) notes.append(el("li", "", note));
    box.append(notes);
  }
  if (viewer.onReview && viewer.replay.game_id && hand.over) {
    const button = el("button", "secondary", "Review this hand");
    button.type = "button";
    const container = el("section", "review");
    container.setAttribute("aria-label", `Review of hand ${hand.number}`);
    button.addEventListener("click", () => {
      button.remove();
      viewer.onReview(viewer.replay.game_id, hand.number, container);
    });
    box.append(button, container);
  }
}

// ------------------------------------------------------------------ wiring

export function wireReplay() {
  const dialog = $("replay-dialog");
  dialog.addEventListener("keydown", onKey);
  for (const button of dialog.querySelectorAll("[data-move]")) {
    button.addEventListener("click", () => move(button.dataset.move));
  }
  $("rp-hand-picker").addEventListener("change", (event) => goTo(Number(event.target.value), 0));
}
