// A table over the WebSocket: the caller's own view (own hole cards only), pushed on every change.
// Seats with their last action of the street, stacks, bets, button and blinds, pot and side pots, board; the
// decision awaited in an action bar always on screen, with the server's clock running into the time bank; pre-actions
// while waiting; the hand's log; the tournament's bar (level, next blinds, players, average, rank, prize pool);
// banners for a bust, a move, a termination, a restart, hand-for-hand; away/back, rebuy and add-on, chat.

import { seg } from "../api.js";
import { back, face } from "../cards.js";
import { field, fill, h } from "../dom.js";
import { chips, duration, money, ordinal } from "../format.js";
import { every, notice, problem, say } from "./common.js";
import { actionText, clockText, decisionClock, logLines, preActionMove, sizePresets } from "./table-parts.js";

const PRE_ACTIONS = [["check_fold", "Check/Fold"], ["call_any", "Call any"], ["fold_any", "Fold to any bet"]];
/** Why a player moved, said at the table they moved to: it names the table they left ("" when unknown). */
const MOVE_REASONS = {
  balancing: () => "to balance the tables",
  breaking: (from) => (from ? `table ${from} was broken` : "your table was broken"),
  lone_player: (from) => (from ? `table ${from} had no one else` : "your table had no one else"),
};

