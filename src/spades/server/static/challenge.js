// The daily challenge: everyone plays the same deals, and sees how they did
// against everyone who played them (matchpoints) and against the par (the
// bots in South's seat). The server decides everything; this page shows the
// view it is sent and sends intents. Every name is written as text, never as
// markup.
//
// Self-contained: it wires the "Daily challenge" buttons (.challenge-link, in
// the new-game dialog and Your games),
// fills its own dialog, and adds your challenge history below Your
// statistics. It reuses the replay viewer and the hand review of the game.

import { cardFace, cardShort } from "./cards.js";
import { openReplay } from "./replay.js";
import { showReview } from "./review.js";
import { SEAT_NAMES } from "./seats.js";

const state = { day: null, table: null, results: null, busy: false, openedFrom: null, tab: "play" };

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text, className, onClick, attributes = {}) {
  const node = el("button", className, text);
  node.type = "button";
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.addEventListener("click", onClick);
  return node;
}

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
  if (!response.ok) throw new ApiError(data?.detail ?? `The server answered ${response.status}.`, response.status, data?.rule);
  return data;
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const percentText = (p) => (p === null || p === undefined ? "–" : `${p.toFixed(1)}%`);
const bidText = (bid) => (bid === "nil" ? "Nil" : bid === null || bid === undefined ? "–" : String(bid));
const dealPath = (n) => `/api/challenge/days/${state.day.day}/deals/${n}`;

function say(text, kind = "error") {
  const box = $("challenge-message");
  if (!box) return;
  box.textContent = text;
  box.dataset.kind = kind;
}

// ------------------------------------------------------------------ the day

async function refreshDay() {
  state.day = await api("GET", "/api/challenge/days/today");
  return state.day;
}

function dayHeader(day) {
  const head = el("section", "ch-day");
  head.append(
    el("p", "ch-date", `${day.day} (UTC) · ${day.deals} deals · you sit South; North, East and West are ${day.level} bots`),
    el(
      "p",
      "ch-note",
      "Everyone plays the same deals, each one hand from 0-0, and is scored against everyone who played them. " +
        "No sign-up: your name is kept with this browser's cookie, so a new browser (or a private window) is a new player. " +
        "One entry a day; the day runs from midnight to midnight UTC.",
    ),
  );
  const fair = el("details", "ch-fair");
  fair.append(el("summary", "", "Fair deals: the commitment"));
  const commit = el("p", "", "Today's deals come from a secret seed committed to before the day began: SHA-256 ");
  commit.append(el("code", "ch-commitment", day.commitment), el("span", "", ` (drawn ${day.committed_at.replace("T", " ").slice(0, 16)} UTC). The seed is revealed when the day closes.`));
  fair.append(commit);
  if (day.next_commitment) {
    const next = el("p", "", `Tomorrow (${day.next_day}): `);
    next.append(el("code", "ch-next-commitment", day.next_commitment));
    fair.append(next);
  }
  head.append(fair);
  return head;
}

function nameForm(day) {
  const form = el("form", "ch-name");
  form.append(el("label", "", day.name ? "Your name on the leaderboard" : "Choose the name the leaderboard shows"));
  const input = el("input");
  input.type = "text";
  input.id = "ch-name-input";
  input.maxLength = 24;
  input.autocomplete = "nickname";
  input.value = day.name ?? "";
  input.placeholder = "up to 24 letters, digits, spaces";
  form.querySelector("label").htmlFor = input.id;
  const save = el("button", "secondary", day.name ? "Change" : "Save");
  save.type = "submit";
  save.id = "ch-save-name";
  form.append(input, save);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("PUT", "/api/challenge/name", { name: input.value });
      await refreshDay();
      draw();
    } catch (error) {
      say(error.message);
    }
  });
  return form;
}

function progress(day) {
  const list = el("ol", "ch-progress");
  list.setAttribute("aria-label", "Your deals today");
  for (let n = 1; n <= day.deals; n += 1) {
    const play = day.plays.find((p) => p.deal === n);
    const item = el("li", play?.finished ? "done" : n === day.next_deal ? "next" : "");
    item.dataset.deal = String(n);
    if (play?.finished) {
      item.append(button(`Deal ${n}: ${signed(play.score)}`, "ch-deal-done", () => showResults(n)));
    } else {
      item.append(el("span", "", `Deal ${n}`));
    }
    list.append(item);
  }
  return list;
}

