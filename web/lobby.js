// The session (log in, log out) and the lobby view.

import { conn, connect, send, sendHello } from './connection.js';
import { displayOf, limits, money, stakesLine } from './format.js';
import { t } from './i18n.js';
import { lobbyView } from './model.js';
import { $, el, notice, variantName } from './render.js';
import { TOKEN_KEY, prefs, savePrefs, savePrivates, state, store } from './state.js';
import { leaveTable } from './table.js';

// ---- session and lobby ---------------------------------------------------------------------

/** POST /api/sessions, then hello on the socket. Resolves true once welcomed. The token is
 *  kept in localStorage: a new tab, or the next day, continues as the same player. */
export async function login(name) {
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
    notice(t('unreachable'));
    return false;
  }
  if (!res.ok) {
    notice(body.message || t('session_failed', { status: res.status }));
    return false;
  }
  state.token = body.token;
  store.setItem(TOKEN_KEY, body.token);
  const welcomed = new Promise((resolve) => conn.welcomed.push(resolve));
  if (conn.ws?.readyState === WebSocket.OPEN) sendHello();
  else connect();
  return welcomed;
}

/** Ends the session on the server: `DELETE /api/sessions/{id}` with the token (204: the token
 *  no longer works anywhere). A server without that route answers 404 or 405: the page forgets
 *  the token all the same. Resolves to the status, or 0 when the server cannot be reached. */
