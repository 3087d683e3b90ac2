// The stud browser client's entry: the frame dispatcher, preferences and the page's wiring.
// The page speaks only the public protocol (proto/PROTOCOL.md): POST /api/sessions (and DELETE
// to log out), GET /api/tables, GET /api/tournaments(/{id}), the WebSocket /ws and the
// hand-history API. Plain ES modules,
// no framework, no build step; crates/server/src/http/web.rs embeds and serves every file of web/.
// The page is a thin view: it shows what the server sends and never decides a game rule.
//
// The modules form layers, each importing only from the ones below (tests/browser/
// layers.test.mjs checks it): the pure i18n.js, format.js, model.js and protocol.js; state.js;
// dom.js and net.js (the socket, which knows no view); the views, one page region each, which
// never import one another; and this file on top. Where a view needs another view (the table
// view redraws the action bar, the lobby changes the view on screen), this file passes the
// function in (configureTable, configureLobby, configureTournament), and it alone gives net.js
// its callbacks.

import { act, focusActions, onActError, onKey, promptAnnouncement, refreshTitle, renderActions, renderPreActions, stopTitleFlash, yourTurnAlert } from './actions.js';
import { onChat, renderChat, sendChat } from './chat.js';
import { $, el, isTyping, notice } from './dom.js';
import { money, ordinal } from './format.js';
import { closeLastHands, lastHandsOpen, onHistoryError, onLastHand, onLastHands, refreshLastHands, renderLastHands, renderReport, toggleLastHands } from './history.js';
import { LANGS, errorText, language, pickLanguage, setLanguage, t, tableNoticeText } from './i18n.js';
import { configureLobby, fetchTournament, login, logout, onRegistration, onRegistrationError, openPrivate, refreshLobby, registerTournament, renderLobby, renderLobbyHead, renderMe, renderTournaments, takeSeat, unregisterTournament } from './lobby.js';
import { PAGE_KEYS, applyBountyHeads, bountyText, errorScope, nextTurnTable } from './model.js';
import { configure as configureNet, connect, gotPong, send, sendHello, status, takeRequest, welcomed } from './net.js';
import { LOBBY_REFRESH_MS, TOKEN_KEY, TOURNAMENT_REFRESH_MS, prefs, savePrefs, saveTournamentTables, soundOn, state, store, tournamentTableOf, turnPending } from './state.js';
import { renderStatus } from './status.js';
import { buyInAmount, configureTable, declineOffer, enterTable, leaveAnswer, forTable, forgetTable, leaveTable, onEvent, onHandResult, onHandStarted, onScreen, onSnapshot, onTableClosed, onTurn, onYourTurn, openOfferTable, relabelLog, renderClock, renderResult, renderSeatOffer, renderSeatOfferClock, renderTable, renderTurns, seatOfferRefused, setWaitlist, showBounty, sitHere, takeOfferedSeat, toggleWaitlist, waitlistAnswered } from './table.js';
import { breakEnded, closeOffer, configureTournament, dealDropped, dealHandChanged, dealPaidText, onBreak, onDeal, onDealError, onPaused, onPurchaseError, onPurchased, proposeDeal, purchaseDropped, renderBreak, renderDeal, renderDealClock, renderOffer, renderOfferClock, renderTournamentBar, renderTournamentClocks, renderTournamentView, showOffer } from './tournament.js';

// ---- navigation ----------------------------------------------------------------------------

/** One of the lobby, a tournament's view and the table on screen (the action bar with it). */
export function showView(name) {
  $('lobby').hidden = name !== 'lobby';
  $('tournament').hidden = name !== 'tournament';
  setTournamentPanel(false);
  $('table').hidden = name !== 'table';
  $('action-bar').hidden = name !== 'table';
  document.body.dataset.view = name;
  if (name === 'lobby') refreshLobby();
  renderTurns(); // the tables' tabs (one table: shown while it is not on screen)
  renderSeatOffer(); // a seat offered: its Open button only while its table is not on screen
  // Away from the table, its turn is one waiting elsewhere: the title says where, unflashing.
  if (name !== 'table') stopTitleFlash();
  else refreshTitle();
}

