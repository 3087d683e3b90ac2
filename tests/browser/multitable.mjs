// End-to-end browser test of multi-tabling (issue 31 item 8): one player seated at two tables at
// once in one page over one WebSocket, acting at both; the turn waiting at the table not on
// screen is announced (its tab's "Your turn" badge, a live region, the page's title, the turn
// sound); the Lobby button leaves no seat, and the lobby's rows say where the player sits and
// where their turn waits, and open that table again.
//
// Starts the real server with an operator key and creates two 2-seat tables through the admin
// API: "Multi Stud" and "Multi Razz". Ann (1280x800, English) sits at both; Bob (390x844)
// plays her at the Stud table and Cat (1366x768) at the Razz table, checking and calling through
// `harness.mjs`'s bot helpers. Ann acts only at the table on screen and goes to the other by
// its tab when her turn waits there.
//
// Run from tests/browser after `cargo build -p stud-cli`:  node multitable.mjs
// STUD_BIN overrides the binary, CHROMIUM the browser, STUD_WEB_DIR serves web/ from disk.
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { CHROMIUM, Failure, LIVE_WATCH, PLAYERS, SHOTS, SOUND_WATCH, abort, check, checkAxe, checkConsole, checkLiveRegions, clickAction, createTable, enterLobby, frames, launchChromium, log, nextPrompt, pickButton, receivedFrame, run, runTest, sleep, soundsOf, startServer, until, watchPage } from './harness.mjs';

const OPERATOR_KEY = 'browser-multitable-operator-key-0123456789';
const OVERALL_MS = 4 * 60 * 1000;
const TABLE = { ante: 10, bring_in: 20, small_bet: 20, big_bet: 40, min_buy_in: 2000, max_buy_in: 10000, seats: 2 };
const START = 100000; // cents: a new player's balance
const ACTS = 4; // Ann's actions at each table, at least
const eventually = (desc, fn, timeoutMs = 3000) => harness.eventually(desc, fn, timeoutMs);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-multitable-'));
let ADDR = '';

class Player {
  constructor(name, context, page) {
    Object.assign(this, { name, lang: 'en', context, page });
    this.errors = [];
    this.prompt = null; // the latest your_turn (any table)
    this.prompts = new Map(); // table id -> {frame, at}: the latest your_turn there
    this.clicked = new Set(); // `${table_id}:${seq}` answered
    this.acts = new Map(); // table id -> act frames sent
    this.results = new Map(); // table id -> hand_result frames
    this.stop = false;
    PLAYERS.push(this);
    this.sent = {}; // frames sent, by type
    watchPage(this, page, (m) => {
      this.sent[m.type] = (this.sent[m.type] ?? 0) + 1;
      if (m.type === 'act') this.acts.set(m.table_id, [...(this.acts.get(m.table_id) ?? []), m]);
    });
    if (process.env.DEBUG) page.on('console', (m) => console.log(`${name} console ${m.type()}: ${m.text()}`));
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (m.type === 'your_turn') {
      this.prompt = m;
      this.prompts.set(m.table_id, { frame: m, at: Date.now() });
    }
    if (m.type === 'hand_result') this.results.set(m.table_id, [...(this.results.get(m.table_id) ?? []), m]);
    if (m.type === 'error') this.errors.push(`an error frame: ${text.slice(0, 200)}`);
  }

  q(id) {
    return this.page.locator(`[data-testid=${id}]`);
  }

  attr(id, name) {
    return this.q(id).first().getAttribute(name);
  }
}

/** Bob and Cat: check, call, bring in, show, at their one table. */
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

/** Ann's prompts not answered yet, by table: the page's copy says the same (each table's own
 *  prompt is cleared by its next event, so a prompt answered or acted for is gone). */
function waiting(p) {
  return [...p.prompts].filter(([id, x]) => !p.clicked.has(`${id}:${x.frame.seq}`)).map(([id, x]) => ({ id, ...x }));
}

const onScreenTable = (p) => p.page.evaluate(() => {
  const t = document.querySelector('[data-testid=table]');
  return t.checkVisibility() ? t.dataset.tableId : null;
});

