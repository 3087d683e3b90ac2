// End-to-end browser test of the showdown's cards (issue 31 item 2): every shown hand marks the
// five cards that made it on its seat (`card`s with `data-hand`: high, low, "high low", or empty
// for a card in neither five), both fives in hi/lo, by a shape as well as a colour (the high
// five ringed, the low five with a bar, the rest dimmed), and says it in each card's label; the
// result strip shows, for each award, the five cards of the half it was won with, with their
// suits.
//
// The server names a shown hand (`hand_code`: the category and the ranks) but not which five
// cards made it: the page finds them (model.js playedCards) and marks them only when they make
// the very hand the server named. This test checks each marked five with its own small rater
// against the `hand_code` of the frames: the server is the reference.
//
// LAST HAND (the report and its replayer) marks the same fives with the same look, shows each
// award's five with suits (`last-hand-award`) and writes each hand as the table wrote it (one
// way of writing a low: "HI: ...; LO: 8-6-4-2-A" in the table's words, not the server's
// English name); so does the table after a reload at a showdown (the snapshot keeps the finished
// hand until the next one, with no `hand_code`: the page reads the server's name of each hand),
// the result strip drawn again.
//
// Starts the real server with an operator key (`STUD_SHOWDOWN_PAUSE_MS=3000`) and creates two
// tables through the admin API: Stud Hi/Lo and Razz, two seats each. Ann (1280x800, English)
// and Bob (390x844, Italian) play the Stud Hi/Lo table, Cat (1366x768, Hungarian) and Dan
// (844x390, English) the Razz table; they check and call (every hand goes to a showdown) through
// `harness.mjs`'s bot helpers, until a Hi/Lo showdown with a low and two of each table's have
// been checked on both pages. Then Ann and Cat open one of those hands in LAST HAND: its seats,
// its awards and the replayer's seats at the showdown and the end are checked as the table was
// (the frames' `hand_code`, kickers included, is the reference), with axe. Then the operator
// pauses the Hi/Lo table (its hand in play ends, no new one starts), and Bob, at its showdown,
// reloads the page: the seats, the strip and the hands' words are as before the reload.
//
// Run from tests/browser after `cargo build -p stud-cli`:  node showdown.mjs
// STUD_BIN overrides the binary, CHROMIUM the browser, STUD_WEB_DIR serves web/ from disk.
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { CHROMIUM, Failure, PLAYERS, ROOT, SHOTS, abort, check, checkAxe, checkConsole, clickAction, createTable, frames, launchChromium, log, nextPrompt, operatorApi, pickButton, receivedFrame, run, runTest, sleep, startServer, until, watchPage } from './harness.mjs';

const OPERATOR_KEY = 'browser-showdown-operator-key-0123456789';
const OVERALL_MS = 5 * 60 * 1000;
const TABLE = { ante: 10, bring_in: 20, small_bet: 20, big_bet: 40, min_buy_in: 2000, max_buy_in: 10000, seats: 2 };
const WANT = 2; // showdowns checked on each page

const eventually = (desc, fn, timeoutMs = 2500) => harness.eventually(desc, fn, timeoutMs);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-showdown-'));

// What a card is said to be in each page's language (its label's last words).
const WORDS = {
  en: { hand: 'in the hand', high: 'in the high hand', low: 'in the low hand', both: 'in the high and the low hand' },
  it: { hand: 'nella mano', high: 'nella mano alta', low: 'nella mano bassa', both: 'nella mano alta e in quella bassa' },
  hu: { hand: 'a kézben', high: 'a felső kézben', low: 'az alsó kézben', both: 'a felső és az alsó kézben' },
};

// ---------------------------------------------------------------------------------------------
// The test's own rater of five cards (not the page's): a high hand or an ace-to-five low as the
// server writes its code (`{category, ranks}`: the naming ranks, a straight by its top card).