export async function revokeSession(sessionId, token) {
  if (!sessionId || !token) return 0;
  try {
    const res = await fetch(`/api/sessions/${sessionId}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
    return res.status;
  } catch {
    return 0;
  }
}

/** Log out: leave the table on screen, end the session on the server, forget the token,
 *  close the socket. */
export function logout() {
  if (state.table) leaveTable();
  revokeSession(state.me?.session_id, state.token);
  store.removeItem(TOKEN_KEY);
  state.token = null;
  state.me = null;
  state.privates = {};
  savePrivates();
  conn.loggingOut = Boolean(conn.ws);
  clearTimeout(conn.retryTimer);
  conn.ws?.close();
  renderMe();
  showView('lobby');
}

/** A session before sitting or watching: the one we have, or a new guest. */
export async function ensureSession() {
  if (state.me) return true;
  if (state.token) {
    const welcomed = new Promise((resolve) => conn.welcomed.push(resolve));
    connect();
    return welcomed;
  }
  return login($('name').value.trim() || t('guest'));
}

export function renderMe() {
  const me = state.me;
  $('login').hidden = Boolean(me);
  $('balance').parentElement.hidden = !me;
  $('balance').textContent = me ? money(me.balance, 'cash') : '';
  $('balance').dataset.amount = me ? String(me.balance) : '';
  $('who').textContent = me ? me.name : '';
  $('last-hand-open').disabled = !me;
  $('logout').hidden = !me;
}

export async function refreshLobby() {
  try {
    const res = await fetch('/api/tables');
    if (res.ok) state.lobby = await res.json();
  } catch {
    return; // offline: keep the last list
  }
  renderLobby();
}

/** Every table we can list: the public ones, then private ones joined with a code. */
export function lobbyTables() {
  const list = state.lobby.map((t) => ({ ...t, code: null }));
  for (const [id, p] of Object.entries(state.privates)) {
    if (!list.some((t) => t.id === id)) list.push({ ...p.summary, id, code: p.code });
  }
  return list;
}

export const LOBBY_COLUMNS = [
  { key: 'name', label: 'col_table' },
  { key: 'variant', label: 'col_game' },
  { key: 'stakes', label: 'col_stakes' },
  { key: 'seats', label: 'col_seats' },
  { key: 'buy_in', label: 'col_buy_in' },
];

export function renderLobbyHead() {
  const o = prefs.lobby;
  $('lobby-head').replaceChildren(...LOBBY_COLUMNS.map((c) => el('th', {
    scope: 'col', 'aria-sort': o.sort === c.key ? (o.dir > 0 ? 'ascending' : 'descending') : 'none',
  }, el('button', {
    type: 'button', class: 'sort', 'data-testid': 'lobby-sort', 'data-key': c.key,
    onclick: () => {
      o.dir = o.sort === c.key ? -o.dir : 1;
      o.sort = c.key;
      savePrefs();
      renderLobbyHead();
      renderLobby();
    },
  }, t(c.label), el('span', { 'aria-hidden': 'true', class: 'sort-mark', text: o.sort === c.key ? (o.dir > 0 ? ' ▲' : ' ▼') : '' }))),
  el('th', { scope: 'col' }, el('span', { class: 'sr-only', text: t('sit') }))));
  const fill = (id, options, value) => {
    const select = $(id);
    select.replaceChildren(...options.map(([v, label]) => el('option', { value: v, text: label })));
    select.value = value;
  };
  fill('filter-variant', [['all', t('all')], ...['stud', 'stud8', 'razz'].map((v) => [v, variantName(v)])], o.variant);
  fill('filter-stakes', [['all', t('all')], ['low', t('stakes_low')], ['high', t('stakes_high')]], o.stakes);
  fill('filter-players', [['all', t('all')], ['some', t('players_some')], ['free', t('players_free')], ['empty', t('players_empty')]], o.players);
}

/** Updates the table rows in place, so a buy-in being typed is not lost on a refresh. */
export function renderLobby() {
  const body = $('table-rows');
  const old = new Map([...body.children].map((row) => [row.dataset.tableId, row]));
  const shown = lobbyView(lobbyTables(), prefs.lobby);
  const rows = shown.map((x) => {
    const row = old.get(x.id) || tableRow(x);
    old.delete(x.id);
    const cells = row.children;
    cells[0].textContent = x.code ? `${x.name} (${t('private')})` : x.name;
    cells[1].textContent = variantName(x.variant);
    const mode = displayOf(x);
    cells[2].textContent = limits(x.config, mode);
    cells[2].title = stakesLine(x.config, mode);
    cells[3].textContent = `${x.seats_taken}/${x.seats ?? 8}`;
    cells[3].title = (x.players || []).join(', ');
    row.querySelector('.range').textContent = ` (${money(x.min_buy_in, mode)}–${money(x.max_buy_in, mode)})`;
    row.querySelector('.as-money').textContent = ` = ${money(Number(row.querySelector('[data-testid=buy-in]').value), mode)}`;
    row.querySelector('[data-testid=sit]').textContent = t('sit');
    row.querySelector('[data-testid=watch]').textContent = t('watch');
    row.querySelector('[data-testid=buy-in]').setAttribute('aria-label', `${t('buy_in')} ${x.name}`);
    return row;
  });
  for (const row of old.values()) row.remove();
  $('no-tables').hidden = rows.length > 0 || !state.lobby.length;
  // Re-insert only when the order changed (moving a row would take the focus from its input).
  if (rows.length !== body.children.length || rows.some((row, i) => body.children[i] !== row)) body.replaceChildren(...rows);
}

export function tableRow(x) {
  // The buy-in is typed in chips (cents), as the protocol counts; its money value is shown beside.
  const buyIn = el('input', {
    'data-testid': 'buy-in', type: 'number', min: x.min_buy_in, max: x.max_buy_in, step: 1, value: x.min_buy_in,
    'aria-label': t('buy_in'),
    oninput: (e) => { e.target.nextElementSibling.textContent = ` = ${money(Number(e.target.value), displayOf(x))}`; },
  });
  return el('tr', { 'data-testid': 'table-row', 'data-table-id': x.id, 'data-variant': x.variant },
    el('td'), el('td'), el('td', { class: 'num' }), el('td', { class: 'num' }),
    el('td', {}, buyIn, el('span', { class: 'as-money', 'aria-live': 'polite' }), el('span', { class: 'range' })),
    el('td', { class: 'row-buttons' },
      el('button', { 'data-testid': 'sit', type: 'button', text: t('sit'), onclick: () => takeSeat(x.id, Number(buyIn.value), x.code) }),
      el('button', { 'data-testid': 'watch', type: 'button', text: t('watch'), onclick: () => watch(x.id, x.code) })));
}

/** `sit` with no seat number: the first free seat. We switch to the table on the ack. */
export async function takeSeat(tableId, buyIn, code, seat = null) {
  if (!(await ensureSession())) return;
  state.left.delete(tableId);
  send({ type: 'sit', table_id: tableId, seat, buy_in: buyIn, invite_code: code ?? null }, { kind: 'sit', tableId, code });
}

/** `join_table` (watch); we switch to the table on its snapshot. */
export async function watch(tableId, code) {
  if (!(await ensureSession())) return;
  state.left.delete(tableId);
  state.pending = { tableId, code };
  send({ type: 'join_table', table_id: tableId, invite_code: code ?? null }, { kind: 'watch', tableId });
}

export function showView(name) {
  $('lobby').hidden = name !== 'lobby';
  $('table').hidden = name !== 'table';
  $('action-bar').hidden = name !== 'table';
  document.body.dataset.view = name;
  if (name === 'lobby') refreshLobby();
}