/** What the page says of the turn waiting at another table: its tab, the live region, the title. */
function readTurns(p) {
  return p.page.evaluate(() => ({
    nav: document.querySelector('[data-testid=table-tabs]').checkVisibility(),
    tabs: [...document.querySelectorAll('[data-testid=table-tab]')].map((b) => ({
      id: b.dataset.tableId, turn: b.dataset.yourTurn === 'true', seated: b.dataset.seated === 'true', current: b.getAttribute('aria-current') === 'page',
      badge: Boolean(b.querySelector('[data-testid=table-tab-turn]')?.checkVisibility()), label: b.textContent,
    })),
    elsewhere: document.querySelector('[data-testid=turn-elsewhere]').textContent,
    elsewhereVisible: document.querySelector('[data-testid=turn-elsewhere]').checkVisibility(),
    title: document.title,
    rows: [...document.querySelectorAll('[data-testid=table-row]')].map((r) => ({
      id: r.dataset.tableId, turn: Boolean(r.querySelector('[data-testid=lobby-turn]')?.checkVisibility()),
      at: r.querySelector('[data-testid=lobby-at-table]')?.dataset.seated ?? null,
      open: r.querySelector('[data-testid=lobby-open]')?.checkVisibility() ?? false, sit: r.querySelector('[data-testid=sit]')?.checkVisibility() ?? false,
    })),
  }));
}

/** Ann's turn waits at table `id` (not on screen): announced by its tab's badge (and label), the
 *  live region, the title and, sounds on, the turn sound since the prompt came. */
async function checkAnnounced(p, id, names, lobby = false) {
  const w = waiting(p).find((x) => x.id === id);
  check(w, `no prompt of Ann's waits at ${names[id]}`);
  await eventually(`${p.name}: the turn at ${names[id]} announced`, async () => {
    const r = await readTurns(p);
    check(r.nav, 'the tables\' tabs are not shown');
    const tab = r.tabs.find((x) => x.id === id);
    check(tab, `no tab for ${names[id]}: ${JSON.stringify(r.tabs)}`);
    check(tab.turn && tab.badge && !tab.current, `${names[id]}'s tab: ${JSON.stringify(tab)}`);
    check(tab.label.includes('Your turn') && tab.label.includes(names[id]), `${names[id]}'s tab says ${JSON.stringify(tab.label)}`);
    for (const other of r.tabs.filter((x) => x.id !== id)) {
      const pending = waiting(p).some((x) => x.id === other.id);
      if (!pending) check(!other.turn && !other.badge, `${names[other.id]}'s tab shows a turn although none waits there: ${JSON.stringify(other)}`);
    }
    check(r.elsewhereVisible && r.elsewhere.startsWith('Your turn at ') && r.elsewhere.includes(names[id]), `the live region says ${JSON.stringify(r.elsewhere)}`);
    check(r.title.includes(`Your turn at`) && r.title.includes(names[id]), `the title is ${JSON.stringify(r.title)}`);
    if (lobby) {
      const row = r.rows.find((x) => x.id === id);
      check(row && row.turn && row.at === 'true' && row.open && !row.sit, `the lobby's row of ${names[id]}: ${JSON.stringify(row)}`);
    }
    const sounds = await soundsOf(p);
    check(sounds.some((s) => s.kind === 'turn' && s.at >= w.at - 300), `no turn sound since the prompt at ${names[id]} came (${JSON.stringify(sounds.slice(-4))})`);
  });
}

/** The table on screen's log and seats are its own (Bob plays only at Stud, Cat only at Razz). */
async function checkOwnTable(p, id, names, others) {
  await eventually(`${p.name}: ${names[id]} drawn as itself`, async () => {
    const r = await p.page.evaluate(() => ({
      id: document.querySelector('[data-testid=table]').dataset.tableId,
      name: document.querySelector('#table-name').textContent,
      log: [...document.querySelectorAll('[data-testid=log] [data-testid=log-line]')].map((l) => l.textContent).join('\n'),
      seats: [...document.querySelectorAll('[data-testid=seat]:not([data-empty=true]) [data-testid=seat-name]')].map((s) => s.textContent),
      logs: document.querySelectorAll('[data-testid=log]').length,
    }));
    check(r.id === id && r.name === names[id], `on screen: ${r.name} (${r.id})`);
    check(r.logs === 1, `${r.logs} hand logs in the page`);
    for (const name of others) {
      check(!r.seats.includes(name), `${names[id]} shows ${name}'s seat: ${r.seats}`);
      check(!r.log.includes(name), `${names[id]}'s log names ${name}, who plays at the other table`);
    }
  });
}

