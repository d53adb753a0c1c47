// The card table. The server decides everything: this page sends intents (a new
// game, a bid, a card, a hint) and draws the view it gets back, animating the
// public events that led to it. It never holds another seat's cards: the server
// never sends them.

import { cardBack, cardFace, cardName, cardShort, suitOf } from "./cards.js";
import { openRecords, replayGame, wireRecords } from "./records.js";
import { wireReplay } from "./replay.js";
import { showReview } from "./review.js";
import { playSound, setSoundEnabled } from "./sound.js";
import { statisticsView } from "./stats.js";
import { createTableTools } from "./table-tools.js";
import { createTable, createTableClient, tableIdInAddress } from "./table.js";

const SEATS = ["N", "E", "S", "W"];
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const TEAM_OF = { N: "NS", S: "NS", E: "EW", W: "EW" };
const PARTNER = { N: "S", S: "N", E: "W", W: "E" };
const SPEEDS = { slow: 1.8, normal: 1, fast: 0.4, instant: 0 };
const PREFS_KEY = "spades.preferences";

const $ = (id) => document.getElementById(id);
const nextSeat = (seat) => SEATS[(SEATS.indexOf(seat) + 1) % 4];
// The seat this page plays: South against bots; at a table with friends, the seat taken.
const you = () => app.state?.you ?? app.view?.you ?? "S";
// Where a seat is drawn: you at the bottom, then clockwise left, top, right. The table's
// boxes are named for the places of a South player (seat-W is the left-hand box).
const spot = (seat) => SEATS[(SEATS.indexOf(seat) - SEATS.indexOf(you()) + 6) % 4];
const seatWord = (seat) => (seat === you() ? "You" : SEAT_NAMES[seat]);
function teamLabel(team) {
  const [a, b] = team === "NS" ? ["N", "S"] : ["W", "E"];
  if (TEAM_OF[you()] !== team) return `${SEAT_NAMES[a]} & ${SEAT_NAMES[b]}`;
  return `You & ${SEAT_NAMES[PARTNER[you()]]}`;
}
const bidText = (bid) => (bid === "nil" ? "Nil" : bid === "blind_nil" ? "Blind Nil" : String(bid));
const isNil = (bid) => bid === "nil" || bid === "blind_nil";
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

const app = {
  state: null, // the last view the server sent
  view: null, // what is drawn: the state, or an earlier point while events animate
  busy: false,
  levels: null,
  prefs: loadPrefs(),
  hint: null,
  handFocus: 0,
  bidFocus: 0,
  toPass: new Set(),
  looked: null,
  digits: "",
  digitTimer: 0,
  tools: null, // last trick, undo and claim (table-tools.js)
  table: null, // a table with friends (table.js), when the address names one
};

// ------------------------------------------------------------------ preferences

function loadPrefs() {
  const defaults = { partner: null, opponents: null, west: null, east: null, undo: true, speed: "normal", theme: "felt", sound: false };
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) defaults.speed = "fast";
  try {
    const saved = JSON.parse(localStorage.getItem(PREFS_KEY) ?? "{}");
    const prefs = { ...defaults, ...saved };
    const fromUrl = new URLSearchParams(location.search).get("speed");
    if (fromUrl in SPEEDS) prefs.speed = fromUrl;
    return prefs;
  } catch {
    return defaults;
  }
}

function savePrefs() {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(app.prefs));
  } catch {
    // private browsing: preferences last for this visit only
  }
}

const pace = () => SPEEDS[app.prefs.speed] ?? 1;

// The player asked the system for less motion: cards then appear in place, nothing flies.
const REDUCED_MOTION = window.matchMedia?.("(prefers-reduced-motion: reduce)");
const motionAllowed = () => !REDUCED_MOTION?.matches;

function applyTheme() {
  document.documentElement.dataset.theme = app.prefs.theme === "light" ? "light" : "felt";
  document.querySelector('meta[name="theme-color"]')?.setAttribute("content", app.prefs.theme === "light" ? "#efe9dc" : "#0f4d32");
}

function wait(ms) {
  const scaled = ms * pace();
  return scaled > 0 ? new Promise((resolve) => setTimeout(resolve, scaled)) : Promise.resolve();
}

async function animate(element, keyframes, ms, easing = "cubic-bezier(.2,.7,.3,1)") {
  const duration = ms * pace();
  if (!element || duration <= 0 || !element.animate || !motionAllowed()) return;
  try {
    await element.animate(keyframes, { duration, easing, fill: "none" }).finished;
  } catch {
    // an animation cut short by a redraw
  }
}

// ------------------------------------------------------------------------- API

class ApiError extends Error {
  constructor(message, status, rule) {
    super(message);
    this.status = status;
    this.rule = rule;
  }
}

async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("The game server cannot be reached. Is it still running?", 0, "network");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(data?.detail ?? `The server answered ${response.status}.`, response.status, data?.rule);
  }
  return data;
}

// ----------------------------------------------------------------- announcing

function announce(text) {
  const region = $("announcer");
  const line = document.createElement("p");
  line.textContent = text;
  region.append(line);
  while (region.childElementCount > 6) region.firstElementChild.remove();
}

function showMessage(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
}

function clearMessage() {
  showMessage("", "error");
}

// ------------------------------------------------------------------ drawing

