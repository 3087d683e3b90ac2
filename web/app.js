// The stud browser client: lobby, table, hand log and LAST HAND, spoken over the public
// protocol only (proto/PROTOCOL.md): POST /api/sessions, GET /api/tables, the WebSocket /ws
// and the hand-history API. A plain ES module: no framework, no build step.

const PROTOCOL_VERSION = 1;
const TOKEN_KEY = 'stud.token';
const PRIVATE_KEY = 'stud.private'; // private tables joined with a code: {table id: {code, summary}}
const LOBBY_REFRESH_MS = 5000;
const PING_MS = 15000;
const LOG_LINES_KEPT = 400;

const SUITS = { c: '♣', d: '♦', h: '♥', s: '♠' };
const VARIANTS = { stud: 'Stud', stud8: 'Stud Hi/Lo', razz: 'Razz' };
const STREETS = { third: '3rd street', fourth: '4th street', fifth: '5th street', sixth: '6th street', seventh: '7th street' };
// Keyboard shortcuts: the first legal action of one of these kinds.
const KEYS = { f: ['fold'], c: ['check', 'call'], b: ['bet', 'raise', 'complete'], i: ['bring_in'], s: ['show'], m: ['muck'] };
const SHORTCUT = { fold: 'F', check: 'C', call: 'C', bet: 'B', raise: 'B', complete: 'B', bring_in: 'I', show: 'S', muck: 'M' };

// ---- small helpers -------------------------------------------------------------------------

const $ = (id) => document.getElementById(id);

/** Creates an element. `attrs`: text, class, on<event> handlers, anything else as an attribute
 *  (`true` becomes "true"; false, null and undefined leave the attribute out). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? 'true' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

const now = () => performance.now();
const seconds = (ms) => Math.ceil(ms / 1000);
const signed = (n) => (n > 0 ? `+${n}` : String(n));
const stakes = (c) => `ante ${c.ante} · bring-in ${c.bring_in} · ${c.small_bet}/${c.big_bet}`;

let noticeTimer = null;
/** A short message under the top bar (errors, table closed, ...). */
function notice(text) {
  const box = $('notice');
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---- state ---------------------------------------------------------------------------------

const state = {
  token: sessionStorage.getItem(TOKEN_KEY),
  me: null,                 // the last `welcome`: player_id, session_id, name, balance
  lobby: [],                // GET /api/tables
  privates: loadPrivates(), // private tables joined with an invite code
  pending: null,            // {tableId, code}: a watch waiting for its first snapshot
  left: new Set(),          // tables left on this page: never pulled back into them
  table: null,              // the table on screen, see enterTable()
  prompt: null,             // our turn: {handId, seq, legal, bankMs, sent}
  lastHands: [],            // the LAST HAND list
};

function loadPrivates() {
  try { return JSON.parse(sessionStorage.getItem(PRIVATE_KEY)) || {}; } catch { return {}; }
}

function savePrivates() {
  sessionStorage.setItem(PRIVATE_KEY, JSON.stringify(state.privates));
}

// ---- the connection ------------------------------------------------------------------------

const conn = {
  ws: null,
  retries: 0,
  retryTimer: null,
  pingTimer: null,
  awaitingPong: false,
  resubscribe: false, // the next `welcome` follows a (re)connect: get the table back
  nextId: 1,
  requests: new Map(), // request_id -> {kind, ...}: what an ack or error answers
  welcomed: [],        // resolvers waiting for the next `welcome`
};

function setStatus(word) {
  const status = $('status');
  status.textContent = word;
  status.dataset.state = word;
}

function connect() {
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
    setStatus('reconnecting');
    scheduleReconnect();
  };
}

/** Back off 0.5 s, 1 s, 2 s ... 5 s; while the browser says it is offline, try again as soon
 *  as it is back (or every 5 s, in case that event never comes). */
function scheduleReconnect() {
  if (!navigator.onLine) window.addEventListener('online', connect, { once: true });
  const delay = navigator.onLine ? Math.min(5000, 500 * 2 ** conn.retries) : 5000;
  conn.retries += 1;
  conn.retryTimer = setTimeout(connect, delay);
}

/** A ping every 15 s; no pong by the next one means the socket is dead: close and reconnect. */
function keepAlive() {
  if (conn.awaitingPong) return conn.ws?.close();
  conn.awaitingPong = send({ type: 'ping', nonce: Date.now() });
}

/** Sends a message; `request` (e.g. {kind: 'sit'}) gives it a request_id to match the reply. */
function send(msg, request) {
  if (!conn.ws || conn.ws.readyState !== WebSocket.OPEN) return false;
  if (request) {
    msg.request_id = `r${conn.nextId++}`;
    conn.requests.set(msg.request_id, request);
  }
  conn.ws.send(JSON.stringify(msg));
  return true;
}

/** `hello` authenticates a socket; said again on an open socket it refreshes the balance. */
function sendHello() {
  send({ type: 'hello', version: PROTOCOL_VERSION, token: state.token });
}

function onFrame(text) {
  let msg;
  try { msg = JSON.parse(text); } catch { return; }
  const handler = HANDLERS[msg.type];
  try {
    handler?.(msg);
  } catch (err) {
    // A frame our copy of the table cannot take (it missed something): start again from a
    // snapshot rather than break the page.
    console.debug('stud: resyncing after', msg.type, err);
    if (state.table) send({ type: 'snapshot', table_id: state.table.id });
  }
}

