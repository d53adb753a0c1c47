// The new-game dialog: the bots' levels, the rules (checked by the server as they
// are typed), and setting a table with friends.

import { createTable } from "./table.js";
import { api } from "./api.js";
import { openDialog } from "./dialogs.js";
import { $ } from "./dom.js";
import { showRules } from "./rules.js";
import { SEATS } from "./seats.js";
import { app, savePrefs } from "./state.js";

export function openWelcome(canGoBack, mode = "solo") {
  setWelcomeMode(mode);
  $("welcome-title").textContent = canGoBack ? "New game and settings" : "Spades";
  $("cancel-new-game").hidden = !canGoBack;
  $("start-game").textContent = canGoBack ? "Deal a new game" : "Deal";
  fillLevels();
  fillRules();
  $("undo-setting").checked = app.prefs.undo !== false;
  $("speed-select").value = app.prefs.speed;
  $("theme-select").value = app.prefs.theme;
  $("sound-toggle").checked = Boolean(app.prefs.sound);
  const dialog = openDialog("welcome-dialog");
  // Opened at its top, the title and the introduction first: the Deal button is in
  // view anyway (its row stays at the bottom of the panel), so focusing it scrolls nothing.
  dialog.scrollTop = 0;
  $("start-game").focus({ preventScroll: true });
}

export function fillLevels() {
  if (!app.levels) return;
  const seats = [["partner-level", "partner"], ["west-level", "west"], ["east-level", "east"]];
  for (const [id, key] of seats) {
    const select = $(id);
    const about = $(`${id}-about`);
    if (!select.childElementCount) {
      for (const level of app.levels.levels) {
        const option = document.createElement("option");
        option.value = level;
        const name = level[0].toUpperCase() + level.slice(1);
        option.textContent = level === app.levels.default ? `${name} (default)` : name;
        select.append(option);
      }
      select.addEventListener("change", () => describeLevel(select, about));
    }
    // A seat's own choice, else the older both-opponents choice, else this game's, else the default.
    const both = key === "partner" ? null : app.prefs.opponents;
    const wanted = app.prefs[key] ?? both ?? app.state?.settings?.[key] ?? app.levels.default;
    select.value = app.levels.levels.includes(wanted) ? wanted : app.levels.default;
    describeLevel(select, about);
  }
}

// The rules: a preset, then house rules written as the command line writes them
// (target=300, blind_nil=on). The server reads them as they are typed and says what
// they mean, or what is wrong, before a game is dealt under them.
export function fillRules() {
  if (!app.ruleSets) return;
  const select = $("rules-preset");
  if (!select.childElementCount) {
    for (const preset of app.ruleSets.presets) {
      const option = document.createElement("option");
      option.value = preset.name;
      option.textContent = preset.name === app.ruleSets.default ? `${preset.name} (default)` : preset.name;
      select.append(option);
    }
    select.addEventListener("change", checkRules);
    $("rules-changes").addEventListener("input", () => {
      clearTimeout(app.rulesTimer);
      app.rulesTimer = setTimeout(checkRules, 250);
    });
  }
  const names = app.ruleSets.presets.map((p) => p.name);
  select.value = names.includes(app.prefs.rulesPreset) ? app.prefs.rulesPreset : app.ruleSets.default;
  $("rules-changes").value = app.prefs.rulesChanges ?? "";
  showKeptRules();
  checkRules();
}

// House rules typed for an earlier game are kept for the next, and said so where they
// are typed, with a way back to the plain rules: a new game never deals under rules
// the player has forgotten choosing.
export function showKeptRules() {
  const kept = Boolean(app.prefs.rulesChanges) || (app.prefs.rulesPreset && app.prefs.rulesPreset !== app.ruleSets?.default);
  const note = $("rules-kept");
  note.hidden = !kept;
  $("rules-changes").classList.toggle("kept", Boolean(app.prefs.rulesChanges));
}

export function clearKeptRules() {
  $("rules-preset").value = app.ruleSets.default;
  $("rules-changes").value = "";
  app.prefs.rulesPreset = app.ruleSets.default;
  app.prefs.rulesChanges = "";
  savePrefs();
  showKeptRules();
  checkRules();
  $("rules-changes").focus();
}

// The new-game dialog sets a table with friends too: the same rules part, with a
// person or a bot level for each seat instead of the bots' levels.
export function setWelcomeMode(mode) {
  const dialog = $("welcome-dialog");
  dialog.dataset.mode = mode;
  const friends = mode === "friends";
  $("friends-button").hidden = friends;
  $("solo-button").hidden = !friends;
  if (friends) {
    $("welcome-title").textContent = "Play with friends";
    $("start-game").textContent = "Set the table";
    fillFriendSeats();
    $("host-name").value = app.prefs.name ?? "";
    $("host-name").focus();
  } else {
    $("start-game").textContent = app.state ? "Deal a new game" : "Deal";
  }
}

export function fillFriendSeats() {
  if (!app.levels) return;
  const host = $("host-seat").value;
  for (const seat of SEATS) {
    const select = $(`friend-${seat}`);
    if (!select.childElementCount) {
      const person = document.createElement("option");
      person.value = "person";
      person.textContent = "A friend (invite link)";
      select.append(person);
      for (const level of app.levels.levels) {
        const option = document.createElement("option");
        option.value = level;
        option.textContent = `Bot: ${level}`;
        select.append(option);
      }
      select.value = seat === "N" || seat === "S" ? "person" : app.levels.default;
    }
    // Your own seat is a person's: yours.
    if (seat === host) select.value = "person";
    select.disabled = seat === host;
  }
}

export async function setTable() {
  const seats = Object.fromEntries(SEATS.map((seat) => [seat, $(`friend-${seat}`).value]));
  const turn = Number($("turn-timer").value);
  app.prefs.name = $("host-name").value.trim();
  savePrefs();
  try {
    await createTable(api, {
      seats,
      host_seat: $("host-seat").value,
      name: $("host-name").value,
      rules: chosenRules(),
      away_seconds: Number($("away-wait").value),
      turn_seconds: turn > 0 ? turn : null,
    });
  } catch (error) {
    $("friends-error").textContent = error.message;
  }
}

// "cardcouch" and "target=300 blind_nil=on" make "cardcouch,target=300,blind_nil=on".
export function rulesText(preset, changes) {
  const tidy = (changes ?? "").trim().replace(/\s*,\s*|\s+/g, ",").replace(/^,|,$/g, "");
  return tidy ? `${preset},${tidy}` : preset;
}

export const chosenRules = () => rulesText($("rules-preset").value, $("rules-changes").value);

export async function checkRules() {
  const preset = app.ruleSets.presets.find((p) => p.name === $("rules-preset").value);
  $("rules-preset-source").textContent = preset?.source ?? "";
  const about = $("rules-about");
  const asked = chosenRules();
  let checked;
  try {
    checked = await api("GET", `/api/rules/check?rules=${encodeURIComponent(asked)}`);
  } catch (error) {
    checked = { ok: false, problem: error.message };
  }
  if (asked !== chosenRules()) return; // typed on meanwhile: that check answers
  about.textContent = checked.ok ? `Playing: ${checked.summary}.` : checked.problem;
  // Before the first deal How to play says the rules chosen; once a game is on
  // the table, that game's (draw.js follows them).
  if (checked.ok && !app.state) showRules(checked.explained, asked);
  about.classList.toggle("error", !checked.ok);
  $("start-game").disabled = !checked.ok;
}

// One line under each level menu on how the chosen level plays (the server's words).
export function describeLevel(select, about) {
  about.textContent = app.levels.summaries?.[select.value] ?? "";
}
