// Money, cards and hand names in words (pure: no DOM).

import { DICTS, EN, LOCALES, language, t, tIn } from './i18n.js';

// ---- money ---------------------------------------------------------------------------------

// Chips on the wire are integer cents. A table shows them as dollars and cents (the default)
// or as chips, if the server's table state ever says so (`display: "chips"`).
let moneyMode = 'cash';
export function setMoneyMode(mode) {
  moneyMode = mode === 'chips' ? 'chips' : 'cash';
}
export const moneyModeNow = () => moneyMode;

/** "$218.90", "$2" (whole dollars without cents); chips: "21,890" (locale separators). */
export function money(cents, mode = moneyMode, code = language()) {
  const locale = LOCALES[code] || 'en-US';
  const n = Number(cents) || 0;
  if (mode === 'chips') return new Intl.NumberFormat(locale).format(n);
  const whole = n % 100 === 0;
  return new Intl.NumberFormat(locale, {
    style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2,
  }).format(n / 100);
}

/** An amount as typed in a box (the buy-in and top-up at the table): dollars ("40", "12.5")
 *  at a cash table, chips ("1000") at a chip table. The wire still counts cents. */
export function amountToBox(cents, mode = moneyMode) {
  const n = Number(cents) || 0;
  return mode === 'chips' ? String(n) : String(n / 100);
}

/** What a box's text is in cents (dollars typed at a cash table, chips at a chip table), or
 *  NaN when it is no amount. */
export function boxToAmount(text, mode = moneyMode) {
  const s = String(text ?? '').trim().replace(',', '.');
  if (!/^\d+(\.\d*)?$/.test(s)) return NaN;
  return mode === 'chips' ? Math.round(Number(s)) : Math.round(Number(s) * 100);
}

/** A signed net result: "+$1.20", "-$0.40". */
export function signedMoney(cents, mode = moneyMode, code = language()) {
  return `${cents > 0 ? '+' : cents < 0 ? '-' : ''}${money(Math.abs(cents), mode, code)}`;
}

/** A big-bet table (RULES.md 10): `config.betting` is pot_limit or no_limit. */
export const isBigBet = (c) => c?.betting === 'pot_limit' || c?.betting === 'no_limit';

/** "$2/$4": the small and big bet; a big-bet table has no big bet, only a minimum: "min bet $2". */
export const limits = (c, mode = moneyMode) => (isBigBet(c) ? t('min_bet', { amount: money(c.small_bet, mode) }) : `${money(c.small_bet, mode)}/${money(c.big_bet, mode)}`);
export const stakesLine = (c, mode = moneyMode) => t('stakes_line', { ante: money(c.ante, mode), bring_in: money(c.bring_in, mode), small: money(c.small_bet, mode), big: money(c.big_bet, mode) });

/** The table's display setting, if the server sends one (TableState/TableSummary `display`). */
export const displayOf = (x) => (x?.display === 'chips' || x?.chips_display === true ? 'chips' : 'cash');

/** "$10 + $1 fee": a tournament's entry (to the prize pool) and the house fee, in play money;
 *  a knockout tournament's bounty between them: "$10 + $5 bounty + $1 fee". */
export const feeText = (x) => (x.bounty
  ? t('t_fee_bounty', { entry: money(x.entry_fee, 'cash'), bounty: money(x.bounty, 'cash'), fee: money(x.house_fee, 'cash') })
  : t('t_fee', { entry: money(x.entry_fee, 'cash'), fee: money(x.house_fee, 'cash') }));

/** The games a table deals (the server's `Variant`, proto/PROTOCOL.md), in the lobby's order. */
export const VARIANTS = ['stud', 'stud8', 'razz', 'london', 'stud8_declare', 'chicago', 'mississippi'];

/** A game's name: "Seven Card Stud", "Razz" (a rotation too) in the current language; a game
 *  this page does not know yet by its wire name. */
export const variantName = (v) => (EN[`variant_${v}`] ? t(`variant_${v}`) : String(v ?? ''));

/** The games whose pot is split high and low (eight or better): a hand's strength says "no low". */
export const isHiLo = (v) => v === 'stud8' || v === 'stud8_declare';

/** A declaration (the declare game, RULES.md 12.2) in words: "high", "low", "both". */
export const declarationName = (d, code = language()) => (d ? tIn(code, `decl_${d}`) : '');

/** The betting structure in words for a big-bet table ("Pot limit", "No limit"); '' for fixed
 *  limit (the default, which the stakes "$2/$4" already say). */