function render(view) {
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

const canAct = (view) => Boolean(view && view.your_turn && !app.busy && view.phase !== "over");

function teamOf(view, team) {
  return view.teams.find((t) => t.team === team);
}

function seatOf(view, seat) {
  return view.seats.find((s) => s.seat === seat);
}

function renderTeams(view) {
  for (const team of ["NS", "EW"]) {
    const info = teamOf(view, team);
    const box = $(`team-${team}`);
    const bid =
      info.bid === null
        ? info.nil_seats.length === 2 ? "Nil, Nil" : "–"
        : `${info.bid}${info.nil_seats.length ? "+Nil" : ""}`;
    box.replaceChildren(
      div("team-name", teamLabel(team)),
      stat("Bid", bid),
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

function div(className, text) {
  const node = document.createElement("div");
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function stat(label, value, extra = "") {
  const node = div(`stat ${extra}`);
  node.append(div("stat-label", label), div("stat-value", value));
  return node;
}

function seatBadges(view, info) {
  const badges = div("badges");
  const bid = div("badge bid", info.bid === null ? (view.phase === "bidding" ? "Bid ?" : "–") : `Bid ${bidText(info.bid)}`);
  if (info.bid === "nil") bid.classList.add("nil");
  badges.append(bid, div("badge tricks", `Won ${info.tricks}`));
  return badges;
}

function seatLabel(view, info) {
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

function renderSeat(view, seat) {
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

function renderYourSeat(view) {
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

function dealerChip() {
  const chip = div("dealer-chip", "D");
  chip.title = "Dealer";
  chip.setAttribute("aria-label", "dealer");
  return chip;
}

function renderCenter(view) {
  $("hand-label").textContent = `Hand ${view.hand_number} · first to ${view.target}`;
  const rules = $("rules-pill");
  rules.textContent = view.rules_summary;
  rules.title = `Rules: ${view.rules} (see Rules for what each means)`;
  for (const node of document.querySelectorAll(".target-value")) node.textContent = String(view.target);
  for (const node of document.querySelectorAll(".floor-value")) node.textContent = `\u2212${Math.abs(view.floor ?? 0)}`;
  for (const node of document.querySelectorAll(".floor-rule")) node.hidden = view.floor === null;
  const pill = $("spades-broken");
  pill.classList.toggle("broken", view.spades_broken);
  pill.textContent = view.spades_broken ? "\u2660 Spades broken" : "\u2660 Spades not broken";
  renderDealPill(view);
}

// How the deals were chosen, always in view: the commitment of a fair game (shown
// from the first deal), or "practice" when the player chose the seed.
function renderDealPill(view) {
  const pill = $("deal-pill");
  const fair = view.fairness;
  pill.hidden = !fair;
  if (!fair) return;
  pill.classList.toggle("practice", fair.practice);
  pill.textContent = fair.practice
    ? `Practice deal · seed ${fair.seed}`
    : `\u2713 Fair deal · ${fair.commitment.slice(0, 8)}`;
  pill.title = fair.practice
    ? "You chose the seed: anyone who knows it can work out every hand"
    : "The deals were fixed before the first card: see how to check them";
}

function renderTrick(view) {
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
// until the next trick is taken. The line is a live region, so a screen reader says it
// once per trick (the text of a trick never changes, so it is not repeated).
function renderTrickResult(view) {
  const line = $("trick-result");
  const trick = view.trick.winner ? view.trick : view.phase === "playing" ? view.last_trick : null;
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
  short.className = `card-short ${"HD".includes(suitOf(card)) ? "red" : "black"}`;
  short.setAttribute("aria-hidden", "true");
  short.textContent = cardShort(card);
  const spoken = document.createElement("span");
  spoken.className = "sr-only";
  spoken.textContent = cardName(card);
  const who = seatWord(trick.winner);
  line.replaceChildren(`${who} won the trick with the `, short, spoken);
}

function biddingOrder(view) {
  const order = [];
  let seat = nextSeat(view.dealer);
  for (let i = 0; i < 4; i += 1) {
    order.push(seat);
    seat = nextSeat(seat);
  }
  return order;
}

// Blind Nil is bid before looking at the cards: while it is open to South the hand
// stays face down until South bids it or chooses to look.
const lookKey = (view) => `${view.id}:${view.hand_number}`;
const blindChoicePending = (view) => Boolean(view?.blind_nil && canAct(view) && app.looked !== lookKey(view));

function renderBidding(view) {
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

function renderPassing(view) {
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

function toggleToPass(card) {
  const turn = app.view?.passing;
  if (!turn?.your_turn || !canAct(app.view)) return;
  if (app.toPass.has(card)) app.toPass.delete(card);
  else if (app.toPass.size < turn.count) app.toPass.add(card);
  else {
    showMessage(`Pass ${plural(turn.count, "card")}: click a chosen card to put it back first.`, "error");
    return;
  }
  render(app.view);
}

function passCards() {
  const view = app.view;
  if (!canAct(view) || view.phase !== "passing" || app.toPass.size !== view.passing?.count) return;
  const cards = [...app.toPass];
  app.toPass = new Set();
  if (app.table) app.table.send("pass", { cards });
  else perform(() => api("POST", `/api/games/${view.id}/pass`, { cards }));
}

function renderHand(view) {
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
const NARROW = window.matchMedia("(max-width: 640px)");
const ROW_OF = 7;

function handRows(cards) {
  if (!NARROW.matches || cards.length <= ROW_OF) return [cards];
  const first = Math.ceil(cards.length / 2);
  return [cards.slice(0, first), cards.slice(first)];
}

function fanRow(cards) {
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

function renderStatus(view) {
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

// ------------------------------------------------------------------ animation

function seatAnchor(seat) {
  const target = $(`seat-${spot(seat)}`);
  return target.getBoundingClientRect();
}

function centerOf(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

async function flyIn(seat, card, fromRect) {
  const slot = document.querySelector(`.slot-${spot(seat)} .played`);
  const mine = seat === you();
  if (!slot) return;
  const to = centerOf(slot.getBoundingClientRect());
  const from = centerOf(fromRect ?? seatAnchor(seat));
  const dx = from.x - to.x;
  const dy = from.y - to.y;
  await animate(
    slot,
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${mine ? 1 : 0.55}) rotate(${mine ? 0 : 12}deg)`, opacity: mine ? 1 : 0.3 },
      { transform: "translate(0, 0) scale(1) rotate(0)", opacity: 1 },
    ],
    380,
  );
}

async function collectTrick(winner) {
  const to = centerOf(seatAnchor(winner));
  const cards = [...document.querySelectorAll(".trick .played")];
  await Promise.all(
    cards.map((card) => {
      const from = centerOf(card.getBoundingClientRect());
      return animate(
        card,
        [
          { transform: "translate(0, 0) scale(1)", opacity: 1 },
          { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) scale(0.35)`, opacity: 0 },
        ],
        420,
        "ease-in",
      );
    }),
  );
  for (const card of cards) card.remove();
}

function pulse(element) {
  animate(element, [{ transform: "scale(1.25)" }, { transform: "scale(1)" }], 320);
}

// The table after an event, as the server wrote it on the event: the page never
// works out phases, turns, trick counts, contracts, spades broken or scores for itself.
function takeAfter(view, event) {
  const after = event.after;
  if (!after) return;
  view.phase = after.phase;
  view.turn = after.turn;
  view.your_turn = false; // until the last event has played: the final state says whose turn it is
  view.tricks_played = after.tricks_played;
  view.spades_broken = after.spades_broken;
  for (const team of view.teams) {
    Object.assign(team, after.teams[team.team]);
    team.score = after.scores[team.team];
    team.bags = after.bags[team.team];
  }
}

function freshHand(previous, event, final) {
  const base = final.hand_number === event.hand ? final : previous;
  const view = structuredClone(base);
  view.hand_number = event.hand;
  view.dealer = event.dealer;
  view.your_turn = false;
  view.legal_bids = [];
  view.legal_cards = [];
  view.trick = { leader: nextSeat(event.dealer), cards: [], winner: null };
  view.last_trick = null;
  view.tricks_played = 0;
  view.game_over = null;
  view.hand = final.hand_number === event.hand ? [...final.hand] : [];
  for (const seat of view.seats) {
    seat.bid = null;
    seat.tricks = 0;
    seat.cards_left = 13;
    seat.dealer = seat.seat === event.dealer;
  }
  if (previous) view.score_sheet = previous.score_sheet;
  takeAfter(view, event);
  return view;
}

async function playEvents(events, final) {
  let view = app.view ? structuredClone(app.view) : null;
  for (const event of events) {
    switch (event.type) {
      case "hand_dealt": {
        view = freshHand(view, event, final);
        render(view);
        announce(`Hand ${event.hand}. ${SEAT_NAMES[event.dealer]} deals.`);
        await animate($("hand"), [{ opacity: 0, transform: "translateY(40px)" }, { opacity: 1, transform: "none" }], 450);
        break;
      }
      case "bid_made": {
        seatOf(view, event.seat).bid = event.bid;
        takeAfter(view, event);
        render(view);
        pulse(document.querySelector(`#seat-${spot(event.seat)} .badge.bid`));
        playSound("bid");
        announce(`${event.seat === you() ? "You bid" : `${SEAT_NAMES[event.seat]} bids`} ${bidText(event.bid)}.`);
        await wait(event.seat === you() ? 150 : 650);
        break;
      }
      case "cards_passed": {
        takeAfter(view, event);
        view.passing = null;
        render(view);
        pulse(document.querySelector(`#seat-${spot(event.seat)} .badge.bid`));
        playSound("card");
        const who = event.seat === you() ? "You pass" : `${SEAT_NAMES[event.seat]} passes`;
        const whom = event.to === you() ? "you" : SEAT_NAMES[event.to];
        announce(`${who} ${plural(event.count, "card")} to ${whom}.`);
        await wait(event.seat === you() ? 150 : 650);
        break;
      }
      case "card_played": {
        let fromRect = null;
        if (event.seat === you()) {
          const button = document.querySelector(`#hand .card[data-card="${event.card}"]`);
          fromRect = button?.getBoundingClientRect() ?? null;
          view.hand = view.hand.filter((c) => c !== event.card);
        } else {
          seatOf(view, event.seat).cards_left -= 1;
        }
        if (!view.trick.cards.length) view.trick = { leader: event.seat, cards: [], winner: null };
        view.trick.cards.push({ seat: event.seat, card: event.card });
        const breaks = Boolean(event.after?.spades_broken) && !view.spades_broken;
        takeAfter(view, event);
        view.legal_cards = [];
        view.your_turn = false;
        render(view);
        playSound("card");
        announce(`${event.seat === you() ? "You play" : `${SEAT_NAMES[event.seat]} plays`} the ${cardName(event.card)}.`);
        await flyIn(event.seat, event.card, fromRect);
        if (breaks) {
          announce("Spades are broken.");
          pulse($("spades-broken"));
        }
        await wait(event.seat === you() ? 120 : 420);
        break;
      }
      case "trick_won": {
        view.trick.winner = event.seat;
        render(view);
        playSound("trick");
        await wait(900); // the trick-result line says who won it, with which card
        await collectTrick(event.seat);
        seatOf(view, event.seat).tricks += 1;
        view.last_trick = { ...view.trick };
        view.trick = { leader: event.seat, cards: [], winner: null };
        takeAfter(view, event);
        render(view);
        pulse(document.querySelector(`#seat-${spot(event.seat)} .badge.tricks`));
        break;
      }
      case "claim": {
        // The claim held: the tricks left are credited at once, the table cleared.
        for (const seat of view.seats) seat.tricks += event.awarded[seat.seat] ?? 0;
        view.trick = { leader: view.trick.leader, cards: [], winner: null };
        takeAfter(view, event);
        view.your_turn = false;
        render(view);
        const all = { 1: "the last trick", 2: "both tricks left" }[event.left] ?? `all ${event.left} tricks left`;
        const taken = event.tricks === event.left ? all : `${event.tricks} of the ${event.left} tricks left`;
        announce(`Claim accepted: you and North take ${taken}.`);
        await wait(700);
        break;
      }
      case "hand_over": {
        takeAfter(view, event);
        view.score_sheet = final.score_sheet.filter((h) => h.hand <= event.hand);
        render(view);
        const finalHand = final.game_over !== null && final.score_sheet.at(-1)?.hand === event.hand;
        await showSummary(final.score_sheet.find((h) => h.hand === event.hand), finalHand, final.id);
        break;
      }
      default:
        break; // game_over: shown once every event has played
    }
  }
}

// ------------------------------------------------------------------- dialogs

function openDialog(id) {
  const dialog = $(id);
  if (!dialog.open) dialog.showModal();
  return dialog;
}

function summaryTeam(result) {
  const block = div(`summary-team team-${result.team}`);
  const heading = document.createElement("h3");
  heading.textContent = teamLabel(result.team);
  block.append(heading);
  const list = document.createElement("ul");
  for (const line of result.summary) {
    const item = document.createElement("li");
    item.textContent = line;
    if (/set|failed|penalty/i.test(line)) item.className = "bad";
    else if (/made/i.test(line)) item.className = "good";
    list.append(item);
  }
  block.append(list);
  block.append(
    div("summary-total", `This hand ${result.delta >= 0 ? "+" : ""}${result.delta} · total ${result.total} · ${plural(result.bags, "bag")}`),
  );
  return block;
}

function showSummary(hand, finalHand, gameId) {
  if (!hand) return Promise.resolve();
  $("summary-title").textContent = `Hand ${hand.hand} is over`;
  $("summary-body").replaceChildren(...hand.teams.map(summaryTeam));
  if (hand.notes?.length) {
    const notes = document.createElement("ul");
    notes.className = "summary-notes";
    for (const note of hand.notes) notes.append(Object.assign(document.createElement("li"), { textContent: note }));
    $("summary-body").append(notes);
  }
  const ours = hand.teams.find((t) => t.team === "NS");
  playSound(ours.made === false || ours.nils.some((n) => !n.made) ? "set" : "made");
  // The review is computed on the server in the background: shown here when it comes.
  const review = document.createElement("section");
  review.id = "summary-review";
  review.setAttribute("aria-label", `Review of hand ${hand.hand}`);
  review.setAttribute("aria-live", "polite");
  $("summary-review").replaceWith(review);
  // Between friends the summary has no review: it would judge the others' play.
  if (!app.table) showReview(getReview, gameId, hand.hand, review);
  $("summary-replay").onclick = () => replayGame(gameId, hand.hand);
  const button = $("summary-continue");
  button.textContent = finalHand ? "See the result" : "Next hand";
  const dialog = openDialog("summary-dialog");
  announce(
    `Hand ${hand.hand} scored. ` +
      hand.teams.map((t) => `${teamLabel(t.team)} ${t.delta >= 0 ? "plus" : "minus"} ${Math.abs(t.delta)}, total ${t.total}.`).join(" "),
  );
  button.focus();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(), { once: true });
  });
}

function showGameOver(view) {
  const over = view.game_over;
  const us = over.totals.NS;
  const them = over.totals.EW;
  const [mine, theirs] = TEAM_OF[you()] === "NS" ? [us, them] : [them, us];
  const others = teamLabel(TEAM_OF[you()] === "NS" ? "EW" : "NS").replace("&", "and");
  $("gameover-title").textContent = over.you_won ? "You win!" : `${others} win`;
  $("gameover-body").textContent = over.you_won
    ? `${teamLabel(TEAM_OF[you()]).replace("&", "and")} win, ${mine} to ${theirs}. ${over.reason}.`
    : `${others} win, ${theirs} to ${mine}. ${over.reason}.`;
  $("gameover-fair").hidden = !view.fairness || view.fairness.practice;
  openDialog("gameover-dialog");
  announce($("gameover-body").textContent);
  $("gameover-new").focus();
}

const SHEET_COLUMNS = ["Hand", "Team", "Bids", "Tricks", "Result", "Points", "Bags", "Total"];

function renderSheet(view) {
  const body = $("sheet-body");
  if (!view.score_sheet.length) {
    body.replaceChildren(div("empty", "No hand has been scored yet."));
    return;
  }
  const table = document.createElement("table");
  table.className = "sheet";
  const caption = document.createElement("caption");
  // The totals now, here rather than in a footer row: a footer cell as wide as both
  // totals once pushed the Total column out of the box.
  caption.textContent =
    "Every hand's bids, tricks, points and bags. Now: " +
    view.teams.map((t) => `${teamLabel(t.team)} ${t.score}`).join(", ") +
    ".";
  table.append(caption);
  const head = table.createTHead().insertRow();
  for (const title of SHEET_COLUMNS) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = title;
    head.append(th);
  }
  const tbody = table.createTBody();
  for (const hand of view.score_sheet) {
    hand.teams.forEach((result, index) => {
      const row = tbody.insertRow();
      row.className = `team-${result.team}${index === 1 ? " hand-end" : ""}`;
      const cells = [
        index === 0 ? String(hand.hand) : "",
        teamLabel(result.team),
        Object.entries(result.bids).map(([s, b]) => `${s} ${bidText(b)}`).join(", "),
        `${Object.values(result.tricks).reduce((a, b) => a + b, 0)} (${Object.entries(result.tricks).map(([s, t]) => `${s} ${t}`).join(", ")})`,
        result.summary.join("; "),
        `${result.delta >= 0 ? "+" : ""}${result.delta}`,
        `${result.bags}${result.bags_taken ? ` (+${result.bags_taken})` : ""}`,
        String(result.total),
      ];
      cells.forEach((text, column) => {
        const cell = column === 0 && text ? document.createElement("th") : row.insertCell();
        if (column === 0 && text) {
          cell.scope = "row";
          row.append(cell);
        }
        cell.textContent = text;
        // On a phone each row is laid out as a small card, its cells labelled (style.css).
        cell.dataset.label = SHEET_COLUMNS[column];
        cell.classList.add(`col-${SHEET_COLUMNS[column].toLowerCase()}`);
        if (column >= 5) cell.classList.add("num");
        if (column === 5) cell.classList.add(result.delta >= 0 ? "good" : "bad");
      });
    });
  }
  body.replaceChildren(table);
}

function paragraph(text) {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}

// A value to read or copy exactly: the commitment, the command.
function exact(text, id) {
  const box = div("exact");
  const code = document.createElement("code");
  code.id = id;
  code.textContent = text;
  box.append(code);
  if (navigator.clipboard) {
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "secondary copy";
    copy.textContent = "Copy";
    copy.setAttribute("aria-label", `Copy ${id === "fair-verify" ? "the command" : "the commitment"}`);
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(text);
        copy.textContent = "Copied";
      } catch {
        copy.textContent = "Select it to copy";
      }
    });
    box.append(copy);
  }
  return box;
}

function renderFairness(view) {
  const fair = view.fairness;
  const parts = [];
  if (fair.practice) {
    $("fair-title").textContent = "A practice deal";
    parts.push(
      paragraph(
        `You chose this game's seed (${fair.seed}), so its deals are no secret: anyone who knows ` +
          "the seed can work out every hand. That is why the game is marked as practice.",
      ),
      paragraph(
        "For a fair game, start a new game without a seed in the address: the server then deals " +
          "from a secret seed and shows you its fingerprint before the first card.",
      ),
    );
  } else {
    $("fair-title").textContent = "Fair deals";
    parts.push(
      paragraph(
        "Before the first card, the server fixed every deal of this game with a secret seed and " +
          "showed you this fingerprint of it (the SHA-256 of the seed and a random salt):",
      ),
      exact(fair.commitment, "fair-commitment"),
    );
    if (fair.seed === null) {
      parts.push(
        paragraph(
          "It stays the same all game. When the game is over the seed is revealed here, and you " +
            "can check that every hand was dealt from it: no deal can be changed once the game has begun.",
        ),
      );
    } else {
      const link = document.createElement("a");
      link.href = fair.record;
      link.download = fair.record_file;
      link.id = "fair-record";
      link.textContent = `Download the record (${fair.record_file})`;
      const download = document.createElement("p");
      download.append(link);
      parts.push(
        paragraph(`The game is over. The seed was ${fair.seed}, with the salt ${fair.salt}.`),
        download,
        paragraph("Then check every deal with the spades command:"),
        exact(fair.verify, "fair-verify"),
        paragraph(
          'It checks that the SHA-256 of "seed:salt" is the fingerprint above, deals every hand ' +
            "again from the seed and compares it with the record, whose hands for you are the ones you played.",
        ),
      );
    }
  }
  $("fair-body").replaceChildren(...parts);
}

function openFairness() {
  if (!app.view?.fairness) return;
  renderFairness(app.view);
  openDialog("fair-dialog");
}

function openWelcome(canGoBack, mode = "solo") {
  setWelcomeMode(mode);
  $("welcome-title").textContent = canGoBack ? "New game and settings" : "Spades";
  $("cancel-new-game").hidden = !canGoBack;
  $("start-game").textContent = canGoBack ? "Deal a new game" : "Deal";
  fillLevels();
  fillRules();
  $("undo-setting").checked = app.prefs.undo !== false;
  $("speed-select").value = app.prefs.speed;
  $("theme-select").value = app.prefs.theme;
  $("sound-toggle").checked = Boolean(app.prefs.sound);
  openDialog("welcome-dialog");
  $("start-game").focus();
}

function fillLevels() {
  if (!app.levels) return;
  const seats = [["partner-level", "partner"], ["west-level", "west"], ["east-level", "east"]];
  for (const [id, key] of seats) {
    const select = $(id);
    const about = $(`${id}-about`);
    if (!select.childElementCount) {
      for (const level of app.levels.levels) {
        const option = document.createElement("option");
        option.value = level;
        const name = level[0].toUpperCase() + level.slice(1);
        option.textContent = level === app.levels.default ? `${name} (default)` : name;
        select.append(option);
      }
      select.addEventListener("change", () => describeLevel(select, about));
    }
    // A seat's own choice, else the older both-opponents choice, else this game's, else the default.
    const both = key === "partner" ? null : app.prefs.opponents;
    const wanted = app.prefs[key] ?? both ?? app.state?.settings?.[key] ?? app.levels.default;
    select.value = app.levels.levels.includes(wanted) ? wanted : app.levels.default;
    describeLevel(select, about);
  }
}

// The rules: a preset, then house rules written as the command line writes them
// (target=300, blind_nil=on). The server reads them as they are typed and says what
// they mean, or what is wrong, before a game is dealt under them.
function fillRules() {
  if (!app.ruleSets) return;
  const select = $("rules-preset");
  if (!select.childElementCount) {
    for (const preset of app.ruleSets.presets) {
      const option = document.createElement("option");
      option.value = preset.name;
      option.textContent = preset.name === app.ruleSets.default ? `${preset.name} (default)` : preset.name;
      select.append(option);
    }
    select.addEventListener("change", checkRules);
    $("rules-changes").addEventListener("input", () => {
      clearTimeout(app.rulesTimer);
      app.rulesTimer = setTimeout(checkRules, 250);
    });
  }
  const names = app.ruleSets.presets.map((p) => p.name);
  select.value = names.includes(app.prefs.rulesPreset) ? app.prefs.rulesPreset : app.ruleSets.default;
  $("rules-changes").value = app.prefs.rulesChanges ?? "";
  checkRules();
}

// ---------------------------------------------------------- play with friends

// The new-game dialog sets a table with friends too: the same rules part, with a
// person or a bot level for each seat instead of the bots' levels.
function setWelcomeMode(mode) {
  const dialog = $("welcome-dialog");
  dialog.dataset.mode = mode;
  const friends = mode === "friends";
  $("friends-button").hidden = friends;
  $("solo-button").hidden = !friends;
  if (friends) {
    $("welcome-title").textContent = "Play with friends";
    $("start-game").textContent = "Set the table";
    fillFriendSeats();
    $("host-name").value = app.prefs.name ?? "";
    $("host-name").focus();
  } else {
    $("start-game").textContent = app.state ? "Deal a new game" : "Deal";
  }
}

function fillFriendSeats() {
  if (!app.levels) return;
  const host = $("host-seat").value;
  for (const seat of SEATS) {
    const select = $(`friend-${seat}`);
    if (!select.childElementCount) {
      const person = document.createElement("option");
      person.value = "person";
      person.textContent = "A friend (invite link)";
      select.append(person);
      for (const level of app.levels.levels) {
        const option = document.createElement("option");
        option.value = level;
        option.textContent = `Bot: ${level}`;
        select.append(option);
      }
      select.value = seat === "N" || seat === "S" ? "person" : app.levels.default;
    }
    // Your own seat is a person's: yours.
    if (seat === host) select.value = "person";
    select.disabled = seat === host;
  }
}

async function setTable() {
  const seats = Object.fromEntries(SEATS.map((seat) => [seat, $(`friend-${seat}`).value]));
  const turn = Number($("turn-timer").value);
  app.prefs.name = $("host-name").value.trim();
  savePrefs();
  try {
    await createTable(api, {
      seats,
      host_seat: $("host-seat").value,
      name: $("host-name").value,
      rules: chosenRules(),
      away_seconds: Number($("away-wait").value),
      turn_seconds: turn > 0 ? turn : null,
    });
  } catch (error) {
    $("friends-error").textContent = error.message;
  }
}

// "cardcouch" and "target=300 blind_nil=on" make "cardcouch,target=300,blind_nil=on".
function rulesText(preset, changes) {
  const tidy = (changes ?? "").trim().replace(/\s*,\s*|\s+/g, ",").replace(/^,|,$/g, "");
  return tidy ? `${preset},${tidy}` : preset;
}

const chosenRules = () => rulesText($("rules-preset").value, $("rules-changes").value);

async function checkRules() {
  const preset = app.ruleSets.presets.find((p) => p.name === $("rules-preset").value);
  $("rules-preset-source").textContent = preset?.source ?? "";
  const about = $("rules-about");
  const asked = chosenRules();
  let checked;
  try {
    checked = await api("GET", `/api/rules/check?rules=${encodeURIComponent(asked)}`);
  } catch (error) {
    checked = { ok: false, problem: error.message };
  }
  if (asked !== chosenRules()) return; // typed on meanwhile: that check answers
  about.textContent = checked.ok ? `Playing: ${checked.summary}.` : checked.problem;
  about.classList.toggle("error", !checked.ok);
  $("start-game").disabled = !checked.ok;
}

// One line under each level menu on how the chosen level plays (the server's words).
function describeLevel(select, about) {
  about.textContent = app.levels.summaries?.[select.value] ?? "";
}

// ------------------------------------------------------------------- actions

async function perform(request) {
  if (app.busy) return;
  app.busy = true;
  clearMessage();
  if (app.view) render(app.view);
  try {
    const update = await request();
    app.hint = null;
    await playEvents(update.events, update.game);
    app.state = update.game;
    app.busy = false;
    render(update.game);
    afterUpdate(update.game);
    return update;
  } catch (error) {
    app.busy = false;
    if (app.view) render(app.view);
    showMessage(error.message);
    playSound("error");
    if (error.rule === "stale") await reload();
    return null;
  }
}

function afterUpdate(view) {
  if (view.game_over) {
    showGameOver(view);
    return;
  }
  if (view.your_turn) {
    playSound("turn");
    announce(view.phase === "bidding" ? "Your turn to bid." : "Your turn to play.");
    if (view.phase === "bidding" && !app.table) suggestBid(view); // no hints between friends
  }
}

async function suggestBid(view) {
  try {
    const hint = await api("GET", `/api/games/${view.id}/hint`);
    if (app.state?.id === view.id && app.state.version === view.version && !app.busy) {
      app.hint = hint;
      renderBidding(app.view);
    }
  } catch {
    // a suggestion is a nicety: the bidding works without it
  }
}

const inProgress = () => Boolean(app.state && !app.state.game_over);

// "New game" never drops a game in progress without asking; the game stays saved either way.
function confirmNewGame() {
  const view = app.state;
  const us = teamOf(view, "NS").score;
  const them = teamOf(view, "EW").score;
  $("confirm-body").textContent =
    `Hand ${view.hand_number} is under way: You & North ${us}, West & East ${them}. ` +
    "It stays saved: Your games takes you back to it.";
  for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
  openDialog("confirm-dialog");
  $("confirm-keep").focus();
}

// The game the address names (?game=ID, set when one is picked from Your games), so a
// reload shows it rather than the game played most recently.
function chosenGameId() {
  return new URLSearchParams(location.search).get("game");
}

function nameGameInAddress(id) {
  const url = new URL(location.href);
  if (id) url.searchParams.set("game", id);
  else url.searchParams.delete("game");
  history.replaceState(null, "", url);
}

async function newGame() {
  const body = {
    partner: app.prefs.partner ?? undefined,
    west: app.prefs.west ?? app.prefs.opponents ?? undefined,
    east: app.prefs.east ?? app.prefs.opponents ?? undefined,
    undo: app.prefs.undo !== false,
  };
  // ?seed=N deals a chosen game again (the same seed and moves give the same game): a
  // practice game, marked so. Only seeds a JavaScript number holds exactly are sent.
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed !== null && /^\d{1,16}$/.test(seed) && Number.isSafeInteger(Number(seed))) {
    body.seed = Number(seed);
  }
  body.rules = rulesText(app.prefs.rulesPreset ?? "cardcouch", app.prefs.rulesChanges);
  for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
  // The new deal animates from a bare table; should it fail, the old game comes back.
  const previous = { view: app.view, state: app.state };
  app.view = null;
  app.state = null;
  await perform(() => api("POST", "/api/games", body));
  if (app.state) nameGameInAddress(null); // the latest game now: no need to name it
  else if (previous.state) {
    ({ view: app.view, state: app.state } = previous);
    render(app.view);
  }
}

function bid(value) {
  if (!canAct(app.view) || app.view.phase !== "bidding") return;
  if (app.table) app.table.send("bid", { bid: value });
  else perform(() => api("POST", `/api/games/${app.view.id}/bid`, { bid: value }));
}

function play(card) {
  if (!canAct(app.view) || app.view.phase !== "playing") return;
  if (app.table) app.table.send("play", { card });
  else perform(() => api("POST", `/api/games/${app.view.id}/play`, { card }));
}

async function askHint() {
  if (!canAct(app.view) || blindChoicePending(app.view)) return;
  try {
    const hint = await api("GET", `/api/games/${app.view.id}/hint`);
    app.hint = hint;
    render(app.view);
    if (hint.kind === "pass") {
      showMessage(`Hint: ${hint.reason}.`, "info"); // the reason names the cards
      return;
    }
    const what = hint.kind === "bid" ? `Bid ${bidText(hint.bid)}` : `Play the ${hint.card_name}`;
    showMessage(`Hint: ${what}. ${hint.reason}.`, "info");
    if (hint.kind === "card") {
      const index = app.view.hand.indexOf(hint.card);
      if (index >= 0) {
        app.handFocus = index;
        document.querySelector(`#hand .card[data-card="${hint.card}"]`)?.focus();
      }
    }
  } catch (error) {
    showMessage(error.message);
  }
}

async function showStatistics() {
  const body = $("stats-body");
  body.replaceChildren(div("empty", "Counting your games…"));
  openDialog("stats-dialog");
  try {
    body.replaceChildren(statisticsView(await api("GET", "/api/statistics")));
  } catch (error) {
    body.replaceChildren(div("empty", error.message));
  }
}

async function reload() {
  try {
    let update = null;
    const chosen = chosenGameId();
    if (chosen) {
      update = await api("GET", `/api/games/${encodeURIComponent(chosen)}`).catch((error) => {
        if (error.status !== 404) throw error;
        nameGameInAddress(null); // not (or no longer) this browser's: show the latest instead
        return null;
      });
    }
    update ??= await api("GET", "/api/games/latest");
    if (!update) return false; // 204: this browser has no game yet
    show(update.game);
    return true;
  } catch (error) {
    showMessage(error.message);
    return false;
  }
}

// Draw a game as it stands, with no events to animate (a reload, a resumed game).
function show(game) {
  app.state = game;
  app.hint = null;
  clearMessage();
  render(game);
  if (game.game_over) showGameOver(game);
  else if (game.your_turn && game.phase === "bidding") suggestBid(game);
}

// ---------------------------------------------------------------- your games

const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const UNITS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];

