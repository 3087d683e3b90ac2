// Unit tests of the page's pure parts, the modules with no DOM (web/i18n.js, web/format.js,
// web/model.js): money, translations and hand names, seat rotation, log text, the replayer's
// steps and pots, pre-action choice, the lobby's order, chat, tournaments (the level clock,
// registration, rebuy and add-on buttons, a refused purchase in words). They import under Node, which has
// no document: that they load at all shows they touch no DOM. Run: node --test unit.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import * as format from '../../web/format.js';
import * as i18n from '../../web/i18n.js';
import * as model from '../../web/model.js';

const app = { ...i18n, ...format, ...model };

const nbsp = (s) => s.replace(/[\u00a0\u202f]/g, ' ');

test('money: dollars and cents, whole dollars without cents, chips with separators', () => {
  app.setLanguage('en');
  assert.equal(app.money(21890), '$218.90');
  assert.equal(app.money(200), '$2');
  assert.equal(app.money(5), '$0.05');
  assert.equal(app.money(4000000, 'chips'), '4,000,000');
  assert.equal(app.limits({ small_bet: 200, big_bet: 400 }), '$2/$4');
  assert.equal(app.signedMoney(-40), '-$0.40');
  assert.equal(app.signedMoney(120), '+$1.20');
  assert.equal(nbsp(app.money(21890, 'cash', 'it')), '218,90 $');
  assert.equal(nbsp(app.money(4000000, 'chips', 'hu')), '4 000 000');
  assert.equal(app.displayOf({ display: 'chips' }), 'chips');
  assert.equal(app.displayOf({}), 'cash');
});

test('the buy-in box: dollars at a cash table, chips at a chip table; the wire counts cents', () => {
  assert.equal(app.amountToBox(4000, 'cash'), '40');
  assert.equal(app.amountToBox(1250, 'cash'), '12.5');
  assert.equal(app.amountToBox(4000, 'chips'), '4000');
  assert.equal(app.boxToAmount('40', 'cash'), 4000);
  assert.equal(app.boxToAmount('12.50', 'cash'), 1250);
  assert.equal(app.boxToAmount('12,5', 'cash'), 1250);
  assert.equal(app.boxToAmount('0.07', 'cash'), 7);
  assert.equal(app.boxToAmount('1000', 'chips'), 1000);
  for (const bad of ['', 'abc', '-5', '1e3']) assert.ok(Number.isNaN(app.boxToAmount(bad, 'cash')), bad);
  for (const cents of [1, 99, 4000, 123456]) assert.equal(app.boxToAmount(app.amountToBox(cents, 'cash'), 'cash'), cents);
});

test('hand names in Italian and Hungarian; unknown names stay as sent', () => {
  assert.equal(app.translateHand('Two pair, Queens and Nines', 'it'), 'Doppia coppia, Regine e Nove');
  assert.equal(app.translateHand('Full house, Kings full of Sevens', 'it'), 'Full di Re su Sette');
  assert.equal(app.translateHand('Straight, Ace high', 'it'), 'Scala all’Asso');
  assert.equal(app.translateHand('Pair of Twos, K-Q-J', 'hu'), 'Egy pár, Kettesek, K-Q-J');
  assert.equal(app.translateHand('HI: Flush, King high; LO: 8-6-4-2-A', 'hu'), 'FELSŐ: Flöss, Király magas; ALSÓ: 8-6-4-2-A');
  assert.equal(app.translateHand('Royal flush', 'it'), 'Scala reale');
  assert.equal(app.translateHand('Something new', 'it'), 'Something new');
  assert.equal(app.translateHand('Two pair, Queens and Nines', 'en'), 'Two pair, Queens and Nines');
  // A low is written one way everywhere: a ten is "10" (as codeName and the cards write it),
  // never the server's "T", in every language.
  for (const code of ['en', 'it', 'hu']) {
    assert.equal(app.translateHand('T-8-6-4-A', code), app.codeName({ category: 'high_card', ranks: 'T864A' }, true, code));
    assert.equal(app.translateHand('T-8-6-4-A', code), '10-8-6-4-A');
  }
  assert.equal(app.translateHand('HI: Pair of Tens; LO: T-7-5-3-2', 'en'), 'HI: Pair of Tens; LO: 10-7-5-3-2');
  assert.equal(app.translateHand('Pair of Twos, K-Q-T', 'en'), app.codeName({ category: 'one_pair', ranks: '2KQT' }, true, 'en'));
  assert.equal(app.translateHand('Straight, Ten high', 'en'), 'Straight, Ten high');
});

test('card names for screen readers', () => {
  assert.equal(app.cardName('As', 'en'), 'Ace of spades');
  assert.equal(app.cardName('Td', 'en'), 'Ten of diamonds');
  assert.equal(app.cardName('Qh', 'it'), 'Regina di cuori');
  assert.equal(app.cardName('Kc', 'hu'), 'treff király');
  assert.equal(app.cardName(null, 'en'), 'Face-down card');
  // A down card we can see (our own hole cards) is named as one; an up card is not.
  assert.equal(app.cardLabel('As', true, 'en'), 'Ace of spades, down card');
  assert.equal(app.cardLabel('As', false, 'en'), 'Ace of spades');
  assert.equal(app.cardLabel('Qh', true, 'it'), 'Regina di cuori, carta coperta');
  assert.equal(app.cardLabel('Kc', true, 'hu'), 'treff király, lefordított lap');
  assert.equal(app.cardLabel(null, true, 'en'), 'Face-down card');
});

test('language: saved choice, else the browser language, else English', () => {
  assert.equal(app.pickLanguage(null, ['it-IT', 'en']), 'it');
  assert.equal(app.pickLanguage(null, ['de-DE', 'hu']), 'hu');
  assert.equal(app.pickLanguage('en', ['it-IT']), 'en');
  assert.equal(app.pickLanguage(null, ['fr']), 'en');
});

test('seat rotation puts the viewer at position 0 (bottom centre), clockwise after', () => {
  assert.equal(app.seatPosition(5, 5, 8), 0);
  assert.equal(app.seatPosition(6, 5, 8), 1);
  assert.equal(app.seatPosition(4, 5, 8), 7);
  assert.equal(app.seatPosition(1, null, 8), 0);
  const bottom = app.seatPoint(0, 8);
  assert.ok(Math.abs(bottom.left - 50) < 1e-9 && bottom.top > 80);
  const top = app.seatPoint(4, 8);
  assert.ok(Math.abs(top.left - 50) < 1e-9 && top.top < 20);
});

test('log lines name the players and format money, in the language of the moment', () => {
  app.setLanguage('en');
  const names = app.namer({ 1: 'Ann', 2: 'Bob' });
  const ctx = { deals: [] };
  const say = (ev) => app.describeEvent(ev, ctx, names).map((f) => f());
  assert.deepEqual(say({ event: 'bring_in', seat: 1, amount: 50, all_in: false }), ['Ann brings in for $0.50']);
  assert.deepEqual(say({ event: 'raise', seat: 2, to: 400, all_in: true }), ['Bob raises to $4 and is all in']);
  const award = app.describeEvent({ event: 'award', pot: 0, half: 'whole', seat: 1, amount: 360, hand: 'Two pair, Queens and Nines' }, ctx, names)[0];
  assert.equal(award(), 'Ann wins $3.60 with Two pair, Queens and Nines');
  app.setLanguage('it');
  assert.equal(nbsp(award()), 'Ann vince 3,60 $ con Doppia coppia, Regine e Nove');
  app.setLanguage('en');
  assert.equal(app.namer({})(3), 'Seat 3');
  say({ event: 'dealt', seat: 1, card: 'Ah', up: false, street: 'third' });
  say({ event: 'dealt', seat: 2, card: null, up: false, street: 'third' });
  say({ event: 'dealt', seat: 1, card: '9c', up: true, street: 'third' });
  assert.deepEqual(say({ event: 'street_started', street: 'third', first: 1 }), ['3rd street: Ann [A♥] 9♣ · Bob [??]']);
});

test('replay steps go street by street, then showdown and result', () => {
  const ev = (event, extra = {}) => ({ event, ...extra });
  const events = [
    ev('hand_started', { seats: [[1, 1000], [2, 1000]] }), ev('ante', { seat: 1, amount: 10 }), ev('ante', { seat: 2, amount: 10 }),
    ev('dealt', { seat: 1, card: 'Ah', up: true, street: 'third' }), ev('dealt', { seat: 2, card: 'Kh', up: true, street: 'third' }),
    ev('street_started', { street: 'third', first: 2 }), ev('bring_in', { seat: 2, amount: 5 }), ev('call', { seat: 1, amount: 5 }), ev('street_ended', { street: 'third' }),
    ev('dealt', { seat: 1, card: '2h', up: true, street: 'fourth' }), ev('dealt', { seat: 2, card: '3h', up: true, street: 'fourth' }),
    ev('street_started', { street: 'fourth', first: 1 }), ev('check', { seat: 1 }), ev('check', { seat: 2 }), ev('street_ended', { street: 'fourth' }),
    ev('showdown', { order: [1, 2] }), ev('shown', { seat: 1, cards: ['Ah', '2h'], description: 'High card, Ace' }),
    ev('award', { pot: 0, half: 'whole', seat: 1, amount: 30, hand: 'High card, Ace' }), ev('hand_ended', { stacks: [[1, 1015], [2, 985]] }),
  ];
  const steps = app.replaySteps(events);
  assert.deepEqual(steps.map((s) => s.label), ['third', 'fourth', 'step_showdown', 'step_end']);
  assert.equal(steps.at(-1).end, events.length);
  // The pot is the server's (`pots[i]` after `events[i]`); after the award, the pot awarded.
  const pots = events.map((e, i) => (i < 1 ? [] : e.event === 'award' || e.event === 'hand_ended' ? [] : [{ amount: i < 3 ? 10 * i : 30, eligible: [1, 2] }]));
  const mid = app.replayState(events, steps[0].end, 'stud', pots);
  assert.equal(mid.pot, 30);
  assert.equal(mid.view.seats.find((s) => s.seat === 1).cards.length, 1);
  assert.equal(app.replayState(events, 2, 'stud', pots).pot, 10);
  assert.equal(app.replayState(events, events.length, 'stud', pots).pot, 30, 'the result step shows the pot awarded');
  assert.equal(app.replayState(events, events.length, 'stud', []).pot, 0, 'no server pots: no pot of the page\'s own');
  assert.deepEqual(app.potsAt([[{ amount: 5, eligible: [1] }], []], 2), [{ amount: 5, eligible: [1] }]);
});

test('pre-action boxes answer only with a legal action', () => {
  const legal = (...kinds) => kinds.map((kind) => ({ kind }));
  assert.deepEqual(app.preActionChoice('check_fold', legal('check', 'bet')), { kind: 'check' });
  assert.deepEqual(app.preActionChoice('check_fold', legal('fold', 'call', 'raise')), { kind: 'fold' });
  assert.equal(app.preActionChoice('check', legal('fold', 'call')), null);
  assert.deepEqual(app.preActionChoice('call_any', legal('fold', 'call', 'raise')), { kind: 'call' });
  assert.deepEqual(app.preActionChoice('call_any', legal('check', 'bet')), { kind: 'check' });
  assert.deepEqual(app.preActionChoice('bring_in', legal('bring_in', 'complete')), { kind: 'bring_in' });
  assert.equal(app.preActionChoice('call_any', legal('show', 'muck')), null);
  // Fold to any bet: checks when it may, else folds.
  assert.deepEqual(app.preActionChoice('fold_any', legal('check', 'bet')), { kind: 'check' });
  assert.deepEqual(app.preActionChoice('fold_any', legal('fold', 'call', 'raise')), { kind: 'fold' });
  // Call this amount: only the amount ticked; a raise since shows the buttons.
  assert.deepEqual(app.preActionChoice('call', legal('fold', 'call', 'raise'), 40, 40), { kind: 'call' });
  assert.equal(app.preActionChoice('call', legal('fold', 'call', 'raise'), 80, 40), null);
  assert.equal(app.preActionChoice('call', legal('check', 'bet'), null, 40), null);
  // Bet / raise: the smallest wager legal (bet, raise or complete), else the buttons.
  const at = (kind, to) => ({ kind, to });
  assert.deepEqual(app.preActionChoice('raise', [{ kind: 'check' }, at('bet', 40)]), at('bet', 40));
  assert.deepEqual(app.preActionChoice('raise', [{ kind: 'check' }, at('bet', 80), at('bet', 40)]), at('bet', 40), 'the open pair\'s small bet');
  assert.deepEqual(app.preActionChoice('raise', [{ kind: 'fold' }, { kind: 'call' }, at('raise', 160)]), at('raise', 160));
  assert.deepEqual(app.preActionChoice('raise', [{ kind: 'fold' }, { kind: 'call' }, at('complete', 40)]), at('complete', 40));
  assert.deepEqual(app.preActionChoice('raise', [{ kind: 'bring_in' }, at('complete', 40)]), at('complete', 40), 'the bring-in completes');
  assert.deepEqual(app.preActionChoice('raise', [{ kind: 'check' }, at('bet', 900), at('bet', 40)]), at('bet', 40), 'a big-bet range\'s bottom');
  assert.equal(app.preActionChoice('raise', legal('fold', 'call')), null, 'capped: the buttons');
  assert.equal(app.preActionChoice('raise', [{ kind: 'show' }, { kind: 'muck' }]), null);
});

