// The lobby: every tournament announced, as a grid to scan (start, name, format, buy-in, prize pool, players,
// status), with filters (format, buy-in, status), a sort, the caller's registrations marked, and a loading and an
// empty state that say what is happening and what to do.

import { seg } from "../api.js";
import { fill, h } from "../dom.js";
import { duration, fieldCap, FORMAT_LABELS, money, shortWhen, STATUS_LABELS, when } from "../format.js";
import { every, problem, statusBadge } from "./common.js";
import { screenNamePrompt } from "./welcome.js";

const ORDER = { registering: 0, running: 1, scheduled: 2, terminated: 3, finished: 4, cancelled: 5 };
/** Buy-in bands on the whole price (buy-in + fee), in cents: [label, lowest, highest]. */
const BUY_INS = {
  any: ["Any buy-in", 0, Infinity],
  micro: ["Up to $5", 0, 500],
  low: ["$5.01 to $30", 501, 3_000],
  mid: ["$30.01 to $100", 3_001, 10_000],
  high: ["Over $100", 10_001, Infinity],
};
const SORTS = {
  start: ["Start time", (a, b) => startKey(a) - startKey(b)],
  buy_in: ["Buy-in", (a, b) => price(a) - price(b)],
  prize: ["Prize pool (largest first)", (a, b) => pool(b) - pool(a)],
  players: ["Players (most first)", (a, b) => b.registered - a.registered],
};
/** Whose registration the lobby asks about: the tournaments a player can still join or play in. */
const LIVE = new Set(["registering", "running", "scheduled"]);
const FILTERS_KEY = "lobby-filters";

export function renderLobby(main, ctx) {
  const saved = readFilters();
  const format = select("Format", { all: "All formats", ...FORMAT_LABELS }, saved.format);
  const buyIn = select("Buy-in", Object.fromEntries(Object.entries(BUY_INS).map(([k, [label]]) => [k, label])), saved.buyIn);
  const status = select("Status", { open: "Open & running", all: "All", ...STATUS_LABELS }, saved.status || "open");
  const sort = select("Sort by", Object.fromEntries(Object.entries(SORTS).map(([k, [label]]) => [k, label])), saved.sort);
  const count = h("p", { class: "muted small", role: "status" });
  const list = h("div", { class: "lobby", "aria-busy": "true" },
    h("p", { class: "loading", role: "status" }, "Loading tournaments…"));
  main.append(
    screenNamePrompt(ctx),
    h("div", { class: "page-head" }, h("h1", {}, "Lobby"), count),
    h("form", { class: "filters", "aria-label": "Filters", onsubmit: (e) => e.preventDefault() },
      format.field, buyIn.field, status.field, sort.field),
    list,
  );
  let tournaments = null;
  const mine = new Map(); // tournament id -> "registered" | "waitlisted"
  const countdowns = [];

  const chosen = () => ({ format: format.input.value, buyIn: buyIn.input.value, status: status.input.value, sort: sort.input.value });
  const draw = () => {
    if (tournaments === null) return;
    list.setAttribute("aria-busy", "false");
    countdowns.length = 0;
    const c = chosen();
    if (!tournaments.length) {
      count.textContent = "";
      fill(list, emptyLobby());
      return;
    }
    const shown = tournaments.filter((t) => matches(t, c)).sort((a, b) => SORTS[c.sort][1](a, b) || order(a, b));
    count.textContent = `${shown.length} of ${tournaments.length} tournament${tournaments.length === 1 ? "" : "s"}`;
    if (!shown.length) {
      fill(list, h("div", { class: "empty-state" },
        h("p", {}, "No tournament matches these filters."),
        h("button", { type: "button", onclick: showAll }, "Show all tournaments")));
      return;
    }
    fill(list, h("table", { class: "grid lobby-grid" },
      h("caption", { class: "sr-only" }, "Tournaments"),
      h("thead", {}, h("tr", {}, ["Starts", "Tournament", "Format", "Buy-in", "Prize pool", "Players", "Status"].map((c2) =>
        h("th", { scope: "col", class: ["Buy-in", "Prize pool", "Players"].includes(c2) ? "num" : "" }, c2)))),
      h("tbody", {}, shown.map((t) => row(t, mine.get(t.id), countdowns)))));
    tick();
  };
  const showAll = () => {
    format.input.value = "all";
    buyIn.input.value = "any";
    status.input.value = "all";
    changed();
  };
  const changed = () => {
    sessionStorage.setItem(FILTERS_KEY, JSON.stringify(chosen()));
    draw();
  };
  for (const control of [format, buyIn, status, sort]) control.input.addEventListener("change", changed);

  const tick = () => {
    const now = Date.now();
    for (const [el, at] of countdowns) {
      const left = at - now;
      el.textContent = left > 0 ? `in ${duration(left)}` : "starting…";
    }
  };
  const stopPoll = every(4000, async () => {
    try {
      const answer = await ctx.api.get("/tournaments");
      await markMine(ctx, answer, mine);
      tournaments = answer;
      draw();
    } catch (error) {
      if (tournaments === null) {
        list.setAttribute("aria-busy", "false");
        fill(list, h("p", { class: "error" }, `The lobby cannot be loaded: ${problem(error)}`));
      } else count.textContent = problem(error);
    }
  });
  const clock = setInterval(tick, 1000);
  return () => {
    stopPoll();
    clearInterval(clock);
  };
}