const RV = '23456789TJQKA';
function rate5(five, low) {
  const value = (c) => (low && c[0] === 'A' ? 1 : RV.indexOf(c[0]) + 2);
  const name = (v) => (v === 1 || v === 14 ? 'A' : RV[v - 2]);
  const count = {};
  for (const c of five) count[value(c)] = (count[value(c)] ?? 0) + 1;
  const groups = Object.entries(count).map(([v, n]) => [Number(v), n]).sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const shape = groups.map(([, n]) => n).join('');
  const ranks = groups.map(([v]) => name(v)).join('');
  const byShape = { 41: 'four_of_a_kind', 32: 'full_house', 311: 'three_of_a_kind', 221: 'two_pair', 2111: 'one_pair', 11111: 'high_card' };
  if (low) return { category: byShape[shape], ranks };
  const vs = groups.map(([v]) => v);
  const flush = new Set(five.map((c) => c[1])).size === 1;
  const top = shape !== '11111' ? 0 : vs[0] - vs[4] === 4 ? vs[0] : vs.join() === '14,5,4,3,2' ? 5 : 0;
  if (top) return { category: flush ? 'straight_flush' : 'straight', ranks: name(top) };
  if (flush) return { category: 'flush', ranks };
  return { category: byShape[shape], ranks };
}
const codeText = (c) => (c ? `${c.category} ${c.ranks}` : 'none');

// ---------------------------------------------------------------------------------------------

class Player {
  constructor(name, lang, context, page) {
    Object.assign(this, { name, lang, context, page });
    this.w = WORDS[lang];
    this.errors = [];
    this.prompt = null;
    this.clicked = new Set();
    this.clicking = false;
    this.stop = false;
    this.hands = new Map(); // hand_id -> {shown: {seat: {cards, code}}, awards: [...], at, ended, words: {seat: the table's words}}
    this.started = []; // hand ids of hand_started frames, in order
    this.checked = []; // hand ids whose showdown was checked
    this.lows = 0; // showdowns checked with a low marked
    PLAYERS.push(this);
    watchPage(this, page);
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (m.type === 'your_turn') this.prompt = m;
    if (m.type === 'hand_started') this.started.push(m.hand_id);
    if (m.type === 'hand_result') this.hand(m.hand_id).ended = true;
    if (m.type !== 'event') return;
    const ev = m.event;
    if (ev.event !== 'shown' && ev.event !== 'award') return;
    const h = this.hand(m.hand_id);
    if (ev.event === 'shown') h.shown[ev.seat] = { cards: ev.cards, code: m.hand_code ?? null };
    else h.awards.push({ ...ev, code: m.hand_code ?? null });
  }

  hand(id) {
    if (!this.hands.has(id)) this.hands.set(id, { shown: {}, awards: [], at: Date.now(), ended: false, words: {} });
    return this.hands.get(id);
  }

  q(id) {
    return this.page.locator(`[data-testid=${id}]`);
  }
}

async function bot(p) {
  while (!p.stop) {
    if (run.aborted) return;
    const next = p.paused ? null : await nextPrompt(p);
    if (!next || p.paused) {
      await sleep(50);
      continue;
    }
    const choice = pickButton(next.buttons, ['check', 'call', 'bring_in', 'show']);
    p.clicked.add(next.key);
    p.clicking = true;
    await clickAction(p, choice).catch((e) => {
      if (!p.stop) throw e;
    }).finally(() => { p.clicking = false; });
  }
}

// Where a page shows a hand's seats and its awards: the table (the result strip), LAST HAND's
// report (its awards) and its replayer (no awards): each seat's testid, its hand name's, an
// award line's and the testid of what holds the lines.
const AT = {
  table: { seat: 'seat', hand: 'seat-hand', line: 'result-line', box: 'result-strip' },
  report: { seat: 'last-hand-seat', hand: 'last-hand-hand', line: 'last-hand-award', box: 'last-hand-awards' },
  replayer: { seat: 'replay-seat', hand: 'replay-hand', line: null, box: null },
};

/** The seats' cards and hand names, and the award lines, as the page shows them now (`at`: one
 *  of AT). */