export function renderTable(main, ctx, tid, tableId) {
  const me = ctx.session.player;
  const title = h("h1", {}, `Table ${tableId}`);
  const link = h("a", { href: `#/t/${seg(tid)}` }, "Tournament");
  const meta = h("p", { class: "table-meta" });
  const connection = h("span", { class: "conn", role: "status" });
  const bar = h("section", { class: "tourney-bar", "aria-label": "Tournament" });
  const banners = h("section", { class: "banners", "aria-live": "polite" });
  const felt = h("div", { class: "felt", role: "region", "aria-label": "Table" });
  const feltFoot = h("p", { class: "felt-foot small" });
  const mine = h("section", { class: "my-hand", "aria-label": "Your hand" });
  const actions = h("section", { class: "actions", "aria-label": "Your decision" });
  const controls = h("div", { class: "controls" });
  const status = notice();
  const results = h("section", { class: "results", "aria-live": "polite" });
  const lastHand = h("section", { class: "panel last-hand", "aria-labelledby": "lh-h" });
  const handLog = h("ol", { class: "hand-log", "aria-label": "Hand log" });
  const chatLog = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": "Chat" });
  const chatInput = h("input", { type: "text", maxlength: 200, autocomplete: "off", required: true });
  const chatStatus = h("p", { class: "chat-status small", role: "status" });

  main.classList.add("table-page");
  main.append(
    h("div", { class: "page-head" }, h("div", {}, title, meta), h("div", { class: "head-links" }, connection, link)),
    bar,
    results,
    banners,
    felt,
    feltFoot,
    h("div", { class: "under-felt" },
      h("div", { class: "play" }, mine, actions, controls, status),
      h("div", { class: "side" },
        lastHand,
        h("section", { class: "panel log", "aria-labelledby": "log-h" }, h("h2", { id: "log-h" }, "This hand"), handLog),
        h("section", { class: "panel chat", "aria-labelledby": "chat-h" },
          h("h2", { id: "chat-h" }, "Chat"), chatLog,
          h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); sendChat(); } },
            field("Chat message", chatInput), h("button", { type: "submit" }, "Send")),
          chatStatus))),
  );

  let view = null;
  let details = null;
  let standings = null;
  let standingsAt = 0;
  let decisionKey = "";
  let clockKey = "";
  let clockSeen = 0;
  let rebuyOffered = false;
  let shownHand = 0;
  let acting = false;
  let preAction = null;
  let preKey = "";
  let wasSeated = false;
  let lookedFor = "";
  let following = false;
  let pendingChat = null;
  let lastStatus = null;

  if (ctx.flash) {
    banner("moved", ctx.flash);
    ctx.flash = null;
  }

  const live = ctx.live();
  const stopState = live.onState((state) => {
    connection.textContent = state === "open" ? "Live" : state === "connecting" ? "Connecting…" : "Reconnecting…";
    connection.className = `conn ${state}`;
  });
  const unsubscribe = live.subscribe(tid, tableId, (frame) => onFrame(frame));

  // A safety net for a lost push: the view over HTTP now and then (the WebSocket is the live path).
  const stopPoll = every(5000, async () => {
    try {
      update(await ctx.api.get(`/tournaments/${seg(tid)}/tables/${seg(tableId)}`));
      if (view && !view.hand_in_progress) await showResult();
    } catch (error) {
      if (!view) say(status, problem(error), "error");
    }
  });
  // The tournament as a whole: its status (a termination, a restart, the finish) and its standings for the bar.
  const stopTourney = every(5000, async () => {
    try {
      const d = await ctx.api.get(`/tournaments/${seg(tid)}`);
      const first = !details;
      details = d;
      link.textContent = d.name;
      onStatus(d.status, first);
      if (d.status !== "registering" && d.status !== "scheduled" && d.status !== "cancelled") {
        standings = await ctx.api.get(`/tournaments/${seg(tid)}/standings`);
        standingsAt = Date.now();
      }
      if (first) draw();
      drawBar();
    } catch {
      // the table still plays: the bar waits for the next try
    }
  });

  async function showResult() {
    const s = await ctx.api.get(`/tournaments/${seg(tid)}/standings`);
    standings = s;
    standingsAt = Date.now();
    const winner = s.places.find((p) => p.place === 1);
    if (s.status !== "finished" || !winner || results.querySelector(".winner-banner")) return;
    const mineAt = s.places.find((p) => p.player === me);
    results.append(h("p", { class: "banner winner-banner" },
      `${winner.name || nameOf(winner.player)} won the tournament`, winner.prize ? ` and ${money(winner.prize)}` : "", ".",
      mineAt && mineAt.place !== 1 ? ` You finished ${ordinal(mineAt.place)}.` : ""));
    drawBar();
  }
  const clock = setInterval(() => {
    drawClock();
    drawLevelClock();
  }, 250);

  function nameOf(player) {
    const seat = view && view.seats.find((s) => s.player === player);
    return (seat && seat.name) || player;
  }

  function ours(frame) {
    const t = frame.table || {};
    const id = frame.tournament_id || t.tournament_id;
    const table = frame.table_id || (typeof frame.table === "string" ? frame.table : t.table);
    return id === tid && String(table) === String(tableId);
  }

  function onFrame(frame) {
    if (frame.type === "table" || (frame.event && frame.table && typeof frame.table === "object")) {
      if (ours(frame)) update(frame.table);
      return;
    }
    if (frame.type === "chat") {
      if (ours(frame)) addChat(frame);
      return;
    }
    if (frame.type === "chat_accepted") {
      // the line reached the table: the input is free for the next one
      if (pendingChat !== null && chatInput.value.trim() === pendingChat) chatInput.value = "";
      pendingChat = null;
      return;
    }
    if (frame.type === "error") {
      if (["in_hand", "observer", "not_english", "too_long", "rate_limited", "muted"].includes(frame.error)) {
        pendingChat = null; // refused: the line stays in the input, to send again later
        say(chatStatus, frame.message, "error");
      } else say(status, frame.message || frame.error, "error");
      return;
    }
    if (frame.tournament_id && frame.tournament_id !== tid) return;
    const who = frame.player_id || frame.player;
    if (frame.event === "rebuy_offered") {
      rebuyOffered = true;
      drawControls();
    } else if (frame.event === "placed" && who === me) {
      if (!results.querySelector(".placed")) {
        results.prepend(h("p", { class: "placed banner", role: "alert" }, `You finished ${ordinal(frame.place)}`,
          frame.prize ? ` and won ${money(frame.prize)}` : "", "."));
      }
      showResult().catch(() => {});
    } else if (frame.event === "moved" && who === me) {
      follow(String(frame.table), frame.reason, frame.from_table);
    } else if (frame.event === "disqualified") {
      fill(results, h("p", { class: "banner error" }, `You were disqualified: ${frame.reason}`));
    } else if (frame.event === "muted" || frame.event === "unmuted") {
      say(chatStatus, frame.event === "muted" ? "An operator muted you." : "You may chat again.", "info");
    }
  }

  /** Open the table where the player now sits, saying why at the new table. */
  function follow(table, reason, from = tableId) {
    if (following || String(table) === String(tableId)) return;
    following = true;
    const why = MOVE_REASONS[reason] ? ` (${MOVE_REASONS[reason](from == null ? "" : String(from))})` : "";
    ctx.flash = `You moved to table ${table}${why}.`;
    window.location.hash = `#/t/${seg(tid)}/table/${seg(table)}`;
  }

  /** Seated here before and not now, with the tournament running: where the standings seat the player now. */
  async function findMySeat() {
    try {
      const s = await ctx.api.get(`/tournaments/${seg(tid)}/standings`);
      const row = s.players.find((p) => p.player === me);
      if (row && s.status === "running" && String(row.table) !== String(tableId)) follow(String(row.table), view && view.closed ? "breaking" : "");
    } catch {
      // the next view tries again
    }
  }

  function banner(kind, text) {
    const old = banners.querySelector(`[data-kind="${kind}"]`);
    if (old && old.textContent === text) return; // said already: not announced again
    if (old) old.remove();
    if (text) banners.append(h("p", { class: `banner ${kind}`, role: "status", dataset: { kind } }, text));
  }

  function onStatus(next, first) {
    if (next === "terminated") {
      banner("terminated", "The tournament was terminated: play has stopped. It may restart within 20 minutes; if not, the players are compensated.");
    } else if (next === "running" && lastStatus === "terminated") {
      banner("terminated", null);
      banner("restarted", "The tournament restarted: play resumes.");
    } else if (next === "cancelled") {
      banner("terminated", "The tournament was cancelled.");
    }
    if (!first && lastStatus && lastStatus !== next && next === "finished") showResult().catch(() => {});
    lastStatus = next;
  }

  function update(next) {
    if (!next) return;
    // the newest view wins: an older one (a late poll) is dropped
    if (view && (next.hand < view.hand || (next.hand === view.hand && next.seq < view.seq && next.hand_in_progress))) return;
    if (view && next.hand === view.hand && next.seq === view.seq && next.hand_in_progress === view.hand_in_progress
      && JSON.stringify(next) === JSON.stringify(view)) return;
    const finished = view && view.hand_in_progress && (!next.hand_in_progress || next.hand > view.hand) ? view.hand : 0;
    appendLog(view, next);
    const prev = view;
    view = next;
    if (next.your_seat) wasSeated = true;
    else if (wasSeated && !next.your_seat && lookedFor !== `${next.hand}/${next.closed}`) {
      lookedFor = `${next.hand}/${next.closed}`; // once a hand: a bust-out stays on to watch
      findMySeat();
    }
    if (prev && prev.street !== next.street) preAction = preAction === "fold_any" ? preAction : null;
    if (prev && prev.hand !== next.hand) preAction = null;
    if (finished) showLastHand(finished);
    else if (!shownHand && !view.hand_in_progress && view.hand) showLastHand(view.hand);
    else if (!shownHand && view.hand > 1) showLastHand(view.hand - 1);
    banner("hfh", view.hand_for_hand ? "Hand-for-hand: each table plays one hand, then waits for every other table." : null);
    banner("closed", view.closed && !results.querySelector(".winner-banner") ? "This table is closed." : null);
    draw();
    applyPreAction();
  }

  function appendLog(prev, next) {
    if (!prev || prev.hand !== next.hand) {
      if (next.hand_in_progress || !prev) fill(handLog);
    }
    for (const line of logLines(prev, next)) handLog.append(h("li", {}, line));
    handLog.scrollTop = handLog.scrollHeight;
  }

  function level() {
    if (!details || !view) return null;
    return details.levels.find((l) => l.level === view.level) || null;
  }

  function draw() {
    if (!view) return;
    const l = level();
    fill(meta,
      view.hand ? `Hand #${view.hand}` : "No hand yet",
      ` · Level ${view.level}`,
      l ? ` · Blinds ${chips(l.small_blind)}/${chips(l.big_blind)}${l.ante ? `, ante ${chips(l.ante)}${l.big_blind_ante ? " (big blind ante)" : ""}` : ""}` : "",
      view.closed ? " · Table closed" : "");
    drawFelt();
    drawMine();
    drawActions();
    drawControls();
    drawBar();
  }

  function drawBar() {
    if (!details) return;
    const s = standings;
    const lv = s ? s.level : view ? view.level : 1;
    const next = details.levels.find((l) => l.level === lv + 1);
    const running = s && s.status === "running";
    const rank = s ? s.players.findIndex((p) => p.player === me) : -1;
    const fact = (label, value, id) => h("div", {}, h("dt", {}, label), h("dd", { id }, value));
    const ante = (l) => (l.ante ? `, ante ${chips(l.ante)}${l.big_blind_ante ? " (big blind ante)" : ""}` : "");
    fill(bar, h("dl", {},
      fact("Level", `${lv}`, null),
      running && s.seconds_to_next_level != null ? fact("Next level in", "", "level-clock") : null,
      next ? fact("Next blinds", `${chips(next.small_blind)}/${chips(next.big_blind)}${ante(next)}`) : null,
      s ? fact("Players left", `${s.players_left}`) : null,
      s && s.players_left ? fact("Average stack", chips(s.average_stack)) : null,
      rank >= 0 ? fact("Your rank", `${ordinal(rank + 1)} of ${s.players.length}`) : null,
      fact("Prize pool", money(s && s.prize_pool ? s.prize_pool : prizePool(details)))));
    drawLevelClock();
  }

  function drawLevelClock() {
    const el = document.getElementById("level-clock");
    if (!el || !standings || standings.status !== "running" || standings.seconds_to_next_level == null) return;
    el.textContent = duration(standings.seconds_to_next_level * 1000 - (Date.now() - standingsAt));
  }

  function drawFelt() {
    const seats = view.seats;
    const count = Math.max(details ? details.seats_per_table : 0, ...seats.map((s) => s.seat), 2);
    const anchor = view.your_seat || 1;
    const everyBetZero = seats.every((s) => !s.bet);
    const center = h("div", { class: "center" },
      h("div", { class: "board", "aria-label": "Board" }, view.board.length ? view.board.map((c) => face(c)) : h("span", { class: "muted small" }, view.hand_in_progress ? "" : "Waiting for the next hand")),
      view.hand_in_progress || view.pot ? h("p", { class: "pot" }, "Pot ", h("strong", { dataset: { pot: view.pot } }, chips(view.pot))) : null,
      potsList(view),
      view.street ? h("p", { class: "street small" }, view.street) : null);
    const nodes = [center];
    for (const s of seats) {
      const angle = Math.PI / 2 + ((s.seat - anchor) * 2 * Math.PI) / count;
      const tile = seatTile(s, view, me);
      tile.style.left = `${50 + 41 * Math.cos(angle)}%`;
      tile.style.top = `${50 + 40 * Math.sin(angle)}%`;
      nodes.push(tile);
      if (s.bet) {
        const bet = h("span", { class: "bet", "aria-label": `${s.name || s.player} bets ${s.bet}` }, chips(s.bet));
        bet.style.left = `${50 + 24 * Math.cos(angle)}%`;
        bet.style.top = `${50 + 22 * Math.sin(angle)}%`;
        nodes.push(bet);
      }
    }
    felt.dataset.seats = String(count);
    felt.dataset.noBet = everyBetZero ? "true" : "false";
    fill(felt, nodes);
    // the deck's commitment under the felt, where no bet or card can cover it
    fill(feltFoot, view.commitment
      ? h("span", { class: "commitment", title: `Deck commitment ${view.commitment}` }, `Deck commitment ${view.commitment.slice(0, 16)}…`)
      : null);
    drawClock();
  }

  function drawMine() {
    const seat = mySeat();
    if (!seat) {
      fill(mine, h("p", { class: "muted" }, "You are watching this table."));
      return;
    }
    fill(mine,
      h("div", { class: "hole" }, seat.cards.length ? seat.cards.map((c) => face(c, "big")) : h("span", { class: "muted" }, "No cards")),
      h("div", {},
        h("p", { class: "strong" }, `Seat ${seat.seat} · ${chips(seat.stack)} chips`),
        h("p", { class: "muted small" }, `Time bank ${seat.time_bank} s`, seat.away ? " · away" : "")));
  }

  function mySeat() {
    return view ? view.seats.find((s) => s.seat === view.your_seat) || null : null;
  }

  function myDecision() {
    const t = view && view.to_act;
    return t && view.your_seat === t.seat && t.player === me ? t : null;
  }

  /** Dealt in, still to act in this hand, and not to act now: the pre-actions are offered. */
  function waitingInHand() {
    const seat = mySeat();
    return view && view.hand_in_progress && seat && seat.status === "in" && !seat.away && !myDecision();
  }

  function drawActions() {
    const t = myDecision();
    const seat = mySeat();
    const away = seat && seat.away;
    let key = t ? `${view.hand}/${t.seq}/${t.on_time_bank}/${away}` : "";
    if (!t && waitingInHand()) key = `pre/${view.hand}/${view.street}/${preAction}`;
    if (key === decisionKey) return; // the same decision: keep the amount being typed
    decisionKey = key;
    actions.classList.toggle("dock", Boolean(t));
    main.classList.toggle("docked", Boolean(t) || key.startsWith("pre/"));
    if (!t) {
      fill(actions, key.startsWith("pre/") ? preActionBar() : null);
      actions.classList.toggle("pre", key.startsWith("pre/"));
      return;
    }
    actions.classList.remove("pre");
    if (away) {
      // the server acts for an away player at once: no clock to race and nothing to click but Back
      fill(actions, h("p", { class: "away-turn", dataset: { decision: key } },
        "You are away: the table checks or folds for you. Click Back to play your hands."));
      return;
    }
    fill(actions, decisionBar(t, seat));
    drawClock();
    keepFeltInSight();
  }

  function decisionBar(t, seat) {
    const key = decisionKey;
    const opens = view.seats.every((s) => !s.bet); // nothing in front of anyone: a bet opens the round
    const head = h("div", { class: "turn-head" },
      h("p", { class: "your-turn", dataset: { decision: key } }, "Your turn", h("span", { class: "clock", id: "my-clock" })),
      h("div", { class: "clock-bar", id: "my-clock-bar", role: "progressbar", "aria-label": "Decision clock", "aria-valuemin": 0, "aria-valuemax": 100 },
        h("span", { class: "own" }), h("span", { class: "bank" })));
    const buttons = [];
    // the server refuses a fold when nothing is to call ("check instead"): Fold is offered only facing a bet
    if (!t.can_check) buttons.push(h("button", { type: "button", class: "fold", onclick: () => send("fold") }, "Fold"));
    if (t.can_check) buttons.push(h("button", { type: "button", onclick: () => send("check") }, "Check"));
    else if (t.to_call > 0) {
      buttons.push(h("button", { type: "button", "aria-label": "Call", onclick: () => send("call") },
        "Call", h("span", { class: "amt" }, chips(Math.min(t.to_call, seat ? seat.stack : t.to_call)))));
    }
    const canRaise = t.min_raise_to != null && t.max_raise_to != null;
    if (!canRaise && seat && t.to_call > 0 && t.to_call >= seat.stack) {
      buttons.push(h("button", { type: "button", class: "allin", onclick: () => send("call") }, "All in"));
    }
    if (!canRaise) return [head, h("div", { class: "buttons main-buttons" }, buttons)];
    const kind = opens ? "bet" : "raise";
    const amount = h("input", { type: "number", inputmode: "numeric", min: t.min_raise_to, max: t.max_raise_to, step: 1,
      value: t.min_raise_to, required: true, class: "amount" });
    const slider = h("input", { type: "range", min: t.min_raise_to, max: t.max_raise_to, step: 1, value: t.min_raise_to,
      "aria-label": opens ? "Bet size" : "Raise size" });
    const shown = h("span", { class: "amt" }, chips(t.min_raise_to));
    const sync = (from) => {
      const n = Number(from.value);
      if (from !== amount) amount.value = String(n);
      if (from !== slider && Number.isFinite(n)) slider.value = String(n);
      shown.textContent = Number.isFinite(n) ? chips(n) : "";
    };
    const set = (n) => {
      amount.value = String(n);
      sync(amount);
    };
    slider.addEventListener("input", () => sync(slider));
    amount.addEventListener("input", () => sync(amount));
    const l = level();
    const facing = Math.max(0, ...view.seats.map((s) => s.bet));
    const presets = sizePresets(t, view.pot, seat ? seat.bet : 0, facing, l ? l.big_blind : 0);
    buttons.push(h("button", { type: "button", class: "primary", "aria-label": opens ? "Bet" : "Raise", onclick: () => {
      if (!amount.reportValidity()) return;
      send(kind, Number(amount.value));
    } }, opens ? "Bet" : "Raise", h("span", { class: "amt" }, opens ? "" : "to ", shown)));
    buttons.push(h("button", { type: "button", class: "allin", onclick: () => send(kind, t.max_raise_to) }, "All in"));
    return [
      head,
      h("div", { class: "raise" },
        h("div", { class: "sizes", role: "group", "aria-label": "Bet sizes" },
          presets.map(([label, n]) => h("button", { type: "button", class: "size", title: label === "Max" ? "All in: your whole stack" : null,
            onclick: () => set(n) }, label))),
        h("div", { class: "slide" }, slider, field("Amount", amount))),
      h("div", { class: "buttons main-buttons" }, buttons),
    ];
  }

  /** The felt's foot hidden behind the docked bar (a phone scrolled down): bring the table back into sight. */
  function keepFeltInSight() {
    const dock = actions.getBoundingClientRect();
    const table = felt.getBoundingClientRect();
    if (table.bottom > dock.top + 40 || table.top < 0) felt.scrollIntoView({ block: "start" });
  }

  function preActionBar() {
    const boxes = PRE_ACTIONS.map(([value, label]) => {
      const box = h("input", { type: "checkbox", checked: preAction === value, onchange: (e) => {
        preAction = e.target.checked ? value : null;
        preKey = preAction ? `${view.hand}` : "";
        decisionKey = "";
        drawActions();
      } });
      return h("label", { class: "pre-action" }, box, label);
    });
    return [h("p", { class: "small muted pre-title" }, "Before your turn"), h("div", { class: "pre-actions" }, boxes)];
  }

  /** The decision came with a pre-action chosen: act as chosen (once), or let the player decide. */
  function applyPreAction() {
    const t = myDecision();
    if (!t || !preAction || acting || preKey !== `${view.hand}`) return;
    const seat = mySeat();
    if (seat && seat.away) return;
    const move = preActionMove(preAction, t);
    if (preAction !== "fold_any") preAction = null;
    if (move) send(move);
  }

  function drawClock() {
    const t = view && view.to_act;
    const key = t ? `${view.hand}/${t.seq}/${t.on_time_bank}` : "";
    if (key !== clockKey) {
      clockKey = key;
      clockSeen = Date.now();
    }
    const seat = t && view.seats.find((s) => s.seat === t.seat);
    const c = t && !(seat && seat.away) ? decisionClock(t, Date.now(), clockSeen) : null;
    const text = clockText(c);
    for (const el of felt.querySelectorAll(".seat.acting .timer")) el.textContent = text;
    const own = document.getElementById("my-clock");
    if (own) own.textContent = c ? ` · ${text}` : "";
    const barEl = document.getElementById("my-clock-bar");
    if (barEl && c) {
      const total = Math.max(1, c.ownTotal + c.bankTotal);
      barEl.querySelector(".own").style.width = `${(100 * c.own) / total}%`;
      barEl.querySelector(".bank").style.width = `${(100 * c.bank) / total}%`;
      barEl.classList.toggle("on-bank", c.onBank);
      barEl.setAttribute("aria-valuenow", String(Math.round((100 * (c.own + c.bank)) / total)));
      barEl.setAttribute("aria-valuetext", text);
    }
  }

  function drawControls() {
    if (!view) return;
    const seat = mySeat();
    const nodes = [];
    if (seat) {
      nodes.push(seat.away
        ? h("button", { type: "button", onclick: () => presence("back") }, "Back")
        : h("button", { type: "button", onclick: () => presence("away") }, "Away"));
    }
    const rebuyFormat = details && details.format === "rebuy";
    const inRebuyPeriod = rebuyFormat && (details.rebuy_levels || []).some(([a, b]) => view.level >= a && view.level <= b);
    if (rebuyOffered || (seat && inRebuyPeriod)) {
      nodes.push(h("button", { type: "button", onclick: () => purchase("rebuys", "Rebuy") }, "Rebuy"));
    }
    if (seat && rebuyFormat && details.add_on_chips) {
      nodes.push(h("button", { type: "button", onclick: () => purchase("addons", "Add-on") }, "Add-on"));
    }
    fill(controls, nodes);
  }

  async function send(kind, amount) {
    const t = myDecision();
    if (!t || acting) return;
    acting = true;
    const body = { hand: view.hand, seq: t.seq, action: kind };
    if (amount !== undefined) body.amount = amount;
    const decided = decisionKey;
    try {
      await ctx.api.post(`/tournaments/${seg(tid)}/tables/${seg(tableId)}/actions`, body);
      say(status, "");
      // the push brings the next decision; it may have come before this answer, and then it stays
      if (decisionKey === decided) fill(actions);
    } catch (error) {
      say(status, problem(error), "error");
      if (error.status === 409) decisionKey = ""; // stale: draw the decision the next view names
    } finally {
      acting = false;
    }
  }

  async function presence(kind) {
    try {
      await ctx.api.post(`/tournaments/${seg(tid)}/${kind}`);
      say(status, kind === "away" ? "You are away: your hands are folded or checked for you." : "Welcome back.", "ok");
    } catch (error) {
      say(status, problem(error), "error");
    }
  }

  async function purchase(path, label) {
    try {
      const bought = await ctx.api.post(`/tournaments/${seg(tid)}/${path}`);
      say(status, `${label}: ${chips(bought.chips)} chips for ${money(bought.paid)}${bought.pending ? ", added when this hand ends" : ""}`, "ok");
      if (path === "rebuys") rebuyOffered = false;
      ctx.refreshBalance();
      drawControls();
    } catch (error) {
      say(status, problem(error), "error");
    }
  }

  function sendChat() {
    const text = chatInput.value.trim();
    if (!text) return;
    // the input keeps the line until the table hears it: a refused line can be sent again
    pendingChat = text;
    live.send({ action: "chat", tournament_id: tid, table_id: tableId, text });
    say(chatStatus, "");
  }

  function addChat(line) {
    if (line.player === me && pendingChat !== null && line.text === pendingChat) {
      if (chatInput.value.trim() === pendingChat) chatInput.value = "";
      pendingChat = null;
    }
    chatLog.append(h("li", {}, h("strong", {}, line.name || line.player), " ", line.text));
    while (chatLog.children.length > 100) chatLog.firstChild.remove();
    chatLog.scrollTop = chatLog.scrollHeight;
  }

  async function showLastHand(hand) {
    shownHand = hand;
    const url = `/tournaments/${seg(tid)}/tables/${seg(tableId)}/hands/${hand}`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const history = await ctx.api.get(url);
        if (shownHand !== hand) return;
        const lines = summaryLines(history.pokerstars);
        fill(lastHand,
          h("h2", { id: "lh-h" }, `Hand #${hand}`),
          lines.length ? h("ul", { class: "summary" }, lines.map((l) => h("li", {}, l))) : null,
          h("a", { href: `#/t/${seg(tid)}/table/${seg(tableId)}/hand/${hand}` }, "Hand history and fairness check"));
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  return () => {
    unsubscribe();
    stopState();
    stopPoll();
    stopTourney();
    clearInterval(clock);
    main.classList.remove("table-page", "docked");
  };
}