/** Ann acts at the table on screen (check, call, bring in, show): the buttons are that table's
 *  prompt's, and the act goes to that table. */
async function actOnScreen(p, id, names) {
  const w = waiting(p).find((x) => x.id === id);
  check(w, `no prompt waits at ${names[id]}`);
  const key = `${id}:${w.frame.seq}`;
  let next = null;
  await until(`${p.name}: the buttons of ${names[id]}'s prompt`, async () => {
    const buttons = await p.page.locator('[data-testid=actions] [data-testid=action]').evaluateAll((bs) => bs.map((b) => ({ action: b.dataset.action, amount: b.dataset.amount ?? null })));
    const legal = w.frame.legal.map((a) => a.kind);
    if (!buttons.length || buttons.some((b) => !legal.includes(b.action))) return false;
    check(buttons.length === w.frame.legal.length, `${names[id]}: ${buttons.length} buttons for ${legal.join(',')}`);
    next = buttons;
    return true;
  }, 8000, 50);
  const before = p.acts.get(id)?.length ?? 0;
  p.clicked.add(key);
  await clickAction(p, pickButton(next, ['check', 'call', 'bring_in', 'show']));
  await until(`${p.name}: the act sent to ${names[id]}`, async () => (p.acts.get(id)?.length ?? 0) > before, 5000, 30);
  const sent = p.acts.get(id).at(-1);
  check(sent.table_id === id && sent.seq === w.frame.seq, `the act went to ${sent.table_id} for seq ${sent.seq}`);
}

