// The operators' console (docs/interfaces.md, /admin/*): create tournaments with every option the API takes, cancel,
// terminate, restart; stacks, disqualifications, mutes, deposits, balance adjustments; the audit and table chat.
// The form checks what the API checks (entrypoints/models.py); the API's own message is shown when it refuses.

import { idempotencyKey, seg } from "../api.js";
import { field, fill, h } from "../dom.js";
import { chips, duration, FORMAT_LABELS, money, parseMoney, STATUS_LABELS, when } from "../format.js";
import { confirmWithReason, every, notice, problem, say, statusBadge } from "./common.js";
import { levelsBody, structureEditor } from "./structure-editor.js";

export { defaultLevel } from "./structure-editor.js";

const MAX_CENTS = 1_000_000_000;
const MAX_CHIPS = 1_000_000_000_000;
const MAX_PLAYERS = 250_000;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function num(attrs) {
  return h("input", { type: "number", inputmode: "numeric", step: 1, ...attrs });
}

function moneyInput(attrs) {
  return h("input", { type: "text", inputmode: "decimal", pattern: "\\d{1,8}(\\.\\d{1,2})?", placeholder: "0.00", ...attrs });
}

/** A datetime-local value (the operator's time zone) as ISO-8601 UTC, or "". */
function isoFromLocal(value) {
  if (!value) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function localInput(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The create body from the form's values, or the first problem (the same bounds as the API). */
export function createBody(v) {
  const body = { name: v.name.trim(), format: v.format };
  if (!body.name || body.name.length > 120) return { problem: "The name is 1 to 120 characters." };
  for (const [key, label, required] of [["buy_in", "Buy-in", true], ["entry_fee", "Entry fee", true], ["guarantee", "Guarantee", false]]) {
    if (!v[key] && !required) continue;
    const cents = parseMoney(v[key] || "");
    if (!Number.isInteger(cents) || cents > MAX_CENTS) return { problem: `${label}: an amount from 0.00 to 10,000,000.00.` };
    body[key] = cents;
  }
  const ints = [
    ["max_players", "Most players", 2, MAX_PLAYERS], ["min_players", "Fewest players", 2, MAX_PLAYERS],
    ["seats_per_table", "Seats a table", 2, 10], ["starting_stack", "Starting stack", 1, MAX_CHIPS],
    ["level_minutes", "Level minutes", 1, 120], ["add_on_chips", "Add-on chips", 1, MAX_CHIPS],
    ["decision_seconds", "Decision seconds", 1, 300],
  ];
  for (const [key, label, low, high] of ints) {
    if (v[key] === "" || v[key] == null) continue;
    const n = Number(v[key]);
    if (!Number.isInteger(n) || n < low || n > high) return { problem: `${label}: a whole number from ${low} to ${chips(high)}.` };
    body[key] = n;
  }
  if (body.min_players && body.max_players && body.min_players > body.max_players) {
    return { problem: "Fewest players cannot be more than most players." };
  }
  if (v.format === "sng") {
    if (v.start_at) return { problem: "A Sit & Go starts when it is full: no start time." };
  } else {
    const start = isoFromLocal(v.start_at);
    if (!start) return { problem: "A start time is needed (only a Sit & Go has none)." };
    body.start_at = start;
  }
  if (v.announce_at) body.announce_at = isoFromLocal(v.announce_at);
  for (const key of ["start_at", "announce_at"]) {
    if (body[key] && (body[key] < "2000-01-01" || body[key] >= "2100-01-01")) return { problem: "Times lie between 2000 and 2100." };
  }
  if (v.rebuy_first || v.rebuy_last) {
    const first = Number(v.rebuy_first);
    const last = Number(v.rebuy_last);
    if (![first, last].every((n) => Number.isInteger(n) && n >= 1 && n <= 1000) || first > last) {
      return { problem: "Rebuy levels: a first and a last level from 1 to 1,000, the first not after the last." };
    }
    body.rebuy_levels = [first, last];
  }
  if (v.payout_percent && v.payout_percent.trim()) {
    const parts = v.payout_percent.split(/[\s,]+/).filter(Boolean).map(Number);
    if (parts.length > 100 || !parts.every((n) => Number.isInteger(n) && n > 0 && n <= 100)) {
      return { problem: "Payout: whole percents from 1 to 100, one per place." };
    }
    if (parts.reduce((a, b) => a + b, 0) !== 100) return { problem: "Payout: the percents add up to 100." };
    body.payout_percent = parts;
  }
  if (typeof v.hand_for_hand === "boolean") body.hand_for_hand = v.hand_for_hand;
  if (Array.isArray(v.levels)) {
    const { levels, problem } = levelsBody(v.levels);
    if (problem) return { problem };
    body.levels = levels;
  }
  if (v.tournament_id) {
    if (!ID_PATTERN.test(v.tournament_id)) return { problem: "Id: 1 to 64 letters, digits, '_' or '-'." };
    body.tournament_id = v.tournament_id;
  }
  return { body };
}

export function renderOperator(main, ctx) {
  const created = notice();
  const list = h("div", {});
  const latest = h("div", {});
  const form = createForm(ctx, created, () => refresh());
  main.append(
    h("h1", {}, "Operator console"),
    h("div", { class: "columns" },
      h("section", { class: "panel", "aria-labelledby": "create-h" }, h("h2", { id: "create-h" }, "New tournament"), form, created),
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "list-h" }, h("h2", { id: "list-h" }, "Tournaments"), list),
        playerTools(ctx, () => refreshLatest()))),
    h("section", { class: "panel", "aria-labelledby": "latest-h" }, h("h2", { id: "latest-h" }, "Latest acts"),
      h("p", { class: "muted small" }, "Every operator's last 100 acts, newest first."), latest));
  let latestDrawn = "";
  const refreshLatest = async () => {
    try {
      const answer = await ctx.api.get("/admin/audit");
      const seen = JSON.stringify(answer.records);
      if (seen !== latestDrawn) fill(latest, auditTable(answer.records));
      latestDrawn = seen;
    } catch (error) {
      fill(latest, h("p", { class: "error" }, problem(error)));
    }
  };
  const refresh = async () => {
    await refreshLatest();
    try {
      const all = await ctx.api.get("/tournaments");
      all.sort((a, b) => String(b.start_at).localeCompare(String(a.start_at)));
      fill(list, all.length
        ? h("ul", { class: "op-list" }, all.map((t) => h("li", {},
            h("a", { href: `#/operator/t/${seg(t.id)}` }, t.name), " ", statusBadge(t.status),
            h("span", { class: "muted small" }, ` ${FORMAT_LABELS[t.format] || t.format} · ${t.registered} registered`))))
        : h("p", { class: "empty" }, "None yet."));
    } catch (error) {
      fill(list, h("p", { class: "error" }, problem(error)));
    }
  };
  return every(5000, refresh);
}