function readShowdown(p, at = AT.table) {
  return p.page.evaluate((at) => {
    const card = (c) => {
      const after = getComputedStyle(c, '::after');
      return {
        card: c.dataset.card, hand: c.dataset.hand ?? null, label: c.getAttribute('aria-label'),
        outline: `${getComputedStyle(c).outlineStyle} ${parseFloat(getComputedStyle(c).outlineWidth)}`, opacity: Number(getComputedStyle(c).opacity),
        bar: after.content !== 'none' && after.content !== 'normal' && parseFloat(after.width) > 0 && parseFloat(after.height) > 0,
        suit: c.querySelector('.suit')?.checkVisibility() ? c.querySelector('.suit').textContent : '',
      };
    };
    const seats = [...document.querySelectorAll(`[data-testid=${at.seat}]:not([data-empty=true])`)].map((s) => ({
      seat: Number(s.dataset.seat), cards: [...s.querySelectorAll('[data-testid=card]')].map(card),
      hand: s.querySelector(`[data-testid=${at.hand}]`)?.textContent ?? null,
    }));
    const box = at.box ? document.querySelector(`[data-testid=${at.box}]`) : null;
    const lines = box?.checkVisibility() ? [...box.querySelectorAll(`[data-testid=${at.line}]`)].map((l) => ({
      seat: Number(l.dataset.seat), half: l.dataset.half, text: l.textContent, cards: [...l.querySelectorAll('[data-testid=card]')].map(card),
    })) : null;
    return { hand: box?.dataset.handId ?? null, seats, lines };
  }, at);
}

/** A showdown on `p`'s page (both hands shown, in `variant`) where `at` says (AT: the table,
 *  LAST HAND's report or its replayer): every shown seat marks the five of each half the
 *  server named, by shape and in words; each award line (the result strip, the report's
 *  awards) shows the award's five with suits. Each seat's hand is written as the table wrote it
 *  live (`record`: this is the table live: its words are kept, `h.words`, to compare with). */
