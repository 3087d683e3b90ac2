// End-to-end browser test of the web client's tournaments (web/): the lobby's tournament rows,
// registering (and its refusals), the tournament view, play at a tournament table to the end,
// the level and its clock, a rotation's game and the next one, elimination with place and
// prize, and the results.
//
// Starts the real server on a free port with an operator key, creates tournaments through the
// admin API (a sit-and-go for three in the mixed rotation with a level of 2 hands, then a
// 1-minute level; one nobody can afford; a private one), and three headless Chromium pages
// (Ann; Bob in Italian; Cat on a 390 px phone) register from the lobby and play it to the end
// by clicking. The WebSocket frames each page receives (`tournament_seat`, `tournament_placed`,
// `your_turn`, ...) are the reference the DOM is checked against, and every frame is checked
// against proto/schema.json.
//
// Run from tests/browser after `cargo build -p stud-cli`:  node tournament.mjs
// STUD_BIN overrides the binary (default $CARGO_TARGET_DIR/debug/stud, else target/debug/stud);
// CHROMIUM the browser (default /usr/bin/chromium). Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import * as harness from './harness.mjs';
import { CHROMIUM, Failure, LIVE_WATCH, PLAYERS, checkAxe, checkLiveRegions, ROOT, SHOTS, abort, check, checkConsole, clickAction, frames, log, nextPrompt, pickButton, receivedFrame, run, runTest, sleep, startServer, until, watchPage, operatorApi } from './harness.mjs';

const OPERATOR_KEY = 'browser-tournament-operator-key-0123456789';
const OVERALL_MS = 4 * 60 * 1000;
const STARTING_BALANCE = 100000; // the server's default play-money balance (cents)
const usd = (cents) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: cents % 100 ? 2 : 0, maximumFractionDigits: 2 }).format(cents / 100);
// The same in Italian, as the page writes it ("9 $", "4,50 $"), with plain spaces.
const usdIt = (cents) => new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: cents % 100 ? 2 : 0, maximumFractionDigits: 2 }).format(cents / 100).replace(/[\u00a0\u202f]/g, ' ');

// Assertions retry for 5 s here (the tournament's pages re-render on a 2 s refresh).
const eventually = (desc, fn, timeoutMs = 5000) => harness.eventually(desc, fn, timeoutMs);

// ---------------------------------------------------------------------------------------------
// The server

const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-tournament-'));

let ADDR = null;
const api = operatorApi(() => ADDR, OPERATOR_KEY);

// ---------------------------------------------------------------------------------------------
// A player: a browser context and page, the frames it receives, the errors it logs.

class Player {
  constructor(name, context, page) {
    Object.assign(this, { name, context, page });
    this.errors = [];
    this.prompt = null; // the latest your_turn frame
    this.clicked = new Set(); // `${table_id}:${seq}` of the prompts answered (seq counts per table)
    this.clicks = 0;
    this.seats = []; // tournament_seat frames
    this.placed = null; // the tournament_placed frame
    this.registrations = []; // tournament_registration frames
    this.errorFrames = [];
    this.stop = false;
    this.paused = false;
    this.handsEnded = 0;
    this.shots = [];
    this.acts = []; // act frames sent
    PLAYERS.push(this);
    watchPage(this, page, (m) => {
      if (m.type === 'act') this.acts.push(m);
    });
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (process.env.DEBUG && ['your_turn', 'hand_started', 'hand_result', 'tournament_seat', 'snapshot'].includes(m.type)) log(`${this.name} < ${m.type} ${m.seq ?? ''} ${m.type === 'your_turn' ? m.legal.map((a) => a.kind).join(',') : ''}`);
    if (m.type === 'your_turn') this.prompt = m;
    else if (m.type === 'tournament_seat') this.seats.push(m);
    else if (m.type === 'tournament_placed') {
      this.placed = { ...m, at: Date.now() };
      // Awaited before the next tournament starts (its seat notice replaces this one).
      this.placedWatch = this.watchPlaced(m).catch((e) => abort(e instanceof Failure ? new Failure(`${this.name}: ${e.message}`) : e));
    }
    else if (m.type === 'tournament_registration') this.registrations.push(m);
    else if (m.type === 'error') this.errorFrames.push(m);
    else if (m.type === 'hand_result') this.handsEnded += 1;
  }

  q(id) {
    return this.page.locator(`[data-testid=${id}]`);
  }