/** A tournament's view: drawn from what we have, then again once its detail is fetched. At a
 *  table it is a panel over part of the table (the action bar and the keys stay live);
 *  elsewhere a view of its own. */
export function openTournament(id) {
  state.tview = id;
  const atTable = Boolean(state.table) && !$('table').hidden;
  if (atTable) {
    $('tournament').hidden = false;
    setTournamentPanel(true);
  } else {
    showView('tournament');
  }
  renderTournamentView();
  if (atTable) $('tournament-close').focus();
  fetchTournament(id).then(() => renderTournamentView());
}

function setTournamentPanel(on) {
  const view = $('tournament');
  view.classList.toggle('panel', on);
  view.dataset.mode = on ? 'panel' : 'page';
  $('tournament-close').hidden = !on;
}

export const tournamentPanelOpen = () => !$('tournament').hidden && $('tournament').dataset.mode === 'panel';

/** Closes the tournament panel (Escape, its Close button): the table as it was. */
export function closeTournamentPanel() {
  if (!tournamentPanelOpen()) return false;
  const inside = $('tournament').contains(document.activeElement);
  $('tournament').hidden = true;
  setTournamentPanel(false);
  state.tview = null;
  if (inside && !$('tournament-table-open').hidden) $('tournament-table-open').focus();
  return true;
}

/** The page's own keys (the action keys are actions.js's; model.js's PAGE_KEYS): Escape closes
 *  the panel on top; V opens or closes LAST HAND, O sits out or in again, T opens or closes the
 *  tournament panel at a tournament table. Not while typing. */
export function onPageKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const done = () => {
    e.preventDefault();
    return true;
  };
  if (e.key === 'Escape') return (lastHandsOpen() ? closeLastHands() : closeTournamentPanel()) ? done() : false;
  if (e.repeat || isTyping(e.target)) return false;
  const atTable = !$('table').hidden && state.table;
  switch (PAGE_KEYS[e.key.toLowerCase()]) {
    case 'last_hands':
      if ($('last-hand-open').disabled) return false;
      toggleLastHands();
      return done();
    case 'sit_out':
      if (!atTable || $('sit-toggle').hidden) return false;
      sitToggle(null);
      return done();
    case 'tournament':
      if (!atTable || !state.table.tournamentId) return false;
      if (!closeTournamentPanel()) openTournament(state.table.tournamentId);
      return done();
    case 'next_table': {
      // From anywhere (the lobby too): the next table where our turn waits, on screen.
      const ids = [...state.tables.keys()];
      const waiting = new Set(ids.filter((id) => turnPending(state.tables.get(id)) && !onScreen(state.tables.get(id))));
      const next = nextTurnTable(ids, onScreen(state.table) ? state.table.id : null, waiting);
      if (!next) return false;
      enterTable(next);
      return done();
    }
    default:
      return false;
  }
}

/** Auto-muck on or off for our seat at the table on screen: `auto_muck`; the box shows what we
 *  asked for until the answer. */
export function setAutoMuck(on) {
  const tb = state.table;
  if (!tb?.info?.your_seat) return;
  if (!send({ type: 'auto_muck', table_id: tb.id, on }, { kind: 'auto_muck', tableId: tb.id, on })) {
    notice(t('reconnect_try'));
    return renderTable();
  }
  tb.autoMuckWant = on;
}

/** The answer to an `auto_muck`: taken (the seat's setting is now `on`), or refused (said). */
function autoMuckAnswered(req, taken) {
  const tb = state.tables.get(req.tableId);
  if (!tb) return;
  delete tb.autoMuckWant;
  if (taken && tb.info) tb.info.auto_muck = req.on;
  if (tb === state.table) renderTable();
}

/** Sit out, or in again (`sitIn` true: in; null: the other way from now). */
export function sitToggle(sitIn) {
  const tb = state.table;
  const me = tb?.info?.seats.find((s) => s.seat === tb.info.your_seat);
  if (!me) return;
  const wantIn = sitIn ?? me.sitting_out;
  if (wantIn) state.timedOut = false;
  send({ type: wantIn ? 'sit_in' : 'sit_out', table_id: tb.id }, { kind: 'sit_toggle' });
}

