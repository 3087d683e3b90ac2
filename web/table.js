// The table view: its state from snapshots and events, the table drawn (seats, pot, clock,
// strength line), the result strip and the hand log. What belongs to other views (the action
// bar, the chat, the tournament line, which view is on screen, taking a seat) it reaches
// through the callbacks app.js passes in (configureTable), never by importing them.

import { $, awardCardsElement, cardElement, chips, el, markCard, notice, now, playSound, seconds, setText } from './dom.js';
import { amountToBox, bettingName, boxToAmount, displayOf, limits, money, ordinal, setMoneyMode, stakesLine, strengthName, translateHand, variantName } from './format.js';
import { errorText, t, waitlistErrorText } from './i18n.js';
import { applyEvent, awardLine, bountyText, cardPart, clockFace, declarationTag, describeEvent, emptyView, headOf, lineClass, namer, preActionChoice, seatDeclaration, seatHandName, seatPlayed, seatPoint, seatPosition, soundFor, streetName, waitlistAck, waitlistView } from './model.js';
import { send, sendHello } from './net.js';
import { seqDecision } from './protocol.js';
import { LOG_LINES_KEPT, RESULT_HOLD_MS, savePrivates, state, tournamentDetail, turnPending } from './state.js';

const hooks = {
  renderActions: () => {},     // the prompt changed (or the table did): the action bar again
  drawn: () => {},             // (tb): the table was drawn: the pre-action boxes, chat, tournament line
  act: () => {},               // (action, tb): a ticked pre-action box answers the prompt
  yourTurnAlert: () => {},     // a new prompt: the sound and the title
  showView: () => {},          // (name)
  openTournament: () => {},    // (id): the tournament's view (its table closed)
  refreshTournament: () => {}, // (id): fetch the tournament again, then its line at the table
  takeSeat: () => {},          // (tableId, buyIn, code, seat)
  turnDetail: () => '',        // our turn in words: the amount to call, the legal actions
  turnsChanged: () => {},      // the tables we are at, or whose turn is ours, changed: the lobby's marks, the title
};

/** app.js's part: what the table view asks of the other views. */
export function configureTable(options) {
  Object.assign(hooks, options);
}

/** A table's prompt (or none); the action bar is drawn again only when the prompt of the table
 *  on screen changed. */
export function setPrompt(prompt, tb = state.table) {
  if (!tb) return;
  const same = JSON.stringify(prompt) === JSON.stringify(tb.prompt);
  tb.prompt = prompt;
  if (!same && tb === state.table) hooks.renderActions();
}

// ---- the tables: state from snapshots and events -------------------------------------------
//
// Multi-tabling (issue 31 item 8): one socket joins every table the page is at (seated or
// watching; the server keeps each subscription), and the page keeps a copy of each of them
// (state.tables), fed by its frames whether it is on screen or not: its hand, prompt,
// pre-action boxes, hand log and chat lines. One of them is drawn (state.table); the others
// are tabs above it (table-tabs), each saying when its turn is ours, as do the title, a live
// region and the lobby's rows. Going to the lobby keeps every seat.

/** Whether a table is the one on screen. */
export const onScreen = (tb) => Boolean(tb) && tb === state.table && !$('table').hidden;

/** A page region of a table of its own (its hand log, its chat lines): a copy of the element
 *  on screen without its children; one table's is in the page at a time (showTable). */
const regionLike = (id) => {
  const node = $(id).cloneNode(false);
  node.replaceChildren();
  return node;
};

function newTable(id, code) {
  // tournamentId: the tournament whose table this is (remembered from its `tournament_seat`).
  return {
    id, code: code ?? null, seq: 0, info: null, hand: null, resyncing: false, log: { deals: [], entries: [] }, result: null,
    tournamentId: state.tournamentTables[id] ?? null, prompt: null, pre: null, autoBringIn: false, timedOut: false,
    logEl: regionLike('log'), chatEl: regionLike('chat-lines'),
    // The waiting list: offer (a seat offered to us: {until: now() when it lapses, said, busy,
    // error}), waitBusy (the `on` of a `waitlist` awaiting its answer, else null), waitLeaving
    // (we asked to leave the list: its snapshot without `wait` is no lapsed offer).
    offer: null, waitBusy: null, waitLeaving: false,
  };
}

/** The table `id` on screen: the one the page is at already, else a new one (a fresh copy
 *  that its snapshot fills). */
export function enterTable(id, code) {
  state.pending = null;
  let tb = state.tables.get(id);
  if (!tb) {
    tb = newTable(id, code);
    state.tables.set(id, tb);
  } else if (code && !tb.code) {
    tb.code = code;
  }
  showTable(tb);
}

/** Puts a table the page is at on screen: its log and chat lines in place of the last one's,
 *  its result strip, its prompt in the action bar. */
export function showTable(tb) {
  const before = state.table;
  state.table = tb;
  if (tb.info) setMoneyMode(displayOf(tb.info));
  swapRegion('log', tb.logEl, t('hand_log'));
  swapRegion('chat-lines', tb.chatEl, t('chat'));
  relabelLog();
  tb.logEl.scrollTop = tb.logEl.scrollHeight;
  if (before !== tb) {
    $('table-buy-in').value = '';
    delete $('table-buy-in').dataset.mode;
  }
  $('result').hidden = true;
  hooks.renderActions();
  $('table').dataset.tableId = tb.id;
  hooks.showView('table');
  if (tb.info) {
    tb.quiet = true; // what it shows now is no news: nothing moves
    try {
      renderTable();
    } finally {
      tb.quiet = false;
    }
    if (tb.result) renderResult(tb);
  }
  renderTurns();
}

/** Puts a table's own region (hand log, chat lines) in the page where the one of that id is. */
function swapRegion(id, node, label) {
  const current = $(id);
  node.setAttribute('aria-label', label);
  if (current === node) return;
  node.id = id;
  current.replaceWith(node);
}

/** Forgets a table (left, closed, or the tournament moved us): no more of its frames are read. */
export function forgetTable(id) {
  const tb = state.tables.get(id);
  if (!tb) return null;
  state.tables.delete(id);
  if (state.table === tb) {
    state.table = null;
    hooks.renderActions();
  }
  renderTurns();
  return tb;
}

/** Leaves a table (the one on screen unless another is given): its seat is cashed out once any
 *  hand in play is over. */
export function leaveTable(tb = state.table) {
  if (!tb) return;
  // Off its waiting list first: a player who no longer watches the table would not hear of
  // the seat offered (the server keeps a waiter who stops watching on the list).
  if (tb.info?.wait) send({ type: 'waitlist', table_id: tb.id, on: false }, { kind: 'waitlist', tableId: tb.id, on: false, quiet: true });
  send({ type: 'leave', table_id: tb.id }, { kind: 'leave', tableId: tb.id });
  state.left.add(tb.id);
  leaveAnswered.delete(tb.id);
  const shown = tb === state.table;
  forgetTable(tb.id);
  if (shown) hooks.showView('lobby');
}

