// End-to-end browser test of a knockout tournament's bounties in the web client (web/): the
// tournament view's buy-in with the bounty ("$10 + $5 bounty + $1 fee", `tournament-buy-in`),
// its knockout line (`tournament-bounty`: progressive, bounties paid so far), each entrant's
// bounty on their head and bounties won (`entrant-bounty`, `entrant-bounties-won`) and the
// results' bounties won (`result-bounties`); at the table each tournament player's seat shows
// the bounty on their head (`seat-bounty`, a badge that moves nothing), updated when a
// `tournament_bounty` frame comes; and a bounty paid is said in the hand log (a live region: said
// once) and shown in the result strip (`result-bounty`, hidden from screen readers there) on
// every page at the table, in each page's language and from its point of view ("You won ...",
// "... for knocking you out").
//
// Starts the real server with an operator key and creates a three-player progressive knockout
// sit-and-go ($5 on each head) with small stacks. Three headless Chromium pages (Ann at 1280x800
// in English, Bob at 390x844 in Italian, Cid at 1366x768 in Hungarian) register and play by
// clicking: first Ann raises whenever she may, Bob calls and Cid folds to any bet (so one player
// busts at a time), then all three raise to the end. The frames each page receives
// (`tournament_bounty`, `tournament_placed`, ...) and GET /api/tournaments/{id} are the
// reference the DOM is checked against; every frame is checked against proto/schema.json.
//
// Run from tests/browser after `cargo build -p stud-cli`:  node bounty.mjs
// STUD_BIN overrides the binary, CHROMIUM the browser, STUD_WEB_DIR serves web/ from disk.
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { CHROMIUM, Failure, LIVE_WATCH, PLAYERS, ROOT, SHOTS, abort, check, checkAxe, checkConsole, checkLiveRegions, clickAction, frames, launchChromium, log, nextPrompt, pickButton, receivedFrame, run, runTest, sleep, startServer, until, watchPage, operatorApi, enterLobby, openPanel, closePanel } from './harness.mjs';

const OPERATOR_KEY = 'browser-bounty-operator-key-0123456789';
const OVERALL_MS = 6 * 60 * 1000;
const STARTING_BALANCE = 100000; // the server's default play-money balance (cents)
const ENTRY = 1000;
const HOUSE = 100;
const BOUNTY = 500;
const CHIPS = 300;

const nb = (s) => String(s ?? '').replace(/[\u00a0\u202f]/g, ' ').replace(/\s+/g, ' ').trim();
const cash = (locale) => (cents) => nb(new Intl.NumberFormat(locale, {
  style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: cents % 100 ? 2 : 0, maximumFractionDigits: 2,
}).format(cents / 100));

// The page's words the test checks, in each page's language.
const WORDS = {
  en: {
    money: cash('en-US'),
    fee: '$10 + $5 bounty + $1 fee',
    knockout: 'Progressive knockout',
    line: (paid) => `Progressive knockout: $5 on each head · bounties paid: ${paid}`,
    badge: (amount) => `bounty ${amount}`,
    wonShort: (amount) => `won ${amount}`,
    won: (who, amount, out) => `${who} won ${amount} for knocking out ${out}`,
    wonYou: (amount, out) => `You won ${amount} for knocking out ${out}`,
    wonOnYou: (who, amount) => `${who} won ${amount} for knocking you out`,
    own: (who, amount) => `${who} won ${amount}: the bounty on their own head`,
    ownYou: (amount) => `You won ${amount}: the bounty on your own head`,
  },
  it: {
    money: cash('it-IT'),
    fee: '10 $ + 5 $ di taglia + 1 $ di commissione',
    knockout: 'Knockout progressivo',
    line: (paid) => `Knockout progressivo: taglia di 5 $ su ogni giocatore · taglie pagate: ${paid}`,
    badge: (amount) => `taglia ${amount}`,
    wonShort: (amount) => `vinte ${amount}`,
    won: (who, amount, out) => `${who} ha vinto ${amount} per aver eliminato ${out}`,
    wonYou: (amount, out) => `Hai vinto ${amount} per aver eliminato ${out}`,
    wonOnYou: (who, amount) => `${who} ha vinto ${amount} per averti eliminato`,
    own: (who, amount) => `${who} ha vinto ${amount}: la taglia sulla propria testa`,
    ownYou: (amount) => `Hai vinto ${amount}: la taglia sulla tua testa`,
  },
  hu: {
    money: cash('hu-HU'),
    fee: '10 $ + 5 $ fejpénz + 1 $ díj',
    knockout: 'Progresszív knockout',
    line: (paid) => `Progresszív knockout: 5 $ fejpénz minden játékoson · kifizetett fejpénz: ${paid}`,
    badge: (amount) => `fejpénz ${amount}`,
    wonShort: (amount) => `nyert ${amount}`,
    won: (who, amount, out) => `${who} ${amount} fejpénzt nyert ${out} kiejtéséért`,
    wonYou: (amount, out) => `${amount} fejpénzt nyertél ${out} kiejtéséért`,
    wonOnYou: (who, amount) => `${who} ${amount} fejpénzt nyert a kiejtésedért`,
    own: (who, amount) => `${who} ${amount} összeget nyert: a saját fejpénzét`,
    ownYou: (amount) => `${amount} összeget nyertél: a saját fejpénzedet`,
  },
};