// ---- the views' and the socket's callbacks -------------------------------------------------

configureNet({
  onFrame,
  // No reply to our action (or purchase) will come on a closed socket: offer it again once back.
  onClose: () => {
    for (const tb of state.tables.values()) {
      if (tb.prompt) tb.prompt.sent = false;
      // Nor to a `waitlist` or a seat offer's `sit`: their buttons work again.
      tb.waitBusy = null;
      if (tb.offer) tb.offer.busy = false;
    }
    purchaseDropped();
    dealDropped();
  },
  onStatus: renderStatus,
});
configureLobby({ showView, openTournament, openTable: (id) => enterTable(id), waitlist: setWaitlist });
configureTournament({
  register: registerTournament,
  unregister: unregisterTournament,
  refocus: () => { if (!$('action-bar').hidden) focusActions(); },
});
configureTable({
  renderActions,
  drawn: (tb) => {
    renderPreActions();
    renderChat(tb);
    renderTournamentBar();
  },
  act,
  yourTurnAlert,
  turnsChanged,
  showView,
  openTournament,
  refreshTournament: (id) => fetchTournament(id).then(() => renderTournamentBar()),
  takeSeat,
  turnDetail: promptAnnouncement,
});

/** The tables we are at, or where our turn waits, changed: the title, the sound switch (its
 *  default follows whether we hold a seat), the lobby's marks. */
function turnsChanged() {
  refreshTitle();
  renderSoundToggle();
  if (!$('lobby').hidden) renderLobby();
}

// ---- frames --------------------------------------------------------------------------------

export function onFrame(text) {
  let msg;
  try { msg = JSON.parse(text); } catch { return; }
  const handler = HANDLERS[msg.type];
  try {
    handler?.(msg);
  } catch (err) {
    // A frame our copy of the table cannot take (it missed something): start again from a
    // snapshot rather than break the page.
    console.debug('stud: resyncing after', msg.type, err);
    const tb = state.tables.get(msg.table_id) ?? state.table;
    if (tb) send({ type: 'snapshot', table_id: tb.id });
  }
}

export const HANDLERS = {
  welcome: onWelcome,
  ack: onAck,
  error: onError,
  pong: gotPong,
  snapshot: onSnapshot,
  hand_started: (m) => {
    forTable(m, onHandStarted);
    // A hand dealt at a tournament's table: its break, if one is shown, is over.
    const tid = state.tables.get(m.table_id)?.tournamentId;
    if (tid) {
      breakEnded(tid);
      dealHandChanged(tid); // Accept is held back while the hand is played
    }
  },
  event: (m) => forTable(m, onEvent),
  turn: (m) => forTable(m, onTurn),
  your_turn: (m) => forTable(m, onYourTurn),
  hand_result: (m) => {
    forTable(m, onHandResult);
    // At a tournament's final table: an open deal may be accepted now.
    const tid = state.tables.get(m.table_id)?.tournamentId;
    if (tid) dealHandChanged(tid);
    if (state.table?.id === m.table_id) refreshLastHands(m.hand_id); // LAST HAND open: the new hand in it
  },
  table_closed: onTableClosed,
  last_hands: onLastHands,
  last_hand: onLastHand,
  chat: onChat,
  tournament_seat: onTournamentSeat,
  tournament_placed: onTournamentPlaced,
  tournament_registration: (m) => {
    takeRequest(m.request_id);
    onRegistration(m.registration).then(() => renderTournamentView());
  },
  tournament_offer: onTournamentOffer,
  tournament_break: onTournamentBreak,
  tournament_purchase: onTournamentPurchase,
  tournament_bounty: onTournamentBounty,
  tournament_deal: onTournamentDeal,
  tournament_paused: onTournamentPaused,
};

