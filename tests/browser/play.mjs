// End-to-end browser test of the stud web client (web/index.html + web/app.js).
//
// Starts the real server on a free port, opens the page in two headless Chromium contexts
// (two people), sits both at the Stud table and plays hands by clicking the action buttons,
// checking the page's DOM contract (its data-testid selectors; see README.md here) at every
// prompt. Then: a dropped connection and its reconnection, LAST HAND with its report and
// downloads, no console errors, and the layout at 390 px and 1280 px.
//
// The WebSocket frames each page receives are observed (Playwright's page.on('websocket')) as
// the reference the DOM is checked against: which hand is in play, the cards dealt, the legal
// actions, the hand ends.
//
// Run from the repo root after `cargo build -p stud-cli`:  node tests/browser/play.mjs
// STUD_BIN overrides the binary (default $CARGO_TARGET_DIR/debug/stud, else target/debug/stud); CHROMIUM the browser
// (default /usr/bin/chromium). Exits 1 with "FAIL: ..." on the first failure.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const SHOTS = path.join(HERE, 'screenshots');
const TARGET = process.env.CARGO_TARGET_DIR ? path.resolve(ROOT, process.env.CARGO_TARGET_DIR) : path.join(ROOT, 'target');
const BIN = process.env.STUD_BIN ? path.resolve(process.env.STUD_BIN) : path.join(TARGET, 'debug', 'stud');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const HANDS = 3; // complete hands both pages must see before the reconnect
const OVERALL_MS = 8 * 60 * 1000;

const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s]`, ...a);

class Failure extends Error {}
function fail(msg) {
  throw new Failure(msg);
}
function check(cond, msg) {
  if (!cond) fail(typeof msg === 'function' ? msg() : msg);
}

// The first failure anywhere (the bots run concurrently with the main flow) stops the test.
let aborted = null;
function abort(e) {
  if (!aborted) aborted = e;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(desc, cond, timeoutMs = 20000, everyMs = 100) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    if (aborted) throw aborted;
    checkConsole();
    try {
      if (await cond()) return;
      last = undefined;
    } catch (e) {
      if (e instanceof Failure) throw e;
      last = e;
    }
    if (Date.now() > end) fail(`timed out after ${timeoutMs} ms waiting for: ${desc}${last ? ` (last error: ${last.message})` : ''}`);
    await sleep(everyMs);
  }
}
// Console errors fail the test as soon as they are seen.
const PLAYERS = [];
function checkConsole() {
  for (const p of PLAYERS) check(p.errors.length === 0, `${p.name}: ${p.errors.length} console error(s):\n  ${p.errors.join('\n  ')}`);
}
// Retries a set of assertions for a while (the page may render a moment after the frame).
async function eventually(desc, fn, timeoutMs = 2500) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (aborted) throw aborted;
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof Failure) || Date.now() > end) {
        if (e instanceof Failure) fail(`${desc}: ${e.message}`);
        throw e;
      }
    }
    await sleep(100);
  }
}

// Seeded choices, so a run can be repeated (STUD_BROWSER_SEED).
let rng = Number(process.env.STUD_BROWSER_SEED || 7) >>> 0;
function random() {
  rng = (rng + 0x6d2b79f5) >>> 0;
  let t = rng;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// ---------------------------------------------------------------------------------------------
// The server

const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-browser-'));
const serverLog = [];
let server = null;

function startServer() {
  check(existsSync(BIN), `no server binary at ${BIN}: run \`cargo build -p stud-cli\` first, or set STUD_BIN`);
  const env = { ...process.env, STUD_HAND_PAUSE_MS: '800', STUD_ACTION_TIMEOUT_MS: '20000', RUST_LOG: 'info', NO_COLOR: '1' };
  delete env.STUD_LOG_FORMAT;
  const args = ['serve', '--bind', '127.0.0.1:0', '--database-url', `sqlite://${path.join(tmp, 'stud.db')}`, '--tables-per-variant', '1'];
  log(`server: ${BIN} ${args.join(' ')}`);
  server = spawn(BIN, args, { cwd: tmp, env, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Failure('the server printed no "listening on http://ADDR" within 60 s')), 60000);
    let buf = '';
    server.stderr.setEncoding('utf8');
    server.stderr.on('data', (chunk) => {
      buf += chunk;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
        buf = buf.slice(i + 1);
        serverLog.push(line);
        if (serverLog.length > 200) serverLog.shift();
        const rest = line.split('listening on http://')[1];
        if (rest !== undefined) {
          const addr = rest.trim().split(/\s/)[0].replace(/[^0-9.:]/g, '');
          clearTimeout(timer);
          resolve(addr);
        }
      }
    });
    server.on('exit', (code, sig) => {
      clearTimeout(timer);
      if (!stopping) {
        const e = new Failure(`the server exited (code ${code}, signal ${sig})`);
        reject(e);
        abort(e);
      }
    });
  });
}

