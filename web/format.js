// Money is integer cents and chips are integers (docs/interfaces.md); times are ISO-8601 UTC.

const moneyFormat = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const chipFormat = new Intl.NumberFormat("en-US");

/** 110 -> "$1.10"; -50 -> "−$0.50". */
export function money(cents) {
  const value = Number(cents) || 0;
  const text = `$${moneyFormat.format(Math.abs(value) / 100)}`;
  return value < 0 ? `−${text}` : text;
}

/** Text a person typed ("10", "10.5", "10.50") -> cents, or NaN. */
export function parseMoney(text) {
  const match = /^\s*(\d{1,8})(?:\.(\d{1,2}))?\s*$/.exec(String(text));
  if (!match) return NaN;
  return Number(match[1]) * 100 + Number((match[2] || "0").padEnd(2, "0"));
}

export function chips(n) {
  return chipFormat.format(Number(n) || 0);
}

/** Milliseconds -> "1d 02:03:04", "02:03:04" or "03:04". */
export function duration(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  const clock = hours || days ? `${two(hours)}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
  return days ? `${days}d ${clock}` : clock;
}

export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A date in a narrow column: "Dec 2, 10:42 AM". */
export function shortWhen(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(undefined, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
}

export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

const RANKS = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight", 7: "Seven",
  6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two" };
const SUITS = { s: ["♠", "spades"], h: ["♥", "hearts"], d: ["♦", "diamonds"], c: ["♣", "clubs"] };

/** "As" -> {rank: "A", symbol: "♠", suit: "s", name: "Ace of spades"}. */
export function card(code) {
  const rank = code[0];
  const suit = code[1];
  const [symbol, suitName] = SUITS[suit] || ["?", "?"];
  return { rank: rank === "T" ? "10" : rank, symbol, suit, name: `${RANKS[rank] || rank} of ${suitName}` };
}

export const STATUS_LABELS = {
  scheduled: "Scheduled",
  registering: "Registering",
  running: "Running",
  finished: "Finished",
  cancelled: "Cancelled",
  terminated: "Terminated",
};

export const FORMAT_LABELS = { freezeout: "Freezeout", rebuy: "Rebuy", sng: "Sit & Go" };

/** "the name is taken" -> "The name is taken." (the API's messages start in lower case). */
export function sentence(text) {
  const s = String(text || "").trim();
  if (!s) return "";
  const capital = s[0].toUpperCase() + s.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** What a payment refused for want of money says: in dollars, what it costs and what the wallet holds. */
export function shortfall(needed, balance) {
  return `Not enough money: you need ${money(needed)}, you have ${money(balance)}.`;
}

/** A field cap this large means no cap (the API's default `max_players`). */
export const UNCAPPED_FIELD = 250_000;

export function fieldCap(maxPlayers) {
  return Number(maxPlayers) >= UNCAPPED_FIELD ? "unlimited" : String(maxPlayers);
}