/** A deal at the final table of a tournament we play in: proposed, accepted by one more, its
 *  figures moved by a hand, made or off (also the reply to our proposal or answer). The box
 *  and the view show it; the detail again (the results, once made). */
export function onTournamentDeal(m) {
  const reply = Boolean(m.request_id && takeRequest(m.request_id));
  onDeal(m, reply);
  if (m.deal.state === 'made') sendHello(); // the deal paid into our balance
  fetchTournament(m.tournament_id).then(() => {
    renderTournamentView();
    renderTournamentBar();
  });
}

/** An operator paused (or resumed) a tournament we play in: said in its view and at its table
 *  until it is resumed. */
export function onTournamentPaused(m) {
  onPaused(m);
  fetchTournament(m.tournament_id).then(() => {
    renderTournamentView();
    renderTournamentBar();
  });
}

/** A knockout tournament paid a bounty (to us, to a player at our table, or for our own head):
 *  the heads it names at once (the seats' badges, the view), the words in the hand log and the
 *  result strip when we are at that tournament's table, else as a notice; the balance again
 *  when it was paid to us; the tournament's detail again (what was won and paid). */
export function onTournamentBounty(m) {
  const entry = state.tdetails.get(m.tournament_id);
  if (entry) applyBountyHeads(entry.detail, m);
  // The log of its table (the one on screen, else one in the background and a notice too).
  const tb = onScreen(state.table) && state.table.tournamentId === m.tournament_id ? state.table : [...state.tables.values()].find((x) => x.tournamentId === m.tournament_id);
  if (tb) showBounty(tb, m);
  if (!onScreen(tb)) notice(bountyText(m, state.me?.player_id));
  if (m.player_id === state.me?.player_id) sendHello(); // paid into our balance
  const redraw = () => {
    renderTable();
    renderTournamentView();
  };
  redraw();
  fetchTournament(m.tournament_id).then(redraw);
}

/** A rebuy (we busted in the rebuy period) or the add-on (the period is over) is offered for
 *  a while: the offer box, wherever we are; the tournament's detail again (its counts). */
export function onTournamentOffer(m) {
  showOffer(m);
  fetchTournament(m.tournament_id).then(() => {
    renderOffer(); // the tournament's name, if it was not known yet
    renderTournamentView();
    renderTournamentBar(); // the add-on comes with the next level
  });
}

/** A tournament we play in goes on a break (no table deals until `until_ms`): the break
 *  notice with its countdown, wherever we are; the tournament's detail again (its view shows
 *  the break, and the level's clock starts after it). */
export function onTournamentBreak(m) {
  onBreak(m);
  fetchTournament(m.tournament_id).then(() => {
    renderTournamentView();
    renderTournamentBar();
  });
}

/** We bought a rebuy or the add-on: the box goes, a notice says what and the balance left. A
 *  rebuy after a bust seats us again (`tournament_seat`, reason rebuy), a playing one adds the
 *  chips when the hand at our table ends. */
export function onTournamentPurchase(m) {
  takeRequest(m.request_id);
  const p = m.purchase;
  if (state.me) state.me.balance = p.balance;
  renderMe();
  onPurchased(p);
  const text = t(p.kind === 'addon' ? 't_bought_addon' : 't_bought_rebuy', { chips: money(p.chips, 'chips'), fee: money(p.fee, 'cash'), balance: money(p.balance, 'cash') });
  if (p.kind === 'rebuy') rebuyNotice(p.tournament_id, 'purchase', text);
  else notice(text);
  fetchTournament(p.tournament_id).then(() => {
    renderTournamentView();
    renderTournamentBar();
  });
}

/** A rebuy after a bust is answered twice, `tournament_purchase` and `tournament_seat` (reason
 *  rebuy), in either order: one notice says both (what was bought, the balance, the seat). */
let rebuyNote = null; // {tournamentId, at, purchase, seat}: the parts said in the last 3 s
function rebuyNotice(tournamentId, part, text) {
  const at = Date.now();
  if (rebuyNote?.tournamentId !== tournamentId || at - rebuyNote.at > 3000) rebuyNote = { tournamentId, at };
  rebuyNote[part] = text;
  notice([rebuyNote.purchase, rebuyNote.seat].filter(Boolean).join(' '));
}

