// The WebSocket: connect, reconnect with back-off, keep-alive, send.

import { onFrame, resubscribe } from './app.js';
import { t } from './i18n.js';
import { $ } from './render.js';
import { PING_MS, PROTOCOL_VERSION, state } from './state.js';

// ---- the connection ------------------------------------------------------------------------

export const conn = {
  ws: null,
  retries: 0,
  retryTimer: null,
  pingTimer: null,
  awaitingPong: false,
  resubscribe: false, // the next `welcome` follows a (re)connect: get the table back
  loggingOut: false,
  nextId: 1,
  requests: new Map(), // request_id -> {kind, ...}: what an ack or error answers
  welcomed: [],        // resolvers waiting for the next `welcome`
};

export function setStatus(word) {
  const status = $('status');
  status.textContent = t(word === 'idle' ? 'not_connected' : word);
  status.dataset.state = word;
  const banner = $('banner');
  banner.hidden = word !== 'reconnecting';
  banner.textContent = t('banner_lost');
}

export function connect() {
  if (conn.ws) return;
  clearTimeout(conn.retryTimer);
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  conn.ws = ws;
  if (!$('status').dataset.state.startsWith('reconnecting')) setStatus('connecting');
  ws.onopen = () => {
    conn.resubscribe = true;
    conn.awaitingPong = false;
    if (state.token) sendHello();
    conn.pingTimer = setInterval(keepAlive, PING_MS);
  };
  ws.onmessage = (e) => onFrame(e.data);
  ws.onerror = () => {}; // `close` follows and reconnects
  ws.onclose = () => {
    clearInterval(conn.pingTimer);
    conn.ws = null;
    conn.requests.clear();
    if (state.prompt) state.prompt.sent = false;
    // Logged out here, or the token was refused (logged out elsewhere, expired): nothing to
    // reconnect as until the player starts again.
    if (conn.loggingOut || !state.token) {
      conn.loggingOut = false;
      setStatus('idle');
      return;
    }
    setStatus('reconnecting');
    scheduleReconnect();
  };
}

/** Back off 0.5 s, 1 s, 2 s ... 5 s; while the browser says it is offline, try again as soon
 *  as it is back (or every 5 s, in case that event never comes). */
export function scheduleReconnect() {
  if (!navigator.onLine) window.addEventListener('online', connect, { once: true });
  const delay = navigator.onLine ? Math.min(5000, 500 * 2 ** conn.retries) : 5000;
  conn.retries += 1;
  conn.retryTimer = setTimeout(connect, delay);
}

/** A ping every 15 s; no pong by the next one means the socket is dead: close and reconnect. */
export function keepAlive() {
  if (conn.awaitingPong) return conn.ws?.close();
  conn.awaitingPong = send({ type: 'ping', nonce: Date.now() });
}

/** Sends a message; `request` (e.g. {kind: 'sit'}) gives it a request_id to match the reply. */
export function send(msg, request) {
  if (!conn.ws || conn.ws.readyState !== WebSocket.OPEN) return false;
  if (request) {
    msg.request_id = `r${conn.nextId++}`;
    conn.requests.set(msg.request_id, request);
  }
  conn.ws.send(JSON.stringify(msg));
  return true;
}

/** `hello` authenticates a socket; said again on an open socket it refreshes the balance. */
export function sendHello() {
  send({ type: 'hello', version: PROTOCOL_VERSION, token: state.token });
}
