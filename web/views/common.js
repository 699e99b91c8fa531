// Small pieces the views share.

import { field, h } from "../dom.js";
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

/**
 * Ask an operator to confirm an act that cannot be undone, with its reason (kept in the audit; the API refuses an
 * empty one): a modal dialog. Resolves to the reason given, or null when the operator goes back.
 */
export function confirmWithReason({ title, detail, confirm, reason = "" }) {
  return new Promise((resolve) => {
    const input = h("textarea", { rows: 2, maxlength: 500, "aria-required": "true", value: reason });
    const problemLine = notice();
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-h" });
    const done = (value) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    const go = (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) {
        say(problemLine, "Give a reason: it is kept in the audit.", "error");
        input.focus();
        return;
      }
      done(text);
    };
    dialog.append(h("form", { method: "dialog", onsubmit: go },
      h("h2", { id: "confirm-h" }, title),
      h("p", {}, detail),
      field("Reason", input, "Required: kept in the audit with your name."),
      problemLine,
      h("div", { class: "buttons" },
        h("button", { type: "submit", class: "danger" }, confirm),
        h("button", { type: "button", onclick: () => done(null) }, "Go back"))));
    dialog.addEventListener("cancel", (e) => {
      e.preventDefault();
      done(null);
    });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}