  // Right after `tournament_placed`: the notice says the place and prize (every page), and at
  // the table the elimination box shows them (until the table closes at the end).
  async watchPlaced(m) {
    const it = this.lang === 'it';
    const ord = it ? `${m.place}º` : ({ 1: '1st', 2: '2nd', 3: '3rd' }[m.place] ?? `${m.place}th`);
    const prize = it ? usdIt(m.prize) : usd(m.prize);
    const end = Date.now() + 3000;
    let noticeOk = false;
    let last = null;
    while (Date.now() < end && !(noticeOk && this.outOk)) {
      const r = await this.page.evaluate(() => {
        const out = document.querySelector('[data-testid=tournament-out]');
        const notice = document.querySelector('[data-testid=notice]');
        return {
          out: out && out.checkVisibility() ? { place: out.dataset.place, prize: out.dataset.prize, text: out.textContent.replace(/[\u00a0\u202f]/g, ' ') } : null,
          notice: notice && !notice.hidden ? notice.textContent.replace(/[\u00a0\u202f]/g, ' ') : '',
        };
      });
      last = r;
      const wantNotice = it ? `Il tuo torneo è finito: ${ord} posto, premio ${prize}.` : `Tournament over for you: ${ord} place, prize ${prize}.`;
      if (r.notice === wantNotice) noticeOk = true;
      if (r.out) {
        check(r.out.place === String(m.place) && r.out.prize === String(m.prize), `the elimination box has data-place ${r.out.place}, data-prize ${r.out.prize}; the frame says ${m.place}, ${m.prize}`);
        const words = m.place === 1 ? (it ? 'Hai vinto il torneo!' : 'You won the tournament!') : it ? `Hai finito ${ord}` : `You finished ${ord}`;
        check(r.out.text.includes(words) && (m.prize === 0 || r.out.text.includes(prize)), `the elimination box says ${JSON.stringify(r.out.text)}, expected ${JSON.stringify(words)} and ${prize}`);
        this.outOk = true;
        outSeen.add(`${this.name}: ${r.out.text.trim()}`);
      }
      await sleep(40);
    }
    check(noticeOk, `no notice with the place and prize after tournament_placed ${JSON.stringify(m)}; last seen ${JSON.stringify(last)}`);
  }

  async text(id) {
    return ((await this.q(id).first().textContent()) ?? '').trim();
  }

  async attr(id, name) {
    return this.q(id).first().getAttribute(name);
  }

  async balance() {
    return Number(await this.attr('balance', 'data-amount'));
  }

  async shot(file) {
    const p = path.join(SHOTS, file);
    await this.page.screenshot({ path: p, fullPage: false });
    this.shots.push(p);
    log(`${this.name}: screenshot ${path.relative(ROOT, p)}`);
  }

  row(id) {
    return this.page.locator(`[data-testid=tournament-row][data-tournament-id="${id}"]`);
  }
}

// No horizontal overflow: the page fits its window's width.
async function checkFits(p, where) {
  const r = await p.page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth }));
  check(r.sw <= r.w + 1, `${p.name}: the page overflows ${where}: scrollWidth ${r.sw} > ${r.w}`);
}

// Plays whenever the page shows action buttons: check/call (never fold) until the test says
// `aggressive`, then raise/bet/complete whenever it may, so stacks go in and players bust.
const play = { aggressive: false };
async function bot(p) {
  while (!p.stop) {
    if (run.aborted) return;
    // The buttons are the prompt's legal actions (play.mjs checks this in depth; here: the set).
    const next = p.paused ? null : await nextPrompt(p);
    if (!next || p.paused) {
      await sleep(60);
      continue;
    }
    const order = play.aggressive ? ['raise', 'bet', 'complete', 'call', 'check', 'bring_in', 'show'] : ['check', 'call', 'bring_in', 'show'];
    const choice = pickButton(next.buttons, order);
    p.clicked.add(next.key);
    await clickAction(p, choice).catch((e) => {
      if (!p.stop) throw e;
    });
    p.clicks += 1;
    if (process.env.DEBUG) log(`${p.name} clicked ${choice.action} at seq ${next.prompt.seq}`);
  }
}
async function runBot(p) {
  try {
    await bot(p);
  } catch (e) {
    abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e);
  }
}

// ---------------------------------------------------------------------------------------------

const LEVELS = [
  { ante: 5, bring_in: 10, small_bet: 20, big_bet: 40, hands: 2 },
  { ante: 10, bring_in: 20, small_bet: 40, big_bet: 80, minutes: 1 },
  { ante: 20, bring_in: 40, small_bet: 80, big_bet: 160, hands: 2 },
  { ante: 50, bring_in: 100, small_bet: 200, big_bet: 400, hands: 100 },
];
const SNG = {
  name: 'Turbo SNG', variant: 'rotation', kind: 'sit_and_go', min_entrants: 3, max_entrants: 3, seats_per_table: 3,
  entry_fee: 1000, house_fee: 100, starting_chips: 300, levels: LEVELS, payouts: [70, 30],
};

async function createTournaments() {
  const sng = await api('POST', '/api/admin/tournaments', SNG);
  check(sng.status === 201 && sng.json?.id, `creating the sit-and-go: ${sng.status} ${sng.text}`);
  const rich = await api('POST', '/api/admin/tournaments', {
    name: 'High Roller', variant: 'stud', kind: 'sit_and_go', min_entrants: 2, max_entrants: 2, seats_per_table: 2,
    entry_fee: STARTING_BALANCE * 5, house_fee: 0, starting_chips: 1000, levels: [LEVELS[0]],
  });
  check(rich.status === 201, `creating the high roller: ${rich.status} ${rich.text}`);
  const startAt = Date.now() + 3600_000;
  const club = await api('POST', '/api/admin/tournaments', {
    name: 'Club Night', variant: 'razz', kind: 'scheduled', start_at: startAt, min_entrants: 2, max_entrants: 8, seats_per_table: 8,
    entry_fee: 200, house_fee: 20, starting_chips: 1000, levels: [{ ...LEVELS[0], hands: undefined, minutes: 10 }], invite_code: 'SECRET7-CLUB',
  });
  check(club.status === 201, `creating the private tournament: ${club.status} ${club.text}`);
  return { sng: sng.json.id, rich: rich.json.id, club: club.json.id };
}

