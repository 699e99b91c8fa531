// The lobby: every tournament announced, with its status, price, guarantee, field and start.

import { fill, h } from "../dom.js";
import { duration, FORMAT_LABELS, money, when } from "../format.js";
import { every, problem, statusBadge } from "./common.js";

const ORDER = { registering: 0, running: 1, scheduled: 2, terminated: 3, finished: 4, cancelled: 5 };

export function renderLobby(main, ctx) {
  const list = h("div", { class: "cards", "aria-live": "off" });
  const status = h("p", { class: "muted small" });
  main.append(
    h("div", { class: "page-head" }, h("h1", {}, "Lobby"), status),
    list,
  );
  let tournaments = [];
  const countdowns = [];

  const draw = () => {
    countdowns.length = 0;
    if (!tournaments.length) {
      fill(list, h("p", { class: "empty" }, "No tournament is announced yet."));
      return;
    }
    const sorted = [...tournaments].sort(
      (a, b) => (ORDER[a.status] ?? 9) - (ORDER[b.status] ?? 9) || String(a.start_at).localeCompare(String(b.start_at)),
    );
    fill(list, sorted.map((t) => row(t, countdowns)));
    tick();
  };
  const tick = () => {
    const now = Date.now();
    for (const [el, at] of countdowns) {
      const left = at - now;
      el.textContent = left > 0 ? `Starts in ${duration(left)}` : "Starting…";
    }
  };
  const stopPoll = every(4000, async () => {
    try {
      tournaments = await ctx.api.get("/tournaments");
      status.textContent = `${tournaments.length} tournament${tournaments.length === 1 ? "" : "s"}`;
      draw();
    } catch (error) {
      status.textContent = problem(error);
    }
  });
  const clock = setInterval(tick, 1000);
  return () => {
    stopPoll();
    clearInterval(clock);
  };
}

function row(t, countdowns) {
  const sng = t.format === "sng";
  let start;
  if (sng && t.status === "registering") {
    start = h("div", { class: "filling" },
      h("span", {}, `Filling: ${t.registered} of ${t.max_players}`),
      h("progress", { max: t.max_players, value: t.registered, "aria-label": `${t.registered} of ${t.max_players} seats taken` }));
  } else if (t.status === "registering" && t.start_at) {
    start = h("span", { class: "countdown", title: when(t.start_at) });
    countdowns.push([start, Date.parse(t.start_at)]);
  } else if (t.start_at) {
    start = h("span", { class: "muted" }, when(t.start_at));
  }
  return h("article", { class: `tcard status-${t.status}`, dataset: { tournament: t.id } },
    h("div", { class: "tcard-head" },
      h("h2", {}, h("a", { href: `#/t/${encodeURIComponent(t.id)}` }, t.name)),
      statusBadge(t.status)),
    h("dl", { class: "facts" },
      fact("Format", FORMAT_LABELS[t.format] || t.format),
      fact("Buy-in", `${money(t.buy_in)} + ${money(t.entry_fee)}`),
      t.guarantee ? fact("Guarantee", money(t.guarantee)) : null,
      fact("Registered", sng ? `${t.registered} / ${t.max_players}` : String(t.registered)),
      fact("Waiting list", String(t.waitlisted))),
    start ? h("div", { class: "tcard-foot" }, start) : null,
  );
}

export function fact(term, value) {
  return h("div", {}, h("dt", {}, term), h("dd", {}, value));
}
