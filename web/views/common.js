// Small pieces the views share.

import { h } from "../dom.js";
import { STATUS_LABELS } from "../format.js";

/** Run `step` now and every `ms` until the returned function is called; a step never overlaps the next. */
export function every(ms, step) {
  let stopped = false;
  let timer = null;
  const run = async () => {
    try {
      await step();
    } finally {
      if (!stopped) timer = setTimeout(run, ms);
    }
  };
  run();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export function statusBadge(status) {
  return h("span", { class: `badge status-${status}` }, STATUS_LABELS[status] || status);
}

/** The API's message for a refused request, as the API wrote it. */
export function problem(error) {
  return error && error.message ? error.message : String(error);
}

/** An area that announces what it is given (errors of a form, results of an act). */
export function notice() {
  return h("p", { class: "notice", role: "status", "aria-live": "polite" });
}

/** Show `text` in `el` as a notice of `kind` (info, ok, error); the element keeps its own classes. */
export function say(el, text, kind = "info") {
  el.textContent = text;
  el.classList.remove("info", "ok", "error");
  el.classList.add("notice", kind);
}