export function onTableClosed(m) {
  const tb = state.tables.get(m.table_id);
  if (!tb) return;
  const shown = onScreen(tb);
  forgetTable(tb.id);
  sendHello();
  // A tournament's table closes when it breaks (its players were moved first) or at the end:
  // the tournament's view, with its results.
  if (shown && tb.tournamentId) return hooks.openTournament(tb.tournamentId);
  if (tb.tournamentId) return;
  notice(t('table_closed'));
  if (shown) hooks.showView('lobby');
}

/** Frames about a table the page is at, in sequence: a gap means we missed a broadcast, so we
 *  ask for a fresh snapshot (and apply what comes meanwhile; the snapshot overrides it). The
 *  frame's sound (model.js soundFor: the table on screen's cards, chips and wins; our turn's
 *  is the alert's). */
export function forTable(m, handler) {
  const tb = state.tables.get(m.table_id);
  if (!tb) return;
  // A prompt may come again with the same seq (re-sent after reconnecting).
  const decision = seqDecision(tb.seq, m.seq, m.type === 'your_turn');
  if (decision === 'duplicate') return;
  if (decision === 'gap' && !tb.resyncing) {
    tb.resyncing = true;
    send({ type: 'snapshot', table_id: tb.id });
  }
  tb.seq = Math.max(tb.seq, m.seq);
  inMoneyOf(tb, () => handler(m, tb));
  const sound = soundFor(m, tb.info?.your_seat ?? null, onScreen(tb));
  if (sound && sound !== 'turn') playSound(sound);
  if (tb === state.table) renderTable();
  renderTurns();
}

/** Runs `fn` with the money shown as `tb`'s table shows it (cash or chips: the log's lines of a
 *  table in the background say its own amounts), then as the table on screen's again. */
function inMoneyOf(tb, fn) {
  if (tb.info) setMoneyMode(displayOf(tb.info));
  try {
    return fn();
  } finally {
    if (state.table?.info) setMoneyMode(displayOf(state.table.info));
  }
}

/** The names of the seats: the hand's (as they were when it began), then the table's. */
export function seatNames(tb) {
  const names = {};
  for (const s of tb.info?.seats ?? []) names[s.seat] = s.name;
  return { ...names, ...(tb.hand?.names ?? {}) };
}
export const whoAt = (tb) => (seat) => namer(seatNames(tb))(seat);

/** Tables left whose `leave` the server has answered (app.js onAck: leaveAnswer). */
const leaveAnswered = new Set();
export const leaveAnswer = (tableId) => leaveAnswered.add(tableId);

export function onSnapshot(m) {
  let tb = state.tables.get(m.table_id);
  // A seat the server put us back at (after a page reload, or one held in another tab): on
  // screen when no table is, else a table in the background.
  const adopt = !tb && !state.left.has(m.table_id) && m.table.your_seat != null;
  if (state.pending?.tableId === m.table_id || (adopt && !state.table)) {
    enterTable(m.table_id, state.pending?.code ?? state.privates[m.table_id]?.code);
    tb = state.table;
  } else if (!tb && adopt) {
    tb = newTable(m.table_id, state.privates[m.table_id]?.code);
    state.tables.set(tb.id, tb);
  }
  if (!tb) {
    // A table we left during a hand: the seat stays until the hand is over (and a `hello`
    // subscribes a held seat again). Once it is cashed out, stop watching and get the balance.
    // Only after our `leave` was answered (the server stops our watching then: a snapshot
    // after it means a `hello` subscribed the held seat again); a snapshot that was on its way
    // before the answer needs none (another `leave` would be refused not_seated).
    if (state.left.has(m.table_id) && m.table.your_seat == null && leaveAnswered.has(m.table_id)) {
      leaveAnswered.delete(m.table_id);
      send({ type: 'leave', table_id: m.table_id });
      sendHello();
    }
    return;
  }
  tb.seq = m.seq;
  tb.resyncing = false;
  tb.info = m.table;
  takeWait(tb);
  inMoneyOf(tb, () => takeSnapshot(m, tb));
  if (tb.code) rememberPrivate(tb);
  if (tb === state.table) renderTable();
  renderTurns();
  renderSeatOffer();
}

/** Our place on the table's waiting list from its snapshot (`wait`): a seat offered
 *  (`offer_ms`, counted down from now), or not; an offer gone with us off the list, not seated
 *  and not by our own asking, lapsed: said once. */
function takeWait(tb) {
  const wait = tb.info.wait ?? null;
  const had = tb.offer;
  if (wait?.offer_ms != null && tb.info.your_seat == null) {
    tb.offer = { said: false, busy: false, error: null, ...had, until: now() + wait.offer_ms };
    return;
  }
  tb.offer = null;
  if (wait) return;
  if (had && tb.info.your_seat == null && !tb.waitLeaving) notice(t('seat_offer_lapsed', { table: tb.info.name }));
  tb.waitLeaving = false;
}

