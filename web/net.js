// The WebSocket transport: connect, reconnect with back-off, keep-alive, send, hello. It knows
// no view: app.js injects what to do with a frame, a closed socket and a status word
// (configure). It touches no DOM, so it loads (and is tested) under Node with a fake socket.

import { backoffMs, createRequests } from './protocol.js';
import { PING_MS, PROTOCOL_VERSION, state } from './state.js';

const OPEN = 1; // WebSocket.OPEN, without needing the class

const hooks = {
  onFrame: () => {},  // (text): a frame arrived
  onOpen: () => {},   // the socket opened (hello already sent)
  onClose: () => {},  // the socket closed (before any reconnect is scheduled)
  onStatus: () => {}, // (word): idle, connecting, connected, reconnecting
  WebSocket: null,    // the socket class (default: globalThis.WebSocket)
  url: null,          // the socket's address (default: /ws on this page's host)
};

/** Sets the callbacks (and, for tests, the socket class and address). */
export function configure(options) {
  Object.assign(hooks, options);
}

export const conn = {
  ws: null,
  status: 'idle',
  retries: 0,
  retryTimer: null,
  pingTimer: null,
  awaitingPong: false,
  resubscribe: false, // the next `welcome` follows a (re)connect: get the table back
  loggingOut: false,
  requests: createRequests(), // request_id -> {kind, ...}: what an ack or error answers
  welcomed: [],        // resolvers waiting for the next `welcome`
};

export function setStatus(word) {
  conn.status = word;
  hooks.onStatus(word);
}

export const status = () => conn.status;
export const isOpen = () => conn.ws?.readyState === OPEN;

function wsUrl() {
  if (hooks.url) return hooks.url;
  const { protocol, host } = globalThis.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/ws`;
}

// In a browser this is navigator.onLine; where there is no such thing (Node), online.
const online = () => globalThis.navigator?.onLine !== false;

export function connect() {
  if (conn.ws) return;
  clearTimeout(conn.retryTimer);
  const Socket = hooks.WebSocket ?? globalThis.WebSocket;
  const ws = new Socket(wsUrl());
  conn.ws = ws;
  if (!conn.status.startsWith('reconnecting')) setStatus('connecting');
  ws.onopen = () => {
    conn.resubscribe = true;
    conn.awaitingPong = false;
    if (state.token) sendHello();
    conn.pingTimer = setInterval(keepAlive, PING_MS);
    hooks.onOpen();
  };
  ws.onmessage = (e) => hooks.onFrame(e.data);
  ws.onerror = () => {}; // `close` follows and reconnects
  ws.onclose = () => {
    clearInterval(conn.pingTimer);
    conn.ws = null;
    conn.requests.clear();
    hooks.onClose();
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

/** Back off (protocol.js: 0.5 s, 1 s, 2 s ... 5 s); while the browser says it is offline, try
 *  again as soon as it is back (or every 5 s, in case that event never comes). */
export function scheduleReconnect() {
  const up = online();
  if (!up) globalThis.addEventListener?.('online', connect, { once: true });
  const delay = backoffMs(conn.retries, up);
  conn.retries += 1;
  conn.retryTimer = setTimeout(connect, delay);
  return delay;
}

/** A ping every 15 s; no pong by the next one means the socket is dead: close and reconnect. */
export function keepAlive() {
  if (conn.awaitingPong) return conn.ws?.close();
  conn.awaitingPong = send({ type: 'ping', nonce: Date.now() });
}

/** A `pong` came: the socket is alive. */
export function gotPong() {
  conn.awaitingPong = false;
}

/** Sends a message; `request` (e.g. {kind: 'sit'}) gives it a request_id to match the reply. */
export function send(msg, request) {
  if (!isOpen()) return false;
  if (request) msg.request_id = conn.requests.issue(request);
  conn.ws.send(JSON.stringify(msg));
  return true;
}

/** The request an ack or error answers (by its request_id), forgotten once taken. */
export const takeRequest = (id) => conn.requests.take(id);

/** `hello` authenticates a socket; said again on an open socket it refreshes the balance. */
export function sendHello() {
  send({ type: 'hello', version: PROTOCOL_VERSION, token: state.token });
}

/** Resolves with true at the next `welcome`, false if the session is refused. */
export const whenWelcomed = () => new Promise((resolve) => conn.welcomed.push(resolve));

/** A `welcome` (ok) or a refused session (not ok): the waiters learn which. On a welcome the
 *  back-off starts again; returns whether it follows a (re)connect, so the table on screen
 *  must be asked for again. */
export function welcomed(ok) {
  if (ok) {
    conn.retries = 0;
    setStatus('connected');
  }
  for (const resolve of conn.welcomed.splice(0)) resolve(ok);
  const again = ok && conn.resubscribe;
  if (again) conn.resubscribe = false;
  return again;
}

/** Log out: close the socket and do not reconnect. */
export function disconnect() {
  conn.loggingOut = Boolean(conn.ws);
  clearTimeout(conn.retryTimer);
  conn.ws?.close();
}