/**
 * What the API does with a field left empty (docs/rules.md, 'Defaults'; docs/openapi.json), by format: the form
 * shows it under the field. Sit & Go: its seats are its field and it pays 50/30/20.
 */
export function formDefaults(format) {
  const sng = format === "sng";
  return {
    min_players: "2",
    max_players: sng ? "the seats of its table (9)" : "250,000",
    seats_per_table: "9",
    starting_stack: "10,000",
    level_minutes: sng ? "5" : "10",
    decision_seconds: "15 (and a 30 s time bank)",
    rebuy_first: "1",
    rebuy_last: "6 (the first hour)",
    add_on_chips: "no add-on",
    guarantee: "none",
    announce_at: "now",
    payout_percent: sng ? "50, 30, 20" : "the table by entrants (about 15 % paid)",
  };
}

/** Whether the bubble is played hand-for-hand when the operator says nothing: the field can fill two tables. */
export function handForHandDefault(format, maxPlayers, seatsPerTable) {
  const seats = Number(seatsPerTable) || 9;
  const most = Number(maxPlayers) || (format === "sng" ? seats : 250_000);
  return most > seats;
}

function createForm(ctx, status, done) {
  const inputs = {
    name: h("input", { type: "text", required: true, maxlength: 120, name: "name" }),
    format: h("select", { name: "format" }, Object.entries(FORMAT_LABELS).map(([v, l]) => h("option", { value: v }, l))),
    buy_in: moneyInput({ required: true, value: "10.00" }),
    entry_fee: moneyInput({ required: true, value: "1.00" }),
    guarantee: moneyInput({}),
    start_at: h("input", { type: "datetime-local", step: 1, value: localInput(new Date(Date.now() + 10 * 60000)) }),
    announce_at: h("input", { type: "datetime-local", step: 1 }),
    min_players: num({ min: 2, max: MAX_PLAYERS }),
    max_players: num({ min: 2, max: MAX_PLAYERS }),
    seats_per_table: num({ min: 2, max: 10 }),
    starting_stack: num({ min: 1, max: MAX_CHIPS }),
    level_minutes: num({ min: 1, max: 120 }),
    decision_seconds: num({ min: 1, max: 300 }),
    rebuy_first: num({ min: 1, max: 1000 }),
    rebuy_last: num({ min: 1, max: 1000 }),
    add_on_chips: num({ min: 1, max: MAX_CHIPS }),
    payout_percent: h("input", { type: "text", pattern: "[0-9 ,]*" }),
    hand_for_hand: h("input", { type: "checkbox", checked: true }),
    tournament_id: h("input", { type: "text", pattern: "[A-Za-z0-9_\\-]{1,64}", placeholder: "generated" }),
  };
  // Each field the API defaults says what it gets when left empty (updated with the format).
  const defaultHints = {};
  const withDefault = (label, key, more = "") => {
    const f = field(label, inputs[key], "…");
    defaultHints[key] = f.querySelector(".hint");
    defaultHints[key].dataset.more = more;
    return f;
  };
  const rebuyOnly = h("fieldset", { class: "rebuy-only" }, h("legend", {}, "Rebuys and add-on"),
    h("div", { class: "row" }, withDefault("First rebuy level", "rebuy_first"), withDefault("Last rebuy level", "rebuy_last")),
    withDefault("Add-on chips", "add_on_chips"));
  const startField = field("Start", inputs.start_at, "Your local time; a Sit & Go starts when full.");
  const handForHandHint = h("p", { class: "hint", id: "hfh-hint" });
  inputs.hand_for_hand.setAttribute("aria-describedby", handForHandHint.id);
  inputs.hand_for_hand.id = "hand-for-hand";
  let handForHandTouched = false;
  inputs.hand_for_hand.addEventListener("change", () => { handForHandTouched = true; });
  const shownMinutes = () => {
    const minutes = Number(inputs.level_minutes.value);
    return Number.isInteger(minutes) && minutes >= 1 && minutes <= 120 ? minutes : Number(formDefaults(inputs.format.value).level_minutes);
  };
  const structure = structureEditor(shownMinutes);
  const sync = () => {
    const format = inputs.format.value;
    inputs.start_at.disabled = format === "sng";
    rebuyOnly.hidden = format !== "rebuy";
    const defaults = formDefaults(format);
    for (const [key, hint] of Object.entries(defaultHints)) {
      hint.textContent = `Empty: ${defaults[key]}.${hint.dataset.more ? ` ${hint.dataset.more}` : ""}`;
      inputs[key].placeholder = defaults[key].replace(/ \(.*$/, "");
    }
    const on = handForHandDefault(format, inputs.max_players.value, inputs.seats_per_table.value);
    if (!handForHandTouched) inputs.hand_for_hand.checked = on;
    handForHandHint.textContent = `Default: ${on ? "on" : "off"} here (on when the field can fill more than one table: most players above seats a table).`;
    structure.sync();
  };
  for (const key of ["format", "max_players", "seats_per_table", "level_minutes"]) inputs[key].addEventListener("input", sync);
  inputs.format.addEventListener("change", sync);
  let key = null;
  const submit = async (event) => {
    event.preventDefault();
    const values = Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.disabled ? "" : el.value]));
    values.hand_for_hand = inputs.hand_for_hand.checked;
    values.levels = structure.levels();
    if (inputs.format.value !== "rebuy") Object.assign(values, { rebuy_first: "", rebuy_last: "", add_on_chips: "" });
    const { body, problem: wrong } = createBody(values);
    if (wrong) {
      say(status, wrong, "error");
      return;
    }
    key = key || idempotencyKey();
    try {
      const answer = await ctx.api.post("/admin/tournaments", body, { "Idempotency-Key": key });
      key = null;
      fill(status, "Created ", h("a", { href: `#/operator/t/${seg(answer.id)}` }, body.name), ` (${answer.id}).`);
      status.className = "notice ok";
      done();
    } catch (error) {
      if (error.status && error.status < 500) key = null; // refused: the next try is a new request
      say(status, problem(error), "error");
    }
  };
  const form = h("form", { class: "create", onsubmit: submit, novalidate: true },
    field("Tournament name", inputs.name),
    h("div", { class: "row" }, field("Format", inputs.format), field("Tournament id", inputs.tournament_id, "Empty: generated.")),
    h("div", { class: "row" }, field("Buy-in", inputs.buy_in), field("Entry fee", inputs.entry_fee), withDefault("Guarantee", "guarantee")),
    h("div", { class: "row" }, startField, withDefault("Announce", "announce_at", "Registration opens then.")),
    h("div", { class: "row" }, withDefault("Fewest players", "min_players"), withDefault("Most players", "max_players"),
      withDefault("Seats a table", "seats_per_table")),
    h("div", { class: "row" }, withDefault("Starting stack", "starting_stack"), withDefault("Level minutes", "level_minutes"),
      withDefault("Decision seconds", "decision_seconds")),
    structure.element,
    rebuyOnly,
    withDefault("Payout percents", "payout_percent", "Or one whole percent per place, best first, adding to 100."),
    h("div", { class: "check" }, inputs.hand_for_hand, h("label", { for: "hand-for-hand" }, "Hand-for-hand at the bubble")),
    handForHandHint,
    h("button", { type: "submit", class: "primary" }, "Create tournament"));
  sync();
  return form;
}

