// The table view's state from snapshots and events, the result strip and the hand log.

import { act, renderActions, setPrompt, yourTurnAlert } from './actions.js';
import { clearChat } from './chat.js';
import { send, sendHello } from './connection.js';
import { displayOf, setMoneyMode } from './format.js';
import { t } from './i18n.js';
import { fetchTournament, openTournament, renderTournamentBar, showView } from './lobby.js';
import { applyEvent, awardLine, describeEvent, emptyView, lineClass, namer, preActionChoice } from './model.js';
import { $, cardElement, el, notice, now, renderTable } from './render.js';
import { LOG_LINES_KEPT, RESULT_HOLD_MS, savePrivates, state } from './state.js';

// ---- the table: state from snapshots and events --------------------------------------------

export function enterTable(id, code) {
  state.pending = null;
  state.prompt = null;
  state.pre = null;
  state.timedOut = false;
  // tournamentId: the tournament whose table this is (remembered from its `tournament_seat`).
  state.table = { id, code: code ?? null, seq: 0, info: null, hand: null, resyncing: false, log: { deals: [], entries: [] }, result: null, tournamentId: state.tournamentTables[id] ?? null };
  $('log').replaceChildren();
  clearChat();
  $('table-buy-in').value = '';
  $('result').hidden = true;
  renderActions();
  $('table').dataset.tableId = id;
  showView('table');
}

export function leaveTable() {
  const t = state.table;
  if (!t) return;
  send({ type: 'leave', table_id: t.id }, { kind: 'leave' });
  state.left.add(t.id);
  state.table = null;
  state.prompt = null;
  renderActions();
  showView('lobby');
}

export function onTableClosed(m) {
  if (state.table?.id !== m.table_id) return;
  const tournament = state.table.tournamentId;
  state.table = null;
  state.prompt = null;
  renderActions();
  sendHello();
  // A tournament's table closes when it breaks (its players were moved first) or at the end:
  // the tournament's view, with its results.
  if (tournament) return openTournament(tournament);
  notice(t('table_closed'));
  showView('lobby');
}

/** Frames about the table on screen, in sequence: a gap means we missed a broadcast, so we ask
 *  for a fresh snapshot (and apply what comes meanwhile; the snapshot overrides it). */
export function forTable(m, handler) {
  const tb = state.table;
  if (!tb || tb.id !== m.table_id) return;
  const resent = m.type === 'your_turn' && m.seq === tb.seq; // a prompt re-sent after reconnecting
  if (m.seq <= tb.seq && !resent) return;
  if (m.seq > tb.seq + 1 && !tb.resyncing) {
    tb.resyncing = true;
    send({ type: 'snapshot', table_id: tb.id });
  }
  tb.seq = Math.max(tb.seq, m.seq);
  handler(m, tb);
  renderTable();
}

/** The names of the seats: the hand's (as they were when it began), then the table's. */
export function seatNames(tb) {
  const names = {};
  for (const s of tb.info?.seats ?? []) names[s.seat] = s.name;
  return { ...names, ...(tb.hand?.names ?? {}) };
}
export const whoAt = (tb) => (seat) => namer(seatNames(tb))(seat);

