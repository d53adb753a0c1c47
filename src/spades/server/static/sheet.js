// The score sheet: every hand's bids, tricks, points and bags.

import { $, div } from "./dom.js";
import { teamLabel } from "./state.js";
import { bidText } from "./words.js";

export const SHEET_COLUMNS = ["Hand", "Team", "Bids", "Tricks", "Result", "Points", "Bags", "Total"];

export function renderSheet(view) {
  const body = $("sheet-body");
  if (!view.score_sheet.length) {
    body.replaceChildren(div("empty", "No hand has been scored yet."));
    return;
  }
  const table = document.createElement("table");
  table.className = "sheet";
  const caption = document.createElement("caption");
  // The totals now, here rather than in a footer row: a footer cell as wide as both
  // totals once pushed the Total column out of the box.
  caption.textContent =
    "Every hand's bids, tricks, points and bags. Now: " +
    view.teams.map((t) => `${teamLabel(t.team)} ${t.score}`).join(", ") +
    ".";
  table.append(caption);
  const head = table.createTHead().insertRow();
  for (const title of SHEET_COLUMNS) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = title;
    head.append(th);
  }
  const tbody = table.createTBody();
  for (const hand of view.score_sheet) {
    hand.teams.forEach((result, index) => {
      const row = tbody.insertRow();
      row.className = `team-${result.team}${index === 1 ? " hand-end" : ""}`;
      const cells = [
        index === 0 ? String(hand.hand) : "",
        teamLabel(result.team),
        Object.entries(result.bids).map(([s, b]) => `${s} ${bidText(b)}`).join(", "),
        `${Object.values(result.tricks).reduce((a, b) => a + b, 0)} (${Object.entries(result.tricks).map(([s, t]) => `${s} ${t}`).join(", ")})`,
        result.summary.join("; "),
        `${result.delta >= 0 ? "+" : ""}${result.delta}`,
        `${result.bags}${result.bags_taken ? ` (+${result.bags_taken})` : ""}`,
        String(result.total),
      ];
      cells.forEach((text, column) => {
        const cell = column === 0 && text ? document.createElement("th") : row.insertCell();
        if (column === 0 && text) {
          cell.scope = "row";
          row.append(cell);
        }
        cell.textContent = text;
        // On a phone each row is laid out as a small card, its cells labelled (style.css).
        cell.dataset.label = SHEET_COLUMNS[column];
        cell.classList.add(`col-${SHEET_COLUMNS[column].toLowerCase()}`);
        if (column >= 5) cell.classList.add("num");
        if (column === 5) cell.classList.add(result.delta >= 0 ? "good" : "bad");
      });
    });
  }
  body.replaceChildren(table);
}
