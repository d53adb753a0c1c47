// Playing back the public events that led to a view: each bid, pass, card and
// trick animated in turn, the table after each as the server wrote it on the event.

import { cardName } from "./cards.js";
import { playSound } from "./sound.js";
import { showSummary } from "./dialogs.js";
import { $ } from "./dom.js";
import { render } from "./draw.js";
import { announce } from "./messages.js";
import { animate, BEATS, pulse, wait } from "./motion.js";
import { nextSeat, SEAT_NAMES } from "./seats.js";
import { app, seatOf, spot, you } from "./state.js";
import { bidText, plural } from "./words.js";

export function seatAnchor(seat) {
  const target = $(`seat-${spot(seat)}`);
  return target.getBoundingClientRect();
}

export function centerOf(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

export async function flyIn(seat, card, fromRect) {
  const slot = document.querySelector(`.slot-${spot(seat)} .played`);
  const mine = seat === you();
  if (!slot) return;
  const to = centerOf(slot.getBoundingClientRect());
  const from = centerOf(fromRect ?? seatAnchor(seat));
  const dx = from.x - to.x;
  const dy = from.y - to.y;
  await animate(
    slot,
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${mine ? 1 : 0.55}) rotate(${mine ? 0 : 12}deg)`, opacity: mine ? 1 : 0.3 },
      { transform: "translate(0, 0) scale(1) rotate(0)", opacity: 1 },
    ],
    BEATS.fly,
  );
}

export async function collectTrick(winner) {
  const to = centerOf(seatAnchor(winner));
  const cards = [...document.querySelectorAll(".trick .played")];
  await Promise.all(
    cards.map((card) => {
      const from = centerOf(card.getBoundingClientRect());
      return animate(
        card,
        [
          { transform: "translate(0, 0) scale(1)", opacity: 1 },
          { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) scale(0.35)`, opacity: 0 },
        ],
        BEATS.collect,
        "ease-in",
        "tricks",
      );
    }),
  );
  for (const card of cards) card.remove();
}

// The table after an event, as the server wrote it on the event: the page never
// works out phases, turns, trick counts, contracts, spades broken or scores for itself.
export function takeAfter(view, event) {
  const after = event.after;
  if (!after) return;
  view.phase = after.phase;
  view.turn = after.turn;
  view.your_turn = false; // until the last event has played: the final state says whose turn it is
  view.tricks_played = after.tricks_played;
  view.spades_broken = after.spades_broken;
  for (const team of view.teams) {
    Object.assign(team, after.teams[team.team]);
    team.score = after.scores[team.team];
    team.bags = after.bags[team.team];
  }
}

export function freshHand(previous, event, final) {
  const base = final.hand_number === event.hand ? final : previous;
  const view = structuredClone(base);
  view.hand_number = event.hand;
  view.dealer = event.dealer;
  view.your_turn = false;
  view.legal_bids = [];
  view.legal_cards = [];
  view.trick = { leader: nextSeat(event.dealer), cards: [], winner: null };
  view.last_trick = null;
  view.tricks_played = 0;
  view.game_over = null;
  view.hand = final.hand_number === event.hand ? [...final.hand] : [];
  for (const seat of view.seats) {
    seat.bid = null;
    seat.tricks = 0;
    seat.cards_left = 13;
    seat.dealer = seat.seat === event.dealer;
  }
  if (previous) view.score_sheet = previous.score_sheet;
  takeAfter(view, event);
  return view;
}