test('pre-action boxes offer only what can happen', () => {
  const offer = (o) => app.preActionOffer({ street: 'fourth', bringInGame: true, broughtIn: false, toAct: 2, mySeat: 1, toCall: 0, ...o });
  // 3rd street with a bring-in: nobody checks; the bring-in box only while it may be ours.
  assert.deepEqual(offer({ street: 'third', toCall: 20 }), ['fold_any', 'call', 'call_any', 'raise']);
  assert.deepEqual(offer({ street: 'third', toAct: null }), ['fold_any', 'call_any', 'raise', 'bring_in']);
  assert.deepEqual(offer({ street: 'third', toAct: 1 }), ['fold_any', 'call_any', 'raise', 'bring_in']);
  assert.deepEqual(offer({ street: 'third', toAct: 2 }), ['fold_any', 'call_any', 'raise']);
  assert.deepEqual(offer({ street: 'third', toAct: null, broughtIn: true, toCall: 20 }), ['fold_any', 'call', 'call_any', 'raise']);
  // Later streets: check and check/fold while no bet is in front of us; else call it.
  assert.deepEqual(offer({}), ['check_fold', 'check', 'fold_any', 'call_any', 'raise']);
  assert.deepEqual(offer({ toCall: 80 }), ['fold_any', 'call', 'call_any', 'raise']);
  // A game without a bring-in may check on 3rd street.
  assert.deepEqual(offer({ street: 'third', bringInGame: false }), ['check_fold', 'check', 'fold_any', 'call_any', 'raise']);
  // The bet / raise box says what it does: complete the bring-in, raise a bet, or bet.
  const raise = (o) => app.preRaiseLabel({ street: 'fourth', bringInGame: true, currentBet: 0, smallBet: 40, ...o });
  assert.equal(raise({ street: 'third', currentBet: 0 }), 'pre_complete');
  assert.equal(raise({ street: 'third', currentBet: 10 }), 'pre_complete', 'the bring-in posted');
  assert.equal(raise({ street: 'third', currentBet: 40 }), 'pre_raise', 'completed');
  assert.equal(raise({ street: 'third', bringInGame: false }), 'pre_bet');
  assert.equal(raise({}), 'pre_bet');
  assert.equal(raise({ currentBet: 80 }), 'pre_raise');
  app.setLanguage('it');
  assert.deepEqual(['pre_bet', 'pre_raise', 'pre_complete'].map((k) => app.t(k)), ['Punta', 'Rilancia', 'Completa']);
  app.setLanguage('en');
  for (const code of Object.keys(app.LANGS)) for (const key of ['pre_fold_any', 'pre_call', 'pre_bet', 'pre_raise', 'pre_complete']) assert.ok(app.DICTS[code][key], `${code} lacks ${key}`);
});

test('the action clock reads the same on every page: the action time, then the time bank', () => {
  app.setLanguage('en');
  const say = (f) => app.t(...f.words);
  // 15 s to act + a 30 s bank: 45 s given; 20 s left is 5 s of action time, then the bank.
  const split = app.clockFace(35_000, 30_000, 45_000);
  assert.equal(split.phase, 'action');
  assert.equal(say(split), '5s + time bank 30s');
  assert.equal(split.actionMs, 5_000);
  assert.ok(Math.abs(split.fraction - 5 / 15) < 1e-9, 'the bar: the action time left of the action time');
  const bank = app.clockFace(8_200, 30_000, 45_000);
  assert.equal(bank.phase, 'bank');
  assert.equal(say(bank), 'time bank 9s');
  assert.equal(bank.bankMs, 8_200);
  assert.ok(Math.abs(bank.fraction - 8.2 / 30) < 1e-9, 'the bar, refilled: the bank left of the bank');
  assert.equal(app.clockFace(30_000, 30_000, 45_000).phase, 'bank', 'the bank starts when the action time is up');
  // No bank (a table without one, or spent): seconds only, never "time bank".
  for (const none of [0, null, undefined]) {
    const f = app.clockFace(12_000, none, 15_000);
    assert.equal(f.phase, 'action');
    assert.equal(say(f), '12s');
  }
  assert.equal(say(app.clockFace(-50, 30_000, 45_000)), 'time bank 0s', 'never below zero');
  // The same clock for the actor (`your_turn`: its whole bank) and everyone else (`turn`: the
  // bank capped at the deadline), e.g. a player away with only the disconnect grace (5 s).
  for (const left of [4_900, 2_000, 100]) {
    const mine = app.clockFace(left, 30_000, 5_000);
    const theirs = app.clockFace(left, Math.min(30_000, 5_000), 5_000);
    assert.deepEqual([mine.phase, mine.words], [theirs.phase, theirs.words], `at ${left} ms`);
  }
  for (const code of Object.keys(app.LANGS)) {
    app.setLanguage(code);
    assert.match(say(split), /5.*30/);
    assert.notEqual(say(bank), say(app.clockFace(8_200, 0, 45_000)), `${code}: the bank is said`);
  }
  app.setLanguage('en');
});

test('lobby: filters and a stable order', () => {
  const row = (id, name, variant, big, taken) => ({ id, name, variant, config: { big_bet: big }, seats_taken: taken, seats: 8, min_buy_in: big * 10 });
  const tables = [row('b', 'Stud 2', 'stud', 400, 0), row('a', 'Razz 1', 'razz', 200, 3), row('c', 'Stud 1', 'stud', 200, 8)];
  const ids = (opts) => app.lobbyView(tables, { sort: 'name', dir: 1, variant: 'all', stakes: 'all', players: 'all', ...opts }).map((x) => x.id);
  assert.deepEqual(ids({}), ['a', 'c', 'b']);
  assert.deepEqual(ids({ dir: -1 }), ['b', 'c', 'a']);
  assert.deepEqual(ids({ variant: 'stud' }), ['c', 'b']);
  assert.deepEqual(ids({ stakes: 'high' }), ['b']);
  assert.deepEqual(ids({ players: 'free' }), ['a', 'b']);
  assert.deepEqual(ids({ players: 'empty' }), ['b']);
  assert.deepEqual(ids({ sort: 'stakes' }), ['a', 'c', 'b']);
});

test('lobby: the activity columns (hands per hour, average pot, players waiting) shown when sent, sorted on, busiest first', () => {
  const row = (id, name, hph, pot, waiting) => ({ id, name, variant: 'stud', config: { big_bet: 400 }, seats_taken: 1, seats: 8, min_buy_in: 4000, hands_per_hour: hph, ...(pot === undefined ? {} : { average_pot: pot }), ...(waiting === undefined ? {} : { waiting }) });
  const keys = (tables) => app.lobbyColumns(tables).map((c) => c.key);
  // The server sends hands_per_hour always; average_pot and waiting only once it has them.
  assert.deepEqual(keys([row('a', 'A', 10)]), ['name', 'variant', 'stakes', 'seats', 'hands_per_hour', 'buy_in']);
  assert.deepEqual(keys([row('a', 'A', 10, 300), row('b', 'B', 0)]), ['name', 'variant', 'stakes', 'seats', 'hands_per_hour', 'average_pot', 'buy_in']);
  assert.deepEqual(keys([row('a', 'A', 10, 300, 2)]), ['name', 'variant', 'stakes', 'seats', 'hands_per_hour', 'average_pot', 'waiting', 'buy_in']);
  assert.deepEqual(keys([]), ['name', 'variant', 'stakes', 'seats', 'buy_in']);
  for (const code of Object.keys(app.LANGS)) for (const key of ['col_hands_per_hour', 'col_average_pot', 'col_waiting']) assert.ok(app.DICTS[code][key], `${code} lacks ${key}`);
  // Sorted on each: a row without the figure counts as 0; ties keep the table id's order.
  const tables = [row('a', 'A', 40, 900, 1), row('b', 'B', 120, 300, 0), row('c', 'C', 0, undefined, 3), row('d', 'D', 40, 1500, undefined)];
  const ids = (sort, dir) => app.lobbyView(tables, { sort, dir, variant: 'all', stakes: 'all', players: 'all' }).map((x) => x.id);
  assert.deepEqual(ids('hands_per_hour', -1), ['b', 'a', 'd', 'c']);
  assert.deepEqual(ids('hands_per_hour', 1), ['c', 'a', 'd', 'b']);
  assert.deepEqual(ids('average_pot', -1), ['d', 'a', 'b', 'c']);
  assert.deepEqual(ids('average_pot', 1), ['c', 'b', 'a', 'd']);
  assert.deepEqual(ids('waiting', -1), ['c', 'a', 'b', 'd']);
  // A click: a new activity column sorts busiest first, the same column again the other way;
  // the other columns start ascending, as before.
  const cols = Object.fromEntries(app.lobbyColumns(tables).map((c) => [c.key, c]));
  assert.deepEqual(app.lobbySortClick({ sort: 'name', dir: 1 }, cols.average_pot), { sort: 'average_pot', dir: -1 });
  assert.deepEqual(app.lobbySortClick({ sort: 'average_pot', dir: -1 }, cols.average_pot), { sort: 'average_pot', dir: 1 });
  assert.deepEqual(app.lobbySortClick({ sort: 'average_pot', dir: -1 }, cols.variant), { sort: 'variant', dir: 1 });
  assert.deepEqual(app.lobbySortClick({ sort: 'variant', dir: 1 }, cols.variant), { sort: 'variant', dir: -1 });
  assert.equal(app.ariaSort({ sort: 'waiting', dir: -1 }, 'waiting'), 'descending');
  assert.equal(app.ariaSort({ sort: 'waiting', dir: 1 }, 'waiting'), 'ascending');
  assert.equal(app.ariaSort({ sort: 'waiting', dir: 1 }, 'name'), 'none');
});

test('sounds: which frame makes which sound, and each sound starts with a frequency of its own', () => {
  const ev = (event, extra = {}) => ({ type: 'event', table_id: 'T', seq: 1, hand_id: 'H', event: { event, ...extra } });
  assert.equal(app.soundFor(ev('dealt', { seat: 2, card: null, up: false }), 1), 'deal');
  for (const kind of ['ante', 'bring_in', 'complete', 'bet', 'raise', 'call']) assert.equal(app.soundFor(ev(kind, { seat: 2, amount: 40 }), 1), 'chips', kind);
  assert.equal(app.soundFor(ev('award', { seat: 1, amount: 180 }), 1), 'win');
  assert.equal(app.soundFor(ev('award', { seat: 2, amount: 180 }), 1), 'chips');
  assert.equal(app.soundFor(ev('award', { seat: 2, amount: 180 }), null), 'chips'); // an observer
  for (const kind of ['check', 'fold', 'street_started', 'street_ended', 'showdown', 'shown', 'hand_ended', 'hand_started']) assert.equal(app.soundFor(ev(kind, { seat: 1 }), 1), null, kind);
  assert.equal(app.soundFor({ type: 'your_turn', seq: 3 }, 1), 'turn');
  for (const type of ['turn', 'hand_started', 'hand_result', 'snapshot', 'chat']) assert.equal(app.soundFor({ type }, 1), null, type);
  // A table in the background makes only its turn's sound.
  assert.equal(app.soundFor(ev('dealt', { seat: 1 }), 1, false), null);
  assert.equal(app.soundFor(ev('award', { seat: 1 }), 1, false), null);
  assert.equal(app.soundFor({ type: 'your_turn' }, 1, false), 'turn');
  // Each kind is a few short notes; its first frequency is its own, and no note lasts 0.3 s.
  const first = Object.entries(app.SOUNDS).map(([kind, notes]) => [kind, notes[0][0]]);
  assert.deepEqual(first.map(([k]) => k).sort(), ['chips', 'deal', 'turn', 'win']);
  assert.equal(new Set(first.map(([, f]) => f)).size, 4);
  for (const [kind, notes] of Object.entries(app.SOUNDS)) {
    for (const [freq, start, length, wave, gain] of notes) {
      assert.ok(freq > 100 && freq < 5000 && start >= 0 && length > 0 && length <= 0.3 && gain > 0 && gain <= 0.1, kind);
      assert.ok(['sine', 'square', 'triangle', 'sawtooth'].includes(wave), kind);
    }
    // Its first frequency is the first of no other kind's notes (a test tells them apart by it).
    for (const [other, notes2] of Object.entries(app.SOUNDS)) if (other !== kind) assert.ok(!notes2.some((n) => n[0] === notes[0][0]), `${kind} vs ${other}`);
  }
});

test('multi-tabling: N goes to the next table (in tab order, wrapping) where our turn waits', () => {
  const ids = ['a', 'b', 'c', 'd'];
  assert.equal(app.nextTurnTable(ids, 'b', new Set(['d', 'a'])), 'd');
  assert.equal(app.nextTurnTable(ids, 'd', new Set(['b', 'c'])), 'b');
  assert.equal(app.nextTurnTable(ids, 'c', new Set(['c'])), null); // only here: nowhere else
  assert.equal(app.nextTurnTable(ids, 'c', new Set()), null);
  assert.equal(app.nextTurnTable(ids, null, new Set(['c', 'b'])), 'b'); // from the lobby: the first
  assert.equal(app.nextTurnTable([], null, new Set()), null);
  assert.equal(app.PAGE_KEYS.n, 'next_table');
  for (const code of Object.keys(app.LANGS)) assert.ok(app.DICTS[code].key_next_table, `${code} lacks key_next_table`);
});

test('multi-tabling: the words of a turn waiting at another table, in every language', () => {
  for (const code of Object.keys(app.LANGS)) {
    for (const key of ['your_tables', 'watching', 'seated_here', 'to_lobby', 'to_lobby_title', 'open_table', 'open_table_n']) assert.ok(app.DICTS[code][key], `${code} lacks ${key}`);
    app.setLanguage(code);
    assert.match(app.t('turn_at', { table: 'Razz 1' }), /Razz 1/);
    assert.match(app.t('turn_title_at', { table: 'Razz 1' }), /^● .*Razz 1/);
  }
  app.setLanguage('en');
  assert.equal(app.t('turn_at', { table: 'Razz 1, Stud 1' }), 'Your turn at Razz 1, Stud 1');
});

