// Your statistics across games: numbers the server computes from the games it keeps,
// drawn here as small inline SVG charts (no charting library: a few bars and lines).

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(name, attributes = {}, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function html(name, className, text) {
  const node = document.createElement(name);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const percent = (part, whole) => (whole ? `${Math.round((100 * part) / whole)}%` : "–");
const signed = (n) => (n > 0 ? `+${n}` : String(n));

/** A chart: an <svg> sized by its viewBox, with a text alternative for screen readers. */
function chart(width, height, label) {
  const node = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": label });
  node.append(svg("title", {}, label));
  return node;
}

// One bar split in two (made and set, won and lost), with both numbers in words.
function splitBar(good, bad, goodWord, badWord) {
  const total = good + bad;
  const label = total
    ? `${good} ${goodWord}, ${bad} ${badWord} (${percent(good, total)} ${goodWord})`
    : `none yet`;
  const node = chart(300, 30, label);
  node.classList.add("split");
  const share = total ? (300 * good) / total : 0;
  node.append(svg("rect", { x: 0, y: 4, width: 300, height: 18, rx: 4, class: total ? "bar-bad" : "bar-empty" }));
  if (share) node.append(svg("rect", { x: 0, y: 4, width: share, height: 18, rx: 4, class: "bar-good" }));
  return node;
}

function levelChart(levels) {
  const rows = levels.length;
  const height = Math.max(1, rows) * 30;
  const label = rows
    ? levels.map((l) => `against ${l.opponents}: ${l.won} won, ${l.lost} lost`).join("; ")
    : "No finished game yet";
  const node = chart(420, height, label);
  const most = Math.max(1, ...levels.map((l) => l.played));
  levels.forEach((level, index) => {
    const y = index * 30;
    node.append(svg("text", { x: 0, y: y + 19, class: "chart-label" }, level.opponents));
    const scale = 220 / most;
    node.append(svg("rect", { x: 110, y: y + 6, width: level.won * scale, height: 18, class: "bar-good" }));
    node.append(
      svg("rect", { x: 110 + level.won * scale, y: y + 6, width: level.lost * scale, height: 18, class: "bar-bad" }),
    );
    node.append(
      svg("text", { x: 110 + level.played * scale + 6, y: y + 19, class: "chart-value" }, `${level.won}–${level.lost}`),
    );
  });
  return node;
}

// Columns up from (or down from) a zero line, one per hand, with the average dashed;
// the scale's ends are written in a margin on the left.
function columnChart(values, { label, average, kind }) {
  const width = 420;
  const height = 120;
  const left = 34;
  const node = chart(width, height, label);
  if (!values.length) return node;
  const top = Math.max(1, ...values);
  const bottom = Math.min(0, ...values);
  const span = top - bottom;
  const y = (v) => 6 + ((top - v) / span) * (height - 12);
  const step = (width - left) / values.length;
  values.forEach((value, index) => {
    const from = y(Math.max(0, value));
    const to = y(Math.min(0, value));
    node.append(
      svg("rect", {
        x: left + index * step + step * 0.15,
        y: from,
        width: Math.max(1, step * 0.7),
        height: Math.max(1, to - from),
        class: value < 0 ? "bar-bad" : kind,
      }),
    );
  });
  node.append(svg("line", { x1: left, x2: width, y1: y(0), y2: y(0), class: "zero" }));
  if (average !== null) {
    node.append(svg("line", { x1: left, x2: width, y1: y(average), y2: y(average), class: "average" }));
  }
  const scale = [top, 0, ...(bottom < 0 ? [bottom] : [])];
  for (const value of scale) {
    node.append(svg("text", { x: left - 6, y: y(value) + 4, "text-anchor": "end", class: "chart-value" }, String(value)));
  }
  return node;
}

function tile(value, label) {
  const node = html("div", "stat-tile");
  node.append(html("div", "stat-tile-value", value), html("div", "stat-tile-label", label));
  return node;
}

function section(title, ...children) {
  const node = html("section", "stats-section");
  node.append(html("h3", "", title), ...children);
  return node;
}

/** The statistics view for the numbers ``stats`` (the /api/statistics answer). */
export function statisticsView(stats) {
  const body = document.createDocumentFragment();
  if (!stats.games) {
    body.append(html("p", "empty", "No games yet: deal one, and your results will gather here."));
    return body;
  }
  const tiles = html("div", "stat-tiles");
  tiles.append(
    tile(String(stats.games), stats.games === 1 ? "game" : "games"),
    tile(`${stats.won}–${stats.lost}`, "won–lost"),
    tile(percent(stats.won, stats.finished), "games won"),
    tile(stats.points_per_hand === null ? "–" : signed(stats.points_per_hand), "points a hand"),
    tile(stats.bags_per_hand === null ? "–" : String(stats.bags_per_hand), "bags a hand"),
    tile(String(stats.undos), stats.undos === 1 ? "undo" : "undos"),
  );
  body.append(tiles);

  body.append(
    section(
      "Won and lost, by the opponents' level",
      stats.by_level.length ? levelChart(stats.by_level) : html("p", "empty", "No game finished yet."),
    ),
  );
  if (!stats.hands) {
    body.append(html("p", "empty", "No hand scored yet: points, bags, contracts and Nils follow the first."));
    return body;
  }

  const points = stats.recent.map((h) => h.points);
  body.append(
    section(
      `Points a hand, your last ${points.length === 1 ? "hand" : `${points.length} hands`}`,
      columnChart(points, {
        label: `Points in each of your last ${points.length} hands, oldest first: ${points.join(", ")}`,
        average: stats.points_per_hand,
        kind: "bar-good",
      }),
      html("p", "chart-note", `Dashed: your average over all ${stats.hands} hands, ${stats.points_per_hand === null ? "–" : signed(stats.points_per_hand)}.`),
    ),
  );
  const bags = stats.recent.map((h) => h.bags);
  body.append(
    section(
      "Bags a hand",
      columnChart(bags, {
        label: `Bags in each of your last ${bags.length} hands, oldest first: ${bags.join(", ")}`,
        average: stats.bags_per_hand,
        kind: "bar-bags",
      }),
    ),
  );

  const contracts = stats.contracts_made + stats.contracts_set;
  const claims = html(
    "p",
    "chart-note",
    `Claims: ${stats.claims} made, ${stats.claims_held} held. ` +
      `Undos: ${stats.undos}, in ${stats.games_with_undos} ${stats.games_with_undos === 1 ? "game" : "games"}.`,
  );
  body.append(
    section(
      `Contracts: ${stats.contracts_made} made, ${stats.contracts_set} set (${percent(stats.contracts_made, contracts)} made)`,
      splitBar(stats.contracts_made, stats.contracts_set, "made", "set"),
    ),
    section(
      `Your Nil bids: ${stats.nil_tried} tried, ${stats.nil_made} made`,
      splitBar(stats.nil_made, stats.nil_tried - stats.nil_made, "made", "failed"),
    ),
    claims,
  );
  return body;
}