async function enter(p, url, lang) {
  await p.page.goto(url);
  await p.q('lobby').waitFor({ state: 'visible', timeout: 10000 });
  if (lang) await p.q('lang').selectOption(lang);
  await p.q('name').fill(p.name);
  await p.q('start').click();
  await until(`${p.name}: the balance after starting`, async () => (await p.balance()) === STARTING_BALANCE, 10000);
}

// The lobby's rows, the refusals (no balance, no invite code), register and unregister with
// the refund, the tournament view before the start.
async function lobbyChecks(a, ids) {
  // The private one is not listed to a stranger (issue 31): two rows, not three.
  await until(`${a.name}: two tournament rows`, async () => (await a.q('tournament-row').count()) === 2, 10000);
  const row = a.row(ids.sng);
  const rq = (id) => row.locator(`[data-testid=${id}]`);
  await eventually(`${a.name}: the sit-and-go's row`, async () => {
    check((await row.getAttribute('data-status')) === 'registering', `data-status ${await row.getAttribute('data-status')}`);
    check((await row.getAttribute('data-kind')) === 'sit_and_go', 'data-kind');
    check((await rq('tournament-row-name').textContent()) === 'Turbo SNG', 'the name');
    check((await rq('tournament-row-kind').textContent()) === 'Sit & Go', `the kind says ${await rq('tournament-row-kind').textContent()}`);
    check((await rq('tournament-row-status').textContent()) === 'Registering', 'the status');
    check((await rq('tournament-row-game').textContent()).startsWith('Mixed (Razz, Stud, Stud Hi/Lo)'), `the game says ${await rq('tournament-row-game').textContent()}`);
    check((await rq('tournament-row-entrants').textContent()) === '0/3 players', `the entrants say ${await rq('tournament-row-entrants').textContent()}`);
    check((await rq('tournament-row-buy-in').textContent()) === '$10 + $1 fee', `the buy-in says ${await rq('tournament-row-buy-in').textContent()}`);
    check((await rq('tournament-row-start').textContent()) === 'starts at 3 players', `the start says ${await rq('tournament-row-start').textContent()}`);
    check((await rq('tournament-row-level').textContent()) === '' && (await rq('tournament-row-level').getAttribute('data-level')) === '1', 'a level line before the start');
    check(await rq('tournament-register').isVisible(), 'no register button');
    check(!(await rq('tournament-unregister').isVisible()), 'an unregister button before registering');
  });
  // The scheduled, private one: not in a stranger's lobby (the list does not hold it either);
  // its id and code in the private form show its row, with a start time and the code in its
  // box, the focus on its Register button.
  const club = a.row(ids.club);
  check((await club.count()) === 0, 'the private tournament\'s row is shown to a stranger');
  const listed = await (await fetch(`http://${ADDR}/api/tournaments`)).json();
  check(!listed.some((x) => x.id === ids.club), 'GET /api/tournaments lists the private tournament to anyone');
  check((await a.page.locator('#private-h').textContent()) === 'Private table or tournament', 'the private form\'s heading');
  check((await a.q('invite-table').getAttribute('placeholder')) === 'table or tournament id', `the id box says ${await a.q('invite-table').getAttribute('placeholder')}`);
  await a.q('invite-table').fill(ids.club);
  await a.q('invite-code').fill('SECRET7-CLUB');
  await a.q('join-private').click();
  await eventually(`${a.name}: the private tournament's row`, async () => {
    check((await club.locator('[data-testid=tournament-row-name]').textContent()) === 'Club Night (private)', 'the private name');
    check(/^starts [A-Z][a-z]{2} \d+, \d{4}/.test(await club.locator('[data-testid=tournament-row-start]').textContent()), `the start says ${await club.locator('[data-testid=tournament-row-start]').textContent()}`);
    check(await club.locator('[data-testid=tournament-code]').isVisible(), 'no invite code box');
    check((await club.locator('[data-testid=tournament-code]').inputValue()) === 'SECRET7-CLUB', `the code box holds ${await club.locator('[data-testid=tournament-code]').inputValue()}`);
    check(await club.locator('[data-testid=tournament-register]').evaluate((b) => b === document.activeElement), 'the focus is not on its Register button');
    check((await a.q('invite-table').inputValue()) === '' && (await a.q('invite-code').inputValue()) === '', 'the private form was not cleared');
    check(!(await a.q('table').isVisible()), 'a tournament id was taken for a table');
  });
  check((await a.q('tournament-row').count()) === 3, `${await a.q('tournament-row').count()} tournament rows with the private one`);
  await a.page.setViewportSize({ width: 390, height: 844 });
  await eventually(`${a.name}: the lobby at 390 px`, () => checkFits(a, 'in the lobby at 390 px'));
  await a.shot('tournament-lobby-390.png');
  await a.page.setViewportSize({ width: 1280, height: 800 });
  await checkAxe(a, 'in the lobby with tournaments');

  // Refused: not enough balance. Nothing charged, the reason in the row.
  const rich = a.row(ids.rich);
  await rich.locator('[data-testid=tournament-register]').click();
  await eventually(`${a.name}: the refusal for lack of balance`, async () => {
    const e = rich.locator('[data-testid=tournament-error]');
    check(await e.isVisible(), 'no [data-testid=tournament-error] in the row');
    check((await e.getAttribute('data-code')) === 'insufficient_balance', `data-code ${await e.getAttribute('data-code')}`);
    check((await e.textContent()) === 'Your balance is too small for the entry and the fee.', `the error says ${await e.textContent()}`);
  });
  check((await a.balance()) === STARTING_BALANCE, 'the refused registration changed the balance');
  // Refused: a private tournament without its code (the box emptied); then with it, and
  // unregistered (refunded).
  await club.locator('[data-testid=tournament-code]').fill('');
  await club.locator('[data-testid=tournament-register]').click();
  await eventually(`${a.name}: the refusal without an invite code`, async () => {
    const e = club.locator('[data-testid=tournament-error]');
    check((await e.getAttribute('data-code')) === 'invite_required', `data-code ${await e.getAttribute('data-code')}`);
    check((await e.textContent()) === 'A private tournament: enter its invite code.', `the error says ${await e.textContent()}`);
  });
  await club.locator('[data-testid=tournament-code]').fill('SECRET7-CLUB');
  await club.locator('[data-testid=tournament-register]').click();
  await eventually(`${a.name}: registered with the code`, async () => {
    check((await club.getAttribute('data-registered')) === 'true', 'the row is not data-registered="true"');
    check(await club.locator('[data-testid=tournament-registered]').isVisible(), 'no "registered" mark');
    check(!(await club.locator('[data-testid=tournament-error]').isVisible()), 'the old error is still shown');
    check((await a.balance()) === STARTING_BALANCE - 220, `the balance is ${await a.balance()}, expected ${STARTING_BALANCE - 220} (entry + fee taken)`);
  });
  // A reload: the lobby asks GET /api/tournaments with the session's token, and the server
  // lists the private tournament to its registered player; the row stays, registered.
  const token = await a.page.evaluate(() => localStorage.getItem('stud.token'));
  const asked = a.page.waitForResponse(async (r) => {
    if (new URL(r.url()).pathname !== '/api/tournaments' || !r.ok()) return false;
    return (await r.request().headerValue('authorization')) === `Bearer ${token}`;
  }, { timeout: 15000 });
  await a.page.reload();
  const answer = await (await asked).json();
  check(answer.some((x) => x.id === ids.club), 'GET /api/tournaments with the token does not list the private tournament to its registered player');
  await eventually(`${a.name}: the private row after a reload`, async () => {
    check((await a.balance()) === STARTING_BALANCE - 220, `the balance after the reload is ${await a.balance()}`);
    check((await club.getAttribute('data-registered')) === 'true', 'the row is not data-registered="true" after the reload');
    check((await club.locator('[data-testid=tournament-row-name]').textContent()) === 'Club Night (private)', 'the private name after the reload');
  }, 10000);
  await club.locator('[data-testid=tournament-unregister]').click();
  await eventually(`${a.name}: unregistered, refunded`, async () => {
    check((await club.getAttribute('data-registered')) === 'false', 'still data-registered');
    check((await a.balance()) === STARTING_BALANCE, `the balance is ${await a.balance()} after unregistering, expected the refund`);
  });
  check(a.registrations.length === 2 && a.registrations[1].registration.registered === false, `${a.name}: ${a.registrations.length} tournament_registration frames`);
  log(`${a.name}: lobby rows, the private one hidden from a stranger and reached by id and code, refusals (insufficient_balance, invite_required), register, listed after a reload (token sent), unregister with refund checked`);

  // The tournament view before the start: the structure, no results yet.
  await row.locator('[data-testid=tournament-open]').click();
  await eventually(`${a.name}: the tournament view`, async () => {
    check(await a.q('tournament').isVisible(), 'the tournament view is not shown');
    check((await a.text('tournament-name')) === 'Turbo SNG', 'its name');
    check((await a.q('tournament-level-row').count()) === LEVELS.length, `${await a.q('tournament-level-row').count()} structure rows, expected ${LEVELS.length}`);
    const lengths = await a.page.locator('[data-testid=tournament-level-row] td:last-child').allTextContents();
    check(lengths.join('|') === '2 hands|1 min|2 hands|100 hands', `the level lengths say ${lengths.join('|')}`);
    check((await a.q('tournament-result').count()) === 0, 'results before the start');
    check(await a.page.locator('[data-testid=tournament] [data-testid=tournament-register]').isVisible(), 'no register button in the view');
  });
  await checkAxe(a, 'in the tournament view');
  // Register from the view, then back to the lobby.
  await a.page.locator('[data-testid=tournament] [data-testid=tournament-register]').click();
  await until(`${a.name}: registered from the view`, async () => (await a.page.locator('[data-testid=tournament] [data-testid=tournament-unregister]').count()) === 1, 5000);
  await a.q('tournament-back').click();
  await eventually(`${a.name}: the lobby row says registered`, async () => {
    check((await row.getAttribute('data-registered')) === 'true', 'the row is not data-registered');
    check((await row.locator('[data-testid=tournament-row-entrants]').textContent()) === '1/3 players', 'the entrants are not 1/3');
    check((await a.balance()) === STARTING_BALANCE - 1100, `balance ${await a.balance()}, expected ${STARTING_BALANCE - 1100}`);
  });
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  // The house sit-and-go stays closed: the lobby holds this test's tournaments only.
  ADDR = await startServer(tmp, { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '1000', STUD_OPERATOR_KEY: OPERATOR_KEY, STUD_HOUSE_SIT_AND_GO: 'false' });
  log(`server listening on http://${ADDR}`);
  const ids = await createTournaments();
  log(`tournaments created: ${JSON.stringify(ids)}`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const sizes = { Ann: [1280, 800], Bob: [1280, 800], Cat: [390, 844] };
    const players = [];
    for (const name of ['Ann', 'Bob', 'Cat']) {
      const [width, height] = sizes[name];
      const context = await browser.newContext({ viewport: { width, height } });
      await context.addInitScript(LIVE_WATCH); // the live regions' writes (checkLiveRegions)
      players.push(new Player(name, context, await context.newPage()));
    }
    const [a, b, c] = players;
    const url = `http://${ADDR}/`;
    await enter(a, url);
    b.lang = 'it';
    await enter(b, url, 'it');
    await enter(c, url);
    await lobbyChecks(a, ids);

    // Bob (in Italian) and Cat register from the lobby: the third entry starts it.
    for (const p of [b, c]) {
      const reg = p.row(ids.sng).locator('[data-testid=tournament-register]');
      await until(`${p.name}: the register button`, async () => reg.isVisible(), 10000);
      await reg.click();
    }
    const bots = players.map((p) => runBot(p));
    for (const p of players) {
      await until(`${p.name}: tournament_seat, then the tournament table`, async () => p.seats.length > 0 && (await p.q('table').isVisible()), 20000);
      check(p.seats[0].tournament_id === ids.sng && p.seats[0].reason === 'start', `${p.name}: the first tournament_seat is ${JSON.stringify(p.seats[0])}`);
    }
    log('all three seated by the tournament, their pages at its table');
    // At the table, level 1: the level, the clock (hands), razz now and stud next, 3 left;
    // no buy-in, top-up or sit-out controls.
    for (const p of players) {
      await eventually(`${p.name}: the tournament line at level 1`, async () => {
        check(await p.q('tournament-bar').isVisible(), 'no [data-testid=tournament-bar]');
        check((await p.attr('tournament-table-level', 'data-level')) === '1', `data-level ${await p.attr('tournament-table-level', 'data-level')}`);
        const level = await p.text('tournament-table-level');
        check(level === (p === b ? 'Livello 1: 20/40 · ante 5' : 'Level 1: 20/40 · ante 5'), `the level says ${JSON.stringify(level)}`);
        const clock = await p.text('tournament-table-clock');
        // The level lasts 2 hands: the hands left, as the last fetch of the tournament said.
        check((p === b ? /^prossimo livello tra [12] mani$/ : /^next level in [12] hands$/).test(clock), `the clock says ${JSON.stringify(clock)}`);
        check((await p.attr('tournament-table-game', 'data-game')) === 'razz' && (await p.attr('tournament-table-game', 'data-next-game')) === 'stud', `the game line is ${await p.text('tournament-table-game')}`);
        check((await p.attr('tournament-table-players', 'data-left')) === '3' && (await p.attr('tournament-table-players', 'data-total')) === '3', `players: ${await p.text('tournament-table-players')}`);
        check(!(await p.page.locator('#top-up').isVisible()) && !(await p.page.locator('#table-buy-in').isVisible()) && !(await p.page.locator('#sit-toggle').isVisible()), 'cash-table controls at a tournament table');
        check((await p.page.locator('[data-testid=seat] [data-testid=seat-stack]').count()) === 3, 'not three seats with stacks');
      }, 10000);
    }
    await checkFits(c, 'at the tournament table at 390 px');
    await c.shot('tournament-table-390.png');
    await checkAxe(a, 'at a tournament table');

    // Ann opens the tournament view on her turn (issue 31): a panel over part of the table,
    // not a page of its own; the action bar stays visible with nothing over its buttons, the
    // panel says "Your turn", a key acts with the focus in the panel, Escape closes it.
    a.paused = true;
    await sleep(300); // a click of the bot under way lands first
    await until(`${a.name}: her turn (action buttons) before opening the tournament view`, async () =>
      a.prompt && !a.clicked.has(`${a.prompt.table_id}:${a.prompt.seq}`) && (await a.page.locator('[data-testid=actions] [data-testid=action]').count()) > 0, 30000);
    const prompt = a.prompt;
    // Clicked again while the view has not opened: a seat notice that lands just after the
    // first click (the page has only just reached the table) takes the page back to its table.
    let opened = 0;
    await until(`${a.name}: the tournament view opened from the table`, async () => {
      if (await a.q('tournament').isVisible()) return true;
      if (Date.now() - opened > 1000) {
        opened = Date.now();
        await a.q('tournament-table-open').click();
      }
      return false;
    }, 5000).catch(async (e) => {
      const why = await a.page.evaluate(() => ({ view: document.body.dataset.view, bar: document.querySelector('[data-testid=tournament-bar]').hidden, notice: document.querySelector('[data-testid=notice]').textContent }));
      throw new Failure(`${e.message}; the page: ${JSON.stringify(why)}`);
    });
    await eventually(`${a.name}: the tournament view while running`, async () => {
      check(await a.q('tournament').isVisible(), 'the view is not shown');
      check((await a.attr('tournament-level', 'data-level')) === '1', 'the view\'s level');
      check((await a.page.locator('[data-testid=tournament-level-row][aria-current=step]').getAttribute('data-level')) === '1', 'the current level row');
      check((await a.q('tournament-entrant').count()) === 3, 'entrants');
      check((await a.attr('tournament-game', 'data-game')) === 'razz' && (await a.attr('tournament-game', 'data-next-game')) === 'stud', `the view's game line is ${await a.text('tournament-game')}`);
      check((await a.text('tournament-game')) === 'Game: Razz · next: Stud', `the view's game line says ${await a.text('tournament-game')}`);
      check((await a.q('tournament-table').count()) === 1, 'tables');
      const prizes = await a.page.locator('[data-testid=tournament-payout]').evaluateAll((rs) => rs.map((r) => Number(r.dataset.prize)));
      check(prizes.join() === '2100,900', `payout prizes ${prizes.join()}, expected 2100,900 (70/30 of $30)`);
      const cells = await a.page.locator('[data-testid=tournament-payout] td:last-child').allTextContents();
      check(cells.join('|') === '$21|$9', `the payouts say ${cells.join('|')}`);
      check((await a.text('tournament-pool')) === 'Prize pool: $30', `the pool says ${await a.text('tournament-pool')}`);
    });
    await eventually(`${a.name}: the tournament view is a panel, the table and its action bar live`, async () => {
      check((await a.attr('tournament', 'data-mode')) === 'panel', `the view's data-mode is ${await a.attr('tournament', 'data-mode')}, expected "panel" at a table`);
      check(await a.q('table').isVisible(), 'the table is hidden behind the tournament view');
      check(await a.q('action-bar').isVisible(), 'the action bar is hidden with the tournament view open');
      check(await a.q('tournament-turn').isVisible() && (await a.text('tournament-turn')) === 'Your turn', `the view does not say "Your turn" ([data-testid=tournament-turn]: ${await a.q('tournament-turn').isVisible()})`);
      const bar = await a.page.evaluate(() => [...document.querySelectorAll('[data-testid=actions] [data-testid=action]')].map((b) => {
        const r = b.getBoundingClientRect();
        const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return { action: b.dataset.action, free: Boolean(at && b.contains(at)) };
      }));
      check(bar.length > 0 && bar.every((x) => x.free), `the action buttons with the tournament view open: ${JSON.stringify(bar)}`);
    });
    await a.shot('tournament-view.png');
    await checkAxe(a, 'in the tournament view at the table, at a prompt');
    const KEY = { check: 'c', call: 'c', bring_in: 'i', show: 's' };
    const kind = ['check', 'call', 'bring_in', 'show'].find((k) => prompt.legal.some((x) => x.kind === k));
    const before = a.acts.length;
    await a.q('tournament-close').focus();
    await a.page.keyboard.press(KEY[kind]);
    await until(`${a.name}: "${KEY[kind]}" acts with the tournament view open`, async () => a.acts.length > before, 5000, 50);
    check(a.acts[before].seq === prompt.seq && a.acts[before].action.kind === kind, `"${KEY[kind]}" sent ${JSON.stringify(a.acts[before])}, expected ${kind} at seq ${prompt.seq}`);
    a.clicked.add(`${prompt.table_id}:${prompt.seq}`);
    await a.page.keyboard.press('Escape');
    await until(`${a.name}: Escape closes the tournament view, back at the table`, async () => !(await a.q('tournament').isVisible()) && (await a.q('table').isVisible()) && (await a.page.locator('[data-testid=seat][data-me=true]').count()) === 1, 5000);
    log(`${a.name}: the tournament view on her turn: a panel, "Your turn", "${KEY[kind]}" sent ${kind}, Escape closed it`);
    a.paused = false;

    // Level 2 (after two hands): a level of one minute with a clock counting down; the
    // rotation's next game; the stakes on the table follow.
    await until('level 2 on every page', async () => {
      for (const p of players) if ((await p.attr('tournament-table-level', 'data-level')) !== '2') return false;
      return true;
    }, 90000, 200);
    for (const p of players) {
      await eventually(`${p.name}: level 2 and its clock`, async () => {
        const level = await p.text('tournament-table-level');
        check(level === (p === b ? 'Livello 2: 40/80 · ante 10' : 'Level 2: 40/80 · ante 10'), `the level says ${JSON.stringify(level)}`);
        check((await p.attr('tournament-table-game', 'data-game')) === 'stud' && (await p.attr('tournament-table-game', 'data-next-game')) === 'stud8', `the game line is ${await p.text('tournament-table-game')}`);
        check((await p.text('table-stakes')).includes('40/80'), `the table's stakes say ${await p.text('table-stakes')}`);
      }, 15000);
    }
    const clocks = [];
    for (let i = 0; i < 2; i += 1) {
      const ms = Number(await a.attr('tournament-table-clock', 'data-ms'));
      clocks.push({ ms, text: await a.text('tournament-table-clock') });
      if (i === 0) await sleep(2100);
    }
    check(clocks.every((x) => /^next level in 0:\d\d$/.test(x.text) && x.ms > 0 && x.ms <= 60000), `the clock says ${JSON.stringify(clocks)}`);
    check(clocks[1].ms < clocks[0].ms - 1500 && clocks[0].text !== clocks[1].text, `the clock did not count down: ${JSON.stringify(clocks)}`);
    const itClock = await b.text('tournament-table-clock');
    check(/^prossimo livello tra 0:\d\d$/.test(itClock), `Bob's (Italian) clock says ${JSON.stringify(itClock)}`);
    log(`level 2: the clock went ${clocks.map((x) => x.text).join(' -> ')}; Bob reads "${itClock}"`);

    // Screen readers hear only news: so far nothing said twice with the same words; then the
    // tournament view (opened with T, a panel over the table) with its clock ticking for 3 s:
    // the clock is no live region, and nothing is said again while the view sits there.
    for (const p of players) await checkLiveRegions(p, 'up to level 2');
    await a.page.locator('[data-testid=log]').focus();
    await a.page.keyboard.press('t');
    await until(`${a.name}: the T key opens the tournament view`, async () => (await a.q('tournament').isVisible()) && (await a.attr('tournament', 'data-mode')) === 'panel', 5000);
    const msBefore = Number(await a.attr('tournament-clock', 'data-ms'));
    await sleep(3000);
    check(Number(await a.attr('tournament-clock', 'data-ms')) < msBefore - 2000, 'the tournament view\'s clock did not count down');
    const writes = await checkLiveRegions(a, 'with the tournament view open for 3 s at a timed level');
    await a.page.keyboard.press('t');
    await until(`${a.name}: the T key closes the tournament view`, async () => !(await a.q('tournament').isVisible()), 5000);
    log(`${a.name}: the tournament view open 3 s, its clock ticking: live regions written only with news (${Object.entries(writes).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}); T opened and closed it`);

    // Now everyone bets and raises: players bust; each sees their place and prize.
    play.aggressive = true;
    await until('the tournament to end (every page placed)', () => players.every((p) => p.placed), 120000, 200);
    const byPlace = [...players].sort((x, y) => x.placed.place - y.placed.place);
    check(byPlace.map((p) => p.placed.place).join() === '1,2,3', `places ${byPlace.map((p) => `${p.name}: ${p.placed.place}`).join(', ')}`);
    // 70/30 of $30; two players out in the same hand with equal stacks share 2nd and 3rd.
    const prizes = byPlace.map((p) => p.placed.prize).join();
    check(prizes === '2100,900,0' || prizes === '2100,450,450', `prizes ${byPlace.map((p) => `${p.name}: ${p.placed.prize}`).join(', ')}`);
    log(`placed: ${byPlace.map((p) => `${p.placed.place}. ${p.name} (${usd(p.placed.prize)})`).join(', ')}`);
    for (const p of players) p.stop = true;
    await Promise.all(bots);
    if (run.aborted) throw run.aborted;

    // The elimination notice (those out before the end saw it at the table) and the results.
    // The third place went out in an earlier hand than the end: its page was still at the
    // table and must have shown the elimination box there.
    const third = byPlace[2];
    if (byPlace[0].placed.at - third.placed.at > 1500) check(third.outOk, `${third.name} was out before the end but the page never showed [data-testid=tournament-out]`);
    for (const p of players) {
      await eventually(`${p.name}: the tournament view with the results at the end`, async () => {
        if (!(await p.q('tournament').isVisible()) && (await p.q('tournament-out-open').isVisible())) await p.q('tournament-out-open').click();
        check(await p.q('tournament').isVisible(), 'the tournament view is not shown at the end');
        check((await p.attr('tournament', 'data-status')) === 'finished', 'the view is not data-status="finished"');
        check(await p.q('tournament-over').isVisible(), 'no [data-testid=tournament-over]');
        const rows = await p.page.locator('[data-testid=tournament-result]').evaluateAll((rs) => rs.map((r) => ({ place: Number(r.dataset.place), prize: Number(r.dataset.prize), text: r.textContent })));
        check(rows.length === 3, `${rows.length} result rows`);
        for (const [i, q] of byPlace.entries()) {
          check(rows[i].place === q.placed.place && rows[i].prize === q.placed.prize && rows[i].text.includes(q.name), `result row ${i + 1} is ${JSON.stringify(rows[i])}, expected ${q.name} placed ${q.placed.place} with ${q.placed.prize}`);
        }
        const total = rows.reduce((n, r) => n + r.prize, 0);
        check(total === 3000, `the prizes add up to ${total}, expected the pool 3000`);
        const want = STARTING_BALANCE - 1100 + p.placed.prize;
        check((await p.balance()) === want, `the balance is ${await p.balance()}, expected ${want}`);
      }, 15000);
    }
    const api1 = await api('GET', `/api/tournaments/${ids.sng}`);
    check(api1.json.status === 'finished' && api1.json.results.map((r) => `${r.place}:${r.name}:${r.prize}`).join() === byPlace.map((p) => `${p.placed.place}:${p.name}:${p.placed.prize}`).join(), `the API's results ${JSON.stringify(api1.json.results)}`);
    await c.shot('tournament-results-390.png');
    await checkFits(c, 'in the tournament view at 390 px');
    await checkAxe(c, 'in the finished tournament view');
    // Words: the results' places and prizes as each page's language says them.
    const bobRows = await b.page.locator('[data-testid=tournament-result] td:first-child').allTextContents();
    check(bobRows.join() === '1º,2º,3º', `Bob's (Italian) places say ${bobRows.join()}`);
    const annRows = await a.page.locator('[data-testid=tournament-result] td:first-child').allTextContents();
    check(annRows.join() === '1st,2nd,3rd', `Ann's places say ${annRows.join()}`);
    log(`the results on every page match the tournament_placed frames and the API; ${third.name} was out first`);
    await moveBetweenTables(browser, url, players);
    checkConsole();
    check(outSeen.size > 0, 'no page ever showed [data-testid=tournament-out] at the table');
    log(`elimination notices seen at the table: ${[...outSeen].join('; ')}`);
    log(`${frames.checked} WebSocket frames matched proto/schema.json; clicks: ${players.map((p) => `${p.name} ${p.clicks}`).join(', ')}`);
  } catch (e) {
    for (const [i, ctx] of browser.contexts().entries()) {
      for (const page of ctx.pages()) {
        const f = path.join(SHOTS, `tournament-failure-${i + 1}.png`);
        await page.screenshot({ path: f, fullPage: true }).then(() => console.log(`failure screenshot: ${path.relative(process.cwd(), f)}`), () => {});
      }
    }
    throw e;
  } finally {
    await browser.close().catch(() => {});
  }
}