// Assertions retry for 5 s here (the tournament's pages re-render on a 2 s refresh).
const eventually = (desc, fn, timeoutMs = 5000) => harness.eventually(desc, fn, timeoutMs);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-bounty-'));
let ADDR = null;
const api = operatorApi(() => ADDR, OPERATOR_KEY);

// Every text the page's notice line showed (it goes after 6 s, and a later notice replaces it).
const NOTICE_WATCH = `(() => {
  window.__notices = [];
  const start = () => {
    const box = document.getElementById('notice');
    new MutationObserver(() => { if (!box.hidden && box.textContent) window.__notices.push(box.textContent); })
      .observe(box, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['hidden'] });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();`;

// ---------------------------------------------------------------------------------------------
// A player: a browser context and page, the frames it receives, the errors it logs.

// The bots' play: until `aggressive`, each by its own style (Ann raises whenever she may, Bob
// calls, Cid folds to any bet: one player busts at a time, and the two left after it do not
// bust each other quickly); then everyone raises. `hold` stops every bot (the first knockout).
const STYLES = {
  raise: ['raise', 'bet', 'complete', 'call', 'check', 'bring_in', 'show'],
  call: ['check', 'call', 'bring_in', 'show'],
  fold: ['check', 'fold', 'bring_in', 'show'],
};
const play = { aggressive: false, hold: false };

class Player {
  constructor(name, lang, style, context, page) {
    Object.assign(this, { name, lang, style, context, page });
    this.w = WORDS[lang];
    this.errors = [];
    this.prompt = null; // the latest your_turn frame
    this.clicked = new Set(); // `${table_id}:${seq}` of the prompts answered
    this.clicks = 0;
    this.seats = []; // tournament_seat frames
    this.bounties = []; // tournament_bounty frames, with when they came
    this.placed = null; // the tournament_placed frame
    this.paused = true; // the bot waits until the test lets it play
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
    else if (m.type === 'tournament_bounty') {
      this.bounties.push({ ...m, at: Date.now() });
      // The first knockout: every bot stops (its result strip stays while the test looks).
      if (!play.aggressive) play.hold = true;
    } else if (m.type === 'tournament_placed') this.placed = { ...m, at: Date.now() };
    else if (m.type === 'welcome') this.playerId = m.player_id;
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

  async balance() {
    return Number(await this.attr('balance', 'data-amount'));
  }

  async shot(file) {
    const p = path.join(SHOTS, file);
    await this.page.screenshot({ path: p, fullPage: false });
    log(`${this.name}: screenshot ${path.relative(ROOT, p)}`);
  }

  row(id) {
    return this.page.locator(`[data-testid=tournament-row][data-tournament-id="${id}"]`);
  }

  /** The words this page says for a bounty paid (`m`, a frame), from its point of view. */
  said(m) {
    const amount = this.w.money(m.cents);
    if (m.eliminated === m.player_id) return m.player_id === this.playerId ? this.w.ownYou(amount) : this.w.own(m.name, amount);
    if (m.player_id === this.playerId) return this.w.wonYou(amount, m.eliminated_name);
    if (m.eliminated === this.playerId) return this.w.wonOnYou(m.name, amount);
    return this.w.won(m.name, amount, m.eliminated_name);
  }

  /** The seats' bounty badges as the page shows them: {seat name: {amount, text}}. */
  badges() {
    return this.page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=seat]')].flatMap((s) => {
      const b = s.querySelector('[data-testid=seat-bounty]');
      const name = s.querySelector('[data-testid=seat-name]')?.textContent;
      return b && b.checkVisibility() ? [[name, { amount: Number(b.dataset.amount), text: b.textContent.replace(/[\u00a0\u202f]/g, ' ') }]] : [];
    })));
  }
}