let stopping = false;
async function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  stopping = true;
  const gone = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  if (await Promise.race([gone.then(() => true), sleep(5000).then(() => false)])) return;
  server.kill('SIGKILL');
  await gone;
}
process.on('exit', () => {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
});

// A TCP relay in front of the server for the second page: the page loads its origin and opens
// its WebSocket through it, so the test can cut the live connection. (Chromium's offline
// emulation, used as well, blocks new connections but leaves an open WebSocket alone.)
function startRelay(target) {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const open = new Set();
  let down = false;
  const relay = net.createServer((c) => {
    if (down) return c.resetAndDestroy();
    const u = net.connect(port, host);
    open.add(c);
    open.add(u);
    const end = () => {
      open.delete(c);
      open.delete(u);
      if (!c.destroyed) c.destroy();
      if (!u.destroyed) u.destroy();
    };
    c.on('error', end).on('close', end);
    u.on('error', end).on('close', end);
    c.pipe(u);
    u.pipe(c);
  });
  return new Promise((resolve) =>
    relay.listen(0, '127.0.0.1', () =>
      resolve({
        addr: `127.0.0.1:${relay.address().port}`,
        cut() {
          down = true;
          const n = open.size;
          for (const s of [...open]) {
            try {
              s.resetAndDestroy();
            } catch {
              s.destroy();
            }
          }
          return n;
        },
        restore() {
          down = false;
        },
        close() {
          for (const s of [...open]) s.destroy();
          relay.close();
        },
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// A player: one browser context and page, the frames it receives, the errors it logs.

const CARD = /^[2-9TJQKA][cdhs]$/;
const NETWORK_NOISE = /ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_(REFUSED|RESET|CLOSED|ABORTED)|ERR_NETWORK_CHANGED|WebSocket connection to .* failed|Failed to load resource: net::ERR_/;

class Player {
  constructor(name, context, page) {
    this.name = name;
    this.context = context;
    this.page = page;
    this.errors = [];
    this.ignored = [];
    this.offlineWindow = null; // [start, end|null] while the test drops the connection on purpose
    this.hands = new Map(); // hand_id -> { number, dealt: [{seat, card, up}], shown: Map, showdown, ended }
    this.order = []; // hand ids in the order they started
    this.current = null;
    this.results = []; // hand ids whose hand_result arrived
    this.prompt = null; // the latest your_turn frame
    this.promptState = 'none'; // 'mine' after your_turn, 'other' after turn, 'none' after hand_result
    this.clickedSeq = -1;
    this.clicks = 0;
    this.tasks = []; // run at the next prompt, before acting
    this.stop = false;
    this.mySeat = null;
    this.buyIn = 0;
    this.shots = {};
    this.sockets = 0;
    PLAYERS.push(this);
    this.logSeen = new Set(); // every [data-testid=log-line] text seen
    this.lastResultAt = 0;

    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      const loc = m.location();
      const text = `${m.text()}${loc && loc.url ? ` (at ${loc.url}:${loc.lineNumber})` : ''}`;
      const w = this.offlineWindow;
      if (w && Date.now() >= w[0] && (w[1] === null || Date.now() <= w[1]) && NETWORK_NOISE.test(m.text())) {
        this.ignored.push(text);
        return;
      }
      this.errors.push(`console error: ${text}`);
    });
    page.on('pageerror', (e) => this.errors.push(`uncaught exception: ${e.stack || e.message}`));
    page.on('websocket', (ws) => {
      this.sockets += 1;
      ws.on('framereceived', ({ payload }) => this.frame(typeof payload === 'string' ? payload : payload.toString('utf8')));
    });
  }

  hand(id) {
    if (!this.hands.has(id)) {
      this.hands.set(id, { id, number: null, dealt: [], shown: new Map(), showdown: false, ended: false });
      this.order.push(id);
    }
    return this.hands.get(id);
  }

  frame(text) {
    let m;
    try {
      m = JSON.parse(text);
    } catch {
      return;
    }
    switch (m.type) {
      case 'hand_started':
        this.hand(m.hand_id).number = m.number;
        this.current = m.hand_id;
        this.promptState = 'none';
        break;
      case 'event': {
        const h = this.hand(m.hand_id);
        const e = m.event || {};
        if (e.event === 'dealt') h.dealt.push({ seat: e.seat, card: e.card, up: e.up });
        else if (e.event === 'showdown') h.showdown = true;
        else if (e.event === 'shown') h.shown.set(e.seat, e.cards);
        break;
      }
      case 'your_turn':
        this.prompt = m;
        this.promptState = 'mine';
        break;
      case 'turn':
        this.promptState = 'other';
        break;
      case 'hand_result':
        this.hand(m.hand_id).ended = true;
        this.lastResultAt = Date.now();
        this.results.push(m.hand_id);
        this.promptState = 'none';
        break;
      default:
    }
  }

  async shot(key, file, opts = {}) {
    const p = path.join(SHOTS, file);
    await this.page.screenshot({ path: p, fullPage: true, ...opts });
    this.shots[key] = p;
    log(`${this.name}: screenshot ${path.relative(ROOT, p)}`);
    return p;
  }

  // Everything the prompt checks need, read in one go.
  snapshot() {
    return this.page.evaluate(() => {
      const q = (sel, root = document) => root.querySelector(`[data-testid=${sel}]`);
      const qa = (sel, root = document) => [...root.querySelectorAll(`[data-testid=${sel}]`)];
      const seats = qa('seat', q('table') || document).map((s) => ({
        seat: s.getAttribute('data-seat'),
        me: s.getAttribute('data-me') === 'true',
        name: q('seat-name', s)?.textContent.trim() ?? null,
        stack: q('seat-stack', s)?.getAttribute('data-amount') ?? null,
        folded: s.getAttribute('data-folded') === 'true',
        cards: qa('card', s).map((c) => ({ card: c.getAttribute('data-card'), down: c.getAttribute('data-down') === 'true' })),
      }));
      const actions = qa('action', q('actions') || document.createElement('div')).map((b) => ({
        action: b.getAttribute('data-action'),
        amount: b.getAttribute('data-amount'),
      }));
      return {
        seats,
        pot: q('pot')?.getAttribute('data-amount') ?? null,
        actions,
        logLines: qa('log-line').map((l) => l.textContent.trim()),
        status: q('status')?.getAttribute('data-state') ?? null,
        statusText: q('status')?.textContent.trim() ?? null,
        turn: q('turn')?.textContent.trim() ?? '',
        clock: q('clock')?.textContent.trim() ?? '',
      };
    });
  }
}

const legalKey = (kind, to) => (['bet', 'raise', 'complete'].includes(kind) ? `${kind}:${to}` : kind);
const sortedKeys = (xs) => [...xs].sort().join(', ');
const multiset = (cards) => cards.map((c) => `${c.card}${c.down ? '(down)' : ''}`).sort().join(' ');

// Checked at every prompt: the buttons are exactly the legal actions; own down cards face up
// and equal to the cards dealt; the opponent's down cards are backs (before showdown); the
// stacks plus the pot equal the two buy-ins; the log has lines; the status says connected.
async function checkPrompt(p, opp, prompt) {
  const legal = prompt.legal.map((a) => legalKey(a.kind, a.to));
  const showdown = prompt.legal.some((a) => a.kind === 'show' || a.kind === 'muck');
  const h = p.hands.get(prompt.hand_id);
  return eventually(`${p.name}, prompt seq ${prompt.seq}`, async () => {
    const s = await p.snapshot();
    const shown = sortedKeys(s.actions.map((a) => legalKey(a.action, a.amount === null ? null : Number(a.amount))));
    check(shown === sortedKeys(legal), `[data-testid=actions] buttons are {${shown}}, the legal actions are {${sortedKeys(legal)}}`);
    check(s.status === 'connected', `[data-testid=status] data-state is ${JSON.stringify(s.status)}, expected "connected"`);
    check(s.logLines.length > 0, '[data-testid=log] has no [data-testid=log-line] during a hand');
    const mine = s.seats.filter((x) => x.me);
    check(mine.length === 1, `${mine.length} seats have data-me="true", expected 1`);
    const me = mine[0];
    check(Number(me.seat) === p.mySeat, `data-me seat is ${me.seat}, the player sits at ${p.mySeat}`);
    const occupied = s.seats.filter((x) => x.stack !== null);
    check(occupied.length === 2, `${occupied.length} seats show a [data-testid=seat-stack], expected 2`);
    const other = occupied.find((x) => !x.me);
    check(other && Number(other.seat) === opp.mySeat, `the opponent's seat ${other?.seat} is not ${opp.mySeat}`);
    check(me.name?.includes(p.name) && other.name?.includes(opp.name), `[data-testid=seat-name]s are ${JSON.stringify(me.name)}/${JSON.stringify(other.name)}, expected ${p.name}/${opp.name}`);
    check(s.turn, '[data-testid=turn] is empty or missing at a prompt');
    check(/\d/.test(s.clock || ''), `[data-testid=clock] shows ${JSON.stringify(s.clock)} at a prompt, expected the seconds left`);

    // Own down cards: face up, real values.
    const myDown = me.cards.filter((c) => c.down);
    check(myDown.length >= 2, `own seat shows ${myDown.length} down cards (data-down="true"), expected at least 2`);
    for (const c of me.cards) check(CARD.test(c.card), `own seat has a card data-card=${JSON.stringify(c.card)}, expected a card like "Ah"`);
    if (!showdown) {
      // The opponent's down cards: backs only.
      const oppDown = other.cards.filter((c) => c.down);
      check(oppDown.length >= 2, `the opponent's seat shows ${oppDown.length} down cards, expected at least 2 backs`);
      for (const c of oppDown) check(c.card === 'back', `the opponent's down card shows data-card=${JSON.stringify(c.card)} before showdown, expected "back"`);
      for (const c of other.cards.filter((c) => !c.down)) check(CARD.test(c.card), `the opponent's up card shows data-card=${JSON.stringify(c.card)}`);
    }
    // Against the frames, when this page saw the whole deal.
    if (h && h.number !== null) {
      const dealt = (seat, viewerSeat) =>
        h.dealt.filter((d) => d.seat === seat).map((d) => ({ card: d.up || seat === viewerSeat ? d.card : 'back', down: !d.up }));
      const wantMe = multiset(dealt(p.mySeat, p.mySeat));
      check(multiset(me.cards) === wantMe, `own seat shows cards [${multiset(me.cards)}], dealt were [${wantMe}]`);
      if (!showdown) {
        const wantOpp = multiset(dealt(opp.mySeat, p.mySeat));
        check(multiset(other.cards) === wantOpp, `the opponent's seat shows [${multiset(other.cards)}], expected [${wantOpp}]`);
      }
    }
    // Chips: stacks + pot == buy-ins.
    check(s.pot !== null && /^\d+$/.test(s.pot), `[data-testid=pot] data-amount is ${JSON.stringify(s.pot)}, expected a number`);
    for (const x of occupied) check(/^\d+$/.test(x.stack), `seat ${x.seat} [data-testid=seat-stack] data-amount is ${JSON.stringify(x.stack)}`);
    const total = occupied.reduce((n, x) => n + Number(x.stack), 0) + Number(s.pot);
    const want = p.buyIn + opp.buyIn;
    check(total === want, `stacks ${occupied.map((x) => `seat ${x.seat}: ${x.stack}`).join(', ')} + pot ${s.pot} = ${total}, expected the buy-ins ${want}`);
    for (const line of s.logLines) p.logSeen.add(line);
    return s;
  }).then(async (s) => {
    // Meanwhile it is not the opponent's turn: their actions area must be empty.
    await eventually(`${opp.name}, while ${p.name} is to act`, async () => {
      const n = await opp.page.locator('[data-testid=actions] [data-testid=action]').count();
      check(n === 0, `[data-testid=actions] holds ${n} buttons although it is not the viewer's turn (it must be empty)`);
    }, 1500);
    return s;
  });
}

// Plays whenever the page shows a prompt: mostly check/call/bring_in/show so hands reach
// showdown, sometimes bet/complete, rarely raise.
async function bot(p, opp) {
  let staleSince = null;
  while (!p.stop) {
    if (aborted) return;
    checkConsole();
    if (Date.now() - p.lastResultAt < 1500) {
      // A hand just ended: its last log lines (who wins) are on screen now.
      for (const l of await p.page.locator('[data-testid=log-line]').allTextContents()) p.logSeen.add(l.trim());
    }
    const n = await p.page.locator('[data-testid=actions] [data-testid=action]').count();
    const prompt = p.prompt;
    if (n > 0 && p.promptState !== 'mine') {
      staleSince ??= Date.now();
      check(Date.now() - staleSince < 3000, `[data-testid=actions] still holds ${n} buttons 3 s after the turn passed (it must be empty when it is not the viewer's turn)`);
    } else staleSince = null;
    if (n === 0 || !prompt || p.promptState !== 'mine' || prompt.seq <= p.clickedSeq) {
      await sleep(80);
      continue;
    }
    const s = await checkPrompt(p, opp, prompt);
    for (const task of p.tasks.splice(0)) await task();
    if (p.stop) return;
    const kinds = s.actions.map((a) => a.action);
    const me = s.seats.find((x) => x.me);
    const rich = Number(me.stack) >= 2000;
    let pick;
    const r = random();
    if (rich && r < 0.08 && kinds.includes('raise')) pick = 'raise';
    else if (rich && r < 0.25 && kinds.includes('bet')) pick = 'bet';
    else if (rich && r < 0.2 && kinds.includes('complete')) pick = 'complete';
    else pick = ['check', 'call', 'bring_in', 'show'].find((k) => kinds.includes(k)) ?? kinds.find((k) => k !== 'fold') ?? kinds[0];
    // One button per legal action; bet can be offered at two sizes (an open pair on 4th).
    const choice = s.actions.find((a) => a.action === pick);
    const amount = choice.amount === null ? '' : `[data-amount="${choice.amount}"]`;
    p.clickedSeq = prompt.seq;
    await p.page.locator(`[data-testid=actions] [data-testid=action][data-action="${pick}"]${amount}`).click({ timeout: 5000 });
    p.clicks += 1;
  }
}

async function runBot(p, opp) {
  try {
    await bot(p, opp);
  } catch (e) {
    const named = PLAYERS.some((q) => e.message?.startsWith(`${q.name}: `));
    abort(e instanceof Failure && !named ? new Failure(`${p.name}: ${e.message}`) : e);
  }
}

// The page lays out at this width: table and action buttons visible and inside the width, no
// horizontal scrolling.
async function checkLayout(p, width, height, file) {
  await p.page.setViewportSize({ width, height });
  await sleep(300);
  await eventually(`${p.name} at ${width} px`, async () => {
    const r = await p.page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    check(r.scrollWidth <= r.innerWidth + 1, `horizontal overflow: document scrollWidth ${r.scrollWidth} > innerWidth ${r.innerWidth}`);
    check(await p.page.locator('[data-testid=table]').isVisible(), '[data-testid=table] is not visible');
    const buttons = p.page.locator('[data-testid=actions] [data-testid=action]');
    const n = await buttons.count();
    check(n > 0, 'no [data-testid=action] buttons shown at a prompt');
    for (let i = 0; i < n; i++) {
      const b = buttons.nth(i);
      check(await b.isVisible(), `action button ${i} is not visible`);
      const box = await b.boundingBox();
      check(box && box.x >= -1 && box.x + box.width <= r.innerWidth + 1, `action button ${i} lies outside the ${r.innerWidth} px width (${JSON.stringify(box)})`);
    }
  });
  await p.shot(`w${width}`, file);
}

// ---------------------------------------------------------------------------------------------

async function join(p, url) {
  const page = p.page;
  await page.goto(url);
  await page.locator('[data-testid=lobby]').waitFor({ state: 'visible', timeout: 10000 });
  await page.locator('[data-testid=name]').fill(p.name);
  await page.locator('[data-testid=start]').click();
  const row = page.locator('[data-testid=table-row][data-variant=stud]');
  await until(`${p.name}: a [data-testid=table-row][data-variant=stud] in the lobby`, async () => (await row.count()) === 1, 15000);
  check(/^[0-9a-f-]{36}$/i.test((await row.getAttribute('data-table-id')) || ''), `${p.name}: the stud table row has no UUID data-table-id`);
  for (const v of ['stud8', 'razz'])
    check((await page.locator(`[data-testid=table-row][data-variant=${v}]`).count()) === 1, `${p.name}: no [data-testid=table-row][data-variant=${v}] in the lobby`);
  await until(`${p.name}: [data-testid=balance] shows a number`, async () => /\d/.test((await page.locator('[data-testid=balance]').textContent()) || ''), 10000);
  const buyIn = await row.locator('[data-testid=buy-in]').inputValue();
  check(/^\d+$/.test(buyIn) && Number(buyIn) > 0, `${p.name}: the stud row's [data-testid=buy-in] holds ${JSON.stringify(buyIn)}, expected the table's min_buy_in`);
  p.buyIn = Number(buyIn);
  return row;
}

async function sit(p, row, before = async () => {}) {
  const page = p.page;
  await before();
  await row.locator('[data-testid=sit]').click();
  await page.locator('[data-testid=table]').waitFor({ state: 'visible', timeout: 10000 });
  const me = page.locator('[data-testid=table] [data-testid=seat][data-me=true]');
  await until(`${p.name}: a [data-testid=seat][data-me=true] after sitting`, async () => (await me.count()) === 1, 10000);
  p.mySeat = Number(await me.getAttribute('data-seat'));
  check(p.mySeat >= 1 && p.mySeat <= 8, `${p.name}: own seat has data-seat=${p.mySeat}`);
  check((await page.locator('[data-testid=table] [data-testid=seat]').count()) === 8, `${p.name}: the table does not show 8 [data-testid=seat]s`);
  // The first hand may start (antes posted) before this page looks: chips behind plus chips in
  // the pot is the buy-in either way, until that hand ends (nobody acts before this returns).
  const ownStack = me.locator('[data-testid=seat-stack]');
  await until(`${p.name}: own [data-testid=seat-stack] data-amount + data-committed = buy-in ${p.buyIn}`, async () =>
    Number(await ownStack.getAttribute('data-amount')) + Number(await ownStack.getAttribute('data-committed')) === p.buyIn, 10000);
  check(!(await page.locator('[data-testid=lobby]').isVisible()), `${p.name}: [data-testid=lobby] is still visible after sitting`);
  await until(`${p.name}: [data-testid=status] data-state "connected"`, async () => (await page.locator('[data-testid=status]').getAttribute('data-state')) === 'connected', 10000);
  log(`${p.name}: seated at seat ${p.mySeat} with ${p.buyIn}`);
}

// Drops the second page's connection while the first page holds its turn (so nobody is asked
// to act while the connection is down), and checks the status goes "reconnecting" then
// "connected".
async function reconnect(b, relay) {
  const status = b.page.locator('[data-testid=status]');
  const before = b.sockets;
  b.offlineWindow = [Date.now(), null];
  await b.context.setOffline(true);
  const cut = relay.cut();
  log(`${b.name}: offline; ${cut / 2} connection(s) cut`);
  await until(`${b.name}: [data-testid=status] data-state "reconnecting" after the connection dropped`, async () => (await status.getAttribute('data-state')) === 'reconnecting', 10000, 50);
  const text = (await status.textContent()).trim().toLowerCase();
  check(text.includes('reconnecting'), `${b.name}: [data-testid=status] text is ${JSON.stringify(text)} while reconnecting`);
  await b.shot('reconnecting', 'reconnecting.png', { fullPage: false });
  await sleep(1000);
  await b.context.setOffline(false);
  relay.restore();
  log(`${b.name}: online again`);
  await until(`${b.name}: [data-testid=status] data-state "connected" after the network came back`, async () => (await status.getAttribute('data-state')) === 'connected', 20000, 50);
  const text2 = (await status.textContent()).trim().toLowerCase();
  check(text2.includes('connected') && !text2.includes('reconnecting'), `${b.name}: [data-testid=status] text is ${JSON.stringify(text2)} once reconnected`);
  check(b.sockets > before, `${b.name}: no new WebSocket was opened`);
  await sleep(1000);
  b.offlineWindow[1] = Date.now();
  log(`${b.name}: reconnected (${b.sockets} sockets so far)`);
}

async function lastHand(a) {
  const page = a.page;
  await page.locator('[data-testid=last-hand-open]').click();
  const dialog = page.locator('[data-testid=last-hand]');
  await dialog.waitFor({ state: 'visible', timeout: 10000 });
  const rows = dialog.locator('[data-testid=last-hand-row]');
  await until(`${a.name}: at least 3 [data-testid=last-hand-row]`, async () => (await rows.count()) >= 3, 15000);
  const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-hand-id')));
  log(`${a.name}: LAST HAND lists ${ids.length} hands`);
  const ended = a.order.filter((id) => a.hands.get(id).ended);
  for (const id of ids) check(ended.includes(id), `LAST HAND row data-hand-id=${id} is not a hand this player finished (${ended.join(', ')})`);
  const pos = ids.map((id) => ended.indexOf(id));
  check(pos.every((x, i) => i === 0 || x < pos[i - 1]), `LAST HAND rows are not newest first: ${ids.join(', ')}`);

  const showdownId = ids.find((id) => a.hands.get(id).showdown && a.hands.get(id).shown.size === 2);
  check(showdownId, `none of the listed hands went to showdown with both hands shown (listed: ${ids.join(', ')})`);
  await dialog.locator(`[data-testid=last-hand-row][data-hand-id="${showdownId}"]`).click();
  const report = page.locator('[data-testid=last-hand-report]');
  await report.waitFor({ state: 'visible', timeout: 10000 });
  const shown = [...a.hands.get(showdownId).shown.values()].flat();
  await eventually(`LAST HAND report of showdown hand ${showdownId}`, async () => {
    const cards = await report.locator('[data-testid=card]').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')));
    const backs = cards.filter((c) => c === 'back').length;
    check(backs === 0, `the report shows ${backs} backs among ${cards.length} cards; both players went to showdown, so every card must be face up`);
    check(cards.length >= 14, `the report shows ${cards.length} [data-testid=card]s, expected both players' 7 cards`);
    for (const c of cards) check(CARD.test(c), `the report has a card data-card=${JSON.stringify(c)}`);
    const missing = shown.filter((c) => !cards.includes(c));
    check(missing.length === 0, `the report lacks shown cards ${missing.join(' ')} (shows ${cards.join(' ')})`);
  }, 8000);
  await a.shot('last-hand', 'last-hand.png');

  for (const [which, want, ext] of [
    ['download-phh', 'variant = "F7S"', 'phh'],
    ['download-text', '*** SUMMARY ***', 'txt'],
  ]) {
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }), page.locator(`[data-testid=${which}]`).click()]);
    const file = await dl.path();
    const body = readFileSync(file, 'utf8');
    check(dl.suggestedFilename().length > 0, `[data-testid=${which}]: the download has no file name`);
    check(body.includes(want), `[data-testid=${which}]: the downloaded file (${dl.suggestedFilename()}, ${body.length} bytes) does not contain ${JSON.stringify(want)}; it starts: ${JSON.stringify(body.slice(0, 200))}`);
    const keep = path.join(SHOTS, `last-hand.${ext}`);
    writeFileSync(keep, body);
    log(`${a.name}: [data-testid=${which}] downloaded ${dl.suggestedFilename()} (${body.length} bytes) -> ${path.relative(ROOT, keep)}`);
  }
  await page.locator('[data-testid=last-hand-close]').click();
  await dialog.waitFor({ state: 'hidden', timeout: 5000 });
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  const addr = await startServer();
  check(/^\d+\.\d+\.\d+\.\d+:\d+$/.test(addr), `could not read the address from the server's "listening on" line: ${JSON.stringify(addr)}`);
  log(`server listening on http://${addr}`);
  const relay = await startRelay(addr);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const players = [];
    for (const name of ['Ann', 'Bob']) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
      players.push(new Player(name, context, await context.newPage()));
    }
    const [a, b] = players;

    // Lobby, then both sit at the Stud table. Bob goes through the relay.
    await sit(a, await join(a, `http://${addr}/`), () => a.shot('lobby', 'lobby.png'));
    await sit(b, await join(b, `http://${relay.addr}/`));

    // Play, with checks at every prompt; screenshots and the layout checks at prompts too.
    for (const p of players) {
      const shoot = async () => {
        const h = p.prompt && p.hands.get(p.prompt.hand_id);
        if (h && p.results.length >= 1) await p.shot('play', `play-${p.name.toLowerCase()}.png`);
        else p.tasks.push(shoot);
      };
      p.tasks.push(shoot);
    }
    a.tasks.push(async () => {
      await checkLayout(a, 390, 844, 'width-390.png');
      await checkLayout(a, 1280, 800, 'width-1280.png');
    });
    const bots = players.map((p, i) => runBot(p, players[1 - i]));
    await until(`${HANDS} complete hands on both pages (now ${a.results.length} and ${b.results.length})`, () => a.results.length >= HANDS && b.results.length >= HANDS && a.shots.play && b.shots.play && a.shots.w1280, 240000, 200);
    log(`${a.results.length} hands complete; ${a.clicks} + ${b.clicks} actions clicked`);

    // Reconnect Bob while Ann holds her turn.
    let reconnected = false;
    a.tasks.push(async () => {
      await reconnect(b, relay);
      reconnected = true;
    });
    await until('the reconnect, done at Ann\'s next prompt', () => reconnected, 60000, 100);
    const [ra, rb, cb] = [a.results.length, b.results.length, b.clicks];
    await until(`play to continue after the reconnect (a hand ends on both pages and ${b.name} acts)`, () => a.results.length > ra && b.results.length > rb && b.clicks > cb, 90000, 200);
    log(`play continued: ${a.results.length} hands; ${b.name} clicked ${b.clicks - cb} actions since reconnecting`);

    // Stop playing (after this prompt), then LAST HAND.
    for (const p of players) p.stop = true;
    await Promise.all(bots);
    if (aborted) throw aborted;
    for (const p of players) {
      const lines = [...p.logSeen];
      check(lines.length > 0, `${p.name}: [data-testid=log] never had a line`);
      check(lines.some((l) => /\bwins\b/i.test(l)), `${p.name}: no [data-testid=log-line] ever said who wins (e.g. "Seat 3 wins 1240 with ..."); lines seen: ${JSON.stringify(lines.slice(-8))}`);
    }
    await lastHand(a);

    for (const p of players) {
      if (p.ignored.length) log(`${p.name}: ${p.ignored.length} network error(s) in the console while deliberately offline, ignored: ${JSON.stringify(p.ignored)}`);
    }
    checkConsole();
    log(`hands finished: ${a.name} saw ${a.results.length}, ${b.name} saw ${b.results.length}; showdowns: ${a.order.filter((id) => a.hands.get(id).showdown).length}; actions clicked: ${a.clicks} + ${b.clicks}`);
    console.log('screenshots:');
    for (const p of players) for (const f of Object.values(p.shots)) console.log(`  ${path.relative(process.cwd(), f)}`);
  } catch (e) {
    for (const [i, ctx] of browser.contexts().entries()) {
      for (const page of ctx.pages()) {
        const f = path.join(SHOTS, `failure-${i + 1}.png`);
        await page.screenshot({ path: f, fullPage: true }).then(() => console.log(`failure screenshot: ${path.relative(process.cwd(), f)}`), () => {});
      }
    }
    throw e;
  } finally {
    await browser.close().catch(() => {});
    relay.close();
  }
}

// A hard stop, in case something hangs where no timeout applies.
const watchdog = setTimeout(() => {
  console.error(`FAIL: the whole test took longer than ${OVERALL_MS / 1000} s`);
  console.error(serverLog.slice(-25).join('\n'));
  if (server && server.exitCode === null) server.kill('SIGKILL');
  process.exit(1);
}, OVERALL_MS);
let code = 0;
try {
  await main();
  console.log('PASS: browser end-to-end test');
} catch (e) {
  code = 1;
  console.error(`FAIL: ${e instanceof Failure ? e.message : e.stack || e}`);
  if (serverLog.length) console.error(`--- last server log lines ---\n${serverLog.slice(-25).join('\n')}`);
} finally {
  clearTimeout(watchdog);
  aborted ??= new Failure('done'); // stops the bots if they are still running
  await stopServer();
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