async function checkShowdown(p, handId, variant, { at = AT.table, where = 'at the showdown', record = at === AT.table } = {}) {
  const h = p.hands.get(handId);
  const hilo = variant === 'stud8';
  let lowSeen = false;
  await eventually(`${p.name}: the marked fives ${where} of ${handId.slice(0, 8)}`, async () => {
    const r = await readShowdown(p, at);
    for (const [seat, shown] of Object.entries(h.shown)) {
      const s = r.seats.find((x) => x.seat === Number(seat));
      check(s, `no seat ${seat}`);
      check(s.cards.map((c) => c.card).join() === shown.cards.join(), `seat ${seat} shows ${s.cards.map((c) => c.card).join()}, the frame ${shown.cards.join()}`);
      check(shown.code, `the shown frame of seat ${seat} has no hand_code`);
      check(s.cards.every((c) => c.hand !== null), `seat ${seat}: a shown card without data-hand: ${JSON.stringify(s.cards.map((c) => c.hand))} (the frame: ${shown.cards.join(" ")}, ${JSON.stringify(shown.code)})`);
      for (const half of ['high', 'low']) {
        const code = shown.code[half] ?? null;
        const five = s.cards.filter((c) => (c.hand ?? '').split(' ').includes(half));
        if (!code) {
          check(five.length === 0, `seat ${seat}: ${five.length} cards marked ${half}, the server names no ${half} hand`);
          continue;
        }
        check(five.length === 5, `seat ${seat}: ${five.length} cards marked ${half} (${five.map((c) => c.card).join(' ')}), the server names ${codeText(code)}`);
        const rated = rate5(five.map((c) => c.card), half === 'low');
        check(rated.category === code.category && rated.ranks === code.ranks, `seat ${seat}: the ${half} five ${five.map((c) => c.card).join(' ')} make ${codeText(rated)}, the server names ${codeText(code)}`);
        if (half === 'low') lowSeen = true;
      }
      for (const c of s.cards) {
        const words = !c.hand ? null : !hilo ? p.w.hand : c.hand === 'high low' ? p.w.both : p.w[c.hand];
        if (words) check(c.label.endsWith(`, ${words}`), `seat ${seat}: ${c.card}'s label is ${JSON.stringify(c.label)}, expected it to end "${words}"`);
        else check(!Object.values(p.w).some((x) => c.label.endsWith(x)), `seat ${seat}: ${c.card} is in neither five but its label says ${JSON.stringify(c.label)}`);
        // By shape: a ring for the high five, a bar for the low five, the rest dimmed.
        const parts = (c.hand ?? '').split(' ');
        check(parts.includes('high') === c.outline.startsWith('solid'), `seat ${seat}: ${c.card} (data-hand "${c.hand}") has outline ${c.outline}`);
        if (parts.includes('high')) check(parseFloat(c.outline.split(' ')[1]) >= 2, `seat ${seat}: ${c.card}'s ring is ${c.outline}`);
        check(parts.includes('low') === c.bar, `seat ${seat}: ${c.card} (data-hand "${c.hand}") ${c.bar ? 'has' : 'has no'} bar`);
        check((c.hand === '') === (c.opacity < 1), `seat ${seat}: ${c.card} (data-hand "${c.hand}") has opacity ${c.opacity}`);
      }
      // One way of writing a hand (a low's "LO: 8-6-4-2-A", not the server's English "low ..."):
      // the words the table wrote live, from the frame's hand_code.
      check(s.hand, `seat ${seat} shows no hand name`);
      if (!record) check(s.hand === h.words[seat], `seat ${seat}'s hand is written ${JSON.stringify(s.hand)}; the table wrote it ${JSON.stringify(h.words[seat])}`);
    }
    if (record) for (const s of r.seats) if (h.shown[s.seat]) h.words[s.seat] = s.hand;
    // Each award won with a hand shows that half's five, with suits: the result strip (for
    // this hand), LAST HAND's awards; the replayer has no award lines.
    if (!at.line) return;
    check(r.lines && (at !== AT.table || r.hand === handId), `the ${at.box} is not up for this hand (${r.hand})`);
    for (const a of h.awards.filter((x) => x.hand)) {
      const line = r.lines.find((l) => l.seat === a.seat && l.half === a.half);
      check(line, `no result line for seat ${a.seat}'s ${a.half} award`);
      const half = a.half === 'whole' ? (variant === 'razz' ? 'low' : 'high') : a.half;
      const code = a.code?.[half];
      check(code, `the award frame (seat ${a.seat}, ${a.half}) has no ${half} hand_code: ${JSON.stringify(a.code)}`);
      check(line.cards.length === 5, `seat ${a.seat}'s ${a.half} result line shows ${line.cards.length} cards`);
      check(line.cards.every((c) => c.hand === half), `seat ${a.seat}'s ${a.half} result line's cards are data-hand ${line.cards.map((c) => c.hand).join()}`);
      check(line.cards.every((c) => c.suit && '♣♦♥♠'.includes(c.suit)), `seat ${a.seat}'s ${a.half} result line's cards show no suit: ${JSON.stringify(line.cards.map((c) => c.suit))}`);
      const rated = rate5(line.cards.map((c) => c.card), half === 'low');
      check(rated.category === code.category && rated.ranks === code.ranks, `seat ${a.seat}'s ${a.half} line shows ${line.cards.map((c) => c.card).join(' ')} (${codeText(rated)}); the award names ${codeText(code)}`);
      check(h.shown[a.seat].cards.every((c) => c) && line.cards.every((c) => h.shown[a.seat].cards.includes(c.card)), `seat ${a.seat}'s ${a.half} line shows cards it was not dealt`);
    }
  }, 2500);
  if (!record) return log(`${p.name}: ${handId.slice(0, 8)} ${where}: fives marked${at.line ? ', awards show them with suits' : ''}, hands written as the table wrote them`);
  p.checked.push(handId);
  h.low = lowSeen;
  if (lowSeen) p.lows += 1;
  const s = Object.entries(h.shown).map(([seat, x]) => `seat ${seat} ${x.cards.join(' ')} (${[x.code?.high && `HI ${codeText(x.code.high)}`, x.code?.low && `LO ${codeText(x.code.low)}`].filter(Boolean).join('; ')})`);
  log(`${p.name}: showdown ${handId.slice(0, 8)} (${variant}): ${s.join(' · ')}: fives marked, strip shows them with suits`);
}

/** LAST HAND (issue 31 item 2): `p` opens one of the showdowns checked at the table (one with a
 *  low if there was one) by its key; the report's seats and awards, then the replayer's seats at
 *  the end and at the showdown, are checked as the table was (checkShowdown), with axe. */