// Plays whenever the page shows action buttons, by its style (see STYLES and `play`).
async function bot(p) {
  while (!p.stop) {
    if (run.aborted) return;
    const held = () => p.paused || play.hold;
    const next = held() ? null : await nextPrompt(p);
    if (!next || held()) {
      await sleep(60);
      continue;
    }
    const choice = pickButton(next.buttons, STYLES[play.aggressive ? 'raise' : p.style]);
    p.clicked.add(next.key);
    p.clicking = true;
    await clickAction(p, choice).catch((e) => {
      if (!p.stop && !held()) throw e;
    }).finally(() => { p.clicking = false; });
    p.clicks += 1;
  }
}

async function runBot(p) {
  try {
    await bot(p);
  } catch (e) {
    abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e);
  }
}

/** Waits for every bot's click under way (after `play.hold` or a page's `paused`). */
async function settle(players) {
  await until('the bots\' clicks under way done', () => players.every((p) => !p.clicking), 6000, 20);
}

const enter = (p, url) => enterLobby(p, url, STARTING_BALANCE);

/** Every seat's bounty badge: visible on the seat's edge (nothing lies over it), and moving
 *  nothing: the seat and everything in it are where they are without the badge. */
async function checkBadgesMoveNothing(p, where) {
  const r = await p.page.evaluate(() => {
    const seats = [...document.querySelectorAll('[data-testid=seat]')];
    const boxes = () => seats.map((s) => [s, ...s.querySelectorAll('*')].filter((n) => n.dataset?.testid !== 'seat-bounty' && n.checkVisibility())
      .map((n) => { const b = n.getBoundingClientRect(); return [b.x, b.y, b.width, b.height].map((v) => Math.round(v * 10) / 10).join(','); }).join(';'));
    const badges = [...document.querySelectorAll('[data-testid=seat-bounty]')];
    const covered = badges.filter((b) => {
      const c = b.getBoundingClientRect();
      const at = document.elementFromPoint(c.x + c.width / 2, c.y + c.height / 2);
      return !(at && b.contains(at));
    }).length;
    const position = badges.map((b) => getComputedStyle(b).position);
    const withBadges = boxes();
    for (const b of badges) b.style.display = 'none';
    const without = boxes();
    for (const b of badges) b.style.display = '';
    return { count: badges.length, covered, position, moved: withBadges.filter((x, i) => x !== without[i]).length };
  });
  check(r.count > 0, `${p.name}: no seat-bounty badge ${where}`);
  check(r.position.every((x) => x === 'absolute'), `${p.name}: the badges are position ${r.position} ${where}`);
  check(r.moved === 0, `${p.name}: the bounty badges move ${r.moved} seat(s) or their contents ${where}`);
  check(r.covered === 0, `${p.name}: ${r.covered} bounty badge(s) lie under something ${where}`);
}

/** A bounty paid (`m`) as `p`'s page says it: a line in the hand log (role=log, a live region)
 *  with the frame's data and the words from this page's point of view; and, when `strip`, the
 *  same words in the result strip, hidden from screen readers there; never also as a notice
 *  (said once). */