/** The tournament seated or moved us: go to that table without a reload. Which tournament a
 *  table belongs to is remembered (a table's snapshot does not say), so a reload finds it. */
export function onTournamentSeat(m) {
  for (const [table, tid] of Object.entries(state.tournamentTables)) if (tid === m.tournament_id) delete state.tournamentTables[table];
  state.tournamentTables[m.table_id] = m.tournament_id;
  saveTournamentTables();
  // The table it moved us from deals us no more hands; the one it seats us at starts afresh.
  if (m.from_table_id) forgetTable(m.from_table_id);
  forgetTable(m.table_id);
  enterTable(m.table_id);
  send({ type: 'join_table', table_id: m.table_id, invite_code: null }, { kind: 'rejoin', tableId: m.table_id });
  if (m.reason === 'rebuy') rebuyNotice(m.tournament_id, 'seat', t('tournament_seat_rebuy', { table: m.table_no, seat: m.seat }));
  else notice(t('tournament_seat', { table: m.table_no, seat: m.seat }));
  fetchTournament(m.tournament_id).then(() => renderTournamentBar());
}

/** Our entry finished: the place and prize, at the table (if we are at one of its tables)
 *  and as a notice; the prize is already in the balance. */
export function onTournamentPlaced(m) {
  state.placed[m.tournament_id] = { place: m.place, prize: m.prize };
  closeOffer(m.tournament_id); // nothing more to buy there
  const paid = dealPaidText(m.tournament_id); // a deal made paid us besides the prize
  notice(`${t('tournament_placed', { place: ordinal(m.place), prize: money(m.prize, 'cash') })}${paid ? ` ${paid}` : ''}`);
  sendHello(); // the balance changed
  renderTournamentBar();
  fetchTournament(m.tournament_id).then(() => {
    renderTournamentBar();
    renderTournamentView();
  });
}

/** Back to the table a tournament seated us at (from its view). */
export function toTournamentTable(id) {
  const table = tournamentTableOf(id);
  if (!table) return;
  enterTable(table);
  send({ type: 'join_table', table_id: table, invite_code: null }, { kind: 'rejoin', tableId: table });
}

export function onWelcome(m) {
  state.me = m;
  const again = welcomed(true); // the status says connected; a login waiting goes on
  renderMe();
  if (again) resubscribe();
}

/** After a reconnect: a seated player is put back by the server (snapshot, then the prompt);
 *  we ask for a snapshot anyway in case the seat is gone. An observer joins again. */
export function resubscribe() {
  for (const t of state.tables.values()) {
    if (t.info?.your_seat) send({ type: 'snapshot', table_id: t.id });
    else send({ type: 'join_table', table_id: t.id, invite_code: t.code ?? null }, { kind: 'rejoin', tableId: t.id });
  }
}

export function onAck(m) {
  const req = takeRequest(m.request_id);
  if (!req) return;
  if (req.kind === 'sit' && !onScreen(state.tables.get(req.tableId))) enterTable(req.tableId, req.code);
  if (['sit', 'leave', 'top_up'].includes(req.kind)) sendHello(); // the balance changed
  if (req.kind === 'leave' && req.tableId) leaveAnswer(req.tableId);
  if (req.kind === 'auto_muck') autoMuckAnswered(req, true);
  // "Join waiting list" in the lobby: watching now, so on the list.
  if (req.kind === 'watch' && req.waitlist) setWaitlist(req.tableId, true);
  if (req.kind === 'waitlist') waitlistAnswered(req, m, true);
}