export const bettingName = (c) => (isBigBet(c) ? t(`betting_${c.betting}`) : '');

// ---- cards and hand names ------------------------------------------------------------------

export const RANKS = '23456789TJQKA';
export const SUIT_SYMBOLS = { c: '♣', d: '♦', h: '♥', s: '♠' };

/** "Ace of spades" (a screen reader's name for a card); a back is "Face-down card". */
export function cardName(card, code = language()) {
  if (!card) return tIn(code, 'card_back');
  const rank = DICTS[code].rank[RANKS.indexOf(card[0])];
  return tIn(code, 'card_name', { rank, suit: tIn(code, `suit_${card[1]}`) });
}

/** A card's name for a screen reader, saying a down card is one ("Ace of spades, down card"):
 *  your own hole cards, and anyone's once shown. */
export const cardLabel = (card, down, code = language()) => (card && down ? tIn(code, 'card_down', { card: cardName(card, code) }) : cardName(card, code));

/** A card as short text: "A♠". */
export const cardText = (card) => (card ? `${card[0] === 'T' ? '10' : card[0]}${SUIT_SYMBOLS[card[1]]}` : '??');

/** The server's English hand names ("Two pair, Queens and Nines", "HI: ...; LO: 8-6-4-2-A")
 *  in the page's language. This is wording only: the server decides what the hand is. A name
 *  this does not recognise stays as sent. */
export function translateHand(desc, code = language()) {
  if (!desc) return desc;
  if (code === 'en') return lowTens(desc);
  const d = DICTS[code];
  const fill = (key, p) => d[key].replace(/\{(\w+)\}/g, (m, k) => p[k] ?? m);
  const name = (w) => EN.rank.indexOf(w);
  const plural = (w) => EN.plural.indexOf(w);
  const R = (i) => (d.hand_rank || d.rank)[i];
  const P = (i) => d.plural[i];
  const one = (text) => {
    let m;
    let rest = '';
    const withRest = (s) => (rest ? `${s}, ${rest}` : s);
    if (text === 'Royal flush') return d.h_royal;
    // Chicago's half for the highest spade in the hole names a card, not a hand.
    if ((m = /^Spade in the hole, (\w+)$/.exec(text)) && name(m[1]) >= 0) return fill('h_spade', { r: R(name(m[1])) });
    if ((m = /^Straight flush, (\w+) high$/.exec(text)) && name(m[1]) >= 0) return fill('h_sflush', { r: R(name(m[1])), al: d.al?.[name(m[1])] });
    if ((m = /^Flush, (\w+) high$/.exec(text)) && name(m[1]) >= 0) return fill('h_flush', { r: R(name(m[1])), al: d.al?.[name(m[1])] });
    if ((m = /^Straight, (\w+) high$/.exec(text)) && name(m[1]) >= 0) return fill('h_straight', { r: R(name(m[1])), al: d.al?.[name(m[1])] });
    if ((m = /^High card, (\w+)$/.exec(text)) && name(m[1]) >= 0) return fill('h_high', { r: R(name(m[1])) });
    if ((m = /^Full house, (\w+) full of (\w+)$/.exec(text)) && plural(m[1]) >= 0 && plural(m[2]) >= 0) return fill('h_full', { p: P(plural(m[1])), q: P(plural(m[2])) });
    // Low hands add the kickers after a comma ("Pair of Twos, K-Q-J"): kept as they are.
    if ((m = /^(.*), ([2-9TJQKA](?:-[2-9TJQKA0-9]+)*)$/.exec(text))) [text, rest] = [m[1], m[2]];
    if ((m = /^Four of a kind, (\w+)$/.exec(text)) && plural(m[1]) >= 0) return withRest(fill('h_quads', { p: P(plural(m[1])) }));
    if ((m = /^Three of a kind, (\w+)$/.exec(text)) && plural(m[1]) >= 0) return withRest(fill('h_trips', { p: P(plural(m[1])) }));
    if ((m = /^Two pair, (\w+) and (\w+)$/.exec(text)) && plural(m[1]) >= 0 && plural(m[2]) >= 0) return withRest(fill('h_two_pair', { p: P(plural(m[1])), q: P(plural(m[2])) }));
    if ((m = /^Pair of (\w+)$/.exec(text)) && plural(m[1]) >= 0) return withRest(fill('h_pair', { p: P(plural(m[1])) }));
    return rest ? `${text}, ${rest}` : text;
  };
  return desc.split('; ').map((part) => {
    let m;
    if ((m = /^HI: (.*)$/.exec(part))) return fill('h_hi', { h: one(m[1]) });
    if ((m = /^LO: (.*)$/.exec(part))) return fill('h_lo', { h: one(m[1]) });
    if ((m = /^SPADE: (.*)$/.exec(part))) return fill('h_spade_part', { h: one(m[1]) });
    return one(part);
  }).map(lowTens).join('; ');
}