const HANDLERS = {
  welcome: onWelcome,
  ack: onAck,
  error: onError,
  pong: () => { conn.awaitingPong = false; },
  snapshot: onSnapshot,
  hand_started: (m) => forTable(m, onHandStarted),
  event: (m) => forTable(m, onEvent),
  turn: (m) => forTable(m, onTurn),
  your_turn: (m) => forTable(m, onYourTurn),
  hand_result: (m) => forTable(m, onHandResult),
  table_closed: onTableClosed,
  last_hands: onLastHands,
  last_hand: onLastHand,
};

function onWelcome(m) {
  state.me = m;
  conn.retries = 0;
  setStatus('connected');
  renderMe();
  for (const resolve of conn.welcomed.splice(0)) resolve(true);
  if (conn.resubscribe) {
    conn.resubscribe = false;
    resubscribe();
  }
}

/** After a reconnect: a seated player is put back by the server (snapshot, then the prompt);
 *  we ask for a snapshot anyway in case the seat is gone. An observer joins again. */
function resubscribe() {
  const t = state.table;
  if (!t) return;
  if (t.info?.your_seat) send({ type: 'snapshot', table_id: t.id });
  else send({ type: 'join_table', table_id: t.id, invite_code: t.code ?? null }, { kind: 'rejoin', tableId: t.id });
}

function onAck(m) {
  const req = conn.requests.get(m.request_id);
  conn.requests.delete(m.request_id);
  if (!req) return;
  if (req.kind === 'sit' && state.table?.id !== req.tableId) enterTable(req.tableId, req.code);
  if (['sit', 'leave', 'top_up'].includes(req.kind)) sendHello(); // the balance changed
}

function onError(m) {
  const req = conn.requests.get(m.request_id);
  conn.requests.delete(m.request_id);
  if (!req) return onSessionError(m);
  if (req.kind === 'act') return onActError(m, req);
  if (req.kind === 'sit' && m.code === 'already_seated') {
    if (state.table?.id !== req.tableId) enterTable(req.tableId, req.code);
    send({ type: 'snapshot', table_id: req.tableId });
    return;
  }
  if (req.kind === 'sit' && state.table?.id !== req.tableId) {
    // `sit` subscribed this socket to the table first: stop watching it again.
    send({ type: 'leave', table_id: req.tableId });
  }
  if (req.kind === 'watch') state.pending = null;
  if (req.kind === 'rejoin' && state.table?.id === req.tableId) {
    state.table = null; // the table is gone (closed, or we may no longer watch it)
    showView('lobby');
  }
  if (req.kind === 'history') return onHistoryError(m, req);
  notice(m.message);
}

/** Errors without a request: the handshake, or the server's limits. */
function onSessionError(m) {
  if (m.code === 'not_authenticated' || m.code === 'forbidden') {
    sessionStorage.removeItem(TOKEN_KEY);
    state.token = null;
    state.me = null;
    renderMe();
    for (const resolve of conn.welcomed.splice(0)) resolve(false);
  } else if (m.code === 'unavailable' && !state.me) {
    setTimeout(sendHello, 2000);
  } else if (m.code === 'rate_limited' && state.prompt?.sent) {
    state.prompt.sent = false; // our action was dropped: offer it again
    renderActions();
  }
  notice(m.message);
}

// ---- session and lobby ---------------------------------------------------------------------