/** "25", "25.50", "-3.5" -> signed cents; NaN for anything else (an empty field too). */
export function signedCents(text) {
  const trimmed = String(text).trim();
  const negative = /^[-−]/.test(trimmed);
  const value = parseMoney(negative ? trimmed.slice(1) : trimmed);
  return negative ? -value : value;
}

const AMOUNT_RULES = {
  greater_than: "more than $0.00",
  greater_than_equal: `at least −${money(MAX_CENTS)}`,
  less_than_equal: `at most ${money(MAX_CENTS)}`,
  value_error: "something other than $0.00 (zero changes nothing)",
};

/**
 * A refused deposit or adjustment in the operator's words: the API's 422 on the amount (whose message counts
 * cents) said in dollars, a missing account as the API says it, a balance that would go below zero.
 */
export function moneyRefusal(act, error) {
  const detail = Array.isArray(error && error.detail) ? error.detail : [];
  const onAmount = detail.find((d) => Array.isArray(d.loc) && d.loc[d.loc.length - 1] === "amount");
  if (error && error.status === 422 && onAmount && AMOUNT_RULES[onAmount.type]) {
    return `${act} refused: the amount must be ${AMOUNT_RULES[onAmount.type]}.`;
  }
  if (error && error.code === "insufficient_funds") return `${act} refused: the balance cannot go below $0.00.`;
  if (error && error.status === 404) return `${act} refused: ${problem(error)}.`;
  return problem(error);
}

