// End-to-end browser test of what players of the big rooms miss (issue 31 item 12): sounds for
// a card dealt, chips, our turn and a pot won (synthesized with the Web Audio API; a switch in
// the top bar, off by default for an observer, on for a seated player, kept in localStorage,
// and never a sound while it is off); short animations of cards and chips that a browser asking
// for reduced motion never runs; and the lobby's columns the player sorts by (hands per hour, the
// average pot and the players waiting when the server sends them; `aria-sort`).
//
// Starts the real server with an operator key and creates a 2-seat Stud table through the admin
// API. Ann (English, 1280x800) and Bob (390x844, `reducedMotion: 'reduce'`) sit there and check
// and call through `harness.mjs`'s bot helpers; Olga (1366x768) watches. Every page records the
// oscillators it starts (SOUND_WATCH) and the animations and transitions that begin in it.
//
// Run from tests/browser after `cargo build -p stud-cli`:  node extras.mjs
// STUD_BIN overrides the binary, CHROMIUM the browser, STUD_WEB_DIR serves web/ from disk.
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { CHROMIUM, Failure, PLAYERS, SHOTS, SOUND_WATCH, abort, check, checkAxe, checkConsole, clickAction, createTable, enterLobby, frames, launchChromium, log, nextPrompt, pickButton, receivedFrame, run, runTest, sleep, soundsOf, startServer, until, watchPage } from './harness.mjs';

const OPERATOR_KEY = 'browser-extras-operator-key-0123456789';
const OVERALL_MS = 4 * 60 * 1000;
const TABLE = { name: 'Extras Stud', variant: 'stud', ante: 10, bring_in: 20, small_bet: 20, big_bet: 40, min_buy_in: 2000, max_buy_in: 10000, seats: 2 };
const START = 100000;
const eventually = (desc, fn, timeoutMs = 3000) => harness.eventually(desc, fn, timeoutMs);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-extras-'));
let ADDR = '';

// Every CSS animation and transition that starts in the page, by name.
const MOTION_WATCH = `(() => {
  const list = window.__motion = [];
  document.addEventListener('animationstart', (e) => list.push(e.animationName), true);
  document.addEventListener('transitionstart', (e) => list.push('transition:' + e.propertyName), true);
})();`;

class Player {
  constructor(name, context, page) {
    Object.assign(this, { name, lang: 'en', context, page });
    this.errors = [];
    this.prompt = null;
    this.clicked = new Set();
    this.results = []; // hand_result frames
    this.awards = []; // {seat, at}: award events
    this.seat = null;
    this.autoMuck = null; // our last snapshot's auto_muck (absent: false)
    this.mucks = []; // {at}: our seat's `mucked` events
    this.showMuck = []; // {at}: our prompts offering show or muck
    this.acks = []; // ack frames
    this.sentMucks = []; // auto_muck frames sent
    this.stop = false;
    PLAYERS.push(this);
    watchPage(this, page, (m) => {
      if (m.type === 'auto_muck') this.sentMucks.push(m);
    });
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (m.type === 'your_turn') this.prompt = m;
    if (m.type === 'your_turn' && m.legal.some((a) => a.kind === 'muck')) this.showMuck.push({ at: Date.now() });
    if (m.type === 'snapshot' && m.table.your_seat != null) {
      this.seat = m.table.your_seat;
      this.autoMuck = m.table.auto_muck ?? false;
    }
    if (m.type === 'ack') this.acks.push(m);
    if (m.type === 'event' && m.event.event === 'mucked' && m.event.seat === this.seat) this.mucks.push({ at: Date.now() });
    if (m.type === 'hand_result') this.results.push({ ...m, at: Date.now() });
    if (m.type === 'event' && m.event.event === 'award') this.awards.push({ seat: m.event.seat, at: Date.now() });
  }

  q(id) {
    return this.page.locator(`[data-testid=${id}]`);
  }

  attr(id, name) {
    return this.q(id).first().getAttribute(name);
  }
}

async function bot(p) {
  while (!p.stop) {
    if (run.aborted) return;
    const next = await nextPrompt(p);
    if (!next) {
      await sleep(50);
      continue;
    }
    p.clicked.add(next.key);
    await clickAction(p, pickButton(next.buttons, ['check', 'call', 'bring_in', 'show'])).catch((e) => {
      if (!p.stop) throw e;
    });
  }
}

