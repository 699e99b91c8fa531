// The caller's balance and ledger (GET /me/account, GET /me/ledger).

import { fill, h } from "../dom.js";
import { money, when } from "../format.js";
import { problem } from "./common.js";

const KINDS = {
  deposit: "Deposit",
  buy_in: "Buy-in",
  entry_fee: "Entry fee",
  refund: "Refund",
  prize: "Prize",
  rebuy: "Rebuy",
  add_on: "Add-on",
  adjustment: "Adjustment",
  withdrawal: "Withdrawal",
  commission: "Commission",
  overlay: "Overlay",
  compensation: "Compensation",
  forfeit: "Forfeit",
};

export function renderAccount(main, ctx) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  main.append(h("h1", {}, "Balance and ledger"), body);
  (async () => {
    try {
      const ledger = await ctx.api.get("/me/ledger");
      fill(body,
        h("p", { class: "balance-big" }, "Balance ", h("strong", { dataset: { balance: ledger.balance } }, money(ledger.balance))),
        ledger.entries.length
          ? h("div", { class: "scroll" }, h("table", { class: "grid" },
              h("caption", { class: "sr-only" }, "Ledger entries, newest first"),
              h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "When"), h("th", { scope: "col" }, "What"),
                h("th", { scope: "col" }, "Tournament"), h("th", { scope: "col", class: "num" }, "Amount"))),
              h("tbody", {}, [...ledger.entries].reverse().map((e) =>
                h("tr", {},
                  h("td", {}, when(e.at)),
                  h("td", {}, KINDS[e.kind] || e.kind),
                  h("td", {}, e.tournament_id ? h("a", { href: `#/t/${encodeURIComponent(e.tournament_id)}` }, e.tournament_id) : ""),
                  h("td", { class: `num ${e.amount < 0 ? "debit" : "credit"}` }, money(e.amount)))))))
          : h("p", { class: "empty" }, "No entries yet: an operator credits your account."));
    } catch (error) {
      fill(body, h("p", { class: "error" }, problem(error)));
    }
  })();
  return null;
}
