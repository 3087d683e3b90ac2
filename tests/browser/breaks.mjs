// End-to-end browser test of a tournament's breaks in the web client (web/): the tournament
// view's line for the breaks in the structure (`tournament-breaks`) and its countdown while on a
// break (`tournament-on-break`); at the table the break notice (`tournament-break`: "Break —
// play resumes in 0:42") with a live countdown, in the page's flow under the top bar (never over
// the action bar, taking no focus), shown again from the tournament's detail after a reload
// (no frame then), gone at 0:00 when the next hand is dealt; no hand dealt during the break.
// An operator's pause during the break stops the page's clocks (the notice's, the view's and
// the level's stand at what was left, "(paused)", after a reload too) until the resume, when
// they count down again to the ends the pause moved on.
//
// Starts the real server with an operator key and creates a heads-up sit-and-go whose first
// level lasts one hand, with a one-minute break after every level (the second level lasts ten
// minutes, so the table's level clock runs through the break). Two headless Chromium pages
// (Ann at 1280x800 in English, Bob at 390x844 in Italian) register and play by clicking (check,
// call, bring in, show); the WebSocket frames each page receives (`tournament_break`,
// `hand_started`, ...) are the reference the DOM is checked against, and every frame is checked
// against proto/schema.json.
//
// Run from tests/browser after `cargo build -p stud-cli`:  node breaks.mjs
// STUD_BIN overrides the binary, CHROMIUM the browser, STUD_WEB_DIR serves web/ from disk.
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { CHROMIUM, Failure, LIVE_WATCH, PLAYERS, ROOT, SHOTS, abort, check, checkAxe, checkConsole, checkLiveRegions, clickAction, frames, launchChromium, log, nextPrompt, pickButton, receivedFrame, run, runTest, sleep, startServer, until, watchPage, operatorApi, enterLobby, openPanel, closePanel } from './harness.mjs';

const OPERATOR_KEY = 'browser-breaks-operator-key-0123456789';
const OVERALL_MS = 5 * 60 * 1000;
const STARTING_BALANCE = 100000; // the server's default play-money balance (cents)
const BREAK_MINUTES = 1; // the shortest break the server allows

const nb = (s) => String(s ?? '').replace(/[\u00a0\u202f]/g, ' ').replace(/\s+/g, ' ').trim();

// The page's words the test checks, in each page's language.
const WORDS = {
  en: {
    title: 'Break',
    clock: /^play resumes in [01]:\d\d$/,
    plan: '1-minute break after every level',
    onBreak: /^On a break: play resumes in [01]:\d\d$/,
    said: 'Tournament break: play resumes at ',
    stopped: ' (paused)',
    level: /^next level in \d+:\d\d$/,
  },
  it: {
    title: 'Pausa',
    clock: /^si riprende tra [01]:\d\d$/,
    plan: 'Pausa di 1 min dopo ogni livello',
    onBreak: /^In pausa: si riprende tra [01]:\d\d$/,
    said: 'Pausa del torneo: si riprende alle ',
    stopped: ' (sospeso)',
    level: /^prossimo livello tra \d+:\d\d$/,
  },
};

// Assertions retry for 5 s here (the tournament's pages re-render on a 2 s refresh).
const eventually = (desc, fn, timeoutMs = 5000) => harness.eventually(desc, fn, timeoutMs);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-breaks-'));
let ADDR = null;
const api = operatorApi(() => ADDR, OPERATOR_KEY);

// ---------------------------------------------------------------------------------------------
// A player: a browser context and page, the frames it receives, the errors it logs.

class Player {
  constructor(name, lang, context, page) {
    Object.assign(this, { name, lang, context, page });
    this.w = WORDS[lang];
    this.errors = [];
    this.prompt = null; // the latest your_turn frame
    this.clicked = new Set(); // `${table_id}:${seq}` of the prompts answered
    this.seats = []; // tournament_seat frames
    this.breaks = []; // tournament_break frames, with when they came
    this.deals = []; // hand_started frames, with when they came
    this.pauses = []; // tournament_paused frames
    this.paused = false;
    this.clicking = false;
    this.stop = false;
    PLAYERS.push(this);
    watchPage(this, page);
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (process.env.DEBUG && !['pong', 'event'].includes(m.type)) log(`${this.name} < ${m.type}`);
    if (m.type === 'your_turn') this.prompt = m;
    else if (m.type === 'tournament_seat') this.seats.push(m);
    else if (m.type === 'tournament_break') this.breaks.push({ ...m, at: Date.now() });
    else if (m.type === 'hand_started') this.deals.push({ ...m, at: Date.now() });
    else if (m.type === 'tournament_paused') this.pauses.push(m);
  }

