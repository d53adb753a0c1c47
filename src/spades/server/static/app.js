// The card table. The server decides everything: this page sends intents (a new
// game, a bid, a card, a hint) and draws the view it gets back, animating the
// public events that led to it. It never holds another seat's cards: the server
// never sends them.
//
// This module wires the page's controls to the other modules and starts it.

import { wireRecords } from "./records.js";
import { wireReplay } from "./replay.js";
import { showRules } from "./rules.js";
import { showReview } from "./review.js";
import { playSound, setSoundEnabled } from "./sound.js";
import { createTableTools } from "./table-tools.js";
import { createTableClient, tableIdInAddress } from "./table.js";
import { afterUpdate, askHint, bid, confirmNewGame, inProgress, newGame, passCards, perform, play, reload, showStatistics, toggleToPass } from "./actions.js";
import { api, getReview } from "./api.js";
import { openDialog } from "./dialogs.js";
import { $, div } from "./dom.js";
import { render } from "./draw.js";
import { openFairness } from "./fairness.js";
import { NARROW, renderHand } from "./hand.js";
import { onBidKey, onGlobalKey, onHandKey } from "./keys.js";
import { announce, clearMessage, showMessage } from "./messages.js";
import { playEvents } from "./playback.js";
import { renderSheet } from "./sheet.js";
import { app, lookKey, savePrefs, spot } from "./state.js";
import { clearKeptRules, fillFriendSeats, openWelcome, setTable, setWelcomeMode } from "./welcome.js";
import { openYourGames, resume } from "./your-games.js";

function applyTheme() {
  document.documentElement.dataset.theme = app.prefs.theme === "light" ? "light" : "felt";
  document.querySelector('meta[name="theme-color"]')?.setAttribute("content", app.prefs.theme === "light" ? "#efe9dc" : "#0f4d32");
}

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
  document.addEventListener("keydown", () => { app.keyboard = true; }, { capture: true });
  document.addEventListener("pointerdown", () => { app.keyboard = false; }, { capture: true });

  $("hint-button").addEventListener("click", askHint);
  NARROW.addEventListener("change", () => app.view && renderHand(app.view));
  $("sheet-button").addEventListener("click", () => {
    if (app.view) renderSheet(app.view);
    else $("sheet-body").replaceChildren(div("empty", "No game yet."));
    openDialog("sheet-dialog");
  });
  $("rules-button").addEventListener("click", () => openDialog("rules-dialog"));
  // The rules a click away from the first screen: they open over it, and close back to it.
  $("welcome-rules").addEventListener("click", () => openDialog("rules-dialog"));
  $("rules-clear").addEventListener("click", clearKeptRules);
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
  $("welcome-games").addEventListener("click", openYourGames); // over the first screen, which stays
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
  showRules(app.ruleSets.default_explained, app.ruleSets.default); // until a game says its own
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
