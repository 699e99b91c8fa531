// A finished hand: the PokerStars text the server wrote, and its fairness reveal checked here (crypto.subtle).

import { seg } from "../api.js";
import { fill, h } from "../dom.js";
import { verifyReveal } from "../fairness.js";
import { problem } from "./common.js";

export function renderHand(main, ctx, tid, tableId, hand) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  main.append(
    h("div", { class: "page-head" }, h("h1", {}, `Hand #${hand}, table ${tableId}`),
      h("a", { href: `#/t/${seg(tid)}/table/${seg(tableId)}` }, "Back to the table")),
    body);
  (async () => {
    try {
      const history = await ctx.api.get(`/tournaments/${seg(tid)}/tables/${seg(tableId)}/hands/${seg(hand)}`);
      const fairness = h("section", { class: "panel", "aria-labelledby": "fair-h" }, h("h2", { id: "fair-h" }, "Fairness"));
      fill(body,
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
      fill(body, h("p", { class: "error" }, problem(error)));
    }
  })();
  return null;
}
