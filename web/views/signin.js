// Sign-in: a name locally (the local stack's token route), the user pool's hosted sign-in in the cloud.

import { authorizeUrl, signInLocal } from "../auth.js";
import { field, h } from "../dom.js";
import { notice, say } from "./common.js";

export function renderSignIn(main, ctx) {
  const status = notice();
  if (ctx.config.auth && ctx.config.auth.mode === "cognito") {
    const go = async () => window.location.assign(await authorizeUrl(ctx.config.auth));
    main.append(
      h("section", { class: "panel narrow" },
        h("h1", {}, "Sign in"),
        h("p", {}, "Sign in with your poker room account to play and watch tournaments."),
        h("button", { type: "button", class: "primary", onclick: go }, "Sign in"),
        status),
    );
    return null;
  }
  const name = h("input", { type: "text", name: "player", autocomplete: "username", required: true,
    maxlength: 64, pattern: "[A-Za-z0-9][A-Za-z0-9_.\\-]*", autofocus: true });
  const operator = h("input", { type: "checkbox", name: "operator", id: "operator" });
  const submit = async (event) => {
    event.preventDefault();
    if (!name.reportValidity()) return;
    try {
      await signInLocal(ctx.config, name.value.trim(), operator.checked);
      ctx.signedIn();
    } catch (error) {
      say(status, error.message, "error");
    }
  };
  main.append(
    h("section", { class: "panel narrow" },
      h("h1", {}, "Sign in"),
      h("p", { class: "muted" }, "The local stack: any name signs in, with a token the stack mints for it."),
      h("form", { onsubmit: submit },
        field("Name", name, "Letters, digits, '.', '_' or '-'."),
        h("div", { class: "check" }, operator, h("label", { for: "operator" }, "Operator (the console)")),
        h("button", { type: "submit", class: "primary" }, "Sign in")),
      status),
  );
  return null;
}
