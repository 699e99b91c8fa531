// A tournament's page: structure, payouts, live standings, the caller's registration (and the way to the table).

import { idempotencyKey, seg } from "../api.js";
import { fill, h } from "../dom.js";
import { chips, duration, fieldCap, FORMAT_LABELS, money, ordinal, shortfall, when } from "../format.js";
import { fact } from "./lobby.js";
import { every, notice, problem, say, statusBadge } from "./common.js";

export function renderTournament(main, ctx, tid) {
  const head = h("div", { class: "page-head" }, h("h1", {}, "Tournament"));
  const me = h("section", { class: "panel", "aria-labelledby": "me-h" });
  const standings = h("section", { class: "panel", "aria-labelledby": "st-h" });
  const structure = h("section", { class: "panel", "aria-labelledby": "str-h" });
  const hands = finishedHands(ctx, tid);
  const status = notice();
  main.append(head, status, h("div", { class: "columns" }, h("div", {}, me, standings, hands.section), structure));
  let details = null;
  let registration = null;
  let table = null;
  let busy = false;
  let registrationKey = null;
  let drawn = "";

  const act = async (label, call, price = 0) => {
    if (busy) return;
    busy = true;
    try {
      const answer = await call();
      say(status, label(answer), "ok");
      await refresh();
      ctx.refreshBalance();
    } catch (error) {
      say(status, await refusal(ctx, error, price), "error");
    } finally {
      busy = false;
    }
  };
  const register = () => {
    registrationKey = registrationKey || idempotencyKey(); // a retried click is the same registration
    return act(
      (a) => (a.status === "waitlisted" ? `On the waiting list, position ${a.position}` : `Registered: ${money(a.paid)} paid`),
      () => ctx.api.post(`/tournaments/${seg(tid)}/registrations`, {}, { "Idempotency-Key": registrationKey }),
      details.buy_in + details.entry_fee,
    );
  };
  const unregister = () => {
    registrationKey = null;
    return act((a) => `Unregistered: ${money(a.refunded)} refunded`, () => ctx.api.del(`/tournaments/${seg(tid)}/registrations/me`));
  };

  const drawMe = (standing) => {
    const nodes = [h("h2", { id: "me-h" }, "Your registration")];
    const state = registration ? registration.status : "not_registered";
    const open = details.status === "registering";
    if (state === "registered") nodes.push(h("p", { class: "strong" }, "You are registered."));
    else if (state === "waitlisted") nodes.push(h("p", { class: "strong" }, `You are on the waiting list (position ${registration.position}).`));
    else nodes.push(h("p", {}, open ? "You are not registered." : "You did not register."));
    if (open && state === "not_registered") {
      nodes.push(h("p", { class: "muted" }, `Registering costs ${money(details.buy_in + details.entry_fee)} (buy-in ${money(details.buy_in)} + fee ${money(details.entry_fee)}).`));
      nodes.push(h("button", { type: "button", class: "primary", onclick: register }, "Register"));
    }
    if (open && (state === "registered" || state === "waitlisted")) {
      nodes.push(h("button", { type: "button", onclick: unregister }, "Unregister"));
    }
    if (table) {
      nodes.push(h("p", {}, `You are seated at table ${table}.`),
        h("a", { class: "button primary", href: `#/t/${seg(tid)}/table/${seg(table)}` }, "Open table"));
    }
    if (standing && standing.places) {
      const mine = standing.places.find((p) => p.player === ctx.session.player);
      if (mine) nodes.push(h("p", { class: "placed" }, `You finished ${ordinal(mine.place)}`, mine.prize ? `: prize ${money(mine.prize)}` : ""));
    }
    fill(me, nodes);
  };

  const drawStandings = (s) => {
    if (!s) {
      const n = details.registered;
      fill(standings, h("h2", { id: "st-h" }, "Entrants"),
        h("p", { class: "muted" }, `${n} player${n === 1 ? "" : "s"} registered so far${details.waitlisted ? `, ${details.waitlisted} waiting` : ""}: each entrant is listed here with their chips once the tournament starts.`));
      return;
    }
    const tables = [...new Set(s.players.map((p) => p.table))].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
    fill(standings,
      h("h2", { id: "st-h" }, "Standings"),
      h("dl", { class: "facts" },
        fact("Entrants", String(s.players.length + s.places.length)),
        fact("Players left", String(s.players_left)),
        fact("Average stack", chips(s.average_stack)),
        fact("Level", `${s.level}: ${chips(s.small_blind)}/${chips(s.big_blind)}${s.ante ? ` ante ${chips(s.ante)}` : ""}`),
        s.status === "running" && s.seconds_to_next_level != null ? fact("Next level", duration(s.seconds_to_next_level * 1000)) : null),
      s.places.length
        ? h("div", {}, h("h3", {}, "Places"), h("ol", { class: "places" }, [...s.places].sort((a, b) => a.place - b.place).map((p) =>
            h("li", { value: p.place, class: p.place === 1 ? "winner" : "" },
              h("span", {}, h("span", { class: "place-no" }, ordinal(p.place)), " ", p.name || p.player), h("span", { class: "num" }, p.prize ? money(p.prize) : "")))))
        : null,
      s.players.length
        ? h("div", { class: "scroll" }, h("table", { class: "grid" },
            h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"),
              h("th", { scope: "col", class: "num" }, "Chips"), h("th", { scope: "col" }, "Table"))),
            h("tbody", {}, s.players.map((p, i) => h("tr", { class: p.player === ctx.session.player ? "mine" : "" },
              h("td", {}, String(i + 1)), h("td", {}, p.name || p.player), h("td", { class: "num" }, chips(p.chips)), h("td", {}, p.table))))))
        : null,
      tables.length && s.status === "running"
        ? h("nav", { class: "watch", "aria-label": "Tables" }, h("span", {}, "Watch: "),
            tables.map((t) => h("a", { href: `#/t/${seg(tid)}/table/${seg(t)}` }, `Table ${t}`)))
        : null);
  };

  const drawStructure = () => {
    const d = details;
    fill(head, h("h1", {}, d.name), statusBadge(d.status));
    fill(structure,
      h("h2", { id: "str-h" }, "Structure"),
      h("dl", { class: "facts" },
        fact("Format", FORMAT_LABELS[d.format] || d.format),
        fact("Buy-in", `${money(d.buy_in)} + ${money(d.entry_fee)}`),
        fact("Guarantee", d.guarantee ? money(d.guarantee) : "none"),
        fact("Registered", `${d.registered} of ${fieldCap(d.max_players)}`),
        fact("Waiting list", String(d.waitlisted)),
        fact("Players", `${d.min_players} to ${fieldCap(d.max_players)}, ${d.seats_per_table} a table`),
        fact("Starting stack", chips(d.starting_stack)),
        fact("Decision time", `${d.decision_seconds} s`),
        d.start_at ? fact("Starts", when(d.start_at)) : fact("Starts", "when full"),
        d.started_at ? fact("Started", when(d.started_at)) : null,
        d.ended_at ? fact("Ended", when(d.ended_at)) : null,
        d.rebuy_levels && d.rebuy_levels.length ? fact("Rebuys", d.rebuy_levels.map(([a, b]) => `levels ${a} to ${b}`).join(", ")) : null,
        d.add_on_chips ? fact("Add-on", `${chips(d.add_on_chips)} chips`) : null),
      d.start_at && d.status === "registering" ? h("p", { class: "countdown big", id: "countdown" }) : null,
      payouts(d),
      h("h3", {}, "Blind levels"),
      levelsTable(d.levels.slice(0, 10)),
      d.levels.length > 10 ? h("details", { class: "levels" }, h("summary", {}, `All ${d.levels.length} levels`), levelsTable(d.levels.slice(10))) : null);
  };

  const tick = () => {
    const el = document.getElementById("countdown");
    if (el && details && details.start_at) {
      const left = Date.parse(details.start_at) - Date.now();
      el.textContent = left > 0 ? `Starts in ${duration(left)}` : "Starting…";
    }
  };

  const refresh = async () => {
    try {
      const [d, r] = await Promise.all([
        ctx.api.get(`/tournaments/${seg(tid)}`),
        ctx.api.get(`/tournaments/${seg(tid)}/registrations/me`),
      ]);
      details = d;
      registration = r;
      let s = null;
      if (d.status !== "registering" && d.status !== "scheduled" && d.status !== "cancelled") {
        s = await ctx.api.get(`/tournaments/${seg(tid)}/standings`).catch(() => null);
      }
      const seat = s && s.players.find((p) => p.player === ctx.session.player);
      table = seat && s.status === "running" ? seat.table : null;
      const seen = JSON.stringify([d, r, s]);
      if (seen === drawn) return; // nothing changed: the page (and the focus in it) stays as it is
      drawn = seen;
      drawStructure();
      drawMe(s);
      drawStandings(s);
      hands.update(s);
      tick();
    } catch (error) {
      say(status, problem(error), "error");
    }
  };
  const stop = every(3000, refresh);
  const clock = setInterval(tick, 1000);
  return () => {
    stop();
    clearInterval(clock);
  };
}