test('hand codes from the server in words, in every language', () => {
  const two = { high: { category: 'two_pair', ranks: 'QT9' } };
  assert.equal(app.strengthName({ high: { category: 'two_pair', ranks: 'Q95' } }, 'stud', 'en'), 'Two pair, Queens and Nines');
  assert.equal(app.strengthName({ high: { category: 'two_pair', ranks: 'Q95' } }, 'stud', 'it'), 'Doppia coppia, Regine e Nove');
  assert.equal(app.strengthName(two, 'stud', 'hu'), 'Két pár, Dámák és Tízesek');
  assert.equal(app.strengthName({ high: { category: 'full_house', ranks: 'K7' } }, 'stud', 'it'), 'Full di Re su Sette');
  assert.equal(app.strengthName({ high: { category: 'straight', ranks: 'A' } }, 'stud', 'it'), 'Scala all’Asso');
  assert.equal(app.strengthName({ high: { category: 'straight_flush', ranks: 'A' } }, 'stud', 'en'), 'Royal flush');
  assert.equal(app.strengthName({ high: { category: 'high_card', ranks: 'AK9' } }, 'stud', 'en'), 'High card, Ace');
  assert.equal(app.strengthName({ low: { category: 'high_card', ranks: '8642A' } }, 'razz', 'en'), '8-6-4-2-A');
  assert.equal(app.strengthName({ low: { category: 'one_pair', ranks: '2KQJ' } }, 'razz', 'hu'), 'Egy pár, Kettesek, K-Q-J');
  assert.equal(app.strengthName({ low: { category: 'high_card', ranks: 'T4A' } }, 'razz', 'en'), '10-4-A');
  assert.equal(
    app.strengthName({ high: { category: 'flush', ranks: 'KJ852' }, low: { category: 'high_card', ranks: '8642A' } }, 'stud8', 'hu'),
    'FELSŐ: Flöss, Király magas; ALSÓ: 8-6-4-2-A',
  );
  assert.equal(app.strengthName({ high: { category: 'one_pair', ranks: 'KA86' } }, 'stud8', 'it'), 'Coppia di Re; nessun basso');
  // A log line says the code's words when the event frame carried one.
  const names = app.namer({ 1: 'Ann' });
  app.setLanguage('it');
  const award = app.describeEvent({ event: 'award', pot: 0, half: 'whole', seat: 1, amount: 360, hand: 'Two pair, Queens and Nines', code: { high: { category: 'two_pair', ranks: 'Q95' } } }, { deals: [] }, names)[0];
  assert.match(award(), /Ann vince .* con Doppia coppia, Regine e Nove/);
  app.setLanguage('en');
});

test('the pots are the server\'s: an event applies the pots its frame carried', () => {
  const view = app.emptyView('stud');
  app.applyEvent(view, { event: 'hand_started', seats: [[1, 100], [2, 50]] });
  app.applyEvent(view, { event: 'ante', seat: 1, amount: 10 }, [{ amount: 10, eligible: [1, 2] }]);
  assert.deepEqual(view.pots, [{ amount: 10, eligible: [1, 2] }]);
  app.applyEvent(view, { event: 'dealt', seat: 1, card: null, up: false, street: 'third' });
  assert.deepEqual(view.pots, [{ amount: 10, eligible: [1, 2] }], 'no pots on the frame: unchanged');
  app.applyEvent(view, { event: 'hand_ended', stacks: [[1, 110], [2, 40]] });
  assert.deepEqual(view.pots, []);
});

test('chat: who may write, what is sent', () => {
  assert.equal(app.chatMode(null), 'off');
  assert.equal(app.chatMode({ chat: false, your_seat: 2 }), 'off');
  assert.equal(app.chatMode({ chat: true, your_seat: null }), 'read');
  assert.equal(app.chatMode({ chat: true, your_seat: 3 }), 'write');
  assert.equal(app.chatMessage('  hi there  '), 'hi there');
  assert.equal(app.chatMessage('   '), null);
  // Counted in characters, as the server counts: 200 emoji fit, 201 do not.
  assert.equal(app.chatMessage('😀'.repeat(200)), '😀'.repeat(200));
  assert.equal(app.chatMessage('😀'.repeat(201)), null);
  assert.equal(app.chatMessage('<b>x</b>'), '<b>x</b>', 'markup is sent as text, never dropped or interpreted');
});

test('every language has every English key (errors, chat and labels translated)', () => {
  for (const code of Object.keys(app.LANGS)) {
    const missing = Object.keys(app.EN).filter((k) => !(k in app.DICTS[code]) && !['al', 'hand_rank'].includes(k));
    assert.deepEqual(missing, [], `${code} lacks ${missing.join(', ')}`);
  }
});

test('every error code of proto/schema.json has words in the page', () => {
  const schema = JSON.parse(readFileSync(new URL('../../proto/schema.json', import.meta.url), 'utf8'));
  const codes = schema.$defs.ErrorCode.oneOf.map((x) => x.const ?? x.enum?.[0]);
  const page = ['seat_taken', 'table_full', 'already_seated', 'buy_in_out_of_range', 'insufficient_balance', 'not_seated', 'not_now', 'not_your_turn', 'illegal_action', 'stale', 'rate_limited', 'unavailable', 'unknown_table', 'forbidden', 'chat_off', 'too_long'];
  for (const code of page) assert.ok(codes.includes(code), `${code} is not an error code of the protocol`);
  for (const code of page) assert.ok(app.EN[`err_${code}`], `no words for ${code}`);
});

// ---- tournaments ----------------------------------------------------------------------------

test('the level clock: minutes and seconds, rounded up, hours past an hour', () => {
  assert.equal(app.clockText(0), '0:00');
  assert.equal(app.clockText(-500), '0:00');
  assert.equal(app.clockText(1), '0:01', 'a part of a second left still shows as one');
  assert.equal(app.clockText(59_000), '0:59');
  assert.equal(app.clockText(60_000), '1:00');
  assert.equal(app.clockText(61_001), '1:02');
  assert.equal(app.clockText(10 * 60_000), '10:00');
  assert.equal(app.clockText(3_723_000), '1:02:03');
});

test('the clock counts from when the detail came; none without a timed level', () => {
  const d = { status: 'running', ms_to_next_level: 42_000 };
  assert.equal(app.levelMsLeft(d, 1000, 1000), 42_000);
  assert.equal(app.levelMsLeft(d, 1000, 3500), 39_500);
  assert.equal(app.levelMsLeft(d, 1000, 60_000), 0, 'never below zero');
  assert.equal(app.levelMsLeft({ status: 'running', ms_to_next_level: null }, 0, 0), null, 'levels in hands, or the last level');
  assert.equal(app.levelMsLeft({ status: 'registering', ms_to_next_level: 5 }, 0, 0), null);
  assert.equal(app.levelMsLeft(null, 0, 0), null);
});

test('the current and next level', () => {
  const levels = [{ ante: 5, hands: 2 }, { ante: 10, minutes: 1 }, { ante: 20, hands: 4 }];
  assert.deepEqual(app.levelNow({ levels, level: 1 }), { n: 1, count: 3, level: levels[0], next: levels[1], last: false });
  assert.deepEqual(app.levelNow({ levels, level: 3 }), { n: 3, count: 3, level: levels[2], next: null, last: true });
  assert.equal(app.levelNow({ levels, level: 9 }).n, 3, 'a level past the structure is its last');
});

test('places in words in every language', () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map((n) => app.ordinal(n, 'en')),
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th']);
  assert.equal(app.ordinal(2, 'it'), '2º');
  assert.equal(app.ordinal(2, 'hu'), '2.');
  assert.equal(app.startTime(Date.UTC(2026, 11, 24, 18, 30), 'en', 'UTC'), 'Dec 24, 2026, 6:30 PM');
  assert.match(nbsp(app.startTime(Date.UTC(2026, 11, 24, 18, 30), 'it', 'UTC')), /24 dic 2026.*18:30/);
});

test('a rotation\'s next game follows Razz, Stud, Stud Hi/Lo; one game has none', () => {
  assert.equal(app.nextGame('rotation', 'razz'), 'stud');
  assert.equal(app.nextGame('rotation', 'stud'), 'stud8');
  assert.equal(app.nextGame('rotation', 'stud8'), 'razz');
  assert.equal(app.nextGame('stud', 'stud'), null);
  assert.equal(app.nextGame('rotation', 'holdem'), null);
});

test('standing: players left, our entry, our place', () => {
  const e = (player_id, state, place = null, prize = null) => ({ player_id, state, place, prize, chips: 100 });
  const d = { status: 'running', entrants: [e('a', 'playing'), e('b', 'out', 3, 0), e('c', 'playing')] };
  assert.deepEqual(app.standing(d, 'b'), { left: 2, total: 3, me: d.entrants[1], place: 3, prize: 0 });
  assert.equal(app.standing(d, 'a').place, null);
  assert.equal(app.standing(d, 'nobody').me, null);
  assert.equal(app.standing({ status: 'registering', entrants: [e('a', 'registered')] }, 'a').left, 1, 'before the start every entrant counts');
});

test('registration buttons: register while open, unregister only before the start', () => {
  assert.deepEqual(app.registrationButtons({ status: 'registering' }, false), { register: true, unregister: false });
  assert.deepEqual(app.registrationButtons({ status: 'registering' }, true), { register: false, unregister: true });
  assert.deepEqual(app.registrationButtons({ status: 'registering' }, null), { register: true, unregister: false });
  assert.deepEqual(app.registrationButtons({ status: 'running', registration_open: true }, false), { register: true, unregister: false }, 'late registration');
  assert.deepEqual(app.registrationButtons({ status: 'running', registration_open: false }, true), { register: false, unregister: false });
  assert.deepEqual(app.registrationButtons({ status: 'finished' }, false), { register: false, unregister: false });
});

test('the lobby\'s tournaments: open first, then soonest, then name', () => {
  const x = (id, status, name, start_at = null) => ({ id, status, name, start_at });
  const order = app.tournamentOrder([x('1', 'finished', 'A'), x('2', 'running', 'B'), x('3', 'registering', 'Z', 5000),
    x('4', 'registering', 'C'), x('5', 'registering', 'B', 1000), x('6', 'cancelled', 'A'), x('7', 'registering', 'C')]);
  assert.deepEqual(order.map((t) => t.id), ['5', '3', '4', '7', '2', '1', '6']);
});

test('a private tournament reached by its id: its lobby summary from its detail, after the listed ones', () => {
  const detail = {
    id: 'c', name: 'Club Night', status: 'registering', kind: 'scheduled', variant: 'razz', betting: 'fixed_limit', start_at: 5000,
    min_entrants: 2, max_entrants: 8, seats_per_table: 8, entry_fee: 200, house_fee: 20, starting_chips: 1000, private: true,
    levels: [{ ante: 5 }], level: 1, game: 'razz', registration_open: true, hand_for_hand: false, tables: [], pool: 400, payouts: [100], prizes: [400], results: [],
    entrants: [{ entry: 1, player_id: 'p1', name: 'Ann', state: 'registered', chips: 1000 }, { entry: 2, player_id: 'p2', name: 'Bob', state: 'out', chips: 0 }],
  };
  const s = app.tournamentSummary(detail);
  assert.deepEqual(s, {
    id: 'c', name: 'Club Night', status: 'registering', kind: 'scheduled', variant: 'razz', betting: 'fixed_limit', start_at: 5000,
    min_entrants: 2, max_entrants: 8, entry_fee: 200, house_fee: 20, private: true, seats_per_table: 8, starting_chips: 1000, level: 1,
    registration_open: true, entrants: 2, players_left: 1,
  });
  assert.equal(app.feeText(s), app.feeText(detail));
  const listed = [{ id: 'a', name: 'A' }, { id: 'c', name: 'listed' }];
  assert.deepEqual(app.withRemembered(listed, [detail, null]).map((x) => x.name), ['A', 'listed'], 'a listed one is not drawn twice; a forgotten one (null) not at all');
  assert.deepEqual(app.withRemembered([{ id: 'a' }], [detail]).map((x) => x.id), ['a', 'c']);
});

test('a tournament\'s fee and a game\'s name in words (format.js, shared by the lobby and the tournament view)', () => {
  app.setLanguage('en');
  assert.equal(app.feeText({ entry_fee: 1000, house_fee: 100 }), '$10 + $1 fee');
  assert.equal(app.variantName('razz'), app.t('variant_razz'));
  app.setLanguage('it');
  assert.equal(nbsp(app.feeText({ entry_fee: 1000, house_fee: 150 })), '10 $ + 1,50 $ di commissione');
  app.setLanguage('en');
});

test('a refused registration in the tournament\'s words', () => {
  app.setLanguage('en');
  assert.equal(app.tournamentErrorText({ code: 'tournament_full', message: 'full' }), 'The tournament is full.');
  assert.equal(app.tournamentErrorText({ code: 'insufficient_balance', message: 'x' }), 'Your balance is too small for the entry and the fee.');
  assert.equal(app.tournamentErrorText({ code: 'something_new', message: 'as sent' }), 'as sent');
  app.setLanguage('it');
  assert.equal(app.tournamentErrorText({ code: 'tournament_started', message: 'x' }), 'Il torneo è già iniziato.');
  app.setLanguage('en');
  const schema = JSON.parse(readFileSync(new URL('../../proto/schema.json', import.meta.url), 'utf8'));
  const codes = schema.$defs.ErrorCode.oneOf.map((x) => x.const ?? x.enum?.[0]);
  for (const code of ['unknown_tournament', 'tournament_full', 'tournament_started', 'registration_closed', 'already_registered', 'not_registered', 'invite_required']) {
    assert.ok(codes.includes(code), `${code} is not an error code of the protocol`);
    assert.ok(app.EN[`err_${code}`] || app.EN[`err_t_${code}`], `no words for ${code}`);
  }
});

