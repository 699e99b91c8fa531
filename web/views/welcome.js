// The first sign-in's question: a player without a screen name is asked to choose one (PUT /me/profile) at the top
// of the lobby, before others meet them at a table. "Not now" leaves it for this session; the account page still
// offers it, and the header reads "Choose a screen name" until one is chosen.

import { fill, field, h } from "../dom.js";
import { sentence } from "../format.js";
import { notice, problem, say } from "./common.js";

const dismissedKey = (player) => `tourney.screenNamePrompt.dismissed.${player}`;

/** A region asking for a screen name, shown only once the API says the player has none (and was not asked "not now"). */
export function screenNamePrompt(ctx) {
  const player = ctx.session.player;
  const region = h("section", { class: "panel welcome", "aria-labelledby": "welcome-h", hidden: true });
  let asked = false;
  try {
    asked = sessionStorage.getItem(dismissedKey(player)) === "1";
  } catch {
    // no session storage: ask on every visit to the lobby
  }
  if (asked) return region;
  const input = h("input", { type: "text", name: "display_name", minlength: 3, maxlength: 20, autocomplete: "nickname", required: true });
  const status = notice();
  const save = h("button", { type: "submit", class: "primary" }, "Save screen name");
  const later = () => {
    try {
      sessionStorage.setItem(dismissedKey(player), "1");
    } catch {
      // asked again next time
    }
    region.hidden = true;
  };
  const submit = async (event) => {
    event.preventDefault();
    save.disabled = true;
    try {
      const profile = await ctx.api.put("/me/profile", { display_name: input.value.trim() });
      fill(region, h("h2", { id: "welcome-h" }, `Welcome, ${profile.display_name}`),
        h("p", { role: "status" }, `Saved: others see you as ${profile.display_name} at the tables, in the standings and in the chat. `,
          "You can change it on your account page."));
      ctx.refreshProfile();
    } catch (error) {
      say(status, `Not saved. ${sentence(problem(error))}${error.code === "name_taken" ? " Choose another." : ""}`, "error");
      input.focus();
    } finally {
      save.disabled = false;
    }
  };
  fill(region,
    h("h2", { id: "welcome-h" }, "Choose your screen name"),
    h("p", {}, "Other players see it at the tables, in the standings and in the chat; until you choose one, they see your account id."),
    h("form", { onsubmit: submit, novalidate: true },
      field("Screen name", input, "3 to 20 characters: letters, digits, '_', '-' and single spaces inside."),
      h("div", { class: "buttons" }, save, h("button", { type: "button", onclick: later }, "Not now"))),
    status);
  ctx.api.get("/me/profile").then((profile) => {
    region.hidden = Boolean(profile.display_name);
  }, () => {
    // the profile cannot be read now: the header and the account page still offer the name
  });
  return region;
}