export function onSnapshot(m) {
  let tb = state.table;
  const adopt = !tb && !state.left.has(m.table_id) && m.table.your_seat != null; // after a page reload
  if (!tb && (state.pending?.tableId === m.table_id || adopt)) {
    enterTable(m.table_id, state.pending?.code ?? state.privates[m.table_id]?.code);
    tb = state.table;
  }
  if (!tb || tb.id !== m.table_id) {
    // A table we left during a hand: the seat stays until the hand is over (and a `hello`
    // subscribes a held seat again). Once it is cashed out, stop watching and get the balance.
    if (state.left.has(m.table_id) && m.table.your_seat == null) {
      send({ type: 'leave', table_id: m.table_id });
      sendHello();
    }
    return;
  }
  tb.seq = m.seq;
  tb.resyncing = false;
  tb.info = m.table;
  setMoneyMode(displayOf(m.table));
  const h = m.table.hand;
  const fresh = h && tb.loggedHand !== h.hand_id && h.view.phase !== 'over';
  const old = tb.hand;
  const names = h && tb.hand?.id === h.hand_id ? { ...nameMap(m.table.seats), ...tb.hand.names } : nameMap(m.table.seats);
  tb.hand = h && {
    id: h.hand_id, number: h.number, view: h.view, toAct: h.view.to_act ?? null, names,
    deadlineAt: h.deadline_ms == null ? null : now() + h.deadline_ms, deadlineTotal: h.deadline_ms ?? null,
    bankMs: h.time_bank_ms ?? null,
  };
  // A snapshot's view does not say who brought in (unless the server adds `bring_in`): keep
  // what the events said, this street.
  if (h && h.view.bring_in != null && h.view.street === 'third') {
    for (const s of h.view.seats) s.brought_in = s.seat === h.view.bring_in;
  } else if (h && old?.id === h.hand_id && h.view.street === 'third') {
    for (const s of h.view.seats) s.brought_in = old.view.seats.find((x) => x.seat === s.seat)?.brought_in ?? false;
  }
  if (fresh) {
    // Joining mid-hand (or after a reload): the hand so far, if the server sends its events
    // (`HandState.events`, redacted for this viewer), else a line saying it is in progress.
    tb.loggedHand = h.hand_id;
    addLog(() => t('log_hand_progress', { number: h.number }), 'hand-start');
    if (Array.isArray(h.events)) {
      const ctx = { deals: [] };
      for (const ev of h.events) for (const line of describeEvent(ev, ctx, whoAt(tb))) addLog(line, lineClass(ev));
      tb.log.deals = ctx.deals;
    }
  }
  // The server's pots, split only at all-in levels; a finished hand's are the pots awarded,
  // already in the winners' stacks, so the middle of the table is empty.
  if (h && Array.isArray(h.pots)) h.view.pots = h.view.phase === 'over' ? [] : h.pots;
  if (h?.hand_strength) tb.hand.strength = h.hand_strength;
  // The snapshot carries our legal actions: a prompt can be rebuilt from it (seq = now).
  const legal = h?.view.legal_actions ?? [];
  if (h && legal.length && h.view.to_act === m.table.your_seat) {
    const bankMs = state.prompt?.handId === h.hand_id ? state.prompt.bankMs : null;
    setPrompt({ handId: h.hand_id, seq: m.seq, legal, bankMs, toCall: h.to_call ?? null, bringIn: h.bring_in_amount ?? null, sent: false });
  } else {
    setPrompt(null);
  }
  const me = m.table.seats.find((s) => s.seat === m.table.your_seat);
  if (tb.code) rememberPrivate(tb);
  if ($('table-buy-in').value === '') $('table-buy-in').value = m.table.min_buy_in;
  renderTable();
}

export const nameMap = (seats) => Object.fromEntries((seats ?? []).map((s) => [s.seat, s.name]));

/** A private table joined with its code gets a lobby row like any other. */
export function rememberPrivate(tb) {
  const i = tb.info;
  state.privates[tb.id] = {
    code: tb.code,
    summary: {
      name: i.name, variant: i.config.variant, config: i.config, min_buy_in: i.min_buy_in,
      max_buy_in: i.max_buy_in, seats_taken: i.seats.length, players: i.seats.map((s) => s.name),
    },
  };
  savePrivates();
}

export function onHandStarted(m, tb) {
  const variant = tb.info?.config.variant ?? 'stud';
  const names = nameMap(tb.info?.seats);
  tb.hand = { id: m.hand_id, number: m.number, toAct: null, deadlineAt: null, names, view: emptyView(variant) };
  tb.loggedHand = m.hand_id;
  tb.log.deals = [];
  state.pre = null;
  state.timedOut = false;
  setPrompt(null);
  // The last result stays up at least RESULT_HOLD_MS.
  const r = tb.result;
  if (r) {
    setTimeout(() => {
      if (tb.result !== r) return;
      tb.result = null;
      $('result').hidden = true;
      $('result').dataset.hiddenAt = String(Date.now());
    }, Math.max(0, r.at + RESULT_HOLD_MS - now()));
  }
  addLog(() => `${t('log_hand', { number: m.number })} · ${m.commitment.slice(0, 12)}…`, 'hand-start');
  // A new level applies from a new hand: the tournament's level and clock again, and a
  // snapshot for the stakes and the game (a level, or a rotation, changes the table's config,
  // which `hand_started` does not carry).
  if (tb.tournamentId) {
    send({ type: 'snapshot', table_id: tb.id });
    fetchTournament(tb.tournamentId).then(() => renderTournamentBar());
  }
}

export const ACTION_EVENTS = ['bring_in', 'complete', 'bet', 'raise', 'call', 'check', 'fold', 'mucked', 'shown'];

export function onEvent(m, tb) {
  if (!tb.hand || tb.hand.id !== m.hand_id) return;
  const ev = m.event;
  const betBefore = tb.hand.view.current_bet;
  if (m.hand_code) ev.code = m.hand_code; // the shown or winning hand as a code, for any language
  if (!applyEvent(tb.hand.view, ev, m.pots)) {
    send({ type: 'snapshot', table_id: tb.id }); // an event for a seat we do not know: resync
    return;
  }
  for (const line of describeEvent(ev, tb.log, whoAt(tb))) addLog(line, lineClass(ev));
  // Someone acted (or the clock did for them): nobody is to act until the next prompt.
  if (ACTION_EVENTS.includes(ev.event)) {
    if (tb.hand.toAct === ev.seat) {
      tb.hand.toAct = null;
      tb.hand.deadlineAt = null;
    }
    if (ev.seat === tb.info?.your_seat) {
      // Our prompt was still open and unanswered: the clock acted for us.
      if (state.prompt && !state.prompt.sent && ev.event !== 'shown') state.timedOut = true;
      setPrompt(null);
    }
  }
  // A ticked "check" no longer means the same once the bet changes; a new street starts fresh.
  if (state.pre && (ev.event === 'street_started' || (state.pre.kind === 'check' && tb.hand.view.current_bet !== betBefore))) state.pre = null;
  if (ev.event === 'award') showResult(tb, ev);
  if (ev.event === 'hand_ended') endHand(tb, ev.stacks);
}