test('rebuys and the add-on: which buttons the tournament view shows the viewer', () => {
  const NOW = 1_000_000;
  const rebuys = { rebuy_until_level: 1, rebuy_chips: 100, rebuy_fee: 400, max_rebuys: 2, addon_chips: 150, addon_fee: 300, rebuy_open: true, rebuys: 0, addons: 0 };
  const e = (over = {}) => ({ player_id: 'a', state: 'playing', chips: 100, rebuys: 0, addon: false, ...over });
  const d = (me, r = {}, over = {}) => ({ status: 'running', starting_chips: 100, rebuys: { ...rebuys, ...r }, entrants: [e({ player_id: 'b', chips: 500 }), me], ...over });
  assert.deepEqual(app.purchaseButtons(d(e()), 'a', NOW), { rebuy: true, addon: false }, 'at the starting stack while rebuys are sold');
  assert.deepEqual(app.purchaseButtons(d(e({ chips: 101 })), 'a', NOW), { rebuy: false, addon: false }, 'above the starting stack');
  assert.equal(app.purchaseButtons(d(e({ chips: 40, rebuys: 2 })), 'a', NOW).rebuy, false, 'every rebuy used');
  assert.equal(app.purchaseButtons(d(e({ chips: 40, rebuys: 5 }), { max_rebuys: undefined }), 'a', NOW).rebuy, true, 'no limit');
  assert.equal(app.purchaseButtons(d(e({ chips: 40 }), { rebuy_open: false }), 'a', NOW).rebuy, false, 'the period is over');
  // Busted in the period: while the offer lasts, even past the period's end.
  assert.equal(app.purchaseButtons(d(e({ state: 'out', chips: 0, rebuy_offer_until: NOW + 5000 }), { rebuy_open: false }), 'a', NOW).rebuy, true);
  assert.equal(app.purchaseButtons(d(e({ state: 'out', chips: 0, rebuy_offer_until: NOW - 1 })), 'a', NOW).rebuy, false, 'the offer lapsed');
  assert.equal(app.purchaseButtons(d(e({ state: 'out', chips: 0 })), 'a', NOW).rebuy, false, 'out without an offer');
  // The add-on: while on sale, to a player still in who has not taken it.
  const sale = { rebuy_open: false, addon_until: NOW + 60_000 };
  assert.deepEqual(app.purchaseButtons(d(e({ chips: 900 }), sale), 'a', NOW), { rebuy: false, addon: true });
  assert.equal(app.purchaseButtons(d(e({ addon: true }), sale), 'a', NOW).addon, false, 'taken');
  assert.equal(app.purchaseButtons(d(e(), { ...sale, addon_until: NOW }), 'a', NOW).addon, false, 'over');
  assert.equal(app.purchaseButtons(d(e(), { ...sale, addon_chips: undefined }), 'a', NOW).addon, false, 'no add-on in this tournament');
  assert.equal(app.purchaseButtons(d(e({ state: 'out', chips: 0 }), sale), 'a', NOW).addon, false, 'out');
  // Nothing without rebuys, before or after the run, or for someone not in it.
  assert.deepEqual(app.purchaseButtons({ ...d(e()), rebuys: undefined }, 'a', NOW), { rebuy: false, addon: false });
  assert.deepEqual(app.purchaseButtons(d(e(), {}, { status: 'finished' }), 'a', NOW), { rebuy: false, addon: false });
  assert.deepEqual(app.purchaseButtons(d(e()), 'nobody', NOW), { rebuy: false, addon: false });
  // A re-entry: the latest entry counts.
  const twice = { ...d(e()), entrants: [e({ state: 'out', chips: 0 }), e({ chips: 80 })] };
  assert.equal(app.myEntry(twice, 'a').chips, 80);
  assert.equal(app.offerMsLeft(NOW + 59_500, NOW), 59_500);
  assert.equal(app.offerMsLeft(NOW - 10, NOW), 0, 'never below zero: the box goes');
});

test('a refused rebuy or add-on says why, in every language', () => {
  const reasons = ['a rebuy needs a stack at or below the starting stack', 'this entry has bought every rebuy the tournament allows',
    'the rebuy offer has lapsed: the entry is out', 'this entry has taken the add-on', 'the add-on is for players still in',
    'rebuys are closed', 'the add-on is not on offer'];
  for (const code of Object.keys(app.LANGS)) {
    app.setLanguage(code);
    const said = reasons.map((message) => app.purchaseErrorText({ code: 'not_offered', message }));
    assert.equal(new Set(said).size, reasons.length, `${code}: every reason its own words`);
    for (const [i, text] of said.entries()) assert.notEqual(text, reasons[i], `${code}: "${reasons[i]}" untranslated`);
  }
  app.setLanguage('en');
  assert.equal(app.purchaseErrorText({ code: 'not_offered', message: 'a rebuy needs a stack at or below the starting stack' }), 'A rebuy needs a stack at or below the starting stack.');
  assert.equal(app.purchaseErrorText({ code: 'not_offered', message: 'a reason from a newer server' }), 'a reason from a newer server', 'an unknown reason as sent');
  assert.equal(app.purchaseErrorText({ code: 'insufficient_balance', message: 'balance 5 is less than 400' }), 'Your balance is too small for it.');
  assert.equal(app.purchaseErrorText({ code: 'not_registered', message: 'x' }), 'You are not registered.');
  const schema = JSON.parse(readFileSync(new URL('../../proto/schema.json', import.meta.url), 'utf8'));
  const codes = schema.$defs.ErrorCode.oneOf.map((x) => x.const ?? x.enum?.[0]);
  assert.ok(codes.includes('not_offered'), 'not_offered is an error code of the protocol');
  app.setLanguage('it');
  assert.equal(app.purchaseErrorText({ code: 'not_offered', message: 'this entry has taken the add-on' }), 'Hai già preso l’add-on.');
  app.setLanguage('en');
});

test('deals at the final table: the deal now, who may propose, the box\'s buttons, the figures', () => {
  const NOW = 1_700_000_000_000;
  const player = (id, chips, icm, chop, accepted = false, paid = undefined) => ({ player_id: id, name: id.toUpperCase(), chips, icm, chip_chop: chop, accepted, ...(paid === undefined ? {} : { paid }) });
  const proposed = { state: 'proposed', by: 'a', method: 'icm', leave: 0, shared: 3000, until_ms: NOW + 120_000, players: [player('a', 970, 990, 970, true), player('b', 1015, 1005, 1015), player('c', 1015, 1005, 1015)] };
  const made = { ...proposed, state: 'made', until_ms: null, players: proposed.players.map((p) => ({ ...p, accepted: true, paid: p.icm })) };
  const off = { ...proposed, state: 'off', until_ms: null };
  // The newer news: a frame that came after the detail was asked for, else the detail.
  assert.equal(app.dealNow({ deal: proposed, at: 10 }, { detail: { deal: null }, asked: 5 }), proposed, 'a frame newer than the detail');
  assert.equal(app.dealNow({ deal: proposed, at: 10 }, { detail: { deal: null }, asked: 20 }), null, 'a detail asked for after the frame (the deal lapsed meanwhile)');
  assert.equal(app.dealNow({ deal: off, at: 10 }, { detail: { deal: proposed }, asked: 5 }), null, 'off: the detail asked for before it still has it open');
  assert.equal(app.dealNow(undefined, { detail: { deal: proposed }, asked: 5 }), proposed, 'after a reload: the detail');
  assert.equal(app.dealNow({ deal: proposed, at: 10 }, { detail: { deal: made }, asked: 5 }), made, 'made is final, from either');
  assert.equal(app.dealNow({ deal: made, at: 10 }, { detail: { deal: proposed }, asked: 20 }), made);
  assert.equal(app.dealNow(undefined, undefined), null);
  // Open until until_ms; its clock.
  assert.ok(app.dealOpen(proposed, NOW));
  assert.ok(!app.dealOpen(proposed, NOW + 120_000), 'lapsed');
  assert.ok(!app.dealOpen(made, NOW) && !app.dealOpen(null, NOW));
  assert.equal(app.dealMsLeft(proposed, NOW + 20_000), 100_000);
  assert.equal(app.dealMsLeft(proposed, NOW + 200_000), 0);
  assert.equal(app.dealMsLeft(made, NOW), null);
  // Who may propose: the final table (one table, registration closed) of a running tournament
  // that takes deals, nothing open or made, the viewer one of two or more playing.
  const entrants = [{ player_id: 'a', state: 'playing' }, { player_id: 'b', state: 'playing' }, { player_id: 'c', state: 'out' }];
  const final = { status: 'running', deals: true, registration_open: false, tables: [{ table: 1 }], entrants };
  assert.ok(app.canProposeDeal(final, 'a', null, NOW));
  assert.ok(!app.canProposeDeal(final, 'c', null, NOW), 'out');
  assert.ok(!app.canProposeDeal(final, 'x', null, NOW), 'not in it');
  assert.ok(!app.canProposeDeal({ ...final, deals: false }, 'a', null, NOW), 'no deals in this tournament');
  assert.ok(!app.canProposeDeal({ ...final, registration_open: true }, 'a', null, NOW), 'late registration open');
  assert.ok(!app.canProposeDeal({ ...final, tables: [{ table: 1 }, { table: 2 }] }, 'a', null, NOW), 'not the final table');
  assert.ok(!app.canProposeDeal({ ...final, status: 'finished' }, 'a', null, NOW));
  assert.ok(!app.canProposeDeal(final, 'a', proposed, NOW), 'one is open');
  assert.ok(app.canProposeDeal(final, 'a', proposed, NOW + 130_000), 'the open one lapsed');
  assert.ok(!app.canProposeDeal(final, 'a', made, NOW), 'one was made');
  assert.ok(!app.canProposeDeal({ ...final, entrants: [entrants[0], entrants[2]] }, 'a', null, NOW), 'one player left');
  // The box's buttons: Accept until accepted, held back while a hand is in play; Decline.
  assert.deepEqual(app.dealButtons(proposed, 'b', false, NOW), { accept: true, decline: true, wait: false });
  assert.deepEqual(app.dealButtons(proposed, 'b', true, NOW), { accept: true, decline: true, wait: true });
  assert.deepEqual(app.dealButtons(proposed, 'a', true, NOW), { accept: false, decline: true, wait: false }, 'accepted already');
  assert.deepEqual(app.dealButtons(proposed, 'x', false, NOW), { accept: false, decline: false, wait: false }, 'not in the deal');
  assert.deepEqual(app.dealButtons(made, 'a', false, NOW), { accept: false, decline: false, wait: false });
  assert.deepEqual(app.dealButtons(proposed, 'b', false, NOW + 120_000), { accept: false, decline: false, wait: false }, 'lapsed');
  // The figures: the method's while proposed, what was paid once made; who it waits for.
  assert.equal(app.dealFigure(proposed, proposed.players[1]), 1005);
  assert.equal(app.dealFigure({ ...proposed, method: 'chip_chop' }, proposed.players[1]), 1015);
  assert.equal(app.dealFigure(made, { ...made.players[2], paid: 1007 }), 1007);
  assert.deepEqual(app.dealWaiting(proposed), ['B', 'C']);
  // The results' deal column.
  assert.ok(app.resultsHaveDeal({ deal: made, results: [] }));
  assert.ok(app.resultsHaveDeal({ deal: null, results: [{ deal: 0 }, { deal: 5 }] }));
  assert.ok(!app.resultsHaveDeal({ deal: null, results: [{ deal: 0 }, { prize: 5 }] }));
});

test('a refused deal says why, in every language; the operator\'s pause from the frame or the detail', () => {
  const reasons = ['this tournament takes no deals', 'deals are made at the final table, once the field is final', 'a deal has been made',
    'a deal is already proposed', 'more is left to play for than first place pays', 'the prizes left cannot be shared', 'no deal is proposed',
    'accept once the hand in play has ended'];
  for (const code of Object.keys(app.LANGS)) {
    app.setLanguage(code);
    const said = reasons.map((message) => app.dealErrorText({ code: 'not_now', message }));
    assert.equal(new Set(said).size, reasons.length, `${code}: every reason its own words`);
    for (const [i, text] of said.entries()) assert.notEqual(text, reasons[i], `${code}: "${reasons[i]}" untranslated`);
    for (const key of ['deal_off', 't_paused', 'deal_wait_hand', 'deal_propose', 'deal_method_icm', 'deal_method_chip_chop']) assert.ok(app.DICTS[code][key], `${code}: no ${key}`);
  }
  app.setLanguage('en');
  assert.equal(app.dealErrorText({ code: 'not_now', message: 'accept once the hand in play has ended' }), 'Accept once the hand in play has ended.');
  assert.equal(app.noDealKey('Accept once the hand in play has ended.'), 'nd_hand');
  assert.equal(app.noDealKey('something else'), null);
  assert.equal(app.dealErrorText({ code: 'not_now', message: 'a reason from a newer server' }), 'a reason from a newer server', 'an unknown reason as sent');
  assert.equal(app.dealErrorText({ code: 'not_registered', message: 'x' }), app.errorText({ code: 'not_registered', message: 'x' }));
  assert.equal(app.t('deal_text', { who: 'Ann', method: app.t('deal_method_icm'), shared: '$30', leave: '$0' }), 'Ann proposes a deal by ICM: $30 shared, $0 left to play for.');
  // Paused: the frame when it is newer than the detail, else the detail's paused_since; never
  // once the tournament is not running.
  const running = (paused_since) => ({ detail: { status: 'running', paused_since }, asked: 5 });
  assert.equal(app.pausedNow({ paused: true, at: 10 }, running(null)), true);
  assert.equal(app.pausedNow({ paused: false, at: 10 }, running(123)), false, 'resumed after the detail was asked for');
  assert.equal(app.pausedNow({ paused: true, at: 1 }, running(null)), false, 'the detail asked for after the frame: resumed since');
  assert.equal(app.pausedNow(undefined, running(123)), true, 'after a reload');
  assert.equal(app.pausedNow(undefined, running(null)), false);
  assert.equal(app.pausedNow({ paused: true, at: 10 }, { detail: { status: 'finished', paused_since: 1 }, asked: 5 }), false);
  assert.equal(app.pausedNow(undefined, undefined), false);
});

test('breaks: the structure\'s line, the break from the frame or the detail, over at 0:00 or once a hand is dealt', () => {
  const NOW = 1_700_000_000_000;
  assert.deepEqual(app.breakPlan({ break_every_levels: 2, break_minutes: 5 }), { every: 2, minutes: 5 });
  assert.equal(app.breakPlan({ break_every_levels: null, break_minutes: null }), null, 'no breaks');
  assert.equal(app.breakPlan({}), null);
  assert.equal(app.breakPlan(null), null);
  // The frame's end, or the detail's (a reload, a reconnect); the later when both are known.
  assert.deepEqual(app.breakNow({ frameUntil: NOW + 42_000 }, NOW), { until: NOW + 42_000, ms: 42_000 });
  assert.deepEqual(app.breakNow({ detailUntil: NOW + 5_000 }, NOW), { until: NOW + 5_000, ms: 5_000 });
  assert.deepEqual(app.breakNow({ frameUntil: NOW + 60_000, detailUntil: null }, NOW), { until: NOW + 60_000, ms: 60_000 }, 'a detail fetched before the frame has none');
  assert.equal(app.breakNow({ frameUntil: NOW + 60_000, detailUntil: NOW - 600_000 }, NOW).until, NOW + 60_000, 'an older break in an old detail');
  // Over at 0:00, and once a hand is dealt after it began (even if the page's clock is behind).
  assert.equal(app.breakNow({ frameUntil: NOW }, NOW), null);
  assert.equal(app.breakNow({ frameUntil: NOW - 1 }, NOW), null);
  assert.equal(app.breakNow({ frameUntil: NOW + 900, endedUntil: NOW + 900 }, NOW), null, 'a hand dealt: over');
  assert.equal(app.breakNow({ frameUntil: NOW + 900, detailUntil: NOW + 900, endedUntil: NOW + 900 }, NOW), null, 'a detail fetched just before the deal');
  assert.deepEqual(app.breakNow({ frameUntil: NOW + 300_000, endedUntil: NOW - 600_000 }, NOW), { until: NOW + 300_000, ms: 300_000 }, 'the next break after one that ended');
  assert.equal(app.breakNow({}, NOW), null);
  // The words, in every language.
  app.setLanguage('en');
  assert.equal(app.t('t_breaks', { minutes: 5, n: 2 }), '5-minute break every 2 levels');
  assert.equal(app.t('t_breaks_every', { minutes: 1 }), '1-minute break after every level');
  assert.equal(app.t('break_resumes', { time: app.clockText(59_001) }), 'play resumes in 1:00');
  assert.equal(app.t('t_on_break', { time: app.clockText(42_000) }), 'On a break: play resumes in 0:42');
  assert.equal(app.timeOfDay(Date.UTC(2026, 0, 1, 14, 5), 'en', 'UTC').replace(/\s/g, ' '), '2:05 PM');
  assert.equal(app.timeOfDay(Date.UTC(2026, 0, 1, 14, 5), 'it', 'UTC'), '14:05');
  for (const code of Object.keys(app.LANGS)) {
    for (const key of ['t_breaks', 't_breaks_every', 't_on_break', 'break_region', 'break_title', 'break_resumes', 'break_said']) {
      assert.ok(app.DICTS[code][key], `${code} lacks ${key}`);
      if (code !== 'en' && key !== 'break_title') assert.notEqual(app.DICTS[code][key], app.EN[key], `${code}: ${key} untranslated`);
    }
    assert.match(app.tIn(code, 't_breaks', { minutes: 5, n: 2 }), /5.*2|2.*5/);
  }
});

