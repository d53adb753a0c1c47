// Table tools beside South's hand: look at the last trick, take back a move, claim
// tricks. The server decides: undo and claim are intents, and the page shows what
// it answers (a refused claim says only that the defence can beat it).

import { cardFace, cardName } from "./cards.js";
import { $ } from "./dom.js";
import { SEAT_NAMES, SEATS } from "./seats.js";
import { bidText, plural } from "./words.js";

/**
 * The tools, wired to the page's own machinery:
 * ctx.app (the page state), ctx.api(method, path, body), ctx.perform(request) (runs an
 * intent and animates its events; resolves to the update or null), ctx.showMessage(text,
 * kind), ctx.announce(text), ctx.openDialog(id).
 */
export function createTableTools(ctx) {
  const { app } = ctx;
  let lastTrickOpen = false;
  // The page's own seat is "you": South against bots, the seat taken at a table.
  const who = (seat) => (seat === (app.state?.you ?? "S") ? "you" : SEAT_NAMES[seat]);

  // -------------------------------------------------------------- last trick

  function renderLastTrick(view) {
    const panel = $("last-trick");
    const button = $("last-trick-button");
    const trick = view?.last_trick ?? null;
    button.setAttribute("aria-expanded", String(lastTrickOpen));
    button.classList.toggle("on", lastTrickOpen);
    panel.hidden = !lastTrickOpen;
    if (!lastTrickOpen) return;
    const caption = $("last-trick-caption");
    for (const seat of SEATS) {
      const slot = panel.querySelector(`.mini-${seat}`);
      const play = trick?.cards.find((p) => p.seat === seat);
      slot.replaceChildren();
      slot.classList.toggle("won", Boolean(trick && trick.winner === seat));
      if (!play) continue;
      const face = document.createElement("div");
      face.className = "mini-card";
      face.dataset.card = play.card;
      face.setAttribute("role", "img");
      face.setAttribute("aria-label", `${SEAT_NAMES[seat]}: ${cardName(play.card)}`);
      face.append(cardFace(play.card));
      const label = document.createElement("span");
      label.className = "mini-seat";
      label.textContent = seat;
      label.setAttribute("aria-hidden", "true");
      slot.append(face, label);
    }
    if (!trick) {
      caption.textContent = "No trick has been taken yet in this hand.";
      return;
    }
    const winning = trick.cards.find((p) => p.seat === trick.winner).card;
    const led = trick.cards[0];
    caption.textContent =
      `${who(led.seat)[0].toUpperCase()}${who(led.seat).slice(1)} led the ${cardName(led.card)}; ` +
      `${who(trick.winner)} won with the ${cardName(winning)}.`;
  }

  function toggleLastTrick(force) {
    lastTrickOpen = force ?? !lastTrickOpen;
    renderLastTrick(app.view);
    if (lastTrickOpen) ctx.announce(`Last trick: ${$("last-trick-caption").textContent}`);
  }

  // -------------------------------------------------------------------- undo

  const canUndo = () =>
    Boolean(app.state && !app.busy && app.state.undo?.available && app.state.phase !== "over");

  async function undo() {
    if (!canUndo()) {
      if (app.state && !app.state.undo?.enabled) ctx.showMessage("Undo is off in this game.");
      else if (app.state && !app.busy) ctx.showMessage("There is nothing of yours to take back in this hand.");
      return;
    }
    const update = await ctx.perform(() => ctx.api("POST", `/api/games/${app.state.id}/undo`));
    if (!update) return;
    const whose = (seat) => (who(seat) === "you" ? "your" : `${SEAT_NAMES[seat]}'s`);
    const moves = update.taken_back.map(
      (move) => `${whose(move.seat)} ${move.card ? cardName(move.card) : `bid of ${bidText(move.bid)}`}`,
    );
    const text = `Taken back: ${moves.join(", ")}.`;
    ctx.showMessage(text, "info");
    ctx.announce(text);
  }

  // ------------------------------------------------------------------- claim

  const canClaim = () => Boolean(app.state && !app.busy && app.state.claim?.available);

  function openClaim() {
    const offer = app.state?.claim;
    if (!offer || app.busy) {
      ctx.showMessage("You may claim when it is your turn to play a card.");
      return;
    }
    if (!offer.available) {
      ctx.showMessage(offer.note);
      return;
    }
    const select = $("claim-tricks");
    const left = offer.tricks_left;
    select.replaceChildren(
      ...[...offer.choices].reverse().map((n) => {
        const option = document.createElement("option");
        option.value = String(n);
        if (n < left) option.textContent = `${n} of the ${plural(left, "trick")} left`;
        else option.textContent = { 1: "The last trick", 2: "Both tricks left" }[left] ?? `All ${left} tricks left`;
        return option;
      }),
    );
    $("claim-left").textContent = plural(left, "trick");
    $("claim-note").textContent = offer.note;
    ctx.openDialog("claim-dialog");
    select.focus();
  }

  async function claim(tricks) {
    if (!canClaim()) return;
    const update = await ctx.perform(() =>
      ctx.api("POST", `/api/games/${app.state.id}/claim`, { tricks }),
    );
    if (!update) return;
    // A held claim has played out as events (and the hand's summary); a refused one
    // leaves the table as it was, so say so where South looks.
    if (!update.claim.held) ctx.showMessage(update.claim.message, "info");
    ctx.announce(update.claim.message);
  }

  // ------------------------------------------------------------------ wiring

  function render(view) {
    renderLastTrick(view);
    // While the hand is bid no tool has anything to do (South's bid is taken back
    // during the play): a phone hides them then, keeping its height for the cards.
    $("table-tools").classList.toggle("during-bidding", view?.phase === "bidding");
    const undoButton = $("undo-button");
    undoButton.hidden = !app.state?.undo?.enabled;
    undoButton.disabled = !canUndo();
    $("claim-button").disabled = !canClaim();
    $("last-trick-button").disabled = !view;
  }

  function onKey(event) {
    const key = event.key.toLowerCase();
    if (key === "l") toggleLastTrick();
    else if (key === "u") undo();
    else if (key === "c") openClaim();
    else if (key === "escape" && lastTrickOpen) toggleLastTrick(false);
    else return false;
    event.preventDefault();
    return true;
  }

  $("last-trick-button").addEventListener("click", () => toggleLastTrick());
  $("last-trick-close").addEventListener("click", () => toggleLastTrick(false));
  $("undo-button").addEventListener("click", undo);
  $("claim-button").addEventListener("click", openClaim);
  $("claim-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("claim-dialog").close();
    claim(Number($("claim-tricks").value));
  });
  $("claim-cancel").addEventListener("click", () => $("claim-dialog").close());

  return { render, onKey };
}
