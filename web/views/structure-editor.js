// The create form's blind structure (docs/interfaces.md, POST /admin/tournaments, `levels`): the standard structure
// shown level by level, or the operator's own levels, edited row by row (add, remove, change) and sent as `levels`.
// The checks are the domain's (tourney.domain.structure.blind_structure); the API's own message is shown if it refuses.

import { fill, h } from "../dom.js";
import { chips, duration } from "../format.js";

const MAX_LEVELS = 100;
const MAX_CHIPS = 1_000_000_000_000;
const FIRST_SMALL_BLINDS = [25, 50, 75];
const DECADE_STEPS = [10, 15, 20, 30, 40, 50, 60, 80];
const STARTING_ROWS = 12;

/** The default structure's level `n` (docs/rules.md, 'Defaults'): blinds, and a big-blind ante of one BB from level 4. */
export function defaultLevel(n) {
  const small = n <= FIRST_SMALL_BLINDS.length
    ? FIRST_SMALL_BLINDS[n - 1]
    : DECADE_STEPS[(n - FIRST_SMALL_BLINDS.length - 1) % DECADE_STEPS.length] * 10 ** (Math.floor((n - FIRST_SMALL_BLINDS.length - 1) / DECADE_STEPS.length) + 1);
  return { level: n, small_blind: small, big_blind: 2 * small, ante: n >= 4 ? 2 * small : 0 };
}

function wholeIn(text, low, high) {
  const n = Number(String(text).trim());
  return String(text).trim() !== "" && Number.isInteger(n) && n >= low && n <= high ? n : null;
}

/**
 * The API's `levels` from the editor's rows ({small_blind, big_blind, ante, big_blind_ante, minutes}, texts as
 * typed), or the first problem in the operator's words, naming the level.
 */
export function levelsBody(rows) {
  if (!rows.length) return { problem: "The blind structure needs at least one level." };
  if (rows.length > MAX_LEVELS) return { problem: `The blind structure has at most ${MAX_LEVELS} levels.` };
  const levels = [];
  for (const [i, row] of rows.entries()) {
    const n = i + 1;
    const small = wholeIn(row.small_blind, 1, MAX_CHIPS);
    const big = wholeIn(row.big_blind, 1, MAX_CHIPS);
    const ante = String(row.ante ?? "").trim() === "" ? 0 : wholeIn(row.ante, 0, MAX_CHIPS);
    if (small === null) return { problem: `Level ${n}: the small blind is a whole number of chips, at least 1.` };
    if (big === null) return { problem: `Level ${n}: the big blind is a whole number of chips, at least 1.` };
    if (ante === null) return { problem: `Level ${n}: the ante is a whole number of chips, 0 or more.` };
    if (big < small) return { problem: `Level ${n}: the big blind (${chips(big)}) is below the small blind (${chips(small)}).` };
    if (row.big_blind_ante && ante === 0) return { problem: `Level ${n}: a big-blind ante needs an ante above 0.` };
    const before = levels[levels.length - 1];
    if (before && (small < before.small_blind || big < before.big_blind)) {
      return { problem: `Level ${n}: the blinds go down (${chips(small)}/${chips(big)} after ${chips(before.small_blind)}/${chips(before.big_blind)}): a structure only rises.` };
    }
    const level = { small_blind: small, big_blind: big };
    if (ante) level.ante = ante;
    if (row.big_blind_ante) level.big_blind_ante = true;
    if (String(row.minutes ?? "").trim() !== "") {
      const minutes = wholeIn(row.minutes, 1, 120);
      if (minutes === null) return { problem: `Level ${n}: the minutes are a whole number from 1 to 120 (empty: the level length).` };
      level.minutes = minutes;
    }
    levels.push(level);
  }
  return { levels };
}

/** The level an operator adds after `last`: the standard structure's first level above it, its ante kind kept. */
export function nextLevel(last) {
  if (!last) return { ...defaultLevel(1), big_blind_ante: false };
  const big = Number(last.big_blind) || 0;
  let n = 1;
  while (defaultLevel(n).big_blind <= big && n < 200) n += 1;
  const next = defaultLevel(n);
  const withAnte = Number(last.ante) > 0;
  return { small_blind: next.small_blind, big_blind: next.big_blind, ante: withAnte ? (last.big_blind_ante ? next.big_blind : Math.max(Number(last.ante), Math.round(next.big_blind / 8))) : 0, big_blind_ante: withAnte && Boolean(last.big_blind_ante) };
}

function preview(minutes, count = 15) {
  const rows = [];
  for (let n = 1; n <= count; n += 1) {
    const l = defaultLevel(n);
    rows.push(h("tr", {}, h("td", { class: "num" }, n), h("td", { class: "num" }, `${chips(l.small_blind)}/${chips(l.big_blind)}`),
      h("td", { class: "num" }, l.ante ? `${chips(l.ante)} BB ante` : "—"), h("td", { class: "num" }, duration((n - 1) * minutes * 60000))));
  }
  return h("table", { class: "grid compact" },
    h("caption", { class: "muted small" }, `The first ${count} of 60 levels, ${minutes} minutes each.`),
    h("thead", {}, h("tr", {}, ["Level", "Blinds", "Ante", "Starts at"].map((c) => h("th", { scope: "col", class: "num" }, c)))),
    h("tbody", {}, rows));
}

