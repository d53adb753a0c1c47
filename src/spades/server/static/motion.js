// Time on the table: waits and animations at the player's chosen speed, none
// when the system asks for less motion.

import { app, DEFAULT_SPEED, SPEEDS } from "./state.js";

// Each beat of the table at the relaxed pace, in milliseconds; the chosen pace
// (state.js's SPEEDS) scales the cards' beats and the tricks' beats.
export const BEATS = {
  deal: 450, // the new hand sliding in
  yourBid: 150,
  botBid: 650,
  fly: 380, // a card flying to the trick
  yourCard: 120, // after your card lands
  botCard: 420, // after a bot's card lands
  trickShown: 900, // the finished trick, its winner glowing
  collect: 420, // the trick swept to its winner
  claim: 700,
};

export const pace = (kind = "cards") => (SPEEDS[app.prefs.speed] ?? SPEEDS[DEFAULT_SPEED])[kind];

// The time one trick takes at a pace, from your card to your next turn when the
// three others play between: what a player waits for, and what the tests hold down.
export function roundTrip(speed) {
  const { cards, tricks } = SPEEDS[speed];
  return (BEATS.fly + BEATS.yourCard) * cards + 3 * (BEATS.fly + BEATS.botCard) * cards + (BEATS.trickShown + BEATS.collect) * tricks;
}

// The player asked the system for less motion: cards then appear in place, nothing flies.
export const REDUCED_MOTION = window.matchMedia?.("(prefers-reduced-motion: reduce)");

export const motionAllowed = () => !REDUCED_MOTION?.matches;

export function wait(ms, kind = "cards") {
  const scaled = ms * pace(kind);
  return scaled > 0 ? new Promise((resolve) => setTimeout(resolve, scaled)) : Promise.resolve();
}

export async function animate(element, keyframes, ms, easing = "cubic-bezier(.2,.7,.3,1)", kind = "cards") {
  const duration = ms * pace(kind);
  if (!element || duration <= 0 || !element.animate || !motionAllowed()) return;
  try {
    await element.animate(keyframes, { duration, easing, fill: "none" }).finished;
  } catch {
    // an animation cut short by a redraw
  }
}

export function pulse(element) {
  animate(element, [{ transform: "scale(1.25)" }, { transform: "scale(1)" }], 320);
}
