// The session (log in, log out), the lobby view, and the tournaments in it: their lobby rows,
// registration, and their details fetched (the tournament view, tournament.js, shows them).
// Which view is on screen is app.js's: it passes showView and openTournament in
// (configureLobby).

import { $, el, notice, now, setText } from './dom.js';
import { VARIANTS, bettingName, displayOf, feeText, limits, money, ordinal, stakesLine, startTime, variantName } from './format.js';
import { t, tournamentErrorText } from './i18n.js';
import { ariaSort, lobbyColumns, lobbySortClick, lobbyView, lobbyWaitlist, nextGame, registrationButtons, tournamentOrder, withRemembered } from './model.js';
import { connect, disconnect, isOpen, send, sendHello, whenWelcomed } from './net.js';
import { TOKEN_KEY, prefs, registeredIn, savePrefs, savePrivateTournaments, savePrivates, state, store, tournamentCode, tournamentDetail, turnPending } from './state.js';

const hooks = {
  showView: () => {},       // (name): lobby, tournament or table on screen
  openTournament: () => {}, // (id): the tournament's view
  openTable: () => {},      // (id): a table the page is at, on screen
  waitlist: () => {},       // (id, on): `waitlist` at a table the page is at
};

/** app.js's part: navigation. */
export function configureLobby(options) {
  Object.assign(hooks, options);
}

// ---- session and lobby ---------------------------------------------------------------------

/** The sign-in under way, if any: a click on Sit or Watch while it runs waits for it rather
 *  than starting a second session (whose hello this socket would refuse). */
let signingIn = null;

/** POST /api/sessions, then hello on the socket. Resolves true once welcomed. The token is
 *  kept in localStorage: a new tab, or the next day, continues as the same player. One at a
 *  time: a second call while one runs gets the first one's answer. */
export function login(name) {
  signingIn ??= signIn(name).finally(() => { signingIn = null; });
  return signingIn;
}

