// Cards as the page shows them: a face the server sent, or a back for a hand still held.

import { h } from "./dom.js";
import { card } from "./format.js";

export function face(code, size = "") {
  const c = card(code);
  return h("span", { class: `card face suit-${c.suit} ${size}`, role: "img", "aria-label": c.name, dataset: { card: code } },
    h("span", { class: "rank", "aria-hidden": "true" }, c.rank),
    h("span", { class: "pip", "aria-hidden": "true" }, c.symbol));
}

export function back(size = "") {
  return h("span", { class: `card back ${size}`, "aria-hidden": "true" });
}