/**
 * The caller's registrations: the ledger (one request) says which open or running tournaments the caller ever paid a
 * buy-in into, and only those are asked for the registration as it stands (registered, waiting, or withdrawn).
 */
async function markMine(ctx, tournaments, mine) {
  const ledger = await ctx.api.get("/me/ledger").catch(() => null);
  const paid = new Set(((ledger && ledger.entries) || []).filter((e) => e.kind === "buy_in").map((e) => e.tournament_id));
  const live = tournaments.filter((t) => LIVE.has(t.status) && (ledger === null || paid.has(t.id)));
  const answers = await Promise.all(live.map((t) =>
    ctx.api.get(`/tournaments/${seg(t.id)}/registrations/me`).catch(() => null)));
  mine.clear();
  live.forEach((t, i) => {
    const state = answers[i] && answers[i].status;
    if (state === "registered" || state === "waitlisted") mine.set(t.id, state);
  });
}

function emptyLobby() {
  return h("div", { class: "empty-state" },
    h("h2", {}, "No tournament is announced yet"),
    h("p", {}, "Tournaments appear here as soon as the room announces them, with their start time and buy-in; this page updates by itself."),
    h("p", {}, "Meanwhile: ", h("a", { href: "#/account" }, "choose your screen name and check your balance"),
      ". To play you need money on your account: the room's operators credit it."));
}

function matches(t, c) {
  if (c.format !== "all" && t.format !== c.format) return false;
  const [, low, high] = BUY_INS[c.buyIn] || BUY_INS.any;
  if (price(t) < low || price(t) > high) return false;
  if (c.status === "open") return LIVE.has(t.status);
  return c.status === "all" || t.status === c.status;
}

function row(t, registration, countdowns) {
  const sng = t.format === "sng";
  let start;
  if (sng && t.status === "registering") {
    start = h("span", {}, "When full");
  } else if (t.status === "registering" && t.start_at) {
    const left = h("span", { class: "countdown" });
    countdowns.push([left, Date.parse(t.start_at)]);
    start = h("span", { class: "starts" }, h("time", { datetime: t.start_at, title: when(t.start_at) }, shortWhen(t.start_at)), " ", left);
  } else if (t.start_at) {
    start = h("time", { datetime: t.start_at, title: when(t.start_at) }, shortWhen(t.start_at));
  }
  const guaranteed = t.guarantee && t.guarantee >= collected(t);
  const players = sng
    ? h("span", { class: "filling" }, `${t.registered} / ${t.max_players}`,
        t.status === "registering" ? h("progress", { max: t.max_players, value: t.registered, "aria-label": `${t.registered} of ${t.max_players} seats taken` }) : null)
    : `${t.registered} / ${fieldCap(t.max_players)}`;
  return h("tr", { class: registration ? "mine" : "", dataset: { tournament: t.id } },
    h("td", { "data-label": "Starts" }, start || "–"),
    h("th", { scope: "row", "data-label": "Tournament" },
      h("a", { href: `#/t/${seg(t.id)}` }, t.name),
      registration === "registered" ? h("span", { class: "badge mine-badge" }, "Registered") : null,
      registration === "waitlisted" ? h("span", { class: "badge mine-badge" }, "Waiting list") : null),
    h("td", { "data-label": "Format" }, FORMAT_LABELS[t.format] || t.format),
    h("td", { class: "num", "data-label": "Buy-in" }, `${money(t.buy_in)} + ${money(t.entry_fee)}`),
    h("td", { class: "num", "data-label": "Prize pool" }, money(pool(t)),
      h("span", { class: "muted small" }, guaranteed ? " guaranteed" : " collected")),
    h("td", { class: "num", "data-label": "Players" }, players, t.waitlisted ? h("span", { class: "muted small" }, ` +${t.waitlisted} waiting`) : null),
    h("td", { "data-label": "Status" }, statusBadge(t.status)));
}

/** What the players' buy-ins put in the pool (rebuys and add-ons come on top once it runs). */
function collected(t) {
  return t.registered * t.buy_in;
}

/** The prize pool shown: the guarantee, or what was collected when that is more. */
function pool(t) {
  return Math.max(collected(t), t.guarantee || 0);
}

function price(t) {
  return t.buy_in + t.entry_fee;
}

function startKey(t) {
  return t.start_at ? Date.parse(t.start_at) : Number.MAX_SAFE_INTEGER;
}

function order(a, b) {
  return (ORDER[a.status] ?? 9) - (ORDER[b.status] ?? 9) || String(a.name).localeCompare(String(b.name));
}

function select(label, options, value) {
  const input = h("select", { name: label.toLowerCase().replace(/\W+/g, "_") },
    Object.entries(options).map(([key, text]) => h("option", { value: key }, text)));
  if (value && value in options) input.value = value;
  const id = `lobby-${input.name}`;
  input.id = id;
  return { input, field: h("div", { class: "field" }, h("label", { for: id }, label), input) };
}

function readFilters() {
  try {
    return JSON.parse(sessionStorage.getItem(FILTERS_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

export function fact(term, value) {
  return h("div", {}, h("dt", {}, term), h("dd", {}, value));
}