async function checkLastHand(p, variant) {
  const id = [...p.checked].reverse().find((x) => p.hands.get(x).low) ?? p.checked.at(-1);
  // The bot holds its clicks meanwhile: two clicks at once in one page mix their mouse events
  // (a click on Close went to an action button). Its clock runs on: a check takes a second or two.
  p.paused = true;
  await until(`${p.name}: the bot's click done`, async () => !p.clicking, 10000, 20);
  await p.q('log').focus();
  await p.page.keyboard.press('v');
  await p.q('last-hand').waitFor({ state: 'visible', timeout: 10000 });
  const row = p.page.locator(`[data-testid=last-hand-row][data-hand-id="${id}"]`);
  await until(`${p.name}: hand ${id.slice(0, 8)} in LAST HAND`, async () => (await row.count()) === 1, 15000);
  await row.click();
  await p.q('last-hand-report').waitFor({ state: 'visible', timeout: 10000 });
  await until(`${p.name}: the report of ${id.slice(0, 8)}`, async () => (await p.page.locator('[data-testid=last-hand-report] [data-testid=replayer]').count()) === 1, 10000);
  await checkShowdown(p, id, variant, { at: AT.report, where: 'in LAST HAND\'s report' });
  const replayer = p.q('replayer');
  check((await replayer.locator('[data-testid=replay-step]').getAttribute('data-label')) === 'step_end', `${p.name}: the replayer does not open at the result`);
  await checkShowdown(p, id, variant, { at: AT.replayer, where: 'in the replayer at the result' });
  await replayer.locator('[data-testid=replay-prev]').click();
  await until(`${p.name}: the replayer at the showdown`, async () => (await p.q('replay-step').getAttribute('data-label')) === 'step_showdown', 5000);
  await checkShowdown(p, id, variant, { at: AT.replayer, where: 'in the replayer at the showdown' });
  await p.page.screenshot({ path: path.join(SHOTS, `showdown-last-hand-${p.name.toLowerCase()}.png`) });
  await checkAxe(p, 'in LAST HAND with the fives marked');
  await p.q('last-hand-close').click();
  await p.q('last-hand').waitFor({ state: 'hidden', timeout: 5000 });
  p.paused = false;
}

/** A reload at a showdown (issue 31 item 2): the operator pauses `p`'s table (`tableId`): its
 *  hand in play ends, no new one starts, and the snapshot keeps the finished hand. Checked at
 *  the table live (its words kept), then `p` reloads: the same fives marked on the seats, the
 *  result strip drawn again with the awards' fives, the hands written as before. */
async function checkReload(p, variant, api, tableId) {
  const paused = await api('POST', `/api/admin/tables/${tableId}/pause`);
  check(paused.status < 300, `pausing the ${variant} table: ${paused.status} ${paused.text}`);
  // The last hand dealt ends (a showdown: everyone checks and calls), and none comes after it.
  let id = null;
  await until(`${p.name}: the ${variant} table's last hand over, no hand after it`, async () => {
    const last = p.started.at(-1);
    const h = last && p.hands.get(last);
    if (!h?.ended || Object.keys(h.shown).length < 2) return false;
    if (id !== last) {
      id = last;
      h.endedSeen = Date.now();
    }
    return Date.now() - h.endedSeen > 4000; // the showdown pause is 3 s: a hand would have started
  }, 60000, 100);
  p.paused = true;
  await until(`${p.name}: the bot's click done`, async () => !p.clicking, 10000, 20);
  await checkShowdown(p, id, variant, { where: 'at the showdown, before the reload' });
  const shownBefore = await p.page.locator('[data-testid=seat] [data-testid=card][data-hand]').count();
  await p.page.reload();
  await p.q('table').waitFor({ state: 'visible', timeout: 15000 });
  await checkShowdown(p, id, variant, { where: 'after a reload at the showdown', record: false });
  check(p.started.at(-1) === id, `${p.name}: a hand was dealt during the reload check: the table was not paused`);
  log(`${p.name}: after a reload at the showdown of ${id.slice(0, 8)} (${shownBefore} cards marked before): the same fives, the strip again, the same words`);
  await checkAxe(p, 'after a reload at a showdown');
  const resumed = await api('POST', `/api/admin/tables/${tableId}/resume`);
  check(resumed.status < 300, `resuming the ${variant} table: ${resumed.status} ${resumed.text}`);
  p.paused = false;
}

