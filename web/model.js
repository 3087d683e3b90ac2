// The page's copy of a hand from the server's events, the log's words, the replayer's steps,
// seat rotation, pre-action choice, keyboard shortcuts, the declare game's declarations and the
// lobby's order (pure: no DOM, unit-tested under Node).

import { cardText, declarationName, money, nameCode, strengthName, translateHand } from './format.js';
import { t } from './i18n.js';

// ---- seats around the table ----------------------------------------------------------------

/** Where seat `n` is drawn: position 0 is the bottom centre (the viewer's own seat), then
 *  clockwise round the table. An observer sees seat 1 at the bottom. */
export function seatPosition(n, viewerSeat, count) {
  const base = viewerSeat ?? 1;
  return (((n - base) % count) + count) % count;
}

/** The point of position `pos` of `count` on the oval, in percent of the table area, and the
 *  direction to the centre (for the bet in front of the seat). */
export function seatPoint(pos, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * pos) / count; // 90 degrees = straight down
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return { left: 50 + 40 * cos, top: 50 + 38 * sin, dx: -cos, dy: -sin };
}

// ---- pre-actions ---------------------------------------------------------------------------

/** The action a ticked pre-action box answers a prompt with, or null (show the buttons).
 *  Only ever one of the prompt's own legal actions: the server decides what is legal. `call`
 *  (call this amount) calls only when the prompt's `toCall` is the `amount` ticked; `raise`
 *  (bet / raise / complete) makes the smallest wager legal (the small bet with an open pair,
 *  a big-bet range's bottom), and when none is (the betting is capped) shows the buttons. */
export function preActionChoice(pre, legal, toCall = null, amount = null) {
  const find = (kind) => legal.find((a) => a.kind === kind) ?? null;
  if (legal.some((a) => a.kind === 'show' || a.kind === 'muck' || a.kind === 'declare')) return null;
  switch (pre) {
    case 'check_fold': case 'fold_any': return find('check') ?? find('fold');
    case 'check': return find('check');
    case 'call': return toCall != null && toCall === amount ? find('call') : null;
    case 'call_any': return find('call') ?? find('check');
    case 'raise': {
      const wagers = legal.filter((a) => ['bet', 'raise', 'complete'].includes(a.kind) && a.to != null);
      return wagers.length ? wagers.reduce((x, y) => (y.to < x.to ? y : x)) : null;
    }
    case 'bring_in': return find('bring_in');
    default: return null;
  }
}

/** The words of the bet / raise box (the key of its label): complete on 3rd street while the
 *  bring-in has not been completed (`currentBet` below the small bet), raise when a bet is in,
 *  else bet. */
export function preRaiseLabel({ street, bringInGame, currentBet, smallBet }) {
  if (street === 'third' && bringInGame && currentBet < smallBet) return 'pre_complete';
  return currentBet > 0 ? 'pre_raise' : 'pre_bet';
}

/** The pre-action boxes that can still happen for us, in order (the page offers no other):
 *  - no check (nor check/fold) on 3rd street with a bring-in, where nobody may check, nor
 *    when a bet is already in front of us;
 *  - "call {amount}" only when a bet is in front of us (`toCall`: what calling it costs now);
 *  - fold to any bet, call any and bet / raise (complete on 3rd street), always;
 *  - the auto-posted bring-in only on 3rd street before it is posted and while the seat to bring
 *    in may be ours (not yet known, or us). */
export function preActionOffer({ street, bringInGame, broughtIn, toAct, mySeat, toCall }) {
  const third = street === 'third' && bringInGame;
  const facing = toCall > 0;
  const offer = [];
  if (!third && !facing) offer.push('check_fold', 'check');
  offer.push('fold_any');
  if (facing) offer.push('call');
  offer.push('call_any', 'raise');
  if (third && !broughtIn && (toAct == null || toAct === mySeat)) offer.push('bring_in');
  return offer;
}

// ---- the action clock ----------------------------------------------------------------------

/** The clock of the seat to act, the same on every viewer's page (the actor's own and everyone
 *  else's): `leftMs` to the deadline, the last `bankMs` of which are that player's time bank
 *  (`time_bank_ms` of `turn`, `your_turn` or the snapshot), `totalMs` the deadline's length when
 *  it was given. `phase` action or bank; `actionMs` and `bankMs` left of each; `fraction` of the
 *  bar (the action time, then, refilled, the bank); `words` the i18n key and its parameters:
 *  "12s + time bank 30s", "time bank 8s", or "12s" without a bank. */
export function clockFace(leftMs, bankMs, totalMs = null) {
  const left = Math.max(0, Number(leftMs) || 0);
  const bank = Math.max(0, Number(bankMs) || 0);
  const inBank = bank > 0 && left <= bank;
  const actionMs = inBank ? 0 : left - bank;
  const span = inBank ? bank : Math.max(1, (Number(totalMs) || left) - bank);
  const fraction = Math.max(0, Math.min(1, (inBank ? left : actionMs) / Math.max(1, span)));
  const s = (ms) => Math.ceil(ms / 1000);
  let words = ['clock', { s: s(left) }];
  if (inBank) words = ['clock_bank', { s: s(left) }];
  else if (bank > 0) words = ['clock_split', { s: s(actionMs), b: s(bank) }];
  return { phase: inBank ? 'bank' : 'action', actionMs, bankMs: inBank ? left : bank, fraction, words };
}

// ---- keyboard shortcuts --------------------------------------------------------------------

// The first legal action of one of these kinds (a declaration is named `declare:high`, ...: all
// three are of kind `declare`). B is bet, raise or complete while betting and "both" at the
// declaration (never legal at the same prompt). A wager legal at two sizes (the open pair's
// small and big bet on 4th street; a big-bet table's chosen size and the pot) has two keys: B
// the smaller (or the size chosen), P the larger (the pot).
export const KEYS = { f: ['fold'], c: ['check', 'call'], b: ['bet', 'raise', 'complete', 'declare:both'], p: ['bet', 'raise', 'complete'], i: ['bring_in'], s: ['show'], m: ['muck'], h: ['declare:high'], l: ['declare:low'] };
export const SHORTCUT = { fold: 'F', check: 'C', call: 'C', bet: 'B', raise: 'B', complete: 'B', bring_in: 'I', show: 'S', muck: 'M', 'declare:high': 'H', 'declare:low': 'L', 'declare:both': 'B' };
export const LARGER_KEY = 'P';

// The page's own keys, at a table or anywhere (not actions): LAST HAND (V: view the last
// hands), sitting out and in again (O), the tournament panel at a tournament table (T), the
// next table where our turn waits (N); Escape closes the panel on top. None of them is an
// action key.
export const PAGE_KEYS = { v: 'last_hands', o: 'sit_out', t: 'tournament', n: 'next_table' };

/** Multi-tabling: the table the N key goes to: of the tables in tab order (`ids`), the first
 *  after `current` (wrapping round) whose turn waits for us (`waiting`: a Set of ids), never
 *  `current` itself; null when our turn waits nowhere else. */
export function nextTurnTable(ids, current, waiting) {
  const at = ids.indexOf(current);
  for (let i = 1; i <= ids.length; i += 1) {
    const id = ids[(Math.max(at, -1) + i + ids.length) % ids.length];
    if (id !== current && waiting.has(id)) return id;
  }
  return null;
}