export async function playEvents(events, final) {
  let view = app.view ? structuredClone(app.view) : null;
  for (const event of events) {
    switch (event.type) {
      case "hand_dealt": {
        view = freshHand(view, event, final);
        render(view);
        announce(`Hand ${event.hand}. ${SEAT_NAMES[event.dealer]} deals.`);
        await animate($("hand"), [{ opacity: 0, transform: "translateY(40px)" }, { opacity: 1, transform: "none" }], BEATS.deal);
        break;
      }
      case "bid_made": {
        seatOf(view, event.seat).bid = event.bid;
        takeAfter(view, event);
        render(view);
        pulse(document.querySelector(`#seat-${spot(event.seat)} .badge.bid`));
        playSound("bid");
        announce(`${event.seat === you() ? "You bid" : `${SEAT_NAMES[event.seat]} bids`} ${bidText(event.bid)}.`);
        await wait(event.seat === you() ? BEATS.yourBid : BEATS.botBid);
        break;
      }
      case "cards_passed": {
        takeAfter(view, event);
        view.passing = null;
        render(view);
        pulse(document.querySelector(`#seat-${spot(event.seat)} .badge.bid`));
        playSound("card");
        const who = event.seat === you() ? "You pass" : `${SEAT_NAMES[event.seat]} passes`;
        const whom = event.to === you() ? "you" : SEAT_NAMES[event.to];
        announce(`${who} ${plural(event.count, "card")} to ${whom}.`);
        await wait(event.seat === you() ? BEATS.yourBid : BEATS.botBid);
        break;
      }
      case "card_played": {
        let fromRect = null;
        if (event.seat === you()) {
          const button = document.querySelector(`#hand .card[data-card="${event.card}"]`);
          fromRect = button?.getBoundingClientRect() ?? null;
          view.hand = view.hand.filter((c) => c !== event.card);
        } else {
          seatOf(view, event.seat).cards_left -= 1;
        }
        if (!view.trick.cards.length) view.trick = { leader: event.seat, cards: [], winner: null };
        view.trick.cards.push({ seat: event.seat, card: event.card });
        const breaks = Boolean(event.after?.spades_broken) && !view.spades_broken;
        takeAfter(view, event);
        view.legal_cards = [];
        view.your_turn = false;
        render(view);
        playSound("card");
        announce(`${event.seat === you() ? "You play" : `${SEAT_NAMES[event.seat]} plays`} the ${cardName(event.card)}.`);
        await flyIn(event.seat, event.card, fromRect);
        if (breaks) {
          announce("Spades are broken.");
          pulse($("spades-broken"));
        }
        await wait(event.seat === you() ? BEATS.yourCard : BEATS.botCard);
        break;
      }
      case "trick_won": {
        view.trick.winner = event.seat;
        render(view);
        playSound("trick");
        await wait(BEATS.trickShown, "tricks"); // the trick-result line says who won it, with which card
        await collectTrick(event.seat);
        seatOf(view, event.seat).tricks += 1;
        view.last_trick = { ...view.trick };
        view.trick = { leader: event.seat, cards: [], winner: null };
        takeAfter(view, event);
        render(view);
        pulse(document.querySelector(`#seat-${spot(event.seat)} .badge.tricks`));
        break;
      }
      case "claim": {
        // The claim held: the tricks left are credited at once, the table cleared.
        for (const seat of view.seats) seat.tricks += event.awarded[seat.seat] ?? 0;
        view.trick = { leader: view.trick.leader, cards: [], winner: null };
        takeAfter(view, event);
        view.your_turn = false;
        render(view);
        const all = { 1: "the last trick", 2: "both tricks left" }[event.left] ?? `all ${event.left} tricks left`;
        const taken = event.tricks === event.left ? all : `${event.tricks} of the ${event.left} tricks left`;
        announce(`Claim accepted: you and North take ${taken}.`);
        await wait(BEATS.claim, "tricks");
        break;
      }
      case "hand_over": {
        takeAfter(view, event);
        view.score_sheet = final.score_sheet.filter((h) => h.hand <= event.hand);
        render(view);
        const finalHand = final.game_over !== null && final.score_sheet.at(-1)?.hand === event.hand;
        await showSummary(final.score_sheet.find((h) => h.hand === event.hand), finalHand, final.id);
        break;
      }
      default:
        break; // game_over: shown once every event has played
    }
  }
}