/** A low's run of ranks as the page writes it everywhere (`codeName`, the cards): a ten is
 *  "10", not the server's "T" ("T-8-6-4-A" is "10-8-6-4-A"; "Pair of Twos, K-Q-T" too). */
const lowTens = (text) => text.replace(/\b[2-9TJQKA](?:-[2-9TJQKA])+\b/g, (run) => run.replace(/T/g, '10'));

/** A hand code from the server (`{category, ranks}`: `ranks` are rank symbols, the naming
 *  ranks first) in words. `low`: an ace-to-five low, said as it reads ("8-6-4-2-A", "Pair of
 *  Twos, K-Q-J"). Wording only: the server's evaluator decided the hand. */
export function codeName(c, low = false, code = language()) {
  if (!c || typeof c.ranks !== 'string') return '';
  const d = DICTS[code];
  const fill = (key, p) => (d[key] ?? EN[key]).replace(/\{(\w+)\}/g, (m, k) => p[k] ?? m);
  const at = (i) => RANKS.indexOf(c.ranks[i]);
  const r = (i) => (d.hand_rank || d.rank)[at(i)];
  const p = (i) => d.plural[at(i)];
  const al = (i) => d.al?.[at(i)];
  const run = (from) => [...c.ranks.slice(from)].map((x) => (x === 'T' ? '10' : x)).join('-');
  const rest = (name, from) => (low && c.ranks.length > from ? `${name}, ${run(from)}` : name);
  switch (c.category) {
    case 'straight_flush': return c.ranks[0] === 'A' ? d.h_royal : fill('h_sflush', { r: r(0), al: al(0) });
    case 'four_of_a_kind': return rest(fill('h_quads', { p: p(0) }), 1);
    case 'full_house': return fill('h_full', { p: p(0), q: p(1) });
    case 'flush': return fill('h_flush', { r: r(0), al: al(0) });
    case 'straight': return fill('h_straight', { r: r(0), al: al(0) });
    case 'three_of_a_kind': return rest(fill('h_trips', { p: p(0) }), 1);
    case 'two_pair': return rest(fill('h_two_pair', { p: p(0), q: p(1) }), 2);
    case 'one_pair': return rest(fill('h_pair', { p: p(0) }), 1);
    case 'high_card': return low ? run(0) : fill('h_high', { r: r(0) });
    default: return '';
  }
}

/** What the server's English name of a hand says of it, as a hand code: `{high, low}`, each
 *  `{category, ranks, named: true}` or null. `ranks` are the ranks the name gives: a high
 *  hand's name gives its naming ranks only ("Two pair, Queens and Nines" is two_pair "Q9", the
 *  kicker left out; "Flush, Ace high" flush "A"), a low's every rank ("8-6-4-2-A" is high_card
 *  "8642A", "Pair of Twos, K-Q-J" one_pair "2KQJ"). The names read are a shown hand's
 *  (`shown`'s `description`; a seat's `hand` in a snapshot or a LAST HAND report, which carry
 *  no code: "Two pair, Queens and Nines; low 8-6-4-2-A", "...; no low") and the histories'
 *  ("HI: ...; LO: ..."). A name on its own is a low in razz and London Lowball, and wherever
 *  it ends in a run of ranks (only lows do); else a high hand. Null when the name gives
 *  neither half (not one of the server's names; Chicago's spade in the hole names a card).
 *  Wording only: no hand is evaluated here. */
export function nameCode(desc, variant = null) {
  if (typeof desc !== 'string' || !desc) return null;
  const code = { high: null, low: null };
  const lowGame = variant === 'razz' || variant === 'london';
  for (const whole of desc.split('; ')) {
    let m;
    let part = whole;
    let half = null;
    if (part === 'no low') continue;
    if ((m = /^(HI|LO|SPADE): (.*)$/.exec(part))) [half, part] = [{ HI: 'high', LO: 'low', SPADE: 'spade' }[m[1]], m[2]];
    else if ((m = /^low (.*)$/.exec(part))) [half, part] = ['low', m[1]];
    if (half === 'spade') continue;
    const low = half === 'low' || (half === null && (lowGame || /(^|, )[2-9TJQKA](-[2-9TJQKA])*$/.test(part)));
    const named = namedHand(part, low);
    if (!named) return null;
    code[low ? 'low' : 'high'] = named;
  }
  return code.high || code.low ? code : null;
}