/** What an `error` that answers none of our requests is about (proto/PROTOCOL.md section 8):
 *  'table' (it carries `table_id`: that table is gone from this socket, an operator removed us
 *  or its access changed; the session and every other table go on), 'session' (the session
 *  is refused: `not_authenticated`, or `forbidden` without a table, an account banned from the
 *  server), 'retry' (`unavailable` before the session is known: say hello again shortly),
 *  'rate_limited' (a frame of ours was dropped) or 'other' (said, nothing more). */
export function errorScope(m, signedIn = true) {
  if (typeof m?.table_id === 'string' && m.table_id) return 'table';
  if (m?.code === 'not_authenticated' || m?.code === 'forbidden') return 'session';
  if (m?.code === 'unavailable' && !signedIn) return 'retry';
  if (m?.code === 'rate_limited') return 'rate_limited';
  return 'other';
}

/** An action's name for the keys: its kind, a declaration's `declare:high`. */
export const keyName = (a) => (a.kind === 'declare' ? `declare:${a.declaration}` : a.kind);

/** The legal actions of `a`'s kind at more than one size, smallest first (one, or none). */
const sizesOf = (a, legal) => legal.filter((x) => keyName(x) === keyName(a) && x.to != null).sort((x, y) => x.to - y.to);

/** The key shown on an action's button: P for the larger of two sizes, else its kind's key. */
export function shortcutFor(a, legal) {
  const sizes = sizesOf(a, legal);
  return sizes.length > 1 && a.to === sizes.at(-1).to ? LARGER_KEY : SHORTCUT[keyName(a)];
}

/** The legal action key `key` answers with, or null. B takes the smaller of two sizes, P the
 *  larger (and nothing when there is only one size). */
export function keyedAction(key, legal) {
  const k = String(key).toLowerCase();
  for (const kind of KEYS[k] ?? []) {
    const options = legal.filter((a) => keyName(a) === kind);
    if (!options.length) continue;
    const sizes = sizesOf(options[0], legal);
    if (k === LARGER_KEY.toLowerCase()) return sizes.length > 1 ? sizes.at(-1) : null;
    return sizes.length > 1 ? sizes[0] : options[0];
  }
  return null;
}

// ---- hand events: the page's copy of the hand, and the log's words -------------------------

/** Applies one event to a HandView, as the engine does (view.rs): `bet` is this street's
 *  chips, `committed` the hand's (antes included). False if the event names a seat this view
 *  does not have. The pots are the server's (`pots` on the event frame), never added up here. */
export function applyEvent(view, ev, pots = null) {
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
      for (const s of view.seats) { s.bet = 0; s.brought_in = false; }
      break;
    case 'bring_in': pay(ev.amount); seat.brought_in = true; break;
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
      seat.handCode = ev.code ?? null;
      break;
    case 'mucked': seat.mucked = true; break;
    // The declare game (RULES.md 12.2): another seat's choice is null until the reveal.
    case 'declaration_started': view.phase = 'declare'; break;
    case 'declared':
      seat.declared = true;
      if (ev.declaration) seat.declaration = ev.declaration;
      break;
    case 'declarations_revealed':
      for (const [n, d] of ev.declarations ?? []) {
        const s = view.seats.find((x) => x.seat === n);
        if (s) Object.assign(s, { declared: true, declaration: d });
      }
      break;
    case 'award': seat.stack += ev.amount; seat.won += ev.amount; seat.winning = ev.hand ?? seat.winning ?? null; break;
    case 'hand_ended':
      view.phase = 'over';
      view.to_act = null;
      for (const s of view.seats) { s.bet = 0; s.committed = 0; s.brought_in = false; }
      break;
    default: break;
  }
  for (const s of view.seats) s.all_in = !s.folded && s.stack === 0 && view.phase !== 'over';
  view.current_bet = Math.max(0, ...view.seats.map((s) => s.bet));
  if (Array.isArray(pots)) view.pots = pots;
  if (view.phase === 'over') view.pots = [];
  return true;
}

/** A fresh, empty view for a hand of `variant`. */
export const emptyView = (variant) => ({ variant, street: 'third', phase: 'betting', seats: [], pots: [], community: null, current_bet: 0, legal_actions: [] });

export const streetName = (s) => t(`street_${s}`);
export const dealtText = (cards) => cards.map((c) => (c.up ? cardText(c.card) : `[${cardText(c.card)}]`)).join(' ').replaceAll('] [', ' ');

/** The cards of a street are announced on one line once the street's dealing is done. */
export function flushDeals(ctx, who) {
  if (!ctx.deals.length) return [];
  const deals = ctx.deals;
  ctx.deals = [];
  const street = deals[0].street;
  const bySeat = new Map();
  for (const d of deals) bySeat.set(d.seat, [...(bySeat.get(d.seat) || []), d]);
  return [() => t('log_street', { street: streetName(street), deals: [...bySeat].map(([seat, cards]) => `${who(seat)} ${dealtText(cards)}`).join(' · ') })];
}

/** The part of a winning hand's code a declaration played for (the declare game): a player
 *  who declared high won with the high hand even when the whole pot came to them, one who
 *  declared low with the low; both (or no declaration), the code as it is. A code without that
 *  part stays whole (the pot came to them because nobody else was left in it). */
export function declaredCode(code, declaration) {
  if (!code || !declaration || declaration === 'both') return code;
  const part = declaration === 'high' ? { high: code.high ?? null, low: null } : { high: null, low: code.low ?? null };
  return part.high || part.low ? part : code;
}

/** An award as words: "Ann wins $3.60 with Two pair, Queens and Nines (high half)"; chicago's
 *  other half: "Bob wins $1.80 with Spade in the hole, King (spade half)". `declaration`: what
 *  the winner declared (the declare game), which names the hand they won with. */
export function awardLine(a, who, declaration = null) {
  return () => {
    const where = [];
    if (a.half === 'high') where.push(t('log_high_half'));
    if (a.half === 'low') where.push(t('log_low_half'));
    if (a.half === 'spade') where.push(t('log_spade_half'));
    if (a.pot > 0) where.push(t('log_side', { n: a.pot }));
    const params = { who: who(a.seat), amount: money(a.amount), hand: a.code ? strengthName(declaredCode(a.code, declaration)) : translateHand(a.hand) };
    const line = t(a.hand ? 'log_wins_with' : 'log_wins', params);
    return where.length ? `${line} (${where.join(', ')})` : line;
  };
}

/** One event as dealer-chat lines, each a function giving the text in the language of the
 *  moment (so the log can be re-read after a language switch). `who(seat)` names a seat;
 *  `ctx.deals` collects the cards of the street being dealt. */