test('an operator\'s pause stops the clocks: the level\'s and a break\'s stand, then count on from the resume', () => {
  const P = 1_700_000_000_000; // paused_since, on the server's clock
  const running = (extra = {}, asked = 50, at = asked + 10) => ({ detail: { status: 'running', ...extra }, asked, at });
  // Where the pause has the clocks: the detail's paused_since when it knows of the pause, else
  // when the frame came; resumed while the detail is still the paused one; null while they run.
  assert.equal(app.clockPause(undefined, running()), null, 'never paused');
  assert.equal(app.clockPause(undefined, undefined), null);
  assert.deepEqual(app.clockPause(undefined, running({ paused_since: P })), { since: P, at: null, wall: null, resumed: null }, 'after a reload');
  assert.deepEqual(app.clockPause({ paused: true, at: 100, wall: P + 40 }, running()), { since: null, at: 100, wall: P + 40, resumed: null }, 'the frame came, the detail asked for before it');
  assert.deepEqual(app.clockPause({ paused: true, at: 100, wall: P + 40 }, running({ paused_since: P }, 120)), { since: P, at: null, wall: null, resumed: null }, 'the detail asked for after the frame');
  assert.deepEqual(app.clockPause({ paused: false, at: 200, wall: P + 9_000 }, running({ paused_since: P }, 150)), { since: P, at: null, wall: null, resumed: { at: 200, wall: P + 9_000 } }, 'resumed, the detail still the paused one');
  assert.equal(app.clockPause({ paused: false, at: 200, wall: P + 9_000 }, running({}, 250)), null, 'resumed, the detail asked for since');
  assert.equal(app.clockPause({ paused: true, at: 100, wall: P }, { detail: { status: 'finished', paused_since: P }, asked: 50 }), null, 'not running');
  // It stands exactly when pausedNow says paused.
  for (const frame of [undefined, { paused: true, at: 100, wall: P }, { paused: false, at: 100, wall: P }]) {
    for (const entry of [undefined, running(), running({ paused_since: P }), running({}, 120), running({ paused_since: P }, 120), { detail: { status: 'finished', paused_since: P }, asked: 5 }]) {
      assert.equal(app.clockStopped(app.clockPause(frame, entry)), app.pausedNow(frame, entry), `${JSON.stringify(frame)} ${JSON.stringify(entry)}`);
    }
  }
  // What the clocks read: the page's time while they run; the moment they stopped while paused;
  // that moment plus the time since the resume until the detail moved the ends on.
  assert.equal(app.clockNow(null, P + 5), P + 5);
  assert.equal(app.clockNow({ since: P, resumed: null }, P + 600_000), P, 'stands');
  assert.equal(app.clockNow({ since: null, at: 100, wall: P + 40, resumed: null }, P + 600_000), P + 40, 'from the frame');
  assert.equal(app.clockNow({ since: P, resumed: { at: 200, wall: P + 9_000 } }, P + 10_500), P + 1_500, 'counting on from the resume');
  assert.equal(app.clockNow({ since: P, resumed: { at: 200, wall: P + 9_000 } }, P + 8_000), P, 'never before the stop');
  // A break with 42 s left when paused: 42 s left however long the pause lasts; resumed 9 s
  // later, 40 s left 2 s on, from the resume's frame and from the detail that moved its end on
  // (on_break_until + 9 s) alike.
  const until = P + 42_000;
  const paused = app.clockPause(undefined, running({ paused_since: P, on_break_until: until }));
  assert.deepEqual(app.breakNow({ frameUntil: until, detailUntil: until }, app.clockNow(paused, P + 1_000)), { until, ms: 42_000 });
  assert.deepEqual(app.breakNow({ frameUntil: until, detailUntil: until }, app.clockNow(paused, P + 600_000)), { until, ms: 42_000 }, 'past its end on the page\'s clock: it stands');
  const byFrame = app.clockPause({ paused: true, at: 100, wall: P + 2_000 }, running({ on_break_until: until }));
  assert.deepEqual(app.breakNow({ frameUntil: until }, app.clockNow(byFrame, P + 30_000)), { until, ms: 40_000 }, 'the frame before the detail: as the page counted when it came');
  const resumed = app.clockPause({ paused: false, at: 200, wall: P + 9_000 }, running({ paused_since: P, on_break_until: until }, 150));
  assert.deepEqual(app.breakNow({ frameUntil: until, detailUntil: until }, app.clockNow(resumed, P + 11_000)), { until, ms: 40_000 });
  const after = app.clockPause({ paused: false, at: 200, wall: P + 9_000 }, running({ on_break_until: until + 9_000 }, 250));
  assert.deepEqual(app.breakNow({ frameUntil: until, detailUntil: until + 9_000 }, app.clockNow(after, P + 11_000)), { until: until + 9_000, ms: 40_000 });
  assert.equal(app.breakNow({ frameUntil: P - 1 }, app.clockNow(paused, P + 1)), null, 'a break over before the pause');
  // The level's clock: 5 minutes left at the detail (asked at 900, came at 1000).
  const entry = { detail: { status: 'running', ms_to_next_level: 300_000, next_level_at: P + 302_000 }, asked: 900, at: 1000 };
  assert.equal(app.levelClock(entry, null, 4_000), 297_000, 'running: counts from the detail');
  const stop = app.clockPause({ paused: true, at: 3_000, wall: 0 }, entry);
  assert.equal(app.levelClock(entry, stop, 4_000), 298_000, 'stopped when the frame came');
  assert.equal(app.levelClock(entry, stop, 600_000), 298_000, 'and stands');
  // A detail asked for 10 s into the pause: the server's ms_to_next_level counts down to a level
  // end not moved yet (290 s); the clock stands at the end less paused_since.
  const during = { detail: { status: 'running', ms_to_next_level: 290_000, next_level_at: P + 302_000, paused_since: P + 4_000 }, asked: 13_000, at: 13_100 };
  const since = app.clockPause({ paused: true, at: 3_000, wall: 0 }, during);
  assert.equal(app.levelClock(during, since, 13_100), 298_000);
  assert.equal(app.levelClock(during, since, 60_000), 298_000, 'a refresh later: the same');
  const back = app.clockPause({ paused: false, at: 30_000, wall: 0 }, during);
  assert.equal(app.levelClock(during, back, 31_500), 296_500, 'resumed: counting on from the frame');
  const moved = { detail: { status: 'running', ms_to_next_level: 298_000, next_level_at: P + 328_000 }, asked: 30_100, at: 30_200 };
  assert.equal(app.levelClock(moved, app.clockPause({ paused: false, at: 30_000, wall: 0 }, moved), 31_700), 296_500, 'the detail asked for on the resume');
  const late = { detail: { status: 'running', ms_to_next_level: 300_000, next_level_at: P + 302_000 }, asked: 900, at: 5_000 };
  assert.equal(app.levelClock(late, app.clockPause({ paused: true, at: 3_000, wall: 0 }, late), 9_000), 300_000, 'a detail asked for before the frame and come after it');
  assert.equal(app.levelClock({ detail: { status: 'running', ms_to_next_level: null }, at: 0 }, stop, 5), null, 'no timed level');
  assert.equal(app.levelClock({ detail: { status: 'finished', ms_to_next_level: 5 }, at: 0 }, stop, 5), null);
  // "(paused)" after a clock that stands, in every language.
  const words = { en: 'play resumes in 0:42 (paused)', it: 'si riprende tra 0:42 (sospeso)', hu: 'a játék 0:42 múlva folytatódik (szüneteltetve)' };
  for (const code of Object.keys(app.LANGS)) {
    assert.equal(app.tIn(code, 'clock_paused', { clock: app.tIn(code, 'break_resumes', { time: '0:42' }) }), words[code]);
  }
  assert.equal(app.tIn('en', 'clock_paused', { clock: app.tIn('en', 't_next_level_in', { time: '4:58' }) }), 'next level in 4:58 (paused)');
});

test('bounties: the plan, the heads, a frame applied to the detail, the words of a bounty paid', () => {
  const ANN = 'a1';
  const BOB = 'b2';
  const CID = 'c3';
  const detail = () => ({
    bounty: 500, progressive_bounty: true, bounties_paid: 0,
    entrants: [
      { entry: 1, player_id: ANN, state: 'playing', bounty: 500, bounties_won: 0 },
      { entry: 2, player_id: BOB, state: 'out', bounty: 500, bounties_won: 0 },
      { entry: 3, player_id: BOB, state: 'playing', bounty: 500, bounties_won: 0 }, // a re-entry: the latest counts
      { entry: 4, player_id: CID, state: 'playing', bounty: 500, bounties_won: 0 },
    ],
  });
  assert.deepEqual(app.bountyPlan({ bounty: 500, progressive_bounty: true, bounties_paid: 250 }), { bounty: 500, progressive: true, paid: 250 });
  assert.deepEqual(app.bountyPlan({ bounty: 500 }), { bounty: 500, progressive: false, paid: 0 });
  assert.equal(app.bountyPlan({ bounty: null, progressive_bounty: false }), null, 'no bounties');
  assert.equal(app.bountyPlan({}), null);
  assert.equal(app.bountyPlan(null), null);
  const d = detail();
  assert.equal(app.headOf(d, ANN), 500);
  assert.equal(app.headOf(d, 'nobody'), null);
  assert.equal(app.headOf({ entrants: d.entrants }, ANN), null, 'not a knockout tournament');
  // Ann knocks Bob out (progressive: $2.50 paid, $2.50 onto her head): heads only, absolute, so
  // applying it twice (a detail fetched after the payment) changes nothing.
  const frame = { tournament_id: 't', player_id: ANN, name: 'Ann', eliminated: BOB, eliminated_name: 'Bob', cents: 250, head: 750 };
  assert.equal(app.applyBountyHeads(d, frame), true);
  assert.equal(app.headOf(d, ANN), 750);
  assert.equal(app.headOf(d, BOB), 0);
  assert.equal(d.entrants[1].bounty, 500, 'the earlier entry stays as it was');
  assert.equal(d.entrants[0].bounties_won, 0, 'what was won comes with the next fetch');
  assert.equal(d.bounties_paid, 0);
  app.applyBountyHeads(d, frame);
  assert.equal(app.headOf(d, ANN), 750);
  assert.equal(app.applyBountyHeads({ entrants: [] }, frame), false);
  // The winner's own head: eliminated is the one paid.
  const own = { ...frame, eliminated: ANN, eliminated_name: 'Ann', cents: 750, head: 0 };
  app.applyBountyHeads(d, own);
  assert.equal(app.headOf(d, ANN), 0);
  // The words: another's, ours, on us, the winner's own head; money in dollars, in every language.
  app.setLanguage('en');
  assert.equal(app.bountyText(frame, CID), 'Ann won $2.50 for knocking out Bob');
  assert.equal(app.bountyText(frame, ANN), 'You won $2.50 for knocking out Bob');
  assert.equal(app.bountyText(frame, BOB), 'Ann won $2.50 for knocking you out');
  assert.equal(app.bountyText(own, CID), 'Ann won $7.50: the bounty on their own head');
  assert.equal(app.bountyText(own, ANN), 'You won $7.50: the bounty on your own head');
  assert.equal(app.bountyText({ ...frame, cents: 500 }, undefined), 'Ann won $5 for knocking out Bob');
  assert.equal(app.feeText({ entry_fee: 1000, house_fee: 100, bounty: 500 }), '$10 + $5 bounty + $1 fee');
  assert.equal(app.feeText({ entry_fee: 1000, house_fee: 100, bounty: null }), '$10 + $1 fee');
  assert.equal(app.t('t_knockout_progressive', { bounty: app.money(500, 'cash') }), 'Progressive knockout: $5 on each head');
  assert.equal(app.t('seat_bounty', { amount: app.money(750, 'cash') }), 'bounty $7.50');
  app.setLanguage('it');
  assert.equal(nbsp(app.bountyText(frame, CID)), 'Ann ha vinto 2,50 $ per aver eliminato Bob');
  assert.equal(nbsp(app.bountyText(frame, ANN)), 'Hai vinto 2,50 $ per aver eliminato Bob');
  assert.equal(nbsp(app.feeText({ entry_fee: 1000, house_fee: 100, bounty: 500 })), '10 $ + 5 $ di taglia + 1 $ di commissione');
  app.setLanguage('hu');
  assert.equal(nbsp(app.bountyText(frame, BOB)), 'Ann 2,50 $ fejpénzt nyert a kiejtésedért');
  app.setLanguage('en');
  const keys = ['t_fee_bounty', 't_knockout', 't_knockout_progressive', 't_row_knockout', 't_row_knockout_progressive', 't_bounties_paid', 't_col_bounty', 't_bounties_won', 't_col_bounties', 'seat_bounty', 'bounty_won', 'bounty_won_you', 'bounty_won_on_you', 'bounty_own', 'bounty_own_you'];
  for (const code of Object.keys(app.LANGS)) {
    for (const key of keys) {
      assert.ok(app.DICTS[code][key], `${code} lacks ${key}`);
      if (code !== 'en' && !['t_knockout', 't_row_knockout'].includes(key)) assert.notEqual(app.DICTS[code][key], app.EN[key], `${code}: ${key} untranslated`);
    }
  }
});

