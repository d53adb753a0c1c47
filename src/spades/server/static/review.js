// The post-hand review: the plays that cost a trick, the contract or a Nil,
// judged by what each player could know, with the double-dummy view beside.
//
// The server computes a review in the background: it answers 202 "analysing"
// until it is ready, so this asks again every second while the review's box is
// on the page, then draws it.

import { cardName } from "./cards.js";
import { el } from "./dom.js";
import { SEAT_NAMES } from "./seats.js";

const POLL_MS = 1000;
const GIVE_UP_MS = 5 * 60 * 1000;

/**
 * Fill ``container`` with the review of hand ``hand`` of game ``gameId``,
 * showing "Analysing…" while the server works. ``fetchReview(path)`` returns
 * the response body. Stops asking once ``container`` leaves the page.
 * Resolves to the review drawn, or null when there is none to show.
 */
export async function showReview(fetchReview, gameId, hand, container) {
  container.classList.add("review");
  container.setAttribute("aria-busy", "true");
  container.replaceChildren(el("p", "review-wait", `Analysing hand ${hand}: each play is weighed over the deals its player could picture…`));
  const started = Date.now();
  while (container.isConnected) {
    let review;
    try {
      review = await fetchReview(`/api/games/${gameId}/hands/${hand}/review`);
    } catch (error) {
      container.replaceChildren(el("p", "review-error", error.message));
      container.setAttribute("aria-busy", "false");
      return null;
    }
    if (review.status !== "analysing") {
      drawReview(container, review);
      container.setAttribute("aria-busy", "false");
      return review.status === "failed" ? null : review;
    }
    if (Date.now() - started > GIVE_UP_MS) {
      container.replaceChildren(el("p", "review-error", "The review is taking too long: try again later from Records."));
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return null;
}

/** The review in a few words, for the line that unfolds it: "2 costly plays, 1 of them yours". */
export function reviewInShort(review) {
  const mistakes = review.plays.filter((p) => p.verdict === "mistake");
  if (!mistakes.length) return "no costly play";
  const yours = mistakes.filter((p) => p.yours).length;
  const count = `${mistakes.length} costly ${mistakes.length === 1 ? "play" : "plays"}`;
  if (!yours) return count;
  return mistakes.length === 1 ? `${count}, yours` : `${count}, ${yours} of them yours`;
}

function drawReview(container, review) {
  const parts = [];
  if (review.status === "failed") {
    container.replaceChildren(el("p", "review-error", review.detail || "The review failed."));
    return;
  }
  const mistakes = review.plays.filter((p) => p.verdict === "mistake");
  const opinions = review.plays.filter((p) => p.verdict !== "mistake");
  const heading = el("h3", "review-title", mistakes.length ? `${mistakes.length} costly ${mistakes.length === 1 ? "play" : "plays"}` : "No costly play");
  parts.push(heading);
  const intro = el(
    "p",
    "review-note",
    mistakes.length
      ? "Judged by what each player could know: a play is called a mistake when another card did clearly better over the deals consistent with what that player had seen."
      : "No card did clearly worse than another over the deals its player could picture.",
  );
  parts.push(intro);
  if (mistakes.length) parts.push(playList(mistakes));
  if (opinions.length) {
    parts.push(el("h4", "review-subtitle", "Second opinion: with every hand visible"));
    parts.push(el("p", "review-note", "These cards lost against the real layout, but nothing their players had seen made another card better."));
    parts.push(playList(opinions));
  }
  const notes = [];
  if (review.unjudged) notes.push(`${review.unjudged} early ${review.unjudged === 1 ? "play was" : "plays were"} too costly to weigh by information`);
  notes.push(`${review.judged} plays weighed, up to ${review.deals} deals each, in ${review.seconds.toFixed(1)} s`);
  parts.push(el("p", "review-foot", `${notes.join("; ")}.`));
  container.replaceChildren(...parts);
}

function playList(plays) {
  const list = el("ol", "review-list");
  for (const play of plays) {
    const item = el("li", `review-play${play.yours ? " yours" : ""}${play.verdict === "mistake" ? " mistake" : " opinion"}`);
    const head = el("div", "review-head");
    head.append(
      el("span", "review-trick", `Trick ${play.trick}`),
      el("span", "review-card", `${play.yours ? "You" : SEAT_NAMES[play.seat]} played the ${cardName(play.card)}`),
    );
    if (play.better) head.append(el("span", "review-better", `better: the ${cardName(play.better)}`));
    item.append(head, el("p", "review-text", play.explanation));
    if (play.verdict === "mistake" && play.double_dummy) {
      item.append(
        el(
          "p",
          "review-second",
          play.double_dummy.mistake
            ? `Double dummy agrees: ${play.double_dummy.explanation}.`
            : "Double dummy: it lost nothing against the real layout (a gamble that came off).",
        ),
      );
    }
    list.append(item);
  }
  return list;
}
