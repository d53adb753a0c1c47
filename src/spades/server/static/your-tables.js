// The tables with friends this browser sits at, for Your games. A table's seat is
// held by a cookie of that table's own (sent to its address only), so the games
// list cannot find it: the page remembers each table it opens, here, and forgets
// it when its game is over. Only the table, the seat and when: nothing else.

const KEY = "spades.tables";
const MOST = 20;

export function keptTables() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(kept) ? kept.filter((t) => typeof t?.id === "string" && /^[\w-]{1,64}$/.test(t.id)) : [];
  } catch {
    return [];
  }
}

function keep(tables) {
  try {
    localStorage.setItem(KEY, JSON.stringify(tables.slice(0, MOST)));
  } catch {
    // private browsing: the tables are listed for this visit only
  }
}

/** Remember the table ``info`` describes (when this browser has a seat or hosts it). */
export function rememberTable(info) {
  if (!info?.id || (!info.you && !info.host)) return;
  const others = keptTables().filter((t) => t.id !== info.id);
  const names = (info.seats ?? []).filter((s) => s.name && s.seat !== info.you).map((s) => s.name);
  keep([{ id: info.id, seat: info.you ?? null, started: Boolean(info.started), with: names, at: new Date().toISOString() }, ...others]);
}

export function forgetTable(id) {
  keep(keptTables().filter((t) => t.id !== id));
}