test('the five cards that made a hand: stud high, the ace-to-five low, the eight-or-better low (RULES.md 5.1)', () => {
  const cards = (s) => s.split(' ');
  const high = (s) => app.bestHigh(cards(s));
  const low = (s, eight = false) => app.bestLow(cards(s), eight);
  // Each category, its code as the server writes it (the naming ranks; a straight by its top),
  // the five in the order the hand reads.
  assert.deepEqual(high('As Ks Qs Js Ts 2c 3d'), { cards: cards('As Ks Qs Js Ts'), code: { category: 'straight_flush', ranks: 'A' } });
  assert.deepEqual(high('Ah 2h 3h 4h 5h 6c 7c'), { cards: cards('5h 4h 3h 2h Ah'), code: { category: 'straight_flush', ranks: '5' } }, 'the steel wheel');
  assert.deepEqual(high('9c 9d 9h 9s Kc Kd 2h'), { cards: cards('9c 9d 9h 9s Kc'), code: { category: 'four_of_a_kind', ranks: '9K' } });
  assert.deepEqual(high('Kc Kd Kh 7s 7c 7d 2h'), { cards: cards('Kc Kd Kh 7s 7c'), code: { category: 'full_house', ranks: 'K7' } }, 'the better full house of two trips');
  assert.deepEqual(high('2h 9h Jh Kh 5h Ac Ad'), { cards: cards('Kh Jh 9h 5h 2h'), code: { category: 'flush', ranks: 'KJ952' } });
  assert.deepEqual(high('As 2d 3h 4c 5d Kh Kd'), { cards: cards('5d 4c 3h 2d As'), code: { category: 'straight', ranks: '5' } }, 'the wheel beats a pair');
  assert.deepEqual(high('6s 7d 8h 9c Tc 2d 5h'), { cards: cards('Tc 9c 8h 7d 6s'), code: { category: 'straight', ranks: 'T' } }, 'the higher straight of six in a row');
  assert.deepEqual(high('Qc Qd Qh 2s 7c 9d 4h'), { cards: cards('Qc Qd Qh 9d 7c'), code: { category: 'three_of_a_kind', ranks: 'Q97' } });
  assert.deepEqual(high('Kh Kd 5c 5s 9h 2c 3d'), { cards: cards('Kh Kd 5c 5s 9h'), code: { category: 'two_pair', ranks: 'K59' } });
  assert.deepEqual(high('Kh Kd 5c 5s 3h 3c 9d'), { cards: cards('Kh Kd 5c 5s 9d'), code: { category: 'two_pair', ranks: 'K59' } }, 'three pairs: the best two and the best kicker');
  assert.deepEqual(high('Jh Jd 2c 5s 9h Ac 3d'), { cards: cards('Jh Jd Ac 9h 5s'), code: { category: 'one_pair', ranks: 'JA95' } });
  assert.deepEqual(high('2c 5d 9h Jc Ks 3d 7h'), { cards: cards('Ks Jc 9h 7h 5d'), code: { category: 'high_card', ranks: 'KJ975' } });
  assert.equal(high('As Kd Qh Jc'), null, 'fewer than five cards');
  // Ace-to-five (razz, London): aces low, straights and flushes do not count, pairs are bad.
  assert.deepEqual(low('5c 4c 3c 2c Ac Kd Kh'), { cards: cards('5c 4c 3c 2c Ac'), code: { category: 'high_card', ranks: '5432A' } }, 'the wheel, a flush that does not count');
  assert.deepEqual(low('8c 6d 4h 2s Ac Kd Qh'), { cards: cards('8c 6d 4h 2s Ac'), code: { category: 'high_card', ranks: '8642A' } });
  assert.deepEqual(low('Kc Qd 9h 7s 6c 3d 2h'), { cards: cards('9h 7s 6c 3d 2h'), code: { category: 'high_card', ranks: '97632' } });
  assert.deepEqual(low('Kc Kd Qh Qs Jc Jd 2h'), { cards: cards('Jc Jd Kc Qh 2h'), code: { category: 'one_pair', ranks: 'JKQ2' } }, 'a pair is forced: the lowest pair');
  assert.deepEqual(low('Ac Ad 2h 2s 3c 3d 4h'), { cards: cards('Ac Ad 4h 3c 2h'), code: { category: 'one_pair', ranks: 'A432' } }, 'one pair, not two: the aces, the lowest pair');
  // Eight or better: five different ranks, all 8 or lower, else none.
  assert.deepEqual(low('8c 6d 4h 2s Ac Kd Qh', true), { cards: cards('8c 6d 4h 2s Ac'), code: { category: 'high_card', ranks: '8642A' } });
  assert.deepEqual(low('8c 7d 6h 5s 4c Kd Kh', true).code, { category: 'high_card', ranks: '87654' }, 'the worst low that qualifies');
  assert.equal(low('9c 9d Kh Qs Jc Jd Th', true), null);
  assert.equal(low('Ac Ad 2h 2s 3c 3d 9h', true), null, 'four ranks of 8 or lower: no low');
  // What a seat's cards make in each game; the server's code decides what is marked.
  const seen = (s) => cards(s).map((card, i) => ({ card, up: i >= 2 && i <= 5 }));
  const stud8 = seen('As 2d 3h 8c Kh Kd 5d');
  const made = app.madeHands('stud8', cards('As 2d 3h 8c Kh Kd 5d'));
  assert.deepEqual(made.high.cards, cards('Kh Kd As 8c 5d'));
  assert.deepEqual(made.low.cards, cards('8c 5d 3h 2d As'));
  const code = { high: made.high.code, low: made.low.code };
  const played = app.playedCards('stud8', stud8, null, code);
  assert.deepEqual(played, { high: made.high.cards, low: made.low.cards });
  assert.equal(app.cardPart(played, 'As'), 'high low', 'an ace in both fives');
  assert.equal(app.cardPart(played, 'Kh'), 'high');
  assert.equal(app.cardPart(played, '2d'), 'low');
  assert.equal(app.cardPart(null, 'As'), null, 'nothing marked');
  assert.equal(app.cardPart({ high: cards('Kh Kd As 8c 5d'), low: null }, '3h'), '', 'a card in neither five');
  assert.equal(app.playedCards('stud8', stud8, null, null), null, 'no code from the server: nothing marked');
  assert.equal(app.playedCards('stud8', stud8, null, { high: { category: 'one_pair', ranks: 'QA85' }, low: null }), null, 'the server named another hand: nothing marked');
  assert.deepEqual(app.playedCards('stud8', stud8, null, { high: code.high, low: null }), { high: made.high.cards, low: null }, 'no low named: the high five only');
  assert.deepEqual(app.playedCards('stud8_declare', stud8, null, code, 'low'), { high: null, low: made.low.cards }, 'declared low: the low five only');
  assert.deepEqual(app.playedCards('razz', seen('Kc Qd 9h 7s 6c 3d 2h'), null, { high: null, low: { category: 'high_card', ranks: '97632' } }), { high: null, low: cards('9h 7s 6c 3d 2h') });
  assert.equal(app.playedCards('stud', [{ card: null, up: false }, ...seen('Kh Kd 5c 5s 9h 2c')], null, { high: { category: 'two_pair', ranks: 'K59' } }), null, 'a card not known');
  // The community card (RULES.md 3.5) may be one of the five.
  const withCommunity = app.playedCards('stud', seen('Kh 2d 5c 7s 9h Jc'), 'Kd', { high: { category: 'one_pair', ranks: 'KJ97' }, low: null });
  assert.deepEqual(withCommunity.high, cards('Kh Kd Jc 9h 7s'));
  // Which five an award was won with.
  assert.equal(app.awardHalf({ half: 'high' }, 'stud8'), 'high');
  assert.equal(app.awardHalf({ half: 'low' }, 'stud8'), 'low');
  assert.equal(app.awardHalf({ half: 'whole' }, 'stud8'), 'high', 'no low qualified');
  assert.equal(app.awardHalf({ half: 'whole' }, 'razz'), 'low');
  assert.equal(app.awardHalf({ half: 'whole' }, 'london'), 'low');
  assert.equal(app.awardHalf({ half: 'whole' }, 'stud8_declare', 'low'), 'low');
  assert.equal(app.awardHalf({ half: 'spade' }, 'chicago'), null);
  for (const code of Object.keys(app.LANGS)) for (const key of ['in_hand', 'in_high', 'in_low', 'in_both']) assert.ok(app.DICTS[code][key], `${code} lacks ${key}`);
});

test('a hand named in English (a snapshot\'s or a LAST HAND report\'s seat, which carry no code): read as a code, marked and written as the table does', () => {
  const cards = (s) => s.split(' ');
  const named = (category, ranks) => ({ category, ranks, named: true });
  // The server's names (crates/engine/src/eval): a high hand's naming ranks, a low's every rank.
  assert.deepEqual(app.nameCode('Royal flush', 'stud'), { high: named('straight_flush', 'A'), low: null });
  assert.deepEqual(app.nameCode('Straight flush, Five high', 'stud'), { high: named('straight_flush', '5'), low: null });
  assert.deepEqual(app.nameCode('Four of a kind, Nines', 'stud'), { high: named('four_of_a_kind', '9'), low: null });
  assert.deepEqual(app.nameCode('Full house, Kings full of Sevens', 'stud'), { high: named('full_house', 'K7'), low: null });
  assert.deepEqual(app.nameCode('Flush, King high', 'stud'), { high: named('flush', 'K'), low: null });
  assert.deepEqual(app.nameCode('Straight, Ten high', 'stud'), { high: named('straight', 'T'), low: null });
  assert.deepEqual(app.nameCode('Three of a kind, Queens', 'stud'), { high: named('three_of_a_kind', 'Q'), low: null });
  assert.deepEqual(app.nameCode('Two pair, Kings and Fives', 'stud'), { high: named('two_pair', 'K5'), low: null });
  assert.deepEqual(app.nameCode('Pair of Jacks', 'stud'), { high: named('one_pair', 'J'), low: null });
  assert.deepEqual(app.nameCode('High card, King', 'stud'), { high: named('high_card', 'K'), low: null });
  assert.deepEqual(app.nameCode('9-7-6-3-2', 'razz'), { high: null, low: named('high_card', '97632') });
  assert.deepEqual(app.nameCode('T-8-6-4-A', 'razz'), { high: null, low: named('high_card', 'T864A') });
  assert.deepEqual(app.nameCode('Pair of Jacks, K-Q-2', 'razz'), { high: null, low: named('one_pair', 'JKQ2') });
  assert.deepEqual(app.nameCode('Two pair, Fives and Threes, 7', 'razz'), { high: null, low: named('two_pair', '537') });
  assert.deepEqual(app.nameCode('Full house, Twos full of Aces', 'razz'), { high: null, low: named('full_house', '2A') }, 'a name alone is a low in razz');
  // Stud8: the seat's name ("...; low ...", "...; no low") and the histories' ("HI: ...; LO: ...").
  const both = { high: named('two_pair', 'K5'), low: named('high_card', '8532A') };
  assert.deepEqual(app.nameCode('Two pair, Kings and Fives; low 8-5-3-2-A', 'stud8'), both);
  assert.deepEqual(app.nameCode('HI: Two pair, Kings and Fives; LO: 8-5-3-2-A', 'stud8'), both);
  assert.deepEqual(app.nameCode('Two pair, Kings and Fives; no low', 'stud8'), { high: named('two_pair', 'K5'), low: null });
  assert.deepEqual(app.nameCode('8-5-3-2-A', 'stud8'), { high: null, low: named('high_card', '8532A') }, 'a run of ranks is a low (a low half\'s award)');
  assert.equal(app.nameCode('Spade in the hole, King', 'chicago'), null, 'a card, not a hand');
  assert.equal(app.nameCode('Something new', 'stud'), null);
  assert.equal(app.nameCode(null, 'stud'), null);
  // Marked with the table's function: the five make the hand the name says (its naming ranks;
  // the kickers are the best, as the server's are), else nothing.
  const seen = (s) => cards(s).map((card, i) => ({ card, up: i >= 2 && i <= 5 }));
  const view = { variant: 'stud8', community: null, seats: [{ seat: 1, shown: true, cards: seen('As 2d 3h 8c Kh Kd 5d'), hand: 'Pair of Kings; low 8-5-3-2-A' }] };
  const sv = view.seats[0];
  assert.deepEqual(app.seatPlayed(view, sv), { high: cards('Kh Kd As 8c 5d'), low: cards('8c 5d 3h 2d As') });
  assert.deepEqual(app.seatPlayed(view, { ...sv, hand: 'Pair of Kings; no low' }), { high: cards('Kh Kd As 8c 5d'), low: null });
  assert.equal(app.seatPlayed(view, { ...sv, hand: 'Pair of Queens; no low' }), null, 'the name says another hand: nothing marked');
  assert.equal(app.seatPlayed(view, { ...sv, shown: false }), null, 'not shown (mucked): nothing marked');
  // A code from the frames wins over the name, and is matched whole (kickers too).
  const exact = { high: { category: 'one_pair', ranks: 'KA85' }, low: null };
  assert.deepEqual(app.seatCode('stud8', { ...sv, handCode: exact }), exact);
  assert.deepEqual(app.seatCode('stud8', { ...sv, hand_code: exact }), exact, 'a view\'s seat with a code of its own');
  assert.equal(app.seatPlayed(view, { ...sv, handCode: { high: { category: 'one_pair', ranks: 'KA83' }, low: null } }), null);
  // One way of writing a hand: the name read as a code says what the code says.
  for (const code of Object.keys(app.LANGS)) {
    app.setLanguage(code);
    const fromCode = app.strengthName({ high: { category: 'one_pair', ranks: 'KA85' }, low: { category: 'high_card', ranks: '8532A' } });
    assert.equal(app.seatHandName('stud8', sv), fromCode, `${code}: a stud8 seat's name`);
    assert.equal(app.handName(null, 'Pair of Kings; low 8-5-3-2-A', 'stud8'), fromCode);
    assert.equal(app.handName(null, 'T-8-6-4-A', 'razz'), app.strengthName({ high: null, low: { category: 'high_card', ranks: 'T864A' } }));
    assert.equal(app.handName(null, 'Pair of Kings; no low', 'stud8'), app.strengthName({ high: { category: 'one_pair', ranks: 'KA85' }, low: null }));
    assert.equal(app.handName(null, 'Something new', 'stud'), 'Something new', 'not a name of the server\'s: as sent');
  }
  app.setLanguage('en');
  assert.equal(app.seatHandName('stud8', sv), 'HI: Pair of Kings; LO: 8-5-3-2-A');
  const ctx = { deals: [], variant: 'stud8' };
  const [shows] = app.describeEvent({ event: 'shown', seat: 1, cards: cards('As 2d 3h 8c Kh Kd 5d'), automatic: true, description: 'Pair of Kings; low 8-5-3-2-A' }, ctx, () => 'Ann');
  assert.match(shows(), /HI: Pair of Kings; LO: 8-5-3-2-A/, 'the log writes the low as the table does');
  // An award's cards: the five of its half, else every card shown, none when nothing was shown.
  assert.deepEqual(app.awardCards(view, { seat: 1, half: 'low' }), { half: 'low', cards: cards('8c 5d 3h 2d As') });
  assert.deepEqual(app.awardCards(view, { seat: 1, half: 'high' }), { half: 'high', cards: cards('Kh Kd As 8c 5d') });
  assert.deepEqual(app.awardCards({ ...view, seats: [{ ...sv, hand: 'Something new' }] }, { seat: 1, half: 'high' }), { half: null, cards: cards('As 2d 3h 8c Kh Kd 5d') });
  assert.equal(app.awardCards({ ...view, seats: [{ ...sv, shown: false }] }, { seat: 1, half: 'whole' }), null);
});