// ---------------------------------------------------------------- the table

function seatBox(table, letter) {
  const seat = table.seats.find((s) => s.seat === letter);
  const box = el("div", `ch-seat ch-seat-${letter}`);
  box.append(el("strong", "", `${SEAT_NAMES[letter]}${seat.dealer ? " (dealer)" : ""}`));
  box.append(el("span", "ch-who", letter === "S" ? "you" : seat.player));
  box.append(el("span", "ch-bid", `bid ${bidText(seat.bid)} · tricks ${seat.tricks}`));
  if (table.turn === letter) box.classList.add("turn");
  return box;
}

function trickBox(trick, label) {
  const box = el("div", "ch-trick");
  box.setAttribute("aria-label", label);
  for (const played of trick.cards) {
    const slot = el("div", `ch-slot ch-slot-${played.seat}`);
    slot.append(cardFace(played.card));
    slot.title = `${SEAT_NAMES[played.seat]}: ${cardShort(played.card)}`;
    box.append(slot);
  }
  return box;
}

function drawTable(table) {
  const area = el("section", "ch-table");
  area.setAttribute("aria-label", `Deal ${table.deal} of ${table.deals}`);
  area.append(el("h3", "", `Deal ${table.deal} of ${table.deals}`));
  const felt = el("div", "ch-felt");
  felt.append(seatBox(table, "N"), seatBox(table, "W"), seatBox(table, "E"), seatBox(table, "S"));
  const middle = el("div", "ch-middle");
  if (table.trick.cards.length) middle.append(trickBox(table.trick, "The trick"));
  else if (table.last_trick) {
    middle.append(el("p", "ch-last", `${SEAT_NAMES[table.last_trick.winner]} took the last trick`), trickBox(table.last_trick, "The last trick"));
  }
  middle.append(el("p", "ch-status", statusText(table)));
  felt.append(middle);
  area.append(felt);
  if (table.phase === "bidding" && table.your_turn) {
    const bids = el("div", "ch-bids");
    bids.id = "ch-bids";
    bids.setAttribute("role", "group");
    bids.setAttribute("aria-label", "Your bid");
    for (const bid of table.legal_bids) bids.append(button(bidText(bid), "bid-button", () => act("bid", { bid }), { "data-bid": String(bid) }));
    area.append(bids);
  }
  const hand = el("div", "ch-hand");
  hand.id = "ch-hand";
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", "Your hand");
  for (const card of table.hand) {
    const legal = table.legal_cards.includes(card);
    const node = button("", `card${legal ? " legal" : ""}`, () => legal && act("play", { card }), { "data-card": card, "aria-label": cardShort(card) });
    node.disabled = !legal;
    node.append(cardFace(card));
    hand.append(node);
  }
  area.append(hand);
  return area;
}

function statusText(table) {
  if (table.phase === "over") return "The hand is over.";
  if (table.your_turn) return table.phase === "bidding" ? "Your bid: no undo and no hint in the challenge." : "Your card.";
  return `${SEAT_NAMES[table.turn] ?? ""} to play`;
}

async function act(kind, body) {
  if (state.busy) return;
  state.busy = true;
  try {
    state.table = await api("POST", `${dealPath(state.table.deal)}/${kind}`, body);
    if (state.table.phase === "over") {
      await refreshDay();
      await showResults(state.table.deal);
      return;
    }
    draw();
  } catch (error) {
    say(error.message);
  } finally {
    state.busy = false;
  }
}

async function startDeal(number) {
  try {
    const started = state.day.plays.some((p) => p.deal === number);
    state.table = await api(started ? "GET" : "POST", dealPath(number));
    state.results = null;
    await refreshDay();
    draw();
  } catch (error) {
    say(error.message);
  }
}

// --------------------------------------------------------------- the results

async function showResults(number) {
  try {
    state.results = await api("GET", `${dealPath(number)}/results`);
    state.table = null;
    state.tab = "play";
    draw();
  } catch (error) {
    say(error.message);
  }
}