function playerTools(ctx, acted) {
  const player = h("input", { type: "text", required: true, maxlength: 128 });
  const amount = moneyInput({ pattern: "-?\\d{1,8}(\\.\\d{1,2})?" });
  const reason = h("input", { type: "text", maxlength: 500 });
  const minutes = num({ min: 1, max: 525600 });
  const status = notice();
  const audit = h("div", {});
  const who = () => player.value.trim();
  const run = async (label, call) => {
    if (!who()) {
      say(status, "Name a player first.", "error");
      return;
    }
    try {
      const answer = await call();
      say(status, label(answer), "ok");
      acted();
    } catch (error) {
      say(status, problem(error), "error");
    }
  };
  // The amount is read as dollars and cents; its bounds are the API's (a 422 says why, shown in dollars).
  const sentCents = (act) => {
    const value = signedCents(amount.value);
    if (Number.isNaN(value)) throw new Error(`${act}: give an amount in dollars and cents, like 25.00 (−25.00 takes money back).`);
    return value;
  };
  const refusedMoney = (act) => (error) => {
    throw new Error(moneyRefusal(act, error));
  };
  const deposit = () => run((a) => `Deposited ${money(a.amount)}: ${a.player} now has ${money(a.balance)}.`, () => {
    const c = sentCents("Deposit");
    return ctx.api.post(`/admin/accounts/${seg(who())}/deposits`, { amount: c }, { "Idempotency-Key": idempotencyKey() })
      .catch(refusedMoney("Deposit"));
  });
  const adjust = () => run(() => "Balance adjusted.", () => {
    const c = sentCents("Adjustment");
    if (!reason.value.trim()) throw new Error("Give a reason.");
    return ctx.api.post(`/admin/accounts/${seg(who())}/adjustments`, { amount: c, reason: reason.value.trim() })
      .catch(refusedMoney("Adjustment"));
  });
  const mute = () => run(() => "Muted", () => {
    if (!reason.value.trim()) throw new Error("Give a reason.");
    const body = { reason: reason.value.trim() };
    if (minutes.value) body.minutes = Number(minutes.value);
    return ctx.api.post(`/admin/players/${seg(who())}/mute`, body);
  });
  const unmute = () => run(() => "Unmuted", () => ctx.api.del(`/admin/players/${seg(who())}/mute`, reason.value.trim() ? { reason: reason.value.trim() } : undefined));
  const showAudit = () => run(() => "", async () => {
    const answer = await ctx.api.get(`/admin/audit?player=${seg(who())}`);
    fill(audit, auditTable(answer.records));
    return answer;
  });
  return h("section", { class: "panel", "aria-labelledby": "pt-h" },
    h("h2", { id: "pt-h" }, "Players"),
    field("Player", player),
    h("div", { class: "row" }, field("Amount in dollars", amount, "A deposit, or ± an adjustment"), field("Mute minutes", minutes, "Empty: until unmuted")),
    field("Reason", reason),
    h("div", { class: "buttons wrap" },
      h("button", { type: "button", onclick: deposit }, "Deposit"),
      h("button", { type: "button", onclick: adjust }, "Adjust balance"),
      h("button", { type: "button", onclick: mute }, "Mute"),
      h("button", { type: "button", onclick: unmute }, "Unmute"),
      h("button", { type: "button", onclick: showAudit }, "Player audit")),
    status, audit);
}