function takeSnapshot(m, tb) {
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
  // Nor does it carry a shown hand's code (only its English name): keep what the `shown` event
  // said (the five cards that made it are marked from it).
  if (h && old?.id === h.hand_id) {
    for (const s of h.view.seats) {
      const code = old.view.seats.find((x) => x.seat === s.seat)?.handCode;
      if (code && s.shown) s.handCode = code;
    }
  }
  // A finished hand the page has no copy of (a reload while its result is up; joining after
  // it): the server keeps it in the snapshot until the next hand starts, its awards among its
  // events, so the result strip is drawn again from them (its five cards marked from the seats'
  // hand names, seatPlayed), until the next hand is dealt.
  if (h && h.view.phase === 'over' && old?.id !== h.hand_id && tb.result?.handId !== h.hand_id && Array.isArray(h.events)) {
    const awards = h.events.filter((ev) => ev.event === 'award');
    if (awards.length) tb.result = { handId: h.hand_id, awards, at: now() - RESULT_HOLD_MS };
  }
  if (fresh) {
    // Joining mid-hand (or after a reload): the hand so far, if the server sends its events
    // (`HandState.events`, redacted for this viewer), else a line saying it is in progress.
    tb.loggedHand = h.hand_id;
    addLog(() => t('log_hand_progress', { number: h.number }), 'hand-start', {}, tb);
    if (Array.isArray(h.events)) {
      const ctx = { deals: [], variant: h.view.variant };
      for (const ev of h.events) for (const line of describeEvent(ev, ctx, whoAt(tb))) addLog(line, lineClass(ev), {}, tb);
      tb.log.deals = ctx.deals;
      tb.log.declarations = ctx.declarations ?? null;
    }
  }
  // The server's pots, split only at all-in levels; a finished hand's are the pots awarded,
  // already in the winners' stacks, so the middle of the table is empty.
  if (h && Array.isArray(h.pots)) h.view.pots = h.view.phase === 'over' ? [] : h.pots;
  if (h?.hand_strength) tb.hand.strength = h.hand_strength;
  // The snapshot carries our legal actions: a prompt can be rebuilt from it (seq = now).
  const legal = h?.view.legal_actions ?? [];
  if (h && legal.length && h.view.to_act === m.table.your_seat) {
    // The bank: the snapshot's (the last `time_bank_ms` of the deadline), as for every viewer.
    const bankMs = h.time_bank_ms ?? (tb.prompt?.handId === h.hand_id ? tb.prompt.bankMs : null);
    // The ranges, if the snapshot carries them; else the two ends are buttons, as the legal list says.
    const wagers = h.wagers ?? h.view.wagers ?? null;
    setPrompt({ handId: h.hand_id, seq: m.seq, legal, ...(wagers?.length ? { wagers } : {}), bankMs, toCall: h.to_call ?? null, bringIn: h.bring_in_amount ?? null, sent: false }, tb);
  } else {
    setPrompt(null, tb);
  }
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
  tb.log.declarations = null;
  tb.pre = null;
  tb.timedOut = false;
  setPrompt(null, tb);
  // The last result stays up at least RESULT_HOLD_MS (from its last line: a bounty paid for
  // it may come after this hand was dealt).
  const r = tb.result;
  if (r) {
    const hide = () => {
      if (tb.result !== r) return;
      const left = r.at + RESULT_HOLD_MS - now();
      if (left > 0) return setTimeout(hide, left);
      tb.result = null;
      if (tb !== state.table) return;
      $('result').hidden = true;
      $('result').dataset.hiddenAt = String(Date.now());
    };
    setTimeout(hide, Math.max(0, r.at + RESULT_HOLD_MS - now()));
  }
  addLog(() => `${t('log_hand', { number: m.number })} · ${m.commitment.slice(0, 12)}…`, 'hand-start', {}, tb);
  // A new level applies from a new hand: the tournament's level and clock again, and a
  // snapshot for the stakes and the game (a level, or a rotation, changes the table's config,
  // which `hand_started` does not carry).
  if (tb.tournamentId) {
    send({ type: 'snapshot', table_id: tb.id });
    hooks.refreshTournament(tb.tournamentId);
  }
}

export const ACTION_EVENTS = ['bring_in', 'complete', 'bet', 'raise', 'call', 'check', 'fold', 'mucked', 'shown', 'declared'];

export function onEvent(m, tb) {
  if (!tb.hand || tb.hand.id !== m.hand_id) return;
  const ev = m.event;
  const betBefore = tb.hand.view.current_bet;
  if (m.hand_code) ev.code = m.hand_code; // the shown or winning hand as a code, for any language
  if (!applyEvent(tb.hand.view, ev, m.pots)) {
    send({ type: 'snapshot', table_id: tb.id }); // an event for a seat we do not know: resync
    return;
  }
  for (const line of describeEvent(ev, tb.log, whoAt(tb))) addLog(line, lineClass(ev), {}, tb);
  // Someone acted (or the clock did for them): nobody is to act until the next prompt.
  if (ACTION_EVENTS.includes(ev.event)) {
    if (tb.hand.toAct === ev.seat) {
      tb.hand.toAct = null;
      tb.hand.deadlineAt = null;
    }
    if (ev.seat === tb.info?.your_seat) {
      // Our prompt was still open and unanswered: the clock acted for us.
      if (tb.prompt && !tb.prompt.sent && ev.event !== 'shown') tb.timedOut = true;
      setPrompt(null, tb);
    }
  }
  // A ticked "check" no longer means the same once the bet changes; a new street starts fresh.
  // "Call {amount}" and "bet / raise" no longer either (a bet ticked is not a raise, a raise
  // not a reraise); "fold to any bet" lasts the hand.
  const moved = tb.hand.view.current_bet !== betBefore;
  if (tb.pre && ((ev.event === 'street_started' && tb.pre.kind !== 'fold_any') || (moved && ['check', 'call', 'raise'].includes(tb.pre.kind)))) tb.pre = null;
  if (ev.event === 'award') showResult(tb, ev);
  if (ev.event === 'hand_ended') endHand(tb, ev.stacks);
}

export function onTurn(m, tb) {
  if (!tb.hand || tb.hand.id !== m.hand_id) return;
  tb.hand.toAct = m.seat;
  tb.hand.deadlineAt = now() + m.deadline_ms;
  tb.hand.deadlineTotal = m.deadline_ms;
  tb.hand.bankMs = m.time_bank_ms ?? null;
  if (m.seat !== tb.info?.your_seat) setPrompt(null, tb);
}

