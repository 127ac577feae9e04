// net.js -- one WebSocket to the server (docs/protocol.md), reopened with a
// growing delay whenever it drops. The app says what to do on each (re)open.

const MIN_DELAY = 500;
const MAX_DELAY = 15000;

export class Connection {
  // onMessage(obj) for every server message; onOpen() after each (re)connection;
  // onStatus('connecting' | 'open' | 'closed', secondsUntilRetry).
  constructor({ onMessage, onOpen, onStatus }) {
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onStatus = onStatus;
    this.delay = MIN_DELAY;
    this.ws = null;
    this.timer = null;
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}/ws`;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    this.onStatus('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.delay = MIN_DELAY;
      this.onStatus('open');
      this.onOpen();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && typeof msg === 'object') this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws === ws) this.retry();
    };
    // An error is always followed by close, which retries.
    ws.onerror = () => {};
  }

  retry() {
    this.ws = null;
    const wait = this.delay;
    this.delay = Math.min(MAX_DELAY, this.delay * 2);
    this.onStatus('closed', Math.round(wait / 1000));
    this.timer = setTimeout(() => this.connect(), wait);
  }

  // Try again now (a click on the status, or the page becoming visible).
  reconnectNow() {
    if (!this.ws && this.timer) this.connect();
  }

  get open() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  // Returns false when the message could not be sent (not connected).
  send(obj) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }
}