/**
 * The finished hands of a table, each a link to its replay: the tables are those the standings named, and a table's
 * view gives the number of its hand (GET /tournaments/{id}/tables/{table}).
 */
function finishedHands(ctx, tid) {
  const section = h("section", { class: "panel", "aria-labelledby": "hands-h", hidden: true });
  const picker = h("select", { id: "hands-table", name: "table" });
  const list = h("div", {});
  const tables = new Set();
  let shown = "";
  const draw = async () => {
    const table = picker.value;
    if (!table) return;
    try {
      const view = await ctx.api.get(`/tournaments/${seg(tid)}/tables/${seg(table)}`);
      const last = view.hand_in_progress ? view.hand - 1 : view.hand;
      const key = `${table}/${last}`;
      if (key === shown) return;
      shown = key;
      const numbers = Array.from({ length: Math.max(0, last) }, (_, i) => last - i);
      fill(list, numbers.length
        ? h("ul", { class: "hand-list", "aria-label": `Finished hands of table ${table}` }, numbers.map((n) =>
            h("li", {}, h("a", { href: `#/t/${seg(tid)}/table/${seg(table)}/hand/${n}` }, `Hand #${n}`))))
        : h("p", { class: "muted" }, "No hand is finished at this table yet."));
    } catch (error) {
      fill(list, h("p", { class: "error" }, problem(error)));
    }
  };
  picker.addEventListener("change", draw);
  fill(section, h("h2", { id: "hands-h" }, "Finished hands"),
    h("div", { class: "field" }, h("label", { for: "hands-table" }, "Table"), picker), list);
  const update = (s) => {
    if (!s) return;
    const before = tables.size;
    for (const p of s.players) tables.add(String(p.table));
    if (!tables.size) tables.add("1");
    if (tables.size !== before) {
      const chosen = picker.value;
      const ids = [...tables].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
      fill(picker, ids.map((t) => h("option", { value: t }, `Table ${t}`)));
      picker.value = chosen && tables.has(chosen) ? chosen : ids[0];
    }
    section.hidden = false;
    draw();
  };
  return { section, update };
}