export function onYourTurn(m, tb) {
  if (!tb.hand || tb.hand.id !== m.hand_id) return;
  tb.hand.toAct = tb.info?.your_seat ?? null;
  tb.hand.deadlineAt = now() + m.deadline_ms;
  tb.hand.deadlineTotal = m.deadline_ms;
  tb.hand.bankMs = m.time_bank_ms;
  if (m.hand_strength) tb.hand.strength = m.hand_strength;
  const fresh = tb.prompt?.seq !== m.seq;
  // `wagers` (big-bet tables only): each bet or raise's range, drawn as a size control.
  setPrompt({ handId: m.hand_id, seq: m.seq, legal: m.legal, ...(m.wagers?.length ? { wagers: m.wagers } : {}), bankMs: m.time_bank_ms, toCall: m.to_call ?? null, bringIn: m.bring_in_amount ?? null, sent: false }, tb);
  // A ticked box answers at once with one of the legal actions (at a table in the background
  // too); else the buttons, a sound.
  const auto = (tb.autoBringIn && preActionChoice('bring_in', m.legal)) || (tb.pre && preActionChoice(tb.pre.kind, m.legal, m.to_call ?? null, tb.pre.amount));
  // Used (or not usable here): unticked; "fold to any bet" stays while it only checked.
  if (tb.pre && !(tb.pre.kind === 'fold_any' && auto?.kind === 'check')) tb.pre = null;
  if (auto) return hooks.act(auto, tb);
  if (!fresh) return;
  // Our turn at the table on screen: the alert (the sound, the title, the focus); at another
  // table: the sound, and renderTurns says it (its tab, the title, a live region, the lobby).
  if (onScreen(tb)) hooks.yourTurnAlert();
  else playSound('turn');
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
  tb.pre = null;
  setPrompt(null, tb);
  if (tb.result && tb.result.handId === tb.hand?.id) {
    // data-ended-at / data-hidden-at (ms since the epoch) show how long the result stayed up.
    tb.result.at = now();
    tb.result.endedAt = Date.now();
    if (tb === state.table) $('result').dataset.endedAt = String(tb.result.endedAt);
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
  if (!r || tb !== state.table) return;
  const who = whoAt(tb);
  const view = tb.hand?.id === r.handId ? tb.hand.view : null;
  if (box.dataset.handId !== r.handId) {
    box.dataset.handId = r.handId;
    delete box.dataset.hiddenAt;
    delete box.dataset.endedAt;
    if (r.endedAt) box.dataset.endedAt = String(r.endedAt);
  }
  const lines = r.awards.map((a) => {
    const sv = view?.seats.find((s) => s.seat === a.seat);
    // The five cards the award was won with (that half's), with their suits, in the order the
    // hand reads; all the cards shown when the page cannot tell which five (see playedCards).
    const cards = view ? awardCardsElement(view, a) : null;
    // The declare game: what the winner declared (revealed by now) beside the award.
    const decl = sv?.declaration ? el('span', { class: 'tag declared', text: declarationTag(seatDeclaration(sv)) }) : null;
    return el('div', { class: 'result-line', 'data-testid': 'result-line', 'data-seat': a.seat, 'data-half': a.half ?? null }, el('span', { text: awardLine(a, who, sv?.declaration ?? null)() }), decl, cards);
  });
  // Bounties paid for players knocked out in it (showBounty): the log says them to a screen
  // reader, so here they are only seen.
  const me = state.me?.player_id;
  const bounties = (r.bounties ?? []).map((m) => el('div', {
    class: 'result-line bounty', 'data-testid': 'result-bounty', 'data-player-id': m.player_id, 'data-eliminated': m.eliminated,
    'data-cents': m.cents, 'aria-hidden': 'true', text: bountyText(m, me),
  }));
  // A live region: drawn again only when what it says changed (the table redraws often).
  if (box.innerHTML !== el('div', {}, lines, bounties).innerHTML) box.replaceChildren(...lines, ...bounties);
  box.hidden = false;
}

/** A bounty paid in the tournament of the table on screen (`tournament_bounty`): a line in the
 *  hand log, which is a live region (so a screen reader hears it once), and the same words in
 *  the result strip of the hand that knocked the player out, where they are only seen. */
export function showBounty(tb, m) {
  addLog(() => bountyText(m, state.me?.player_id), 'bounty', { kind: 'bounty', playerId: m.player_id, eliminated: m.eliminated, cents: String(m.cents) }, tb);
  // The strip of the hand just played (a bounty is paid as it ends); without one, a strip of
  // its own.
  if (!tb.result) tb.result = { handId: tb.hand?.view.phase === 'over' ? tb.hand.id : 'bounty', awards: [], at: now() };
  (tb.result.bounties ??= []).push(m);
  tb.result.at = now();
  renderResult(tb);
}

// ---- drawing the table ---------------------------------------------------------------------

/** The number of seats at a table (its snapshot's, else its lobby row's, else 8). */
export const seatCount = (tb) => tb.info?.seat_count ?? state.lobby.find((x) => x.id === tb.id)?.seats ?? 8;

export function renderTable() {
  const tb = state.table;
  if (!tb || !tb.info) return;
  setMoneyMode(displayOf(tb.info));
  $('table-name').textContent = tb.info.name;
  $('table-name').title = tb.info.name;
  $('table-stakes').textContent = `${variantName(tb.info.config.variant)} ${limits(tb.info.config)} · ${stakesLine(tb.info.config)}`;
  // Pot limit / no limit beside the stakes; nothing for fixed limit (the stakes say it).
  const structure = bettingName(tb.info.config);
  $('table-betting').textContent = structure;
  $('table-betting').hidden = !structure;
  $('table-betting').dataset.betting = tb.info.config.betting ?? 'fixed_limit';
  const count = seatCount(tb);
  if (tb.motionHand !== (tb.hand?.id ?? null)) {
    tb.motionHand = tb.hand?.id ?? null;
    tb.seen = new Map();
  }
  const seats = [];
  for (let n = 1; n <= count; n += 1) seats.push(seatElement(tb, n, count));
  $('seats').replaceChildren(...seats);
  renderCenter(tb);
  renderSeatBar(tb);
  renderStrength(tb);
  hooks.drawn(tb);
  renderClock();
}

// ---- motion: cards dealt, chips to the pot and to a winner ---------------------------------
// The table is drawn again at every frame, each element made anew; an animation lasts across
// those redraws by starting as far in as it has run (a negative delay), so a burst of frames
// neither restarts nor cuts it. A browser that prefers reduced motion runs none (style.css).

const DEAL_MS = 250;
const CHIPS_MS = 350;
const WIN_MS = 500;

/** How long ago (ms) this thing (`key`) came to be as it is (`value`) on the table on screen,
 *  while that is under `ms`; else null. Whatever is on a table when it is put on screen is
 *  not new (tb.quiet). */
function motionAge(tb, key, value, ms) {
  const at = now();
  let seen = tb.seen.get(key);
  if (!seen || seen.value !== value) {
    seen = { value, at: tb.quiet ? -Infinity : at };
    tb.seen.set(key, seen);
  }
  const age = at - seen.at;
  return age < ms ? age : null;
}

/** Marks an element moving (`cls`) for `age` ms already (null: not moving). */
function moving(node, age, cls = 'new') {
  if (age == null) return node;
  node.classList.add(cls);
  node.style.setProperty('--motion-delay', `${-Math.round(age)}ms`);
  return node;
}

export function seatElement(tb, n, count) {
  const info = tb.info.seats.find((s) => s.seat === n);
  const sv = tb.hand?.view.seats.find((s) => s.seat === n);
  const mine = tb.info.your_seat === n;
  const live = sv && tb.hand.view.phase !== 'over';
  const empty = !info && !live; // a finished hand's seat that has been cashed out is empty
  const pos = seatPosition(n, tb.info.your_seat, count);
  const p = seatPoint(pos, count);
  const node = el('div', {
    'data-testid': 'seat', 'data-seat': n, 'data-me': mine, 'data-empty': empty, 'data-pos': pos,
    'data-sitting-out': info?.sitting_out, 'data-folded': !empty && sv?.folded,
    class: `seat${tb.hand?.toAct === n ? ' to-act' : ''}${empty ? ' empty' : ''}`,
    style: `left:${p.left.toFixed(2)}%;top:${p.top.toFixed(2)}%;--x:${p.left.toFixed(2)}%;--y:${p.top.toFixed(2)}%;--order:${pos === 0 ? 99 : pos};--dx:${p.dx.toFixed(3)};--dy:${p.dy.toFixed(3)}`,
    role: 'group', 'aria-label': empty ? t('empty_seat', { n }) : (info?.name ?? t('seat_n', { n })),
  });
  if (empty) {
    // Not while every free seat is offered to the waiting list (the server would refuse it).
    if (tb.info.your_seat == null && state.me && !tb.tournamentId && waitlistView(tb.info, count).canSit) {
      node.append(el('button', { type: 'button', class: 'sit-here', 'data-testid': 'sit-here', text: t('sit_here'), 'aria-label': t('sit_here_n', { n }), onclick: () => sitHere(n) }));
    } else {
      node.append(el('span', { class: 'seat-no', text: n, 'aria-hidden': 'true' }));
    }
    return node;
  }
  const stack = live ? sv.stack : (info?.stack ?? sv.stack);
  const bet = live ? sv.bet : 0;
  // A shown hand: the five cards that made it (both fives in hi/lo) marked.
  const played = seatPlayed(tb.hand?.view, sv);
  // A knockout tournament: the bounty on the player's head (the tournament's detail, its heads
  // updated by each `tournament_bounty`), a badge on the seat's top edge that moves nothing.
  const head = tb.tournamentId && info ? headOf(tournamentDetail(tb.tournamentId), info.player_id) : null;
  const tags = [];
  if (info && !info.connected) tags.push(t('away'));
  if (info?.sitting_out) tags.push(t('sitting_out'));
  if (live && sv.all_in) tags.push(t('all_in'));
  // The declare game: "declared" (another's choice is hidden until the reveal), or the choice.
  const decl = seatDeclaration(sv);
  const declTag = decl ? el('span', {
    class: `tag declared${decl.declaration ? ` declared-${decl.declaration}` : ''}`, 'data-testid': 'seat-declaration',
    'data-declaration': decl.declaration ?? '', text: declarationTag(decl),
  }) : null;
  node.append(...[
    el('div', { class: 'seat-head' },
      // The full name on hover (a long one is cut short with an ellipsis).
      el('span', { 'data-testid': 'seat-name', class: 'seat-name', title: info?.name ?? seatNames(tb)[n] ?? t('seat_n', { n }), text: info?.name ?? seatNames(tb)[n] ?? t('seat_n', { n }) }),
      el('span', {
        'data-testid': 'seat-stack', 'data-amount': stack, 'data-committed': live ? sv.committed : 0, class: 'stack', text: money(stack),
      })),
    tags.length || sv?.brought_in || declTag ? el('div', { class: 'tags' },
      tags.map((tag) => el('span', { class: 'tag', text: tag })),
      sv?.brought_in ? el('span', { class: 'tag bring-in', 'data-testid': 'bring-in-tag', text: t('bring_in_tag') }) : null,
      declTag) : null,
    el('div', { class: 'cards' }, (sv?.cards ?? []).map((c, i) => markCard(moving(cardElement(c), motionAge(tb, `card:${n}:${i}`, 1, DEAL_MS)), cardPart(played, c.card), tb.hand.view.variant))),
    // data-committed (on the stack): chips this seat has in the hand (antes included), so
    // stack + committed is what the seat had when the hand began.
    moving(el('div', { 'data-testid': 'seat-bet', 'data-amount': bet, class: `bet${bet ? '' : ' zero'}` }, bet ? [chips(bet), el('span', { text: money(bet) })] : []), bet ? motionAge(tb, `bet:${n}`, bet, CHIPS_MS) : null, 'moved'),
    el('div', { class: 'seat-foot' }, seatFoot(sv, sv?.won > 0 ? motionAge(tb, `won:${n}`, sv.won, WIN_MS) : null, tb.hand?.view.variant ?? null)),
    tb.hand?.toAct === n && tb.hand.deadlineAt != null ? el('div', { class: 'timer', 'data-testid': 'seat-timer', 'aria-hidden': 'true' }, el('div', { class: 'timer-fill' })) : null,
    // "time bank" on the seat to act once its action time is up, on every viewer's page (renderClock).
    tb.hand?.toAct === n && tb.hand.deadlineAt != null ? el('span', { class: 'tag bank-tag', 'data-testid': 'seat-time-bank', hidden: true, text: t('time_bank') }) : null,
    head > 0 ? el('span', { class: 'tag bounty-tag', 'data-testid': 'seat-bounty', 'data-amount': head, text: t('seat_bounty', { amount: money(head, 'cash') }) }) : null,
  ].filter(Boolean));
  return node;
}

/** Under the cards: the hand's name when visible (model.js seatHandName: from its code, or the
 *  server's name read as one), what was won (`wonAge`: ms since it was won, while its chips
 *  move there from the middle; else null), mucked. */
export function seatFoot(sv, wonAge = null, variant = null) {
  if (!sv) return [];
  const parts = [];
  if (sv.hand) parts.push(el('span', { class: 'hand-name', 'data-testid': 'seat-hand', text: seatHandName(variant, sv) }));
  if (sv.mucked) parts.push(el('span', { class: 'tag', text: t('mucked') }));
  if (sv.won > 0) parts.push(moving(el('span', { class: 'won', 'data-testid': 'seat-won', 'data-amount': sv.won }, chips(sv.won), t('wins', { amount: money(sv.won) })), wonAge));
  return parts;
}

export function renderCenter(tb) {
  const view = tb.hand?.view;
  const pots = view?.pots ?? [];
  const total = pots.reduce((sum, p) => sum + p.amount, 0);
  const pot = $('pot');
  pot.dataset.amount = String(total);
  // With a player all in, the main and side pots (the server's) are listed under the total.
  const who = whoAt(tb);
  const listed = pots.length > 1 ? pots.map((p, i) => el('div', {
    'data-testid': i === 0 ? null : 'side-pot', 'data-amount': p.amount, class: 'side-pot',
    text: `${i === 0 ? t('main_pot') : t('side_pot', { n: i })}: ${money(p.amount)} (${p.eligible.map(who).join(', ')})`,
  })) : [];
  // Chips put in move into the pot.
  const grew = total ? motionAge(tb, 'pot', total, CHIPS_MS) : null;
  pot.replaceChildren(moving(el('span', { class: 'pot-main' }, total ? chips(total) : null, el('span', { class: 'pot-label', text: `${t('pot')} ` }), el('span', { class: 'pot-amount', text: money(total) })), grew, 'grew'), ...listed);
  $('community').replaceChildren(...(view?.community ? [el('span', { class: 'label', text: t('community') }), cardElement({ card: view.community, up: true })] : []));
  renderTurn(tb);
  if (tb.result) renderResult(tb);
}

/** The turn line, a live region: written only when its words change. At our turn it says the
 *  amount to call and the legal actions too (to a screen reader; on screen "Your turn"); once we
 *  have acted it stays as it is until the next one is to act (no "Your turn" said again). */
export function renderTurn(tb) {
  const node = $('turn');
  // Not while the table is hidden (the lobby on screen): nobody hears it then, and its words
  // are written when it is shown again (showTable), so they are said as news, once.
  if ($('table').hidden) return;
  // Between one player's action and the next one's turn (the same moment, a frame apart)
  // nobody is to act: the line keeps its words rather than say the street in between.
  if (tb.hand && tb.hand.view.phase !== 'over' && tb.hand.toAct == null && node.textContent) return;
  const main = turnText(tb);
  const mine = tb.hand?.toAct != null && tb.hand.toAct === tb.info.your_seat;
  if (mine && state.prompt?.sent && node.textContent.startsWith(main)) return;
  const detail = mine ? hooks.turnDetail() : '';
  if (node.textContent === (detail ? `${main}: ${detail}` : main)) return;
  node.replaceChildren(main, ...(detail ? [el('span', { class: 'sr-only', text: `: ${detail}` })] : []));
}

export function turnText(tb) {
  const h = tb.hand;
  if (!h || h.view.phase === 'over') return tb.info.seats.length < 2 ? t('waiting_players') : t('waiting_hand');
  if (h.toAct == null) return streetName(h.view.street);
  if (h.toAct === tb.info.your_seat) return t('your_turn');
  return t('to_act', { name: whoAt(tb)(h.toAct) });
}

/** The clock of the seat to act, counting down locally from the last deadline_ms: the text in
 *  the middle, the bar on the seat (another colour once into the time bank) and the seat's
 *  "time bank" tag. It reads the same on every page, the actor's and everyone else's (model.js
 *  clockFace): the action time and the bank ("12s + time bank 30s"), then the bank ("time bank
 *  8s"); the deadline includes the bank, whose last `time_bank_ms` every frame says. */
export function renderClock() {
  const clock = $('clock');
  const h = state.table?.hand;
  if (!h || h.toAct == null || h.deadlineAt == null) {
    clock.textContent = '';
    clock.classList.remove('low');
    delete clock.dataset.phase;
    delete clock.dataset.seat;
    return;
  }
  const left = Math.max(0, h.deadlineAt - now());
  const face = clockFace(left, h.bankMs, h.deadlineTotal);
  setText(clock, t(...face.words));
  clock.dataset.phase = face.phase;
  clock.dataset.seat = String(h.toAct);
  clock.classList.toggle('low', left < 5000);
  clock.classList.toggle('bank', face.phase === 'bank');
  const timer = document.querySelector('[data-testid=seat-timer]');
  if (timer) {
    timer.dataset.phase = face.phase;
    timer.firstElementChild.style.width = `${(100 * face.fraction).toFixed(1)}%`;
  }
  const tag = document.querySelector('[data-testid=seat-time-bank]');
  if (tag) tag.hidden = face.phase !== 'bank';
}

/** Take a seat (watching) or top up and sit out / in (seated); the sat-out notice. */
export function renderSeatBar(tb) {
  const seated = tb.info.your_seat != null;
  const me = tb.info.seats.find((s) => s.seat === tb.info.your_seat);
  // A tournament seats its players and deals them in until they are out: no buy-in, no
  // top-up, no sitting out (the server refuses them there).
  const cash = !tb.tournamentId;
  const wait = waitlistView(tb.info, seatCount(tb), !cash);
  // Take a seat: only where a free seat is ours to take (none at a full table, none while
  // every free seat is offered to the waiting list); else the waiting list.
  $('table-sit').hidden = seated || !cash || !wait.canSit;
  renderWaitlist(tb, wait);
  $('top-up').hidden = !seated || !cash;
  $('sit-toggle').hidden = !seated || !cash;
  $('table-buy-in').parentElement.hidden = !cash;
  renderBuyIn(tb);
  // Auto-muck (the seat's setting, in our snapshot): what we asked for while the answer is
  // awaited, else the server's word.
  $('auto-muck-box').hidden = !seated;
  $('auto-muck').checked = tb.autoMuckWant ?? Boolean(tb.info.auto_muck);
  $('sit-toggle').textContent = me?.sitting_out ? t('sit_in') : t('sit_out');
  const out = Boolean(me?.sitting_out);
  $('sat-out').hidden = !out;
  // Why: the server's `sitting_out_reason` (timeout, requested, busted).
  const reason = { timeout: 'timeout', busted: 'busted' }[me?.sitting_out_reason] ?? 'self';
  $('sat-out').dataset.reason = out ? reason : '';
  setText($('sat-out-text'), out ? t(`sat_out_${reason}`) : '');
}

/** The waiting-list control in the table's head (a viewer not seated at a cash table: model.js
 *  waitlistView): how many wait, our place in line, join or leave. Our place is said by the
 *  notice when we join; the control itself is no live region. */
export function renderWaitlist(tb, wait = waitlistView(tb.info, seatCount(tb), Boolean(tb.tournamentId))) {
  const box = $('waitlist');
  box.hidden = !wait.show;
  Object.assign(box.dataset, { waiting: String(wait.waiting), on: String(wait.on), position: String(wait.position ?? ''), offered: String(wait.offerMs != null) });
  box.setAttribute('aria-label', t('waitlist'));
  if (!wait.show) return;
  const count = $('waitlist-count');
  setText(count, t('waitlist_count', { n: wait.waiting }));
  count.dataset.count = String(wait.waiting);
  const place = $('waitlist-position');
  place.hidden = !wait.on;
  setText(place, wait.on ? t('waitlist_position', { place: ordinal(wait.position) }) : '');
  place.dataset.position = String(wait.position ?? '');
  const toggle = $('waitlist-toggle');
  toggle.hidden = !(wait.on || wait.canJoin);
  setText(toggle, t(wait.on ? 'waitlist_leave' : 'waitlist_join'));
  toggle.dataset.on = String(wait.on);
  // While the answer is awaited: the button keeps the focus, a second click does nothing.
  if (tb.waitBusy != null) toggle.setAttribute('aria-disabled', 'true');
  else toggle.removeAttribute('aria-disabled');
}

/** The waiting-list button at the table on screen: join, or leave. */
export function toggleWaitlist() {
  const tb = state.table;
  if (!tb?.info) return;
  setWaitlist(tb.id, !tb.info.wait);
}

/** `waitlist` at a table the page is at (`on`: join or leave); one at a time. The answer
 *  (waitlistAnswered) says it; the snapshot that follows shows it. */
export function setWaitlist(tableId, on) {
  const tb = state.tables.get(tableId);
  if (tb?.waitBusy != null) return false;
  if (!send({ type: 'waitlist', table_id: tableId, on }, { kind: 'waitlist', tableId, on })) {
    notice(t('reconnect_try'));
    return false;
  }
  if (tb) {
    tb.waitBusy = on;
    if (!on) tb.waitLeaving = true;
    if (tb === state.table) renderTable();
  }
  return true;
}

/** The answer to a `waitlist`: an ack ("on the waiting list: position 2", "off the waiting
 *  list", "not on the waiting list") said as a notice with the table's name, or a refusal in
 *  words (i18n.js waitlistErrorText). */
export function waitlistAnswered(req, m, taken) {
  const tb = state.tables.get(req.tableId);
  if (tb) tb.waitBusy = null;
  if (req.quiet) return;
  const name = tb?.info?.name ?? state.lobby.find((x) => x.id === req.tableId)?.name ?? '';
  if (!taken) {
    if (tb && !req.on) tb.waitLeaving = false;
    notice(waitlistErrorText(m));
  } else {
    const said = waitlistAck(m.detail);
    // Not on it already: no snapshot follows (nothing changed).
    if (tb && said && !said.on && /^not on/i.test(m.detail ?? '')) tb.waitLeaving = false;
    const position = said?.position ?? tb?.info?.wait?.position ?? null;
    if (said?.on && position != null) notice(t('waitlist_joined', { table: name, place: ordinal(position) }));
    else if (said && !said.on) notice(t('waitlist_left', { table: name }));
    else if (m.detail) notice(m.detail);
  }
  if (tb === state.table && tb?.info) renderTable();
  renderSeatOffer();
}

// ---- a seat offered from the waiting list --------------------------------------------------

/** The table whose offered seat the strip shows: the one on screen when a seat is offered
 *  there, else the first other (an offer is seen from the lobby and from another table). */
function offerTable() {
  const at = now();
  const list = [...state.tables.values()].filter((tb) => tb.offer && tb.offer.until > at && tb.info?.your_seat == null);
  return list.find((tb) => onScreen(tb)) ?? list[0] ?? null;
}

/** The seat offer strip (`seat-offer`): which table, the time left to take the seat, a
 *  buy-in box like the table's (dollars at a cash table, chips at a chip table), Take the
 *  seat, Open the table (when it is not on screen), Decline (off the list). Said once to a
 *  screen reader when it comes (`seat-offer-said`), never at each tick. */
export function renderSeatOffer() {
  const tb = offerTable();
  const box = $('seat-offer');
  const said = $('seat-offer-said');
  if (!tb) {
    if (!box.hidden) box.hidden = true;
    delete box.dataset.tableId;
    setText(said, '');
    return;
  }
  const o = tb.offer;
  const info = tb.info;
  const mode = displayOf(info);
  const input = $('seat-offer-buy-in');
  if (box.dataset.tableId !== tb.id || input.dataset.mode !== mode) {
    // A new offer starts from what the table's own box says when that table is on screen,
    // else from the table's minimum; a change of display converts what is in it.
    const kept = box.dataset.tableId === tb.id && input.value !== '' ? boxToAmount(input.value, input.dataset.mode) : NaN;
    const typed = onScreen(tb) && $('table-buy-in').value !== '' ? buyInAmount() : NaN;
    const amount = Number.isNaN(kept) ? typed : kept;
    input.value = amountToBox(Number.isNaN(amount) ? info.min_buy_in : amount, mode);
    input.dataset.mode = mode;
  }
  box.hidden = false;
  Object.assign(box.dataset, { tableId: tb.id, minBuyIn: String(info.min_buy_in), maxBuyIn: String(info.max_buy_in) });
  setText($('seat-offer-title'), t('seat_offer_title', { table: info.name }));
  input.min = amountToBox(info.min_buy_in, mode);
  input.max = amountToBox(info.max_buy_in, mode);
  input.step = mode === 'chips' ? '1' : '0.01';
  $('seat-offer-unit').hidden = mode === 'chips';
  setText($('seat-offer-range'), `${money(info.min_buy_in, mode)}–${money(info.max_buy_in, mode)}`);
  const take = $('seat-offer-take');
  setText(take, t('seat_offer_take'));
  if (o.busy) take.setAttribute('aria-disabled', 'true');
  else take.removeAttribute('aria-disabled');
  $('seat-offer-open').hidden = onScreen(tb);
  const error = $('seat-offer-error');
  error.hidden = !o.error;
  setText(error, o.error ?? '');
  if (!o.said) {
    o.said = true;
    setText(said, t('seat_offer_said', { table: info.name, s: seconds(o.until - now()) }));
  }
  renderSeatOfferClock();
}

/** Every 250 ms: the offer's time left (no live region); the strip goes by itself at 0 (the
 *  server's snapshot then says we are off the list). */
export function renderSeatOfferClock() {
  const box = $('seat-offer');
  const tb = offerTable();
  if ((tb?.id ?? null) !== (box.hidden ? null : box.dataset.tableId ?? null)) {
    renderSeatOffer();
    renderTurns();
    return;
  }
  if (!tb) return;
  const ms = Math.max(0, tb.offer.until - now());
  const text = $('seat-offer-text');
  setText(text, t('seat_offer_text', { s: seconds(ms) }));
  text.dataset.ms = String(Math.round(ms));
}

/** Take the seat offered: a `sit` with the amount in the strip's box (any free seat); an amount
 *  outside the table's range is refused here, in the strip. */
export function takeOfferedSeat() {
  const tb = offerTable();
  if (!tb || tb.offer.busy) return;
  const input = $('seat-offer-buy-in');
  const amount = boxToAmount(input.value, input.dataset.mode);
  if (Number.isNaN(amount) || amount < tb.info.min_buy_in || amount > tb.info.max_buy_in) {
    tb.offer.error = t('err_buy_in_out_of_range');
    return renderSeatOffer();
  }
  tb.offer.error = null;
  if (!send({ type: 'sit', table_id: tb.id, seat: null, buy_in: amount, invite_code: tb.code ?? null }, { kind: 'sit', tableId: tb.id, code: tb.code, from: 'offer' })) {
    tb.offer.error = t('reconnect_try');
    return renderSeatOffer();
  }
  tb.offer.busy = true;
  renderSeatOffer();
}

/** A `sit` from the strip refused: its words in the strip. */
export function seatOfferRefused(m, req) {
  const tb = state.tables.get(req.tableId);
  if (tb?.offer) {
    tb.offer.busy = false;
    tb.offer.error = errorText(m);
  } else {
    notice(errorText(m));
  }
  renderSeatOffer();
}

/** Decline the seat offered (off the waiting list), or open its table. */
export function declineOffer() {
  const tb = offerTable();
  if (tb) setWaitlist(tb.id, false);
}
export function openOfferTable() {
  const tb = offerTable();
  if (!tb) return;
  const focused = $('seat-offer-open') === document.activeElement;
  enterTable(tb.id);
  renderSeatOffer(); // Open goes (the table is on screen): the focus to Take the seat beside it
  if (focused) $('seat-offer-take').focus();
}

/** The buy-in and top-up box as the lobby shows money: dollars at a cash table ("40" for 4000
 *  cents), chips at a chip table; the range beside it. A change of display (the operator's)
 *  converts what is in it. */
export function renderBuyIn(tb) {
  const box = $('table-buy-in');
  const mode = displayOf(tb.info);
  if (box.dataset.mode !== mode) {
    const had = box.value === '' ? NaN : boxToAmount(box.value, box.dataset.mode);
    box.value = amountToBox(Number.isNaN(had) ? tb.info.min_buy_in : had, mode);
    box.dataset.mode = mode;
  }
  box.min = amountToBox(tb.info.min_buy_in, mode);
  box.max = amountToBox(tb.info.max_buy_in, mode);
  box.step = mode === 'chips' ? '1' : '0.01';
  $('table-buy-in-unit').hidden = mode === 'chips';
  $('table-buy-in-range').textContent = `${money(tb.info.min_buy_in, mode)}–${money(tb.info.max_buy_in, mode)}`;
}

/** The amount in the buy-in and top-up box, in cents (what the protocol counts). */
export const buyInAmount = () => boxToAmount($('table-buy-in').value, $('table-buy-in').dataset.mode);

export function sitHere(seat) {
  const tb = state.table;
  const amount = buyInAmount();
  if (Number.isNaN(amount)) return notice(t('err_buy_in_out_of_range'));
  hooks.takeSeat(tb.id, amount, tb.code, seat);
}

/** The hand-strength line under your cards: only what the server says (`hand_strength` on
 *  `your_turn`, or your own seat's `hand` in a snapshot); the page never evaluates a hand. */
export function renderStrength(tb) {
  const box = $('hand-strength');
  const h = tb.hand;
  const mine = h?.view.seats.find((s) => s.seat === tb.info.your_seat);
  const live = h && h.view.phase !== 'over' && mine && !mine.folded;
  // "no low" (stud8) only once five cards could make one.
  const text = !live ? '' : h.strength ? strengthName(h.strength, mine.cards.length >= 5 ? h.view.variant : null) : translateHand(mine.hand ?? '');
  box.hidden = !text;
  box.textContent = text ? t('strength', { hand: text }) : '';
}

// ---- the tables we are at: tabs, and our turn at any of them -------------------------------

let turnsKey = '';
/** The tabs of the tables the page is at (shown with two or more, or with one while the lobby
 *  or a tournament's view is on screen): each its name, our stack and a "Your turn" badge when
 *  its prompt is waiting for us; a live region saying where our turn waits (not for the table
 *  on screen, whose turn line says it); then app.js's part (the lobby's marks, the title).
 *  Drawn again only when something it shows changed. */
export function renderTurns() {
  const tables = [...state.tables.values()];
  const tableShown = !$('table').hidden;
  const elsewhere = tables.filter((tb) => turnPending(tb) && !onScreen(tb));
  const tabs = tables.map((tb) => {
    const me = tb.info?.seats.find((x) => x.seat === tb.info.your_seat);
    const sv = tb.hand?.view.seats.find((x) => x.seat === tb.info?.your_seat);
    const stack = me ? (tb.hand && tb.hand.view.phase !== 'over' && sv ? sv.stack : me.stack) : null;
    const offered = Boolean(tb.offer && tb.offer.until > now() && !me);
    return { id: tb.id, name: tb.info?.name ?? '', seated: Boolean(me), stack: stack == null ? '' : money(stack, displayOf(tb.info)), turn: turnPending(tb), current: onScreen(tb), wait: tb.info?.wait?.position ?? null, offered };
  });
  const key = JSON.stringify([tabs, tableShown, elsewhere.map((tb) => tb.id), t('your_turn'), t('seat_offer_badge')]);
  if (key === turnsKey) return;
  turnsKey = key;
  const nav = $('table-tabs');
  nav.hidden = !(tables.length >= 2 || (tables.length === 1 && !tableShown));
  nav.setAttribute('aria-label', t('your_tables'));
  // A tab with the focus keeps it when the tabs are drawn again.
  const focused = $('table-tab-list').contains(document.activeElement) ? document.activeElement.dataset.tableId : null;
  $('table-tab-list').replaceChildren(...tabs.map((x) => el('li', {},
    el('button', {
      type: 'button', class: `table-tab${x.turn ? ' turn' : ''}`, 'data-testid': 'table-tab', 'data-table-id': x.id,
      'data-your-turn': x.turn, 'data-seated': x.seated, 'aria-current': x.current ? 'page' : null, 'aria-keyshortcuts': x.turn && !x.current ? 'N' : null,
      onclick: () => enterTable(x.id),
    },
    // Its name is its words: the table, our stack (or "watching"), "Your turn".
    el('span', { class: 'tab-name', text: x.name }), ' ',
    x.seated ? el('span', { class: 'tab-stack', 'data-testid': 'table-tab-stack', text: x.stack }) : el('span', { class: 'tab-stack muted', text: x.wait != null ? t('waiting_at', { place: ordinal(x.wait) }) : t('watching') }),
    x.turn ? ' ' : null,
    x.turn ? el('span', { class: 'badge turn-badge', 'data-testid': 'table-tab-turn', text: t('your_turn') }) : null,
    x.offered ? ' ' : null,
    x.offered ? el('span', { class: 'badge turn-badge', 'data-testid': 'table-tab-offer', text: t('seat_offer_badge') }) : null))));
  if (focused) $('table-tab-list').querySelector(`[data-table-id="${focused}"]`)?.focus();
  // Said once when it changes: where our turn waits (nothing when it waits nowhere else).
  setText($('turn-elsewhere'), elsewhere.length ? t('turn_at', { table: elsewhere.map((tb) => tb.info?.name ?? '').join(', ') }) : '');
  $('turn-elsewhere').dataset.tables = elsewhere.map((tb) => tb.id).join(' ');
  hooks.turnsChanged();
}

// ---- the hand log --------------------------------------------------------------------------

export function addLog(fn, cls = '', data = {}, tb = state.table) {
  const log = tb?.logEl ?? $('log');
  const stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 20; // follow unless scrolled up
  const line = el('div', { 'data-testid': 'log-line', class: `log-line ${cls}`, text: fn() });
  Object.assign(line.dataset, data);
  line.render = fn;
  log.append(line);
  while (log.childElementCount > LOG_LINES_KEPT) log.firstElementChild.remove();
  if (stick) log.scrollTop = log.scrollHeight;
  if (tb) tb.log.entries = null; // the DOM keeps the lines (and how to say them again)
}

/** After a language switch: every log line said again in the new language. */
export function relabelLog() {
  for (const line of $('log').children) if (line.render) setText(line, line.render());
}