export function onTurn(m, tb) {
  if (!tb.hand || tb.hand.id !== m.hand_id) return;
  tb.hand.toAct = m.seat;
  tb.hand.deadlineAt = now() + m.deadline_ms;
  tb.hand.deadlineTotal = m.deadline_ms;
  tb.hand.bankMs = m.time_bank_ms ?? null;
  if (m.seat !== tb.info?.your_seat) setPrompt(null);
}

export function onYourTurn(m, tb) {
  if (!tb.hand || tb.hand.id !== m.hand_id) return;
  tb.hand.toAct = tb.info?.your_seat ?? null;
  tb.hand.deadlineAt = now() + m.deadline_ms;
  tb.hand.deadlineTotal = m.deadline_ms;
  tb.hand.bankMs = m.time_bank_ms;
  if (m.hand_strength) tb.hand.strength = m.hand_strength;
  const fresh = state.prompt?.seq !== m.seq;
  setPrompt({ handId: m.hand_id, seq: m.seq, legal: m.legal, bankMs: m.time_bank_ms, toCall: m.to_call ?? null, bringIn: m.bring_in_amount ?? null, sent: false });
  // A ticked box answers at once with one of the legal actions; else the buttons, a sound.
  const auto = (state.autoBringIn && preActionChoice('bring_in', m.legal)) || (state.pre && preActionChoice(state.pre.kind, m.legal));
  if (state.pre) state.pre = null;
  if (auto) return act(auto);
  if (fresh) yourTurnAlert();
}

export function onHandResult(m, tb) {
  endHand(tb, m.stacks);
}

/** The hand is over: nobody to act; the seats' stacks are the final ones. */
export function endHand(tb, stacks) {
  if (tb.hand) {
    tb.hand.toAct = null;
    tb.hand.deadlineAt = null;
  }
  state.pre = null;
  setPrompt(null);
  if (tb.result && tb.result.handId === tb.hand?.id) {
    // data-ended-at / data-hidden-at (ms since the epoch) show how long the result stayed up.
    tb.result.at = now();
    $('result').dataset.endedAt = String(Date.now());
  }
  for (const [seat, stack] of stacks) {
    const info = tb.info?.seats.find((s) => s.seat === seat);
    if (info) info.stack = stack;
  }
}

/** The result strip in the middle: who won what with which hand, and the cards shown; it stays
 *  at least RESULT_HOLD_MS, into the next hand. */
export function showResult(tb, award) {
  const hand = tb.hand;
  if (!tb.result || tb.result.handId !== hand.id) tb.result = { handId: hand.id, awards: [], at: now() };
  tb.result.awards.push(award);
  tb.result.at = now();
  renderResult(tb);
}

export function renderResult(tb) {
  const r = tb.result;
  const box = $('result');
  if (!r) return;
  const who = whoAt(tb);
  const view = tb.hand?.id === r.handId ? tb.hand.view : null;
  if (box.dataset.handId !== r.handId) {
    box.dataset.handId = r.handId;
    delete box.dataset.hiddenAt;
    delete box.dataset.endedAt;
  }
  box.replaceChildren(...r.awards.map((a) => {
    const sv = view?.seats.find((s) => s.seat === a.seat);
    const cards = sv?.shown ? el('span', { class: 'mini-cards' }, sv.cards.map((c) => cardElement({ card: c.card, up: true }, 'mini'))) : null;
    return el('div', { class: 'result-line', 'data-testid': 'result-line', 'data-seat': a.seat }, el('span', { text: awardLine(a, who)() }), cards);
  }));
  box.hidden = false;
}

// ---- the hand log --------------------------------------------------------------------------

export function addLog(fn, cls = '') {
  const tb = state.table;
  const log = $('log');
  const stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 20; // follow unless scrolled up
  const line = el('div', { 'data-testid': 'log-line', class: `log-line ${cls}`, text: fn() });
  line.render = fn;
  log.append(line);
  while (log.childElementCount > LOG_LINES_KEPT) log.firstElementChild.remove();
  if (stick) log.scrollTop = log.scrollHeight;
  if (tb) tb.log.entries = null; // the DOM keeps the lines (and how to say them again)
}

/** After a language switch: every log line said again in the new language. */
export function relabelLog() {
  for (const line of $('log').children) if (line.render) line.textContent = line.render();
}
