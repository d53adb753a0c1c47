// How the deals were chosen: the commitment of a fair game, then its seed and the
// command that checks every deal; or why a practice game is one.

import { openDialog } from "./dialogs.js";
import { $, div } from "./dom.js";
import { app } from "./state.js";

export function paragraph(text) {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}

// A value to read or copy exactly: the commitment, the command.
export function exact(text, id) {
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

export function renderFairness(view) {
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

export function openFairness() {
  if (!app.view?.fairness) return;
  renderFairness(app.view);
  openDialog("fair-dialog");
}