function drawResults(results) {
  const box = el("section", "ch-results");
  box.id = "ch-results";
  box.dataset.deal = String(results.deal);
  box.append(el("h3", "", `Deal ${results.deal}: how it went`));
  const you = results.yours;
  if (you) {
    const line = el("p", "ch-yours");
    line.append(el("strong", "", `You: ${signed(you.score)}`), el("span", "", ` (bid ${bidText(you.bid)}, North-South took ${you.tricks ?? "–"})`));
    box.append(line);
    const mp = el("p", "ch-mp");
    mp.dataset.matchpoints = String(you.matchpoints);
    mp.textContent = you.top
      ? `Matchpoints: ${you.matchpoints} of ${you.top} (${percentText(you.percent)}) against ${results.players - 1} other ${results.players === 2 ? "player" : "players"}`
      : "Matchpoints: you are the first to finish this deal; your score counts as others finish it.";
    box.append(mp);
  }
  const par = el("p", "ch-par");
  par.textContent = results.par
    ? `Par (the ${state.day.level} bots in your seat): ${signed(results.par.score)}, bid ${bidText(results.par.bid)}${results.par.versus === null ? "" : ` · you ${signed(results.par.versus)} against par`}`
    : "Par: the bots are still playing this deal; look again in a moment.";
  box.append(par);
  if (results.common_bid) box.append(el("p", "ch-common", `Most common bid at South: ${bidText(results.common_bid.bid)} (${results.common_bid.count} of ${results.players})`));
  const spread = el("ul", "ch-spread");
  spread.setAttribute("aria-label", "The spread of results");
  const most = Math.max(...results.spread.map((s) => s.count), 1);
  for (const { score, count } of results.spread) {
    const row = el("li");
    const bar = el("span", "ch-bar");
    bar.style.setProperty("--share", String(count / most));
    row.append(el("span", "ch-score", signed(score)), bar, el("span", "ch-count", `× ${count}`));
    spread.append(row);
  }
  box.append(el("h4", "", "The spread of results"), spread);
  const field = el("ol", "ch-field");
  for (const line of results.field) {
    const row = el("li", line.you ? "you" : "");
    row.append(el("span", "ch-name", line.name), el("span", "", ` ${signed(line.score)} · bid ${bidText(line.bid)} · ${line.matchpoints} mp`));
    field.append(row);
  }
  box.append(field);
  const tools = el("div", "dialog-buttons");
  const reviewBox = el("section", "review");
  reviewBox.setAttribute("aria-label", `Review of deal ${results.deal}`);
  tools.append(
    button("Replay the par", "secondary", () => replay(results.deal, "par"), { id: "ch-replay-par" }),
    button("Replay yours", "secondary", () => replay(results.deal, "yours")),
    button("Review your play", "secondary", (event) => {
      event.target.remove();
      // The review module asks the game's path; this deal's review has its own.
      showReview(() => api("GET", `${dealPath(results.deal)}/review`), "challenge", results.deal, reviewBox);
    }),
  );
  if (state.day.next_deal) tools.append(button(`Play deal ${state.day.next_deal}`, "primary", () => startDeal(state.day.next_deal), { id: "ch-next" }));
  box.append(tools, reviewBox);
  return box;
}

async function replay(number, of) {
  try {
    const data = await api("GET", `${dealPath(number)}/replay?of=${of}`);
    openReplay(data, { title: `Deal ${number}: ${of === "par" ? "the par play" : "your play"}` });
  } catch (error) {
    say(error.message);
  }
}

// ------------------------------------------------------------ leaderboards

async function drawBoards(container) {
  container.replaceChildren(el("p", "ch-wait", "Counting…"));
  const parts = [];
  try {
    const board = await api("GET", `/api/challenge/days/${state.day.day}/leaderboard`);
    parts.push(boardTable(`Today, ${board.day}`, ["", "Name", "Deals", "Matchpoints", "%", "vs par"], board.lines.map((l) => [l.rank, l.name, l.deals, `${l.matchpoints} / ${l.top}`, percentText(l.percent), signed(l.versus_par), l.you]), "ch-day-board"));
    if (board.par_percent !== null) parts.push(el("p", "ch-note", `The par (the bots in South's seat) would score ${percentText(board.par_percent)} against this field.`));
  } catch (error) {
    parts.push(el("p", "ch-note", error.message));
  }
  try {
    const week = await api("GET", `/api/challenge/weeks/${state.day.day}/leaderboard`);
    parts.push(boardTable(`This week, ${week.first_day} to ${week.last_day}`, ["", "Name", "Days", "Points"], week.lines.map((l) => [l.rank, l.name, l.days, l.points.toFixed(1), l.you]), "ch-week-board"));
    parts.push(el("p", "ch-note", "A week's points add up each day's percentage, so every day you play counts. Today counts once you have played all its deals."));
  } catch (error) {
    parts.push(el("p", "ch-note", error.message));
  }
  container.replaceChildren(...parts);
}

