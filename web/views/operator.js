// The operators' console (docs/interfaces.md, /admin/*): create tournaments with every option the API takes, cancel,
// terminate, restart; stacks, disqualifications, mutes, deposits, balance adjustments; the audit and table chat.
// The form checks what the API checks (entrypoints/models.py); the API's own message is shown when it refuses.

import { idempotencyKey, seg } from "../api.js";
import { field, fill, h } from "../dom.js";
import { chips, FORMAT_LABELS, money, parseMoney, when } from "../format.js";
import { confirmWithReason, every, notice, problem, say, statusBadge } from "./common.js";

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
  if (v.tournament_id) {
    if (!ID_PATTERN.test(v.tournament_id)) return { problem: "Id: 1 to 64 letters, digits, '_' or '-'." };
    body.tournament_id = v.tournament_id;
  }
  return { body };
}

export function renderOperator(main, ctx) {
  const created = notice();
  const list = h("div", {});
  const form = createForm(ctx, created, () => refresh());
  main.append(
    h("h1", {}, "Operator console"),
    h("div", { class: "columns" },
      h("section", { class: "panel", "aria-labelledby": "create-h" }, h("h2", { id: "create-h" }, "New tournament"), form, created),
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "list-h" }, h("h2", { id: "list-h" }, "Tournaments"), list),
        playerTools(ctx))));
  const refresh = async () => {
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
    payout_percent: h("input", { type: "text", placeholder: "50, 30, 20", pattern: "[0-9 ,]*" }),
    tournament_id: h("input", { type: "text", pattern: "[A-Za-z0-9_\\-]{1,64}", placeholder: "generated" }),
  };
  const rebuyOnly = h("fieldset", { class: "rebuy-only" }, h("legend", {}, "Rebuys and add-on"),
    h("div", { class: "row" }, field("First rebuy level", inputs.rebuy_first), field("Last rebuy level", inputs.rebuy_last)),
    field("Add-on chips", inputs.add_on_chips));
  const startField = field("Start", inputs.start_at, "Your local time; a Sit & Go starts when full.");
  const sync = () => {
    const sng = inputs.format.value === "sng";
    inputs.start_at.disabled = sng;
    rebuyOnly.hidden = inputs.format.value !== "rebuy";
  };
  inputs.format.addEventListener("change", sync);
  let key = null;
  const submit = async (event) => {
    event.preventDefault();
    const values = Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.disabled ? "" : el.value]));
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
    h("div", { class: "row" }, field("Format", inputs.format), field("Tournament id", inputs.tournament_id)),
    h("div", { class: "row" }, field("Buy-in", inputs.buy_in), field("Entry fee", inputs.entry_fee), field("Guarantee", inputs.guarantee)),
    h("div", { class: "row" }, startField, field("Announce", inputs.announce_at, "Registration opens (default: now).")),
    h("div", { class: "row" }, field("Fewest players", inputs.min_players), field("Most players", inputs.max_players),
      field("Seats a table", inputs.seats_per_table)),
    h("div", { class: "row" }, field("Starting stack", inputs.starting_stack), field("Level minutes", inputs.level_minutes),
      field("Decision seconds", inputs.decision_seconds)),
    rebuyOnly,
    field("Payout percents", inputs.payout_percent, "Optional: one per place, adding to 100."),
    h("button", { type: "submit", class: "primary" }, "Create tournament"));
  sync();
  return form;
}