/**
 * The blind structure part of the create form. `minutes()` gives the level length the form shows (typed or the
 * format's default). Returns {element, sync, levels}: `levels()` is null for the standard structure, else the rows.
 */
export function structureEditor(minutes) {
  let rows = null; // null: the standard structure
  const summary = h("summary", {});
  const standard = h("div", {});
  const body = h("tbody", {});
  const editorHint = h("p", { class: "hint", id: "levels-hint" });
  const table = h("table", { class: "grid compact levels-editor", "aria-describedby": editorHint.id },
    h("caption", {}, "Blind levels"),
    h("thead", {}, h("tr", {}, ["Level", "Small blind", "Big blind", "Ante", "BB ante", "Minutes", ""].map((c) => h("th", { scope: "col" }, c)))),
    body);
  const count = h("p", { class: "muted small", role: "status", "aria-live": "polite" });
  const add = h("button", { type: "button", onclick: () => {
    read();
    rows.push({ ...nextLevel(rows[rows.length - 1]), minutes: "" });
    show();
    body.querySelector("tr:last-child input").focus();
  } }, "Add level");
  const own = h("div", { class: "own-levels", hidden: true }, editorHint, h("div", { class: "scroll" }, table), count,
    h("div", { class: "buttons wrap" }, add,
      h("button", { type: "button", onclick: () => { rows = null; show(); } }, "Use the standard structure")));
  const edit = h("button", { type: "button", onclick: () => {
    rows = Array.from({ length: STARTING_ROWS }, (_, i) => {
      const l = defaultLevel(i + 1);
      return { small_blind: l.small_blind, big_blind: l.big_blind, ante: l.ante, big_blind_ante: l.ante > 0, minutes: "" };
    });
    show();
    body.querySelector("input").focus();
  } }, "Edit the levels");
  const standardPart = h("div", {}, h("p", { class: "muted small" },
    "The standard structure (docs/rules.md, 'Defaults') at the level length, or your own levels."), edit, standard);
  const element = h("details", { class: "levels structure" }, summary, standardPart, own);

  const input = (row, key, label, attrs = {}) => h("input", { type: "number", inputmode: "numeric", step: 1, min: 0,
    value: row[key] === "" || row[key] == null ? "" : String(row[key]), "aria-label": label, dataset: { key }, ...attrs });
  // what the operator typed, kept before any redraw (a row added or removed)
  const read = () => {
    if (!rows) return;
    [...body.rows].forEach((tr, i) => {
      for (const el of tr.querySelectorAll("input")) rows[i][el.dataset.key] = el.type === "checkbox" ? el.checked : el.value;
    });
  };
  const draw = () => {
    const length = minutes();
    fill(body, rows.map((row, i) => {
      const n = i + 1;
      return h("tr", {},
        h("th", { scope: "row", class: "num" }, String(n)),
        h("td", {}, input(row, "small_blind", `Level ${n} small blind`, { min: 1 })),
        h("td", {}, input(row, "big_blind", `Level ${n} big blind`, { min: 1 })),
        h("td", {}, input(row, "ante", `Level ${n} ante`, { placeholder: "0" })),
        h("td", { class: "bb-ante" }, h("input", { type: "checkbox", checked: Boolean(row.big_blind_ante), "aria-label": `Level ${n} big-blind ante`, dataset: { key: "big_blind_ante" } })),
        h("td", {}, input(row, "minutes", `Level ${n} minutes`, { min: 1, max: 120, placeholder: String(length) })),
        h("td", {}, h("button", { type: "button", class: "remove-level", "aria-label": `Remove level ${n}`, title: `Remove level ${n}`,
          disabled: rows.length === 1, onclick: () => {
            read();
            rows.splice(i, 1);
            show();
          } }, "✕")));
    }));
    editorHint.textContent = `Chips for the blinds and the ante; the ante empty: none. "BB ante": the big blind alone posts the ante for the table. Minutes empty: the level length (${length}). Past the last level, the last continues; the blinds never go down.`;
    count.textContent = `${rows.length} level${rows.length === 1 ? "" : "s"} of at most ${MAX_LEVELS}.`;
    add.disabled = rows.length >= MAX_LEVELS;
  };
  const sync = () => {
    read();
    show();
  };
  const show = () => {
    const length = minutes();
    standardPart.hidden = rows !== null;
    own.hidden = rows === null;
    if (rows === null) {
      summary.textContent = `Blind structure: ${length}-minute levels, 25/50 rising to 1,000/2,000 by level 12, big-blind ante from level 4`;
      fill(standard, preview(length));
    } else {
      summary.textContent = `Blind structure: your ${rows.length} level${rows.length === 1 ? "" : "s"}, ${length} minutes unless a level says otherwise`;
      draw();
    }
  };
  const levels = () => {
    if (rows === null) return null;
    read();
    return rows.map((r) => ({ ...r }));
  };
  return { element, sync, levels };
}
