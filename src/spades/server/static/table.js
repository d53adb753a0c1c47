// A table with friends: the lobby (who sits where, invite links, start), the live
// socket that brings each bid and card as it happens (polling when it cannot), who is
// here or away, the turn timer and the quick reactions. The table itself is drawn by
// app.js from this seat's view, exactly as a game against bots is.

import { $ } from "./dom.js";
import { SEAT_NAMES, SEATS } from "./seats.js";
import { withArticle } from "./words.js";
import { forgetTable, rememberTable } from "./your-tables.js";

// Words, not emoji: every device shows them the same (an emoji font is not everywhere).
const REACTIONS = {
  nice: "Nice!",
  oops: "Oops",
  wow: "Wow",
  thanks: "Thanks",
  hurry: "Your turn…",
};
const POLL_MS = 2000;
const RETRY_MS = 5000;


// The table a page address names: /tables/ID (with ?seat=N&invite=... for a guest).
export function tableIdInAddress() {
  const match = /^\/tables\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname);
  return match ? match[1] : null;
}

// Set a table from the new-game dialog's friends part and go to it.
export async function createTable(api, body) {
  const table = await api("POST", "/api/tables", body);
  location.assign(`/tables/${table.id}`);
}

export function createTableClient(ctx) {
  const { app, api } = ctx;
  const id = tableIdInAddress();
  const base = `/api/tables/${id}`;
  let info = null; // the table: seats, presence, invites (for the host)
  let infoAt = 0; // when it came: its countdowns run from then
  let log = null; // how many of the game's events this page has drawn (null: none yet)
  let socket = null;
  let pollTimer = 0;
  const queue = [];
  let draining = false;
  let sending = false; // a move is on its way: nothing else is sent until it is answered

  // ------------------------------------------------------------------ updates

  function take(update, fromSocket = false) {
    // While the socket is open it brings every change of the table, in the server's
    // order. A move's reply was built when the move was made and can arrive after a
    // later push (someone leaving just then): its table would undo the news.
    if (fromSocket || socket?.readyState !== WebSocket.OPEN) {
      info = update.table;
      infoAt = performance.now();
    }
    renderLobby();
    if (!update.game) return;
    if (update.game.game_over) forgetTable(id); // Your games lists the unfinished only
    const first = update.log - update.events.length;
    const fromTheDeal = first === 0 && update.events.length > 0;
    if ((log === null && !fromTheDeal) || update.resync) {
      // A game under way (a reload, a return): drawn as it stands, nothing replayed.
      log = update.log;
      queue.length = 0;
      queue.push({ events: [], game: update.game });
    } else if (update.log > (log ?? 0)) {
      // The events this page has not drawn: a reply and a push may both bring some.
      queue.push({ events: update.events.slice(Math.max(0, (log ?? 0) - first)), game: update.game });
      log = update.log;
    } else {
      if (app.view) ctx.render(app.view); // only who is here changed
      return;
    }
    if ($("lobby-dialog").open) $("lobby-dialog").close();
    drain();
  }

  async function drain() {
    if (draining) return;
    draining = true;
    while (queue.length) {
      const { events, game } = queue.shift();
      app.busy = true;
      try {
        await ctx.playEvents(events, game);
      } finally {
        app.busy = sending;
      }
      app.state = game;
      ctx.render(game);
      ctx.afterUpdate(game);
    }
    draining = false;
  }

  async function send(action, body) {
    if (app.busy || sending) return;
    sending = true;
    app.busy = true;
    ctx.clearMessage();
    ctx.render(app.view);
    try {
      const update = await api("POST", `${base}/${action}`, body);
      sending = false;
      app.busy = draining; // a push being drawn meanwhile keeps the table busy until it ends
      take(update);
    } catch (error) {
      sending = false;
      app.busy = draining;
      ctx.render(app.view);
      ctx.showMessage(error.message);
    }
  }

  // ------------------------------------------------------------ live or polled

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const since = log === null ? "" : `?since=${log}`;
    socket = new WebSocket(`${scheme}://${location.host}${base}/ws${since}`);
    socket.addEventListener("open", () => {
      clearInterval(pollTimer);
      pollTimer = 0;
      document.body.classList.remove("table-offline");
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "reaction") showReaction(message);
      else take(message, true);
    });
    socket.addEventListener("close", () => {
      socket = null;
      document.body.classList.add("table-offline");
      // Keep up by polling meanwhile, and try the socket again now and then.
      if (!pollTimer) pollTimer = setInterval(poll, POLL_MS);
      setTimeout(connect, RETRY_MS);
    });
  }

  async function poll() {
    try {
      take(await api("GET", `${base}/game${log === null ? "" : `?since=${log}`}`));
    } catch (error) {
      ctx.showMessage(error.message);
    }
  }

  // -------------------------------------------------------------------- lobby

  function seatLine(seat) {
    const it = info.seats.find((s) => s.seat === seat);
    const item = document.createElement("li");
    item.className = "lobby-seat";
    item.dataset.seat = seat;
    const who = document.createElement("span");
    who.className = "lobby-who";
    const mine = info.you === seat ? " (you)" : "";
    if (it.kind === "bot") who.textContent = `${SEAT_NAMES[seat]}: bot, ${it.level}`;
    else if (it.name) who.textContent = `${SEAT_NAMES[seat]}: ${it.name}${mine}${it.connected || info.you === seat ? " \u00b7 here" : ""}`;
    else who.textContent = `${SEAT_NAMES[seat]}: open seat`;
    item.append(who);
    const invite = info.invites[seat];
    if (invite) {
      const link = `${location.origin}/tables/${info.id}?seat=${seat}&invite=${invite}`;
      const field = document.createElement("input");
      field.type = "text";
      field.readOnly = true;
      field.value = link;
      field.className = "invite-link";
      field.setAttribute("aria-label", `Invite link for ${SEAT_NAMES[seat]}`);
      const copy = document.createElement("button");
      copy.type = "button";
      copy.className = "secondary copy-invite";
      copy.textContent = "Copy link";
      copy.addEventListener("click", async () => {
        field.select();
        try {
          await navigator.clipboard.writeText(link);
          copy.textContent = "Copied";
        } catch {
          copy.textContent = "Selected: copy it";
        }
      });
      item.append(field, copy);
    }
    // The host may give back the seat of someone who left for good: a bot plays it
    // until someone takes it with the new link this makes.
    if (info.host && it.kind === "person" && it.name && seat !== info.you) {
      const free = document.createElement("button");
      free.type = "button";
      free.className = "secondary free-seat";
      free.textContent = "Free the seat";
      free.setAttribute("aria-label", `Free ${SEAT_NAMES[seat]}'s seat: ${it.name} left for good`);
      free.addEventListener("click", async () => {
        try {
          info = await api("POST", `${base}/seats/${seat}/free`);
          infoAt = performance.now();
          renderLobby();
          ctx.announce(`${SEAT_NAMES[seat]}'s seat is free: send its new link to whoever takes it.`);
        } catch (error) {
          ctx.showMessage(error.message);
        }
      });
      item.append(free);
    }
    return item;
  }

  function renderLobby() {
    if (!info) return;
    rememberTable(info);
    $("lobby-seats").replaceChildren(...SEATS.map(seatLine));
    $("lobby-rules").textContent = `Rules: ${info.rules_summary}. A seat whose person is away waits ${info.away_seconds} s, then ${withArticle(info.stand_in)} bot plays it until they are back${info.turn_seconds ? `; ${info.turn_seconds} s a turn` : ""}.`;
    const guest = !info.you && !info.host;
    $("join-form").hidden = !guest;
    $("lobby-start").hidden = !info.host || info.started;
    const open = info.seats.filter((s) => s.kind === "person" && !s.name).length;
    $("lobby-status").textContent = info.started
      ? "The game is on."
      : info.host
        ? open
          ? `Send each friend their link. ${open === 1 ? "A seat nobody takes" : "Seats nobody takes"} will be played by ${withArticle(info.stand_in)} bot until someone joins.`
          : "Everyone is here: deal when you are ready."
        : info.you
          ? "You are seated. Waiting for the host to deal…"
          : "Give your name to take your seat.";
    if (guest) $("join-seat").textContent = SEAT_NAMES[invitedSeat()] ?? "";
  }

  const invitedSeat = () => new URLSearchParams(location.search).get("seat")?.toUpperCase();

  async function join(event) {
    event.preventDefault();
    const params = new URLSearchParams(location.search);
    try {
      info = await api("POST", `${base}/join`, {
        seat: invitedSeat(),
        invite: params.get("invite") ?? "",
        name: $("join-name").value,
      });
      history.replaceState(null, "", `/tables/${id}`); // the cookie holds the seat now
      $("join-error").textContent = "";
      renderLobby();
      if (!socket) connect();
      if (info.started) poll();
    } catch (error) {
      $("join-error").textContent = error.message;
    }
  }

  async function startGame() {
    $("lobby-start").disabled = true;
    try {
      take(await api("POST", `${base}/start`));
    } catch (error) {
      ctx.showMessage(error.message);
    } finally {
      $("lobby-start").disabled = false;
    }
  }

  // ------------------------------------------------- presence, timer, reactions

  function secondsLeft(value) {
    return value === null ? null : Math.max(0, Math.ceil(value - (performance.now() - infoAt) / 1000));
  }

  function presenceText(seat) {
    const it = info?.seats.find((s) => s.seat === seat);
    if (!it || it.kind === "bot") return "";
    if (!it.name) return `open seat \u00b7 ${info.stand_in} bot plays`;
    if (it.seat === info.you) return "";
    const left = secondsLeft(it.away_seconds_left);
    if (left === null) return it.connected ? "here" : "";
    if (left === 0) return `away \u00b7 ${info.stand_in} bot plays for ${it.name}`;
    return `away \u00b7 a bot plays in ${left} s`;
  }

  // Called by app.js for each seat box it draws.
  function decorate(box, seat) {
    const it = info?.seats.find((s) => s.seat === seat);
    if (!it) return;
    const line = document.createElement("div");
    line.className = "presence";
    line.dataset.seat = seat;
    line.textContent = presenceText(seat);
    line.classList.toggle("away", it.away_seconds_left !== null);
    box.append(line);
  }

  function tick() {
    for (const line of document.querySelectorAll(".presence")) line.textContent = presenceText(line.dataset.seat);
    const clock = $("turn-clock");
    const left = info && app.state?.your_turn ? secondsLeft(info.turn_seconds_left) : null;
    clock.hidden = left === null;
    if (left !== null) {
      clock.textContent = `${left} s`;
      clock.classList.toggle("low", left <= 10);
    }
  }

  function showReaction(message) {
    const word = REACTIONS[message.reaction] ?? message.reaction;
    const box = ctx.seatBox(message.seat);
    const bubble = document.createElement("div");
    bubble.className = "reaction-bubble";
    bubble.textContent = word;
    box.append(bubble);
    ctx.announce(`${message.name || SEAT_NAMES[message.seat]}: ${word}.`);
    setTimeout(() => bubble.remove(), 2600);
  }

  function wireReactions() {
    const bar = $("reactions");
    bar.replaceChildren(
      ...Object.entries(REACTIONS).map(([key, word]) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "reaction";
        button.textContent = word;
        button.setAttribute("aria-label", `React: ${word}`);
        button.addEventListener("click", () => {
          api("POST", `${base}/react`, { reaction: key }).catch((error) => ctx.showMessage(error.message));
        });
        return button;
      }),
    );
  }

  // -------------------------------------------------------------------- start

  async function start() {
    document.body.classList.add("at-table");
    $("join-form").addEventListener("submit", join);
    $("lobby-start").addEventListener("click", startGame);
    // Made here, not in the page: a game against bots has no table to show.
    const tableButton = document.createElement("button");
    tableButton.type = "button";
    tableButton.id = "table-button";
    tableButton.className = "tool";
    tableButton.textContent = "Table";
    tableButton.setAttribute("aria-haspopup", "dialog");
    document.querySelector(".topbar .actions").append(tableButton);
    tableButton.addEventListener("click", () => {
      renderLobby();
      ctx.openDialog("lobby-dialog");
    });
    wireReactions();
    setInterval(tick, 1000);
    const params = new URLSearchParams(location.search);
    try {
      const query = params.has("invite") ? `?seat=${encodeURIComponent(params.get("seat") ?? "")}&invite=${encodeURIComponent(params.get("invite"))}` : "";
      info = await api("GET", `${base}${query}`);
      infoAt = performance.now();
    } catch (error) {
      $("lobby-status").textContent =
        error.status === 404 ? "This table is not open to you: the invite is wrong, or someone has taken its seat. Ask the host for your invite link." : error.message;
      $("join-form").hidden = true;
      $("lobby-start").hidden = true;
      ctx.openDialog("lobby-dialog");
      return;
    }
    if (info.you) history.replaceState(null, "", `/tables/${id}`);
    renderLobby();
    ctx.openDialog("lobby-dialog");
    if (info.you) connect();
  }

  return { id, start, send, decorate, get info() { return info; } };
}