function ago(iso) {
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return RELATIVE.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

const levelName = (level) => level[0].toUpperCase() + level.slice(1);

// The opponents' levels as the games list names them: one level, or "west/east".
function opponentsText(name) {
  const [west, east] = name.split("/");
  return east ? `West ${west}, East ${east}` : `${west} opponents`;
}

function gameItem(game) {
  const item = document.createElement("li");
  item.className = "game-item";
  const current = app.state?.id === game.id;
  const info = div("game-info");
  info.append(
    div("game-title", `Hand ${game.hand_number} · You & North ${game.scores.NS} · West & East ${game.scores.EW}`),
    div(
      "game-meta",
      [
        `${levelName(game.partner)} partner, ${opponentsText(game.opponents)}`,
        game.practice ? "practice deal" : null,
        `started ${ago(game.started_at)}, last played ${ago(game.updated_at)}`,
      ]
        .filter(Boolean)
        .join(" · "),
    ),
  );
  const button = document.createElement("button");
  button.type = "button";
  button.className = current ? "secondary" : "primary";
  button.textContent = current ? "Playing now" : "Resume";
  button.disabled = current;
  button.dataset.game = game.id;
  if (!current) button.setAttribute("aria-label", `Resume hand ${game.hand_number}, ${ago(game.updated_at)}`);
  item.append(info, button);
  return item;
}

async function openYourGames() {
  const list = $("games-list");
  list.replaceChildren(div("empty", "Looking for your games…"));
  openDialog("games-dialog");
  try {
    const { games } = await api("GET", "/api/games?unfinished=true&limit=100");
    list.replaceChildren(...games.map(gameItem));
    if (!games.length) list.replaceChildren(div("empty", "No game in progress: every game you started is over."));
    list.querySelector("button:not([disabled])")?.focus();
  } catch (error) {
    list.replaceChildren(div("empty", error.message));
  }
}

async function resume(id) {
  if (app.busy) return;
  try {
    const update = await api("GET", `/api/games/${encodeURIComponent(id)}`);
    $("games-dialog").close();
    nameGameInAddress(id);
    show(update.game);
    announce(`Back to your game: hand ${update.game.hand_number}.`);
    if (update.game.your_turn) announce(update.game.phase === "bidding" ? "Your turn to bid." : "Your turn to play.");
  } catch (error) {
    $("games-list").prepend(div("empty error", error.message));
  }
}

// ------------------------------------------------------------------ keyboard

function moveFocus(container, selector, current, delta, setIndex) {
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

const KEY_MOVES = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "home", End: "end" };

function onHandKey(event) {
  const move = KEY_MOVES[event.key];
  if (move === undefined) return;
  event.preventDefault();
  moveFocus($("hand"), ".card", app.handFocus, move, (i) => {
    app.handFocus = i;
  });
}

function onBidKey(event) {
  const move = KEY_MOVES[event.key];
  if (move !== undefined) {
    event.preventDefault();
    moveFocus($("bid-buttons"), ".bid-button", app.bidFocus, move, (i) => {
      app.bidFocus = i;
    });
  }
}

function focusBid(index) {
  app.bidFocus = index;
  const buttons = [...$("bid-buttons").children];
  buttons.forEach((b, i) => {
    b.tabIndex = i === index ? 0 : -1;
  });
  buttons[index]?.focus();
}

function onGlobalKey(event) {
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
  if (!view || view.phase !== "bidding" || !canAct(view)) return;
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

// -------------------------------------------------------------------- wiring

function wire() {
  $("hand").addEventListener("click", (event) => {
    const button = event.target.closest(".card");
    if (!button || app.busy) return;
    app.handFocus = Number(button.dataset.index);
    if (app.view?.phase === "playing" && app.view.your_turn) play(button.dataset.card);
    else if (app.view?.phase === "passing") toggleToPass(button.dataset.card);
    else if (app.view?.phase === "bidding") showMessage("Bid first: choose Nil or a number of tricks.", "error");
  });
  $("hand").addEventListener("keydown", onHandKey);
  $("pass-button").addEventListener("click", passCards);
  $("blind-nil-button").addEventListener("click", () => bid("blind_nil"));
  $("look-button").addEventListener("click", () => {
    app.looked = lookKey(app.view);
    render(app.view);
  });
  $("bid-buttons").addEventListener("click", (event) => {
    const button = event.target.closest(".bid-button");
    if (!button || button.disabled) return;
    app.bidFocus = Number(button.dataset.index);
    bid(button.dataset.bid === "nil" ? "nil" : Number(button.dataset.bid));
  });
  $("bid-buttons").addEventListener("keydown", onBidKey);
  document.addEventListener("keydown", onGlobalKey);

  $("hint-button").addEventListener("click", askHint);
  NARROW.addEventListener("change", () => app.view && renderHand(app.view));
  $("sheet-button").addEventListener("click", () => {
    if (app.view) renderSheet(app.view);
    else $("sheet-body").replaceChildren(div("empty", "No game yet."));
    openDialog("sheet-dialog");
  });
  $("rules-button").addEventListener("click", () => openDialog("rules-dialog"));
  for (const button of document.querySelectorAll(".stats-link")) button.addEventListener("click", showStatistics);
  app.tools = createTableTools({ app, api, perform, showMessage, announce, openDialog });
  $("settings-button").addEventListener("click", () => openWelcome(Boolean(app.state)));
  for (const button of document.querySelectorAll(".close-dialog")) {
    button.addEventListener("click", () => button.closest("dialog").close());
  }
  $("cancel-new-game").addEventListener("click", () => $("welcome-dialog").close());
  $("speed-select").addEventListener("change", (event) => {
    app.prefs.speed = event.target.value;
    savePrefs();
  });
  $("theme-select").addEventListener("change", (event) => {
    app.prefs.theme = event.target.value;
    applyTheme();
    savePrefs();
  });
  $("sound-toggle").addEventListener("change", (event) => {
    app.prefs.sound = event.target.checked;
    setSoundEnabled(app.prefs.sound);
    savePrefs();
    playSound("turn"); // a sample, and in a click: browsers let audio start now
  });
  wireReplay();
  wireRecords({ api, currentGame: () => app.state, onReview: (gameId, hand, box) => showReview(getReview, gameId, hand, box) });
  $("new-game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    app.prefs.partner = $("partner-level").value;
    app.prefs.west = $("west-level").value;
    app.prefs.east = $("east-level").value;
    app.prefs.opponents = null; // each opponent has a level of its own now
    app.prefs.undo = $("undo-setting").checked;
    app.prefs.rulesPreset = $("rules-preset").value;
    app.prefs.rulesChanges = $("rules-changes").value.trim();
    app.prefs.speed = $("speed-select").value;
    savePrefs();
    if ($("welcome-dialog").dataset.mode === "friends") setTable();
    else if (inProgress()) confirmNewGame();
    else newGame();
  });
  $("friends-button").addEventListener("click", () => setWelcomeMode("friends"));
  $("solo-button").addEventListener("click", () => setWelcomeMode("solo"));
  $("host-seat").addEventListener("change", fillFriendSeats);
  $("confirm-keep").addEventListener("click", () => $("confirm-dialog").close());
  $("confirm-new").addEventListener("click", () => newGame());
  $("games-button").addEventListener("click", openYourGames);
  $("games-new").addEventListener("click", () => {
    $("games-dialog").close();
    openWelcome(Boolean(app.state));
  });
  $("games-list").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-game]");
    if (button && !button.disabled) resume(button.dataset.game);
  });
  $("welcome-dialog").addEventListener("cancel", (event) => {
    if (!app.state) event.preventDefault(); // nothing to go back to yet
  });
  $("summary-continue").addEventListener("click", () => $("summary-dialog").close());
  $("summary-sheet").addEventListener("click", () => {
    renderSheet(app.view);
    openDialog("sheet-dialog");
  });
  $("gameover-sheet").addEventListener("click", () => {
    renderSheet(app.view);
    openDialog("sheet-dialog");
  });
  $("gameover-new").addEventListener("click", () => newGame());
  $("deal-pill").addEventListener("click", openFairness);
  $("gameover-fair").addEventListener("click", openFairness);
}

// A review answers 202 "analysing" until it is ready: api() returns either body.
const getReview = (path) => api("GET", path);

async function start() {
  applyTheme();
  setSoundEnabled(app.prefs.sound);
  wire();
  clearMessage();
  try {
    [app.levels, app.ruleSets] = await Promise.all([api("GET", "/api/levels"), api("GET", "/api/rules")]);
  } catch (error) {
    showMessage(error.message);
    return;
  }
  if (tableIdInAddress()) {
    app.table = createTableClient({
      app, api, render, playEvents, afterUpdate, showMessage, clearMessage, announce, openDialog,
      seatBox: (seat) => $(`seat-${spot(seat)}`),
    });
    document.body.classList.add("ready");
    await app.table.start();
    return;
  }
  const resumed = await reload();
  if (!resumed) openWelcome(false);
  document.body.classList.add("ready");
}

start();
