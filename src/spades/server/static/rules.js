// How to play, in the words of the rules in play. The server words every rule set
// (core's Rules.explained), so the dialog says blind Nil, the Nil points, the bags,
// the target and the spade lead as this game has them, and nothing it has not.

import { api } from "./api.js";
import { $, el } from "./dom.js";

let shown = null; // the rules (short syntax) the dialog says now
let asked = null; // the rules being fetched

export function showRules(explained, name) {
  const list = (id, sentences) => $(id).replaceChildren(...sentences.map((text) => el("li", "", text)));
  list("rules-bidding", explained.bidding);
  list("rules-passing", explained.passing);
  $("rules-passing-section").hidden = explained.passing.length === 0;
  list("rules-play", explained.play);
  $("rules-scoring").replaceChildren(
    ...explained.scoring.map((line) => {
      const row = el("tr");
      row.append(el("td", "", line.result), el("td", "", line.points), el("td", "", line.example));
      return row;
    }),
  );
  $("rules-winning").textContent = explained.winning;
  $("rules-dialog").dataset.rules = name;
  shown = name;
}

// The game's rules, named in short (a view's `rules`): worded once they are fetched.
export async function followRules(name) {
  if (!name || name === shown || name === asked) return;
  asked = name;
  try {
    const checked = await api("GET", `/api/rules/check?rules=${encodeURIComponent(name)}`);
    if (checked.ok && asked === name) showRules(checked.explained, name);
  } catch {
    // The dialog keeps the rules it said; the rules pill names the game's.
  } finally {
    if (asked === name) asked = null;
  }
}