/** POST /api/sessions, then hello on the socket. Resolves true once welcomed. */
async function login(name) {
  let res;
  let body = {};
  try {
    res = await fetch('/api/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    body = await res.json();
  } catch {
    notice('The server cannot be reached.');
    return false;
  }
  if (!res.ok) {
    notice(body.message || `Could not start a session (${res.status}).`);
    return false;
  }
  state.token = body.token;
  sessionStorage.setItem(TOKEN_KEY, body.token);
  const welcomed = new Promise((resolve) => conn.welcomed.push(resolve));
  if (conn.ws?.readyState === WebSocket.OPEN) sendHello();
  else connect();
  return welcomed;
}

/** A session before sitting or watching: the one we have, or a new guest. */
async function ensureSession() {
  if (state.me) return true;
  if (state.token) return new Promise((resolve) => conn.welcomed.push(resolve));
  return login($('name').value.trim() || 'Guest');
}

function renderMe() {
  const me = state.me;
  $('login').hidden = Boolean(me);
  $('balance').parentElement.hidden = !me;
  $('balance').textContent = me ? String(me.balance) : '';
  $('who').textContent = me ? me.name : '';
  $('last-hand-open').disabled = !me;
}

async function refreshLobby() {
  try {
    const res = await fetch('/api/tables');
    if (res.ok) state.lobby = await res.json();
  } catch {
    return; // offline: keep the last list
  }
  renderLobby();
}

/** Every table we can list: the public ones, then private ones joined with a code. */
function lobbyTables() {
  const list = state.lobby.map((t) => ({ ...t, code: null }));
  for (const [id, p] of Object.entries(state.privates)) {
    if (!list.some((t) => t.id === id)) list.push({ ...p.summary, id, code: p.code });
  }
  return list;
}

/** Updates the table rows in place, so a buy-in being typed is not lost on a refresh. */
function renderLobby() {
  const body = $('table-rows');
  const old = new Map([...body.children].map((row) => [row.dataset.tableId, row]));
  const rows = lobbyTables().map((t) => {
    const row = old.get(t.id) || tableRow(t);
    old.delete(t.id);
    const cells = row.children;
    cells[0].textContent = t.code ? `${t.name} (private)` : t.name;
    cells[1].textContent = VARIANTS[t.variant] || t.variant;
    cells[2].textContent = stakes(t.config);
    cells[3].textContent = `${t.seats_taken}/${t.seats ?? 8}`;
    cells[3].title = (t.players || []).join(', ');
    return row;
  });
  for (const row of old.values()) row.remove();
  // Re-insert only when the order changed (moving a row would take the focus from its input).
  if (rows.some((row, i) => body.children[i] !== row)) body.replaceChildren(...rows);
}

function tableRow(t) {
  const buyIn = el('input', {
    'data-testid': 'buy-in', type: 'number', min: t.min_buy_in, max: t.max_buy_in, step: 1, value: t.min_buy_in,
    'aria-label': 'buy-in',
  });
  return el('tr', { 'data-testid': 'table-row', 'data-table-id': t.id, 'data-variant': t.variant },
    el('td'), el('td'), el('td'), el('td'),
    el('td', {}, buyIn, el('span', { class: 'range', text: ` ${t.min_buy_in}–${t.max_buy_in}` })),
    el('td', { class: 'row-buttons' },
      el('button', { 'data-testid': 'sit', type: 'button', text: 'Sit', onclick: () => takeSeat(t.id, Number(buyIn.value), t.code) }),
      el('button', { 'data-testid': 'watch', type: 'button', text: 'Watch', onclick: () => watch(t.id, t.code) })));
}

/** `sit` with no seat number: the first free seat. We switch to the table on the ack. */
async function takeSeat(tableId, buyIn, code, seat = null) {
  if (!(await ensureSession())) return;
  state.left.delete(tableId);
  send({ type: 'sit', table_id: tableId, seat, buy_in: buyIn, invite_code: code ?? null }, { kind: 'sit', tableId, code });
}

/** `join_table` (watch); we switch to the table on its snapshot. */
async function watch(tableId, code) {
  if (!(await ensureSession())) return;
  state.left.delete(tableId);
  state.pending = { tableId, code };
  send({ type: 'join_table', table_id: tableId, invite_code: code ?? null }, { kind: 'watch', tableId });
}

function showView(name) {
  $('lobby').hidden = name !== 'lobby';
  $('table').hidden = name !== 'table';
  if (name === 'lobby') refreshLobby();
}

// ---- the table: state from snapshots and events --------------------------------------------

function enterTable(id, code) {
  state.pending = null;
  state.prompt = null;
  state.table = { id, code: code ?? null, seq: 0, info: null, hand: null, resyncing: false, log: { deals: [] } };
  $('log').replaceChildren();
  $('table-buy-in').value = '';
  renderActions();
  showView('table');
}

function leaveTable() {
  const t = state.table;
  if (!t) return;
  send({ type: 'leave', table_id: t.id }, { kind: 'leave' });
  state.left.add(t.id);
  state.table = null;
  state.prompt = null;
  renderActions();
  showView('lobby');
}

function onTableClosed(m) {
  if (state.table?.id !== m.table_id) return;
  state.table = null;
  state.prompt = null;
  notice('The table has closed; your chips are back in your balance.');
  sendHello();
  showView('lobby');
}

/** Frames about the table on screen, in sequence: a gap means we missed a broadcast, so we ask
 *  for a fresh snapshot (and apply what comes meanwhile; the snapshot overrides it). */
function forTable(m, handler) {
  const t = state.table;
  if (!t || t.id !== m.table_id) return;
  const resent = m.type === 'your_turn' && m.seq === t.seq; // a prompt re-sent after reconnecting
  if (m.seq <= t.seq && !resent) return;
  if (m.seq > t.seq + 1 && !t.resyncing) {
    t.resyncing = true;
    send({ type: 'snapshot', table_id: t.id });
  }
  t.seq = Math.max(t.seq, m.seq);
  handler(m, t);
  renderTable();
}

function onSnapshot(m) {
  let t = state.table;
  const adopt = !t && !state.left.has(m.table_id) && m.table.your_seat != null; // after a page reload
  if (!t && (state.pending?.tableId === m.table_id || adopt)) {
    enterTable(m.table_id, state.pending?.code ?? state.privates[m.table_id]?.code);
    t = state.table;
  }
  if (!t || t.id !== m.table_id) {
    // A table we left during a hand: the seat stays until the hand is over (and a `hello`
    // subscribes a held seat again). Once it is cashed out, stop watching and get the balance.
    if (state.left.has(m.table_id) && m.table.your_seat == null) {
      send({ type: 'leave', table_id: m.table_id });
      sendHello();
    }
    return;
  }
  t.seq = m.seq;
  t.resyncing = false;
  t.info = m.table;
  const h = m.table.hand;
  if (h && t.hand?.id !== h.hand_id && h.view.phase !== 'over') addLog(`Hand #${h.number} (in progress)`, 'hand-start');
  t.hand = h && {
    id: h.hand_id, number: h.number, view: h.view, toAct: h.view.to_act ?? null,
    deadlineAt: h.deadline_ms == null ? null : now() + h.deadline_ms,
  };
  // The snapshot carries our legal actions: a prompt can be rebuilt from it (seq = now).
  const legal = h?.view.legal_actions ?? [];
  if (h && legal.length && h.view.to_act === m.table.your_seat) {
    const bankMs = state.prompt?.handId === h.hand_id ? state.prompt.bankMs : null;
    setPrompt({ handId: h.hand_id, seq: m.seq, legal, bankMs, sent: false });
  } else {
    setPrompt(null);
  }
  if (t.code) rememberPrivate(t);
  if ($('table-buy-in').value === '') $('table-buy-in').value = m.table.min_buy_in;
  renderTable();
}

/** A private table joined with its code gets a lobby row like any other. */
function rememberPrivate(t) {
  const i = t.info;
  state.privates[t.id] = {
    code: t.code,
    summary: {
      name: i.name, variant: i.config.variant, config: i.config, min_buy_in: i.min_buy_in,
      max_buy_in: i.max_buy_in, seats_taken: i.seats.length, players: i.seats.map((s) => s.name),
    },
  };
  savePrivates();
}

function onHandStarted(m, t) {
  const variant = t.info?.config.variant ?? 'stud';
  t.hand = {
    id: m.hand_id, number: m.number, toAct: null, deadlineAt: null,
    view: { variant, street: 'third', phase: 'betting', seats: [], pots: [], community: null, current_bet: 0, legal_actions: [] },
  };
  t.log.deals = [];
  setPrompt(null);
  addLog(`Hand #${m.number} · commitment ${m.commitment.slice(0, 12)}…`, 'hand-start');
}

const ACTION_EVENTS = ['bring_in', 'complete', 'bet', 'raise', 'call', 'check', 'fold', 'mucked', 'shown'];

function onEvent(m, t) {
  if (!t.hand || t.hand.id !== m.hand_id) return;
  const ev = m.event;
  if (!applyEvent(t.hand.view, ev)) {
    send({ type: 'snapshot', table_id: t.id }); // an event for a seat we do not know: resync
    return;
  }
  for (const line of describeEvent(ev, t.log)) addLog(line, lineClass(ev));
  // Someone acted (or the clock did for them): nobody is to act until the next prompt.
  if (ACTION_EVENTS.includes(ev.event)) {
    if (t.hand.toAct === ev.seat) {
      t.hand.toAct = null;
      t.hand.deadlineAt = null;
    }
    if (ev.seat === t.info?.your_seat) setPrompt(null);
  }
  if (ev.event === 'hand_ended') endHand(t, ev.stacks);
}

function onTurn(m, t) {
  if (!t.hand || t.hand.id !== m.hand_id) return;
  t.hand.toAct = m.seat;
  t.hand.deadlineAt = now() + m.deadline_ms;
  if (m.seat !== t.info?.your_seat) setPrompt(null);
}

function onYourTurn(m, t) {
  if (!t.hand || t.hand.id !== m.hand_id) return;
  t.hand.toAct = t.info?.your_seat ?? null;
  t.hand.deadlineAt = now() + m.deadline_ms;
  setPrompt({ handId: m.hand_id, seq: m.seq, legal: m.legal, bankMs: m.time_bank_ms, sent: false });
}

function onHandResult(m, t) {
  endHand(t, m.stacks);
}

/** The hand is over: nobody to act; the seats' stacks are the final ones. */
function endHand(t, stacks) {
  if (t.hand) {
    t.hand.toAct = null;
    t.hand.deadlineAt = null;
  }
  setPrompt(null);
  for (const [seat, stack] of stacks) {
    const info = t.info?.seats.find((s) => s.seat === seat);
    if (info) info.stack = stack;
  }
}

/** Applies one event to a HandView, as the engine does (view.rs): `bet` is this street's
 *  chips, `committed` the hand's (antes included), pots are rebuilt from `committed`.
 *  False if the event names a seat this view does not have. */
function applyEvent(view, ev) {
  const seat = view.seats.find((s) => s.seat === ev.seat);
  if (ev.seat != null && !seat) return false;
  const pay = (amount) => {
    seat.stack -= amount;
    seat.bet += amount;
    seat.committed += amount;
  };
  switch (ev.event) {
    case 'hand_started':
      view.seats = ev.seats.map(([n, stack]) => ({
        seat: n, stack, bet: 0, committed: 0, folded: false, all_in: false, cards: [],
        shown: false, mucked: false, hand: null, won: 0,
      }));
      break;
    case 'ante': seat.stack -= ev.amount; seat.committed += ev.amount; break;
    case 'dealt': seat.cards.push({ card: ev.card ?? null, up: ev.up }); view.street = ev.street; break;
    case 'community': view.community = ev.card; break;
    case 'street_started':
      view.street = ev.street;
      view.current_bet = 0;
      for (const s of view.seats) s.bet = 0;
      break;
    case 'bring_in': pay(ev.amount); break;
    case 'call': pay(ev.amount); break;
    case 'complete': case 'bet': case 'raise': pay(ev.to - seat.bet); break;
    case 'fold': seat.folded = true; break;
    case 'uncalled': seat.stack += ev.amount; seat.bet -= ev.amount; seat.committed -= ev.amount; break;
    case 'showdown': view.phase = 'showdown'; break;
    case 'shown':
      // Every card face up now; the up/down positions stay (down cards are drawn lower).
      seat.cards = ev.cards.map((card, i) => ({ card, up: seat.cards[i]?.up ?? (i >= 2 && i <= 5) }));
      seat.shown = true;
      seat.hand = ev.description;
      break;
    case 'mucked': seat.mucked = true; break;
    case 'award': seat.stack += ev.amount; seat.won += ev.amount; break;
    case 'hand_ended':
      view.phase = 'over';
      view.to_act = null;
      for (const s of view.seats) { s.bet = 0; s.committed = 0; }
      break;
    default: break;
  }
  for (const s of view.seats) s.all_in = !s.folded && s.stack === 0 && view.phase !== 'over';
  view.current_bet = Math.max(0, ...view.seats.map((s) => s.bet));
  view.pots = view.phase === 'over' ? [] : buildPots(view.seats);
  return true;
}

/** Main and side pots from what everyone put in: one pot per distinct commitment of the
 *  players still in (the engine's pots.rs, so it agrees with the snapshots). */
function buildPots(seats) {
  const levels = [...new Set(seats.filter((s) => !s.folded && s.committed > 0).map((s) => s.committed))].sort((a, b) => a - b);
  const pots = [];
  let prev = 0;
  for (const level of levels) {
    const amount = seats.reduce((sum, s) => sum + Math.min(s.committed, level) - Math.min(s.committed, prev), 0);
    pots.push({ amount, eligible: seats.filter((s) => !s.folded && s.committed >= level).map((s) => s.seat) });
    prev = level;
  }
  const above = seats.reduce((sum, s) => sum + Math.max(0, s.committed - prev), 0);
  if (above > 0 && pots.length) pots[pots.length - 1].amount += above;
  return pots;
}

// ---- the hand log --------------------------------------------------------------------------

/** Cards dealt on one street, as text: "[8c 5h] 2h" (down cards in brackets, ?? for backs). */
function dealtText(cards) {
  return cards.map((c) => (c.up ? c.card : `[${c.card ?? '??'}]`)).join(' ').replaceAll('] [', ' ');
}

/** The cards of a street are announced on one line once the street's dealing is done. */
function flushDeals(ctx) {
  if (!ctx.deals.length) return [];
  const street = ctx.deals[0].street;
  const bySeat = new Map();
  for (const d of ctx.deals) bySeat.set(d.seat, [...(bySeat.get(d.seat) || []), d]);
  ctx.deals = [];
  const parts = [...bySeat].map(([seat, cards]) => `Seat ${seat} ${dealtText(cards)}`);
  return [`${STREETS[street] || street}: ${parts.join(' · ')}`];
}

/** One event as dealer-chat lines ("Seat 3 brings in for 50"). `ctx.deals` collects the cards
 *  of the street being dealt. */
function describeEvent(ev, ctx) {
  const who = `Seat ${ev.seat}`;
  const allIn = ev.all_in ? ' and is all in' : '';
  switch (ev.event) {
    case 'hand_started': return [`Dealt in: ${ev.seats.map(([s, stack]) => `Seat ${s} (${stack})`).join(', ')}`];
    case 'ante': return [`${who} antes ${ev.amount}${allIn}`];
    case 'dealt': ctx.deals.push(ev); return [];
    case 'community': return [...flushDeals(ctx), `Community card: ${ev.card}`];
    case 'street_started': return flushDeals(ctx);
    case 'bring_in': return [`${who} brings in for ${ev.amount}${allIn}`];
    case 'complete': return [`${who} completes to ${ev.to}${allIn}`];
    case 'bet': return [`${who} bets ${ev.to}${allIn}`];
    case 'raise': return [`${who} raises to ${ev.to}${allIn}`];
    case 'call': return [`${who} calls ${ev.amount}${allIn}`];
    case 'check': return [`${who} checks`];
    case 'fold': return [`${who} folds`];
    case 'uncalled': return [`Uncalled bet of ${ev.amount} returned to ${who}`];
    case 'showdown': return [...flushDeals(ctx), 'Showdown'];
    case 'shown': return [`${who} shows ${ev.cards.join(' ')} (${ev.description})`];
    case 'show_or_muck': return [`${who} may show or muck`];
    case 'mucked': return [`${who} mucks`];
    case 'award': return [awardText(ev)];
    case 'hand_ended': return [...flushDeals(ctx), 'Hand over'];
    default: return [];
  }
}

function awardText(a) {
  const where = [];
  if (a.half && a.half !== 'whole') where.push(`${a.half} half`);
  if (a.pot > 0) where.push(`side pot ${a.pot}`);
  const hand = a.hand ? ` with ${a.hand}` : '';
  return `Seat ${a.seat} wins ${a.amount}${hand}${where.length ? ` (${where.join(', ')})` : ''}`;
}

function lineClass(ev) {
  if (ev.event === 'award') return 'win';
  if (ev.event === 'shown' || ev.event === 'showdown') return 'showdown';
  if (ev.event === 'dealt' || ev.event === 'street_started' || ev.event === 'community') return 'deal';
  return '';
}

function addLog(text, cls = '') {
  const log = $('log');
  const stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 20; // follow unless scrolled up
  log.append(el('div', { 'data-testid': 'log-line', class: `log-line ${cls}`, text }));
  while (log.childElementCount > LOG_LINES_KEPT) log.firstElementChild.remove();
  if (stick) log.scrollTop = log.scrollHeight;
}

// ---- drawing the table ---------------------------------------------------------------------

/** A card: face ("Ah") or back; down cards carry data-down and sit lower than up cards. */
function cardElement(seen) {
  const down = !seen.up;
  if (!seen.card) return el('div', { 'data-testid': 'card', 'data-card': 'back', 'data-down': down, class: 'card back' });
  const [rank, suit] = seen.card;
  return el('div', {
    'data-testid': 'card', 'data-card': seen.card, 'data-down': down,
    class: `card suit-${suit}`, title: seen.card,
  }, el('span', { class: 'rank', text: rank === 'T' ? '10' : rank }), el('span', { class: 'suit', text: SUITS[suit] }));
}

function renderTable() {
  const t = state.table;
  if (!t || !t.info) return;
  $('table-name').textContent = t.info.name;
  $('table-stakes').textContent = `${VARIANTS[t.info.config.variant]} · ${stakes(t.info.config)}`;
  const seatCount = t.info?.seat_count ?? state.lobby.find((x) => x.id === t.id)?.seats ?? 8;
  const seats = [];
  for (let n = 1; n <= seatCount; n += 1) seats.push(seatElement(t, n));
  $('seats').replaceChildren(...seats);
  renderCenter(t);
  renderSeatBar(t);
  renderClock();
}

function seatElement(t, n) {
  const info = t.info.seats.find((s) => s.seat === n);
  const sv = t.hand?.view.seats.find((s) => s.seat === n);
  const mine = t.info.your_seat === n;
  const live = sv && t.hand.view.phase !== 'over';
  const empty = !info && !live; // a finished hand's seat that has been cashed out is empty
  const node = el('div', {
    'data-testid': 'seat', 'data-seat': n, 'data-me': mine, 'data-empty': empty,
    'data-sitting-out': info?.sitting_out, 'data-folded': !empty && sv?.folded,
    class: `seat pos-${n}${t.hand?.toAct === n ? ' to-act' : ''}`,
  });
  if (n === 8) node.append(el('span', { class: 'dealer-button', title: 'the stud button', text: 'D' }));
  if (empty) {
    node.append(el('div', { class: 'seat-head' }, el('span', { class: 'seat-no', text: n }), el('span', { class: 'empty', text: 'empty' })));
    if (t.info.your_seat == null && state.me) {
      node.append(el('button', { type: 'button', class: 'sit-here', text: 'Sit here', onclick: () => sitHere(n) }));
    }
    return node;
  }
  const stack = live ? sv.stack : (info?.stack ?? sv.stack);
  const bet = live ? sv.bet : 0;
  const tags = [];
  if (info && !info.connected) tags.push('away');
  if (info?.sitting_out) tags.push('sitting out');
  if (live && sv.all_in) tags.push('all in');
  node.append(
    el('div', { class: 'seat-head' },
      el('span', { class: 'seat-no', text: n }),
      el('span', { 'data-testid': 'seat-name', class: 'seat-name', text: info?.name ?? `Seat ${n}` }),
      tags.map((tag) => el('span', { class: 'tag', text: tag }))),
    el('div', { class: 'seat-chips' },
      // data-committed: chips this seat has in the current hand's pot (antes included), so
      // stack + committed is what the seat had when the hand began.
      el('span', { 'data-testid': 'seat-stack', 'data-amount': stack, 'data-committed': live ? sv.committed : 0, class: 'stack', text: String(stack) }),
      el('span', { 'data-testid': 'seat-bet', 'data-amount': bet, class: `bet${bet ? '' : ' zero'}`, text: bet ? String(bet) : '' })),
    el('div', { class: 'cards' }, (sv?.cards ?? []).map(cardElement)),
    el('div', { class: 'seat-foot' }, seatFoot(sv)));
  return node;
}

/** Under the cards: the hand's name when visible, what was won, mucked. */
function seatFoot(sv) {
  if (!sv) return [];
  const parts = [];
  if (sv.hand) parts.push(el('span', { class: 'hand-name', text: sv.hand }));
  if (sv.mucked) parts.push(el('span', { class: 'tag', text: 'mucked' }));
  if (sv.won > 0) parts.push(el('span', { class: 'won', text: `wins ${sv.won}` }));
  return parts;
}

function renderCenter(t) {
  const view = t.hand?.view;
  const pots = view?.pots ?? [];
  const total = pots.reduce((sum, p) => sum + p.amount, 0);
  const pot = $('pot');
  pot.dataset.amount = String(total);
  // With a player all in, the main and side pots are listed under the total.
  const split = sidePots(view);
  const listed = split.length > 1 ? split.map((p, i) => el('div', {
    'data-testid': i === 0 ? null : 'side-pot', 'data-amount': p.amount, class: 'side-pot',
    text: `${i === 0 ? 'Main pot' : `Side pot ${i}`}: ${p.amount} (seats ${p.eligible.join(', ')})`,
  })) : [];
  pot.replaceChildren(el('span', { class: 'pot-label', text: 'Pot ' }), el('span', { class: 'pot-amount', text: String(total) }), ...listed);
  $('community').replaceChildren(...(view?.community ? [el('span', { class: 'label', text: 'Community' }), cardElement({ card: view.community, up: true })] : []));
  $('turn').textContent = turnText(t);
}

/** Pots as a card room shows them: split only at the all-in players' levels. (The engine's
 *  `pots` also splits at every unmatched bet of the street in progress, which is no side pot.) */
function sidePots(view) {
  if (!view || view.phase === 'over') return [];
  const live = view.seats.filter((s) => !s.folded);
  const levels = [...new Set(live.filter((s) => s.all_in).map((s) => s.committed))].sort((a, b) => a - b);
  if (!levels.length) return [];
  const top = Math.max(...view.seats.map((s) => s.committed));
  if (levels.at(-1) < top) levels.push(top);
  let prev = 0;
  return levels.map((level) => {
    const amount = view.seats.reduce((sum, s) => sum + Math.min(s.committed, level) - Math.min(s.committed, prev), 0);
    const eligible = live.filter((s) => s.committed > prev).map((s) => s.seat);
    prev = level;
    return { amount, eligible };
  }).filter((p) => p.amount > 0);
}

function turnText(t) {
  const h = t.hand;
  if (!h || h.view.phase === 'over') return t.info.seats.length < 2 ? 'Waiting for players' : 'Waiting for the next hand';
  if (h.toAct == null) return STREETS[h.view.street] || '';
  if (h.toAct === t.info.your_seat) return 'Your turn';
  const name = t.info.seats.find((s) => s.seat === h.toAct)?.name;
  return `Seat ${h.toAct}${name ? ` (${name})` : ''} to act`;
}

/** The clock of the seat to act, counting down locally from the last deadline_ms. Ours is
 *  split into action time and time bank (the deadline includes the bank). */
function renderClock() {
  const clock = $('clock');
  const h = state.table?.hand;
  if (!h || h.toAct == null || h.deadlineAt == null) {
    clock.textContent = '';
    clock.classList.remove('low');
    return;
  }
  const left = Math.max(0, h.deadlineAt - now());
  const bankMs = state.prompt ? state.prompt.bankMs : null;
  if (bankMs != null) {
    const bank = Math.min(bankMs, left);
    clock.textContent = left > bank ? `${seconds(left - bank)}s + time bank ${seconds(bank)}s` : `time bank ${seconds(left)}s`;
  } else {
    clock.textContent = `${seconds(left)}s`;
  }
  clock.classList.toggle('low', left < 5000);
}

/** Below the table: take a seat (watching) or top up and sit out / in (seated). */
function renderSeatBar(t) {
  const seated = t.info.your_seat != null;
  const me = t.info.seats.find((s) => s.seat === t.info.your_seat);
  $('table-sit').hidden = seated;
  $('top-up').hidden = !seated;
  $('sit-toggle').hidden = !seated;
  $('sit-toggle').textContent = me?.sitting_out ? 'Sit in' : 'Sit out';
}

function sitHere(seat) {
  const t = state.table;
  takeSeat(t.id, Number($('table-buy-in').value), t.code, seat);
}

// ---- acting --------------------------------------------------------------------------------

function setPrompt(prompt) {
  const same = JSON.stringify(prompt) === JSON.stringify(state.prompt);
  state.prompt = prompt;
  if (!same) renderActions();
}

function actionLabel(a) {
  const t = state.table;
  const me = t?.hand?.view.seats.find((s) => s.seat === t.info?.your_seat);
  switch (a.kind) {
    case 'bring_in': return `Bring in ${Math.min(t.info.config.bring_in, me?.stack ?? Infinity)}`;
    case 'complete': return `Complete to ${a.to}`;
    case 'bet': return `Bet ${a.to}${bigBetOption(a) ? ' (open pair)' : ''}`;
    case 'raise': return `Raise to ${a.to}`;
    case 'call': return me ? `Call ${Math.min(t.hand.view.current_bet - me.bet, me.stack)}` : 'Call';
    default: return a.kind[0].toUpperCase() + a.kind.slice(1);
  }
}

/** On 4th street with an open pair, two bets are legal: the small one and the big one. */
function bigBetOption(a) {
  const bets = state.prompt?.legal.filter((x) => x.kind === 'bet') ?? [];
  return bets.length > 1 && a.to === Math.max(...bets.map((x) => x.to));
}

/** Exactly the legal actions, as buttons; empty when it is not our turn (or we just acted). */
function renderActions() {
  const box = $('actions');
  const p = state.prompt;
  if (!p || p.sent) return box.replaceChildren();
  box.replaceChildren(...p.legal.map((a) => el('button', {
    'data-testid': 'action', 'data-action': a.kind, 'data-amount': a.to, type: 'button',
    class: `action action-${a.kind}`, onclick: () => act(a),
  }, actionLabel(a), el('kbd', { text: SHORTCUT[a.kind] }))));
}

function act(action) {
  const t = state.table;
  const p = state.prompt;
  if (!t || !p || p.sent) return;
  // The key names the intended action: a repeat (after a dropped socket) is not applied twice.
  const msg = { type: 'act', table_id: t.id, hand_id: p.handId, seq: p.seq, idempotency_key: `${p.handId}:${p.seq}`, action };
  if (!send(msg, { kind: 'act', seq: p.seq })) return notice('Reconnecting: try again in a moment.');
  p.sent = true;
  renderActions();
}

function onActError(m, req) {
  const p = state.prompt;
  if (m.code === 'illegal_action' && p && p.seq === req.seq) {
    p.sent = false; // still our turn: offer the actions again
    renderActions();
  } else if (state.table) {
    send({ type: 'snapshot', table_id: state.table.id }); // stale or not our turn: catch up
  }
  notice(m.message);
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.target.closest('input, textarea, select, dialog[open]') || $('last-hand').open) return;
  const kinds = KEYS[e.key.toLowerCase()];
  const p = state.prompt;
  if (!kinds || !p || p.sent) return;
  const action = kinds.map((k) => p.legal.find((a) => a.kind === k)).find(Boolean);
  if (action) {
    e.preventDefault();
    act(action);
  }
}

