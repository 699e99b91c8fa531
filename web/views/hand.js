// A finished hand: a replayer (street by street, from the PHH the server wrote), the PokerStars text, and its
// fairness reveal checked here (crypto.subtle).

import { seg } from "../api.js";
import { fill, h } from "../dom.js";
import { verifyReveal } from "../fairness.js";
import { card, chips } from "../format.js";
import { problem } from "./common.js";

export function renderHand(main, ctx, tid, tableId, hand) {
  const number = Number(hand);
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  main.append(
    h("div", { class: "page-head" }, h("h1", {}, `Hand #${hand}, table ${tableId}`),
      h("nav", { class: "buttons", "aria-label": "Hands" },
        number > 1 ? h("a", { class: "button", href: `#/t/${seg(tid)}/table/${seg(tableId)}/hand/${number - 1}` }, "Previous hand") : null,
        h("a", { class: "button", href: `#/t/${seg(tid)}/table/${seg(tableId)}/hand/${number + 1}` }, "Next hand"),
        h("a", { href: `#/t/${seg(tid)}` }, "The tournament"),
        h("a", { href: `#/t/${seg(tid)}/table/${seg(tableId)}` }, "Back to the table"))),
    body);
  (async () => {
    try {
      const [history, view] = await Promise.all([
        ctx.api.get(`/tournaments/${seg(tid)}/tables/${seg(tableId)}/hands/${seg(hand)}`),
        ctx.api.get(`/tournaments/${seg(tid)}/tables/${seg(tableId)}`).catch(() => null),
      ]);
      const names = new Map(((view && view.seats) || []).map((s) => [s.player, s.name || s.player]));
      const fairness = h("section", { class: "panel", "aria-labelledby": "fair-h" }, h("h2", { id: "fair-h" }, "Fairness"));
      fill(body,
        replayer(history, names),
        h("div", { class: "columns" },
          h("section", { class: "panel", "aria-labelledby": "ps-h" }, h("h2", { id: "ps-h" }, "Hand history"),
            h("pre", { class: "history", tabindex: 0 }, history.pokerstars)),
          fairness));
      if (!history.fairness) {
        fairness.append(h("p", { class: "muted" }, "This hand carries no commitment."));
        return;
      }
      const reveal = history.fairness;
      const problems = await verifyReveal(reveal);
      // through h(): a missing part (no problem to list) adds nothing, where Element.append would write "null"
      fairness.append(...h("div", {},
        h("p", { class: problems.length ? "verdict bad" : "verdict good", role: "status" },
          problems.length ? "The reveal does not match the commitment." : "Verified: the cards revealed and the hidden leaves hash to the commitment published at the deal."),
        problems.length ? h("ul", {}, problems.map((p) => h("li", {}, p))) : null,
        h("p", { class: "small" }, "Commitment ", h("code", { class: "hash" }, reveal.commitment)),
        h("p", { class: "small muted" }, `${reveal.cards.length} cards revealed with their salts, ${reveal.leaves.length} positions as leaves only.`),
        h("details", {}, h("summary", {}, "Revealed positions"),
          h("ul", { class: "reveal" }, reveal.cards.map((c) => h("li", {}, h("code", {}, `${c.i}: ${c.card}`), " ", h("code", { class: "hash" }, c.salt)))))).childNodes);
    } catch (error) {
      fill(body, h("p", { class: "error" }, error.status === 404 ? `Hand #${hand} of table ${tableId} is not finished or does not exist.` : problem(error)));
    }
  })();
  return null;
}

/** The PHH document (one `key = value` a line, each value JSON) as an object. */
export function parsePhh(text) {
  const fields = {};
  for (const line of String(text).split("\n")) {
    const match = /^([A-Za-z0-9_-]+) = (.*)$/.exec(line.trim());
    if (!match) continue;
    try {
      fields[match[1]] = JSON.parse(match[2]);
    } catch {
      fields[match[1]] = match[2];
    }
  }
  return fields;
}

const STREETS = ["Preflop", "Flop", "Turn", "River"];