  q(id) {
    return this.page.locator(`[data-testid=${id}]`);
  }

  async text(id) {
    return nb(await this.q(id).first().textContent());
  }

  async attr(id, name) {
    return this.q(id).first().getAttribute(name);
  }

  async shot(file) {
    const p = path.join(SHOTS, file);
    await this.page.screenshot({ path: p, fullPage: false });
    log(`${this.name}: screenshot ${path.relative(ROOT, p)}`);
  }

  row(id) {
    return this.page.locator(`[data-testid=tournament-row][data-tournament-id="${id}"]`);
  }

  /** The break notice as the page shows it (null when hidden), where it lies, and whether the
   *  focus is in it. */
  breakBox() {
    return this.page.evaluate(() => {
      const box = document.querySelector('[data-testid=tournament-break]');
      if (!box || !box.checkVisibility()) return null;
      const q = (id) => box.querySelector(`[data-testid=${id}]`);
      const text = (n) => (n ? n.textContent.replace(/[\u00a0\u202f]/g, ' ').trim() : '');
      const rect = (n) => {
        if (!n || !n.checkVisibility()) return null;
        const b = n.getBoundingClientRect();
        return { x: b.x, y: b.y, r: b.right, b: b.bottom };
      };
      return {
        tournament: box.dataset.tournamentId, until: Number(box.dataset.until), paused: box.dataset.paused ?? null,
        title: text(q('tournament-break-title')), clock: text(q('tournament-break-clock')), ms: Number(q('tournament-break-clock').dataset.ms),
        // What is on screen (the screen reader's line, visually hidden, apart).
        shown: [...box.children].filter((c) => !c.classList.contains('sr-only')).map((c) => c.textContent).join(' ').replace(/[\u00a0\u202f]/g, ' ').replace(/\s+/g, ' ').trim(),
        said: text(box.querySelector('.sr-only[role=status]')),
        position: getComputedStyle(box).position, box: rect(box), bar: rect(document.querySelector('[data-testid=action-bar]')),
        table: rect(document.querySelector('[data-testid=table]')), focusInside: box.contains(document.activeElement),
        live: [...box.querySelectorAll('[aria-live], [role=status], [role=alert], [role=timer]')].map((n) => n.id),
      };
    });
  }
}

// No horizontal overflow: the page fits its window's width.
async function checkFits(p, where) {
  const r = await p.page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth }));
  check(r.sw <= r.w + 1, `${p.name}: the page overflows ${where}: scrollWidth ${r.sw} > ${r.w}`);
}

// Plays whenever the page shows action buttons: check, call, bring in, show (stacks stay deep:
// nobody busts in the few hands played).
async function bot(p) {
  while (!p.stop) {
    if (run.aborted) return;
    const next = p.paused ? null : await nextPrompt(p);
    if (!next || p.paused) {
      await sleep(60);
      continue;
    }
    const choice = pickButton(next.buttons, ['check', 'call', 'bring_in', 'show']);
    p.clicked.add(next.key);
    p.clicking = true;
    await clickAction(p, choice).catch((e) => {
      if (!p.stop && !p.paused) throw e;
    }).finally(() => { p.clicking = false; });
  }
}

async function runBot(p) {
  try {
    await bot(p);
  } catch (e) {
    abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e);
  }
}

/** Stops a page's bot before the test clicks in that page itself: waits for a click under way. */
async function hold(p) {
  p.paused = true;
  await until(`${p.name}: the bot's click under way done`, () => !p.clicking, 6000, 20);
}

const enter = (p, url) => enterLobby(p, url, STARTING_BALANCE);