export function describeEvent(ev, ctx, who) {
  const name = ev.seat != null ? who(ev.seat) : '';
  const allIn = (fn) => (ev.all_in ? () => t('log_all_in', { line: fn() }) : fn);
  switch (ev.event) {
    case 'hand_started': ctx.declarations = null; return [() => t('log_dealt_in', { list: ev.seats.map(([s, stack]) => `${who(s)} (${money(stack)})`).join(', ') })];
    case 'ante': return [allIn(() => t('log_ante', { who: name, amount: money(ev.amount) }))];
    case 'dealt': ctx.deals.push(ev); return [];
    case 'community': return [...flushDeals(ctx, who), () => t('log_community', { card: cardText(ev.card) })];
    case 'street_started': return flushDeals(ctx, who);
    case 'bring_in': return [allIn(() => t('log_bring_in', { who: name, amount: money(ev.amount) }))];
    case 'complete': return [allIn(() => t('log_complete', { who: name, amount: money(ev.to) }))];
    case 'bet': return [allIn(() => t('log_bet', { who: name, amount: money(ev.to) }))];
    case 'raise': return [allIn(() => t('log_raise', { who: name, amount: money(ev.to) }))];
    case 'call': return [allIn(() => t('log_call', { who: name, amount: money(ev.amount) }))];
    case 'check': return [() => t('log_check', { who: name })];
    case 'fold': return [() => t('log_fold', { who: name })];
    case 'uncalled': return [() => t('log_uncalled', { who: name, amount: money(ev.amount) })];
    case 'showdown': return [...flushDeals(ctx, who), () => t('log_showdown')];
    case 'shown': return [() => t('log_shows', { who: name, cards: ev.cards.map(cardText).join(' '), hand: handName(ev.code ?? null, ev.description, ctx.variant) })];
    case 'show_or_muck': return [() => t('log_may_show', { who: name })];
    case 'mucked': return [() => t('log_mucks', { who: name })];
    case 'declaration_started': return [...flushDeals(ctx, who), () => t('log_declaration', { list: (ev.order ?? []).map(who).join(', ') })];
    // Our own declaration in words; another player's only that they declared (until the reveal).
    case 'declared': return [() => (ev.declaration ? t('log_declares', { who: name, declaration: declarationName(ev.declaration) }) : t('log_declared', { who: name }))];
    case 'declarations_revealed':
      ctx.declarations = Object.fromEntries(ev.declarations ?? []); // the awards name the hands declared for
      return [() => t('log_declarations', { list: (ev.declarations ?? []).map(([s, d]) => `${who(s)} ${declarationName(d)}`).join(', ') })];
    case 'award': return [awardLine(ev, who, ctx.declarations?.[ev.seat] ?? null)];
    case 'hand_ended': return [...flushDeals(ctx, who), () => t('log_over')];
    default: return [];
  }
}

export function lineClass(ev) {
  if (ev.event === 'award') return 'win';
  if (ev.event === 'shown' || ev.event === 'showdown' || ev.event === 'declarations_revealed') return 'showdown';
  if (ev.event === 'dealt' || ev.event === 'street_started' || ev.event === 'community') return 'deal';
  return '';
}

/** What a seat shows of its declaration (the declare game): `{declared, declaration}` with
 *  the choice only when the viewer may see it (their own at once, everyone's after the reveal:
 *  the server sends it then, never before), or null when the seat has not declared. */
export function seatDeclaration(sv) {
  if (!sv || (!sv.declared && !sv.declaration)) return null;
  return { declared: true, declaration: sv.declaration ?? null };
}

/** A declaration as a seat's tag: "declared" while hidden, "declared both" once known. */
export const declarationTag = (d) => (d?.declaration ? t('declared_as', { declaration: declarationName(d.declaration) }) : d ? t('declared') : '');

/** A seat's name for the log: the name, else "Seat 3". */
export const namer = (names) => (seat) => names?.[seat] ?? t('seat_n', { n: seat });

// ---- the five cards that made a hand -------------------------------------------------------
// The server names a shown hand (`hand_code`: its category and ranks) but not which five of the
// cards made it. The page finds them with this small evaluator (RULES.md 5.1: stud's high hand,
// razz's ace-to-five low, stud8's eight-or-better low) and shows them only when they make the
// very hand the server named (playedCards): it never names a hand of its own.

const HIGH_CATEGORIES = ['high_card', 'one_pair', 'two_pair', 'three_of_a_kind', 'straight', 'flush', 'full_house', 'four_of_a_kind', 'straight_flush'];
const LOW_CATEGORIES = ['high_card', 'one_pair', 'two_pair', 'three_of_a_kind', 'full_house', 'four_of_a_kind'];
const RANK_ORDER = '23456789TJQKA';
const highValue = (card) => RANK_ORDER.indexOf(card[0]) + 2; // 2 .. 14 (ace high)
const lowValue = (card) => (card[0] === 'A' ? 1 : highValue(card)); // 1 (ace low) .. 13
const symbol = (v) => (v === 1 || v === 14 ? 'A' : RANK_ORDER[v - 2]);

/** The five cards' ranks grouped: [value, count] with the most of a kind first, then the
 *  greater value. */