const pressed = async (p) => (await p.q('sound-toggle').getAttribute('aria-pressed')) === 'true';
const motion = (p) => p.page.evaluate(() => window.__motion.slice());
const tally = (sounds) => sounds.reduce((n, s) => ({ ...n, [s.kind]: (n[s.kind] ?? 0) + 1 }), {});

/** Waits until `count` more hands have ended on `p`'s page. */
async function hands(p, count, desc, timeoutMs = 90000) {
  const target = p.results.length + count;
  await until(`${p.name}: ${count} more hand(s) ${desc}`, async () => p.results.length >= target, timeoutMs, 50);
}

// ---- the lobby's columns -----------------------------------------------------------------

// The test's own keys of each column (not the page's).
const KEYS = {
  name: (x) => x.name.toLowerCase(), variant: (x) => x.variant, stakes: (x) => x.config.big_bet, seats: (x) => x.seats_taken,
  buy_in: (x) => x.min_buy_in, hands_per_hour: (x) => Number(x.hands_per_hour) || 0, average_pot: (x) => Number(x.average_pot) || 0,
  waiting: (x) => Number(x.waiting) || 0,
};
const ACTIVITY = ['hands_per_hour', 'average_pot', 'waiting'];

function expectedOrder(rows, key, dir) {
  return rows.slice().sort((a, b) => {
    const [va, vb] = [KEYS[key](a), KEYS[key](b)];
    if (va < vb) return -dir;
    if (va > vb) return dir;
    return a.id < b.id ? -1 : 1;
  }).map((x) => x.id);
}