function playerTools(ctx) {
  const player = h("input", { type: "text", required: true, maxlength: 128 });
  const amount = moneyInput({ pattern: "-?\\d{1,8}(\\.\\d{1,2})?" });
  const reason = h("input", { type: "text", maxlength: 500 });
  const minutes = num({ min: 1, max: 525600 });
  const status = notice();
  const audit = h("div", {});
  const who = () => player.value.trim();
  const cents = () => {
    const text = amount.value.trim();
    const negative = text.startsWith("-");
    const value = parseMoney(negative ? text.slice(1) : text);
    return negative ? -value : value;
  };
  const run = async (label, call) => {
    if (!who()) {
      say(status, "Name a player first.", "error");
      return;
    }
    try {
      const answer = await call();
      say(status, label(answer), "ok");
    } catch (error) {
      say(status, problem(error), "error");
    }
  };
  const deposit = () => run((a) => `Deposited ${money(a.amount)}: ${a.player} has ${money(a.balance)}`, () => {
    const c = cents();
    if (!(c > 0)) throw new Error("A deposit is an amount above 0.00.");
    return ctx.api.post(`/admin/accounts/${seg(who())}/deposits`, { amount: c }, { "Idempotency-Key": idempotencyKey() });
  });
  const adjust = () => run(() => "Balance adjusted", () => {
    const c = cents();
    if (!Number.isInteger(c) || c === 0) throw new Error("An adjustment is a positive or negative amount.");
    if (!reason.value.trim()) throw new Error("Give a reason.");
    return ctx.api.post(`/admin/accounts/${seg(who())}/adjustments`, { amount: c, reason: reason.value.trim() });
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
    h("div", { class: "row" }, field("Money", amount, "Deposit, or ± adjustment"), field("Mute minutes", minutes, "Empty: until unmuted")),
    field("Reason", reason),
    h("div", { class: "buttons wrap" },
      h("button", { type: "button", onclick: deposit }, "Deposit"),
      h("button", { type: "button", onclick: adjust }, "Adjust balance"),
      h("button", { type: "button", onclick: mute }, "Mute"),
      h("button", { type: "button", onclick: unmute }, "Unmute"),
      h("button", { type: "button", onclick: showAudit }, "Player audit")),
    status, audit);
}

function auditTable(records) {
  if (!records.length) return h("p", { class: "empty" }, "No act recorded.");
  return h("div", { class: "scroll" }, h("table", { class: "grid compact" },
    h("thead", {}, h("tr", {}, ["When", "Operator", "Act", "Player", "Reason"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, records.map((r) => h("tr", {},
      h("td", {}, when(r.at)), h("td", {}, r.operator), h("td", {}, r.act), h("td", {}, r.player || ""), h("td", {}, r.reason))))));
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
  main.append(head,
    h("div", { class: "columns" },
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "acts-h" }, h("h2", { id: "acts-h" }, "Tournament acts"), facts,
          field("Reason for the act", reason), acts, status),
        h("section", { class: "panel", "aria-labelledby": "pl-h" }, h("h2", { id: "pl-h" }, "Players at the tables"), players)),
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "au-h" }, h("h2", { id: "au-h" }, "Audit"), audit),
        h("section", { class: "panel", "aria-labelledby": "ch-h" }, h("h2", { id: "ch-h" }, "Table chat"), chat))));
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
    const player = pick.value;
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
      const seen = JSON.stringify([d, s, log]);
      if (seen === drawn) return;
      drawn = seen;
      fill(head, h("h1", {}, d.name), statusBadge(d.status), h("a", { href: `#/t/${seg(tid)}` }, "Players' page"));
      fill(facts, h("p", { class: "muted small" },
        `${FORMAT_LABELS[d.format] || d.format} · ${money(d.buy_in)} + ${money(d.entry_fee)} · ${d.registered} registered · `,
        d.start_at ? `starts ${when(d.start_at)}` : "starts when full"));
      const open = d.status === "registering" || d.status === "scheduled";
      fill(acts,
        h("button", { type: "button", disabled: !open, onclick: () => act("cancel", "Cancelled") }, "Cancel tournament"),
        h("button", { type: "button", class: "danger", disabled: d.status !== "running", onclick: () => act("terminate", "Terminated") }, "Terminate"),
        h("button", { type: "button", disabled: d.status !== "terminated", onclick: () => act("restart", "Restarted") }, "Restart"));
      if (s && s.players.length) {
        const chosen = pick.value;
        fill(pick, s.players.map((p) => h("option", { value: p.player, selected: p.player === chosen }, `${p.player} (${chips(p.chips)}, table ${p.table})`)));
        if (!players.contains(playerForm)) fill(players, playerForm);
        const tables = [...new Set(s.players.map((p) => p.table))];
        fill(chat, h("div", { class: "buttons wrap" }, tables.map((t) => h("button", { type: "button", onclick: () => loadChat(t) }, `Chat at table ${t}`))));
      } else {
        fill(players, h("p", { class: "muted" }, "Nobody is seated."));
      }
      fill(audit, auditTable(log.records));
    } catch (error) {
      say(status, problem(error), "error");
    }
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
  return every(4000, refresh);
}