async function signIn(name) {
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
  const welcomed = whenWelcomed();
  if (isOpen()) sendHello();
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

/** Log out (app.js leaves the table on screen first): end the session on the server, forget
 *  the token, close the socket. */
export function logout() {
  revokeSession(state.me?.session_id, state.token);
  store.removeItem(TOKEN_KEY);
  state.token = null;
  state.me = null;
  state.privates = {};
  savePrivates();
  state.tprivates = {};
  savePrivateTournaments();
  state.tcodes = {};
  disconnect();
  renderMe();
  hooks.showView('lobby');
}

/** A session before sitting or watching: the one we have, or a new guest. */
export async function ensureSession() {
  if (state.me) return true;
  if (state.token) {
    const welcomed = whenWelcomed();
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
  // Cut short on a phone: the full name on hover and focus.
  $('who').title = me ? me.name : '';
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
  refreshTournaments();
}

/** Every table we can list: the public ones, then private ones joined with a code. */
export function lobbyTables() {
  const list = state.lobby.map((t) => ({ ...t, code: null }));
  for (const [id, p] of Object.entries(state.privates)) {
    if (!list.some((t) => t.id === id)) list.push({ ...p.summary, id, code: p.code });
  }
  return list;
}

/** The lobby's columns now (model.js lobbyColumns: the activity columns the server sends). */
export const lobbyColumnsNow = () => lobbyColumns(lobbyTables());

let headKey = '';
export function renderLobbyHead() {
  const o = prefs.lobby;
  const columns = lobbyColumnsNow();
  headKey = columns.map((c) => c.key).join();
  $('lobby-head').replaceChildren(...columns.map((c) => el('th', {
    scope: 'col', 'aria-sort': ariaSort(o, c.key), class: c.num ? 'num' : null, 'data-col': c.key,
  }, el('button', {
    type: 'button', class: 'sort', 'data-testid': 'lobby-sort', 'data-key': c.key,
    onclick: () => {
      Object.assign(o, lobbySortClick(o, c));
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
  fill('filter-variant', [['all', t('all')], ...VARIANTS.map((v) => [v, variantName(v)])], o.variant);
  fill('filter-stakes', [['all', t('all')], ['low', t('stakes_low')], ['high', t('stakes_high')]], o.stakes);
  fill('filter-players', [['all', t('all')], ['some', t('players_some')], ['free', t('players_free')], ['empty', t('players_empty')]], o.players);
}

/** Updates the table rows in place, so a buy-in being typed is not lost on a refresh. A row of
 *  a table the page is at says so (seated or watching, and "Your turn" when its prompt waits
 *  for us) and opens it in place of Sit and Watch: the seat was kept. */
export function renderLobby() {
  const columns = lobbyColumnsNow();
  if (columns.map((c) => c.key).join() !== headKey) {
    // A column came (or went) with the server's rows: the head and the rows again.
    renderLobbyHead();
    $('table-rows').replaceChildren();
  }
  const body = $('table-rows');
  const old = new Map([...body.children].map((row) => [row.dataset.tableId, row]));
  const shown = lobbyView(lobbyTables(), prefs.lobby);
  const rows = shown.map((x) => {
    const row = old.get(x.id) || tableRow(x, columns);
    old.delete(x.id);
    const cell = (key) => row.querySelector(`td[data-col="${key}"]`);
    const at = state.tables.get(x.id);
    const name = cell('name');
    const turn = turnPending(at);
    // Watching and on its waiting list: our place in line in place of "watching".
    const place = at?.info?.your_seat == null ? at?.info?.wait?.position ?? null : null;
    const atText = at?.info?.your_seat != null ? t('seated_here') : place != null ? t('waiting_at', { place: ordinal(place) }) : t('watching');
    name.replaceChildren(x.code ? `${x.name} (${t('private')})` : x.name,
      ...(at ? [' ', el('span', { class: 'tag', 'data-testid': 'lobby-at-table', 'data-seated': at.info?.your_seat != null, 'data-wait-position': place, text: atText })] : []),
      ...(turn ? [' ', el('span', { class: 'badge turn-badge', 'data-testid': 'lobby-turn', text: t('your_turn') })] : []));
    name.title = x.name;
    row.dataset.yourTurn = String(turn);
    // The game; a big-bet table says its structure beside it (fixed limit: the game alone).
    const structure = bettingName(x.config);
    cell('variant').replaceChildren(variantName(x.variant), ...(structure ? [' ', el('span', { class: 'betting', 'data-testid': 'betting-structure', 'data-betting': x.config.betting, text: structure })] : []));
    const mode = displayOf(x);
    cell('stakes').textContent = limits(x.config, mode);
    cell('stakes').title = stakesLine(x.config, mode);
    cell('seats').textContent = `${x.seats_taken}/${x.seats ?? 8}`;
    cell('seats').title = (x.players || []).join(', ');
    // The activity columns: hands per hour, the average pot (money), the players waiting.
    const figure = (key, text) => {
      const c = cell(key);
      if (!c) return;
      const v = x[key];
      c.dataset.value = v == null ? '' : String(v);
      c.dataset.label = t(columns.find((col) => col.key === key).label);
      c.textContent = v == null ? '–' : text(v);
    };
    figure('hands_per_hour', (v) => String(Math.round(v)));
    figure('average_pot', (v) => money(v, mode));
    figure('waiting', (v) => String(v));
    row.querySelector('.range').textContent = ` (${money(x.min_buy_in, mode)}–${money(x.max_buy_in, mode)})`;
    setText(row.querySelector('.as-money'), ` = ${money(Number(row.querySelector('[data-testid=buy-in]').value), mode)}`);
    const sit = row.querySelector('[data-testid=sit]');
    const watchButton = row.querySelector('[data-testid=watch]');
    const open = row.querySelector('[data-testid=lobby-open]');
    sit.textContent = t('sit');
    watchButton.textContent = t('watch');
    open.textContent = t('open_table');
    open.setAttribute('aria-label', t('open_table_n', { name: x.name }));
    // A full table (or one whose free seats are all offered to its waiting list): Join waiting
    // list in place of Sit, which the server would refuse; at a table we watch, not on its list
    // yet, it joins at once.
    const wl = lobbyWaitlist(x);
    const join = row.querySelector('[data-testid=waitlist-join]');
    const watchingHere = Boolean(at) && at.info?.your_seat == null && !at.tournamentId;
    join.hidden = !wl.join || (at ? !watchingHere || Boolean(at.info?.wait) : false);
    join.textContent = t('waitlist_join_short');
    join.setAttribute('aria-label', t('waitlist_join_n', { name: x.name }));
    sit.hidden = Boolean(at) || wl.join;
    watchButton.hidden = Boolean(at);
    open.hidden = !at;
    row.querySelector('[data-testid=buy-in]').setAttribute('aria-label', `${t('buy_in')} ${x.name}`);
    return row;
  });
  for (const row of old.values()) row.remove();
  $('no-tables').hidden = rows.length > 0 || !state.lobby.length;
  // Re-insert only when the order changed (moving a row would take the focus from its input).
  if (rows.length !== body.children.length || rows.some((row, i) => body.children[i] !== row)) body.replaceChildren(...rows);
}

/** A table's row: a cell per column (`data-col`: the column's key), then its buttons. */
export function tableRow(x, columns = lobbyColumnsNow()) {
  // The buy-in is typed in chips (cents), as the protocol counts; its money value is shown beside.
  const buyIn = el('input', {
    'data-testid': 'buy-in', type: 'number', min: x.min_buy_in, max: x.max_buy_in, step: 1, value: x.min_buy_in,
    'aria-label': t('buy_in'),
    oninput: (e) => setText(e.target.nextElementSibling, ` = ${money(Number(e.target.value), displayOf(x))}`),
  });
  const testids = { hands_per_hour: 'table-row-hands-per-hour', average_pot: 'table-row-average-pot', waiting: 'table-row-waiting' };
  const cells = columns.map((c) => (c.key === 'buy_in'
    ? el('td', { 'data-col': 'buy_in' }, buyIn, el('span', { class: 'as-money', 'aria-live': 'polite' }), el('span', { class: 'range' }))
    : el('td', { 'data-col': c.key, class: ['stakes', 'seats'].includes(c.key) || c.num ? 'num' : null, 'data-testid': testids[c.key] ?? null, 'data-label': c.num ? t(c.label) : null })));
  return el('tr', { 'data-testid': 'table-row', 'data-table-id': x.id, 'data-variant': x.variant },
    ...cells,
    el('td', { class: 'row-buttons' },
      el('button', { 'data-testid': 'sit', type: 'button', text: t('sit'), onclick: () => takeSeat(x.id, Number(buyIn.value), x.code) }),
      el('button', { 'data-testid': 'watch', type: 'button', text: t('watch'), onclick: () => watch(x.id, x.code) }),
      el('button', { 'data-testid': 'waitlist-join', type: 'button', text: t('waitlist_join_short'), hidden: true, onclick: () => joinWaitlist(x.id, x.code) }),
      el('button', { 'data-testid': 'lobby-open', type: 'button', text: t('open_table'), hidden: true, onclick: () => hooks.openTable(x.id) })));
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

/** Join a table's waiting list from the lobby: watch it (as Watch does: its table comes on
 *  screen) and, once joined, `waitlist` on (app.js onAck); at a table we watch already, at
 *  once. */
export async function joinWaitlist(tableId, code) {
  if (!(await ensureSession())) return;
  if (state.tables.has(tableId)) return hooks.waitlist(tableId, true);
  state.left.delete(tableId);
  state.pending = { tableId, code };
  send({ type: 'join_table', table_id: tableId, invite_code: code ?? null }, { kind: 'watch', tableId, waitlist: true });
}

// ---- tournaments ---------------------------------------------------------------------------

/** GET /api/tournaments, then the detail of each open one (whether we are registered, the
 *  game a rotation plays now): the summaries do not say either. A private tournament is listed
 *  only to a player registered in it, so the request carries our session token; one reached
 *  by its id and code (the private form) is drawn from its detail until then. */
export async function refreshTournaments() {
  let list;
  try {
    const res = await fetch('/api/tournaments', state.token ? { headers: { Authorization: `Bearer ${state.token}` } } : {});
    if (!res.ok) return;
    list = await res.json();
  } catch {
    return; // offline: keep the last list
  }
  const missing = Object.keys(state.tprivates).filter((id) => !list.some((x) => x.id === id));
  await Promise.all(missing.map((id) => fetchTournament(id)));
  // The remembered ones as they are now (one may have been added, or forgotten, meanwhile).
  state.tournaments = withRemembered(list, Object.keys(state.tprivates).map(tournamentDetail));
  const open = list.filter((x) => x.status === 'registering' || x.status === 'running').slice(0, 20);
  await Promise.all(open.map((x) => fetchTournament(x.id)));
  renderTournaments();
}

/** The private form's id: a tournament (its detail answers) is remembered with the code and
 *  its lobby row shown, the code in its box, the focus on Register (or on Open when there is
 *  nothing to register for); anything else is a table to watch with that code, as before. */
export async function openPrivate(id, code) {
  if (!id) return;
  const d = /^[0-9a-f-]{36}$/i.test(id) ? await fetchTournament(id) : null;
  if (!d) return watch(id, code);
  if (d.private) {
    state.tprivates[id] = { code };
    savePrivateTournaments();
  }
  state.tcodes[id] = code;
  state.tournaments = withRemembered(state.tournaments, [d]);
  renderTournaments();
  $('invite-table').value = '';
  $('invite-code').value = '';
  const row = $('tournament-list').querySelector(`[data-tournament-id="${id}"]`);
  if (!row) return;
  row.querySelector('[data-testid=tournament-code]').value = code;
  row.scrollIntoView({ block: 'nearest' });
  const register = row.querySelector('[data-testid=tournament-register]');
  (register.hidden ? row.querySelector('[data-testid=tournament-open]') : register).focus();
}

/** GET /api/tournaments/{id}, kept with the moment it came (the level clock counts from it).
 *  A remembered private tournament the server no longer knows (404) is forgotten. */
export async function fetchTournament(id) {
  const asked = now(); // news older than this (a deal's or a pause's frame) is the detail's to say
  try {
    const res = await fetch(`/api/tournaments/${id}`);
    if (res.status === 404 && state.tprivates[id]) {
      delete state.tprivates[id];
      savePrivateTournaments();
    }
    if (!res.ok) return null;
    const detail = await res.json();
    state.tdetails.set(id, { detail, at: now(), asked });
    return detail;
  } catch {
    return null;
  }
}

/** "starts at 3 players" (a sit-and-go) or the scheduled start. */
const startText = (x) => (x.kind === 'sit_and_go' || x.start_at == null ? t('t_starts_at_players', { n: x.max_entrants }) : t('t_starts_at', { when: startTime(x.start_at) }));
const gameText = (x) => {
  const d = tournamentDetail(x.id);
  if (x.variant !== 'rotation' || !d || d.status !== 'running') return variantName(x.variant);
  const next = nextGame(x.variant, d.game);
  return `${variantName(x.variant)}: ${variantName(d.game)}${next ? ` → ${variantName(next)}` : ''}`;
};

/** The tournaments' lobby rows, updated in place (an invite code being typed stays). */
export function renderTournaments() {
  const list = $('tournament-list');
  const old = new Map([...list.children].map((row) => [row.dataset.tournamentId, row]));
  const rows = tournamentOrder(state.tournaments).map((x) => {
    const row = old.get(x.id) || tournamentRow(x);
    old.delete(x.id);
    const q = (id) => row.querySelector(`[data-testid=${id}]`);
    const registered = registeredIn(x.id);
    const d = tournamentDetail(x.id);
    const buttons = registrationButtons({ ...x, registration_open: x.registration_open ?? d?.registration_open }, registered);
    Object.assign(row.dataset, { status: x.status, kind: x.kind, variant: x.variant, registered: String(registered === true) });
    q('tournament-row-name').textContent = x.private ? `${x.name} (${t('private')})` : x.name;
    q('tournament-row-game').textContent = gameText(x);
    q('tournament-row-kind').textContent = t(`t_kind_${x.kind}`);
    q('tournament-row-status').textContent = t(`t_status_${x.status}`);
    q('tournament-row-entrants').textContent = t('t_entrants', { n: x.entrants, max: x.max_entrants });
    q('tournament-row-entrants').dataset.entrants = String(x.entrants);
    const fee = q('tournament-row-buy-in');
    fee.textContent = feeText(x); // a knockout tournament's bounty in it: "$10 + $5 bounty + $1 fee"
    Object.assign(fee.dataset, { entry: String(x.entry_fee), bounty: String(x.bounty ?? ''), fee: String(x.house_fee) });
    // A knockout tournament says so (progressive: known from its detail, fetched for open ones).
    const ko = q('tournament-row-knockout');
    ko.hidden = !x.bounty;
    ko.textContent = x.bounty ? t(d?.progressive_bounty ? 't_row_knockout_progressive' : 't_row_knockout') : '';
    ko.dataset.progressive = String(Boolean(x.bounty && d?.progressive_bounty));
    q('tournament-row-start').textContent = x.status === 'registering' ? startText(x) : '';
    const lvl = q('tournament-row-level');
    lvl.textContent = x.status === 'running' ? t('t_row_level', { n: x.level, left: x.players_left }) : '';
    Object.assign(lvl.dataset, { level: String(x.level ?? ''), left: String(x.players_left ?? '') });
    q('tournament-registered').hidden = registered !== true;
    q('tournament-registered').textContent = t('t_registered');
    const code = q('tournament-code');
    code.hidden = !x.private || !buttons.register;
    code.placeholder = t('invite_code');
    code.setAttribute('aria-label', t('t_code', { name: x.name }));
    const reg = q('tournament-register');
    reg.hidden = !buttons.register;
    reg.textContent = t('t_register');
    reg.setAttribute('aria-label', `${t('t_register')}: ${x.name}`);
    const unreg = q('tournament-unregister');
    unreg.hidden = !buttons.unregister;
    unreg.textContent = t('t_unregister');
    unreg.setAttribute('aria-label', `${t('t_unregister')}: ${x.name}`);
    const open = q('tournament-open');
    open.textContent = t('t_open');
    open.setAttribute('aria-label', `${t('t_open')}: ${x.name}`);
    const error = q('tournament-error');
    error.hidden = !state.terrors[x.id];
    setText(error, state.terrors[x.id]?.text ?? '');
    error.dataset.code = state.terrors[x.id]?.code ?? '';
    return row;
  });
  for (const row of old.values()) row.remove();
  $('no-tournaments').hidden = rows.length > 0;
  if (rows.length !== list.children.length || rows.some((row, i) => list.children[i] !== row)) list.replaceChildren(...rows);
}

export function tournamentRow(x) {
  const code = el('input', {
    'data-testid': 'tournament-code', autocomplete: 'off', maxlength: 64, class: 't-code',
    value: tournamentCode(x.id), oninput: (e) => { state.tcodes[x.id] = e.target.value; },
  });
  return el('li', { 'data-testid': 'tournament-row', 'data-tournament-id': x.id, class: 't-row' },
    el('div', { class: 't-row-head' },
      el('strong', { 'data-testid': 'tournament-row-name', class: 't-row-name' }),
      el('span', { 'data-testid': 'tournament-row-status', class: 't-status' })),
    el('div', { class: 't-row-facts' },
      el('span', { 'data-testid': 'tournament-row-game' }),
      el('span', { 'data-testid': 'tournament-row-kind' }),
      el('span', { 'data-testid': 'tournament-row-knockout', class: 't-knockout', hidden: true }),
      el('span', { 'data-testid': 'tournament-row-entrants', class: 'num' }),
      el('span', { 'data-testid': 'tournament-row-buy-in', class: 'num' }),
      el('span', { 'data-testid': 'tournament-row-start' }),
      el('span', { 'data-testid': 'tournament-row-level' })),
    el('div', { class: 't-row-buttons' },
      el('span', { 'data-testid': 'tournament-registered', class: 't-registered', hidden: true }),
      code,
      el('button', { 'data-testid': 'tournament-register', type: 'button', onclick: () => registerTournament(x.id) }),
      el('button', { 'data-testid': 'tournament-unregister', type: 'button', onclick: () => unregisterTournament(x.id) }),
      el('button', { 'data-testid': 'tournament-open', type: 'button', onclick: () => hooks.openTournament(x.id) })),
    el('p', { 'data-testid': 'tournament-error', class: 't-error', role: 'alert', hidden: true }));
}

/** `tournament_register` (with the invite code typed, if any); the reply is
 *  `tournament_registration`, or an error shown in the row. */
export async function registerTournament(id) {
  if (!(await ensureSession())) return;
  delete state.terrors[id];
  const code = tournamentCode(id).trim();
  send({ type: 'tournament_register', tournament_id: id, invite_code: code || null }, { kind: 'tournament', tournamentId: id });
}

export async function unregisterTournament(id) {
  if (!(await ensureSession())) return;
  delete state.terrors[id];
  send({ type: 'tournament_unregister', tournament_id: id }, { kind: 'tournament', tournamentId: id });
}

/** The server took a registration change: the balance it left, and the tournament again
 *  (resolves once the rows are drawn; app.js then redraws the tournament view). */
export async function onRegistration(r) {
  if (state.me) state.me.balance = r.balance;
  renderMe();
  delete state.terrors[r.tournament_id];
  await fetchTournament(r.tournament_id);
  renderTournaments();
}

/** A refused registration: said in the tournament's row (app.js: and its view) and as a
 *  notice. */
export function onRegistrationError(m, req) {
  const text = tournamentErrorText(m);
  state.terrors[req.tournamentId] = { code: m.code, text };
  notice(text);
  renderTournaments();
}
