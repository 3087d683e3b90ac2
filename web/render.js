// Drawing: DOM helpers, cards, chips, and the table (seats, pot, clock, strength line).

import { renderPreActions } from './actions.js';
import { renderChat } from './chat.js';
import { SUIT_SYMBOLS, cardName, limits, money, stakesLine, strengthName, translateHand } from './format.js';
import { t } from './i18n.js';
import { renderTournamentBar, takeSeat } from './lobby.js';
import { seatPoint, seatPosition, streetName } from './model.js';
import { state } from './state.js';
import { renderResult, seatNames, whoAt } from './table.js';

export const $ = (id) => document.getElementById(id);
/** Creates an element. `attrs`: text, class, on<event> handlers, anything else as an attribute
 *  (`true` becomes "true"; false, null and undefined leave the attribute out). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key === 'style') node.style.cssText = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? 'true' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

export const now = () => performance.now();
export const seconds = (ms) => Math.ceil(ms / 1000);
export const variantName = (v) => t(`variant_${v}`);
let noticeTimer = null;
/** A short message under the top bar (errors, table closed, ...). */
export function notice(text) {
  const box = $('notice');
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---- drawing the table ---------------------------------------------------------------------

/** A card: a face with its corner rank and suit, or a back; named for screen readers ("Ace of
 *  spades"). Down cards carry data-down and sit lower than up cards. */
export function cardElement(seen, size = '') {
  const down = !seen.up;
  if (!seen.card) {
    return el('div', { 'data-testid': 'card', 'data-card': 'back', 'data-down': down, class: `card back ${size}`, role: 'img', 'aria-label': t('card_back') });
  }
  const [rank, suit] = seen.card;
  const r = rank === 'T' ? '10' : rank;
  return el('div', {
    'data-testid': 'card', 'data-card': seen.card, 'data-down': down,
    class: `card suit-${suit} ${size}`, role: 'img', 'aria-label': cardName(seen.card), title: cardName(seen.card),
  }, el('span', { class: 'corner', 'aria-hidden': 'true' }, el('span', { class: r === '10' ? 'rank ten' : 'rank', text: r }), el('span', { class: 'suit', text: SUIT_SYMBOLS[suit] })),
  el('span', { class: 'pip', 'aria-hidden': 'true', text: SUIT_SYMBOLS[suit] }));
}

/** A small stack of chips beside an amount (more chips for more money, at most five). */
export function chips(amount) {
  const n = Math.max(1, Math.min(5, Math.ceil(Math.log10(Math.max(10, amount)) - 0.5)));
  return el('span', { class: 'chips', 'aria-hidden': 'true' }, Array.from({ length: n }, (_, i) => el('i', { class: `chip c${i % 3}` })));
}

export function renderTable() {
  const tb = state.table;
  if (!tb || !tb.info) return;
  $('table-name').textContent = tb.info.name;
  $('table-stakes').textContent = `${variantName(tb.info.config.variant)} ${limits(tb.info.config)} · ${stakesLine(tb.info.config)}`;
  const count = tb.info.seat_count ?? state.lobby.find((x) => x.id === tb.id)?.seats ?? 8;
  const seats = [];
  for (let n = 1; n <= count; n += 1) seats.push(seatElement(tb, n, count));
  $('seats').replaceChildren(...seats);
  // What is on screen now: only cards dealt and bets made after this are animated.
  tb.drawn = Object.fromEntries((tb.hand?.view.seats ?? []).map((s) => [`${tb.hand.id}:${s.seat}`, s.cards.length]));
  tb.bets = Object.fromEntries((tb.hand?.view.seats ?? []).map((s) => [s.seat, s.bet]));
  renderCenter(tb);
  renderSeatBar(tb);
  renderPreActions();
  renderStrength(tb);
  renderChat(tb);
  renderTournamentBar();
  renderClock();
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
    style: `left:${p.left.toFixed(2)}%;top:${p.top.toFixed(2)}%;--order:${pos === 0 ? 99 : pos};--dx:${p.dx.toFixed(3)};--dy:${p.dy.toFixed(3)}`,
    role: 'group', 'aria-label': empty ? t('empty_seat', { n }) : (info?.name ?? t('seat_n', { n })),
  });
  if (empty) {
    if (tb.info.your_seat == null && state.me && !tb.tournamentId) {
      node.append(el('button', { type: 'button', class: 'sit-here', 'data-testid': 'sit-here', text: t('sit_here'), 'aria-label': t('sit_here_n', { n }), onclick: () => sitHere(n) }));
    } else {
      node.append(el('span', { class: 'seat-no', text: n, 'aria-hidden': 'true' }));
    }
    return node;
  }
  const stack = live ? sv.stack : (info?.stack ?? sv.stack);
  const bet = live ? sv.bet : 0;
  const tags = [];
  if (info && !info.connected) tags.push(t('away'));
  if (info?.sitting_out) tags.push(t('sitting_out'));
  if (live && sv.all_in) tags.push(t('all_in'));
  node.append(...[
    el('div', { class: 'seat-head' },
      el('span', { 'data-testid': 'seat-name', class: 'seat-name', text: info?.name ?? seatNames(tb)[n] ?? t('seat_n', { n }) }),
      el('span', {
        'data-testid': 'seat-stack', 'data-amount': stack, 'data-committed': live ? sv.committed : 0, class: 'stack', text: money(stack),
      })),
    tags.length || sv?.brought_in ? el('div', { class: 'tags' },
      tags.map((tag) => el('span', { class: 'tag', text: tag })),
      sv?.brought_in ? el('span', { class: 'tag bring-in', 'data-testid': 'bring-in-tag', text: t('bring_in_tag') }) : null) : null,
    el('div', { class: 'cards' }, (sv?.cards ?? []).map((c, i) => cardElement(c, i >= (tb.drawn?.[`${tb.hand?.id}:${n}`] ?? 0) ? 'new' : ''))),
    // data-committed (on the stack): chips this seat has in the hand (antes included), so
    // stack + committed is what the seat had when the hand began.
    el('div', { 'data-testid': 'seat-bet', 'data-amount': bet, class: `bet${bet ? '' : ' zero'}${bet && bet !== tb.bets?.[n] ? ' moved' : ''}` }, bet ? [chips(bet), el('span', { text: money(bet) })] : []),
    el('div', { class: 'seat-foot' }, seatFoot(sv)),
    tb.hand?.toAct === n && tb.hand.deadlineAt != null ? el('div', { class: 'timer', 'data-testid': 'seat-timer', 'aria-hidden': 'true' }, el('div', { class: 'timer-fill' })) : null,
  ].filter(Boolean));
  return node;
}

