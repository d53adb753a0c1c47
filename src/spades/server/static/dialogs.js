// The dialogs a game opens by itself: a hand's summary (with its review) and the
// game's end.

import { replayGame } from "./records.js";
import { reviewInShort, showReview } from "./review.js";
import { playSound } from "./sound.js";
import { getReview } from "./api.js";
import { $, div } from "./dom.js";
import { announce } from "./messages.js";
import { TEAM_OF } from "./seats.js";
import { app, teamLabel, you } from "./state.js";
import { plural } from "./words.js";

export function openDialog(id) {
  const dialog = $(id);
  if (!dialog.open) dialog.showModal();
  return dialog;
}

export function summaryTeam(result) {
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

export function showSummary(hand, finalHand, gameId) {
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
  // The review is computed on the server in the background, and folded below the
  // result: the line that unfolds it says what it found once it comes.
  const review = document.createElement("section");
  review.id = "summary-review";
  review.setAttribute("aria-label", `Review of hand ${hand.hand}`);
  review.setAttribute("aria-live", "polite");
  $("summary-review").replaceWith(review);
  const fold = $("summary-fold");
  fold.open = false;
  // Between friends the summary has no review: it would judge the others' play.
  fold.hidden = Boolean(app.table);
  if (!app.table) {
    const label = $("summary-fold-label");
    label.textContent = "Review of this hand: analysing…";
    showReview(getReview, gameId, hand.hand, review).then((found) => {
      if (review.isConnected) label.textContent = found ? `Review of this hand: ${reviewInShort(found)}` : "Review of this hand";
    });
  }
  $("summary-replay").onclick = () => replayGame(gameId, hand.hand);
  const button = $("summary-continue");
  button.textContent = finalHand ? "See the result" : "Next hand";
  const dialog = openDialog("summary-dialog");
  announce(
    `Hand ${hand.hand} scored. ` +
      hand.teams.map((t) => `${teamLabel(t.team)} ${t.delta >= 0 ? "plus" : "minus"} ${Math.abs(t.delta)}, total ${t.total}.`).join(" "),
  );
  dialog.scrollTop = 0; // the result first, whatever the last summary was scrolled to
  button.focus({ preventScroll: true });
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        // Closed while its review is still being analysed: stop asking for it.
        // The server drops a review no one waits for, and Records asks anew.
        if (review.getAttribute("aria-busy") === "true") {
          review.replaceWith(Object.assign(document.createElement("section"), { id: "summary-review", className: "review" }));
        }
        resolve();
      },
      { once: true },
    );
  });
}

export function showGameOver(view) {
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
