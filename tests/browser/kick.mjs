// End-to-end browser test of a table's notice (issue 31, the table client): an operator removes a
// seated player from one table, or tightens a table's access under its watchers; the server
// says so with an `error` that answers no request and carries `table_id` (proto/PROTOCOL.md
// section 8). The page forgets that table only (its tab goes, the lobby if it was on screen),
// says why in the player's language and keeps the session: token, name, balance, every other
// table. A `forbidden` without `table_id` (a server-wide ban, refused at the next hello) still
// ends the session. Every sit is counted too: the frames the page sends for it, against the
// server's limit of 20 messages a second (bursts of 40) per connection.
//
// Starts the real server with an operator key and creates five tables through the admin API.
// Ann (Italian, 1280x800) sits at "Kick Stud" and watches "Kick Razz" in the same page; the
// operator kicks her from Kick Stud (`now: true`) while it is on screen; she then sits at Kick
// Razz and at Kick Stud again. Bob (Hungarian, 390x844) watches "Kick Open", which the operator
// makes private; he then sits at "Kick Spare". Cat (English) sits at "Kick Ban" and is banned
// from the server: the table's notice, then her session ends (the welcome screen).
//
// Run from tests/browser after `cargo build -p stud-cli`:  node kick.mjs
// STUD_BIN overrides the binary, CHROMIUM the browser, STUD_WEB_DIR serves web/ from disk.
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { CHROMIUM, LIVE_WATCH, PLAYERS, SHOTS, check, checkAxe, checkConsole, checkLiveRegions, createTable, enterLobby, frames, launchChromium, log, operatorApi, receivedFrame, runTest, sleep, startServer, until, watchPage } from './harness.mjs';
import { tIn } from '../../web/i18n.js';

const OPERATOR_KEY = 'browser-kick-operator-key-0123456789';
const OVERALL_MS = 3 * 60 * 1000;
const TABLE = { ante: 10, bring_in: 20, small_bet: 20, big_bet: 40, min_buy_in: 2000, max_buy_in: 10000, seats: 2 };
const START = 100000; // cents: a new player's balance
const LIMIT = 20; // the server's messages a second per connection (STUD_MESSAGES_PER_SECOND's default), bursts of twice that
const SIT_FRAMES_MAX = 4; // what one sit may send: the sit, the hello that fetches the balance, room for a snapshot
const eventually = (desc, fn, timeoutMs = 5000) => harness.eventually(desc, fn, timeoutMs);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-kick-'));
let ADDR = '';
const api = operatorApi(() => ADDR, OPERATOR_KEY);

class Player {
  constructor(name, lang, context, page) {
    Object.assign(this, { name, lang, context, page });
    this.errors = [];
    this.me = null; // the last welcome
    this.sent = []; // {m, at}: every frame the page sent
    this.notices = []; // error frames with table_id
    this.sessionErrors = []; // error frames without request_id nor table_id
    this.expectSessionEnd = false; // Cat, banned: a forbidden without table_id is the point
    PLAYERS.push(this);
    watchPage(this, page, (m) => this.sent.push({ m, at: Date.now() }));
    if (process.env.DEBUG) page.on('console', (m) => console.log(`${name} console ${m.type()}: ${m.text()}`));
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (m.type === 'welcome') this.me = m;
    if (m.type !== 'error') return;
    if (m.code === 'rate_limited') this.errors.push(`rate_limited by the server: ${text.slice(0, 200)}`);
    else if (m.table_id) this.notices.push({ ...m, at: Date.now() });
    else if (m.request_id == null && this.expectSessionEnd) this.sessionErrors.push(m);
    else this.errors.push(`an unexpected error frame: ${text.slice(0, 200)}`);
  }

  q(id) {
    return this.page.locator(`[data-testid=${id}]`);
  }

  attr(id, name) {
    return this.q(id).first().getAttribute(name);
  }
}