function boardTable(title, heads, rows, id) {
  const wrap = el("section", "ch-board");
  wrap.append(el("h4", "", title));
  const table = el("table");
  table.id = id;
  const head = el("tr");
  for (const text of heads) head.append(el("th", "", text));
  table.append(el("thead"));
  table.tHead.append(head);
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr", row[row.length - 1] ? "you" : "");
    for (const cell of row.slice(0, -1)) tr.append(el("td", "", String(cell)));
    body.append(tr);
  }
  if (!rows.length) body.append(el("tr")).append(el("td", "", "No one yet."));
  table.append(body);
  wrap.append(table);
  return wrap;
}

// ------------------------------------------------------------------ drawing

function draw() {
  const body = $("challenge-body");
  const day = state.day;
  const parts = [dayHeader(day), nameForm(day)];
  const message = el("p", "message ch-message", "");
  message.id = "challenge-message";
  message.setAttribute("role", "alert");
  parts.push(message, progress(day));
  const tabs = el("div", "ch-tabs");
  tabs.append(
    button("Play", state.tab === "play" ? "primary" : "secondary", () => { state.tab = "play"; draw(); }, { id: "ch-tab-play" }),
    button("Leaderboards", state.tab === "boards" ? "primary" : "secondary", () => { state.tab = "boards"; draw(); }, { id: "ch-tab-boards" }),
  );
  parts.push(tabs);
  if (state.tab === "boards") {
    const boards = el("div", "ch-boards");
    parts.push(boards);
    drawBoards(boards);
  } else if (state.table && state.table.phase !== "over") {
    parts.push(drawTable(state.table));
  } else if (state.results) {
    parts.push(drawResults(state.results));
  } else if (!day.name) {
    parts.push(el("p", "ch-note", "Choose your name to start."));
  } else if (day.next_deal) {
    const started = day.plays.some((p) => p.deal === day.next_deal);
    parts.push(button(`${started ? "Go on with" : "Play"} deal ${day.next_deal}`, "primary", () => startDeal(day.next_deal), { id: "ch-start" }));
  } else if (day.all_done) {
    parts.push(el("p", "ch-note", "You have played all of today's deals: see the leaderboards, and come back tomorrow."));
  }
  body.replaceChildren(...parts);
}

async function open(from) {
  const dialog = $("challenge-dialog");
  // From the first visit's welcome, closing goes back there: nothing else is on the table yet.
  state.openedFrom = from?.id === "welcome-dialog" ? from.id : null;
  from?.close();
  if (!dialog.open) dialog.showModal();
  $("challenge-body").replaceChildren(el("p", "ch-wait", "Opening today's challenge…"));
  try {
    await refreshDay();
    state.table = null;
    state.results = null;
    const unfinished = state.day.plays.find((p) => !p.finished);
    if (unfinished && !state.day.closed) state.table = await api("GET", dealPath(unfinished.deal));
    draw();
  } catch (error) {
    $("challenge-body").replaceChildren(el("p", "ch-note", error.message));
  }
}

function close() {
  $("challenge-dialog").close();
}

// ----------------------------------------------------- history in statistics

async function fillHistory() {
  const box = $("challenge-history");
  if (!box) return;
  box.replaceChildren();
  let history;
  try {
    history = await api("GET", "/api/challenge/history");
  } catch {
    return;
  }
  if (!history.days.length) return;
  const rows = history.days.map((d) => [d.day, `${d.finished} / ${d.deals}`, percentText(d.percent), signed(d.versus_par), d.rank ? `${d.rank} of ${d.players}` : "–", false]);
  box.append(boardTable("Your daily challenges", ["Day", "Deals", "%", "vs par", "Rank"], rows, "ch-history"));
}

function wire() {
  for (const link of document.querySelectorAll(".challenge-link")) {
    link.addEventListener("click", () => open(link.closest("dialog")));
  }
  $("challenge-close").addEventListener("click", close);
  $("challenge-dialog").addEventListener("close", () => {
    if (state.openedFrom) $(state.openedFrom).showModal();
    state.openedFrom = null;
  });
  for (const link of document.querySelectorAll(".stats-link")) link.addEventListener("click", fillHistory);
}

wire();