test('bet sizing: the pot fraction formula, presets clamped to the range, typed sizes checked', () => {
  // BARGE's pot-limit example (RULES.md 10.5): pot 950, call 150: a pot raise is to 1250.
  const barge = { pot: 950, toCall: 150, streetBet: 0, min: 300, max: 1250 };
  assert.equal(app.potFractionTo({ ...barge, fraction: 1 }), 1250);
  assert.equal(app.potFractionTo({ ...barge, fraction: 0.5 }), 700); // 150 + 550
  assert.equal(app.potFractionTo({ ...barge, fraction: 0.75 }), 975); // 150 + 825
  // After a raise to 650 the pot is 1600: the next may raise to 650 + (1600 + 650) = 2900.
  assert.equal(app.potFractionTo({ pot: 1600, toCall: 650, streetBet: 0, fraction: 1, min: 1150, max: 100000 }), 2900);
  // Our own chips of this street count: we bet 100, were raised to 300 (pot 1000 now).
  assert.equal(app.potFractionTo({ pot: 1000, toCall: 200, streetBet: 100, fraction: 1, min: 500, max: 5000 }), 1500);
  // Clamped: the stack caps the top, the minimum raise the bottom; whole chips.
  assert.equal(app.potFractionTo({ ...barge, fraction: 1, max: 800 }), 800);
  assert.equal(app.potFractionTo({ pot: 10, toCall: 0, streetBet: 0, fraction: 0.5, min: 20, max: 100 }), 20);
  assert.equal(app.potFractionTo({ pot: 75, toCall: 0, streetBet: 0, fraction: 0.5, min: 10, max: 100 }), 38);
  const w = { kind: 'raise', to: 300, min_to: 300, max_to: 1250 };
  const ctx = { pot: 950, toCall: 150, streetBet: 0 };
  assert.deepEqual(app.BET_PRESETS.map((p) => app.presetTo(p, w, ctx)), [300, 700, 975, 1250, 1250]);
  // No limit: "Pot" is the pot-size raise, below the all-in maximum.
  assert.deepEqual(app.BET_PRESETS.map((p) => app.presetTo(p, { ...w, max_to: 5000 }, ctx)), [300, 700, 975, 1250, 5000]);
  assert.equal(app.clampTo(299, 300, 1250), 300);
  assert.equal(app.clampTo(1300, 300, 1250), 1250);
  assert.equal(app.clampTo('500.4', 300, 1250), 500);
  assert.equal(app.clampTo('x', 300, 1250), 300);
  assert.equal(app.sizeError('300', 300, 1250), null);
  assert.equal(app.sizeError(' 1250 ', 300, 1250), null);
  assert.equal(app.sizeError('299', 300, 1250), 'low');
  assert.equal(app.sizeError('1251', 300, 1250), 'high');
  assert.equal(app.sizeError('', 300, 1250), 'not_number');
  assert.equal(app.sizeError('5.5', 300, 1250), 'not_number');
  assert.equal(app.sizeError('-5', 300, 1250), 'not_number');
  assert.equal(app.handPot({ seats: [{ committed: 30 }, { committed: 45 }, {}] }), 75);
  assert.equal(app.handPot(null), 0);
});

test('betting structure: big-bet tables say it in every language; fixed limit adds nothing', () => {
  for (const [code, pot, none] of [['en', 'Pot limit', 'No limit'], ['it', 'Pot limit', 'No limit'], ['hu', 'Pot limit', 'No limit']]) {
    app.setLanguage(code);
    assert.equal(app.bettingName({ betting: 'pot_limit' }), pot);
    assert.equal(app.bettingName({ betting: 'no_limit' }), none);
    assert.equal(app.bettingName({ betting: 'fixed_limit' }), '');
    assert.equal(app.bettingName({}), '');
  }
  app.setLanguage('en');
  assert.equal(app.limits({ small_bet: 200, big_bet: 400, betting: 'fixed_limit' }), '$2/$4');
  assert.equal(app.limits({ small_bet: 200, big_bet: 400, betting: 'pot_limit' }), 'min bet $2');
  for (const key of ['betting_pot_limit', 'betting_no_limit', 'min_bet', 'bet_size', 'bet_amount', 'bet_slider', 'bet_size_range',
    ...app.BET_PRESETS.map((p) => `preset_${p}`)]) {
    for (const d of Object.values(app.DICTS)) assert.ok(typeof d[key] === 'string' && d[key], `${key} in every dictionary`);
  }
});

// ---- the four new games (RULES.md 11-14) ------------------------------------------------------

test('the seven games have names in every language; an unknown one shows its wire name', () => {
  assert.deepEqual(app.VARIANTS, ['stud', 'stud8', 'razz', 'london', 'stud8_declare', 'chicago', 'mississippi']);
  for (const code of Object.keys(app.LANGS)) {
    app.setLanguage(code);
    for (const v of app.VARIANTS) {
      assert.ok(app.DICTS[code][`variant_${v}`], `${code}: no name for ${v}`);
      assert.equal(app.variantName(v), app.DICTS[code][`variant_${v}`]);
    }
  }
  app.setLanguage('en');
  assert.equal(app.variantName('london'), 'London Lowball');
  assert.equal(app.variantName('stud8_declare'), 'Stud Hi/Lo Declare');
  assert.equal(app.variantName('chicago'), 'Chicago');
  assert.equal(app.variantName('mississippi'), 'Mississippi Stud');
  assert.equal(app.variantName('some_new_game'), 'some_new_game');
  app.setLanguage('it');
  assert.equal(app.variantName('stud8_declare'), 'Stud Hi/Lo con dichiarazione');
  app.setLanguage('en');
});

test('the declaration: the seat\'s choice hidden until the reveal, the log says it', () => {
  app.setLanguage('en');
  const names = app.namer({ 1: 'Ann', 2: 'Bob', 3: 'Cat' });
  const ctx = { deals: [] };
  const view = app.emptyView('stud8_declare');
  const apply = (ev) => {
    assert.ok(app.applyEvent(view, ev));
    return app.describeEvent(ev, ctx, names).map((f) => f());
  };
  apply({ event: 'hand_started', seats: [[1, 1000], [2, 1000], [3, 1000]] });
  apply({ event: 'dealt', seat: 1, card: '7c', up: false, street: 'seventh' });
  // The 7th-street cards are announced before the declaration begins.
  assert.deepEqual(apply({ event: 'declaration_started', order: [1, 2, 3] }), ['7th street: Ann [7♣]', 'Declaration: Ann, Bob, Cat']);
  assert.equal(view.phase, 'declare');
  const seat = (n) => view.seats.find((s) => s.seat === n);
  assert.equal(app.seatDeclaration(seat(1)), null, 'nobody has declared yet');
  // Ann is the viewer: her own choice at once; Bob's is only "declared".
  assert.deepEqual(apply({ event: 'declared', seat: 1, declaration: 'low' }), ['Ann declares low']);
  assert.deepEqual(apply({ event: 'declared', seat: 2, declaration: null }), ['Bob has declared']);
  assert.deepEqual(app.seatDeclaration(seat(1)), { declared: true, declaration: 'low' });
  assert.deepEqual(app.seatDeclaration(seat(2)), { declared: true, declaration: null });
  assert.equal(app.declarationTag(app.seatDeclaration(seat(1))), 'declared low');
  assert.equal(app.declarationTag(app.seatDeclaration(seat(2))), 'declared');
  assert.equal(app.declarationTag(null), '');
  apply({ event: 'declared', seat: 3, declaration: null });
  assert.deepEqual(apply({ event: 'declarations_revealed', declarations: [[1, 'low'], [2, 'both'], [3, 'high']] }), ['Declarations: Ann low, Bob both, Cat high']);
  assert.equal(app.lineClass({ event: 'declarations_revealed' }), 'showdown');
  assert.deepEqual([1, 2, 3].map((n) => app.seatDeclaration(seat(n)).declaration), ['low', 'both', 'high']);
  // A snapshot's seat view: `declared` and (when visible) `declaration`.
  assert.deepEqual(app.seatDeclaration({ declared: true }), { declared: true, declaration: null });
  assert.deepEqual(app.seatDeclaration({ declared: true, declaration: 'both' }), { declared: true, declaration: 'both' });
  app.setLanguage('it');
  assert.equal(app.declarationTag({ declared: true, declaration: 'both' }), 'dichiara entrambi');
  assert.equal(app.describeEvent({ event: 'declared', seat: 2, declaration: null }, ctx, names)[0](), 'Bob ha dichiarato');
  app.setLanguage('hu');
  assert.equal(app.describeEvent({ event: 'declarations_revealed', declarations: [[1, 'high']] }, ctx, names)[0](), 'Bemondások: Ann felső');
  app.setLanguage('en');
  // A new hand forgets the declarations.
  apply({ event: 'hand_started', seats: [[1, 1000], [2, 1000]] });
  assert.equal(app.seatDeclaration(seat(1)), null);
});

test('the declaration\'s buttons and keys: H, L, B; never a pre-action box', () => {
  const legal = ['high', 'low', 'both'].map((declaration) => ({ kind: 'declare', declaration }));
  assert.deepEqual(app.keyedAction('h', legal), legal[0]);
  assert.deepEqual(app.keyedAction('L', legal), legal[1]);
  assert.deepEqual(app.keyedAction('b', legal), legal[2]);
  assert.equal(app.keyedAction('c', legal), null);
  assert.deepEqual(legal.map((a) => app.SHORTCUT[app.keyName(a)]), ['H', 'L', 'B']);
  // B still bets while betting; C checks; H and L do nothing then.
  const betting = [{ kind: 'check' }, { kind: 'bet', to: 200 }];
  assert.deepEqual(app.keyedAction('b', betting), betting[1]);
  assert.deepEqual(app.keyedAction('c', betting), betting[0]);
  assert.equal(app.keyedAction('h', betting), null);
  for (const pre of ['check_fold', 'check', 'call_any', 'bring_in']) assert.equal(app.preActionChoice(pre, legal), null);
  for (const code of Object.keys(app.LANGS)) {
    for (const key of ['act_declare_high', 'act_declare_low', 'act_declare_both', 'declare_prompt', 'declared', 'declared_as', 'log_declaration', 'log_declared', 'log_declares', 'log_declarations']) {
      assert.ok(app.DICTS[code][key], `${code} lacks ${key}`);
    }
  }
});

test('two sizes of one wager get two keys: B the smaller, P the larger; page keys are no action keys', () => {
  // The open pair on 4th street: a small and a big bet (in either order in the legal list).
  const pair = [{ kind: 'check' }, { kind: 'bet', to: 400 }, { kind: 'bet', to: 200 }];
  assert.deepEqual(app.keyedAction('b', pair), pair[2]);
  assert.deepEqual(app.keyedAction('P', pair), pair[1]);
  assert.deepEqual(pair.map((a) => app.shortcutFor(a, pair)), ['C', 'P', 'B']);
  // One size: B acts, P does nothing.
  const one = [{ kind: 'fold' }, { kind: 'call' }, { kind: 'raise', to: 80 }];
  assert.deepEqual(app.keyedAction('b', one), one[2]);
  assert.equal(app.keyedAction('p', one), null);
  assert.deepEqual(one.map((a) => app.shortcutFor(a, one)), ['F', 'C', 'B']);
  // A big-bet prompt lists its range's two ends: min and max (the pot at pot limit).
  const range = [{ kind: 'fold' }, { kind: 'call' }, { kind: 'raise', to: 40 }, { kind: 'raise', to: 130 }];
  assert.equal(app.keyedAction('b', range).to, 40);
  assert.equal(app.keyedAction('p', range).to, 130);
  // V, O and T (LAST HAND, sit out, the tournament) never act.
  for (const key of Object.keys(app.PAGE_KEYS)) {
    assert.equal(app.KEYS[key], undefined, `${key} is an action key too`);
    assert.equal(app.keyedAction(key, [...pair, ...range, { kind: 'bring_in' }, { kind: 'show' }]), null);
  }
});

