// Unit tests of web/protocol.js (seq decisions, the reconnect back-off, request ids) and
// web/net.js (the WebSocket transport) under Node: a fake socket class and the callbacks are
// injected with net.configure, the timers are Node's mock timers. That net.js loads here at all
// shows it touches no DOM at import. Run: node --test net.test.mjs
import assert from 'node:assert/strict';
import test, { after, mock } from 'node:test';
import * as net from '../../web/net.js';
import { RETRY_CAP_MS, backoffMs, createRequests, seqDecision } from '../../web/protocol.js';
import { PING_MS, PROTOCOL_VERSION, state } from '../../web/state.js';

// ---- protocol.js ---------------------------------------------------------------------------

test('seq: the next frame continues, an old one is a duplicate, a jump is a gap', () => {
  assert.equal(seqDecision(4, 5), 'continue');
  assert.equal(seqDecision(0, 1), 'continue');
  assert.equal(seqDecision(4, 4), 'duplicate');
  assert.equal(seqDecision(4, 2), 'duplicate');
  assert.equal(seqDecision(4, 6), 'gap');
  assert.equal(seqDecision(0, 9), 'gap');
});

test('seq: a prompt re-sent with the same seq is applied again, an older one is not', () => {
  assert.equal(seqDecision(7, 7, true), 'resent');
  assert.equal(seqDecision(7, 6, true), 'duplicate');
  assert.equal(seqDecision(7, 8, true), 'continue');
  assert.equal(seqDecision(7, 9, true), 'gap');
  assert.equal(seqDecision(7, 7, false), 'duplicate');
});

test('back-off: 0.5 s doubling to a 5 s cap; offline 5 s', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 20].map((n) => backoffMs(n)), [500, 1000, 2000, 4000, 5000, 5000, 5000]);
  assert.equal(RETRY_CAP_MS, 5000);
  assert.equal(backoffMs(0, false), 5000);
  assert.equal(backoffMs(3, false), 5000);
});

test('request ids: numbered in turn, each reply matches its request once, ids never reused', () => {
  const r = createRequests();
  const a = r.issue({ kind: 'sit', tableId: 't1' });
  const b = r.issue({ kind: 'act', seq: 4 });
  assert.deepEqual([a, b], ['r1', 'r2']);
  assert.equal(r.size, 2);
  assert.deepEqual(r.take(b), { kind: 'act', seq: 4 });
  assert.equal(r.take(b), undefined, 'a second reply to the same id matches nothing');
  assert.equal(r.take('r99'), undefined);
  assert.equal(r.take(undefined), undefined, 'an error without a request_id matches nothing');
  r.clear();
  assert.equal(r.take(a), undefined, 'cleared (the socket closed)');
  assert.equal(r.issue({ kind: 'watch' }), 'r3', 'the numbers go on after a clear');
  assert.equal(createRequests('q').issue({}), 'q1', 'each registry counts for itself');
});

// ---- net.js --------------------------------------------------------------------------------

/** A WebSocket stand-in: the test opens it, delivers frames and closes it. */
class FakeSocket {
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.made.push(this);
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  open() { this.readyState = 1; this.onopen?.(); }
  receive(msg) { this.onmessage?.({ data: JSON.stringify(msg) }); }
  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.();
  }
}
const last = () => FakeSocket.made.at(-1);

// Mock timers for the whole file, not per test: Node 20's mock loses its queue when a timer of
// an earlier mock session is cleared (net.js clears its retry timer on connect).
mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
after(() => mock.timers.reset());

const seen = { frames: [], statuses: [], opens: 0, closes: 0 };
net.configure({
  WebSocket: FakeSocket,
  url: 'ws://test.invalid/ws',
  onFrame: (text) => seen.frames.push(JSON.parse(text)),
  onOpen: () => { seen.opens += 1; },
  onClose: () => { seen.closes += 1; },
  onStatus: (word) => seen.statuses.push(word),
});

test('net.js loads under Node: no document, no global WebSocket needed', () => {
  assert.equal(typeof globalThis.document, 'undefined');
  assert.equal(net.status(), 'idle');
  assert.equal(net.isOpen(), false);
  assert.equal(net.send({ type: 'ping', nonce: 1 }), false, 'nothing is sent without a socket');
});

test('connect, hello, frames in, requests out and their replies matched, welcome', async () => {
  state.token = 'tok';
  net.connect();
  const ws = last();
  assert.equal(ws.url, 'ws://test.invalid/ws');
  assert.equal(net.status(), 'connecting');
  assert.deepEqual(seen.statuses, ['connecting']);
  net.connect();
  assert.equal(FakeSocket.made.length, 1, 'connect with a socket already there makes no second one');
  assert.equal(net.send({ type: 'ping', nonce: 1 }), false, 'not open yet');
  ws.open();
  assert.equal(seen.opens, 1);
  assert.deepEqual(ws.sent, [{ type: 'hello', version: PROTOCOL_VERSION, token: 'tok' }]);
  ws.receive({ type: 'welcome', player_id: 'p' });
  assert.deepEqual(seen.frames, [{ type: 'welcome', player_id: 'p' }], 'frames go to onFrame');
  const waiting = net.whenWelcomed();
  assert.equal(net.welcomed(true), true, 'the first welcome after a connect: resubscribe');
  assert.equal(await waiting, true);
  assert.equal(net.status(), 'connected');
  assert.equal(net.welcomed(true), false, 'only once per connect');

  const msg = { type: 'sit', table_id: 't1' };
  assert.equal(net.send(msg, { kind: 'sit', tableId: 't1' }), true);
  assert.match(msg.request_id, /^r\d+$/);
  assert.deepEqual(ws.sent.at(-1), { type: 'sit', table_id: 't1', request_id: msg.request_id });
  const other = { type: 'leave', table_id: 't1' };
  net.send(other, { kind: 'leave' });
  assert.notEqual(other.request_id, msg.request_id);
  assert.deepEqual(net.takeRequest(msg.request_id), { kind: 'sit', tableId: 't1' });
  assert.equal(net.takeRequest(msg.request_id), undefined);
  net.send({ type: 'chat', table_id: 't1', text: 'hi' });
  assert.equal(ws.sent.at(-1).request_id, undefined, 'no request, no request_id');
  // The socket closes: the pending request is forgotten, the page reconnects.
  ws.close();
  assert.equal(net.takeRequest(other.request_id), undefined, 'requests are cleared on close');
  assert.equal(seen.closes, 1);
  assert.equal(net.status(), 'reconnecting');
});

