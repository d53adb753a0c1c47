// Time on the table: waits and animations at the player's chosen speed, none
// when the system asks for less motion.

import { app, SPEEDS } from "./state.js";

export const pace = () => SPEEDS[app.prefs.speed] ?? 1;

// The player asked the system for less motion: cards then appear in place, nothing flies.
export const REDUCED_MOTION = window.matchMedia?.("(prefers-reduced-motion: reduce)");

export const motionAllowed = () => !REDUCED_MOTION?.matches;

export function wait(ms) {
  const scaled = ms * pace();
  return scaled > 0 ? new Promise((resolve) => setTimeout(resolve, scaled)) : Promise.resolve();
}

export async function animate(element, keyframes, ms, easing = "cubic-bezier(.2,.7,.3,1)") {
  const duration = ms * pace();
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
