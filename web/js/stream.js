// Live updates: the game's Server-Sent Events read with fetch (so the seat's token can ride in the
// Authorization header), resumed after a lost connection from the last version seen
// (Last-Event-ID and ?after=), with a watchdog for connections that die silently.
// With {chat: true} the stream also carries the chat (?chat=1): chat events go to onChat, and the
// ids are cursors ("12;players=<message id>") resumed whole, so no message comes twice or is lost;
// after the game, each change of its rematch offer goes to onRematch.

const WATCHDOG_MS = 40000;          // the server sends a keep-alive every 15 s
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

export class LiveStream {
  // handlers: {onEvent({id, type, data}), onChat(message), onRematch(offer), onStatus(status, detail)};
  // status: connecting|live|reconnecting|ended|failed
  constructor(gameId, token, handlers, options = {}) {
    this.url = `/games/${encodeURIComponent(gameId)}/stream`;
    this.token = token;
    this.handlers = handlers;
    this.chat = Boolean(options.chat);
    this.after = 0;
    this.cursor = null;
    this.stopped = true;
    this.failures = 0;
    this.onOnline = () => { if (!this.stopped && this.status !== "live") this.reconnectNow(); };
  }

  start(after) {
    this.after = after || 0;
    this.stopped = false;
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.onOnline);
    clearTimeout(this.retryTimer);
    clearTimeout(this.watchdog);
    if (this.controller) this.controller.abort();
  }

  setStatus(status, detail) {
    if (this.gameOver && status !== "ended") return;   // with the chat it reconnects after the end, quietly
    this.status = status;
    this.handlers.onStatus?.(status, detail);
  }

  reconnectNow() {
    clearTimeout(this.retryTimer);
    if (this.controller) this.controller.abort();
    this.connect();
  }

  arm() {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.controller?.abort(), WATCHDOG_MS);
  }

  async connect() {
    if (this.stopped) return;
    const controller = new AbortController();
    this.controller = controller;
    if (!this.everLive) this.setStatus("connecting");
    const headers = { Accept: "text/event-stream" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (this.cursor || this.after) headers["Last-Event-ID"] = this.cursor || String(this.after);
    let query = `?after=${this.after}`;
    if (this.chat) query += `&chat=1${this.cursor ? `&cursor=${encodeURIComponent(this.cursor)}` : ""}`;
    let ended = false;
    try {
      const response = await fetch(this.url + query, { headers, signal: controller.signal, cache: "no-store" });
      if (!response.ok) {
        const problem = await response.json().catch(() => ({}));
        if (response.status >= 400 && response.status < 500) {
          this.stopped = true;
          this.setStatus("failed", problem.detail || `The live updates were refused (${response.status}).`);
          return;
        }
        throw new Error(problem.detail || `HTTP ${response.status}`);
      }
      this.failures = 0;
      this.everLive = true;
      this.setStatus("live");
      this.arm();
      ended = await this.read(response.body.getReader());
    } catch (err) {
      // aborted by the watchdog or stop(), or the network went away: fall through to retry
    } finally {
      clearTimeout(this.watchdog);
    }
    if (this.stopped || controller !== this.controller) return;
    if (ended && !this.chat) {            // with the chat the stream stays open after the game: resume it
      this.stopped = true;
      this.setStatus("ended");
      return;
    }
    // A stream that drops once and comes straight back is not news: say so from the second failure.
    const wait = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
    this.failures += 1;
    if (this.failures >= 2 || !this.everLive) this.setStatus("reconnecting");
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  // Reads SSE frames until the stream closes; true when the game ended.
  async read(reader) {
    const decoder = new TextDecoder();
    let buffer = "";
    let ended = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return ended;
      this.arm();
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = parse(frame);
        if (!event) continue;
        if (event.id !== null) this.after = event.id;
        if (event.cursor !== null && this.chat) this.cursor = event.cursor;
        if (event.type === "chat") {
          this.handlers.onChat?.(event.data);
          continue;
        }
        if (event.type === "rematch") {               // after the game: its rematch offer changed
          this.handlers.onRematch?.(event.data);
          continue;
        }
        if (event.type === "GameEnded") {
          ended = true;
          if (this.chat) this.setStatus("ended");           // the game is over; the stream goes on for the chat
          this.gameOver = true;
        }
        this.handlers.onEvent?.(event);
      }
    }
  }
}

function parse(frame) {
  let id = null, cursor = null, type = "message";
  const data = [];
  for (const line of frame.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") {
      cursor = value;
      id = Number(value.split(";")[0]);
    }
    else if (field === "event") type = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return null;
  let payload = data.join("\n");
  try { payload = JSON.parse(payload); } catch { /* keep the text */ }
  return { id, cursor, type, data: payload };
}