async function checkSaid(p, m, { strip }) {
  const want = p.said(m);
  await eventually(`${p.name}: the bounty ${m.name} <- ${m.eliminated_name} (${m.cents}) said`, async () => {
    const r = await p.page.evaluate((f) => {
      const sel = `[data-player-id="${f.player_id}"][data-eliminated="${f.eliminated}"][data-cents="${f.cents}"]`;
      const line = document.querySelector(`[data-testid=log] [data-testid=log-line][data-kind=bounty]${sel}`);
      const s = document.querySelector(`[data-testid=result-strip] [data-testid=result-bounty]${sel}`);
      const strip = document.querySelector('[data-testid=result-strip]');
      return {
        log: line ? { text: line.textContent.replace(/[\u00a0\u202f]/g, ' '), live: Boolean(line.closest('[role=log][aria-live=polite]')), visible: line.checkVisibility() } : null,
        strip: s ? { text: s.textContent.replace(/[\u00a0\u202f]/g, ' '), hidden: s.getAttribute('aria-hidden'), visible: strip.checkVisibility() } : null,
        notices: window.__notices.map((x) => x.replace(/[\u00a0\u202f]/g, ' ')),
        stripHtml: strip.outerHTML.slice(0, 600),
      };
    }, m);
    if (!r.log && !strip) {
      // Told away from that tournament's table (the table closed at the end): a notice.
      check(r.notices.includes(want), `said neither in the hand log nor as a notice (notices: ${JSON.stringify(r.notices)})`);
      return;
    }
    check(r.log, 'no bounty line in the hand log');
    check(r.log.text === want, `the log says ${JSON.stringify(r.log.text)}, expected ${JSON.stringify(want)}`);
    check(r.log.live, 'the log line is not in the role=log live region');
    check(!r.notices.includes(want), 'the bounty was said as a notice too (it is said twice)');
    if (strip) {
      check(r.log.visible, 'the log line is not visible');
      check(r.strip, `no [data-testid=result-bounty] in the result strip: ${r.stripHtml}`);
      check(r.strip.visible, 'the result strip is hidden');
      check(r.strip.text === want, `the strip says ${JSON.stringify(r.strip.text)}, expected ${JSON.stringify(want)}`);
      check(r.strip.hidden === 'true', 'the strip\'s bounty line is not aria-hidden (the log says it already)');
    }
  });
  log(`${p.name}: "${want}"${strip ? ' (log and result strip)' : ' (log)'}`);
}

/** The tournament view (page or panel) agrees with the detail `d`: the buy-in, the knockout
 *  line, each entrant's head and bounties won, each result's bounties won. */