/** Under the cards: the hand's name when visible, what was won, mucked. */
export function seatFoot(sv) {
  if (!sv) return [];
  const parts = [];
  if (sv.hand) parts.push(el('span', { class: 'hand-name', 'data-testid': 'seat-hand', text: sv.handCode ? strengthName(sv.handCode) : translateHand(sv.hand) }));
  if (sv.mucked) parts.push(el('span', { class: 'tag', text: t('mucked') }));
  if (sv.won > 0) parts.push(el('span', { class: 'won', text: t('wins', { amount: money(sv.won) }) }));
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
  pot.replaceChildren(el('span', { class: 'pot-main' }, total ? chips(total) : null, el('span', { class: 'pot-label', text: `${t('pot')} ` }), el('span', { class: 'pot-amount', text: money(total) })), ...listed);
  $('community').replaceChildren(...(view?.community ? [el('span', { class: 'label', text: t('community') }), cardElement({ card: view.community, up: true })] : []));
  $('turn').textContent = turnText(tb);
  if (tb.result) renderResult(tb);
}

export function turnText(tb) {
  const h = tb.hand;
  if (!h || h.view.phase === 'over') return tb.info.seats.length < 2 ? t('waiting_players') : t('waiting_hand');
  if (h.toAct == null) return streetName(h.view.street);
  if (h.toAct === tb.info.your_seat) return t('your_turn');
  return t('to_act', { name: whoAt(tb)(h.toAct) });
}

/** The clock of the seat to act, counting down locally from the last deadline_ms: the text in
 *  the middle and the bar on the seat (another colour once into the time bank). Ours is split
 *  into action time and time bank (the deadline includes the bank). */
export function renderClock() {
  const clock = $('clock');
  const h = state.table?.hand;
  if (!h || h.toAct == null || h.deadlineAt == null) {
    clock.textContent = '';
    clock.classList.remove('low');
    return;
  }
  const left = Math.max(0, h.deadlineAt - now());
  const bankMs = state.prompt ? state.prompt.bankMs : h.bankMs;
  const inBank = bankMs != null && left <= bankMs;
  if (state.prompt && bankMs != null) {
    const bank = Math.min(bankMs, left);
    clock.textContent = left > bank ? t('clock_split', { s: seconds(left - bank), b: seconds(bank) }) : t('clock_bank', { s: seconds(left) });
  } else {
    clock.textContent = t('clock', { s: seconds(left) });
  }
  clock.classList.toggle('low', left < 5000);
  const timer = document.querySelector('[data-testid=seat-timer]');
  if (timer) {
    // The bar shows the action time, then (refilled, in the bank's colour) the time bank.
    const span = inBank ? bankMs : Math.max(1, (h.deadlineTotal ?? left) - (bankMs ?? 0));
    const part = inBank ? left : left - (bankMs ?? 0);
    timer.dataset.phase = inBank ? 'bank' : 'action';
    timer.firstElementChild.style.width = `${Math.max(0, Math.min(100, (100 * part) / Math.max(1, span))).toFixed(1)}%`;
  }
}

/** Take a seat (watching) or top up and sit out / in (seated); the sat-out notice. */
export function renderSeatBar(tb) {
  const seated = tb.info.your_seat != null;
  const me = tb.info.seats.find((s) => s.seat === tb.info.your_seat);
  // A tournament seats its players and deals them in until they are out: no buy-in, no
  // top-up, no sitting out (the server refuses them there).
  const cash = !tb.tournamentId;
  $('table-sit').hidden = seated || !cash;
  $('top-up').hidden = !seated || !cash;
  $('sit-toggle').hidden = !seated || !cash;
  $('table-buy-in').parentElement.hidden = !cash;
  $('sit-toggle').textContent = me?.sitting_out ? t('sit_in') : t('sit_out');
  const out = Boolean(me?.sitting_out);
  $('sat-out').hidden = !out;
  // Why: the server's `sitting_out_reason` (timeout, requested, busted).
  const reason = { timeout: 'timeout', busted: 'busted' }[me?.sitting_out_reason] ?? 'self';
  $('sat-out').dataset.reason = out ? reason : '';
  $('sat-out-text').textContent = out ? t(`sat_out_${reason}`) : '';
}

export function sitHere(seat) {
  const tb = state.table;
  takeSeat(tb.id, Number($('table-buy-in').value), tb.code, seat);
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