// ---- LAST HAND -----------------------------------------------------------------------------

function openLastHands() {
  $('last-hand-list').replaceChildren(el('p', { class: 'muted', text: 'Loading…' }));
  $('last-hand-report').hidden = true;
  $('last-hand').showModal();
  askHistory({ type: 'last_hands' });
}

/** LAST HAND requests read the database: `unavailable` (the store is behind) is retried. */
function askHistory(msg, tries = 0) {
  if (!send({ ...msg }, { kind: 'history', msg, tries })) showReportMessage('Reconnecting: try again in a moment.');
}

function onHistoryError(m, req) {
  if (m.code === 'unavailable' && req.tries < 3) {
    setTimeout(() => askHistory(req.msg, req.tries + 1), 1000);
  } else if (req.msg.type === 'last_hands') {
    $('last-hand-list').replaceChildren(el('p', { class: 'muted', text: m.message }));
  } else {
    showReportMessage(m.message);
  }
}

function onLastHands(m) {
  state.lastHands = m.hands;
  const rows = m.hands.map((h) => el('button', {
    'data-testid': 'last-hand-row', 'data-hand-id': h.hand_id, type: 'button', class: 'hand-row',
    onclick: () => openHand(h.hand_id),
  }, `#${h.number} · ${VARIANTS[h.variant]} · seat ${h.seat} · `,
  el('span', { class: h.net >= 0 ? 'net up' : 'net down', text: signed(h.net) }),
  ` · ${new Date(h.ended_at_ms).toLocaleTimeString()}`));
  $('last-hand-list').replaceChildren(...(rows.length ? rows : [el('p', { class: 'muted', text: 'No hands played in this session yet.' })]));
}