async function checkView(p, d, where) {
  await eventually(`${p.name}: the tournament view's bounties ${where}`, async () => {
    check((await p.text('tournament-buy-in')) === p.w.fee, `the buy-in says ${JSON.stringify(await p.text('tournament-buy-in'))}`);
    check((await p.attr('tournament-buy-in', 'data-bounty')) === String(BOUNTY), `the buy-in's data-bounty is ${await p.attr('tournament-buy-in', 'data-bounty')}`);
    const line = p.q('tournament-bounty');
    check(await line.isVisible(), 'no [data-testid=tournament-bounty]');
    check((await p.text('tournament-bounty')) === p.w.line(p.w.money(d.bounties_paid)), `the knockout line says ${JSON.stringify(await p.text('tournament-bounty'))}`);
    check((await line.getAttribute('data-paid')) === String(d.bounties_paid) && (await line.getAttribute('data-progressive')) === 'true' && (await line.getAttribute('data-bounty')) === String(BOUNTY),
      `the knockout line's data: paid ${await line.getAttribute('data-paid')}, progressive ${await line.getAttribute('data-progressive')}; the detail says ${d.bounties_paid}`);
    const rows = await p.page.locator('[data-testid=tournament-entrant]').evaluateAll((rs) => rs.map((r) => ({
      id: r.dataset.playerId, state: r.dataset.state,
      head: r.querySelector('[data-testid=entrant-bounty]')?.dataset.amount, headText: r.querySelector('[data-testid=entrant-bounty]')?.textContent.replace(/[\u00a0\u202f]/g, ' '),
      won: r.querySelector('[data-testid=entrant-bounties-won]')?.dataset.amount, wonText: r.querySelector('[data-testid=entrant-bounties-won]')?.textContent.replace(/[\u00a0\u202f]/g, ' '),
    })));
    check(rows.length === d.entrants.length, `${rows.length} entrant rows, the detail has ${d.entrants.length}`);
    for (const e of d.entrants) {
      const row = rows.find((x) => x.id === e.player_id);
      check(row, `no entrant row for ${e.name}`);
      check(row.head === String(e.bounty ?? 0) && row.won === String(e.bounties_won), `${e.name}'s row: bounty ${row.head}, won ${row.won}; the detail says ${e.bounty}, ${e.bounties_won}`);
      const inPlay = e.state === 'registered' || e.state === 'playing';
      check(row.headText === (inPlay ? p.w.money(e.bounty) : ''), `${e.name}'s bounty cell says ${JSON.stringify(row.headText)}`);
      check(row.wonText === p.w.wonShort(p.w.money(e.bounties_won)), `${e.name}'s bounties won cell says ${JSON.stringify(row.wonText)}`);
    }
    const results = await p.page.locator('[data-testid=tournament-result]').evaluateAll((rs) => rs.map((r) => ({
      id: r.dataset.playerId, won: r.querySelector('[data-testid=result-bounties]')?.dataset.amount,
      text: r.querySelector('[data-testid=result-bounties]')?.textContent.replace(/[\u00a0\u202f]/g, ' '),
    })));
    check(results.length === d.results.length, `${results.length} result rows, the detail has ${d.results.length}`);
    for (const [i, x] of d.results.entries()) {
      check(results[i].id === x.player_id && results[i].won === String(x.bounties_won), `result ${i + 1}: ${JSON.stringify(results[i])}; the detail says ${x.name} won ${x.bounties_won}`);
      check(results[i].text === p.w.money(x.bounties_won), `result ${i + 1}'s bounties say ${JSON.stringify(results[i].text)}`);
    }
  }, 8000);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  // The action clock is long: a held page's prompt waits for the test's checks.
  ADDR = await startServer(tmp, { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '1000', STUD_ACTION_TIMEOUT_MS: '120000', STUD_OPERATOR_KEY: OPERATOR_KEY });
  log(`server listening on http://${ADDR}`);
  const created = await api('POST', '/api/admin/tournaments', {
    name: 'Bounty SNG', variant: 'stud', kind: 'sit_and_go', min_entrants: 3, max_entrants: 3, seats_per_table: 3,
    entry_fee: ENTRY, house_fee: HOUSE, starting_chips: CHIPS, payouts: [70, 30],
    levels: [{ ante: 5, bring_in: 10, small_bet: 20, big_bet: 40, hands: 500 }],
    bounty: BOUNTY, progressive_bounty: true,
  });
  check(created.status === 201 && created.json?.id, `creating the knockout sit-and-go: ${created.status} ${created.text}`);
  const id = created.json.id;
  const d0 = created.json;
  check(d0.bounty === BOUNTY && d0.progressive_bounty === true && d0.bounties_paid === 0, `the created detail: bounty ${d0.bounty}, progressive ${d0.progressive_bounty}, paid ${d0.bounties_paid}`);
  log(`tournament created: ${id}`);
  const browser = await launchChromium();
  try {
    const players = [];
    for (const [name, lang, style, width, height] of [['Ann', 'en', 'raise', 1280, 800], ['Bob', 'it', 'call', 390, 844], ['Cid', 'hu', 'fold', 1366, 768]]) {
      const context = await browser.newContext({ viewport: { width, height } });
      await context.addInitScript(LIVE_WATCH); // the live regions' writes (checkLiveRegions)
      await context.addInitScript(NOTICE_WATCH);
      players.push(new Player(name, lang, style, context, await context.newPage()));
    }
    const [a, b, c] = players;
    const url = `http://${ADDR}/`;
    for (const p of players) await enter(p, url);
    const byId = (pid) => players.find((p) => p.playerId === pid);

    // 1. Before the start: each lobby row says the bounty in the buy-in and that it is a
    //    progressive knockout; the view says the bounty in the buy-in and the knockout line;
    //    Ann's entry, once registered, has the bounty on its head.
    for (const p of players) {
      await until(`${p.name}: the tournament's row`, async () => p.row(id).isVisible(), 10000);
      await eventually(`${p.name}: the lobby row of a knockout tournament`, async () => {
        const fee = p.row(id).locator('[data-testid=tournament-row-buy-in]');
        const ko = p.row(id).locator('[data-testid=tournament-row-knockout]');
        check(nb(await fee.textContent()) === p.w.fee, `the row's buy-in says ${JSON.stringify(nb(await fee.textContent()))}`);
        check((await fee.getAttribute('data-bounty')) === String(BOUNTY), `the row's buy-in has data-bounty ${await fee.getAttribute('data-bounty')}`);
        check(await ko.isVisible(), 'no [data-testid=tournament-row-knockout] in the row');
        check(nb(await ko.textContent()) === p.w.knockout && (await ko.getAttribute('data-progressive')) === 'true', `the row's knockout tag says ${JSON.stringify(nb(await ko.textContent()))} (data-progressive ${await ko.getAttribute('data-progressive')})`);
      }, 8000);
    }
    await checkAxe(b, 'in the lobby with a knockout tournament (390 px)');
    log(`the lobby rows say "${await a.row(id).locator('[data-testid=tournament-row-buy-in]').textContent()}" and "${await a.row(id).locator('[data-testid=tournament-row-knockout]').textContent()}"`);
    await a.row(id).locator('[data-testid=tournament-open]').click();
    await a.page.locator('[data-testid=tournament] [data-testid=tournament-register]').click();
    await until(`${a.name}: registered from the view`, async () => (await a.page.locator('[data-testid=tournament] [data-testid=tournament-unregister]').count()) === 1, 5000);
    await checkView(a, (await api('GET', `/api/tournaments/${id}`)).json, 'before the start');
    await checkAxe(a, 'in the tournament view of a knockout tournament');
    log(`${a.name}: the view says "${await a.text('tournament-buy-in')}" and "${await a.text('tournament-bounty')}"`);
    await a.q('tournament-back').click();
    for (const p of [b, c]) {
      const reg = p.row(id).locator('[data-testid=tournament-register]');
      await until(`${p.name}: the register button`, async () => reg.isVisible(), 10000);
      await reg.click();
    }
    const bots = players.map((p) => runBot(p));
    for (const p of players) {
      await until(`${p.name}: tournament_seat, then the tournament table`, async () => p.seats.length > 0 && (await p.q('table').isVisible()), 20000);
    }
    log('all three seated by the tournament; the bots wait');

    // 2. At the table every seat shows the bounty on its player's head: $5, a badge that moves
    //    nothing.
    for (const p of players) {
      await eventually(`${p.name}: the seats' bounty badges`, async () => {
        const got = await p.badges();
        check(Object.keys(got).length === 3, `badges on ${JSON.stringify(Object.keys(got))}`);
        for (const [name, x] of Object.entries(got)) {
          check(x.amount === BOUNTY && x.text === p.w.badge(p.w.money(BOUNTY)), `${name}'s badge: ${JSON.stringify(x)}`);
        }
      }, 8000);
      await checkBadgesMoveNothing(p, 'at the start');
    }
    await a.shot('bounty-badges-ann.png');
    await b.shot('bounty-badges-bob-390.png');
    await checkAxe(a, 'at the table with the bounty badges');
    await checkAxe(b, 'at the table with the bounty badges (390 px)');

    // 3. They play: Ann raises, Bob calls, Cid folds to any bet, until the first knockout.
    for (const p of players) p.paused = false;
    await until('the first tournament_bounty', () => players.some((p) => p.bounties.length > 0), 120000, 50);
    await settle(players);
    await sleep(500); // every frame of that knockout (a split pot pays several players)
    const first = players.flatMap((p) => p.bounties).find((m) => m.eliminated !== m.player_id);
    check(first && first.tournament_id === id, `the first bounty frame: ${JSON.stringify(first)}`);
    const out = byId(first.eliminated);
    const ko = players.flatMap((p) => p.bounties).filter((m) => m.eliminated === first.eliminated);
    const unique = [...new Map(ko.map((m) => [`${m.player_id}:${m.cents}:${m.head}`, m])).values()];
    // Progressive: half of the $5 head is paid, half goes onto the heads of those paid.
    const shares = unique.map((m) => m.cents + m.head - BOUNTY);
    check(shares.reduce((n, x) => n + x, 0) === BOUNTY && unique.every((m) => m.cents >= m.head - BOUNTY && m.cents - (m.head - BOUNTY) <= 1),
      `the knockout of ${out.name} paid ${unique.map((m) => `${m.name} ${m.cents} (head ${m.head})`).join(', ')}; expected half of each share of ${BOUNTY} paid, half onto the head`);
    log(`${out.name} knocked out: ${unique.map((m) => `${m.name} won ${m.cents}, head now ${m.head}`).join('; ')}`);
    // Every page at the table was told (the paid players' table, and the one knocked out).
    for (const p of players) {
      for (const m of unique) check(p.bounties.some((x) => x.player_id === m.player_id && x.eliminated === m.eliminated && x.cents === m.cents), `${p.name} was not told that ${m.name} won ${m.cents} for ${out.name}`);
    }
    // 4. Each page says it (log and strip, in its language, from its point of view); the paid
    //    players' seats show their new heads; the one out has no seat, so no badge.
    for (const p of players) for (const m of unique) await checkSaid(p, m, { strip: true });
    await a.shot('bounty-knockout-ann.png');
    await b.shot('bounty-knockout-bob-390.png');
    for (const p of players) {
      await eventually(`${p.name}: the badges after the knockout`, async () => {
        const got = await p.badges();
        for (const m of unique) check(got[m.name]?.amount === m.head && got[m.name].text === p.w.badge(p.w.money(m.head)), `${m.name}'s badge: ${JSON.stringify(got[m.name])}, the frame says head ${m.head}`);
        check(!got[out.name], `${out.name} is out but has a badge: ${JSON.stringify(got[out.name])}`);
      }, 8000);
      await checkBadgesMoveNothing(p, 'after the knockout');
    }
    // 5. The tournament view at the table (a panel) agrees with the detail: heads, bounties won,
    //    the bounties paid; axe in it.
    const stayed = players.filter((p) => p !== out);
    const d1 = (await api('GET', `/api/tournaments/${id}`)).json;
    check(d1.bounties_paid === BOUNTY / 2, `the detail's bounties_paid is ${d1.bounties_paid} after one knockout`);
    for (const m of unique) check(d1.entrants.find((e) => e.player_id === m.player_id)?.bounties_won === m.cents, `the detail's ${m.name}: ${JSON.stringify(d1.entrants.find((e) => e.player_id === m.player_id))}`);
    for (const p of stayed) {
      await openPanel(p);
      await checkView(p, d1, 'at the table after the first knockout');
      await checkAxe(p, 'in the tournament panel of a knockout tournament');
      if (p === stayed[0]) await p.shot(`bounty-panel-${p.name.toLowerCase()}.png`);
      await closePanel(p);
    }
    for (const p of players) await checkLiveRegions(p, 'through the first knockout');

    // 6. Everyone raises now, to the end. The winner is paid the last knockout and their own
    //    head; every bounty is paid once.
    play.aggressive = true;
    play.hold = false;
    await until('the tournament to end (every page placed)', () => players.every((p) => p.placed), 180000, 200);
    for (const p of players) p.stop = true;
    await Promise.all(bots);
    if (run.aborted) throw run.aborted;
    const winner = players.find((p) => p.placed.place === 1);
    check(winner, `no winner: ${players.map((p) => `${p.name} ${p.placed.place}`).join(', ')}`);
    await until(`${winner.name}: the frame for the winner's own head`, () => winner.bounties.some((m) => m.eliminated === m.player_id), 10000, 50);
    const all = [...new Map(players.flatMap((p) => p.bounties).map((m) => [`${m.player_id}:${m.eliminated}:${m.cents}:${m.head}`, m])).values()];
    const paid = all.reduce((n, m) => n + m.cents, 0);
    check(paid === BOUNTY * 3, `the bounty frames paid ${paid} in all, expected ${BOUNTY * 3}: ${all.map((m) => `${m.name} <- ${m.eliminated_name} ${m.cents}`).join('; ')}`);
    const ownHead = all.find((m) => m.eliminated === m.player_id);
    check(ownHead.player_id === winner.playerId && ownHead.head === 0, `the own-head frame: ${JSON.stringify(ownHead)}`);
    // Every page said every bounty it was told (its log, whatever view is on screen now).
    for (const p of players) for (const m of p.bounties) await checkSaid(p, m, { strip: false });
    log(`paid: ${all.map((m) => `${m.name} <- ${m.eliminated_name} ${m.cents}`).join('; ')}`);

    // 7. The results: each page's tournament view (opened when the table closed) agrees with
    //    the detail; bounties won add up to what was paid, bounty x entries; balances.
    const d2 = (await api('GET', `/api/tournaments/${id}`)).json;
    check(d2.status === 'finished' && d2.bounties_paid === BOUNTY * 3, `the detail at the end: ${d2.status}, bounties_paid ${d2.bounties_paid}`);
    const won = d2.results.reduce((n, r) => n + r.bounties_won, 0);
    check(won === BOUNTY * 3, `the results' bounties_won add up to ${won}, expected ${BOUNTY * 3}`);
    for (const r of d2.results) {
      const frames = all.filter((m) => m.player_id === r.player_id).reduce((n, m) => n + m.cents, 0);
      check(frames === r.bounties_won, `${r.name}: the frames paid ${frames}, the results say ${r.bounties_won}`);
    }
    for (const p of players) {
      await eventually(`${p.name}: the tournament view at the end`, async () => {
        if (!(await p.q('tournament').isVisible()) && (await p.q('tournament-out-open').isVisible())) await p.q('tournament-out-open').click();
        check(await p.q('tournament').isVisible(), 'the tournament view is not shown at the end');
        check((await p.attr('tournament', 'data-status')) === 'finished', 'the view is not data-status="finished"');
      }, 15000);
      await checkView(p, d2, 'at the end');
      const r = d2.results.find((x) => x.player_id === p.playerId);
      const want = STARTING_BALANCE - ENTRY - HOUSE - BOUNTY + r.prize + r.bounties_won;
      await eventually(`${p.name}: the balance at the end`, async () => check((await p.balance()) === want, `the balance is ${await p.balance()}, expected ${want} (prize ${r.prize}, bounties ${r.bounties_won})`), 8000);
    }
    await b.shot('bounty-results-bob-390.png');
    await checkAxe(a, 'in the finished knockout tournament\'s view');
    await checkAxe(b, 'in the finished knockout tournament\'s view (390 px)');
    log(`results: ${d2.results.map((r) => `${r.place}. ${r.name} prize ${r.prize}, bounties ${r.bounties_won}`).join('; ')}`);
    checkConsole();
    log(`${frames.checked} WebSocket frames matched proto/schema.json; clicks: ${players.map((p) => `${p.name} ${p.clicks}`).join(', ')}`);
  } catch (e) {
    for (const [i, ctx] of browser.contexts().entries()) {
      for (const page of ctx.pages()) {
        const f = path.join(SHOTS, `bounty-failure-${i + 1}.png`);
        await page.screenshot({ path: f, fullPage: true }).then(() => console.log(`failure screenshot: ${path.relative(process.cwd(), f)}`), () => {});
      }
    }
    throw e;
  } finally {
    await browser.close().catch(() => {});
  }
}

await runTest('browser bounty test', main, { overallMs: OVERALL_MS, tmp });
