// The router and the page's frame: config.json, sign-in, the header (balance, who), one view at a time.

import { Api, Live } from "./api.js";
import { completeSignIn, logoutUrl, session, signOut } from "./auth.js";
import { fill, h } from "./dom.js";
import { money } from "./format.js";
import { renderAccount } from "./views/account.js";
import { renderHand } from "./views/hand.js";
import { renderLobby } from "./views/lobby.js";
import { renderOperator, renderOperatorTournament } from "./views/operator.js";
import { renderSignIn } from "./views/signin.js";
import { renderTable } from "./views/table.js";
import { renderTournament } from "./views/tournament.js";

const ROUTES = [
  [/^#?\/?$/, renderLobby],
  [/^#\/account$/, renderAccount],
  [/^#\/operator$/, renderOperator, { operator: true }],
  [/^#\/operator\/t\/([^/]+)$/, renderOperatorTournament, { operator: true }],
  [/^#\/t\/([^/]+)$/, renderTournament],
  [/^#\/t\/([^/]+)\/table\/([^/]+)$/, renderTable],
  [/^#\/t\/([^/]+)\/table\/([^/]+)\/hand\/(\d+)$/, renderHand],
];

const main = document.getElementById("app");
const nav = document.getElementById("nav");
const toastBox = document.getElementById("toast");
let cleanup = null;
let live = null;

function toast(text, kind = "info") {
  const item = h("p", { class: `toast ${kind}` }, text);
  toastBox.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 7000 : 4000);
}

async function start() {
  let config;
  try {
    const response = await fetch("config.json", { cache: "no-store" });
    config = await response.json();
  } catch {
    fill(main, h("p", { class: "error" }, "config.json cannot be read: this page is served without its stack."));
    return;
  }
  if (config.auth && config.auth.mode === "cognito") {
    try {
      if (await completeSignIn(config.auth, window.location)) {
        history.replaceState(null, "", window.location.pathname + window.location.hash);
      }
    } catch (error) {
      history.replaceState(null, "", window.location.pathname);
      toast(`Sign-in failed: ${error.message}`, "error");
    }
  }
  const ctx = {
    config,
    session: session(),
    api: new Api(config.api, () => (ctx.session ? ctx.session.token : null), () => expired()),
    toast,
    live: () => {
      if (!live) live = new Live(config.ws, () => ctx.session.token);
      return live;
    },
    refreshBalance: () => refreshBalance(ctx),
    refreshProfile: () => refreshProfile(ctx),
    signedIn: () => {
      ctx.session = session();
      route(ctx);
    },
  };
  function expired() {
    signOut();
    ctx.session = null;
    toast("Your session has ended: sign in again.", "error");
    route(ctx);
  }
  window.addEventListener("hashchange", () => route(ctx));
  route(ctx);
}

function renderNav(ctx) {
  if (!ctx.session) {
    fill(nav);
    return;
  }
  const out = () => {
    signOut();
    if (live) live.close();
    live = null;
    ctx.session = null;
    if (ctx.config.auth && ctx.config.auth.mode === "cognito") window.location.assign(logoutUrl(ctx.config.auth));
    else route(ctx);
  };
  fill(
    nav,
    h("a", { href: "#/" }, "Lobby"),
    h("a", { href: "#/account", id: "balance", title: "Balance and ledger" }, "Balance …"),
    ctx.session.operator ? h("a", { href: "#/operator" }, "Operator") : null,
    h("a", { href: "#/account", class: "who", id: "who", title: "Your screen name" }, ctx.session.name || ctx.session.player),
    h("button", { type: "button", class: "link", onclick: out }, "Sign out"),
  );
  refreshBalance(ctx);
  refreshProfile(ctx);
}

/** The header names the player by the screen name others see, and asks for one until it is chosen. */
async function refreshProfile(ctx) {
  const who = document.getElementById("who");
  if (!who || !ctx.session) return;
  try {
    const profile = await ctx.api.get("/me/profile");
    if (profile.display_name) {
      who.textContent = profile.display_name;
      who.dataset.displayName = profile.display_name;
    } else {
      who.textContent = "Choose a screen name";
      delete who.dataset.displayName;
    }
  } catch {
    // the account id stays shown
  }
}

async function refreshBalance(ctx) {
  const link = document.getElementById("balance");
  if (!link || !ctx.session) return;
  try {
    const account = await ctx.api.get("/me/account");
    link.textContent = `Balance ${money(account.balance)}`;
    link.dataset.balance = String(account.balance);
  } catch {
    link.textContent = "Balance ?";
  }
}

function route(ctx) {
  if (cleanup) cleanup();
  cleanup = null;
  renderNav(ctx);
  fill(main);
  if (!ctx.session) {
    cleanup = renderSignIn(main, ctx) || null;
    return;
  }
  const hash = window.location.hash || "#/";
  for (const [pattern, render, options] of ROUTES) {
    const match = pattern.exec(hash);
    if (!match) continue;
    if (options && options.operator && !ctx.session.operator) break;
    const params = match.slice(1).map(decodeURIComponent);
    cleanup = render(main, ctx, ...params) || null;
    main.focus({ preventScroll: true });
    return;
  }
  fill(main, h("h1", {}, "Not found"), h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
}

start();