function openHand(handId) {
  for (const row of $('last-hand-list').children) row.classList.toggle('selected', row.dataset.handId === handId);
  showReportMessage('Loading…');
  askHistory({ type: 'last_hand', hand_id: handId });
}

function showReportMessage(text) {
  const box = $('last-hand-report');
  box.hidden = false;
  box.replaceChildren(el('p', { class: 'muted', text }));
}

/** The full report: every seat's cards (every card live at showdown face up), the actions and
 *  the awards, and the downloads. */
function onLastHand(m) {
  const { summary, view, events } = m.report;
  const ctx = { deals: [] };
  const lines = events.flatMap((ev) => describeEvent(ev, ctx));
  const awards = events.filter((ev) => ev.event === 'award').map(awardText);
  const seats = view.seats.map((s) => el('div', { 'data-testid': 'last-hand-seat', 'data-seat': s.seat, class: 'report-seat' },
    el('div', { class: 'report-seat-head' },
      el('strong', { text: `Seat ${s.seat}${s.seat === summary.seat ? ' (you)' : ''}` }),
      s.folded ? el('span', { class: 'tag', text: 'folded' }) : null,
      s.mucked ? el('span', { class: 'tag', text: 'mucked' }) : null,
      s.hand ? el('span', { class: 'hand-name', text: s.hand }) : null,
      s.won ? el('span', { class: 'won', text: `wins ${s.won}` }) : null),
    el('div', { class: 'cards' }, s.cards.map(cardElement))));
  $('last-hand-report').replaceChildren(...[
    el('h3', { text: `Hand #${summary.number} · ${VARIANTS[summary.variant]} · ${new Date(summary.ended_at_ms).toLocaleString()}` }),
    el('p', { class: 'muted', text: `Your net: ${signed(summary.net)} · commitment ${m.report.commitment ?? '—'}` }),
    el('div', { class: 'report-seats' }, seats),
    view.community ? el('div', { class: 'report-community' }, 'Community card ', cardElement({ card: view.community, up: true })) : null,
    el('h4', { text: 'Awards' }),
    el('ul', { class: 'awards' }, awards.map((a) => el('li', { text: a }))),
    el('h4', { text: 'Action' }),
    el('ol', { class: 'report-log' }, lines.map((line) => el('li', { text: line }))),
    el('div', { class: 'downloads' },
      el('button', { 'data-testid': 'download-phh', type: 'button', text: 'Download PHH', onclick: () => download(summary, 'phh') }),
      el('button', { 'data-testid': 'download-text', type: 'button', text: 'Download text', onclick: () => download(summary, 'text') })),
  ].filter(Boolean));
  $('last-hand-report').hidden = false;
}

