// The Records panel: download this browser's games as spades-record/1 files,
// replay any of them, or open a record file from the computer. Every record is
// checked by the server (it re-plays each bid and card); a broken file is
// refused with the line at fault, shown here.

import { $, el } from "./dom.js";
import { openReplay } from "./replay.js";

const MAX_FILE_BYTES = 2_000_000; // the server's limit (characters, as bytes for the check), said at once

let deps = null; // { api, currentGame, onReview }

function say(text, kind = "error") {
  const box = $("records-message");
  box.textContent = text;
  box.className = `records-message ${kind}`;
  box.hidden = !text;
}

function describe(game) {
  const when = new Date(game.updated_at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  const state = game.finished
    ? game.winner === "NS" ? "won" : "lost"
    : `hand ${game.hand_number} in progress`;
  const [west, east] = game.opponents.split("/"); // "west/east" when the two differ
  const opponents = east ? `West ${west}, East ${east}` : `opponents ${west}`;
  return `${when}: ${state} · partner ${game.partner}, ${opponents}`;
}

async function listGames() {
  const list = $("records-games");
  list.replaceChildren(el("li", "records-empty", "Loading your games…"));
  let games;
  try {
    games = (await deps.api("GET", "/api/games")).games;
  } catch (error) {
    list.replaceChildren(el("li", "records-empty", error.message));
    return;
  }
  if (!games.length) {
    list.replaceChildren(el("li", "records-empty", "No game yet."));
    return;
  }
  const current = deps.currentGame()?.id;
  list.replaceChildren(
    ...games.map((game) => {
      const item = el("li", "records-game");
      const label = el("span", "records-label", describe(game));
      if (game.id === current) label.prepend(el("strong", "", "This game: "));
      const replay = el("button", "secondary", "Replay");
      replay.type = "button";
      replay.setAttribute("aria-label", `Replay the game of ${describe(game)}`);
      replay.addEventListener("click", () => replayGame(game.id));
      const download = el("a", "secondary download", "Download");
      download.href = `/api/games/${encodeURIComponent(game.id)}/record`;
      download.setAttribute("download", "");
      download.setAttribute("aria-label", `Download the record of the game of ${describe(game)}`);
      if (!game.finished && game.hand_number === 1) {
        download.removeAttribute("href");
        download.setAttribute("aria-disabled", "true");
        download.title = "Nothing to download before hand 1 is over: the cards in play stay hidden.";
      }
      item.append(label, replay, download);
      return item;
    }),
  );
}

/** Open one of your games in the replay viewer, at ``handNumber`` if given. */
export async function replayGame(gameId, handNumber) {
  try {
    const replay = await deps.api("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
    $("records-dialog").close();
    openReplay(replay, {
      title: replay.finished ? "Your game" : "Your game so far",
      handNumber: handNumber ?? 1,
      onReview: deps.onReview,
    });
  } catch (error) {
    say(error.message);
  }
}

async function openFile(file, game = 1) {
  say("");
  if (file.size > MAX_FILE_BYTES) {
    say(`${file.name} is too big to be one game's record (${Math.round(file.size / 1e6)} MB; at most 2 MB).`);
    return;
  }
  let text;
  try {
    text = await file.text();
  } catch {
    say(`${file.name} could not be read.`);
    return;
  }
  try {
    const replay = await deps.api("POST", "/api/replays", { text, game });
    $("records-dialog").close();
    const which = replay.games_in_file > 1 ? ` (game ${replay.game_index} of ${replay.games_in_file})` : "";
    openReplay(replay, { title: `${file.name}${which}` });
    offerOtherGames(file, replay);
  } catch (error) {
    say(`${file.name} cannot be opened. ${error.message}`);
  }
}

// A file of several games (JSON lines from spades simulate): let the player pick another.
function offerOtherGames(file, replay) {
  const picker = $("rp-file-game");
  picker.hidden = replay.games_in_file < 2;
  if (picker.hidden) return;
  const select = picker.querySelector("select");
  select.replaceChildren(
    ...Array.from({ length: replay.games_in_file }, (_, i) => {
      const option = el("option", "", `Game ${i + 1}`);
      option.value = String(i + 1);
      return option;
    }),
  );
  select.value = String(replay.game_index);
  select.onchange = () => openFile(file, Number(select.value));
}

export function openRecords() {
  for (const open of document.querySelectorAll("#games-dialog[open]")) open.close();
  say("");
  $("records-file").value = "";
  const current = deps.currentGame();
  $("records-current").hidden = !current;
  if (current) {
    const ready = current.phase === "over" || current.score_sheet.length > 0;
    const link = $("records-download");
    link.href = `/api/games/${encodeURIComponent(current.id)}/record`;
    link.toggleAttribute("aria-disabled", !ready);
    if (!ready) link.removeAttribute("href");
    $("records-download-note").textContent = current.phase === "over"
      ? "The whole game, every card of every hand, and the seed that dealt them."
      : ready
        ? "The hands played so far; the hand in progress stays out until it is over, so its hidden cards stay hidden."
        : "Available once hand 1 is over: the cards in play stay hidden until then.";
  }
  $("records-dialog").showModal();
  listGames();
}

export function wireRecords(dependencies) {
  deps = dependencies;
  // Beside Your statistics: Your games, the score sheet, the end of a game and the
  // new-game panel (where a file can be opened before any game).
  for (const button of document.querySelectorAll(".records-link")) button.addEventListener("click", openRecords);
  $("records-replay").addEventListener("click", () => {
    const current = deps.currentGame();
    if (current) replayGame(current.id, current.hand_number);
  });
  $("records-file").addEventListener("change", (event) => {
    const file = event.target.files?.[0];
    if (file) openFile(file);
  });
  // Drop a file anywhere on the panel.
  const dialog = $("records-dialog");
  dialog.addEventListener("dragover", (event) => event.preventDefault());
  dialog.addEventListener("drop", (event) => {
    event.preventDefault();
    const file = event.dataTransfer?.files?.[0];
    if (file) openFile(file);
  });
}