function groupsOf(five, value) {
  const counts = new Map();
  for (const c of five) counts.set(value(c), (counts.get(value(c)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
}

/** A high hand of exactly five cards: `{key, code}`, `key` compared element by element (the
 *  greater the better), `code` as the server writes it (`{category, ranks}`: a straight by its
 *  top card, the wheel's a five; four of a kind and a full house by their two ranks; three of a
 *  kind and two pair by three; a pair by four; a flush and high card by all five). */
function rateHigh(five) {
  const groups = groupsOf(five, highValue);
  const flush = five.every((c) => c[1] === five[0][1]);
  const values = groups.map((g) => g[0]);
  let top = 0;
  if (groups.length === 5) {
    if (values[0] - values[4] === 4) [top] = values;
    else if (values.join() === '14,5,4,3,2') top = 5; // A-2-3-4-5, the lowest straight
  }
  const shape = groups.map((g) => g[1]).join('');
  let cat;
  if (top && flush) cat = 8;
  else if (shape === '41') cat = 7;
  else if (shape === '32') cat = 6;
  else if (flush) cat = 5;
  else if (top) cat = 4;
  else if (shape === '311') cat = 3;
  else if (shape === '221') cat = 2;
  else if (shape === '2111') cat = 1;
  else cat = 0;
  const ranks = top ? [top] : values;
  return { key: [cat, ...ranks], code: { category: HIGH_CATEGORIES[cat], ranks: ranks.map(symbol).join('') } };
}

/** An ace-to-five low of exactly five cards (straights and flushes do not count, pairs are
 *  bad): `{key, code}`, `key` the smaller the better; `code` as the server writes a low (the
 *  ranks as the low reads, highest first and the ace last: "8642A"; a paired low by its groups,
 *  "Pair of Twos, K-Q-J" is "2KQJ"). */
function rateLow(five) {
  const groups = groupsOf(five, lowValue);
  const cat = { 11111: 0, 2111: 1, 221: 2, 311: 3, 32: 4, 41: 5 }[groups.map((g) => g[1]).join('')];
  const values = groups.map((g) => g[0]);
  return { key: [cat, ...values], code: { category: LOW_CATEGORIES[cat], ranks: values.map(symbol).join('') } };
}

/** Every five of `cards`, in order (the first cards first). */
function fives(cards) {
  const out = [];
  const n = cards.length;
  for (let a = 0; a < n; a += 1) for (let b = a + 1; b < n; b += 1) for (let c = b + 1; c < n; c += 1) {
    for (let d = c + 1; d < n; d += 1) for (let e = d + 1; e < n; e += 1) out.push([cards[a], cards[b], cards[c], cards[d], cards[e]]);
  }
  return out;
}

const compare = (x, y) => {
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

/** The five in the order the hand reads: the groups first (a pair before its kickers), then
 *  the greater rank; a straight from its top (the wheel 5-4-3-2-A); a low from its highest
 *  card, the ace last. */
function readOrder(five, value, wheel = false) {
  const groups = new Map(groupsOf(five, value));
  const v = (c) => (wheel && value(c) === 14 ? 1 : value(c));
  return [...five].sort((a, b) => groups.get(value(b)) - groups.get(value(a)) || v(b) - v(a));
}

/** The best high hand of five among `cards` (card codes like "Ah"; five or more):
 *  `{cards, code}` (the five in the order the hand reads), or null with fewer than five. Of
 *  equal hands, the one of the earliest cards. */
export function bestHigh(cards) {
  let best = null;
  for (const five of fives(cards)) {
    const r = rateHigh(five);
    if (!best || compare(r.key, best.key) > 0) best = { ...r, five };
  }
  if (!best) return null;
  return { cards: readOrder(best.five, highValue, best.code.ranks === '5' && /straight/.test(best.code.category)), code: best.code };
}

/** The best ace-to-five low of five among `cards` (razz, RULES.md 5.1: every hand has one);
 *  with `eight` (stud8's low) only five different ranks all 8 or lower qualify, and null when
 *  none do. `{cards, code}` as bestHigh. */
export function bestLow(cards, eight = false) {
  let best = null;
  for (const five of fives(cards)) {
    if (eight && (new Set(five.map(lowValue)).size < 5 || five.some((c) => lowValue(c) > 8))) continue;
    const r = rateLow(five);
    if (!best || compare(r.key, best.key) < 0) best = { ...r, five };
  }
  if (!best) return null;
  return { cards: readOrder(best.five, lowValue), code: best.code };
}

/** What `cards` (a player's own cards and any community card) make in `variant`, each half's
 *  five: `{high, low}` (each `{cards, code}` or null). Stud, Chicago and Mississippi play high;
 *  razz and London Lowball the ace-to-five low; the hi/lo games both, the low only when it
 *  qualifies (eight or better). Null with fewer than five cards or a card not known. */
export function madeHands(variant, cards) {
  if (cards.length < 5 || cards.some((c) => typeof c !== 'string' || c.length !== 2)) return null;
  const low = variant === 'razz' || variant === 'london';
  const hilo = variant === 'stud8' || variant === 'stud8_declare';
  return { high: low ? null : bestHigh(cards), low: low ? bestLow(cards) : hilo ? bestLow(cards, true) : null };
}

/** Whether the page's five (`a`, a code as the server writes it) make the hand the server
 *  named (`b`): its `hand_code`, the same category and ranks; or its English name read as a
 *  code (format.js nameCode, `named`), the same category and the ranks the name gives (a high
 *  hand's name leaves its kickers out). */
const sameCode = (a, b) => Boolean(a && b && a.category === b.category && (b.named ? a.ranks.startsWith(b.ranks) : a.ranks === b.ranks));

/** The cards that made a shown hand, as the page marks them: `{high, low}` (card codes, each
 *  half's five in the order the hand reads), each only when it makes the very hand the server
 *  named for that half (`code`: the `shown` event's `hand_code`), else null; null without that
 *  code or with nothing to mark (the page never decides a hand). `seen`: the seat's cards
 *  ({card, up}); `community`: the community card, if dealt (it may be one of the five);
 *  `declaration` (the declare game): a player who declared one half plays only that one. */
export function playedCards(variant, seen, community, code, declaration = null) {
  if (!code || !Array.isArray(seen)) return null;
  const own = seen.map((c) => c?.card ?? null);
  const made = madeHands(variant, community ? [...own, community] : own);
  if (!made) return null;
  const high = made.high && sameCode(made.high.code, code.high) && declaration !== 'low' ? made.high.cards : null;
  const low = made.low && sameCode(made.low.code, code.low) && declaration !== 'high' ? made.low.cards : null;
  return high || low ? { high, low } : null;
}

/** The code of a seat's hand as the server named it: the `shown` event's `hand_code` (kept as
 *  `handCode`), or the seat's own `hand_code` should a view's seat ever carry one (the wire's
 *  SeatView has none yet), else the seat's English name (`hand`: a snapshot's or a LAST HAND
 *  report's seat, or a replayed `shown` event's) read as far as it goes (nameCode). Null when
 *  none says a hand. */
export const seatCode = (variant, sv) => sv?.handCode ?? sv?.hand_code ?? nameCode(sv?.hand, variant);

/** A shown hand's name in the page's language, written one way everywhere (the table's seats,
 *  the log, LAST HAND, the replayer): from its code (`hand_code`, else the server's English
 *  name read as one), so a stud8 low is "LO: 8-6-4-2-A" wherever it is shown; the English name
 *  translated when it cannot be read as a code. */
export function handName(code, description, variant = null) {
  const c = code ?? nameCode(description, variant);
  return c ? strengthName(c) : translateHand(description);
}

/** A seat's hand name (handName): its own code, else its English name. */
export const seatHandName = (variant, sv) => (sv?.hand || sv?.handCode ? handName(sv.handCode ?? null, sv.hand, variant) : '');

/** The five cards that made a seat's shown hand (playedCards with the seat's code), or null:
 *  the table's seats, LAST HAND's report and its replayer all mark them with this. `view`: the
 *  hand's view (its variant and community card). */
export function seatPlayed(view, sv) {
  if (!view || !sv?.shown) return null;
  return playedCards(view.variant, sv.cards, view.community ?? null, seatCode(view.variant, sv), sv.declaration ?? null);
}

/** The cards an award shows (the live result strip, LAST HAND's awards): the five of the half
 *  it was won with (`{half, cards}`, in the order the hand reads) when the winner's shown hand
 *  is marked (seatPlayed), else every card the winner showed (`half` null); null when the
 *  winner showed nothing (everyone else folded). */
export function awardCards(view, award) {
  const sv = view?.seats.find((s) => s.seat === award.seat);
  if (!sv?.shown) return null;
  const half = awardHalf(award, view.variant, sv.declaration ?? null);
  const five = half ? seatPlayed(view, sv)?.[half] : null;
  return five ? { half, cards: five } : { half: null, cards: sv.cards.map((c) => c.card) };
}

/** What a card is in a marked hand (playedCards): 'high', 'low', 'high low' (in both fives), or
 *  '' when it plays in neither; null when nothing is marked. */
export function cardPart(played, card) {
  if (!played) return null;
  return ['high', 'low'].filter((h) => played[h]?.includes(card)).join(' ');
}

/** Which half's five an award was won with: 'high' or 'low' ('whole': the low in razz and
 *  London, in the declare game the half declared; else the high), null for Chicago's spade
 *  half (a card, not five). */
export function awardHalf(award, variant, declaration = null) {
  if (award.half === 'high' || award.half === 'low') return award.half;
  if (award.half === 'spade') return null;
  if (variant === 'razz' || variant === 'london') return 'low';
  return declaration === 'low' ? 'low' : 'high';
}

// ---- the replayer --------------------------------------------------------------------------

/** A finished hand's events cut into steps a player steps through, street by street: each
 *  street's deal and betting, then the showdown, then the result. Each step is the number of
 *  events it shows (events[0..end]) and its label (a street, 'step_showdown', 'step_end'). */
export function replaySteps(events) {
  const steps = [];
  let street = 'third';
  let showdownAt = -1;
  events.forEach((ev, i) => {
    if (ev.event === 'street_started' || ev.event === 'dealt') street = ev.street;
    if (ev.event === 'street_ended') steps.push({ end: i + 1, label: ev.street });
    if (ev.event === 'showdown') showdownAt = i;
  });
  const firstAward = events.findIndex((ev) => ev.event === 'award');
  const last = steps.at(-1)?.end ?? 0;
  if (showdownAt >= 0 && firstAward > showdownAt && firstAward > last) steps.push({ end: firstAward, label: 'step_showdown' });
  else if (firstAward > last && showdownAt < 0) steps.push({ end: firstAward, label: street });
  if (!steps.length || steps.at(-1).end < events.length) steps.push({ end: events.length, label: 'step_end' });
  return steps;
}

/** The pots as they stood after `count` events (the server's `pots[i]` follows `events[i]`):
 *  once awarded (empty), the pots that were awarded. */
export function potsAt(pots, count) {
  for (let i = Math.min(count, pots?.length ?? 0) - 1; i >= 0; i -= 1) if (pots[i]?.length) return pots[i];
  return [];
}

/** The hand as it stood after `count` events: the view, the log lines so far and the pot
 *  (the server's pots of the report, added up for the one figure shown). */
export function replayState(events, count, variant = 'stud', pots = []) {
  const view = emptyView(variant);
  const ctx = { deals: [] };
  const lines = [];
  for (const ev of events.slice(0, count)) {
    applyEvent(view, ev);
    lines.push(ev);
  }
  const pot = potsAt(pots, count).reduce((sum, p) => sum + p.amount, 0);
  return { view, ctx, events: lines, pot };
}


// ---- the waiting list (proto/PROTOCOL.md section 2) -----------------------------------------

/** Whether the free seats are all offered to players on the waiting list: the server seats
 *  nobody else then (`sit` refused `table_full`). The first `free` in line are offered one
 *  each, so that is so whenever as many wait as there are free seats (`offered`: a seat is
 *  offered to us, so we are not kept out). */
export const seatsReserved = (free, waiting, offered = false) => free > 0 && waiting >= free && !offered;

/** The waiting list at a table as its snapshot shows it to this viewer (`info`: the snapshot's
 *  table; `seatCount`: its seats; `tournament`: a tournament's table, which has no list):
 *  `show` the control (a viewer not seated, at a cash table that is full, or whose list has
 *  players or us on it), `waiting` (the count), `on` (we are on it), `position` (1: first),
 *  `offerMs` (a seat is offered to us: the time left to take it, else null), `full`,
 *  `reserved` (every free seat is offered to others: no seat for us now), `canJoin` (the
 *  toggle joins: not on the list, no seat for us), `canSit` (a free seat we may take now). */
export function waitlistView(info, seatCount, tournament = false) {
  const seated = info?.your_seat != null;
  const waiting = Number(info?.waiting) || 0;
  const wait = info?.wait ?? null;
  const free = Math.max(0, (Number(seatCount) || 0) - (info?.seats?.length ?? 0));
  const offerMs = wait?.offer_ms ?? null;
  const on = Boolean(wait);
  const reserved = seatsReserved(free, waiting, offerMs != null);
  const cash = Boolean(info) && !seated && !tournament;
  return {
    show: cash && (on || waiting > 0 || free === 0),
    waiting, on, position: wait?.position ?? null, offerMs,
    full: free === 0, reserved,
    canJoin: cash && !on && (free === 0 || reserved),
    canSit: cash && free > 0 && !reserved,
  };
}

/** A lobby row's waiting list (GET /api/tables: `seats_taken`, `seats`, `waiting`): `join`
 *  (the row offers "Join waiting list": the table is full, or its free seats are all offered
 *  to the list; Sit would be refused) and `waiting` (the count). */
export function lobbyWaitlist(x) {
  const waiting = Number(x?.waiting) || 0;
  const free = Math.max(0, (x?.seats ?? 8) - (x?.seats_taken ?? 0));
  return { join: free === 0 || seatsReserved(free, waiting), waiting };
}

/** A `waitlist` ack's detail read: `{on, position}` ("on the waiting list: position 2": on,
 *  2; "off the waiting list" / "not on the waiting list": off, null); null when it is neither. */
export function waitlistAck(detail) {
  const text = String(detail ?? '').trim().toLowerCase();
  const at = /^on the waiting list(?::\s*position\s+(\d+))?/.exec(text);
  if (at) return { on: true, position: at[1] ? Number(at[1]) : null };
  if (/^(off|not on) the waiting list/.test(text)) return { on: false, position: null };
  return null;
}

/** What each lobby column sorts on. The activity columns (hands per hour, the average pot, the
 *  players waiting) count a row without the figure as 0. */
export const LOBBY_SORT = {
  name: (x) => x.name.toLowerCase(), variant: (x) => x.variant, stakes: (x) => x.config.big_bet,
  seats: (x) => x.seats_taken, buy_in: (x) => x.min_buy_in,
  hands_per_hour: (x) => Number(x.hands_per_hour) || 0, average_pot: (x) => Number(x.average_pot) || 0,
  waiting: (x) => Number(x.waiting) || 0,
};

/** The lobby's columns for these rows (GET /api/tables): the fixed ones, then the activity
 *  columns the server sends: hands per hour, the average pot (`average_pot`) and the players
 *  waiting (`waiting`), each only when some row carries it. `first`: the direction of a first
 *  click on the column (the busiest tables first for the activity columns). */
export function lobbyColumns(tables) {
  const has = (key) => tables.some((x) => x[key] !== undefined && x[key] !== null);
  return [
    { key: 'name', label: 'col_table', first: 1 },
    { key: 'variant', label: 'col_game', first: 1 },
    { key: 'stakes', label: 'col_stakes', first: 1 },
    { key: 'seats', label: 'col_seats', first: 1 },
    ...(has('hands_per_hour') ? [{ key: 'hands_per_hour', label: 'col_hands_per_hour', first: -1, num: true }] : []),
    ...(has('average_pot') ? [{ key: 'average_pot', label: 'col_average_pot', first: -1, num: true }] : []),
    ...(has('waiting') ? [{ key: 'waiting', label: 'col_waiting', first: -1, num: true }] : []),
    { key: 'buy_in', label: 'col_buy_in', first: 1 },
  ];
}

/** A click on a lobby column: the order it asks for (`{sort, dir}`): the other way when it is
 *  the column sorted on, else the column's first direction. */
export function lobbySortClick(order, column) {
  return order.sort === column.key ? { sort: column.key, dir: -order.dir } : { sort: column.key, dir: column.first ?? 1 };
}

/** `aria-sort` of a lobby column's header. */
export const ariaSort = (order, key) => (order.sort === key ? (order.dir > 0 ? 'ascending' : 'descending') : 'none');

// ---- sounds --------------------------------------------------------------------------------

/** The sound a table frame makes (when sounds are on): `deal` for a card dealt, `chips` for
 *  chips put in (antes, the bring-in, bets, calls) or a pot pushed to another player, `win` for
 *  a pot pushed to us (`mySeat`), `turn` for our prompt; null for anything else. A table not on
 *  screen (`onScreen` false) makes only the turn's sound. */
export function soundFor(msg, mySeat, onScreen = true) {
  if (msg?.type === 'your_turn') return 'turn';
  if (!onScreen || msg?.type !== 'event' || !msg.event) return null;
  const ev = msg.event;
  switch (ev.event) {
    case 'dealt': return 'deal';
    case 'ante': case 'bring_in': case 'complete': case 'bet': case 'raise': case 'call': return 'chips';
    case 'award': return mySeat != null && ev.seat === mySeat ? 'win' : 'chips';
    default: return null;
  }
}

/** The synthesized tones of each sound (dom.js plays them with the Web Audio API, no file):
 *  each is a list of notes `[frequency Hz, start s, length s, wave, gain]`. Every kind starts
 *  with a frequency of its own (a test tells them apart by it). */
export const SOUNDS = {
  deal: [[1400, 0, 0.05, 'triangle', 0.06]],
  chips: [[2200, 0, 0.04, 'square', 0.025], [2900, 0.05, 0.04, 'square', 0.02]],
  turn: [[880, 0, 0.25, 'sine', 0.08]],
  win: [[523, 0, 0.12, 'sine', 0.07], [659, 0.1, 0.12, 'sine', 0.07], [784, 0.2, 0.25, 'sine', 0.07]],
};

/** The lobby's filters and order, kept in the preferences (so the order stays put). */
export function lobbyView(tables, opts) {
  const big = (x) => x.config.big_bet;
  const bigs = [...new Set(tables.map(big))].sort((a, b) => a - b);
  const median = bigs[Math.floor((bigs.length - 1) / 2)] ?? 0;
  const keep = tables.filter((x) =>
    (opts.variant === 'all' || x.variant === opts.variant)
    && (opts.stakes === 'all' || (opts.stakes === 'low' ? big(x) <= median : big(x) > median))
    && (opts.players === 'all'
      || (opts.players === 'some' && x.seats_taken > 0)
      || (opts.players === 'free' && x.seats_taken < (x.seats ?? 8))
      || (opts.players === 'empty' && x.seats_taken === 0)));
  const value = LOBBY_SORT[opts.sort] ?? ((x) => x.name);
  // A stable sort with the table id as the last key: the order never jumps between refreshes.
  return keep.sort((a, b) => {
    const [va, vb] = [value(a), value(b)];
    if (va < vb) return -opts.dir;
    if (va > vb) return opts.dir;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

// ---- chat ----------------------------------------------------------------------------------

/** The longest chat message, in characters (the server's `CHAT_MAX_CHARS`). */
export const CHAT_MAX_CHARS = 200;

/** What the viewer may do with a table's chat: 'off' (the operator turned it off), 'read'
 *  (watching) or 'write' (seated). The server decides; this only shows it. */
export function chatMode(info) {
  if (!info?.chat) return 'off';
  return info.your_seat != null ? 'write' : 'read';
}

/** A message as it would be sent, or null when there is nothing to send or it is too long
 *  (counted in characters, as the server counts them, not UTF-16 units). */
export function chatMessage(text) {
  const trimmed = String(text ?? '').trim();
  if (!trimmed || [...trimmed].length > CHAT_MAX_CHARS) return null;
  return trimmed;
}

// ---- tournaments ---------------------------------------------------------------------------

/** The mixed rotation's order (proto: "Razz, Stud, Stud Hi/Lo in turn"). */
export const ROTATION = ['razz', 'stud', 'stud8'];

/** The game after `current` in a rotation; null for a tournament of one game. */
export function nextGame(variant, current) {
  if (variant !== 'rotation') return null;
  const i = ROTATION.indexOf(current);
  return i < 0 ? null : ROTATION[(i + 1) % ROTATION.length];
}

/** Milliseconds to the next level `now` (ms, the page's clock), counted from the server's
 *  `ms_to_next_level` when the detail arrived at `fetchedAt`; null when the level has no
 *  clock (levels in hands, the last level, not running). */
export function levelMsLeft(detail, fetchedAt, now) {
  if (detail?.status !== 'running' || detail.ms_to_next_level == null) return null;
  return Math.max(0, detail.ms_to_next_level - (now - fetchedAt));
}

/** Milliseconds to the next level at `now` (performance.now()) as the page shows it, with an
 *  operator's pause (`pause`: clockPause's, null when the clocks run): levelMsLeft from the
 *  detail (`entry`: {detail, at}) while they run; while paused, the time left when they stopped
 *  (the detail's `next_level_at` less its `paused_since`, else as the detail counted down to
 *  when the pause's frame came), which stands; resumed, that time counting down from when the
 *  resume's frame came, until the detail asked for then (its level's end moved on by the pause)
 *  is here. Null when the level has no clock. */
export function levelClock(entry, pause, now) {
  const d = entry?.detail;
  if (!pause) return levelMsLeft(d, entry?.at, now);
  if (d?.status !== 'running' || d.ms_to_next_level == null) return null;
  let stood;
  if (pause.since == null) stood = levelMsLeft(d, entry.at, Math.max(entry.at, pause.at));
  else stood = d.next_level_at != null ? Math.max(0, d.next_level_at - pause.since) : d.ms_to_next_level;
  return pause.resumed ? Math.max(0, stood - Math.max(0, now - pause.resumed.at)) : stood;
}

/** The current level's line and the next one: {n, count, level, next, last}. */
export function levelNow(detail) {
  const levels = detail?.levels ?? [];
  const n = Math.min(Math.max(1, detail?.level ?? 1), Math.max(1, levels.length));
  return { n, count: levels.length, level: levels[n - 1] ?? null, next: levels[n] ?? null, last: n >= levels.length };
}

/** Where a player stands: players left (playing) of every entrant, the player's entry and,
 *  once finished, their place and prize. */
export function standing(detail, playerId) {
  const entrants = detail?.entrants ?? [];
  const me = entrants.find((e) => e.player_id === playerId) ?? null;
  const running = detail?.status === 'running' || detail?.status === 'finished';
  const left = running ? entrants.filter((e) => e.state === 'playing').length : entrants.length;
  return { left, total: entrants.length, me, place: me?.place ?? null, prize: me?.prize ?? null };
}

/** Which registration buttons a tournament row shows. The server decides (a refusal comes
 *  back as a typed error); this only hides buttons that cannot work. `registered`: true,
 *  false, or null when not known. */
export function registrationButtons(t, registered) {
  const open = t.status === 'registering' || (t.status === 'running' && t.registration_open === true);
  return {
    register: open && registered !== true,
    unregister: t.status === 'registering' && registered === true,
  };
}

/** The viewer's entry in a tournament: the latest one (a re-entry comes after the entry it
 *  replaced), or null. */
export function myEntry(detail, playerId) {
  const mine = (detail?.entrants ?? []).filter((e) => e.player_id === playerId);
  return mine[mine.length - 1] ?? null;
}

/** Which purchase buttons the tournament view shows the viewer (`now`: ms since the epoch).
 *  A rebuy: while rebuys are on sale to a playing stack at or below the starting stack, or
 *  while an offer after a bust lasts, with rebuys left; the add-on: while it is on sale and
 *  not taken, to a player still in. The server decides (a refusal says why); this only hides
 *  buttons that cannot work. */
export function purchaseButtons(detail, playerId, now) {
  const r = detail?.rebuys;
  const me = myEntry(detail, playerId);
  if (!r || !me || detail.status !== 'running') return { rebuy: false, addon: false };
  const left = r.max_rebuys == null || (me.rebuys ?? 0) < r.max_rebuys;
  const offered = me.state === 'out' && me.rebuy_offer_until != null && me.rebuy_offer_until > now;
  const short = me.state === 'playing' && r.rebuy_open === true && me.chips <= detail.starting_chips;
  const addon = r.addon_chips != null && r.addon_until != null && r.addon_until > now && me.state === 'playing' && !me.addon;
  return { rebuy: left && (offered || short), addon };
}

/** Milliseconds an offer (`tournament_offer`'s `until_ms`) has left at `now` (ms since the
 *  epoch), never below zero: at zero the offer box goes. */
export const offerMsLeft = (untilMs, now) => Math.max(0, (Number(untilMs) || 0) - now);

/** A tournament's breaks, from its detail: `{every, minutes}` (a break of `minutes` after
 *  every `every` levels), or null when it has none. */
export function breakPlan(detail) {
  const every = Number(detail?.break_every_levels) || 0;
  const minutes = Number(detail?.break_minutes) || 0;
  return every > 0 && minutes > 0 ? { every, minutes } : null;
}

/** The break a tournament is on as the page shows it at `now` (ms since the epoch):
 *  `{until, ms}` (play resumes at `until`, `ms` from now), or null. What is known of it: the
 *  `tournament_break` frame's `until_ms` (`frameUntil`) and the detail's `on_break_until`
 *  (`detailUntil`; a detail fetched before the frame has none), the later of the two. It is
 *  over at 0:00, or once a hand has been dealt at our table after it began (`endedUntil`: the
 *  end of the break that was on then; the page's clock may run behind the server's, and a
 *  detail fetched just before the deal still names that break). While an operator has the
 *  tournament paused, `now` is what its clocks read (clockNow), not the page's time. */
export function breakNow({ frameUntil = null, detailUntil = null, endedUntil = null } = {}, now) {
  const until = Math.max(Number(frameUntil) || 0, Number(detailUntil) || 0);
  if (!until || (endedUntil != null && until <= endedUntil)) return null;
  const ms = until - now;
  return ms > 0 ? { until, ms } : null;
}

// ---- bounties (knockout tournaments) -------------------------------------------------------

/** A knockout tournament's bounty, from its detail: `{bounty, progressive, paid}` (cents on each
 *  head when an entry is bought, progressive knockout or not, cents paid so far), or null when
 *  the tournament has no bounties. */
export function bountyPlan(detail) {
  const bounty = Number(detail?.bounty) || 0;
  return bounty > 0 ? { bounty, progressive: detail.progressive_bounty === true, paid: Number(detail.bounties_paid) || 0 } : null;
}

/** The bounty on a player's head now (cents, their latest entry's), or null when the tournament
 *  has no bounties or the player holds no entry in it. */
export function headOf(detail, playerId) {
  if (!bountyPlan(detail) || playerId == null) return null;
  return myEntry(detail, playerId)?.bounty ?? null;
}

/** A `tournament_bounty` frame applied to the tournament's detail as far as it can be without
 *  counting anything twice (the detail may have been fetched after the payment): the heads it
 *  names, which are absolute (the paid player's is `head`, the eliminated player's is 0). What
 *  was won and paid in all comes with the next fetch. False when the detail has no bounties. */
export function applyBountyHeads(detail, m) {
  if (!bountyPlan(detail)) return false;
  if (m.eliminated !== m.player_id) {
    const out = myEntry(detail, m.eliminated);
    if (out) out.bounty = 0;
  }
  const paid = myEntry(detail, m.player_id);
  if (paid) paid.bounty = m.head;
  return true;
}

/** A `tournament_bounty` frame in words for the viewer `me` (a player id): the key and its
 *  parameters. "Ann won $2.50 for knocking out Bob"; the viewer's own: "You won ...", "Ann won
 *  $2.50 for knocking you out"; the winner's own head (`eliminated` is the one paid): "Ann won
 *  $5: the bounty on their own head". Money in dollars (a bounty is money, not chips). */
export function bountyWords(m, me) {
  const amount = money(m.cents, 'cash');
  if (m.eliminated === m.player_id) return m.player_id === me ? ['bounty_own_you', { amount }] : ['bounty_own', { who: m.name, amount }];
  if (m.player_id === me) return ['bounty_won_you', { amount, out: m.eliminated_name }];
  if (m.eliminated === me) return ['bounty_won_on_you', { who: m.name, amount }];
  return ['bounty_won', { who: m.name, amount, out: m.eliminated_name }];
}

/** bountyWords in the page's language of the moment. */
export const bountyText = (m, me) => t(...bountyWords(m, me));

/** A tournament's lobby summary (as `GET /api/tournaments` lists it) made from its detail
 *  (`GET /api/tournaments/{id}`): a private tournament reached by its id is not listed to a
 *  player who has not registered, yet its lobby row is drawn all the same. */
export function tournamentSummary(d) {
  const keys = ['id', 'name', 'status', 'kind', 'variant', 'betting', 'start_at', 'min_entrants', 'max_entrants', 'entry_fee', 'house_fee',
    'private', 'seats_per_table', 'starting_chips', 'level', 'registration_open', 'bounty', 'rotation_games', 'satellite_for'];
  const summary = Object.fromEntries(keys.filter((k) => d[k] !== undefined).map((k) => [k, d[k]]));
  const entrants = d.entrants ?? [];
  summary.entrants = entrants.length;
  summary.players_left = entrants.filter((e) => e.state === 'registered' || e.state === 'playing').length;
  return summary;
}

/** The lobby's tournaments: the listed ones, then each private one remembered (`remembered`:
 *  its details by id) that the list does not hold. */
export function withRemembered(list, remembered) {
  const ids = new Set(list.map((x) => x.id));
  return [...list, ...remembered.filter((d) => d && !ids.has(d.id)).map(tournamentSummary)];
}

/** The lobby's tournaments: open ones first (registering, then running), then the finished
 *  and cancelled; soonest start, then name, then id (a stable order). */
export function tournamentOrder(list) {
  const rank = { registering: 0, running: 1, finished: 2, cancelled: 3 };
  return [...list].sort((a, b) =>
    (rank[a.status] ?? 4) - (rank[b.status] ?? 4)
    || (a.start_at ?? Infinity) - (b.start_at ?? Infinity)
    || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

// ---- deals at the final table and the operator's pause -------------------------------------

/** The deal a tournament has as the page knows it: from the last `tournament_deal` frame
 *  (`frame`: {deal, at}) or the detail's `deal` (`entry`: {detail, asked}), whichever is the
 *  newer news (`at`: when the frame came, `asked`: when the detail was asked for, on the same
 *  clock); a made deal from either is final. Null when there is none, or it is off. */
export function dealNow(frame, entry) {
  const fromFrame = frame?.deal ?? null;
  const fromDetail = entry?.detail?.deal ?? null;
  if (fromFrame?.state === 'made') return fromFrame;
  if (fromDetail?.state === 'made') return fromDetail;
  const deal = frame && !(entry?.asked > frame.at) ? fromFrame : fromDetail;
  return deal && deal.state !== 'off' ? deal : null;
}

/** Whether a proposed deal is still open at `now` (ms since the epoch): it lapses at `until_ms`. */
export const dealOpen = (deal, now) => deal?.state === 'proposed' && (deal.until_ms == null || deal.until_ms > now);

/** Milliseconds an open deal has left at `now`, never below zero (null without a clock). */
export const dealMsLeft = (deal, now) => (deal?.until_ms == null ? null : Math.max(0, deal.until_ms - now));

/** Whether the viewer (`playerId`) may propose a deal, as far as the page can tell (the server
 *  decides, and says why not): the tournament runs, takes deals (`deals` not false) and is at
 *  its final table (one table, registration closed), nothing is proposed or made (`deal`: as
 *  dealNow gives it), and the viewer is one of the two or more still playing. */
export function canProposeDeal(detail, playerId, deal, now) {
  if (detail?.status !== 'running' || detail.deals === false || detail.registration_open !== false) return false;
  if ((detail.tables ?? []).length !== 1 || deal?.state === 'made' || dealOpen(deal, now)) return false;
  const playing = (detail.entrants ?? []).filter((e) => e.state === 'playing');
  return playing.length >= 2 && playing.some((e) => e.player_id === playerId);
}

/** The deal box's buttons for the viewer: Accept (not accepted yet) and Decline while the deal
 *  is open and the viewer is in it; `wait`: Accept is held back while a hand is in play at the
 *  final table (the server takes an acceptance only between hands: the figures are final). */
export function dealButtons(deal, playerId, handInPlay, now) {
  const me = deal?.players?.find((p) => p.player_id === playerId);
  if (!me || !dealOpen(deal, now)) return { accept: false, decline: false, wait: false };
  return { accept: !me.accepted, decline: true, wait: !me.accepted && handInPlay };
}

/** What the deal gives a player: once made, what it paid; while proposed, the figure of its
 *  method (the other is shown beside it). */
export const dealFigure = (deal, p) => (deal.state === 'made' ? p.paid ?? (deal.method === 'chip_chop' ? p.chip_chop : p.icm) : deal.method === 'chip_chop' ? p.chip_chop : p.icm);

/** The names of the players a proposed deal still waits for. */
export const dealWaiting = (deal) => (deal?.players ?? []).filter((p) => !p.accepted).map((p) => p.name);

/** Whether the result lines have deal money to show (a column of their own): a deal was made,
 *  or a line says it was paid by one. */
export const resultsHaveDeal = (detail) => detail?.deal?.state === 'made' || (detail?.results ?? []).some((r) => (r.deal ?? 0) > 0);

/** Whether an operator has the tournament paused, as the page knows it: the last
 *  `tournament_paused` frame (`frame`: {paused, at}) or the detail's `paused_since` (`entry`:
 *  {detail, asked}), whichever is the newer news; never once it is not running. */
export function pausedNow(frame, entry) {
  const d = entry?.detail;
  if (d && d.status !== 'running') return false;
  if (frame && !(entry?.asked > frame.at)) return frame.paused === true;
  return d?.paused_since != null;
}

/** Where an operator's pause has a tournament's clocks (the level's, a break's, the add-on's),
 *  as the page knows it: null while they run as the detail says (`entry`: {detail, at,
 *  asked}); else `{since, at, wall, resumed}`. Stopped: at `since`, the detail's `paused_since`
 *  (the server's clock), when the detail knows of the pause; else at `at` and `wall`, when the
 *  `tournament_paused` frame came (`frame`: {paused, at, wall}: performance.now() and
 *  Date.now() then), the detail being older news. `resumed`: {at, wall} of the frame that
 *  resumed them while the detail is still the paused one (its ends not yet moved on by the
 *  pause), else null. The clocks stand (pausedNow) exactly when it is not null and not resumed. */
export function clockPause(frame, entry) {
  const d = entry?.detail;
  if (d && d.status !== 'running') return null;
  const fresh = Boolean(frame) && !(entry?.asked > frame.at); // the frame is the newer news
  const since = d?.paused_since ?? null;
  if (fresh && frame.paused === true) {
    return since != null ? { since, at: null, wall: null, resumed: null } : { since: null, at: frame.at, wall: frame.wall ?? null, resumed: null };
  }
  if (since == null) return null;
  return { since, at: null, wall: null, resumed: fresh ? { at: frame.at, wall: frame.wall ?? null } : null };
}

/** Whether a pause (clockPause's) has the clocks standing now (not resumed). */
export const clockStopped = (pause) => Boolean(pause && !pause.resumed);

/** What a tournament's clocks read at `now` (ms since the epoch), against the ends its detail
 *  and frames name (a break's, the add-on's, a rebuy offer's): `now` while they run; paused
 *  (`pause`: clockPause's), the moment they stopped, which stands; resumed, that moment plus
 *  the time since the resume's frame came, until the detail asked for then brings the ends
 *  moved on by the pause. */
export function clockNow(pause, now) {
  if (!pause) return now;
  const stopped = pause.since ?? pause.wall ?? now;
  return pause.resumed ? stopped + Math.max(0, now - (pause.resumed.wall ?? now)) : stopped;
}

// ---- bet sizing (pot limit, no limit) ------------------------------------------------------

/** The preset buttons of a ranged wager, in the order shown. */
export const BET_PRESETS = ['min', 'half', 'three_quarters', 'pot', 'max'];

/** A size as a whole number of chips within [min, max]. */
export function clampTo(amount, min, max) {
  const n = Math.round(Number(amount));
  if (!Number.isFinite(n)) return min;
  return Math.min(max, Math.max(min, n));
}

/** Why a typed size cannot be sent, or null when it can: 'not_number' (empty, not a whole
 *  number), 'low' or 'high' (outside [min, max]). The server decides in the end; this only
 *  keeps a size it would refuse from being sent. */
export function sizeError(value, min, max) {
  const text = String(value ?? '').trim();
  if (!/^\d+$/.test(text)) return 'not_number';
  const n = Number(text);
  if (n < min) return 'low';
  if (n > max) return 'high';
  return null;
}

/** Every chip in the middle: what the seats have committed to the hand (antes and this
 *  street's bets included), as applyEvent keeps it. */
export const handPot = (view) => (view?.seats ?? []).reduce((sum, s) => sum + (s.committed ?? 0), 0);

/** The street total ("raise to") that bets `fraction` of the pot after our call (RULES.md 10.5):
 *    to = streetBet + toCall + fraction × (pot + toCall)
 *  `pot`: every chip committed to the hand (antes and this street's bets included), `toCall`:
 *  what we must add to call, `streetBet`: what we have put in this street. Fraction 1 is the
 *  pot-limit maximum (BARGE: pot 950, call 150 → to 1250). Clamped to [min, max]. */
export function potFractionTo({ pot, toCall = 0, streetBet = 0, fraction, min, max }) {
  return clampTo(streetBet + toCall + fraction * (pot + toCall), min, max);
}

/** The size a preset chooses for a wager ({min_to, max_to}); `ctx` as for potFractionTo.
 *  "Pot" is the pot-size raise in no limit too (in pot limit it is the maximum). */
export function presetTo(preset, wager, ctx) {
  const range = { min: wager.min_to, max: wager.max_to };
  const f = { half: 0.5, three_quarters: 0.75, pot: 1 }[preset];
  if (preset === 'min') return wager.min_to;
  if (preset === 'max') return wager.max_to;
  return potFractionTo({ ...ctx, ...range, fraction: f });
}
