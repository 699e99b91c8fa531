// The table's arithmetic, apart from the page: the decision clock from the server's deadlines, the bet sizes, a
// seat's last action in words, the pre-action that answers a decision, and the hand log read from successive views.

import { chips } from "../format.js";

/**
 * The decision clock of `t` (the view's `to_act`) at `now` (ms): the seconds left of the decision's own time and of
 * the time bank, and the whole of each, from the server's `deadline` and `bank_deadline` (docs/openapi.json), so a
 * reload shows the same clock. `seen` (ms): when this page first saw the decision, for a view without deadlines.
 */
export function decisionClock(t, now, seen = now) {
  if (!t) return null;
  const at = (iso) => (iso ? Date.parse(iso) : NaN);
  if (t.on_time_bank) {
    const end = at(t.bank_deadline);
    const bank = Number.isNaN(end) ? t.seconds - (now - seen) / 1000 : (end - now) / 1000;
    return { own: 0, bank: Math.max(0, bank), ownTotal: 0, bankTotal: Math.max(t.seconds, 1), onBank: true };
  }
  const end = at(t.deadline);
  const own = Number.isNaN(end) ? t.seconds - (now - seen) / 1000 : (end - now) / 1000;
  return { own: Math.max(0, own), bank: t.time_bank || 0, ownTotal: Math.max(t.seconds, 1), bankTotal: t.time_bank || 0, onBank: false };
}

/** The clock in words: "12 s + bank 30 s", "Time bank 8 s". */
export function clockText(c) {
  if (!c) return "";
  const own = Math.ceil(c.own);
  const bank = Math.ceil(c.bank);
  if (c.onBank) return `Time bank ${bank} s`;
  return c.bank ? `${own} s + bank ${bank} s` : `${own} s`;
}

/**
 * The size presets of a bet or raise, each a "raise to" amount within [min, max]: Min, 2.5x (the bet faced, or the
 * big blind when none), Half pot and Pot (the pot after calling), Max (all in). `myBet`: the chips the player has in
 * front already; `facing`: the largest bet in front of anyone.
 */
export function sizePresets(t, pot, myBet, facing, bigBlind) {
  const clamp = (n) => Math.max(t.min_raise_to, Math.min(t.max_raise_to, Math.round(n)));
  const afterCall = pot + t.to_call;
  const presets = [
    ["Min", t.min_raise_to],
    ["2.5x", 2.5 * Math.max(facing, bigBlind || 0)],
    ["Half pot", myBet + t.to_call + afterCall / 2],
    ["Pot", myBet + t.to_call + afterCall],
    ["Max", t.max_raise_to],
  ];
  return presets.map(([label, n]) => [label, clamp(n)]);
}

/** A seat's `last_action` in words: "Fold", "Check", "Call 200", "Bet 400", "Raise to 800", "All in 1,500". */
export function actionText(last) {
  if (!last) return "";
  if (last.all_in) return `All in ${chips(last.amount || 0)}`;
  const amount = last.amount != null ? chips(last.amount) : "";
  switch (last.kind) {
    case "fold": return "Fold";
    case "check": return "Check";
    case "call": return `Call ${amount}`;
    case "bet": return `Bet ${amount}`;
    case "raise": return `Raise to ${amount}`;
    default: return last.kind;
  }
}

/**
 * What a pre-action chosen while waiting does with the decision `t` that came: `["check"]`, `["call"]`, `["fold"]`
 * or null (it does not apply: the player decides). `check_fold`: check, else fold; `call_any`: call whatever is bet
 * (check when nothing is); `fold_any`: fold to a bet, check when there is none.
 */
export function preActionMove(pre, t) {
  if (!pre || !t) return null;
  if (pre === "check_fold" || pre === "fold_any") return t.can_check ? "check" : "fold";
  if (pre === "call_any") return t.can_check ? "check" : t.to_call > 0 ? "call" : null;
  return null;
}

const VERBS = { fold: "folds", check: "checks", call: "calls", bet: "bets", raise: "raises to" };

function logAction(name, last) {
  if (last.all_in) return `${name} is all in${last.amount != null ? ` (${chips(last.amount)})` : ""}`;
  const amount = last.amount != null && last.kind !== "fold" && last.kind !== "check" ? ` ${chips(last.amount)}` : "";
  return `${name} ${VERBS[last.kind] || last.kind}${amount}`;
}

const STREET_NAMES = { flop: "Flop", turn: "Turn", river: "River", showdown: "Showdown" };

/**
 * The lines a new view `next` adds to the hand log after `prev` (the view before it, or null): the deal, each seat's
 * new last action, the action that closed a street (the next street's view no longer names it: it is read from the
 * seat that was to act, its stack and its status), and each new street with its cards.
 */
export function logLines(prev, next, nameOf = (s) => s.name || s.player) {
  const lines = [];
  if (!next || !next.hand) return lines;
  const newHand = !prev || prev.hand !== next.hand;
  if (newHand) {
    if (next.hand_in_progress) lines.push(`Hand #${next.hand} dealt`);
    return lines.concat(actionsOf(null, next, nameOf));
  }
  const streetMoved = prev.street !== next.street || (prev.hand_in_progress && !next.hand_in_progress);
  if (streetMoved && prev.hand_in_progress && prev.to_act) {
    const t = prev.to_act;
    const before = prev.seats.find((s) => s.seat === t.seat);
    const after = next.seats.find((s) => s.seat === t.seat);
    const alreadyNamed = after && next.street === prev.street && after.last_action;
    if (before && after && !alreadyNamed) {
      const name = nameOf(after);
      const paid = before.stack - after.stack;
      const shown = next.seats.some((s) => s.seat !== next.your_seat && s.cards && s.cards.length);
      if (t.can_check) lines.push(`${name} checks`);
      else if (after.status === "folded" || (!next.hand_in_progress && !shown && paid <= 0)) lines.push(`${name} folds`);
      else if (after.status === "all_in" && paid > 0) lines.push(`${name} is all in`);
      else lines.push(`${name} calls ${chips(Math.min(t.to_call, before.stack))}`);
    }
  }
  if (prev.street === next.street && next.hand_in_progress) lines.push(...actionsOf(prev, next, nameOf));
  if (next.hand_in_progress && prev.street !== next.street && STREET_NAMES[next.street]) {
    const cards = next.board.length ? `: ${next.board.join(" ")}` : "";
    lines.push(`${STREET_NAMES[next.street]}${cards}`);
    lines.push(...actionsOf(null, next, nameOf));
  }
  return lines;
}

function actionsOf(prev, next, nameOf) {
  const lines = [];
  for (const s of next.seats) {
    if (!s.last_action) continue;
    const before = prev && prev.seats.find((p) => p.seat === s.seat);
    const was = before && before.last_action;
    if (was && was.kind === s.last_action.kind && was.amount === s.last_action.amount) continue;
    lines.push(logAction(nameOf(s), s.last_action));
  }
  return lines;
}