test('reconnect: back-off 0.5 s, 1 s, 2 s, 4 s, then 5 s; the status stays "reconnecting"; a welcome starts it again', () => {
  // From a welcomed socket (the back-off at its start).
  net.connect();
  last().open();
  net.welcomed(true);
  assert.equal(net.status(), 'connected');
  last().close();
  for (const delay of [500, 1000, 2000, 4000, 5000, 5000]) {
    const before = FakeSocket.made.length;
    mock.timers.tick(delay - 1);
    assert.equal(FakeSocket.made.length, before, `no new socket before ${delay} ms`);
    mock.timers.tick(1);
    assert.equal(FakeSocket.made.length, before + 1, `a new socket at ${delay} ms`);
    assert.equal(net.status(), 'reconnecting', 'no "connecting" flicker while reconnecting');
    last().close(); // the server is still away
  }
  // Back: open, welcome; the next drop waits 0.5 s again.
  mock.timers.tick(5000);
  last().open();
  assert.equal(net.welcomed(true), true, 'a reconnect: resubscribe');
  const before = FakeSocket.made.length;
  last().close();
  mock.timers.tick(499);
  assert.equal(FakeSocket.made.length, before, 'not before 0.5 s');
  mock.timers.tick(1);
  assert.equal(FakeSocket.made.length, before + 1, 'at 0.5 s');
  last().open();
  net.welcomed(true);
});

test('offline: try again every 5 s, or as soon as the browser says online', () => {
  const listeners = [];
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  Object.defineProperty(globalThis, 'navigator', { value: { onLine: false }, configurable: true, writable: true });
  globalThis.addEventListener = (type, fn, opts) => listeners.push({ type, fn, opts });
  try {
    assert.equal(net.isOpen(), true);
    last().close();
    assert.equal(listeners.length, 1);
    assert.equal(listeners[0].type, 'online');
    assert.deepEqual(listeners[0].opts, { once: true });
    const before = FakeSocket.made.length;
    mock.timers.tick(4999);
    assert.equal(FakeSocket.made.length, before, 'offline: not before 5 s (even on the first retry)');
    globalThis.navigator.onLine = true;
    listeners[0].fn(); // the `online` event
    assert.equal(FakeSocket.made.length, before + 1, 'back online: at once');
    mock.timers.tick(1);
    assert.equal(FakeSocket.made.length, before + 1, 'and the 5 s timer makes no second socket');
    last().open();
    net.welcomed(true);
  } finally {
    delete globalThis.addEventListener;
    if (saved) Object.defineProperty(globalThis, 'navigator', saved);
    else delete globalThis.navigator;
  }
});

test('keep-alive: a ping every PING_MS; an answered one is followed by another, an unanswered one closes the socket', () => {
  const ws = last();
  assert.equal(net.isOpen(), true);
  const pings = () => ws.sent.filter((m) => m.type === 'ping');
  const start = pings().length;
  mock.timers.tick(PING_MS);
  assert.equal(pings().length, start + 1);
  assert.equal(typeof pings().at(-1).nonce, 'number');
  net.gotPong();
  mock.timers.tick(PING_MS);
  assert.equal(pings().length, start + 2, 'answered: another ping');
  assert.equal(ws.readyState, 1);
  mock.timers.tick(PING_MS);
  assert.equal(ws.readyState, 3, 'unanswered: closed');
  assert.equal(pings().length, start + 2, 'and no ping on the dead socket');
  assert.equal(net.status(), 'reconnecting');
  mock.timers.tick(500);
  last().open();
  net.welcomed(true);
});

test('disconnect (log out): closed, status idle, no reconnect; without a token no reconnect either', () => {
  assert.equal(net.isOpen(), true);
  const before = FakeSocket.made.length;
  net.disconnect();
  assert.equal(net.status(), 'idle');
  assert.equal(net.isOpen(), false);
  mock.timers.tick(60000);
  assert.equal(FakeSocket.made.length, before, 'no reconnect after log out');
  // A refused session (the page dropped the token), then the socket closes.
  state.token = 'tok';
  net.connect();
  last().open();
  const waiting = net.whenWelcomed();
  net.welcomed(false);
  state.token = null;
  last().close();
  assert.equal(net.status(), 'idle');
  mock.timers.tick(60000);
  assert.equal(FakeSocket.made.length, before + 1, 'no reconnect without a token');
  return waiting.then((ok) => assert.equal(ok, false, 'a login waiting learns it was refused'));
});