/** The most frames `list` ({at}) holds in any window of `ms`. */
function busiest(list, ms) {
  let most = 0;
  for (let i = 0, j = 0; j < list.length; j += 1) {
    while (list[j].at - list[i].at >= ms) i += 1;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

const tally = (list) => list.reduce((n, x) => ({ ...n, [x.m.type]: (n[x.m.type] ?? 0) + 1 }), {});

/** What the page shows of the session and its tables. */
const readPage = (p) => p.page.evaluate(() => {
  const shown = (id) => Boolean(document.querySelector(`[data-testid=${id}]`)?.checkVisibility());
  return {
    token: localStorage.getItem('stud.token'),
    who: document.querySelector('[data-testid=who]').textContent,
    balance: document.querySelector('[data-testid=balance]').dataset.amount,
    balanceShown: shown('balance'),
    start: shown('start'),
    logout: shown('logout'),
    status: document.querySelector('[data-testid=status]').dataset.state,
    lobby: shown('lobby'),
    table: shown('table') ? document.querySelector('[data-testid=table]').dataset.tableId : null,
    tabs: [...document.querySelectorAll('[data-testid=table-tab]')].map((b) => ({ id: b.dataset.tableId, seated: b.dataset.seated === 'true', current: b.getAttribute('aria-current') === 'page' })),
    tabsShown: shown('table-tabs'),
    notice: shown('notice') ? document.querySelector('[data-testid=notice]').textContent : null,
  };
});

/** Seated at `id`, on screen: its seat is ours. */
const seatedAt = async (p, id) => {
  const r = await readPage(p);
  return r.table === id && (await p.page.locator('[data-testid=seat][data-me=true]').count()) === 1;
};

/** A sit (`click` starts it) until the page shows our seat at `id`, then 1.5 s more: the frames
 *  the page sent for it, by type; none refused as rate_limited. */
async function countSit(p, id, desc, click) {
  const from = p.sent.length;
  const t0 = Date.now();
  await click();
  await until(`${p.name}: seated at ${desc}`, () => seatedAt(p, id), 10000, 50);
  await sleep(1500);
  const burst = p.sent.slice(from);
  const types = tally(burst);
  const took = Date.now() - t0;
  log(`${p.name}: sitting at ${desc} sent ${burst.length} frame(s) in ${took} ms: ${JSON.stringify(types)}; at most ${busiest(burst, 1000)} in any second`);
  check(types.sit === 1, `${p.name}: ${types.sit ?? 0} sit frames for one click at ${desc}`);
  check((types.hello ?? 0) <= 1, `${p.name}: ${types.hello} hellos after one sit at ${desc}`);
  check(burst.length <= SIT_FRAMES_MAX, `${p.name}: sitting at ${desc} sent ${burst.length} frames: ${JSON.stringify(types)}`);
  checkConsole(); // a rate_limited answer is an error here
  return { desc, frames: burst.length, types };
}

async function tablePlayers(id) {
  const res = await fetch(`http://${ADDR}/api/tables`);
  return (await res.json()).find((x) => x.id === id)?.players ?? null;
}

/** Still signed in as before: the token, the name, the balance, the connection. */
async function checkSignedIn(p, token, balance) {
  const r = await readPage(p);
  check(r.token === token, `${p.name}: the token in localStorage is ${JSON.stringify(r.token)}, was ${token}`);
  check(r.who === p.name, `${p.name}: the top bar names ${JSON.stringify(r.who)}`);
  // The balance is in the lobby's head (not drawn while a table is on screen).
  check(r.balance === String(balance) && (r.balanceShown || !r.lobby), `${p.name}: the balance shows ${r.balance} (shown: ${r.balanceShown}), expected ${balance}`);
  check(!r.start && r.logout, `${p.name}: the welcome screen (start ${r.start}, log out ${r.logout})`);
  check(r.status === 'connected', `${p.name}: the status says ${r.status}`);
  return r;
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  ADDR = await startServer(tmp, { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '1000', STUD_OPERATOR_KEY: OPERATOR_KEY });
  log(`server listening on http://${ADDR}`);
  const ids = {};
  for (const [key, variant, name] of [['A', 'stud', 'Kick Stud'], ['B', 'razz', 'Kick Razz'], ['C', 'stud8', 'Kick Open'], ['D', 'stud', 'Kick Spare'], ['E', 'razz', 'Kick Ban']]) {
    const { res, body } = await createTable(ADDR, OPERATOR_KEY, { ...TABLE, name, variant });
    check(res.ok && body?.id, `creating ${name}: ${res.status} ${JSON.stringify(body)}`);
    ids[key] = body.id;
  }
  const { A, B, C, D, E } = ids;
  const buyIn = TABLE.min_buy_in; // the lobby's and the table's box start at the minimum
  const browser = await launchChromium();
  const sits = [];
  try {
    const players = {};
    for (const [name, lang, width, height] of [['Ann', 'it', 1280, 800], ['Bob', 'hu', 390, 844], ['Cat', 'en', 1280, 800]]) {
      const context = await browser.newContext({ viewport: { width, height } });
      await context.addInitScript(LIVE_WATCH);
      players[name] = new Player(name, lang, context, await context.newPage());
      await enterLobby(players[name], `http://${ADDR}/`, START);
    }
    const { Ann: ann, Bob: bob, Cat: cat } = players;
    const row = (p, id) => p.page.locator(`[data-testid=table-row][data-table-id="${id}"]`);

    // 1. Ann sits at Kick Stud (the lobby's Sit), then watches Kick Razz from the lobby: two
    // tables in one page. Kick Stud is put on screen again by its tab.
    sits.push(await countSit(ann, A, 'Kick Stud', () => row(ann, A).locator('[data-testid=sit]').click()));
    await ann.q('to-lobby').click();
    await until('Ann: the lobby', async () => (await readPage(ann)).lobby, 5000);
    const watchFrom = ann.sent.length;
    await row(ann, B).locator('[data-testid=watch]').click();
    await until('Ann: watching Kick Razz', async () => (await readPage(ann)).table === B, 10000, 50);
    await sleep(1000);
    log(`Ann: watching Kick Razz sent ${ann.sent.length - watchFrom} frame(s): ${JSON.stringify(tally(ann.sent.slice(watchFrom)))}`);
    await ann.page.locator(`[data-testid=table-tab][data-table-id="${A}"]`).click();
    await until('Ann: Kick Stud on screen again', () => seatedAt(ann, A), 5000, 50);
    const annToken = await eventually('Ann: seated at Kick Stud, watching Kick Razz', async () => {
      const r = await checkSignedIn(ann, (await readPage(ann)).token, START - buyIn);
      check(r.token, 'Ann has no token');
      check(r.tabs.length === 2 && r.tabs.find((x) => x.id === A)?.seated && r.tabs.find((x) => x.id === A)?.current && r.tabs.find((x) => x.id === B) && !r.tabs.find((x) => x.id === B).seated, `the tabs: ${JSON.stringify(r.tabs)}`);
      return r.token;
    });
    check((await tablePlayers(A))?.includes('Ann'), 'Ann is not seated at Kick Stud');
    log('Ann: seated at Kick Stud (on screen), watching Kick Razz (a tab)');

    // 2. The operator removes her from Kick Stud at once.
    const kicked = await api('POST', `/api/admin/tables/${A}/kick`, { player_id: ann.me.player_id, now: true });
    check(kicked.status === 200 && kicked.json?.kicked === true, `the kick: ${kicked.status} ${kicked.text}`);
    const removedText = tIn('it', 'tn_removed_at', { table: 'Kick Stud' });
    await eventually('Ann: removed from Kick Stud, still signed in', async () => {
      const n = ann.notices.find((x) => x.table_id === A);
      check(n && n.code === 'forbidden' && n.request_id === null, `no table notice for Kick Stud came: ${JSON.stringify(ann.notices)}`);
      const r = await checkSignedIn(ann, annToken, START);
      check(r.lobby && r.table === null, `on screen: lobby ${r.lobby}, table ${r.table}`);
      check(r.tabsShown && r.tabs.length === 1 && r.tabs[0].id === B && !r.tabs[0].seated, `the tabs after the kick: ${JSON.stringify(r.tabs)}`);
      check(r.notice === removedText, `the notice says ${JSON.stringify(r.notice)}, expected ${JSON.stringify(removedText)}`);
      const a = row(ann, A);
      check(await a.locator('[data-testid=sit]').isVisible(), 'Kick Stud\'s row offers no Sit');
      check((await a.locator('[data-testid=lobby-at-table]').count()) === 0, 'Kick Stud\'s row still says she is there');
    }, 8000);
    check(!(await tablePlayers(A))?.includes('Ann'), 'Ann still sits at Kick Stud');
    await ann.page.screenshot({ path: path.join(SHOTS, 'kick-removed.png') });
    await checkAxe(ann, 'in the lobby after the kick');
    await checkLiveRegions(ann, 'through the kick');
    log(`Ann: removed from Kick Stud: lobby, its tab gone (Kick Razz kept), notice "${removedText}", token, name and balance ($${START / 100}) kept`);

    // 3. She sits at another table: Kick Razz (its tab, then "Take a seat"), then Kick Stud
    // again from the lobby (a kick is no ban).
    await ann.page.locator(`[data-testid=table-tab][data-table-id="${B}"]`).click();
    await until('Ann: Kick Razz on screen', async () => (await readPage(ann)).table === B, 5000, 50);
    sits.push(await countSit(ann, B, 'Kick Razz (watching it)', () => ann.q('table-sit').click()));
    await ann.q('to-lobby').click();
    await until('Ann: the lobby', async () => (await readPage(ann)).lobby, 5000);
    sits.push(await countSit(ann, A, 'Kick Stud again (seated at Kick Razz)', () => row(ann, A).locator('[data-testid=sit]').click()));
    await eventually('Ann: seated at both, signed in', async () => {
      const r = await checkSignedIn(ann, annToken, START - 2 * buyIn);
      check(r.tabs.length === 2 && r.tabs.every((x) => x.seated), `the tabs: ${JSON.stringify(r.tabs)}`);
    });
    check((await tablePlayers(A))?.includes('Ann') && (await tablePlayers(B))?.includes('Ann'), 'Ann is not seated at both tables');
    log('Ann: sat at Kick Razz and at Kick Stud again after the kick');

    // 3b. Kicked from the table in the background (Kick Razz) while Kick Stud is on screen: the
    // table on screen stays, its tab alone; the notice names Kick Razz.
    check((await readPage(ann)).table === A, 'Kick Stud is not on screen');
    const kickedB = await api('POST', `/api/admin/tables/${B}/kick`, { player_id: ann.me.player_id, now: true });
    check(kickedB.status === 200 && kickedB.json?.kicked === true, `the kick at Kick Razz: ${kickedB.status} ${kickedB.text}`);
    const removedB = tIn('it', 'tn_removed_at', { table: 'Kick Razz' });
    await eventually('Ann: removed from Kick Razz, Kick Stud still on screen', async () => {
      check(ann.notices.some((x) => x.table_id === B), `no table notice for Kick Razz came: ${JSON.stringify(ann.notices)}`);
      const r = await checkSignedIn(ann, annToken, START - buyIn);
      check(r.table === A && (await seatedAt(ann, A)), `on screen: ${r.table}`);
      check(r.tabs.length === 1 && r.tabs[0].id === A && r.tabs[0].seated && !r.tabsShown, `the tabs: ${JSON.stringify(r.tabs)} (shown: ${r.tabsShown})`);
      check(r.notice === removedB, `the notice says ${JSON.stringify(r.notice)}, expected ${JSON.stringify(removedB)}`);
    }, 8000);
    check(!(await tablePlayers(B))?.includes('Ann') && (await tablePlayers(A))?.includes('Ann'), 'the kick at Kick Razz moved the wrong seat');
    log(`Ann: removed from Kick Razz in the background: Kick Stud stays on screen, notice "${removedB}"`);

    // 4. Bob watches Kick Open; the operator makes it private: its watchers are dropped.
    const bobToken = (await readPage(bob)).token;
    await row(bob, C).locator('[data-testid=watch]').click();
    await until('Bob: watching Kick Open', async () => (await readPage(bob)).table === C, 10000, 50);
    const patched = await api('PATCH', `/api/admin/tables/${C}`, { private: true });
    check(patched.status === 200, `making Kick Open private: ${patched.status} ${patched.text}`);
    const accessText = tIn('hu', 'tn_access_at', { table: 'Kick Open' });
    await eventually('Bob: Kick Open gone, still signed in', async () => {
      const n = bob.notices.find((x) => x.table_id === C);
      check(n && n.code === 'forbidden' && n.request_id === null, `no table notice for Kick Open came: ${JSON.stringify(bob.notices)}`);
      const r = await checkSignedIn(bob, bobToken, START);
      check(r.lobby && r.table === null, `on screen: lobby ${r.lobby}, table ${r.table}`);
      check(r.tabs.length === 0 && !r.tabsShown, `the tabs: ${JSON.stringify(r.tabs)}`);
      check(r.notice === accessText, `the notice says ${JSON.stringify(r.notice)}, expected ${JSON.stringify(accessText)}`);
    }, 8000);
    await bob.page.screenshot({ path: path.join(SHOTS, 'kick-access.png') });
    await checkAxe(bob, 'in the lobby after a table\'s access changed');
    sits.push(await countSit(bob, D, 'Kick Spare (after the access change)', () => row(bob, D).locator('[data-testid=sit]').click()));
    await eventually('Bob: seated at Kick Spare, signed in', () => checkSignedIn(bob, bobToken, START - buyIn));
    log(`Bob: dropped from Kick Open when it was made private: notice "${accessText}", signed in, then sat at Kick Spare`);

    // 5. Cat, seated at Kick Ban, is banned from the server: the table's notice (the table
    // only), then the hello that asks for her balance is refused (forbidden, no table_id): the
    // session ends as before.
    sits.push(await countSit(cat, E, 'Kick Ban', () => row(cat, E).locator('[data-testid=sit]').click()));
    cat.expectSessionEnd = true;
    const banned = await api('POST', '/api/admin/bans', { player_id: cat.me.player_id, reason: 'kick.mjs' });
    check(banned.status === 204, `the ban: ${banned.status} ${banned.text}`);
    await eventually('Cat: banned: the welcome screen', async () => {
      check(cat.notices.some((x) => x.table_id === E), `no table notice for Kick Ban: ${JSON.stringify(cat.notices)}`);
      check(cat.sessionErrors.some((x) => x.code === 'forbidden' && !x.table_id), `no forbidden without table_id: ${JSON.stringify(cat.sessionErrors)}`);
      const r = await readPage(cat);
      check(r.token === null, `Cat's token is still in localStorage: ${r.token}`);
      check(r.start && !r.logout && r.who === '' && !r.balanceShown, `Cat's page is not the welcome screen: ${JSON.stringify(r)}`);
      check(r.tabs.length === 0 && r.table === null, `Cat still has tables: ${JSON.stringify(r)}`);
    }, 8000);
    log('Cat: banned from the server: the table\'s notice, then the refused hello ended her session (welcome screen, token gone)');

    // Nobody else was told anything; nothing refused as too many messages.
    check(!bob.notices.some((x) => x.table_id !== C) && !ann.notices.some((x) => ![A, B].includes(x.table_id)), `stray table notices: Ann ${JSON.stringify(ann.notices)}, Bob ${JSON.stringify(bob.notices)}`);
    checkConsole();
    for (const p of [ann, bob, cat]) {
      const most = busiest(p.sent, 1000);
      log(`${p.name}: ${p.sent.length} frames sent in all (${JSON.stringify(tally(p.sent))}); at most ${most} in any second (the server allows ${LIMIT}, bursts of ${2 * LIMIT})`);
      check(most < LIMIT, `${p.name} sent ${most} frames within a second`);
    }
    log(`sits: ${sits.map((s) => `${s.desc}: ${s.frames}`).join('; ')}`);
    log(`${frames.checked} WebSocket frames matched proto/schema.json`);
  } catch (e) {
    for (const [i, ctx] of browser.contexts().entries()) {
      for (const page of ctx.pages()) {
        const f = path.join(SHOTS, `kick-failure-${i + 1}.png`);
        await page.screenshot({ path: f, fullPage: true }).then(() => console.log(`failure screenshot: ${path.relative(process.cwd(), f)}`), () => {});
      }
    }
    throw e;
  } finally {
    await browser.close().catch(() => {});
  }
}

await runTest('browser kick test', main, { overallMs: OVERALL_MS, tmp });