/** The prize pool before the standings give it: the buy-ins of the field, or the guarantee when it is larger. */
export function prizePool(d) {
  return Math.max(d.guarantee || 0, (d.buy_in || 0) * (d.registered || 0));
}

/** A finished hand's outcome from its PokerStars text: who showed what and who collected, each once (the lines
 * before the summary, which says the same again). */
export function summaryLines(text) {
  const body = text.split("*** SUMMARY ***")[0];
  const lines = body.split("\n").map((l) => l.trim()).filter((l) => / collected |: shows \[|: mucks /.test(l));
  return [...new Set(lines)].slice(0, 6);
}

/** The main pot and the side pots gathered so far (`view.pots`), each with who may win it; null without a side pot
 * (the one pot is then the "Pot" line, with the street's bets in front of the seats). */
export function potsList(view) {
  const pots = view.pots || [];
  if (pots.length < 2) return null;
  const names = new Map(view.seats.map((s) => [s.seat, s.name || s.player]));
  return h("ul", { class: "pots small", "aria-label": "Pots" },
    pots.map((pot, i) => {
      const name = i === 0 ? "Main pot" : `Side pot ${i}`;
      const who = pot.seats.map((seat) => names.get(seat) || `seat ${seat}`).join(", ");
      return h("li", { dataset: { amount: pot.amount, seats: pot.seats.join(" ") }, "aria-label": `${name}: ${pot.amount} chips, ${who}` },
        `${name} `, h("strong", {}, chips(pot.amount)), h("span", { class: "muted" }, ` · ${who}`));
    }));
}

function seatTile(s, view, me) {
  const marks = [];
  if (view.button === s.seat) marks.push(h("span", { class: "dealer", title: "Dealer button", "aria-label": "Dealer button" }, "D"));
  if (view.small_blind_seat === s.seat) marks.push(h("span", { class: "tag" }, "SB"));
  if (view.big_blind_seat === s.seat) marks.push(h("span", { class: "tag" }, "BB"));
  const acting = view.to_act && view.to_act.seat === s.seat;
  const inHand = view.hand_in_progress && (s.status === "in" || s.status === "all_in");
  let cards = null;
  if (s.cards.length) cards = h("div", { class: "cards-row" }, s.cards.map((c) => face(c, "small")));
  else if (inHand) cards = h("div", { class: "cards-row" }, back("small"), back("small"));
  const name = s.name || s.player;
  const last = view.hand_in_progress ? actionText(s.last_action) : "";
  const classes = ["seat", `st-${s.status}`, acting ? "acting" : "", s.player === me ? "me" : "", s.away ? "away" : ""];
  return h("div", { class: classes.filter(Boolean).join(" "), role: "group", dataset: { seat: s.seat, player: s.player },
    "aria-label": `Seat ${s.seat}: ${name}, ${s.stack} chips${s.status === "folded" ? ", folded" : ""}${s.status === "all_in" ? ", all in" : ""}${s.away ? ", away" : ""}${last ? `, last action ${last}` : ""}` },
    cards,
    h("div", { class: "plate" },
      h("span", { class: "name", title: name }, name),
      h("span", { class: "stack" }, chips(s.stack)),
      marks.length ? h("span", { class: "marks" }, marks) : null,
      s.status === "all_in" ? h("span", { class: "tag hot" }, "All in") : null,
      s.away ? h("span", { class: "tag" }, "Away") : null,
      acting ? h("span", { class: "timer" }) : null),
    last ? h("span", { class: `last-action act-${s.last_action.kind}`, dataset: { action: s.last_action.kind } }, last) : null);
}