/** Follows `p`'s showdowns until WANT (and, hi/lo, one with a low) have been checked. */
async function watchShowdowns(p, variant) {
  const seen = new Set();
  const enough = () => p.checked.length >= WANT && (variant !== 'stud8' || p.lows > 0);
  await until(`${p.name}: ${WANT} ${variant} showdowns checked${variant === 'stud8' ? ', one with a low' : ''}`, async () => {
    for (const [id, h] of p.hands) {
      // Both hands shown, and the awards in (the result strip up): check this one now.
      if (seen.has(id) || Object.keys(h.shown).length < 2 || !h.awards.length) continue;
      seen.add(id);
      await sleep(150); // every award of the hand
      await checkShowdown(p, id, variant);
      if (p.checked.length === 1) await p.page.screenshot({ path: path.join(SHOTS, `showdown-${p.name.toLowerCase()}.png`) });
    }
    return enough();
  }, 150000, 50);
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  const addr = await startServer(tmp, { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '3000', STUD_OPERATOR_KEY: OPERATOR_KEY });
  log(`server listening on http://${addr}`);
  const tables = {};
  for (const [variant, name] of [['stud8', 'Hi-Lo Showdown'], ['razz', 'Razz Showdown']]) {
    const { res, body } = await createTable(addr, OPERATOR_KEY, { ...TABLE, name, variant });
    check(res.ok && body?.id, `creating the ${variant} table: ${res.status} ${JSON.stringify(body)}`);
    tables[variant] = body.id;
  }
  const browser = await launchChromium();
  try {
    const seating = [['Ann', 'en', 1280, 800, 'stud8'], ['Bob', 'it', 390, 844, 'stud8'], ['Cat', 'hu', 1366, 768, 'razz'], ['Dan', 'en', 844, 390, 'razz']];
    const players = [];
    for (const [name, lang, width, height, variant] of seating) {
      const context = await browser.newContext({ viewport: { width, height } });
      const p = new Player(name, lang, context, await context.newPage());
      p.variant = variant;
      players.push(p);
      await p.page.goto(`http://${addr}/`);
      await p.q('lobby').waitFor({ state: 'visible', timeout: 10000 });
      if (lang !== 'en') await p.q('lang').selectOption(lang);
      await p.q('name').fill(name);
      await p.q('start').click();
      const row = p.page.locator(`[data-testid=table-row][data-table-id="${tables[variant]}"]`);
      await until(`${name}: the ${variant} table in the lobby`, async () => (await row.count()) === 1, 15000);
      await row.locator('[data-testid=sit]').click();
      await p.q('table').waitFor({ state: 'visible', timeout: 10000 });
    }
    log('Ann and Bob at the Stud Hi/Lo table, Cat and Dan at the Razz table; they check and call');
    const bots = players.map((p) => bot(p).catch((e) => abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e)));
    await Promise.all(players.map((p) => watchShowdowns(p, p.variant)));
    // axe at a showdown, the fives marked (the cards' labels say so).
    const [a, b] = players;
    for (const p of [a, b]) {
      const fresh = () => [...p.hands].some(([id, h]) => !p.checked.includes(id) && Object.keys(h.shown).length === 2 && Date.now() - h.at < 2000);
      await until(`${p.name}: another showdown`, fresh, 60000, 50);
      p.paused = true;
      await until(`${p.name}: the marks on screen`, async () => (await p.page.locator('[data-testid=seat] [data-testid=card][data-hand]').count()) > 0, 10000, 30);
      await checkAxe(p, 'at a showdown with the fives marked');
      p.paused = false;
    }
    // LAST HAND: Ann's Hi/Lo hand (English), Cat's razz hand (Hungarian).
    await checkLastHand(a, 'stud8');
    await checkLastHand(players[2], 'razz');
    // A reload at the showdown: Bob (Italian, 390 px) at the paused Hi/Lo table.
    await checkReload(b, 'stud8', operatorApi(() => addr, OPERATOR_KEY), tables.stud8);
    for (const p of players) p.stop = true;
    await Promise.all(bots);
    if (run.aborted) throw run.aborted;
    checkConsole();
    log(`${frames.checked} WebSocket frames matched proto/schema.json; showdowns checked: ${players.map((p) => `${p.name} ${p.checked.length} (${p.lows} with a low)`).join(', ')}`);
  } catch (e) {
    for (const [i, ctx] of browser.contexts().entries()) {
      for (const page of ctx.pages()) {
        const f = path.join(SHOTS, `showdown-failure-${i + 1}.png`);
        await page.screenshot({ path: f, fullPage: true }).then(() => console.log(`failure screenshot: ${path.relative(process.cwd(), f)}`), () => {});
      }
    }
    throw e;
  } finally {
    await browser.close().catch(() => {});
  }
}

await runTest('browser showdown test', main, { overallMs: OVERALL_MS, tmp });