async function seatOf(p, id) {
  const res = await fetch(`http://${ADDR}/api/tables`);
  const row = (await res.json()).find((x) => x.id === id);
  return row?.players ?? [];
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  ADDR = await startServer(tmp, { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '1000', STUD_ACTION_TIMEOUT_MS: '90000', STUD_OPERATOR_KEY: OPERATOR_KEY });
  log(`server listening on http://${ADDR}`);
  const ids = {};
  const names = {};
  for (const [variant, name] of [['stud', 'Multi Stud'], ['razz', 'Multi Razz']]) {
    const { res, body } = await createTable(ADDR, OPERATOR_KEY, { ...TABLE, name, variant });
    check(res.ok && body?.id, `creating ${name}: ${res.status} ${JSON.stringify(body)}`);
    ids[variant] = body.id;
    names[body.id] = name;
  }
  const [A, B] = [ids.stud, ids.razz];
  const browser = await launchChromium();
  try {
    const players = {};
    for (const [name, width, height] of [['Ann', 1280, 800], ['Bob', 390, 844], ['Cat', 1366, 768]]) {
      const context = await browser.newContext({ viewport: { width, height } });
      await context.addInitScript(LIVE_WATCH); // the live regions' writes (checkLiveRegions)
      await context.addInitScript(SOUND_WATCH);
      players[name] = new Player(name, context, await context.newPage());
      await enterLobby(players[name], `http://${ADDR}/`, START);
    }
    const { Ann: ann, Bob: bob, Cat: cat } = players;
    const row = (p, id) => p.page.locator(`[data-testid=table-row][data-table-id="${id}"]`);

    // 1. Ann sits at the Stud table, then goes back to the lobby: her seat stays.
    await row(ann, A).locator('[data-testid=sit]').click();
    await until('Ann: at Multi Stud', async () => (await onScreenTable(ann)) === A && (await ann.page.locator('[data-testid=seat][data-me=true]').count()) === 1, 10000);
    const seatA = await ann.page.locator('[data-testid=seat][data-me=true]').getAttribute('data-seat');
    await ann.q('to-lobby').click();
    await until('Ann: the lobby while seated', async () => (await ann.q('lobby').isVisible()) && !(await ann.q('table').isVisible()), 5000);
    await eventually('Ann: the lobby says she sits at Multi Stud, its tab leads back', async () => {
      const r = await readTurns(ann);
      const a = r.rows.find((x) => x.id === A);
      check(a && a.at === 'true' && a.open && !a.sit, `Multi Stud's row: ${JSON.stringify(a)}`);
      check(r.nav && r.tabs.length === 1 && r.tabs[0].id === A && r.tabs[0].seated && !r.tabs[0].current, `the tabs: ${JSON.stringify(r.tabs)}`);
      check(!r.tabs[0].turn && r.elsewhere === '', `a turn is announced before any hand: ${JSON.stringify(r)}`);
    }, 8000);
    check((await seatOf(ann, A)).includes('Ann'), 'Ann lost her Stud seat by going to the lobby');
    log('Ann: back in the lobby, still seated at Multi Stud (its row and tab say so)');

    // 2. From the lobby she sits at the Razz table too: two tables, two tabs.
    await row(ann, B).locator('[data-testid=sit]').click();
    await until('Ann: at Multi Razz', async () => (await onScreenTable(ann)) === B && (await ann.page.locator('[data-testid=seat][data-me=true]').count()) === 1, 10000);
    await eventually('Ann: two tabs, Multi Razz current', async () => {
      const r = await readTurns(ann);
      check(r.nav && r.tabs.length === 2, `the tabs: ${JSON.stringify(r.tabs)}`);
      check(r.tabs.find((x) => x.id === B)?.current && !r.tabs.find((x) => x.id === A)?.current, `the current tab: ${JSON.stringify(r.tabs)}`);
      check(r.tabs.every((x) => x.seated), `both tabs seated: ${JSON.stringify(r.tabs)}`);
    });
    check((await seatOf(ann, A)).includes('Ann') && (await seatOf(ann, B)).includes('Ann'), 'Ann is not seated at both tables');
    check((await ann.q('sound-toggle').getAttribute('aria-pressed')) === 'true', 'a seated player\'s sounds are off by default');
    await checkAxe(ann, 'at a table with the tables\' tabs');
    log('Ann: seated at Multi Stud and Multi Razz in one page');

    // 3. Bob joins her at Stud, Cat at Razz; they check and call.
    for (const [p, id] of [[bob, A], [cat, B]]) {
      await row(p, id).locator('[data-testid=sit]').click();
      await p.q('table').waitFor({ state: 'visible', timeout: 10000 });
    }
    const bots = [bob, cat].map((p) => bot(p).catch((e) => abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e)));

    // 4. Ann plays both: at the table on screen when her turn is there, else she checks that
    // the other table's turn is announced and goes there by its tab.
    let announced = 0;
    let switches = 0;
    const count = (id) => p0acts(ann, id);
    await until(`Ann: ${ACTS} actions at each table and a hand finished at each`, async () => {
      const screen = await onScreenTable(ann);
      const pending = waiting(ann);
      const here = pending.find((x) => x.id === screen);
      const there = pending.find((x) => x.id !== screen);
      if (there && !here) {
        await checkAnnounced(ann, there.id, names);
        announced += 1;
        // By its tab, or (every other time) by the N key: the next table where her turn waits.
        if (switches % 2 === 0) await ann.page.locator(`[data-testid=table-tab][data-table-id="${there.id}"]`).click();
        else {
          await ann.page.locator('[data-testid=log]').focus();
          await ann.page.keyboard.press('n');
        }
        await until(`Ann: ${names[there.id]} on screen`, async () => (await onScreenTable(ann)) === there.id, 5000, 30);
        await checkOwnTable(ann, there.id, names, there.id === A ? ['Cat'] : ['Bob']);
        switches += 1;
        if (switches === 1) await ann.page.screenshot({ path: path.join(SHOTS, 'multitable-switched.png') });
        return false;
      }
      if (here) await actOnScreen(ann, here.id, names);
      return count(A) >= ACTS && count(B) >= ACTS && (ann.results.get(A)?.length ?? 0) >= 1 && (ann.results.get(B)?.length ?? 0) >= 1 && announced >= 2;
    }, 150000, 50);
    log(`Ann: ${count(A)} actions at Multi Stud, ${count(B)} at Multi Razz; the other table's turn announced ${announced} times (tab badge, live region, title, sound); ${switches} switches by tab or the N key`);

    // 5. To the lobby again: her turn waiting at a table is said there (its row, the live
    // region, the title, the sound); its row's Open button takes her back, seat and all.
    await ann.q('to-lobby').click();
    await until('Ann: the lobby', async () => ann.q('lobby').isVisible(), 5000);
    await until('Ann: a turn waiting while she is in the lobby', async () => waiting(ann).length > 0, 60000, 50);
    const target = waiting(ann)[0].id;
    await checkAnnounced(ann, target, names, true);
    await ann.page.screenshot({ path: path.join(SHOTS, 'multitable-lobby.png') });
    await checkAxe(ann, 'in the lobby with a turn waiting at a table');
    await row(ann, target).locator('[data-testid=lobby-open]').click();
    await until(`Ann: ${names[target]} on screen from the lobby`, async () => (await onScreenTable(ann)) === target, 5000, 30);
    await checkOwnTable(ann, target, names, target === A ? ['Cat'] : ['Bob']);
    if (target === A) check((await ann.page.locator('[data-testid=seat][data-me=true]').getAttribute('data-seat')) === seatA, 'Ann\'s Stud seat changed');
    await actOnScreen(ann, target, names);
    check((await seatOf(ann, A)).includes('Ann') && (await seatOf(ann, B)).includes('Ann'), 'Ann lost a seat on her way through the lobby');
    log(`Ann: in the lobby her turn at ${names[target]} was announced (row, live region, title, sound); Open took her back and she acted`);

    for (const p of [ann, bob, cat]) await checkLiveRegions(p, 'through the multi-table play');

    // 6. A reload: the server puts her back at both seats; one table on screen, both tabbed, and
    // she acts at each again.
    const before = { A: count(A), B: count(B) };
    ann.prompts.clear(); // a prompt still open comes again (snapshot, then your_turn)
    await ann.page.reload();
    await eventually('Ann: both tables back after a reload', async () => {
      const r = await readTurns(ann);
      check(r.tabs.length === 2 && r.tabs.every((x) => x.seated) && r.tabs.filter((x) => x.current).length === 1, `the tabs after a reload: ${JSON.stringify(r.tabs)}`);
      check([A, B].includes(await onScreenTable(ann)), 'no table on screen after a reload');
    }, 15000);
    await until('Ann: an action at each table after the reload', async () => {
      const screen = await onScreenTable(ann);
      const pending = waiting(ann);
      const here = pending.find((x) => x.id === screen);
      const there = pending.find((x) => x.id !== screen);
      if (here) await actOnScreen(ann, here.id, names);
      else if (there) {
        await ann.page.locator(`[data-testid=table-tab][data-table-id="${there.id}"]`).click();
        await until(`Ann: ${names[there.id]} on screen`, async () => (await onScreenTable(ann)) === there.id, 5000, 30);
      }
      return count(A) > before.A && count(B) > before.B;
    }, 60000, 50);
    log('Ann: after a reload both seats came back (two tabs) and she acted at each');
    for (const p of [bob, cat]) p.stop = true;
    await Promise.all(bots);
    if (run.aborted) throw run.aborted;
    checkConsole();
    // One socket for both tables, and no snapshot asked for again and again (a page that cannot
    // take a frame asks for one).
    check((ann.sent.snapshot ?? 0) <= 2, `Ann's page asked for ${ann.sent.snapshot} snapshots`);
    log(`${frames.checked} WebSocket frames matched proto/schema.json; sent by Ann: ${JSON.stringify(ann.sent)}`);
  } catch (e) {
    for (const [i, ctx] of browser.contexts().entries()) {
      for (const page of ctx.pages()) {
        const f = path.join(SHOTS, `multitable-failure-${i + 1}.png`);
        await page.screenshot({ path: f, fullPage: true }).then(() => console.log(`failure screenshot: ${path.relative(process.cwd(), f)}`), () => {});
      }
    }
    throw e;
  } finally {
    await browser.close().catch(() => {});
  }
}

/** Ann's act frames sent to a table. */
function p0acts(p, id) {
  return p.acts.get(id)?.length ?? 0;
}

await runTest('browser multi-table test', main, { overallMs: OVERALL_MS, tmp });
