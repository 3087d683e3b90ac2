// End-to-end browser test of a table's waiting list (issue 31 item 12; proto/PROTOCOL.md section
// 2): a full table's lobby row offers "Join waiting list" in place of Sit, which watches the
// table and sends `waitlist` on; the table's head shows the list (how many wait, our place,
// join / leave); the lobby's Waiting column counts it. When a seat comes free it is offered to
// the first in line: a strip under the top bar on every view (never over the action bar), said
// once to a screen reader, with its countdown, a buy-in box like the table's and Take the seat;
// while it is offered, the lobby of anybody else shows Join waiting list, not Sit.
//
// Starts the real server with an operator key and creates a 2-seat table through the admin API:
// "Wait Stud". Ann (English, 1280x800) and Bob (Hungarian, 390x844) sit there and play (check,
// call) through `harness.mjs`'s bot helpers. Cat (Italian, 1280x800) joins its waiting list from
// the lobby, leaves and joins it again at the table, and goes back to the lobby (its Waiting
// column reads 1). Bob leaves: the seat is offered to Cat, whose strip shows in the lobby; she
// opens the table from it, is refused a buy-in below the table's range in the strip, takes the
// seat with $25 and plays. axe-core on every view; no live region said twice.
//
// Run from tests/browser after `cargo build -p stud-cli`:  node waitlist.mjs
// STUD_BIN overrides the binary, CHROMIUM the browser, STUD_WEB_DIR serves web/ from disk.
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { CHROMIUM, Failure, LIVE_WATCH, PLAYERS, SHOTS, abort, check, checkAxe, checkConsole, checkLiveRegions, clickAction, createTable, enterLobby, frames, launchChromium, log, nextPrompt, pickButton, receivedFrame, run, runTest, sleep, startServer, until, watchPage } from './harness.mjs';
import { ordinal } from '../../web/format.js';
import { tIn } from '../../web/i18n.js';

const OPERATOR_KEY = 'browser-waitlist-operator-key-0123456789';
const OVERALL_MS = 4 * 60 * 1000;
const TABLE = { name: 'Wait Stud', variant: 'stud', ante: 10, bring_in: 20, small_bet: 20, big_bet: 40, min_buy_in: 2000, max_buy_in: 10000, seats: 2 };
const START = 100000; // cents: a new player's balance
const OFFER_MS = 30000; // the server's SEAT_OFFER_MS
const eventually = (desc, fn, timeoutMs = 5000) => harness.eventually(desc, fn, timeoutMs);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-waitlist-'));
let ADDR = '';

class Player {
  constructor(name, lang, context, page) {
    Object.assign(this, { name, lang, context, page });
    this.errors = [];
    this.prompt = null; // the latest your_turn
    this.clicked = new Set(); // `${table_id}:${seq}` answered
    this.sent = []; // every frame the page sent
    this.acks = []; // ack frames
    this.snapshots = []; // {table, at}: every snapshot's table
    this.stop = false;
    PLAYERS.push(this);
    watchPage(this, page, (m) => this.sent.push(m));
    if (process.env.DEBUG) page.on('console', (m) => console.log(`${name} console ${m.type()}: ${m.text()}`));
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (m.type === 'your_turn') this.prompt = m;
    if (m.type === 'ack') this.acks.push(m);
    if (m.type === 'snapshot') this.snapshots.push({ table: m.table, at: Date.now() });
    if (m.type === 'error') this.errors.push(`an error frame: ${text.slice(0, 200)}`);
  }

  /** The last snapshot's table. */
  get table() {
    return this.snapshots.at(-1)?.table ?? null;
  }

  q(id) {
    return this.page.locator(`[data-testid=${id}]`);
  }

  attr(id, name) {
    return this.q(id).first().getAttribute(name);
  }

  t(key, params) {
    return tIn(this.lang, key, params);
  }
}

/** Check, call, bring in, show at the table on screen, until stopped. */
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
      if (!p.stop && !run.aborted) throw e;
    });
  }
}
const runBot = (p) => bot(p).catch((e) => abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e));

