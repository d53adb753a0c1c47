// The page's state: the last view the server sent, what is drawn, the player's
// preferences, and the questions every part asks of them (whose seat this page
// plays, where a seat is drawn, whether the player may act now).

import { PARTNER, SEAT_NAMES, SEATS, TEAM_OF } from "./seats.js";

// The pace of the table: how much of each beat (motion.js's BEATS) a card and a
// finished trick take. Brisk is the default: the bots' cards come quickly (a
// quarter of a second each) and a trick stays just long enough to see who took it. Relaxed is the page's old
// default pace, kept for those who like to watch every card.
export const SPEEDS = {
  slow: { cards: 1.8, tricks: 1.8 },
  relaxed: { cards: 1, tricks: 1 },
  brisk: { cards: 0.3, tricks: 0.55 },
  fast: { cards: 0.2, tricks: 0.3 },
  instant: { cards: 0, tricks: 0 },
};

export const DEFAULT_SPEED = "brisk";

// What older pages saved: "normal" was the default pace, and reads as today's default.
const SPEED_ALIASES = { normal: DEFAULT_SPEED };

export const speedName = (name) => (name in SPEEDS ? name : SPEED_ALIASES[name] ?? DEFAULT_SPEED);

export const PREFS_KEY = "spades.preferences";

export const app = {
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
  keyboard: false, // whether the player's last action was a key (else a click or a tap)
  tools: null, // last trick, undo and claim (table-tools.js)
  table: null, // a table with friends (table.js), when the address names one
};

export function loadPrefs() {
  const defaults = { partner: null, opponents: null, west: null, east: null, undo: true, speed: DEFAULT_SPEED, theme: "felt", sound: false };
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) defaults.speed = "fast";
  try {
    const saved = JSON.parse(localStorage.getItem(PREFS_KEY) ?? "{}");
    const prefs = { ...defaults, ...saved };
    prefs.speed = speedName(prefs.speed);
    const fromUrl = new URLSearchParams(location.search).get("speed");
    if (fromUrl) prefs.speed = speedName(fromUrl);
    return prefs;
  } catch {
    return defaults;
  }
}

export function savePrefs() {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(app.prefs));
  } catch {
    // private browsing: preferences last for this visit only
  }
}

// The seat this page plays: South against bots; at a table with friends, the seat taken.
export const you = () => app.state?.you ?? app.view?.you ?? "S";

// Where a seat is drawn: you at the bottom, then clockwise left, top, right. The table's
// boxes are named for the places of a South player (seat-W is the left-hand box).
export const spot = (seat) => SEATS[(SEATS.indexOf(seat) - SEATS.indexOf(you()) + 6) % 4];

export const seatWord = (seat) => (seat === you() ? "You" : SEAT_NAMES[seat]);

export function teamLabel(team) {
  const [a, b] = team === "NS" ? ["N", "S"] : ["W", "E"];
  if (TEAM_OF[you()] !== team) return `${SEAT_NAMES[a]} & ${SEAT_NAMES[b]}`;
  return `You & ${SEAT_NAMES[PARTNER[you()]]}`;
}

export const canAct = (view) => Boolean(view && view.your_turn && !app.busy && view.phase !== "over");

export function teamOf(view, team) {
  return view.teams.find((t) => t.team === team);
}

export function seatOf(view, seat) {
  return view.seats.find((s) => s.seat === seat);
}

// Blind Nil is bid before looking at the cards: while it is open to South the hand
// stays face down until South bids it or chooses to look.
export const lookKey = (view) => `${view.id}:${view.hand_number}`;

export const blindChoicePending = (view) => Boolean(view?.blind_nil && canAct(view) && app.looked !== lookKey(view));