const MONEY_KEYS = new Set(["amount", "balance", "buy_in", "entry_fee", "guarantee", "prize"]);
const CHIP_KEYS = new Set(["stack", "pending_chips", "delta", "chips_leaving_play", "max_players"]);
const TIME_KEYS = new Set(["start_at", "terminated_at", "restarted_at", "until", "cancelled_at"]);
const KEY_LABELS = { pending_chips: "chips pending", chips_leaving_play: "chips leaving play", buy_in: "buy-in",
  entry_fee: "entry fee", max_players: "most players", start_at: "start", terminated_at: "terminated",
  restarted_at: "restarted", in_hand: "in a hand", until: "muted until", cancelled_hands: "hands cancelled" };
// ledger keys are internal ids, nothing an operator reads; the amount and the delta have their own column
const HIDDEN_KEYS = new Set(["entry", "key", "amount", "delta"]);

function shown(key, value) {
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (MONEY_KEYS.has(key) && Number.isInteger(value)) return money(value);
  if (CHIP_KEYS.has(key) && Number.isInteger(value)) return chips(value);
  if (TIME_KEYS.has(key)) return when(value);
  if (key === "status") return STATUS_LABELS[value] || String(value);
  if (key === "format") return FORMAT_LABELS[value] || String(value);
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The money or chips an act moved: "+$50.00", "−$5.00", "+500 chips", or "" (from the record's after). */
export function auditAmount(record) {
  const after = record.after || {};
  const signed = (n, text) => (n > 0 ? `+${text}` : n < 0 ? `−${text}` : text);
  if (Number.isInteger(after.amount)) return signed(after.amount, money(Math.abs(after.amount)));
  if (Number.isInteger(after.delta)) return signed(after.delta, `${chips(Math.abs(after.delta))} chips`);
  if (record.act === "create" && Number.isInteger(after.buy_in)) return `${money(after.buy_in)} + ${money(after.entry_fee)}`;
  return "";
}

/** What an act changed, one line a field: "balance: $10.00 → $60.00"; a field on one side only: "table: 1". */
export function auditChanges(before, after) {
  const b = before || {};
  const a = after || {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => !HIDDEN_KEYS.has(k));
  const lines = [];
  for (const key of keys) {
    const label = KEY_LABELS[key] || key.replaceAll("_", " ");
    const inBefore = key in b;
    const inAfter = key in a;
    if (inBefore && inAfter) {
      if (JSON.stringify(b[key]) === JSON.stringify(a[key])) continue;
      lines.push(`${label}: ${shown(key, b[key])} → ${shown(key, a[key])}`);
    } else {
      lines.push(`${label}: ${shown(key, inAfter ? a[key] : b[key])}`);
    }
  }
  return lines;
}

const ACT_LABELS = { create: "create", cancel: "cancel", terminate: "terminate", restart: "restart",
  stack_adjustment: "stack adjustment", balance_adjustment: "balance adjustment", deposit: "deposit",
  disqualify: "disqualify", mute: "mute", unmute: "unmute" };

/** The audit's records as a table (a card a record on a phone): who did what, to whom, how much, what changed, why. */
function auditTable(records, { tournaments = true } = {}) {
  if (!records.length) return h("p", { class: "empty" }, "No act recorded.");
  const columns = ["When", "Operator", "Act", ...(tournaments ? ["Tournament"] : []), "Player", "Amount", "Before → after", "Reason"];
  // explicit roles: a phone shows each record as a card (CSS display), which would drop the table's semantics
  const cell = (label, ...content) => h("td", { role: "cell", "data-label": label }, ...content);
  return h("div", { class: "scroll" }, h("table", { class: "grid compact audit", role: "table" },
    h("thead", { role: "rowgroup" }, h("tr", { role: "row" }, columns.map((c) => h("th", { scope: "col", role: "columnheader" }, c)))),
    h("tbody", { role: "rowgroup" }, records.map((r) => [r, auditChanges(r.before, r.after)]).map(([r, changes]) => h("tr", { role: "row" },
      cell("When", when(r.at)), cell("Operator", r.operator), cell("Act", ACT_LABELS[r.act] || r.act),
      tournaments ? cell("Tournament", r.tournament ? h("a", { href: `#/operator/t/${seg(r.tournament)}` }, r.tournament) : null) : null,
      cell("Player", r.player || null), cell("Amount", auditAmount(r) || null),
      cell("Before → after", changes.length ? h("div", { class: "changes" }, changes.map((line) => h("div", {}, line))) : null),
      cell("Reason", r.reason))))));
}

const CONFIRMATIONS = {
  cancel: { title: "Cancel this tournament?", confirm: "Yes, cancel it",
    detail: "Every registration is refunded, buy-in and fee, and the tournament never starts. This cannot be undone." },
  terminate: { title: "Terminate this tournament?", confirm: "Yes, terminate",
    detail: "Play stops at every table now. It may be restarted for 20 minutes; after that the players are compensated." },
};

export function renderOperatorTournament(main, ctx, tid) {
  const head = h("div", { class: "page-head" }, h("h1", {}, "Tournament"));
  const facts = h("div", {});
  const reason = h("input", { type: "text", maxlength: 500, placeholder: "Why (kept in the audit)" });
  const status = notice();
  const acts = h("div", { class: "buttons wrap" });
  const players = h("div", {});
  const audit = h("div", {});
  const chat = h("div", {});
  const recovery = h("section", { class: "panel recovery", "aria-labelledby": "rec-h", hidden: true });
  const watch = h("section", { class: "panel", "aria-labelledby": "watch-h", hidden: true });
  let windowEnd = null; // the restart window's end (ms), while it is open
  const windowLeft = h("strong", { class: "countdown big" });
  const tick = () => {
    if (windowEnd === null) return;
    const left = windowEnd - Date.now();
    windowLeft.textContent = duration(left);
    if (left <= 0) {
      windowEnd = null;
      drawn = "";
      refresh();
    }
  };
  const ticker = setInterval(tick, 1000);
  main.append(head,
    h("div", { class: "columns" },
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "acts-h" }, h("h2", { id: "acts-h" }, "Tournament acts"), facts,
          field("Reason for the act", reason), acts, status),
        recovery, watch),
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "pl-h" }, h("h2", { id: "pl-h" }, "Players at the tables"), players),
        h("section", { class: "panel", "aria-labelledby": "ch-h" }, h("h2", { id: "ch-h" }, "Table chat"), chat))),
    h("section", { class: "panel", "aria-labelledby": "au-h" }, h("h2", { id: "au-h" }, "Audit"),
      h("p", { class: "muted small" }, "Every act on this tournament, oldest first."), audit));
  let drawn = "";
  const act = async (path, label) => {
    let body = reason.value.trim() ? { reason: reason.value.trim() } : {};
    const ask = CONFIRMATIONS[path];
    if (ask) {
      // cannot be undone: confirmed, with the reason the API requires (422 without one)
      const given = await confirmWithReason({ ...ask, reason: reason.value.trim() });
      if (given === null) return;
      reason.value = given;
      body = { reason: given };
    }
    try {
      const answer = await ctx.api.post(`/admin/tournaments/${seg(tid)}/${path}`, body);
      say(status, `${label}: ${answer.status}`, "ok");
      drawn = "";
      await refresh();
    } catch (error) {
      say(status, problem(error), "error");
    }
  };
  const stackDelta = num({ min: -1_000_000_000, max: 1_000_000_000 });
  const stackReason = h("input", { type: "text", maxlength: 500 });
  const pick = h("select", {});
  let shownNames = new Map(); // account id -> screen name (the standings' name: the id when none was chosen)
  const playerStatus = notice();
  const playerAct = async (call, label) => {
    if (!pick.value) return;
    if (!stackReason.value.trim()) {
      say(playerStatus, "Give a reason.", "error");
      return;
    }
    try {
      await call(pick.value, stackReason.value.trim());
      say(playerStatus, label, "ok");
    } catch (error) {
      say(playerStatus, problem(error), "error");
    }
  };
  const adjust = () => playerAct((p, r) => {
    const delta = Number(stackDelta.value);
    if (!Number.isInteger(delta) || delta === 0) throw new Error("Chips: a whole number, not 0 (negative removes).");
    return ctx.api.post(`/admin/tournaments/${seg(tid)}/players/${seg(p)}/stack`, { delta, reason: r }, { "Idempotency-Key": idempotencyKey() });
  }, "Stack adjusted (between hands)");
  const disqualify = async () => {
    if (!pick.value) return;
    const player = shownNames.get(pick.value) || pick.value;
    const given = await confirmWithReason({ title: `Disqualify ${player}?`, confirm: "Yes, disqualify",
      detail: `${player} leaves the tournament at once: their chips are removed and they win no prize. This cannot be undone.`,
      reason: stackReason.value.trim() });
    if (given === null) return;
    stackReason.value = given;
    await playerAct((p, r) => ctx.api.post(`/admin/tournaments/${seg(tid)}/players/${seg(p)}/disqualify`, { reason: r }), "Disqualified");
  };
  const playerForm = h("div", {},
    h("div", { class: "row" }, field("Player", pick), field("Chips", stackDelta, "+ adds, − removes")),
    field("Reason for the player act", stackReason),
    h("div", { class: "buttons wrap" },
      h("button", { type: "button", onclick: adjust }, "Adjust stack"),
      h("button", { type: "button", class: "danger", onclick: disqualify }, "Disqualify")),
    playerStatus);

  const refresh = async () => {
    try {
      const d = await ctx.api.get(`/tournaments/${seg(tid)}`);
      const s = ["running", "finished", "terminated"].includes(d.status)
        ? await ctx.api.get(`/tournaments/${seg(tid)}/standings`).catch(() => null) : null;
      const log = await ctx.api.get(`/admin/audit?tournament=${seg(tid)}`).catch(() => ({ records: [] }));
      // the recovery as the API tells it (window left, outcome, amounts): only once the tournament was terminated
      const rec = d.status === "terminated" || lastTermination(log.records)
        ? await ctx.api.get(`/admin/tournaments/${seg(tid)}/recovery`).catch(() => null) : null;
      const seen = JSON.stringify([d, s, log, rec && { ...rec, window_seconds_left: rec.window_seconds_left > 0 }]);
      if (seen === drawn) return;
      drawn = seen;
      fill(head, h("h1", {}, d.name), statusBadge(d.status), h("a", { href: `#/t/${seg(tid)}` }, "Players' page"));
      fill(facts, h("p", { class: "muted small" },
        `${FORMAT_LABELS[d.format] || d.format} · ${money(d.buy_in)} + ${money(d.entry_fee)} · ${d.registered} registered · `,
        d.start_at ? `starts ${when(d.start_at)}` : "starts when full"));
      const tables = s ? [...new Set(s.players.map((p) => p.table))].sort((a, b) => String(a).localeCompare(String(b), undefined, { numeric: true })) : [];
      drawRecovery(d, rec);
      watch.hidden = !tables.length || !["running", "terminated"].includes(d.status);
      fill(watch, h("h2", { id: "watch-h" }, "Watch the tables"),
        h("ul", { class: "watch-list" }, tables.map((t) => h("li", {}, h("a", { href: `#/t/${seg(tid)}/table/${seg(t)}` }, `Watch table ${t}`)))));
      const open = d.status === "registering" || d.status === "scheduled";
      fill(acts,
        h("button", { type: "button", disabled: !open, onclick: () => act("cancel", "Cancelled") }, "Cancel tournament"),
        h("button", { type: "button", class: "danger", disabled: d.status !== "running", onclick: () => act("terminate", "Terminated") }, "Terminate"),
        h("button", { type: "button", disabled: d.status !== "terminated" || !rec || rec.outcome !== "pending" || windowEnd === null,
          onclick: () => act("restart", "Restarted") }, "Restart"));
      if (s && s.players.length) {
        const chosen = pick.value;
        shownNames = new Map(s.players.map((p) => [p.player, p.name || p.player]));
        fill(pick, s.players.map((p) => h("option", { value: p.player, selected: p.player === chosen },
          `${shownNames.get(p.player)} (${chips(p.chips)}, table ${p.table})`)));
        if (!players.contains(playerForm)) fill(players, playerForm);
        fill(chat, h("div", { class: "buttons wrap" }, tables.map((t) => h("button", { type: "button", onclick: () => loadChat(t) }, `Chat at table ${t}`))));
      } else {
        fill(players, h("p", { class: "muted" }, "Nobody is seated."));
      }
      fill(audit, auditTable(log.records, { tournaments: false }));
    } catch (error) {
      say(status, problem(error), "error");
    }
  };
  const drawRecovery = (d, rec) => {
    recovery.hidden = !rec;
    windowEnd = null;
    if (!rec) return;
    const rule = RULE_WORDS[rec.rule] || null;
    let state;
    if (rec.outcome === "restarted") {
      state = [h("p", { class: "recovery-state" }, h("strong", {}, "Restarted"), ` ${when(rec.restarted_at)}, within its 20 minutes.`)];
    } else if (rec.outcome === "compensated") {
      state = [h("p", { class: "recovery-state" }, h("strong", {}, "Compensated"), ` ${when(rec.compensated_at)}.`),
        rule ? h("p", {}, `Outcome: ${rule}.`) : null,
        ...paidLines(rec),
        h("p", { class: "muted small" }, "The tournament is over; it can no longer restart.")];
    } else if (rec.window_seconds_left > 0) {
      windowEnd = Date.now() + rec.window_seconds_left * 1000; // the server's count, whatever this device's clock
      tick();
      state = [h("p", { class: "recovery-state" }, "Restart window: ", windowLeft, " left ", h("span", { class: "muted small" }, `(until ${clock(Date.parse(rec.restart_deadline))})`)),
        h("p", { class: "muted small" }, "Restart resumes the same level with the time that was left in it. ",
          rule ? `Unless it restarts, the players are then compensated: ${rule}.` : "")];
    } else {
      state = [h("p", { class: "recovery-state" }, h("strong", {}, "The 20 minutes are over"),
        rec.plan_fixed ? ": the players are being paid." : ": the players are about to be compensated."),
        rule ? h("p", {}, `Outcome: ${rule}.`) : null, ...paidLines(rec)];
    }
    fill(recovery, h("h2", { id: "rec-h" }, "Recovery"),
      h("p", { class: "muted small" }, `Terminated ${when(rec.terminated_at)} by ${rec.terminated_by || "the system"}`,
        rec.reason ? `: ${rec.reason}` : "", "."), ...state);
  };
  const loadChat = async (table) => {
    try {
      const answer = await ctx.api.get(`/admin/tournaments/${seg(tid)}/tables/${seg(table)}/chat`);
      const lines = answer.lines || [];
      chat.append(h("div", { class: "chat-dump" }, h("h3", {}, `Table ${table}`), lines.length
        ? h("ol", { class: "chat-log" }, lines.map((l) => h("li", { class: l.accepted ? "" : "refused" },
            h("strong", {}, l.player), ` (hand ${l.hand}) `, l.text, l.accepted ? "" : ` — refused: ${l.reason}`)))
        : h("p", { class: "empty" }, "Nothing said.")));
    } catch (error) {
      say(status, problem(error), "error");
    }
  };
  const stop = every(4000, refresh);
  return () => {
    stop();
    clearInterval(ticker);
  };
}