/** A refused request in the player's words: a payment short of money says, in dollars, what it costs and what the
 * account holds (GET /me/account), never the ledger's cents or account ids. */
async function refusal(ctx, error, price) {
  if (error && error.code === "insufficient_funds" && price) {
    try {
      const account = await ctx.api.get("/me/account");
      return shortfall(price, account.balance);
    } catch {
      return `Not enough money: you need ${money(price)}.`;
    }
  }
  return problem(error);
}

/** The prize pool: the guarantee, or the buy-ins collected when they are more (rebuys and add-ons come on top). */
export function prizePool(d) {
  return Math.max(d.registered * d.buy_in, d.guarantee || 0);
}

/** Each paid place's prize in money (the pool times its share, rounded down, the cents left over to first). */
export function prizes(pool, percents) {
  const amounts = percents.map((p) => Math.floor((pool * Number(p)) / 100));
  if (amounts.length) amounts[0] += pool - amounts.reduce((a, b) => a + b, 0);
  return amounts;
}

function payouts(d) {
  const pool = prizePool(d);
  const guaranteed = d.guarantee && d.guarantee >= d.registered * d.buy_in;
  const open = d.status === "registering" || d.status === "scheduled";
  const amounts = prizes(pool, d.payout_percent);
  return h("section", { "aria-labelledby": "pay-h" },
    h("h3", { id: "pay-h" }, "Payouts"),
    h("dl", { class: "facts" },
      fact("Prize pool", `${money(pool)}${guaranteed ? " guaranteed" : ""}`),
      fact("Places paid", String(amounts.length))),
    open ? h("p", { class: "muted small" }, `For the ${d.registered} entrant${d.registered === 1 ? "" : "s"} so far: the places paid and the prizes grow with the field.`) : null,
    d.format === "rebuy" ? h("p", { class: "muted small" }, "Rebuys and add-ons add to the pool.") : null,
    amounts.length
      ? h("ol", { class: "payouts payouts-money" }, amounts.map((amount, i) =>
          h("li", { value: i + 1 }, h("span", {}, ordinal(i + 1)), h("span", { class: "num" }, money(amount),
            h("span", { class: "muted small" }, ` (${Number(d.payout_percent[i])} %)`)))))
      : null);
}

function levelsTable(levels) {
  return h("div", { class: "scroll" }, h("table", { class: "grid compact" },
    h("thead", {}, h("tr", {}, ["Level", "Blinds", "Ante", "Minutes"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, levels.map((l) => h("tr", {},
      h("td", {}, String(l.level)), h("td", {}, `${chips(l.small_blind)}/${chips(l.big_blind)}`),
      h("td", {}, l.ante ? `${chips(l.ante)}${l.big_blind_ante ? " (BB)" : ""}` : "–"), h("td", {}, String(l.minutes)))))));
}
