// The caller's screen name (GET/PUT /me/profile), balance and ledger (GET /me/ledger); the ledger names each
// tournament by its name from the lobby (GET /tournaments), never by its id.

import { fill, field, h } from "../dom.js";
import { money, sentence, shortWhen, when } from "../format.js";
import { notice, problem, say } from "./common.js";

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
  main.append(h("h1", {}, "Your account"), screenNameForm(ctx), h("h2", {}, "Balance and ledger"), body);
  (async () => {
    try {
      const [ledger, lobby] = await Promise.all([
        ctx.api.get("/me/ledger"),
        ctx.api.get("/tournaments").catch(() => []),
      ]);
      const names = new Map(lobby.map((t) => [t.id, t.name]));
      fill(body,
        h("p", { class: "balance-big" }, "Balance ", h("strong", { dataset: { balance: ledger.balance } }, money(ledger.balance))),
        ledger.entries.length
          ? h("div", { class: "scroll" }, h("table", { class: "grid" },
              h("caption", { class: "sr-only" }, "Ledger entries, newest first"),
              h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "When"), h("th", { scope: "col" }, "What"),
                h("th", { scope: "col" }, "Tournament"), h("th", { scope: "col", class: "num" }, "Amount"))),
              h("tbody", {}, [...ledger.entries].reverse().map((e) =>
                h("tr", {},
                  h("td", { class: "nowrap" }, h("time", { datetime: e.at, title: when(e.at) }, shortWhen(e.at))),
                  h("td", {}, KINDS[e.kind] || e.kind),
                  h("td", {}, e.tournament_id
                    ? h("a", { href: `#/t/${encodeURIComponent(e.tournament_id)}` }, names.get(e.tournament_id) || "A past tournament")
                    : ""),
                  h("td", { class: `num nowrap ${e.amount < 0 ? "debit" : "credit"}` }, money(e.amount)))))))
          : h("p", { class: "empty" }, "No entries yet: an operator credits your account."));
    } catch (error) {
      fill(body, h("p", { class: "error" }, problem(error)));
    }
  })();
  return null;
}

/** The screen name others see at the tables, in the standings and in the chat: chosen once, changed any time. */
function screenNameForm(ctx) {
  const input = h("input", { type: "text", name: "display_name", minlength: 3, maxlength: 20, autocomplete: "nickname",
    required: true });
  const current = h("p", { class: "muted" }, "Loading…");
  const status = notice();
  const save = h("button", { type: "submit", class: "primary" }, "Save screen name");
  const show = (profile) => {
    current.textContent = profile.display_name
      ? `Others see you as ${profile.display_name}.`
      : "You have no screen name yet: others see your account id until you choose one.";
    if (!input.value) input.value = profile.display_name || "";
  };
  const submit = async (event) => {
    event.preventDefault();
    const chosen = input.value.trim();
    save.disabled = true;
    try {
      const profile = await ctx.api.put("/me/profile", { display_name: chosen });
      show(profile);
      say(status, `Saved: your screen name is ${profile.display_name}.`, "ok");
      ctx.refreshProfile();
    } catch (error) {
      const refusal = sentence(problem(error)) + (error.code === "name_taken" ? " Choose another." : "");
      say(status, `Not saved. ${refusal}`, "error");
      input.focus();
    } finally {
      save.disabled = false;
    }
  };
  ctx.api.get("/me/profile").then(show, (error) => say(status, problem(error), "error"));
  return h("section", { class: "panel narrow", "aria-labelledby": "name-h" },
    h("h2", { id: "name-h" }, "Screen name"),
    current,
    h("form", { onsubmit: submit, novalidate: true },
      field("Screen name", input, "3 to 20 characters: letters, digits, '_', '-' and single spaces inside."),
      save),
    status);
}