export function onError(m) {
  const req = takeRequest(m.request_id);
  if (!req) return onSessionError(m);
  if (req.kind === 'act') return onActError(m, req);
  if (req.kind === 'tournament') {
    onRegistrationError(m, req);
    return renderTournamentView();
  }
  if (req.kind === 'purchase') return onPurchaseError(m, req);
  if (req.kind === 'deal') return onDealError(m, req);
  if (req.kind === 'auto_muck') autoMuckAnswered(req, false);
  if (req.kind === 'waitlist') return waitlistAnswered(req, m, false);
  if (req.kind === 'sit' && req.from === 'offer') return seatOfferRefused(m, req);
  if (req.kind === 'sit' && m.code === 'already_seated') {
    if (!onScreen(state.tables.get(req.tableId))) enterTable(req.tableId, req.code);
    send({ type: 'snapshot', table_id: req.tableId });
    return;
  }
  if (req.kind === 'sit' && !state.tables.has(req.tableId)) {
    // `sit` subscribed this socket to the table first: stop watching it again.
    send({ type: 'leave', table_id: req.tableId });
  }
  if (req.kind === 'watch') state.pending = null;
  if (req.kind === 'rejoin' && state.tables.has(req.tableId)) {
    // The table is gone (closed, or we may no longer watch it).
    const shown = onScreen(state.tables.get(req.tableId));
    forgetTable(req.tableId);
    if (shown) showView('lobby');
  }
  if (req.kind === 'history') return onHistoryError(m, req);
  // A sit refused because every free seat is offered to the waiting list: says so.
  const waitingThere = state.tables.get(req.tableId)?.info?.waiting ?? state.lobby.find((x) => x.id === req.tableId)?.waiting ?? 0;
  if (req.kind === 'sit' && m.code === 'table_full' && (waitingThere > 0 || /waiting list/i.test(m.message ?? ''))) return notice(t('err_seat_reserved'));
  notice(errorText(m));
}

/** Errors without a request (model.js errorScope): a table's notice (that table only), the
 *  handshake (the session refused), or the server's limits. */
export function onSessionError(m) {
  const scope = errorScope(m, Boolean(state.me));
  if (scope === 'table') return onTableNotice(m);
  if (scope === 'session') {
    store.removeItem(TOKEN_KEY);
    state.token = null;
    state.me = null;
    renderMe();
    welcomed(false);
  } else if (scope === 'retry') {
    setTimeout(sendHello, 2000);
  } else if (scope === 'rate_limited') {
    // An action of ours may have been dropped: offer it again.
    for (const tb of state.tables.values()) if (tb.prompt?.sent) tb.prompt.sent = false;
    renderActions();
    renderTurns();
  }
  notice(errorText(m));
}

/** A table's notice (an `error` with `table_id`, answering no request): an operator removed us
 *  from that table, or its access tightened (made private, observers off) and its watchers
 *  were dropped. That table is gone from this socket: the page forgets it (back to the lobby
 *  if it was on screen, its tab gone) and never takes it back from a later snapshot; the
 *  session, the balance and every other table go on. Said in the player's words. */
export function onTableNotice(m) {
  const id = m.table_id;
  const tb = state.tables.get(id);
  const name = tb?.info?.name ?? state.lobby.find((x) => x.id === id)?.name ?? '';
  const seated = tb?.info?.your_seat != null;
  if (state.pending?.tableId === id) state.pending = null;
  state.left.add(id); // a seat kept until its hand ends is not pulled back in by a snapshot
  if (tb) {
    const shown = onScreen(tb);
    forgetTable(id);
    if (shown) showView('lobby');
  }
  // The stack is cashed out: the balance again (a server-wide ban, which removes a player
  // from every table first, refuses this hello: forbidden without table_id, the session ends).
  if (seated) sendHello();
  notice(tableNoticeText(m, name));
}


// ---- preferences: language, deck, sound ----------------------------------------------------

/** Every fixed label in the page (data-i18n, -placeholder, -aria) in the current language. */
export function applyTranslations() {
  document.documentElement.lang = language();
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll('[data-i18n-placeholder]')) node.placeholder = t(node.dataset.i18nPlaceholder);
  for (const node of document.querySelectorAll('[data-i18n-aria]')) node.setAttribute('aria-label', t(node.dataset.i18nAria));
  for (const node of document.querySelectorAll('[data-i18n-title]')) node.title = t(node.dataset.i18nTitle);
  $('lang').setAttribute('aria-label', t('language'));
  renderSoundToggle();
  renderStatus(status());
}

