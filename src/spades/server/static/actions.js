// The player's intents: each is sent to the server, and its answer played back
// and drawn (perform). A new game, a bid, a pass, a card, a hint, a reload.

import { playSound } from "./sound.js";
import { statisticsView } from "./stats.js";
import { api } from "./api.js";
import { openDialog, showGameOver } from "./dialogs.js";
import { $, div } from "./dom.js";
import { render } from "./draw.js";
import { focusTheTurn, renderBidding } from "./hand.js";
import { announce, clearMessage, showMessage } from "./messages.js";
import { playEvents } from "./playback.js";
import { app, blindChoicePending, canAct, teamOf } from "./state.js";
import { rulesText } from "./welcome.js";
import { bidText, plural } from "./words.js";

export async function perform(request) {
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

export function afterUpdate(view) {
  if (view.game_over) {
    showGameOver(view);
    return;
  }
  if (view.your_turn) {
    playSound("turn");
    announce(view.phase === "bidding" ? "Your turn to bid." : "Your turn to play.");
    focusTheTurn(view);
    if (view.phase === "bidding" && !app.table) suggestBid(view); // no hints between friends
  }
}

export async function suggestBid(view) {
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

export const inProgress = () => Boolean(app.state && !app.state.game_over);

// "New game" never drops a game in progress without asking; the game stays saved either way.
export function confirmNewGame() {
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
export function chosenGameId() {
  return new URLSearchParams(location.search).get("game");
}

export function nameGameInAddress(id) {
  const url = new URL(location.href);
  if (id) url.searchParams.set("game", id);
  else url.searchParams.delete("game");
  history.replaceState(null, "", url);
}

export function forgetSeed() {
  const url = new URL(location.href);
  url.searchParams.delete("seed");
  history.replaceState(null, "", url);
}

export async function newGame() {
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
  if (app.state) {
    nameGameInAddress(null); // the latest game now: no need to name it
    // A chosen seed deals one practice game: the next "New game" is a fair deal again.
    if ("seed" in body) forgetSeed();
  }
  else if (previous.state) {
    ({ view: app.view, state: app.state } = previous);
    render(app.view);
  }
}

export function bid(value) {
  if (!canAct(app.view) || app.view.phase !== "bidding") return;
  if (app.table) app.table.send("bid", { bid: value });
  else perform(() => api("POST", `/api/games/${app.view.id}/bid`, { bid: value }));
}

export function play(card) {
  if (!canAct(app.view) || app.view.phase !== "playing") return;
  if (app.table) app.table.send("play", { card });
  else perform(() => api("POST", `/api/games/${app.view.id}/play`, { card }));
}

export function toggleToPass(card) {
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

export function passCards() {
  const view = app.view;
  if (!canAct(view) || view.phase !== "passing" || app.toPass.size !== view.passing?.count) return;
  const cards = [...app.toPass];
  app.toPass = new Set();
  if (app.table) app.table.send("pass", { cards });
  else perform(() => api("POST", `/api/games/${view.id}/pass`, { cards }));
}

export async function askHint() {
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

export async function showStatistics() {
  const body = $("stats-body");
  body.replaceChildren(div("empty", "Counting your games…"));
  openDialog("stats-dialog");
  try {
    body.replaceChildren(statisticsView(await api("GET", "/api/statistics")));
  } catch (error) {
    body.replaceChildren(div("empty", error.message));
  }
}

export async function reload() {
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
export function show(game) {
  app.state = game;
  app.hint = null;
  clearMessage();
  render(game);
  if (game.game_over) showGameOver(game);
  else if (game.your_turn && game.phase === "bidding") suggestBid(game);
  if (!game.game_over) focusTheTurn(game);
}
