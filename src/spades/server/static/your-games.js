// Your games: the games in progress this browser started, to resume one.

import { nameGameInAddress, show } from "./actions.js";
import { api } from "./api.js";
import { openDialog } from "./dialogs.js";
import { $, div } from "./dom.js";
import { announce } from "./messages.js";
import { SEAT_NAMES } from "./seats.js";
import { app } from "./state.js";
import { keptTables } from "./your-tables.js";

export const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

export const UNITS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];

export function ago(iso) {
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return RELATIVE.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

export const levelName = (level) => level[0].toUpperCase() + level.slice(1);

// The opponents' levels as the games list names them: one level, or "west/east".
export function opponentsText(name) {
  const [west, east] = name.split("/");
  return east ? `West ${west}, East ${east}` : `${west} opponents`;
}

export function gameItem(game) {
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

// A table with friends this browser sits at (your-tables.js): opened at its own address.
export function tableItem(table) {
  const item = document.createElement("li");
  item.className = "game-item table-item";
  const info = div("game-info");
  const seat = table.seat ? `you sit ${SEAT_NAMES[table.seat] ?? table.seat}` : "you host it";
  const others = table.with?.length ? ` with ${table.with.join(", ")}` : "";
  info.append(
    div("game-title", `Table with friends${others}`),
    div("game-meta", `${seat} · ${table.started ? "under way" : "not dealt yet"} · last opened ${ago(table.at)}`),
  );
  const link = document.createElement("a");
  link.className = "primary button-link";
  link.href = `/tables/${encodeURIComponent(table.id)}`;
  link.textContent = "Open";
  link.setAttribute("aria-label", `Open the table with friends${others}`);
  item.append(info, link);
  return item;
}

export async function openYourGames() {
  const list = $("games-list");
  list.replaceChildren(div("empty", "Looking for your games…"));
  openDialog("games-dialog");
  try {
    const { games } = await api("GET", "/api/games?unfinished=true&limit=100");
    const tables = keptTables();
    list.replaceChildren(...games.map(gameItem), ...tables.map(tableItem));
    if (!games.length && !tables.length) list.replaceChildren(div("empty", "No game in progress: every game you started is over."));
    list.querySelector("button:not([disabled])")?.focus();
  } catch (error) {
    list.replaceChildren(div("empty", error.message));
  }
}

export async function resume(id) {
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