/** GET /api/tables: the table's lobby line. */
async function lobbyLine(id) {
  const res = await fetch(`http://${ADDR}/api/tables`);
  return (await res.json()).find((x) => x.id === id) ?? null;
}

/** What a page shows of the table's lobby row, its waiting list at the table, the seat offer. */
const readPage = (p, id) => p.page.evaluate((tableId) => {
  const q = (sel, root = document) => root.querySelector(sel);
  const shown = (node) => Boolean(node?.checkVisibility());
  const row = q(`[data-testid=table-row][data-table-id="${tableId}"]`);
  const cell = (tid) => row?.querySelector(`[data-testid=${tid}]`);
  const tab = q(`[data-testid=table-tab][data-table-id="${tableId}"]`);
  const wl = q('[data-testid=waitlist]');
  const offer = q('[data-testid=seat-offer]');
  const rect = (node) => (shown(node) ? node.getBoundingClientRect().toJSON() : null);
  return {
    lobby: shown(q('[data-testid=lobby]')),
    table: shown(q('[data-testid=table]')) ? q('[data-testid=table]').dataset.tableId : null,
    row: row ? {
      seats: row.querySelector('td[data-col="seats"]')?.textContent ?? null,
      waiting: cell('table-row-waiting') ? { value: cell('table-row-waiting').dataset.value, text: cell('table-row-waiting').textContent } : null,
      sit: shown(cell('sit')), watch: shown(cell('watch')), join: shown(cell('waitlist-join')), joinText: cell('waitlist-join')?.textContent ?? null,
      open: shown(cell('lobby-open')),
      at: cell('lobby-at-table') ? { text: cell('lobby-at-table').textContent, seated: cell('lobby-at-table').dataset.seated, wait: cell('lobby-at-table').dataset.waitPosition ?? null } : null,
    } : null,
    tab: tab ? { text: tab.textContent, offer: shown(tab.querySelector('[data-testid=table-tab-offer]')) } : null,
    waitlist: shown(wl) ? {
      count: q('[data-testid=waitlist-count]').dataset.count, countText: q('[data-testid=waitlist-count]').textContent,
      position: shown(q('[data-testid=waitlist-position]')) ? q('[data-testid=waitlist-position]').textContent : null,
      positionN: q('[data-testid=waitlist-position]').dataset.position,
      toggle: shown(q('[data-testid=waitlist-toggle]')) ? q('[data-testid=waitlist-toggle]').textContent : null,
      busy: q('[data-testid=waitlist-toggle]').getAttribute('aria-disabled') === 'true',
    } : null,
    tableSit: shown(q('[data-testid=table-sit]')),
    sitHere: document.querySelectorAll('[data-testid=sit-here]').length,
    offer: shown(offer) ? {
      table: offer.dataset.tableId, title: q('[data-testid=seat-offer-title]').textContent,
      text: q('[data-testid=seat-offer-text]').textContent, ms: Number(q('[data-testid=seat-offer-text]').dataset.ms),
      buyIn: q('[data-testid=seat-offer-buy-in]').value, open: shown(q('[data-testid=seat-offer-open]')),
      error: shown(q('[data-testid=seat-offer-error]')) ? q('[data-testid=seat-offer-error]').textContent : null,
      busy: q('[data-testid=seat-offer-take]').getAttribute('aria-disabled') === 'true',
      focused: offer.contains(document.activeElement),
    } : null,
    said: q('[data-testid=seat-offer-said]').textContent,
    rects: { offer: rect(offer), bar: rect(q('[data-testid=action-bar]')), area: rect(q('#table-area')), head: rect(q('.table-head')) },
    notice: shown(q('[data-testid=notice]')) ? q('[data-testid=notice]').textContent : null,
    me: q('[data-testid=seat][data-me=true]')?.dataset.seat ?? null,
  };
}, id);

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  // A short action clock: a player who leaves during a hand keeps the seat until it ends.
  ADDR = await startServer(tmp, { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '1000', STUD_ACTION_TIMEOUT_MS: '6000', STUD_OPERATOR_KEY: OPERATOR_KEY });
  log(`server listening on http://${ADDR}`);
  const { res, body } = await createTable(ADDR, OPERATOR_KEY, TABLE);
  check(res.ok && body?.id, `creating ${TABLE.name}: ${res.status} ${JSON.stringify(body)}`);
  const T = body.id;
  const browser = await launchChromium();
  const bots = new Map(); // each player's bot loop
  try {
    const players = {};
    for (const [name, lang, width, height] of [['Ann', 'en', 1280, 800], ['Bob', 'hu', 390, 844], ['Cat', 'it', 1280, 800]]) {
      const context = await browser.newContext({ viewport: { width, height } });
      await context.addInitScript(LIVE_WATCH);
      players[name] = new Player(name, lang, context, await context.newPage());
      await enterLobby(players[name], `http://${ADDR}/`, START);
    }
    const { Ann: ann, Bob: bob, Cat: cat } = players;
    const row = (p) => p.page.locator(`[data-testid=table-row][data-table-id="${T}"]`);

    // 1. Ann and Bob sit at Wait Stud from the lobby and play.
    for (const p of [ann, bob]) {
      await row(p).locator('[data-testid=sit]').click();
      await until(`${p.name}: seated at ${TABLE.name}`, async () => (await readPage(p, T)).me != null, 10000);
      bots.set(p, runBot(p));
    }
    log('Ann and Bob: seated at Wait Stud (2 seats), playing');

    // 2. Cat's lobby: the full table's row offers Join waiting list, not Sit.
    await eventually('Cat: the full table\'s row offers Join waiting list', async () => {
      const r = (await readPage(cat, T)).row;
      check(r, 'no row for Wait Stud');
      check(r.seats === '2/2', `the row's seats: ${r.seats}`);
      check(r.join && !r.sit && r.watch, `the row's buttons: ${JSON.stringify(r)}`);
      check(r.joinText === cat.t('waitlist_join_short'), `the button says ${JSON.stringify(r.joinText)}`);
      check(r.waiting?.value === '0' && r.waiting.text === '0', `the Waiting column: ${JSON.stringify(r.waiting)}`);
    }, 12000);
    await checkAxe(cat, 'in the lobby with Join waiting list');

    // 3. Cat joins the list from the lobby: the table on screen (watching), `waitlist` on once
    // joined, her place in line at the table and in a notice.
    const sentFrom = cat.sent.length;
    await row(cat).locator('[data-testid=waitlist-join]').click();
    const place1 = ordinal(1, 'it');
    await eventually('Cat: on the waiting list at the table', async () => {
      const sent = cat.sent.slice(sentFrom);
      const join = sent.findIndex((m) => m.type === 'join_table' && m.table_id === T);
      const wl = sent.findIndex((m) => m.type === 'waitlist' && m.table_id === T && m.on === true);
      check(join >= 0 && wl > join, `the frames sent: ${JSON.stringify(sent.map((m) => m.type))}`);
      check(sent.filter((m) => m.type === 'waitlist').length === 1, 'more than one waitlist sent');
      check(cat.acks.some((a) => a.detail === 'on the waiting list: position 1'), `the acks: ${JSON.stringify(cat.acks.map((a) => a.detail))}`);
      const r = await readPage(cat, T);
      check(r.table === T, `on screen: ${r.table}`);
      check(r.waitlist, 'no waiting-list control at the table');
      check(r.waitlist.count === '1' && r.waitlist.countText === cat.t('waitlist_count', { n: 1 }), `the count: ${JSON.stringify(r.waitlist)}`);
      check(r.waitlist.position === cat.t('waitlist_position', { place: place1 }) && r.waitlist.positionN === '1', `the place: ${JSON.stringify(r.waitlist)}`);
      check(r.waitlist.toggle === cat.t('waitlist_leave') && !r.waitlist.busy, `the toggle: ${JSON.stringify(r.waitlist)}`);
      check(!r.tableSit && r.sitHere === 0, `a seat offered to sit at a full table: table-sit ${r.tableSit}, sit-here ${r.sitHere}`);
      check(r.notice === cat.t('waitlist_joined', { table: TABLE.name, place: place1 }), `the notice: ${JSON.stringify(r.notice)}`);
      check(!r.offer, 'a seat offer at a full table');
    }, 8000);
    check((await lobbyLine(T))?.waiting === 1, 'GET /api/tables does not count Cat as waiting');
    await cat.page.screenshot({ path: path.join(SHOTS, 'waitlist-table.png') });
    await checkAxe(cat, 'at the table on the waiting list');
    log(`Cat: joined the waiting list from the lobby (join_table, then waitlist on): "${(await readPage(cat, T)).waitlist.position}"`);

    // 4. At the table she leaves the list and joins it again (the toggle).
    await cat.q('waitlist-toggle').click();
    await eventually('Cat: off the waiting list', async () => {
      check(cat.sent.some((m) => m.type === 'waitlist' && m.on === false), 'no waitlist off sent');
      const r = await readPage(cat, T);
      check(r.waitlist && r.waitlist.count === '0' && r.waitlist.position === null && r.waitlist.toggle === cat.t('waitlist_join'), `the control: ${JSON.stringify(r.waitlist)}`);
      check(r.notice === cat.t('waitlist_left', { table: TABLE.name }), `the notice: ${JSON.stringify(r.notice)}`);
    });
    await cat.q('waitlist-toggle').click();
    await eventually('Cat: on the waiting list again', async () => {
      const r = await readPage(cat, T);
      check(r.waitlist && r.waitlist.count === '1' && r.waitlist.positionN === '1' && r.waitlist.toggle === cat.t('waitlist_leave'), `the control: ${JSON.stringify(r.waitlist)}`);
    });
    log('Cat: left the list and joined it again with the table\'s toggle');

    // 5. To the lobby: the Waiting column reads 1, her row says her place, her tab too.
    await cat.q('to-lobby').click();
    await eventually('Cat: the lobby counts her on the list', async () => {
      const r = await readPage(cat, T);
      check(r.lobby, 'the lobby is not on screen');
      check(r.row.waiting?.value === '1' && r.row.waiting.text === '1', `the Waiting column: ${JSON.stringify(r.row.waiting)}`);
      check(r.row.at?.wait === '1' && r.row.at.text === cat.t('waiting_at', { place: place1 }), `the row's tag: ${JSON.stringify(r.row.at)}`);
      check(!r.row.join && !r.row.sit && r.row.open, `the row's buttons: ${JSON.stringify(r.row)}`);
      check(r.tab?.text.includes(cat.t('waiting_at', { place: place1 })), `the tab: ${JSON.stringify(r.tab)}`);
    }, 12000);
    await cat.page.screenshot({ path: path.join(SHOTS, 'waitlist-lobby.png') });
    await checkAxe(cat, 'in the lobby on the waiting list');
    await checkLiveRegions(cat, 'joining the waiting list');
    log('Cat: the lobby\'s Waiting column reads 1; her row and tab say "in lista: 1º"');

    // 6. Bob leaves: his seat is offered to Cat, who is in the lobby: the strip, said once.
    // His bot stops first: its click and this one share the page's one mouse, and a press on
    // one button with the release on the other clicks neither (Bob then neither acts nor leaves
    // and the hand waits for his clock).
    const offerFrom = cat.snapshots.length;
    bob.stop = true;
    await bots.get(bob);
    await bob.q('leave').click();
    await until('Cat: a seat offered (wait.offer_ms)', () => cat.snapshots.slice(offerFrom).some((s) => s.table.wait?.offer_ms != null), 30000, 50);
    const offered = cat.snapshots.slice(offerFrom).find((s) => s.table.wait?.offer_ms != null);
    check(offered.table.wait.position === 1 && offered.table.wait.offer_ms <= OFFER_MS && offered.table.your_seat == null, `the offer: ${JSON.stringify(offered.table.wait)}`);
    let first = null;
    await eventually('Cat: the seat offer strip in the lobby', async () => {
      const r = await readPage(cat, T);
      check(r.lobby && r.offer, `lobby ${r.lobby}, offer ${JSON.stringify(r.offer)}`);
      check(r.offer.table === T && r.offer.title === cat.t('seat_offer_title', { table: TABLE.name }), `the title: ${JSON.stringify(r.offer)}`);
      const s = Math.ceil(r.offer.ms / 1000);
      check(r.offer.ms > 0 && r.offer.ms <= OFFER_MS && r.offer.text === cat.t('seat_offer_text', { s }), `the countdown: ${JSON.stringify(r.offer)}`);
      check([29, 30].some((n) => r.said === cat.t('seat_offer_said', { table: TABLE.name, s: n })), `said: ${JSON.stringify(r.said)}`);
      check(r.offer.open && r.offer.buyIn === '20' && !r.offer.error && !r.offer.focused, `the strip: ${JSON.stringify(r.offer)}`);
      check(r.tab?.offer, `the tab shows no offer: ${JSON.stringify(r.tab)}`);
      first = r.offer.ms;
    }, 5000);
    await cat.page.screenshot({ path: path.join(SHOTS, 'waitlist-offer-lobby.png') });
    await checkAxe(cat, 'in the lobby with a seat offered');
    log(`Cat: the seat offered (${offered.table.wait.offer_ms} ms) in the lobby's strip: "${(await readPage(cat, T)).said}"`);

    // Anybody else's lobby: the free seat is the list's, so Join waiting list, not Sit.
    await eventually('Bob: the seat offered to the list: Join waiting list in his lobby', async () => {
      const r = await readPage(bob, T);
      check(r.lobby && r.row, `Bob's lobby: ${JSON.stringify(r)}`);
      check(r.row.seats === '1/2' && r.row.waiting?.value === '1', `the row: ${JSON.stringify(r.row)}`);
      check(r.row.join && !r.row.sit, `the row's buttons: ${JSON.stringify(r.row)}`);
    }, 12000);
    const line = await lobbyLine(T);
    check(line.seats_taken === 1 && line.waiting === 1, `the lobby line: ${JSON.stringify(line)}`);
    await checkAxe(bob, 'in the lobby (390 px) of a table whose seat is offered');

    // 7. Cat opens the table from the strip: the strip stays (above the table, never over the
    // action bar), counting down; the live regions said the offer once.
    await cat.q('seat-offer-open').click();
    await eventually('Cat: the table on screen with the strip', async () => {
      const r = await readPage(cat, T);
      check(r.table === T && r.offer && !r.offer.open, `on screen ${r.table}, strip ${JSON.stringify(r.offer)}`);
      check(r.offer.ms < first, `the countdown stands: ${r.offer.ms} after ${first}`);
      check(r.rects.offer.bottom <= r.rects.head.top + 1 && r.rects.offer.bottom <= r.rects.area.top, `the strip lies over the table: ${JSON.stringify(r.rects)}`);
      check(r.rects.bar && r.rects.offer.bottom <= r.rects.bar.top, `the strip lies over the action bar: ${JSON.stringify(r.rects)}`);
      check(r.tableSit && r.sitHere === 1, `the free seat is not ours to take at the table: table-sit ${r.tableSit}, sit-here ${r.sitHere}`);
      check(r.waitlist?.positionN === '1' && r.waitlist.toggle === cat.t('waitlist_leave'), `the control: ${JSON.stringify(r.waitlist)}`);
    });
    await sleep(1500); // the clock ticks a few times
    const writes = await checkLiveRegions(cat, 'with a seat offered');
    check(writes['seat-offer-said'] === 1, `the offer said ${writes['seat-offer-said'] ?? 0} times (once expected)`);
    check(!writes['seat-offer-text'], 'the countdown is a live region');
    await cat.page.screenshot({ path: path.join(SHOTS, 'waitlist-offer-table.png') });
    await checkAxe(cat, 'at the table with a seat offered');

    // 8. A buy-in below the table's range is refused in the strip (nothing sent); $25 takes
    // the seat (any free seat: `sit` without a seat number, 2500 cents).
    const sits = () => cat.sent.filter((m) => m.type === 'sit');
    await cat.q('seat-offer-buy-in').fill('1');
    await cat.q('seat-offer-take').click();
    await eventually('Cat: $1 refused in the strip', async () => {
      const r = await readPage(cat, T);
      check(r.offer?.error === cat.t('err_buy_in_out_of_range'), `the strip's error: ${JSON.stringify(r.offer)}`);
    });
    check(sits().length === 0, 'a sit was sent for $1');
    await cat.q('seat-offer-buy-in').fill('25');
    await cat.q('seat-offer-take').click();
    await eventually('Cat: seated from the waiting list', async () => {
      const sit = sits();
      check(sit.length === 1 && sit[0].table_id === T && sit[0].buy_in === 2500 && sit[0].seat == null, `the sits sent: ${JSON.stringify(sit)}`);
      check(cat.acks.some((a) => /^seated at \d$/.test(a.detail ?? '')), `the acks: ${JSON.stringify(cat.acks.map((a) => a.detail))}`);
      const r = await readPage(cat, T);
      check(r.me != null && r.table === T, `Cat's seat: ${r.me} on ${r.table}`);
      check(!r.offer && !r.waitlist && r.said === '', `the strip ${JSON.stringify(r.offer)}, the list ${JSON.stringify(r.waitlist)}, said ${JSON.stringify(r.said)}`);
      check(r.tab == null || !r.tab.offer, `the tab: ${JSON.stringify(r.tab)}`);
      check(cat.table.your_seat != null && cat.table.wait == null && cat.table.waiting === 0, `Cat's snapshot: ${JSON.stringify({ seat: cat.table.your_seat, wait: cat.table.wait, waiting: cat.table.waiting })}`);
    }, 8000);
    cat.clicked.clear();
    bots.set(cat, runBot(cat));
    log(`Cat: took the seat offered with $25 (seat ${(await readPage(cat, T)).me}); $1 was refused in the strip, nothing sent`);

    // 9. She plays: a prompt at her new seat, answered; nobody waits any more.
    const before = cat.sent.filter((m) => m.type === 'act').length;
    await until('Cat: an action at her new seat', () => cat.sent.filter((m) => m.type === 'act' && m.table_id === T).length > before, 40000, 100);
    const after = await lobbyLine(T);
    check(after.waiting === 0 && after.seats_taken === 2 && after.players.includes('Cat') && after.players.includes('Ann') && !after.players.includes('Bob'), `the lobby line: ${JSON.stringify(after)}`);
    await eventually('Bob: the Waiting column reads 0, the table full again', async () => {
      const r = (await readPage(bob, T)).row;
      check(r.waiting?.value === '0' && r.seats === '2/2' && r.join && !r.sit, `the row: ${JSON.stringify(r)}`);
    }, 12000);
    await checkAxe(cat, 'seated after the waiting list');
    for (const p of [ann, bob, cat]) await checkLiveRegions(p, 'through the waiting list');
    for (const p of [ann, bob, cat]) p.stop = true;
    await Promise.all(bots.values());
    if (run.aborted) throw run.aborted;
    checkConsole();
    log(`Cat played at her new seat; ${frames.checked} WebSocket frames matched proto/schema.json`);
  } catch (e) {
    for (const [i, ctx] of browser.contexts().entries()) {
      for (const page of ctx.pages()) {
        const f = path.join(SHOTS, `waitlist-failure-${i + 1}.png`);
        await page.screenshot({ path: f, fullPage: true }).then(() => console.log(`failure screenshot: ${path.relative(process.cwd(), f)}`), () => {});
      }
    }
    throw e;
  } finally {
    await browser.close().catch(() => {});
  }
}

await runTest('browser waiting-list test', main, { overallMs: OVERALL_MS, tmp });