/** The break notice on `p`'s page says the break `brk` (the frame): its tournament and end, the
 *  words "Break — play resumes in m:ss", in the page's flow, over nothing, without the focus,
 *  and its clock in no live region. */
async function checkNotice(p, id, brk, where) {
  return eventually(`${p.name}: the break notice ${where}`, async () => {
    const n = await p.breakBox();
    check(n, 'no [data-testid=tournament-break] shown');
    check(n.tournament === id && n.until === brk.until_ms, `the notice's data: tournament ${n.tournament}, until ${n.until}; the frame says ${id}, ${brk.until_ms}`);
    check(n.title === p.w.title, `the notice's title says ${JSON.stringify(n.title)}`);
    check(p.w.clock.test(n.clock), `the notice's clock says ${JSON.stringify(n.clock)}`);
    check(n.shown === `${p.w.title} — ${n.clock}`, `the notice reads ${JSON.stringify(n.shown)}, expected "${p.w.title} — ${n.clock}"`);
    const left = brk.until_ms - Date.now();
    check(n.ms > 0 && Math.abs(n.ms - left) < 1500, `the notice's clock has data-ms ${n.ms}, ${left} ms are left to the frame's until_ms`);
    check(['static', 'relative'].includes(n.position), `the notice is position ${n.position} (it must be in the page's flow)`);
    const overlaps = (a, b) => a && b && a.x < b.r && b.x < a.r && a.y < b.b && b.y < a.b;
    check(!overlaps(n.box, n.bar), `the notice ${JSON.stringify(n.box)} overlaps the action bar ${JSON.stringify(n.bar)}`);
    check(!n.table || n.table.y >= n.box.b - 1, `the notice ${JSON.stringify(n.box)} lies over the table ${JSON.stringify(n.table)} (the table must start under it)`);
    check(!n.focusInside, 'the notice took the focus');
    check(n.said.startsWith(p.w.said) && !n.said.includes(n.clock), `the notice's line for a screen reader says ${JSON.stringify(n.said)}`);
    check(n.live.every((x) => x !== 'tournament-break-clock'), 'the ticking clock is in a live region');
    return n;
  });
}