test('chicago: the spade half is labelled and its card named, in every language', () => {
  app.setLanguage('en');
  const names = app.namer({ 1: 'Ann', 2: 'Bob' });
  const spade = { event: 'award', pot: 0, half: 'spade', seat: 2, amount: 180, hand: 'Spade in the hole, King' };
  const line = app.awardLine(spade, names);
  assert.equal(line(), 'Bob wins $1.80 with Spade in the hole, King (spade half)');
  const high = app.awardLine({ event: 'award', pot: 1, half: 'high', seat: 1, amount: 200, hand: 'Pair of Aces' }, names);
  assert.equal(high(), 'Ann wins $2 with Pair of Aces (high half, side pot 1)');
  app.setLanguage('it');
  assert.equal(nbsp(line()), 'Bob vince 1,80 $ con Picca coperta, Re (metà della picca)');
  app.setLanguage('hu');
  assert.equal(nbsp(line()), 'Bob nyer: 1,80 $, ezzel: Lefordított pikk, Király (pikk fél)');
  assert.equal(app.translateHand('HI: Pair of Aces; SPADE: Spade in the hole, Ten'), 'FELSŐ: Egy pár, Ászok; PIKK: Lefordított pikk, Tízes');
  app.setLanguage('en');
  assert.equal(app.translateHand('Spade in the hole, Two'), 'Spade in the hole, Two');
});

test('the declare game is a hi/lo game: "no low" when there is none', () => {
  app.setLanguage('en');
  const s = { high: { category: 'one_pair', ranks: 'AKQJ' }, low: null };
  assert.equal(app.strengthName(s, 'stud8_declare'), 'Pair of Aces; no low');
  assert.equal(app.strengthName(s, 'chicago'), 'Pair of Aces');
  assert.ok(app.isHiLo('stud8') && app.isHiLo('stud8_declare') && !app.isHiLo('razz') && !app.isHiLo('london'));
});

test('the declare game\'s awards name the hand declared for', () => {
  app.setLanguage('en');
  const names = app.namer({ 1: 'Ann', 2: 'Bob' });
  const code = { high: { category: 'high_card', ranks: 'K9765' }, low: { category: 'high_card', ranks: '76532' } };
  const whole = { event: 'award', pot: 0, half: 'whole', seat: 2, amount: 40, hand: 'High card, King', code };
  // Bob declared high and took the whole pot: his high hand, not his low.
  assert.equal(app.awardLine(whole, names, 'high')(), 'Bob wins $0.40 with High card, King');
  assert.equal(app.awardLine(whole, names, 'low')(), 'Bob wins $0.40 with 7-6-5-3-2');
  assert.equal(app.awardLine(whole, names, 'both')(), 'Bob wins $0.40 with HI: High card, King; LO: 7-6-5-3-2');
  assert.equal(app.awardLine(whole, names)(), 'Bob wins $0.40 with HI: High card, King; LO: 7-6-5-3-2');
  // Declared low without a low: the pot came to him as the last one in it; the hand as it is.
  assert.deepEqual(app.declaredCode({ high: code.high, low: null }, 'low'), { high: code.high, low: null });
  // The log remembers the reveal until the next hand.
  const ctx = { deals: [] };
  const say = (ev) => app.describeEvent(ev, ctx, names).map((f) => f());
  say({ event: 'hand_started', seats: [[1, 1000], [2, 1000]] });
  say({ event: 'declarations_revealed', declarations: [[1, 'low'], [2, 'high']] });
  assert.deepEqual(say(whole), ['Bob wins $0.40 with High card, King']);
  say({ event: 'hand_started', seats: [[1, 1000], [2, 1000]] });
  assert.deepEqual(say(whole), ['Bob wins $0.40 with HI: High card, King; LO: 7-6-5-3-2']);
});

test('an error answering no request: a table\'s notice (table_id) is about that table, a forbidden without one about the session', () => {
  const table = '0b8f4a52-3c55-4d2e-9a8e-2f9d8b1c7e10';
  const removed = { type: 'error', request_id: null, code: 'forbidden', message: 'an operator removed you from this table', table_id: table };
  assert.equal(app.errorScope(removed), 'table');
  assert.equal(app.errorScope({ ...removed, message: "the table's access changed: join again" }), 'table');
  assert.equal(app.errorScope({ ...removed, code: 'unknown_table' }), 'table', 'any code with a table_id: that table only');
  // Without table_id: the session (a banned account, a token refused), as before.
  assert.equal(app.errorScope({ type: 'error', request_id: null, code: 'forbidden', message: 'this account is banned from the server' }), 'session');
  assert.equal(app.errorScope({ type: 'error', request_id: null, code: 'forbidden', message: 'x', table_id: null }), 'session');
  assert.equal(app.errorScope({ type: 'error', request_id: null, code: 'forbidden', message: 'x', table_id: '' }), 'session');
  assert.equal(app.errorScope({ type: 'error', request_id: null, code: 'not_authenticated', message: 'x' }), 'session');
  assert.equal(app.errorScope({ code: 'unavailable' }, false), 'retry', 'the store is behind before the welcome: hello again');
  assert.equal(app.errorScope({ code: 'unavailable' }, true), 'other');
  assert.equal(app.errorScope({ code: 'rate_limited', unread: true }), 'rate_limited');
  assert.equal(app.errorScope({ code: 'malformed' }), 'other');
  assert.equal(app.errorScope(null), 'other');
});

test('a table\'s notice in words, in every language; the server\'s words when unknown', () => {
  const removed = { code: 'forbidden', message: 'an operator removed you from this table', table_id: 't' };
  const access = { code: 'forbidden', message: "the table's access changed: join again", table_id: 't' };
  for (const code of Object.keys(app.LANGS)) {
    app.setLanguage(code);
    for (const key of ['tn_removed', 'tn_removed_at', 'tn_access', 'tn_access_at']) {
      assert.ok(app.DICTS[code][key], `${code} lacks ${key}`);
      if (code !== 'en') assert.notEqual(app.DICTS[code][key], app.EN[key], `${code}: ${key} untranslated`);
    }
    const said = [app.tableNoticeText(removed), app.tableNoticeText(access), app.tableNoticeText(removed, 'Kick Stud'), app.tableNoticeText(access, 'Kick Stud')];
    assert.equal(new Set(said).size, 4, `${code}: each its own words: ${said}`);
    assert.ok(said[2].includes('Kick Stud') && said[3].includes('Kick Stud'), `${code}: the table named`);
    for (const text of said) assert.ok(!text.includes('{'), `${code}: a placeholder left in ${text}`);
  }
  app.setLanguage('en');
  assert.equal(app.tableNoticeText(removed), 'An operator removed you from this table.');
  assert.equal(app.tableNoticeText(removed, 'Kick Stud'), 'An operator removed you from Kick Stud.');
  assert.equal(app.tableNoticeText(access, 'Kick Razz'), 'The access to Kick Razz changed: you are no longer watching it.');
  assert.equal(app.tableNoticeKey('An operator removed you from this table.'), 'tn_removed', 'case and a full stop do not matter');
  assert.equal(app.tableNoticeKey('The table’s access changed: join again'), 'tn_access');
  assert.equal(app.tableNoticeText({ code: 'forbidden', message: 'a reason from a newer server', table_id: 't' }, 'Kick Stud'), 'a reason from a newer server', 'an unknown reason as sent');
  assert.equal(app.tableNoticeText({ code: 'forbidden', message: '', table_id: 't' }), app.errorText({ code: 'forbidden' }), 'no message: the code\'s words');
  app.setLanguage('it');
  assert.equal(app.tableNoticeText(removed, 'Kick Stud'), 'Un operatore ti ha rimosso dal tavolo Kick Stud.');
  app.setLanguage('en');
  // The server's own words (crates/table: the table's notices) are the ones known here.
  const source = readFileSync(new URL('../../crates/table/src/core/seats.rs', import.meta.url), 'utf8');
  const sent = [...source.matchAll(/Self::notice\([^"]*ErrorCode::Forbidden,\s*"([^"]+)"/g)].map((x) => x[1]);
  assert.ok(sent.length >= 2, `the table's notices found in seats.rs: ${sent}`);
  for (const message of sent) assert.ok(app.tableNoticeKey(message), `the server's notice "${message}" has no words in web/i18n.js TABLE_NOTICE`);
});

// ---- the waiting list -----------------------------------------------------------------------

test('the waiting list at a table: who sees it, who may join, sit, or is offered a seat', () => {
  const seat = (n) => ({ seat: n, player_id: `P${n}`, name: `N${n}`, stack: 100 });
  const full = { seats: [seat(1), seat(2)], your_seat: null, waiting: 0 };
  // A full table, nobody waiting: the control shows to a viewer, who may join; no free seat.
  assert.deepEqual(app.waitlistView(full, 2), { show: true, waiting: 0, on: false, position: null, offerMs: null, full: true, reserved: false, canJoin: true, canSit: false });
  // Seated there, or a tournament's table: no control.
  assert.equal(app.waitlistView({ ...full, your_seat: 1 }, 2).show, false);
  assert.equal(app.waitlistView({ ...full, your_seat: 1 }, 2).canJoin, false);
  assert.equal(app.waitlistView(full, 2, true).show, false);
  assert.equal(app.waitlistView(full, 2, true).canJoin, false);
  assert.equal(app.waitlistView(null, 2).show, false);
  // A free seat, nobody waiting: no control, Take a seat.
  const open = { seats: [seat(1)], your_seat: null, waiting: 0 };
  assert.equal(app.waitlistView(open, 2).show, false);
  assert.equal(app.waitlistView(open, 2).canSit, true);
  assert.equal(app.waitlistView(open, 2).canJoin, false);
  // We wait, second in line: the control, our place, no join (leave instead), no seat.
  const second = { ...full, waiting: 2, wait: { position: 2 } };
  assert.deepEqual(app.waitlistView(second, 2), { show: true, waiting: 2, on: true, position: 2, offerMs: null, full: true, reserved: false, canJoin: false, canSit: false });
  // A seat comes free and is offered to the first in line: reserved for them (no Sit for us,
  // the server would refuse it); we are not first, so we may not sit either.
  const freed = { seats: [seat(1)], your_seat: null, waiting: 2, wait: { position: 2 } };
  assert.equal(app.waitlistView(freed, 2).reserved, true);
  assert.equal(app.waitlistView(freed, 2).canSit, false);
  // Another viewer, not on the list: reserved, may join.
  const other = { seats: [seat(1)], your_seat: null, waiting: 1 };
  assert.equal(app.waitlistView(other, 2).reserved, true);
  assert.equal(app.waitlistView(other, 2).canJoin, true);
  assert.equal(app.waitlistView(other, 2).show, true);
  // Two free seats, one waiter: one free seat is anybody's.
  assert.equal(app.waitlistView({ seats: [], your_seat: null, waiting: 1 }, 2).reserved, false);
  assert.equal(app.waitlistView({ seats: [], your_seat: null, waiting: 1 }, 2).canSit, true);
  // The seat offered to us: its time left; we may sit (any free seat).
  const mine = { seats: [seat(1)], your_seat: null, waiting: 1, wait: { position: 1, offer_ms: 29500 } };
  assert.deepEqual(app.waitlistView(mine, 2), { show: true, waiting: 1, on: true, position: 1, offerMs: 29500, full: false, reserved: false, canJoin: false, canSit: true });
  // An offer_ms of 0 is still an offer (null is none).
  assert.equal(app.waitlistView({ ...mine, wait: { position: 1, offer_ms: 0 } }, 2).offerMs, 0);
  assert.equal(app.waitlistView({ ...mine, wait: { position: 1, offer_ms: null } }, 2).offerMs, null);
  // A snapshot from a server without the list: as nobody waiting.
  assert.equal(app.waitlistView({ seats: [seat(1), seat(2)], your_seat: null }, 2).waiting, 0);
  assert.equal(app.seatsReserved(0, 3), false);
  assert.equal(app.seatsReserved(1, 1), true);
  assert.equal(app.seatsReserved(1, 1, true), false);
  assert.equal(app.seatsReserved(2, 1), false);
});

test('the waiting list in the lobby: Join waiting list at a full table or one whose seats are offered', () => {
  assert.deepEqual(app.lobbyWaitlist({ seats: 2, seats_taken: 2 }), { join: true, waiting: 0 });
  assert.deepEqual(app.lobbyWaitlist({ seats: 2, seats_taken: 2, waiting: 3 }), { join: true, waiting: 3 });
  assert.deepEqual(app.lobbyWaitlist({ seats: 2, seats_taken: 1, waiting: 1 }), { join: true, waiting: 1 });
  assert.deepEqual(app.lobbyWaitlist({ seats: 2, seats_taken: 1, waiting: 0 }), { join: false, waiting: 0 });
  assert.deepEqual(app.lobbyWaitlist({ seats: 6, seats_taken: 3, waiting: 2 }), { join: false, waiting: 2 });
  // No seat count (an older server, a private table's summary): 8 seats.
  assert.equal(app.lobbyWaitlist({ seats_taken: 8 }).join, true);
  assert.equal(app.lobbyWaitlist({ seats_taken: 7 }).join, false);
});

test('the waiting list\'s answers: the ack read, a refusal in words in every language', () => {
  assert.deepEqual(app.waitlistAck('on the waiting list: position 3'), { on: true, position: 3 });
  assert.deepEqual(app.waitlistAck('On the waiting list: position 12.'), { on: true, position: 12 });
  assert.deepEqual(app.waitlistAck('on the waiting list'), { on: true, position: null });
  assert.deepEqual(app.waitlistAck('off the waiting list'), { on: false, position: null });
  assert.deepEqual(app.waitlistAck('not on the waiting list'), { on: false, position: null });
  assert.equal(app.waitlistAck('seated at 2'), null);
  assert.equal(app.waitlistAck(undefined), null);
  for (const code of Object.keys(app.LANGS)) {
    app.setLanguage(code);
    for (const err of ['table_full', 'already_seated', 'forbidden', 'not_now', 'not_seated']) {
      const text = app.waitlistErrorText({ code: err, message: 'x' });
      assert.ok(text && text !== 'x' && !text.startsWith('err_'), `${code}: ${err} has no words`);
      assert.notEqual(text, app.errorText({ code: err, message: 'x' }), `${code}: ${err} said as at a table`);
    }
    // Any other code as any error.
    assert.equal(app.waitlistErrorText({ code: 'rate_limited', message: 'x' }), app.errorText({ code: 'rate_limited', message: 'x' }));
    assert.ok(app.t('waitlist_position', { place: app.ordinal(2) }).includes(app.ordinal(2)));
    assert.ok(app.t('seat_offer_text', { s: 27 }).includes('27'));
    assert.ok(app.t('seat_offer_said', { table: 'Stud 1', s: 30 }).includes('Stud 1'));
  }
  app.setLanguage('en');
  assert.equal(app.t('seat_offer_text', { s: 27 }), 'A seat is yours: take it within 27s');
});