/** The time of the tournament's last termination by an operator (its audit record's after), or null. */
export function lastTermination(records) {
  const terminations = records.filter((r) => r.act === "terminate" && r.after && r.after.terminated_at);
  return terminations.length ? terminations[terminations.length - 1].after.terminated_at : null;
}

/** Rule 17.3's outcome, as GET /admin/tournaments/{id}/recovery names it, in the operator's words (docs/rules.md). */
export const RULE_WORDS = {
  rollback: "a rollback: every entrant gets back every fee and buy-in paid, prizes paid are kept (rule 17.3b)",
  payout: "a prize-pool payout to the players left, the guarantee included (rule 17.3c)",
  refund_share: "fees and contributions back to the players left, with a share by chips of what the eliminated paid in (rule 17.3d)",
};

/** What the fixed plan pays: the total, the house's overlay, and the largest payments (a table). */
function paidLines(rec) {
  if (!rec.plan_fixed) return [];
  const players = `${rec.players_paid} player${rec.players_paid === 1 ? "" : "s"}`;
  const listed = rec.payments.length < rec.players_paid ? ` (the largest ${rec.payments.length} below)` : "";
  return [h("p", {}, `Paid: ${money(rec.paid_total)} to ${players}${listed}.`),
    rec.overlay ? h("p", { class: "muted small" }, `The house added ${money(rec.overlay)} to the prize pool for it.`) : null,
    rec.payments.length
      ? h("div", { class: "scroll" }, h("table", { class: "grid compact" },
          h("caption", { class: "sr-only" }, "Compensation paid"),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col", class: "num" }, "Paid"))),
          h("tbody", {}, rec.payments.map((p) => h("tr", {}, h("td", {}, p.name || p.player), h("td", { class: "num" }, money(p.amount)))))))
      : null];
}

function clock(ms) {
  return new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}
