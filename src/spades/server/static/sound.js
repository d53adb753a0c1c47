// Sound effects, made on the spot with the Web Audio API (no audio files):
// short enough not to tire, quiet enough not to startle. Off unless the
// player turns them on; the page keeps that choice in localStorage.

let context = null;
let enabled = false;

function audio() {
  if (!context) {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume();
  return context;
}

/** Turn sounds on or off. The audio itself starts with the first sound played,
 * which follows a click or a key: browsers start audio only after one. */
export function setSoundEnabled(on) {
  enabled = Boolean(on);
}

export const soundEnabled = () => enabled;

// A tone: frequency glides from ``from`` to ``to`` Hz over ``ms``, with a quick fade in and out.
function tone(ctx, { from, to = from, ms, type = "sine", gain = 0.12, delay = 0 }) {
  const start = ctx.currentTime + delay / 1000;
  const end = start + ms / 1000;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, start);
  osc.frequency.exponentialRampToValueAtTime(to, end);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, end);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(end + 0.02);
}

// A card laid on the felt: a very short burst of filtered noise.
function swish(ctx, ms = 70) {
  const length = Math.floor((ctx.sampleRate * ms) / 1000);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 2;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 2400;
  filter.Q.value = 0.8;
  const amp = ctx.createGain();
  amp.gain.value = 0.35;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start();
}

const SOUNDS = {
  card: (ctx) => swish(ctx),
  trick: (ctx) => {
    tone(ctx, { from: 660, ms: 110, type: "triangle", gain: 0.09 });
    tone(ctx, { from: 990, ms: 160, type: "triangle", gain: 0.07, delay: 70 });
  },
  turn: (ctx) => tone(ctx, { from: 520, to: 620, ms: 120, gain: 0.06 }),
  bid: (ctx) => tone(ctx, { from: 440, ms: 90, type: "triangle", gain: 0.07 }),
  error: (ctx) => tone(ctx, { from: 180, to: 140, ms: 180, type: "square", gain: 0.04 }),
  made: (ctx) => [523, 659, 784].forEach((f, i) => tone(ctx, { from: f, ms: 180, type: "triangle", gain: 0.08, delay: i * 90 })),
  set: (ctx) => [392, 330, 262].forEach((f, i) => tone(ctx, { from: f, ms: 200, type: "triangle", gain: 0.08, delay: i * 110 })),
};

/** Play the sound ``name`` (card, trick, turn, bid, error, made, set) if sounds are on. */
export function playSound(name) {
  if (!enabled || !SOUNDS[name]) return;
  const ctx = audio();
  if (!ctx) return;
  try {
    SOUNDS[name](ctx);
  } catch {
    // a sound is a nicety: never let it break the game
  }
}