/** Fetches a hand history with the token, then saves it through a blob URL. */
async function download(summary, format) {
  let res;
  try {
    res = await fetch(`/api/hands/${summary.hand_id}?format=${format}`, { headers: { Authorization: `Bearer ${state.token}` } });
  } catch {
    return notice('The server cannot be reached.');
  }
  if (!res.ok) return notice(`Download failed (${res.status}).`);
  const url = URL.createObjectURL(await res.blob());
  const link = el('a', { href: url, download: `hand-${summary.number}-${summary.hand_id.slice(0, 8)}.${format === 'phh' ? 'phh' : 'txt'}` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// ---- wiring --------------------------------------------------------------------------------

function init() {
  $('login').addEventListener('submit', (e) => {
    e.preventDefault();
    login($('name').value.trim() || 'Guest');
  });
  $('private').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = $('invite-table').value.trim();
    if (id) watch(id, $('invite-code').value.trim());
  });
  $('leave').addEventListener('click', leaveTable);
  $('sit-toggle').addEventListener('click', () => {
    const t = state.table;
    const me = t?.info?.seats.find((s) => s.seat === t.info.your_seat);
    if (me) send({ type: me.sitting_out ? 'sit_in' : 'sit_out', table_id: t.id }, { kind: 'sit_toggle' });
  });
  $('table-sit').addEventListener('click', () => sitHere(null));
  $('top-up').addEventListener('click', () => {
    send({ type: 'top_up', table_id: state.table.id, amount: Number($('table-buy-in').value) }, { kind: 'top_up' });
  });
  $('last-hand-open').addEventListener('click', openLastHands);
  $('last-hand-close').addEventListener('click', () => $('last-hand').close());
  document.addEventListener('keydown', onKey);

  renderMe();
  refreshLobby();
  setInterval(() => {
    if (!$('lobby').hidden) refreshLobby();
  }, LOBBY_REFRESH_MS);
  setInterval(renderClock, 250);
  if (state.token) connect();
}

init();