/** One hand's name as a code (nameCode): `{category, ranks, named: true}`, or null. */
function namedHand(name, low) {
  const rank = (w) => (EN.rank.indexOf(w) >= 0 ? RANKS[EN.rank.indexOf(w)] : null);
  const plural = (w) => (EN.plural.indexOf(w) >= 0 ? RANKS[EN.plural.indexOf(w)] : null);
  const hand = (category, ...ranks) => (ranks.every(Boolean) ? { category, ranks: ranks.join(''), named: true } : null);
  let m;
  let text = name;
  let rest = '';
  if (low) {
    if (/^[2-9TJQKA](-[2-9TJQKA]){4}$/.test(text)) return hand('high_card', text.replaceAll('-', ''));
    // A paired low adds the ranks left after its groups: "Pair of Twos, K-Q-J".
    if ((m = /^(.*), ([2-9TJQKA](?:-[2-9TJQKA])*)$/.exec(text))) [text, rest] = [m[1], m[2].replaceAll('-', '')];
  }
  const withRest = (x) => (x ? { ...x, ranks: x.ranks + rest } : null);
  if (!low && text === 'Royal flush') return hand('straight_flush', 'A');
  if (!low && (m = /^Straight flush, (\w+) high$/.exec(text))) return hand('straight_flush', rank(m[1]));
  if ((m = /^Four of a kind, (\w+)$/.exec(text))) return withRest(hand('four_of_a_kind', plural(m[1])));
  if ((m = /^Full house, (\w+) full of (\w+)$/.exec(text))) return hand('full_house', plural(m[1]), plural(m[2]));
  if (!low && (m = /^Flush, (\w+) high$/.exec(text))) return hand('flush', rank(m[1]));
  if (!low && (m = /^Straight, (\w+) high$/.exec(text))) return hand('straight', rank(m[1]));
  if ((m = /^Three of a kind, (\w+)$/.exec(text))) return withRest(hand('three_of_a_kind', plural(m[1])));
  if ((m = /^Two pair, (\w+) and (\w+)$/.exec(text))) return withRest(hand('two_pair', plural(m[1]), plural(m[2])));
  if ((m = /^Pair of (\w+)$/.exec(text))) return withRest(hand('one_pair', plural(m[1])));
  if (!low && (m = /^High card, (\w+)$/.exec(text))) return hand('high_card', rank(m[1]));
  return null;
}

/** A hand strength (`{high, low}` codes: `hand_strength` on `your_turn`, `hand_code` on
 *  shown and award events) in words: the high hand, the low, or both (stud8). */
export function strengthName(s, variant = null, code = language()) {
  if (!s) return '';
  const high = s.high ? codeName(s.high, false, code) : '';
  const low = s.low ? codeName(s.low, true, code) : '';
  const d = DICTS[code];
  const fill = (key, h) => (d[key] ?? EN[key]).replace('{h}', h);
  if (high && low) return `${fill('h_hi', high)}; ${fill('h_lo', low)}`;
  if (high && isHiLo(variant)) return `${high}; ${d.no_low ?? EN.no_low}`;
  return high || low;
}

// ---- tournaments ---------------------------------------------------------------------------

/** A countdown as "4:05" (minutes and seconds, rounded up so "0:00" is the end), "1:02:03"
 *  past an hour. */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil((Number(ms) || 0) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A finishing place: "1st", "22nd", "13th"; Italian "1º"; Hungarian "1." */
export function ordinal(n, code = language()) {
  if (code === 'it') return `${n}º`;
  if (code === 'hu') return `${n}.`;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** A time of day (ms since the epoch) as the page's language writes it ("2:05 PM", "14:05"). */
export function timeOfDay(ms, code = language(), timeZone = undefined) {
  return new Intl.DateTimeFormat(LOCALES[code] || 'en-US', { timeStyle: 'short', timeZone }).format(new Date(ms));
}

/** A start time (ms since the epoch) as the page's language writes a date and time. */
export function startTime(ms, code = language(), timeZone = undefined) {
  return new Intl.DateTimeFormat(LOCALES[code] || 'en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(ms));
}