// Being moved: four players at two tables of three; the first elimination breaks a table
// and the tournament moves its other player (`tournament_seat` with `from_table_id`): that
// page goes to the new table without a reload and plays on there.
async function moveBetweenTables(browser, url, players) {
  const created = await api('POST', '/api/admin/tournaments', {
    name: 'Two Tables', variant: 'stud', kind: 'sit_and_go', min_entrants: 4, max_entrants: 4, seats_per_table: 3,
    entry_fee: 500, house_fee: 0, starting_chips: 200, levels: [{ ante: 10, bring_in: 20, small_bet: 40, big_bet: 80, hands: 100 }],
  });
  check(created.status === 201, `creating the two-table sit-and-go: ${created.status} ${created.text}`);
  const id = created.json.id;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const dan = new Player('Dan', context, await context.newPage());
  await enter(dan, url);
  const four = [...players, dan];
  await Promise.all(players.map((p) => p.placedWatch));
  if (run.aborted) throw run.aborted;
  for (const p of four) {
    if (await p.q('tournament-back').isVisible()) await p.q('tournament-back').click();
    Object.assign(p, { seats: [], placed: null, outOk: false, stop: false });
    await p.page.evaluate(() => { window.stillTheSamePage = true; });
    const reg = p.row(id).locator('[data-testid=tournament-register]');
    await until(`${p.name}: the register button of Two Tables`, async () => reg.isVisible(), 10000);
    await reg.click();
  }
  const bots = four.map((p) => runBot(p));
  for (const p of four) {
    await until(`${p.name}: seated by Two Tables`, async () => p.seats.length > 0 && (await p.attr('table', 'data-table-id')) === p.seats[0].table_id, 20000);
  }
  const tables = new Set(four.map((p) => p.seats[0].table_id));
  check(tables.size === 2, `the four were seated at ${tables.size} table(s), expected 2`);
  await until('a move between tables (a tournament_seat with from_table_id)', () => four.some((p) => p.seats.length > 1), 90000, 200);
  const moved = four.find((p) => p.seats.length > 1);
  const m = moved.seats[1];
  check(m.from_table_id === moved.seats[0].table_id && m.table_id !== m.from_table_id && ['break', 'balance'].includes(m.reason), `${moved.name}: the move is ${JSON.stringify(m)}`);
  await eventually(`${moved.name}: taken to the new table without a reload`, async () => {
    check((await moved.attr('table', 'data-table-id')) === m.table_id, `the table view shows ${await moved.attr('table', 'data-table-id')}, the move says ${m.table_id}`);
    check(await moved.page.evaluate(() => window.stillTheSamePage === true), 'the page was reloaded');
    check((await moved.page.locator('[data-testid=seat][data-me=true]').getAttribute('data-seat')) === String(m.seat), `own seat is not ${m.seat}`);
    check(await moved.q('tournament-bar').isVisible(), 'no tournament line at the new table');
  }, 10000);
  const clicks = moved.clicks;
  await until(`${moved.name}: plays on at the new table`, () => moved.clicks > clicks || moved.placed, 60000, 200);
  log(`${moved.name} was moved (${m.reason}) to table ${m.table_no}, seat ${m.seat}, without a reload, and played on there`);
  for (const p of four) p.stop = true;
  await Promise.all(bots);
  if (run.aborted) throw run.aborted;
}

// Watched while playing: a page that gets `tournament_placed` while at the table shows the
// notice with the place and prize of the frame, in its language.
const outSeen = new Set();

await runTest('browser tournament test', main, { overallMs: OVERALL_MS, tmp });
