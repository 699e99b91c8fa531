// The public HTTP and WebSocket APIs (docs/interfaces.md), and nothing else.

/** A 4xx/5xx answer: the API's `{error, message}`. */
export class ApiError extends Error {
  constructor(status, code, message, detail) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

const seg = encodeURIComponent;
export { seg };

export class Api {
  /** `base`: the HTTP API's URL; `token()`: the bearer token now; `onUnauthorized`: a 401 came back. */
  constructor(base, token, onUnauthorized) {
    this.base = base.replace(/\/$/, "");
    this.token = token;
    this.onUnauthorized = onUnauthorized;
  }

  async request(method, path, body, headers = {}) {
    const sent = { Accept: "application/json", ...headers };
    const token = this.token();
    if (token) sent.Authorization = `Bearer ${token}`;
    let data;
    if (body !== undefined) {
      sent["Content-Type"] = "application/json";
      data = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(this.base + path, { method, headers: sent, body: data });
    } catch (error) {
      throw new ApiError(0, "network", "The server cannot be reached");
    }
    const text = await response.text();
    let answer = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = { message: text };
    }
    if (!response.ok) {
      if (response.status === 401 && this.onUnauthorized) this.onUnauthorized();
      let message = (answer && answer.message) || response.statusText;
      // the ledger's own words name accounts and cents: a player reads what it means (a view that knows the price
      // says it in dollars, format.js `shortfall`)
      if (answer && answer.error === "insufficient_funds" && !path.startsWith("/admin/")) message = "Not enough money on your account for this.";
      throw new ApiError(response.status, answer && answer.error, message, answer && answer.detail);
    }
    return answer;
  }

  get(path) {
    return this.request("GET", path);
  }

  post(path, body = {}, headers) {
    return this.request("POST", path, body, headers);
  }

  put(path, body = {}) {
    return this.request("PUT", path, body);
  }

  del(path, body) {
    return this.request("DELETE", path, body);
  }
}

/** A new Idempotency-Key: a retried click is the same request, never a second one. */
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One WebSocket to the stack (`?token=JWT`): frames go to the listeners, subscriptions are sent again after a
 * reconnection (each answers the table as it is), and messages wait for the connection to open.
 */
export class Live {
  constructor(url, token) {
    this.url = url;
    this.token = token;
    this.listeners = new Set();
    this.stateListeners = new Set();
    this.subscriptions = new Map();
    this.queue = [];
    this.socket = null;
    this.retry = 0;
    this.closed = false;
    this.state = "closed";
  }

  connect() {
    if (this.socket || this.closed) return;
    const separator = this.url.includes("?") ? "&" : "?";
    const socket = new WebSocket(`${this.url}${separator}token=${encodeURIComponent(this.token())}`);
    this.socket = socket;
    this.setState("connecting");
    socket.addEventListener("open", () => {
      this.retry = 0;
      this.setState("open");
      for (const message of this.subscriptions.values()) socket.send(JSON.stringify(message));
      for (const message of this.queue.splice(0)) socket.send(JSON.stringify(message));
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      for (const listener of [...this.listeners]) listener(frame);
    });
    socket.addEventListener("close", () => {
      this.socket = null;
      this.setState("closed");
      if (this.closed) return;
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => this.connect(), 250 * 2 ** this.retry);
    });
  }

  setState(state) {
    this.state = state;
    for (const listener of [...this.stateListeners]) listener(state);
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    else {
      this.queue.push(message);
      this.connect();
    }
  }

  /** Watch a table: frames go to `listener` until the returned function is called. */
  subscribe(tournamentId, tableId, listener) {
    const key = `${tournamentId}/${tableId}`;
    const message = { action: "subscribe", tournament_id: tournamentId, table_id: tableId };
    this.subscriptions.set(key, message);
    this.listeners.add(listener);
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    else this.connect();
    return () => {
      this.subscriptions.delete(key);
      this.listeners.delete(listener);
    };
  }

  onState(listener) {
    this.stateListeners.add(listener);
    listener(this.state);
    return () => this.stateListeners.delete(listener);
  }

  close() {
    this.closed = true;
    if (this.socket) this.socket.close();
  }
}