async function lobbyColumns(p, extrasId) {
  const page = p.page;
  const api = async () => (await (await fetch(`http://${ADDR}/api/tables`)).json());
  const rows0 = await api();
  // Which columns the server's rows call for: hands per hour always; the average pot and the
  // players waiting when the rows carry them.
  const has = (k) => rows0.some((x) => x[k] !== undefined && x[k] !== null);
  check(has('hands_per_hour'), 'GET /api/tables has no hands_per_hour');
  const want = ['name', 'variant', 'stakes', 'seats', 'hands_per_hour', ...(has('average_pot') ? ['average_pot'] : []), ...(has('waiting') ? ['waiting'] : []), 'buy_in'];
  await eventually(`${p.name}: the lobby's columns`, async () => {
    const keys = await page.locator('[data-testid=lobby-sort]').evaluateAll((bs) => bs.map((b) => b.dataset.key));
    check(keys.join() === want.join(), `the lobby's columns are ${keys.join()}, expected ${want.join()}`);
  }, 8000);
  log(`${p.name}: lobby columns ${want.join(', ')}${has('average_pot') ? '' : ' (no average_pot in GET /api/tables)'}${has('waiting') ? '' : ' (no waiting in GET /api/tables)'}`);
  const read = () => page.evaluate(() => ({
    ids: [...document.querySelectorAll('[data-testid=table-row]')].map((r) => r.dataset.tableId),
    sorts: Object.fromEntries([...document.querySelectorAll('#lobby-head th')].filter((th) => th.querySelector('[data-testid=lobby-sort]')).map((th) => [th.querySelector('[data-testid=lobby-sort]').dataset.key, th.getAttribute('aria-sort')])),
    cells: Object.fromEntries(['hands-per-hour', 'average-pot', 'waiting'].map((k) => [k, Object.fromEntries([...document.querySelectorAll(`[data-testid=table-row-${k}]`)].map((c) => [c.closest('tr').dataset.tableId, { value: c.dataset.value, text: c.textContent }]))])),
  }));
  // The order it has now (the default: by name, ascending).
  const now = Object.entries((await read()).sorts).find(([, v]) => v !== 'none');
  let order = now ? { key: now[0], dir: now[1] === 'ascending' ? 1 : -1 } : null;
  for (const key of want) {
    // A first click on a column sorts busiest first for the activity columns, else ascending;
    // a click on the column sorted by goes the other way.
    const first = order?.key === key ? -order.dir : ACTIVITY.includes(key) ? -1 : 1;
    for (const dir of [first, -first]) {
      order = { key, dir };
      await page.locator(`[data-testid=lobby-sort][data-key=${key}]`).click();
      await eventually(`${p.name}: the lobby sorted by ${key}, ${dir > 0 ? 'ascending' : 'descending'}`, async () => {
        const rows = await api();
        const r = await read();
        check(r.sorts[key] === (dir > 0 ? 'ascending' : 'descending'), `${key}'s header says aria-sort=${r.sorts[key]}`);
        for (const [k, v] of Object.entries(r.sorts)) if (k !== key) check(v === 'none', `${k}'s header says aria-sort=${v} while sorting by ${key}`);
        // Hands per hour move with the clock (the lobby fetches the rows every 5 s): an activity
        // column's order is checked against the figures on screen, the others against the API.
        const shown = rows.map((x) => ({ ...x, ...Object.fromEntries(ACTIVITY.map((k) => [k, Number(r.cells[k.replaceAll('_', '-')]?.[x.id]?.value) || 0])) }));
        const expected = expectedOrder(ACTIVITY.includes(key) ? shown : rows, key, dir);
        check(r.ids.join() === expected.join(), `rows by ${key} (${dir}): ${r.ids.map((id) => rows.find((x) => x.id === id)?.name).join(', ')}; expected ${expected.map((id) => rows.find((x) => x.id === id)?.name).join(', ')}`);
        // The figures shown are the server's (hands per hour within the drift of 5 s).
        for (const x of rows) {
          const hph = Number(r.cells['hands-per-hour'][x.id]?.value);
          check(Math.abs(hph - x.hands_per_hour) <= Math.max(2, 0.15 * x.hands_per_hour), `${x.name}: hands per hour shown ${JSON.stringify(r.cells['hands-per-hour'][x.id])}, the API's ${x.hands_per_hour}`);
          if (has('average_pot')) check(r.cells['average-pot'][x.id]?.value === String(x.average_pot ?? ''), `${x.name}: average pot shown ${JSON.stringify(r.cells['average-pot'][x.id])}, the API's ${x.average_pot}`);
          if (has('waiting')) check(r.cells.waiting[x.id]?.value === String(x.waiting ?? ''), `${x.name}: waiting shown ${JSON.stringify(r.cells.waiting[x.id])}`);
        }
      }, 12000);
    }
  }
  const rows = await api();
  const extras = rows.find((x) => x.id === extrasId);
  check(extras.hands_per_hour > 0, `the played table has ${extras.hands_per_hour} hands per hour`);
  if (has('average_pot')) check(extras.average_pot > 0, `the played table's average pot is ${extras.average_pot}`);
  // The average pot reads as money.
  if (has('average_pot')) {
    const shown = (await read()).cells['average-pot'][extrasId].text;
    check(/^\$[\d,.]+$/.test(shown), `the average pot reads ${JSON.stringify(shown)}, expected dollars`);
  }
  await checkAxe(p, 'in the lobby sorted by its last column');
  log(`${p.name}: the lobby sorts by every column both ways (aria-sort follows; the activity columns busiest first)`);
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  ADDR = await startServer(tmp, { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '1000', STUD_OPERATOR_KEY: OPERATOR_KEY });
  log(`server listening on http://${ADDR}`);
  const { res, body } = await createTable(ADDR, OPERATOR_KEY, TABLE);
  check(res.ok && body?.id, `creating the table: ${res.status} ${JSON.stringify(body)}`);
  const tableId = body.id;
  const browser = await launchChromium();
  try {
    const players = {};
    for (const [name, width, height, reducedMotion] of [['Ann', 1280, 800, 'no-preference'], ['Bob', 390, 844, 'reduce'], ['Olga', 1366, 768, 'no-preference']]) {
      const context = await browser.newContext({ viewport: { width, height }, reducedMotion });
      await context.addInitScript(SOUND_WATCH);
      await context.addInitScript(MOTION_WATCH);
      players[name] = new Player(name, context, await context.newPage());
      await enterLobby(players[name], `http://${ADDR}/`, START);
    }
    const { Ann: ann, Bob: bob, Olga: olga } = players;
    const row = (p) => p.page.locator(`[data-testid=table-row][data-table-id="${tableId}"]`);

    // 1. Olga watches: her sounds are off by default. Ann and Bob sit: theirs are on.
    await row(olga).locator('[data-testid=watch]').click();
    await olga.q('table').waitFor({ state: 'visible', timeout: 10000 });
    check(!(await pressed(olga)), 'an observer\'s sound switch is on by default');
    for (const p of [ann, bob]) {
      await row(p).locator('[data-testid=sit]').click();
      await until(`${p.name}: seated`, async () => (await p.page.locator('[data-testid=seat][data-me=true]').count()) === 1, 10000);
      check(await pressed(p), `${p.name}: a seated player's sound switch is off by default`);
    }
    // Bob turns his off (a hand may have begun as he sat: what it played till then is his).
    await bob.q('sound-toggle').click();
    const bobOff = Date.now();
    check(!(await pressed(bob)), 'Bob\'s sound switch does not turn off');
    check(await bob.page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches), 'Bob\'s page does not prefer reduced motion');
    log('sound switches: Olga (watching) off by default, Ann and Bob (seated) on; Bob turns his off');

    // 2. They play until Ann has won a pot and three hands have ended.
    const bots = [ann, bob].map((p) => bot(p).catch((e) => abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e)));
    await until('three hands, one of them won by Ann', async () => ann.results.length >= 3 && ann.awards.some((a) => a.seat === ann.seat), 120000, 100);
    await sleep(300);
    const annSounds = await soundsOf(ann);
    const n = tally(annSounds);
    log(`Ann's sounds: ${JSON.stringify(n)}`);
    for (const kind of ['deal', 'chips', 'turn', 'win']) check(n[kind] > 0, `Ann (sounds on) played no ${kind} sound in ${ann.results.length} hands: ${JSON.stringify(n)}`);
    check(n.deal >= ann.results.length, `Ann: ${n.deal} deal sounds in ${ann.results.length} hands`);
    // A win sound only when a pot went to her, and one each time.
    const won = ann.awards.filter((a) => a.seat === ann.seat);
    for (const s of annSounds.filter((x) => x.kind === 'win')) check(won.some((a) => Math.abs(a.at - s.at) < 1500), `a win sound at ${s.at} with no award to Ann near it`);
    check(n.win <= won.length, `${n.win} win sounds for ${won.length} awards to Ann`);
    const olgaSounds = await olga.page.evaluate(() => window.__sounds.length);
    check(olgaSounds === 0, `Olga (watching, sound off by default) started ${olgaSounds} oscillators`);
    const bobSounds = (await bob.page.evaluate(() => window.__sounds)).filter((x) => x.at >= bobOff);
    check(bobSounds.length === 0, `Bob (sound off) started ${bobSounds.length} oscillators since he switched it off: ${JSON.stringify(tally(await soundsOf(bob)))}`);
    log('sounds: Ann heard deals, chips, her turns and her win; Bob (switched off) and Olga (watching) heard nothing');

    // 3. Motion: Ann's page animates cards dealt and chips to the pot and to a winner; Bob's
    // (reduced motion) animates nothing at all.
    const annMotion = await motion(ann);
    for (const name of ['deal', 'to-pot', 'to-winner']) check(annMotion.includes(name), `no ${name} animation on Ann's page (${[...new Set(annMotion)].join(', ')})`);
    const bobMotion = await motion(bob);
    check(bobMotion.length === 0, `Bob's page prefers reduced motion, yet ${bobMotion.length} animations / transitions ran: ${[...new Set(bobMotion)].join(', ')}`);
    log(`motion: Ann's page ran ${[...new Set(annMotion)].join(', ')}; Bob's (reduced motion) none`);

    // 4. Olga turns her sounds on: cards and chips, but no turn (she has none) and no win.
    await olga.q('sound-toggle').click();
    check(await pressed(olga), 'Olga\'s sound switch does not turn on');
    await hands(olga, 2, 'with Olga\'s sounds on');
    const o = tally(await soundsOf(olga));
    check(o.deal > 0 && o.chips > 0 && !o.turn && !o.win, `Olga (watching, sounds on): ${JSON.stringify(o)}`);
    log(`Olga, sounds on: ${JSON.stringify(o)}`);

    // 5. Bob's choice lasts: after a reload his switch is still off and a hand makes no sound.
    await bob.page.reload();
    await until('Bob: the table after a reload', async () => (await bob.page.locator('[data-testid=seat][data-me=true]').count()) === 1, 15000);
    check(!(await pressed(bob)), 'Bob\'s sound switch is on again after a reload');
    await hands(bob, 1, 'after Bob\'s reload');
    const b = await soundsOf(bob);
    check(b.length === 0, `Bob (sound off, reloaded) played ${b.length} sounds`);
    check((await motion(bob)).length === 0, 'Bob\'s page ran an animation after the reload');
    log('Bob: the switch stays off after a reload; still no sound, no motion');
    await checkAxe(ann, 'at the table with the sound switch');

    // 6. Auto-muck: Bob ticks the box at the table; from then on a losing hand of his at a
    // showdown is mucked by the table without a prompt (Ann, without it, is still asked).
    check(await bob.q('auto-muck').isVisible() && !(await bob.q('auto-muck').isChecked()), 'Bob (seated) has no unticked auto-muck box');
    check(!(await olga.q('auto-muck').isVisible()), 'Olga (watching) has an auto-muck box');
    await bob.q('auto-muck').check();
    const ticked = Date.now();
    await until('Bob: auto-muck on, answered', async () => bob.sentMucks.length === 1 && bob.acks.some((a) => a.request_id === bob.sentMucks[0].request_id), 5000, 30);
    check(bob.sentMucks[0].on === true && bob.sentMucks[0].table_id === tableId, `the auto_muck frame: ${JSON.stringify(bob.sentMucks[0])}`);
    log(`Bob: auto_muck on, answered ${JSON.stringify(bob.acks.find((a) => a.request_id === bob.sentMucks[0].request_id).detail)}`);
    await until('Bob: a losing hand mucked at a showdown without a prompt', async () => bob.mucks.some((x) => x.at > ticked), 150000, 100);
    check(!bob.showMuck.some((x) => x.at > ticked), 'Bob was offered show or muck with auto-muck on');
    check(bob.autoMuck === true, 'Bob\'s snapshot does not say auto_muck: true');
    check(await bob.q('auto-muck').isChecked(), 'Bob\'s auto-muck box is no longer ticked');
    // After a reload the box is ticked from the snapshot alone.
    await bob.page.reload();
    await until('Bob: the table after a reload, auto-muck ticked', async () => (await bob.page.locator('[data-testid=seat][data-me=true]').count()) === 1 && bob.q('auto-muck').isChecked(), 15000);
    await bob.q('auto-muck').uncheck();
    await until('Bob: auto-muck off, answered', async () => bob.sentMucks.length === 2 && bob.acks.some((a) => a.request_id === bob.sentMucks[1].request_id), 5000, 30);
    check(bob.sentMucks[1].on === false, `the second auto_muck frame: ${JSON.stringify(bob.sentMucks[1])}`);
    await hands(bob, 1, 'after auto-muck is off');
    check(bob.autoMuck === false && !(await bob.q('auto-muck').isChecked()), 'auto-muck still on after Bob unticked it');
    log('auto-muck: Bob\'s losing hand mucked at a showdown with no prompt; the box follows the snapshot (after a reload too) and turns it off');

    for (const p of [ann, bob]) p.stop = true;
    await Promise.all(bots);
    if (run.aborted) throw run.aborted;

    // 6. The lobby's columns, sorted by each (Olga goes back to the lobby, still watching).
    await olga.q('to-lobby').click();
    await until('Olga: the lobby', async () => olga.q('lobby').isVisible(), 5000);
    await lobbyColumns(olga, tableId);
    await olga.page.screenshot({ path: path.join(SHOTS, 'extras-lobby.png') });
    checkConsole();
    log(`${frames.checked} WebSocket frames matched proto/schema.json`);
  } catch (e) {
    for (const [i, ctx] of browser.contexts().entries()) {
      for (const page of ctx.pages()) {
        const f = path.join(SHOTS, `extras-failure-${i + 1}.png`);
        await page.screenshot({ path: f, fullPage: true }).then(() => console.log(`failure screenshot: ${path.relative(process.cwd(), f)}`), () => {});
      }
    }
    throw e;
  } finally {
    await browser.close().catch(() => {});
  }
}

await runTest('browser extras test (sounds, motion, lobby columns)', main, { overallMs: OVERALL_MS, tmp });
