// Cards drawn in SVG by the page itself: faces with corner indices and pips, and backs.
// A card is named as the server writes it: a rank (2-9, T, J, Q, K, A) then a suit (S, H, D, C).

const SVG_NS = "http://www.w3.org/2000/svg";

export const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const SUIT_SINGULAR = { S: "spade", H: "heart", D: "diamond", C: "club" };
const RANK_WORDS = {
  2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
  T: "10", J: "Jack", Q: "Queen", K: "King", A: "Ace",
};
const RANK_INDEX = { T: "10" };
const RED = new Set(["H", "D"]);

export const rankOf = (card) => card[0];
export const suitOf = (card) => card[1];
// Hearts and diamonds are printed red.
export const isRed = (card) => RED.has(suitOf(card));

/** The card as a person (and a screen reader) says it: "<rank> of <suit>". */
export function cardName(card) {
  return `${RANK_WORDS[rankOf(card)]} of ${SUIT_WORDS[suitOf(card)]}`;
}

/** "Q♥" style short label for text. */
export function cardShort(card) {
  const symbols = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  return `${RANK_INDEX[rankOf(card)] ?? rankOf(card)}${symbols[suitOf(card)]}`;
}

const L = 32;
const C = 50;
const R = 68;
// Pip centres of the number cards, in the 100 x 140 card box.
const PIPS = {
  2: [[C, 32], [C, 108]],
  3: [[C, 32], [C, 70], [C, 108]],
  4: [[L, 32], [R, 32], [L, 108], [R, 108]],
  5: [[L, 32], [R, 32], [C, 70], [L, 108], [R, 108]],
  6: [[L, 32], [R, 32], [L, 70], [R, 70], [L, 108], [R, 108]],
  7: [[L, 32], [R, 32], [C, 51], [L, 70], [R, 70], [L, 108], [R, 108]],
  8: [[L, 32], [R, 32], [C, 51], [L, 70], [R, 70], [C, 89], [L, 108], [R, 108]],
  9: [[L, 32], [R, 32], [L, 57], [R, 57], [C, 70], [L, 83], [R, 83], [L, 108], [R, 108]],
  T: [[L, 32], [R, 32], [C, 45], [L, 57], [R, 57], [L, 83], [R, 83], [C, 95], [L, 108], [R, 108]],
};

function el(name, attributes = {}, children = []) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

function pip(suit, x, y, size, flipped = false) {
  const use = el("use", {
    href: `#suit-${suit}`,
    x: x - size / 2,
    y: y - size / 2,
    width: size,
    height: size,
  });
  if (flipped) use.setAttribute("transform", `rotate(180 ${x} ${y})`);
  return use;
}

function cornerIndex(card) {
  const rank = RANK_INDEX[rankOf(card)] ?? rankOf(card);
  const text = el("text", {
    x: 12,
    y: 25,
    "text-anchor": "middle",
    class: rank.length > 1 ? "index narrow" : "index",
  });
  text.textContent = rank;
  return el("g", {}, [text, pip(suitOf(card), 12, 38, 15)]);
}

function svgBox(extraClass) {
  return el("svg", {
    viewBox: "0 0 100 140",
    class: `card-svg ${extraClass}`,
    "aria-hidden": "true",
    focusable: "false",
  });
}

/** The face of ``card`` as an <svg> element. */
export function cardFace(card) {
  const suit = suitOf(card);
  const rank = rankOf(card);
  const svg = svgBox(RED.has(suit) ? "red" : "black");
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "face" }));
  svg.append(cornerIndex(card));
  svg.append(el("g", { transform: "rotate(180 50 70)" }, [cornerIndex(card)]));
  if (PIPS[rank]) {
    for (const [x, y] of PIPS[rank]) svg.append(pip(suit, x, y, 19, y > 70));
  } else if (rank === "A") {
    svg.append(pip(suit, 50, 70, suit === "S" ? 52 : 40));
  } else {
    svg.append(el("rect", { x: 23, y: 20, width: 54, height: 100, rx: 5, class: "court" }));
    const letter = el("text", { x: 50, y: 84, "text-anchor": "middle", class: "court-letter" });
    letter.textContent = rank;
    svg.append(letter, pip(suit, 50, 38, 20), pip(suit, 50, 102, 20, true));
  }
  return svg;
}

/** A card back as an <svg> element. */
export function cardBack() {
  const svg = svgBox("back");
  svg.append(
    el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "back-edge" }),
    el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "url(#back-pattern)" }),
    el("circle", { cx: 50, cy: 70, r: 17, class: "back-emblem" }),
    pip("S", 50, 70, 20),
  );
  return svg;
}