/**
 * The hand as steps, one a street and the result: each with the board, the pot, every player's stack, cards known
 * and state, and what was done in it in words. Blinds, antes and bets follow the PHH's conventions
 * (docs/interfaces.md, 'The PHH export'; heads-up, entry 0 of antes and blinds is what p2 posts).
 */
export function replay(fields, hidden = new Map()) {
  const players = fields.players || [];
  const n = players.length;
  const heads = n === 2;
  const posted = (list) => {
    const values = (list || []).slice(0, n);
    while (values.length < n) values.push(0);
    return heads ? values.reverse() : values;
  };
  const antes = posted(fields.antes);
  const blinds = posted(fields.blinds_or_straddles);
  const seats = players.map((player, i) => ({
    player, stack: (fields.starting_stacks || [])[i] || 0, street: 0, folded: false,
    cards: hidden.get(i) || null, shown: false,
  }));
  let pot = 0;
  let board = [];
  const steps = [];
  let step = { name: STREETS[0], lines: [] };
  const showdown = []; // cards shown or mucked: told with the result
  const put = (s, amount) => {
    const paid = Math.min(amount, s.stack);
    s.stack -= paid;
    return paid;
  };
  seats.forEach((s, i) => {
    if (antes[i]) {
      const paid = put(s, antes[i]);
      pot += paid;
      step.lines.push([s.player, `posts an ante of ${chips(paid)}`]);
    }
  });
  const posting = seats.map((s, i) => [s, blinds[i]]).filter(([, blind]) => blind).sort((a, b) => a[1] - b[1]);
  posting.forEach(([s, blind], k) => {
    s.street = put(s, blind);
    const which = posting.length > 1 && k === 0 ? "the small blind" : "the big blind";
    step.lines.push([s.player, `posts ${which}, ${chips(s.street)}`]);
  });
  const snapshot = () => ({
    ...step, board: [...board], pot: pot + seats.reduce((a, s) => a + s.street, 0),
    seats: seats.map((s) => ({ ...s })),
  });
  const close = () => {
    steps.push(snapshot());
    for (const s of seats) {
      pot += s.street;
      s.street = 0;
    }
  };
  let street = 0;
  for (const raw of fields.actions || []) {
    const timeout = raw.includes("# timeout");
    const words = raw.replace(/#.*$/, "").trim().split(/\s+/);
    if (words[0] === "d" && words[1] === "db") {
      close();
      street = Math.min(street + 1, STREETS.length - 1);
      board = board.concat(words[2].match(/../g) || []);
      step = { name: STREETS[street], lines: [] };
      continue;
    }
    if (words[0] === "d") continue; // hole cards dealt: hidden in a public history
    const s = seats[Number(words[0].slice(1)) - 1];
    if (!s) continue;
    const high = Math.max(...seats.map((x) => x.street));
    let said;
    if (words[1] === "f") {
      s.folded = true;
      said = "folds";
    } else if (words[1] === "cc") {
      const owed = high - s.street;
      if (owed > 0) {
        const paid = put(s, owed);
        s.street += paid;
        said = `calls ${chips(paid)}${s.stack === 0 ? " and is all in" : ""}`;
      } else said = "checks";
    } else if (words[1] === "cbr") {
      const to = Number(words[2]);
      s.street += put(s, to - s.street);
      said = `${high > 0 ? "raises" : "bets"} to ${chips(s.street)}${s.stack === 0 ? " and is all in" : ""}`;
    } else if (words[1] === "sm") {
      if (words[2]) {
        s.cards = words[2].match(/../g);
        s.shown = true;
        said = `shows ${s.cards.map((c) => card(c).name).join(", ")}`;
      } else said = "mucks";
    }
    if (said) (words[1] === "sm" ? showdown : step.lines).push([s.player, said + (timeout ? " (time ran out)" : "")]);
  }
  close();
  if (fields.finishing_stacks) {
    const result = {
      name: "Result", lines: [...showdown], board: [...board], pot: 0,
      seats: seats.map((s, i) => ({ ...s, street: 0, stack: fields.finishing_stacks[i] })),
    };
    seats.forEach((s, i) => {
      const collected = fields.finishing_stacks[i] - s.stack; // what the pots (or an uncalled bet) gave back
      if (collected > 0) result.lines.push([s.player, `collects ${chips(collected)}`]);
    });
    steps.push(result);
  }
  return steps;
}

/** The caller's own cards and the shown ones, from the fairness reveal: player k (from 0) of n is dealt positions k
 * and n + k (docs/interfaces.md, 'Provably fair deals'). */
function knownCards(history, players) {
  const known = new Map();
  const dealt = new Map(((history.fairness && history.fairness.cards) || []).map((c) => [c.i, c.card]));
  players.forEach((_, k) => {
    const first = dealt.get(k);
    const second = dealt.get(players.length + k);
    if (first && second) known.set(k, [first, second]);
  });
  return known;
}

function replayer(history, names) {
  const fields = parsePhh(history.phh);
  const players = fields.players || [];
  const steps = replay(fields, knownCards(history, players));
  const who = (player) => names.get(player) || player;
  const region = h("section", { class: "panel replayer", "aria-labelledby": "replay-h" });
  if (!steps.length) {
    fill(region, h("h2", { id: "replay-h" }, "Replay"), h("p", { class: "muted" }, "This hand cannot be replayed."));
    return region;
  }
  let at = 0;
  const stage = h("div", { "aria-live": "polite" });
  const back = h("button", { type: "button", onclick: () => go(at - 1) }, "Previous street");
  const next = h("button", { type: "button", class: "primary", onclick: () => go(at + 1) }, "Next street");
  const tabs = h("div", { class: "buttons street-tabs", role: "group", "aria-label": "Streets" },
    steps.map((s, i) => h("button", { type: "button", class: "link", onclick: () => go(i) }, s.name)));
  const go = (i) => {
    at = Math.max(0, Math.min(steps.length - 1, i));
    const s = steps[at];
    back.disabled = at === 0;
    next.disabled = at === steps.length - 1;
    [...tabs.children].forEach((b, k) => b.setAttribute("aria-pressed", String(k === at)));
    fill(stage,
      h("h3", { class: "street-name" }, s.name),
      h("p", {}, "Board: ", s.board.length
        ? h("span", { class: "cards-row", "aria-label": s.board.map((c) => card(c).name).join(", ") }, s.board.map(cardChip))
        : h("span", { class: "muted" }, "none yet"), s.pot ? `  Pot ${chips(s.pot)}` : ""),
      h("div", { class: "scroll" }, h("table", { class: "grid compact" },
        h("caption", { class: "sr-only" }, `Players after the ${s.name.toLowerCase()}`),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Cards"),
          h("th", { scope: "col", class: "num" }, "Stack"), h("th", { scope: "col", class: "num" }, "In front"))),
        h("tbody", {}, s.seats.map((p) => h("tr", { class: p.folded ? "folded" : "" },
          h("th", { scope: "row" }, who(p.player), p.folded ? h("span", { class: "muted small" }, " (folded)") : null),
          h("td", {}, p.cards ? h("span", { class: "cards-row" }, p.cards.map(cardChip)) : h("span", { class: "muted" }, "hidden")),
          h("td", { class: "num" }, chips(p.stack)), h("td", { class: "num" }, p.street ? chips(p.street) : "")))))),
      s.lines.length
        ? h("ol", { class: "replay-lines", "aria-label": `${s.name} actions` }, s.lines.map(([p, text]) => h("li", {}, `${who(p)} ${text}`)))
        : h("p", { class: "muted" }, "No action on this street."));
  };
  fill(region, h("h2", { id: "replay-h" }, "Replay"), tabs, stage, h("div", { class: "buttons" }, back, next));
  go(0);
  return region;
}

function cardChip(code) {
  const c = card(code);
  return h("span", { class: `mini-card suit-${c.suit}`, title: c.name }, `${c.rank}${c.symbol}`);
}