/** The sound switch: on or off as the sounds are now (the player's choice, else on while
 *  seated at a table and off for an observer). */
export function renderSoundToggle() {
  const on = soundOn();
  const sound = $('sound-toggle');
  sound.setAttribute('aria-pressed', String(on));
  sound.title = on ? t('sound_on') : t('sound_off');
  sound.classList.toggle('muted-sound', !on);
}

export function switchLanguage(code) {
  setLanguage(code);
  prefs.lang = language();
  savePrefs();
  $('lang').value = language();
  applyTranslations();
  renderLobbyHead();
  renderLobby();
  renderTournaments();
  renderTournamentView();
  renderTournamentBar();
  renderOffer();
  renderBreak();
  renderDeal();
  renderSeatOffer();
  renderMe();
  relabelLog();
  renderTable();
  renderActions();
  if (state.table?.result) renderResult(state.table);
  if (lastHandsOpen()) {
    renderLastHands();
    renderReport();
  }
}

// ---- wiring --------------------------------------------------------------------------------

export function init() {
  setLanguage(pickLanguage(prefs.lang, navigator.languages ?? [navigator.language]));
  $('lang').replaceChildren(...Object.entries(LANGS).map(([code, label]) => el('option', { value: code, lang: code, text: label })));
  $('lang').value = language();
  $('lang').addEventListener('change', (e) => switchLanguage(e.target.value));
  $('four-colour').checked = prefs.fourColour;
  document.body.classList.toggle('four-colour', prefs.fourColour);
  $('four-colour').addEventListener('change', (e) => {
    prefs.fourColour = e.target.checked;
    savePrefs();
    document.body.classList.toggle('four-colour', prefs.fourColour);
  });
  $('sound-toggle').addEventListener('click', () => {
    prefs.sound = !soundOn();
    savePrefs();
    renderSoundToggle();
  });
  for (const [id, key] of [['filter-variant', 'variant'], ['filter-stakes', 'stakes'], ['filter-players', 'players']]) {
    $(id).addEventListener('change', (e) => {
      prefs.lobby[key] = e.target.value;
      savePrefs();
      renderLobby();
    });
  }
  $('login').addEventListener('submit', (e) => {
    e.preventDefault();
    login($('name').value.trim() || t('guest'));
  });
  $('private').addEventListener('submit', (e) => {
    e.preventDefault();
    // A tournament's id shows its lobby row (the code in its box); else a table, watched.
    openPrivate($('invite-table').value.trim(), $('invite-code').value.trim());
  });
  $('leave').addEventListener('click', () => leaveTable());
  // The lobby while seated: every seat is kept, and the socket keeps every table's frames.
  $('to-lobby').addEventListener('click', () => showView('lobby'));
  $('logout').addEventListener('click', () => {
    for (const tb of [...state.tables.values()]) leaveTable(tb); // every table we are at first
    closeOffer();
    state.breaks = {};
    renderBreak();
    Object.assign(state, { dealFrames: {}, dealClosed: {}, dealBusy: null, dealErrors: {}, pausedFrames: {} });
    renderDeal();
    logout();
  });
  $('chat-form').addEventListener('submit', sendChat);
  $('sit-toggle').addEventListener('click', () => sitToggle(null));
  $('auto-muck').addEventListener('change', (e) => setAutoMuck(e.target.checked));
  $('im-back').addEventListener('click', () => sitToggle(true));
  $('table-sit').addEventListener('click', () => sitHere(null));
  $('waitlist-toggle').addEventListener('click', toggleWaitlist);
  $('seat-offer-take').addEventListener('click', takeOfferedSeat);
  $('seat-offer-decline').addEventListener('click', declineOffer);
  $('seat-offer-open').addEventListener('click', openOfferTable);
  $('seat-offer-buy-in').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    takeOfferedSeat();
  });
  $('top-up').addEventListener('click', () => {
    const amount = buyInAmount();
    if (Number.isNaN(amount)) return notice(t('err_buy_in_out_of_range'));
    send({ type: 'top_up', table_id: state.table.id, amount }, { kind: 'top_up' });
  });
  $('last-hand-open').addEventListener('click', toggleLastHands);
  $('tournament-back').addEventListener('click', () => {
    state.tview = null;
    showView('lobby');
  });
  $('tournament-my-table').addEventListener('click', () => toTournamentTable(state.tview));
  $('deal-propose').addEventListener('submit', (e) => {
    e.preventDefault();
    proposeDeal(state.tview);
  });
  // At the final table: the tournament panel, at its deal form.
  $('tournament-table-deal').addEventListener('click', () => {
    if (!state.table?.tournamentId) return;
    openTournament(state.table.tournamentId);
    if (!$('deal-propose').hidden) $('deal-method').focus();
  });
  for (const id of ['tournament-table-open', 'tournament-out-open']) $(id).addEventListener('click', () => state.table?.tournamentId && openTournament(state.table.tournamentId));
  $('last-hand-close').addEventListener('click', closeLastHands);
  $('tournament-close').addEventListener('click', closeTournamentPanel);
  for (const mark of document.querySelectorAll('[data-turn-mark]')) mark.addEventListener('click', focusActions);
  document.addEventListener('keydown', (e) => onPageKey(e) || onKey(e));

  applyTranslations();
  renderLobbyHead();
  renderMe();
  showView('lobby');
  // The table fills the window between the top bar (and the notices) and the action bar.
  const measure = () => {
    const h = (id) => ($(id).hidden ? 0 : $(id).getBoundingClientRect().height);
    const root = document.documentElement.style;
    const boxes = h('sat-out') + (h('sat-out') ? 8 : 0) + h('tournament-out') + (h('tournament-out') ? 8 : 0);
    // The offer box and the break notice are in the flow above the views (each with its
    // margin: 8 px above it).
    const offer = h('tournament-offer') + (h('tournament-offer') ? 8 : 0) + h('seat-offer') + (h('seat-offer') ? 8 : 0) + h('tournament-break') + (h('tournament-break') ? 8 : 0) + h('tournament-deal') + (h('tournament-deal') ? 8 : 0) + h('table-tabs') + (h('table-tabs') ? 8 : 0);
    root.setProperty('--top-h', `${Math.ceil(document.querySelector('.topbar').getBoundingClientRect().height + h('banner') + offer + boxes)}px`);
    root.setProperty('--head-h', `${Math.ceil(document.querySelector('.table-head').getBoundingClientRect().height || 40)}px`);
    root.setProperty('--bar-h', `${Math.ceil(h('action-bar') || 56)}px`);
  };
  const observer = new ResizeObserver(measure);
  for (const node of [document.querySelector('.topbar'), document.querySelector('.table-head'), $('action-bar'), $('banner'), $('tournament-offer'), $('seat-offer'), $('tournament-break'), $('tournament-deal'), $('table-tabs'), $('sat-out'), $('tournament-out')]) observer.observe(node);
  window.addEventListener('resize', measure);
  measure();
  setInterval(() => {
    if (!$('lobby').hidden) refreshLobby();
  }, LOBBY_REFRESH_MS);
  setInterval(renderClock, 250);
  setInterval(renderTournamentClocks, 250);
  setInterval(renderOfferClock, 250);
  setInterval(renderSeatOfferClock, 250);
  setInterval(renderBreak, 250);
  setInterval(renderDealClock, 250);
  // The tournament on screen (its view, or the one whose table we are at), fetched again.
  setInterval(() => {
    const id = $('tournament').hidden ? null : state.tview;
    if (id) fetchTournament(id).then(() => renderTournamentView());
    const tid = $('table').hidden ? null : state.table?.tournamentId;
    if (tid && tid !== id) fetchTournament(tid).then(() => renderTournamentBar());
  }, TOURNAMENT_REFRESH_MS);
  if (state.token) connect();
}

if (typeof document !== 'undefined' && typeof window !== 'undefined') init();
