// A table over the WebSocket: the caller's own view (own hole cards only), pushed on every change.
// Seats, stacks, bets, button and blinds, pot and side pots, board, the decision awaited with its clock and time bank, the
// caller's legal actions, away/back, rebuy and add-on, chat, and the hands played here.

import { seg } from "../api.js";
import { back, face } from "../cards.js";
import { field, fill, h } from "../dom.js";
import { chips, money, ordinal } from "../format.js";
import { every, notice, problem, say } from "./common.js";

export function renderTable(main, ctx, tid, tableId) {
  const me = ctx.session.player;
  const title = h("h1", {}, `Table ${tableId}`);
  const link = h("a", { href: `#/t/${seg(tid)}` }, "Tournament");
  const meta = h("p", { class: "table-meta" });
  const connection = h("span", { class: "conn", role: "status" });
  const felt = h("div", { class: "felt", role: "region", "aria-label": "Table" });
  const mine = h("section", { class: "my-hand", "aria-label": "Your hand" });
  const actions = h("section", { class: "actions", "aria-label": "Your decision" });
  const controls = h("div", { class: "controls" });
  const status = notice();
  const results = h("section", { class: "results", "aria-live": "polite" });
  const lastHand = h("section", { class: "panel last-hand", "aria-labelledby": "lh-h" });
  const chatLog = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": "Chat" });
  const chatInput = h("input", { type: "text", maxlength: 200, autocomplete: "off", required: true });
  const chatStatus = h("p", { class: "chat-status small", role: "status" });

  main.classList.add("table-page");
  main.append(
    h("div", { class: "page-head" }, h("div", {}, title, meta), h("div", { class: "head-links" }, connection, link)),
    results,
    felt,
    h("div", { class: "under-felt" },
      h("div", { class: "play" }, mine, actions, controls, status),
      h("div", { class: "side" },
        lastHand,
        h("section", { class: "panel chat", "aria-labelledby": "chat-h" },
          h("h2", { id: "chat-h" }, "Chat"), chatLog,
          h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); sendChat(); } },
            field("Chat message", chatInput), h("button", { type: "submit" }, "Send")),
          chatStatus))),
  );

  let view = null;
  let details = null;
  let decisionKey = "";
  let clockKey = "";
  let clockSeen = 0;
  let rebuyOffered = false;
  let shownHand = 0;
  let acting = false;

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

  async function showResult() {
    const s = await ctx.api.get(`/tournaments/${seg(tid)}/standings`);
    const winner = s.places.find((p) => p.place === 1);
    if (s.status !== "finished" || !winner || results.querySelector(".winner-banner")) return;
    const mineAt = s.places.find((p) => p.player === me);
    results.append(h("p", { class: "banner winner-banner" },
      `${winner.player} won the tournament`, winner.prize ? ` and ${money(winner.prize)}` : "", ".",
      mineAt && mineAt.place !== 1 ? ` You finished ${ordinal(mineAt.place)}.` : ""));
  }
  ctx.api.get(`/tournaments/${seg(tid)}`).then((d) => {
    details = d;
    link.textContent = d.name;
    draw();
  }).catch(() => {});
  const clock = setInterval(() => drawClock(), 500);

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
    if (frame.type === "error") {
      if (["in_hand", "observer", "not_english", "too_long", "rate_limited", "muted"].includes(frame.error)) say(chatStatus, frame.message, "error");
      else say(status, frame.message || frame.error, "error");
      return;
    }
    if (frame.event === "rebuy_offered" && frame.tournament_id === tid) {
      rebuyOffered = true;
      drawControls();
    } else if (frame.event === "placed" && frame.tournament_id === tid && frame.player === me) {
      results.prepend(h("p", { class: "placed banner" }, `You finished ${ordinal(frame.place)}`,
        frame.prize ? ` and won ${money(frame.prize)}` : "", "."));
      showResult().catch(() => {});
    } else if (frame.event === "disqualified" && frame.tournament_id === tid) {
      fill(results, h("p", { class: "banner error" }, `You were disqualified: ${frame.reason}`));
    } else if (frame.event === "muted" || frame.event === "unmuted") {
      say(chatStatus, frame.event === "muted" ? "An operator muted you." : "You may chat again.", "info");
    }
  }

  function update(next) {
    if (!next) return;
    // the newest view wins: an older one (a late poll) is dropped
    if (view && (next.hand < view.hand || (next.hand === view.hand && next.seq < view.seq && next.hand_in_progress))) return;
    const finished = view && view.hand_in_progress && (!next.hand_in_progress || next.hand > view.hand) ? view.hand : 0;
    view = next;
    if (finished) showLastHand(finished);
    else if (!shownHand && !view.hand_in_progress && view.hand) showLastHand(view.hand);
    else if (!shownHand && view.hand > 1) showLastHand(view.hand - 1);
    draw();
  }

  function blinds() {
    if (!details || !view) return null;
    return details.levels.find((l) => l.level === view.level) || null;
  }

  function draw() {
    if (!view) return;
    const level = blinds();
    fill(meta,
      view.hand ? `Hand #${view.hand}` : "No hand yet",
      ` · Level ${view.level}`,
      level ? ` · Blinds ${chips(level.small_blind)}/${chips(level.big_blind)}${level.ante ? ` ante ${chips(level.ante)}` : ""}` : "",
      view.closed ? " · Table closed" : "");
    drawFelt();
    drawMine();
    drawActions();
    drawControls();
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
      view.street ? h("p", { class: "street small" }, view.street) : null,
      view.commitment ? h("p", { class: "commitment small", title: `Deck commitment ${view.commitment}` }, `Deck ${view.commitment.slice(0, 12)}…`) : null);
    const nodes = [center];
    for (const s of seats) {
      const angle = Math.PI / 2 + ((s.seat - anchor) * 2 * Math.PI) / count;
      const tile = seatTile(s, view, me);
      tile.style.left = `${50 + 41 * Math.cos(angle)}%`;
      tile.style.top = `${50 + 40 * Math.sin(angle)}%`;
      nodes.push(tile);
      if (s.bet) {
        const bet = h("span", { class: "bet", "aria-label": `${s.player} bets ${s.bet}` }, chips(s.bet));
        bet.style.left = `${50 + 24 * Math.cos(angle)}%`;
        bet.style.top = `${50 + 22 * Math.sin(angle)}%`;
        nodes.push(bet);
      }
    }
    felt.dataset.seats = String(count);
    felt.dataset.noBet = everyBetZero ? "true" : "false";
    fill(felt, nodes);
    drawClock();
  }

  function drawMine() {
    const seat = view.seats.find((s) => s.seat === view.your_seat);
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

  function myDecision() {
    const t = view && view.to_act;
    return t && view.your_seat === t.seat && t.player === me ? t : null;
  }

  function drawActions() {
    const t = myDecision();
    const key = t ? `${view.hand}/${t.seq}/${t.on_time_bank}` : "";
    if (key === decisionKey) return; // the same decision: keep the amount being typed
    decisionKey = key;
    if (!t) {
      fill(actions);
      return;
    }
    const seat = view.seats.find((s) => s.seat === t.seat);
    const opens = view.seats.every((s) => !s.bet); // nothing in front of anyone: a bet opens the round
    const nodes = [h("p", { class: "your-turn", dataset: { decision: key } }, "Your turn", h("span", { class: "clock", id: "my-clock" }))];
    const buttons = [];
    // the server refuses a fold when nothing is to call ("check instead"): Fold is offered only facing a bet
    if (!t.can_check) buttons.push(h("button", { type: "button", class: "fold", onclick: () => send("fold") }, "Fold"));
    if (t.can_check) buttons.push(h("button", { type: "button", onclick: () => send("check") }, "Check"));
    else if (t.to_call > 0) {
      buttons.push(h("button", { type: "button", "aria-label": "Call", onclick: () => send("call") },
        "Call ", h("span", { class: "amt" }, chips(Math.min(t.to_call, seat ? seat.stack : t.to_call)))));
    }
    const canRaise = t.min_raise_to != null && t.max_raise_to != null;
    if (!canRaise && seat && t.to_call > 0 && t.to_call >= seat.stack) {
      buttons.push(h("button", { type: "button", class: "allin", onclick: () => send("call") }, "All in"));
    }
    nodes.push(h("div", { class: "buttons" }, buttons));
    if (canRaise) {
      const kind = opens ? "bet" : "raise";
      const amount = h("input", { type: "number", inputmode: "numeric", min: t.min_raise_to, max: t.max_raise_to, step: 1,
        value: t.min_raise_to, required: true });
      const set = (n) => { amount.value = String(Math.max(t.min_raise_to, Math.min(t.max_raise_to, Math.round(n)))); };
      const myBet = seat ? seat.bet : 0;
      const potAfterCall = view.pot + t.to_call;
      const sizes = [
        ["Min", t.min_raise_to],
        ["Half pot", myBet + t.to_call + potAfterCall / 2],
        ["Pot", myBet + t.to_call + potAfterCall],
      ].filter(([, n]) => n > t.min_raise_to && n < t.max_raise_to || n === t.min_raise_to);
      nodes.push(h("div", { class: "raise" },
        field("Amount", amount, `${chips(t.min_raise_to)} to ${chips(t.max_raise_to)}`),
        h("div", { class: "sizes" }, sizes.map(([label, n]) => h("button", { type: "button", class: "size", onclick: () => set(n) }, label))),
        h("div", { class: "buttons" },
          h("button", { type: "button", class: "primary", onclick: () => {
            if (!amount.reportValidity()) return;
            send(kind, Number(amount.value));
          } }, opens ? "Bet" : "Raise"),
          h("button", { type: "button", class: "allin", onclick: () => send(kind, t.max_raise_to) }, "All in"))));
    }
    fill(actions, nodes);
    drawClock();
  }

  function drawClock() {
    const t = view && view.to_act;
    const key = t ? `${view.hand}/${t.seq}/${t.on_time_bank}` : "";
    if (key !== clockKey) {
      clockKey = key; // the view names the decision's whole time: it runs from when this page first saw it
      clockSeen = Date.now();
    }
    const left = t ? Math.max(0, Math.ceil(t.seconds - (Date.now() - clockSeen) / 1000)) : 0;
    const text = t ? (t.on_time_bank ? `Time bank ${left} s` : `${left} s${t.time_bank ? ` + bank ${t.time_bank} s` : ""}`) : "";
    for (const el of felt.querySelectorAll(".seat.acting .timer")) el.textContent = text;
    const own = document.getElementById("my-clock");
    if (own) own.textContent = ` · ${text}`;
  }

  function drawControls() {
    if (!view) return;
    const seat = view.seats.find((s) => s.seat === view.your_seat);
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
    live.send({ action: "chat", tournament_id: tid, table_id: tableId, text });
    chatInput.value = "";
    say(chatStatus, "");
  }

  function addChat(line) {
    chatLog.append(h("li", {}, h("strong", {}, line.player), " ", line.text));
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
        // the history's own summary lines: who showed what, who collected the pot
        const lines = history.pokerstars.split("\n").filter((l) => / collected | shows? \[|wins? /.test(l)).slice(0, 6);
        fill(lastHand,
          h("h2", { id: "lh-h" }, `Hand #${hand}`),
          lines.length ? h("ul", { class: "summary" }, lines.map((l) => h("li", {}, l.trim()))) : null,
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
    clearInterval(clock);
    main.classList.remove("table-page");
  };
}

/** The main pot and the side pots gathered so far (`view.pots`), each with who may win it; null without a side pot
 * (the one pot is then the "Pot" line, with the street's bets in front of the seats). */
export function potsList(view) {
  const pots = view.pots || [];
  if (pots.length < 2) return null;
  const names = new Map(view.seats.map((s) => [s.seat, s.player]));
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
  const classes = ["seat", `st-${s.status}`, acting ? "acting" : "", s.player === me ? "me" : "", s.away ? "away" : ""];
  return h("div", { class: classes.filter(Boolean).join(" "), role: "group", dataset: { seat: s.seat, player: s.player },
    "aria-label": `Seat ${s.seat}: ${s.player}, ${s.stack} chips${s.status === "folded" ? ", folded" : ""}${s.status === "all_in" ? ", all in" : ""}${s.away ? ", away" : ""}` },
    cards,
    h("div", { class: "plate" },
      h("span", { class: "name" }, s.player),
      h("span", { class: "stack" }, chips(s.stack)),
      marks.length ? h("span", { class: "marks" }, marks) : null,
      s.status === "all_in" ? h("span", { class: "tag hot" }, "All in") : null,
      s.away ? h("span", { class: "tag" }, "Away") : null,
      acting ? h("span", { class: "timer" }) : null));
}