// ---------------------------------------------------------------------------------------------

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  ADDR = await startServer(tmp, { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '1000', STUD_ACTION_TIMEOUT_MS: '60000', STUD_OPERATOR_KEY: OPERATOR_KEY });
  log(`server listening on http://${ADDR}`);
  // Level 1 lasts one hand, then the break; level 2 lasts long enough for the rest of the test,
  // on a clock (level 3 follows it: the last level has none).
  const created = await api('POST', '/api/admin/tournaments', {
    name: 'Break SNG', variant: 'stud', kind: 'sit_and_go', min_entrants: 2, max_entrants: 2, seats_per_table: 2,
    entry_fee: 500, house_fee: 50, starting_chips: 2000, payouts: [100],
    levels: [
      { ante: 5, bring_in: 10, small_bet: 20, big_bet: 40, hands: 1 },
      { ante: 10, bring_in: 20, small_bet: 40, big_bet: 80, minutes: 10 },
      { ante: 20, bring_in: 40, small_bet: 80, big_bet: 160, hands: 100 },
    ],
    break_every_levels: 1, break_minutes: BREAK_MINUTES,
  });
  check(created.status === 201 && created.json?.id, `creating the sit-and-go with breaks: ${created.status} ${created.text}`);
  const id = created.json.id;
  log(`tournament created: ${id}`);
  const browser = await launchChromium();
  try {
    const players = [];
    for (const [name, lang, width, height] of [['Ann', 'en', 1280, 800], ['Bob', 'it', 390, 844]]) {
      const context = await browser.newContext({ viewport: { width, height } });
      await context.addInitScript(LIVE_WATCH); // the live regions' writes (checkLiveRegions)
      players.push(new Player(name, lang, context, await context.newPage()));
    }
    const [a, b] = players;
    const url = `http://${ADDR}/`;
    for (const p of players) await enter(p, url);

    // 1. Before the start, the view's structure says the breaks; no break now.
    await until(`${a.name}: the tournament's row`, async () => a.row(id).isVisible(), 10000);
    await a.row(id).locator('[data-testid=tournament-open]').click();
    await eventually(`${a.name}: the breaks in the structure`, async () => {
      check(await a.q('tournament-breaks').isVisible(), 'no [data-testid=tournament-breaks] in the view');
      check((await a.text('tournament-breaks')) === a.w.plan, `the breaks say ${JSON.stringify(await a.text('tournament-breaks'))}`);
      check(!(await a.q('tournament-on-break').isVisible()), 'a break shown before the start');
    });
    await checkAxe(a, 'in the tournament view with its breaks line');
    await a.page.locator('[data-testid=tournament] [data-testid=tournament-register]').click();
    await until(`${a.name}: registered from the view`, async () => (await a.page.locator('[data-testid=tournament] [data-testid=tournament-unregister]').count()) === 1, 5000);
    await a.q('tournament-back').click();
    const reg = b.row(id).locator('[data-testid=tournament-register]');
    await until(`${b.name}: the register button`, async () => reg.isVisible(), 10000);
    await reg.click();
    const bots = players.map((p) => runBot(p));
    for (const p of players) {
      await until(`${p.name}: tournament_seat, then the tournament table`, async () => p.seats.length > 0 && (await p.q('table').isVisible()), 20000);
    }
    log('both seated by the tournament; they check and call');

    // 2. The first level (one hand) ends: the break. Both pages are told it (the same end).
    await until('tournament_break on both pages', () => players.every((p) => p.breaks.length > 0), 90000, 50);
    let brk = a.breaks[0];
    check(b.breaks[0].until_ms === brk.until_ms && brk.tournament_id === id, `the pages were told different breaks: ${JSON.stringify(a.breaks[0])} and ${JSON.stringify(b.breaks[0])}`);
    const left = brk.until_ms - Date.now();
    check(left > 30000 && left <= BREAK_MINUTES * 60000 + 1000, `the break ends in ${left} ms (a ${BREAK_MINUTES}-minute break)`);
    const dealsAtBreak = players.map((p) => p.deals.length);
    check(dealsAtBreak.every((n) => n >= 1), `hands dealt before the break: ${dealsAtBreak}`);
    const tablesAtBreak = (await api('GET', `/api/tournaments/${id}`)).json;
    check(tablesAtBreak.on_break_until === brk.until_ms, `the detail's on_break_until is ${tablesAtBreak.on_break_until}, the frame says ${brk.until_ms}`);
    const handsAtBreak = tablesAtBreak.tables.map((x) => x.hands).join(',');
    log(`the break: until ${new Date(brk.until_ms).toISOString()} (${left} ms); tables' hands ${handsAtBreak}`);

    // 3. The notice on both pages, its clock counting down.
    const first = [];
    for (const p of players) first.push(await checkNotice(p, id, brk, 'once the break frame came'));
    await sleep(1300);
    for (const [i, p] of players.entries()) {
      const n = await checkNotice(p, id, brk, '1.3 s later');
      check(n.ms < first[i].ms - 900 && n.clock !== first[i].clock, `${p.name}: the notice's clock did not count down: ${first[i].clock} (${first[i].ms}) then ${n.clock} (${n.ms})`);
      log(`${p.name}: the notice reads "${n.shown}"; its clock went ${first[i].clock} -> ${n.clock}`);
    }
    await checkFits(b, 'with the break notice at 390 px');
    await a.shot('break-ann.png');
    await b.shot('break-bob-390.png');
    for (const p of players) await checkAxe(p, 'at the table during the break, the notice shown');

    // 4. The tournament view during the break: the structure's line and the countdown.
    for (const p of players) {
      await hold(p);
      await openPanel(p);
      await eventually(`${p.name}: the tournament view during the break`, async () => {
        check((await p.text('tournament-breaks')) === p.w.plan, `the breaks say ${JSON.stringify(await p.text('tournament-breaks'))}`);
        const on = p.q('tournament-on-break');
        check(await on.isVisible(), 'no [data-testid=tournament-on-break] during the break');
        check(p.w.onBreak.test(await p.text('tournament-on-break')), `the view says ${JSON.stringify(await p.text('tournament-on-break'))}`);
        check(Number(await on.getAttribute('data-until')) === brk.until_ms, `data-until ${await on.getAttribute('data-until')}, the frame says ${brk.until_ms}`);
        check(Math.abs(Number(await on.getAttribute('data-ms')) - (brk.until_ms - Date.now())) < 1500, `data-ms ${await on.getAttribute('data-ms')}`);
      });
      if (p === a) await p.shot('break-view-ann.png');
      await checkAxe(p, 'in the tournament panel during the break');
      log(`${p.name}: the view says "${await p.text('tournament-breaks')}" and "${await p.text('tournament-on-break')}"`);
      await closePanel(p);
      p.paused = false;
    }

    // 5. Bob reloads: no frame comes again; the notice comes back from the tournament's detail.
    const framesBefore = b.breaks.length;
    await hold(b);
    await b.page.reload();
    await until(`${b.name}: back at the tournament table after the reload`, async () => b.q('table').isVisible(), 15000);
    await checkNotice(b, id, brk, 'after a reload (from the detail)');
    check(b.breaks.length === framesBefore, `${b.name}: a tournament_break frame came again after the reload`);
    log(`${b.name}: after a reload the notice came back from the detail (no frame)`);
    b.paused = false;

    // 6. The operator pauses the tournament during the break: the server stops every clock, and
    //    so does every page. The notice, the table's level clock and Ann's panel stand at what
    //    was left when it stopped (the detail's ends less its paused_since), "(paused)" after
    //    them, the same 2.6 s later (a detail refresh between); Bob reloads and sees the same.
    //    Resumed: the break's end moved on by the pause, the clocks count down to it again.
    const pausing = await api('POST', `/api/admin/tournaments/${id}/pause`);
    check(pausing.status >= 200 && pausing.status < 300, `pausing: ${pausing.status} ${pausing.text}`);
    await until('tournament_paused {paused: true} on both pages', () => players.every((p) => p.pauses.some((m) => m.tournament_id === id && m.paused === true)), 10000, 50);
    const pd = (await api('GET', `/api/tournaments/${id}`)).json;
    check(pd.paused_since > 0 && pd.on_break_until === brk.until_ms && pd.next_level_at > brk.until_ms, `the detail while paused: paused_since ${pd.paused_since}, on_break_until ${pd.on_break_until}, next_level_at ${pd.next_level_at}`);
    const breakLeft = brk.until_ms - pd.paused_since;
    const levelLeft = pd.next_level_at - pd.paused_since;
    log(`paused at ${new Date(pd.paused_since).toISOString()}: ${breakLeft} ms of the break and ${levelLeft} ms of level 2 left`);
    /** The clocks on `p`'s page stand where the pause stopped them; what they show. */
    const stopped = (p, where) => eventually(`${p.name}: the clocks stopped ${where}`, async () => {
      const n = await p.breakBox();
      check(n, 'no [data-testid=tournament-break] shown while paused');
      check(n.ms === breakLeft, `the notice's clock has data-ms ${n.ms}; ${breakLeft} ms of the break were left at the pause`);
      check(n.paused === 'true', `the notice's data-paused is ${n.paused}`);
      check(n.until === brk.until_ms, `the notice's data-until ${n.until}, the break's end ${brk.until_ms}`);
      check(n.clock.endsWith(p.w.stopped) && p.w.clock.test(n.clock.slice(0, -p.w.stopped.length)), `the notice's clock says ${JSON.stringify(n.clock)}`);
      check(n.shown === `${p.w.title} — ${n.clock}`, `the notice reads ${JSON.stringify(n.shown)}`);
      const lc = p.q('tournament-table-clock');
      const ms = Number(await lc.getAttribute('data-ms'));
      const text = nb(await lc.textContent());
      check(ms === levelLeft, `the level clock has data-ms ${ms}; ${levelLeft} ms of the level were left at the pause`);
      check((await lc.getAttribute('data-paused')) === 'true', `the level clock's data-paused is ${await lc.getAttribute('data-paused')}`);
      check(text.endsWith(p.w.stopped) && p.w.level.test(text.slice(0, -p.w.stopped.length)), `the level clock says ${JSON.stringify(text)}`);
      check(await p.page.locator('[data-testid=tournament-bar] [data-testid=tournament-paused]').isVisible(), 'no "paused" status in the tournament bar');
      return { clock: n.clock, level: text };
    });
    const stood = [];
    for (const p of players) stood.push(await stopped(p, 'once paused'));
    await sleep(2600);
    for (const [i, p] of players.entries()) {
      const again = await stopped(p, '2.6 s later');
      check(again.clock === stood[i].clock && again.level === stood[i].level, `${p.name}: the clocks moved while paused: ${JSON.stringify(stood[i])} then ${JSON.stringify(again)}`);
      log(`${p.name}: paused, the notice reads "${stood[i].clock}" and the level clock "${stood[i].level}", 2.6 s later the same`);
    }
    await a.shot('break-paused-ann.png');
    await hold(a);
    await openPanel(a);
    await eventually(`${a.name}: the tournament view's clocks stopped`, async () => {
      const on = a.q('tournament-on-break');
      const text = await a.text('tournament-on-break');
      check(await on.isVisible(), 'no [data-testid=tournament-on-break] while paused');
      check(text.endsWith(a.w.stopped) && a.w.onBreak.test(text.slice(0, -a.w.stopped.length)), `the view says ${JSON.stringify(text)}`);
      check(Number(await on.getAttribute('data-ms')) === breakLeft && (await on.getAttribute('data-paused')) === 'true', `tournament-on-break: data-ms ${await on.getAttribute('data-ms')}, data-paused ${await on.getAttribute('data-paused')}`);
      const lc = a.q('tournament-clock');
      check(Number(await lc.getAttribute('data-ms')) === levelLeft && (await lc.getAttribute('data-paused')) === 'true', `tournament-clock: data-ms ${await lc.getAttribute('data-ms')}, data-paused ${await lc.getAttribute('data-paused')}`);
      check((await a.text('tournament-clock')).endsWith(a.w.stopped), `tournament-clock says ${JSON.stringify(await a.text('tournament-clock'))}`);
    });
    await checkAxe(a, 'in the tournament panel during a paused break');
    await closePanel(a);
    a.paused = false;
    await hold(b);
    await b.page.reload();
    await until(`${b.name}: back at the tournament table after a reload while paused`, async () => b.q('table').isVisible(), 15000);
    await stopped(b, 'after a reload (from the detail\'s paused_since)');
    b.paused = false;
    log(`${a.name}'s panel stood too; ${b.name}'s page after a reload as well`);
    const resuming = await api('POST', `/api/admin/tournaments/${id}/resume`);
    check(resuming.status >= 200 && resuming.status < 300, `resuming: ${resuming.status} ${resuming.text}`);
    await until('tournament_paused {paused: false} on both pages', () => players.every((p) => p.pauses.some((m) => m.tournament_id === id && m.paused === false)), 10000, 50);
    const rd = (await api('GET', `/api/tournaments/${id}`)).json;
    const pauseMs = rd.on_break_until - brk.until_ms;
    check(rd.paused_since == null && pauseMs > 2600 && Math.abs(rd.on_break_until - (Date.now() + breakLeft)) < 1500, `the detail once resumed: paused_since ${rd.paused_since}, on_break_until ${rd.on_break_until} (the break's end was ${brk.until_ms}; ${breakLeft} ms were left)`);
    check(rd.next_level_at - pd.next_level_at === pauseMs, `the level's end moved on by ${rd.next_level_at - pd.next_level_at} ms, the break's by ${pauseMs}`);
    const resumedBreak = { ...brk, until_ms: rd.on_break_until };
    const going = [];
    for (const p of players) {
      going.push(await checkNotice(p, id, resumedBreak, 'once resumed'));
      await eventually(`${p.name}: the level clock running again`, async () => {
        const lc = p.q('tournament-table-clock');
        const ms = Number(await lc.getAttribute('data-ms'));
        check((await lc.getAttribute('data-paused')) === null, 'the level clock still says paused');
        check(p.w.level.test(nb(await lc.textContent())), `the level clock says ${JSON.stringify(nb(await lc.textContent()))}`);
        check(Math.abs(ms - (rd.next_level_at - Date.now())) < 1500, `the level clock has data-ms ${ms}, ${rd.next_level_at - Date.now()} ms are left to the moved end`);
      });
    }
    await sleep(1300);
    for (const [i, p] of players.entries()) {
      const n = await checkNotice(p, id, resumedBreak, '1.3 s after the resume');
      check(n.ms < going[i].ms - 900 && n.paused === null, `${p.name}: the notice's clock did not count down after the resume: ${going[i].clock} (${going[i].ms}) then ${n.clock} (${n.ms})`);
    }
    log(`resumed after ${pauseMs} ms: the break now ends at ${new Date(rd.on_break_until).toISOString()}; both pages count down to it again`);
    brk = resumedBreak; // the break's end from here on

    // 7. No hand is dealt during the break; the notice goes at 0:00, when the next hand is dealt.
    await until('the break almost over', () => Date.now() >= brk.until_ms - 2500, 70000, 100);
    for (const [i, p] of players.entries()) {
      const during = p.deals.slice(dealsAtBreak[i]);
      check(during.length === 0, `${p.name}: a hand dealt during the break: ${JSON.stringify(during.map((d) => ({ hand: d.hand_id, at: d.at - brk.until_ms })))}`);
      check(await p.breakBox(), `${p.name}: the notice went before the break's end`);
    }
    const hands = (await api('GET', `/api/tournaments/${id}`)).json.tables.map((x) => x.hands).join(',');
    check(hands === handsAtBreak, `the tables played hands during the break: ${handsAtBreak} then ${hands}`);
    const gone = {};
    await until('the notice gone on both pages', async () => {
      for (const p of players) if (!gone[p.name] && !(await p.breakBox())) gone[p.name] = Date.now();
      return players.every((p) => gone[p.name]);
    }, 10000, 40);
    for (const p of players) check(gone[p.name] >= brk.until_ms - 300, `${p.name}: the notice went ${brk.until_ms - gone[p.name]} ms before the break's end`);
    await until('a hand dealt after the break on both pages', () => players.every((p, i) => p.deals.length > dealsAtBreak[i]), 20000, 50);
    for (const [i, p] of players.entries()) {
      const dealt = p.deals[dealsAtBreak[i]];
      check(dealt.at >= brk.until_ms - 300, `${p.name}: the next hand came ${brk.until_ms - dealt.at} ms before the break's end`);
      check(!(await p.breakBox()), `${p.name}: the notice is back after the next hand was dealt`);
    }
    log(`no hand dealt during the break; the notice went at ${players.map((p) => `${p.name} ${gone[p.name] - brk.until_ms} ms`).join(', ')} after its end, and the next hand came`);
    await hold(a);
    await openPanel(a);
    await eventually(`${a.name}: the view after the break`, async () => {
      check(!(await a.q('tournament-on-break').isVisible()), 'the view still shows the break');
      check((await a.text('tournament-breaks')) === a.w.plan, 'the structure\'s line went');
    });
    await closePanel(a);
    a.paused = false;

    for (const p of players) {
      const writes = await checkLiveRegions(p, 'through the break');
      log(`${p.name}: live regions written only with news (${Object.entries(writes).map(([k, n]) => `${k} ${n}`).join(', ')})`);
    }
    for (const p of players) p.stop = true;
    await Promise.all(bots);
    if (run.aborted) throw run.aborted;
    checkConsole();
    log(`${frames.checked} WebSocket frames matched proto/schema.json`);
  } catch (e) {
    for (const [i, ctx] of browser.contexts().entries()) {
      for (const page of ctx.pages()) {
        const f = path.join(SHOTS, `breaks-failure-${i + 1}.png`);
        await page.screenshot({ path: f, fullPage: true }).then(() => console.log(`failure screenshot: ${path.relative(process.cwd(), f)}`), () => {});
      }
    }
    throw e;
  } finally {
    await browser.close().catch(() => {});
  }
}

await runTest('browser breaks test', main, { overallMs: OVERALL_MS, tmp });
