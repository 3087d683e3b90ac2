// End-to-end browser test of a deal at a tournament's final table in the web client (web/), and
// of an operator's pause (issue 30 item 5): the "Propose a deal" control at the final table
// (`tournament-table-deal`, the tournament panel's form `deal-propose`), a refusal in words
// (`deal-propose-error`), the deal box every player left sees (`tournament-deal`: each player's
// chips, the ICM and chip-chop figures as money, who has accepted, the clock, Accept / Decline),
// a declined deal going away for everyone ("off"), a deal accepted by all and made (each
// player's paid amount), the tournament ending with it and its results' deal amounts
// (`result-deal`); and "Paused by the operator" (`tournament-paused`) at the table and in the
// tournament view while an operator has the tournament paused, after a reload too, gone on
// resume.
//
// Starts the real server with an operator key and creates a three-player sit-and-go with
// payouts 50/30/20 through the admin API. Three headless Chromium pages (Ann at 1280x800 in
// English, Bob at 390x844 in Italian, Cat at 1366x768 in Hungarian) register and check and call
// at the table. The frames each page receives (`tournament_deal`, `tournament_paused`,
// `tournament_placed`) and GET /api/tournaments/{id} are the reference the DOM is checked
// against; every frame is checked against proto/schema.json.
//
// Run from tests/browser after `cargo build -p stud-cli`:  node deal.mjs
// STUD_BIN overrides the binary, CHROMIUM the browser, STUD_WEB_DIR serves web/ from disk.
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { CHROMIUM, Failure, LIVE_WATCH, PLAYERS, ROOT, SHOTS, abort, check, checkAxe, checkConsole, checkLiveRegions, clickAction, closePanel, enterLobby, frames, launchChromium, log, nextPrompt, operatorApi, pickButton, receivedFrame, run, runTest, sleep, startServer, until, watchPage } from './harness.mjs';

const OPERATOR_KEY = 'browser-deal-operator-key-0123456789';
const OVERALL_MS = 5 * 60 * 1000;
const STARTING_BALANCE = 100000; // the server's default play-money balance (cents)
const ENTRY = 1000;
const HOUSE = 100;
const CHIPS = 1000;
const PAYOUTS = [50, 30, 20];

const nb = (s) => String(s ?? '').replace(/[\u00a0\u202f]/g, ' ').replace(/\s+/g, ' ').trim();
const cash = (locale) => (cents) => nb(new Intl.NumberFormat(locale, {
  style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: cents % 100 ? 2 : 0, maximumFractionDigits: 2,
}).format(cents / 100));

// The page's words the test checks, in each page's language.
const WORDS = {
  en: { money: cash('en-US'), paused: 'Paused by the operator', off: 'The deal is off.', proposed: 'Deal proposed', made: 'Deal made', leaveRefused: 'More is left to play for than first place pays.', paidYou: (a) => `The deal paid you ${a}.` },
  it: { money: cash('it-IT'), paused: 'Sospeso dall’operatore', off: 'L’accordo è saltato.', proposed: 'Accordo proposto', made: 'Accordo fatto', paidYou: (a) => `L’accordo ti ha pagato ${a}.` },
  hu: { money: cash('hu-HU'), paused: 'Az üzemeltető szüneteltette', off: 'A megegyezés meghiúsult.', proposed: 'Megegyezési javaslat', made: 'Megegyezés létrejött', paidYou: (a) => `A megegyezés ${a} összeget fizetett neked.` },
};

// Assertions retry for 8 s here (the tournament's pages re-render on a 2 s refresh).
const eventually = (desc, fn, timeoutMs = 8000) => harness.eventually(desc, fn, timeoutMs);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-deal-'));
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

class Player {
  constructor(name, lang, context, page) {
    Object.assign(this, { name, lang, context, page });
    this.w = WORDS[lang];
    this.errors = [];
    this.prompt = null; // the latest your_turn frame
    this.clicked = new Set(); // `${table_id}:${seq}` of the prompts answered
    this.clicks = 0;
    this.seats = []; // tournament_seat frames
    this.deals = []; // tournament_deal frames, with when they came
    this.pauses = []; // tournament_paused frames
    this.placed = null; // the tournament_placed frame
    this.errorFrames = [];
    this.handsEnded = 0;
    this.clicking = false;
    this.stop = false;
    this.sentDeal = []; // tournament_deal_propose / tournament_deal_answer frames sent
    this.acts = []; // act frames sent
    PLAYERS.push(this);
    watchPage(this, page, (m) => {
      if (m.type === 'tournament_deal_propose' || m.type === 'tournament_deal_answer') this.sentDeal.push(m);
      if (m.type === 'act') this.acts.push(m);
    });
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (process.env.DEBUG && !['pong', 'event'].includes(m.type)) log(`${this.name} < ${m.type} ${m.type === 'tournament_deal' ? JSON.stringify(m.deal) : m.type === 'error' ? m.message : ''}`);
    if (m.type === 'your_turn') this.prompt = m;
    else if (m.type === 'tournament_seat') this.seats.push(m);
    else if (m.type === 'tournament_deal') this.deals.push({ ...m, at: Date.now() });
    else if (m.type === 'tournament_paused') this.pauses.push(m);
    else if (m.type === 'tournament_placed') this.placed = m;
    else if (m.type === 'error') this.errorFrames.push(m);
    else if (m.type === 'hand_result') this.handsEnded += 1;
    else if (m.type === 'welcome') this.playerId = m.player_id;
  }

  /** The last deal frame's deal. */
  get deal() {
    return this.deals[this.deals.length - 1]?.deal ?? null;
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

  /** The deal box as the page shows it. */
  box() {
    return this.page.evaluate(() => {
      const box = document.querySelector('[data-testid=tournament-deal]');
      if (!box || box.hidden || !box.checkVisibility()) return null;
      const button = (id) => {
        const b = box.querySelector(`[data-testid=${id}]`);
        return b && !b.hidden ? { disabled: b.getAttribute('aria-disabled') === 'true' } : null;
      };
      return {
        ...box.dataset,
        title: box.querySelector('[data-testid=deal-title]').textContent,
        clock: box.querySelector('[data-testid=deal-clock]').dataset.ms ?? null,
        rows: [...box.querySelectorAll('[data-testid=deal-player]')].map((r) => ({
          ...r.dataset,
          chipsText: r.querySelector('[data-testid=deal-chips]')?.textContent,
          icm: r.querySelector('[data-testid=deal-icm]')?.dataset.amount ?? null,
          icmText: r.querySelector('[data-testid=deal-icm]')?.textContent ?? null,
          chop: r.querySelector('[data-testid=deal-chip-chop]')?.dataset.amount ?? null,
          chopText: r.querySelector('[data-testid=deal-chip-chop]')?.textContent ?? null,
          paid: r.querySelector('[data-testid=deal-paid]')?.dataset.amount ?? null,
          paidText: r.querySelector('[data-testid=deal-paid]')?.textContent ?? null,
        })),
        accept: button('deal-accept'),
        decline: button('deal-decline'),
        close: button('deal-close'),
        focusInside: box.contains(document.activeElement),
      };
    });
  }
}

// Plays whenever the page shows action buttons: check, call, bring in, show (nobody busts);
// `play.hold` stops every bot (a hand stays in play while the test looks), a page's `hold` its
// own while the test clicks in that page (one mouse: two clicks at once would lose one).
const play = { hold: false };
async function bot(p) {
  while (!p.stop) {
    if (run.aborted) return;
    const held = () => play.hold || p.hold;
    const next = held() ? null : await nextPrompt(p);
    if (!next || held()) {
      if (process.env.DEBUG && p.prompt && Date.now() - (p.lastNote ?? 0) > 5000) {
        p.lastNote = Date.now();
        const buttons = await p.page.locator('[data-testid=actions] [data-testid=action]').evaluateAll((bs) => bs.map((x) => x.dataset.action)).catch(() => []);
        log(`${p.name}: no prompt to answer; last your_turn seq ${p.prompt.seq} (${p.clicked.has(`${p.prompt.table_id}:${p.prompt.seq}`) ? 'answered' : 'open'}), buttons ${buttons.join(',')}; last act sent ${JSON.stringify(p.acts[p.acts.length - 1])}; focus ${await p.page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.id)}`);
      }
      await sleep(60);
      continue;
    }
    const choice = pickButton(next.buttons, ['check', 'call', 'bring_in', 'show']);
    p.clicked.add(next.key);
    p.clicking = true;
    if (process.env.DEBUG) log(`${p.name} clicks ${choice.action} at seq ${next.prompt.seq}`);
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

const enter = (p, url) => enterLobby(p, url, STARTING_BALANCE);

/** The deal box of `p` agrees with the last deal frame it received: state, method, leave,
 *  shared, the clock, and per player the chips, both figures (data and money in the page's
 *  language), who has accepted; once made, what each was paid. */
async function checkBox(p, want, where) {
  const box = await p.box();
  check(box, `${p.name}: no deal box ${where}`);
  const deal = p.deal;
  check(deal && deal.state === want, `${p.name}: the last deal frame is ${JSON.stringify(deal)}, expected ${want}`);
  check(box.state === deal.state && box.method === deal.method && box.leave === String(deal.leave) && box.shared === String(deal.shared),
    `${p.name}: the box says ${JSON.stringify({ state: box.state, method: box.method, leave: box.leave, shared: box.shared })}; the frame ${JSON.stringify({ state: deal.state, method: deal.method, leave: deal.leave, shared: deal.shared })}`);
  check(nb(box.title) === (want === 'made' ? p.w.made : p.w.proposed), `${p.name}: the box's title says ${box.title}`);
  check(box.rows.length === deal.players.length, `${p.name}: ${box.rows.length} rows in the box, the frame has ${deal.players.length} players`);
  for (const x of deal.players) {
    const r = box.rows.find((y) => y.playerId === x.player_id);
    check(r, `${p.name}: no row for ${x.name}`);
    check(r.chips === String(x.chips), `${p.name}: ${x.name}'s chips ${r.chips}, the frame says ${x.chips}`);
    if (want === 'proposed') {
      check(r.icm === String(x.icm) && r.chop === String(x.chip_chop), `${p.name}: ${x.name}'s figures ICM ${r.icm}, chop ${r.chop}; the frame says ${x.icm}, ${x.chip_chop}`);
      check(nb(r.icmText) === p.w.money(x.icm) && nb(r.chopText) === p.w.money(x.chip_chop), `${p.name}: ${x.name}'s figures read ${nb(r.icmText)}, ${nb(r.chopText)}; expected ${p.w.money(x.icm)}, ${p.w.money(x.chip_chop)}`);
      check(r.accepted === String(x.accepted), `${p.name}: ${x.name} accepted ${r.accepted}, the frame says ${x.accepted}`);
    } else {
      check(r.paid === String(x.paid) && nb(r.paidText) === p.w.money(x.paid), `${p.name}: ${x.name} paid ${r.paid} (${nb(r.paidText)}), the frame says ${x.paid}`);
    }
  }
  if (want === 'proposed') {
    check(box.until === String(deal.until_ms), `${p.name}: the box's data-until ${box.until}, the frame's until_ms ${deal.until_ms}`);
    const ms = Number(box.clock);
    check(ms > 0 && ms <= 120000 && Math.abs(ms - (deal.until_ms - Date.now())) < 3000, `${p.name}: the deal's clock says ${box.clock} ms; until_ms is ${deal.until_ms - Date.now()} ms away`);
    check(box.decline && !box.close, `${p.name}: the buttons ${JSON.stringify({ accept: box.accept, decline: box.decline, close: box.close })}`);
    const me = deal.players.find((x) => x.player_id === p.playerId);
    check(Boolean(box.accept) === !me.accepted, `${p.name}: Accept ${box.accept ? 'shown' : 'hidden'} with accepted ${me.accepted}`);
  } else {
    check(box.close && !box.accept && !box.decline, `${p.name}: the made deal's buttons ${JSON.stringify({ accept: box.accept, decline: box.decline, close: box.close })}`);
  }
  return box;
}

/** The deal box is in the page's flow above the table: nothing of it lies over the action bar,
 *  and it did not take the focus. */
async function checkBoxPlace(p, where) {
  const r = await p.page.evaluate(() => {
    const box = document.querySelector('[data-testid=tournament-deal]').getBoundingClientRect();
    const bar = document.querySelector('[data-testid=action-bar]');
    const b = bar && !bar.hidden ? bar.getBoundingClientRect() : null;
    return { boxBottom: box.bottom, barTop: b?.top ?? null, focus: document.querySelector('[data-testid=tournament-deal]').contains(document.activeElement) ? (document.activeElement.dataset.testid ?? document.activeElement.id ?? 'the box') : null, sw: document.documentElement.scrollWidth, w: window.innerWidth };
  });
  check(r.barTop == null || r.boxBottom <= r.barTop + 0.5, `${p.name}: the deal box (bottom ${r.boxBottom}) lies over the action bar (top ${r.barTop}) ${where}`);
  check(!r.focus, `${p.name}: the deal box took the focus ${where} (${r.focus})`);
  check(r.sw <= r.w + 1, `${p.name}: the page overflows ${where}: ${r.sw} > ${r.w}`);
}

/** Runs `fn` with page `p`'s bot held (its click under way done first): the test's own
 *  clicks in that page. */
async function holding(p, fn) {
  p.hold = true;
  try {
    await until(`${p.name}: its bot's click under way done`, () => !p.clicking, 6000, 20);
    return await fn();
  } finally {
    p.hold = false;
  }
}

/** Opens the tournament panel at its deal form from the table's Deal button (clicked again
 *  if the panel is not open a second later, as harness.mjs's openPanel does). */
async function openDealForm(p) {
  let clicked = 0;
  await until(`${p.name}: the deal form in the tournament panel`, async () => {
    if ((await p.q('tournament').isVisible()) && (await p.attr('tournament', 'data-mode')) === 'panel' && (await p.q('deal-propose').isVisible())) return true;
    if (Date.now() - clicked > 1000) {
      clicked = Date.now();
      await p.q('tournament-table-deal').click();
    }
    return false;
  }, 8000);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  ADDR = await startServer(tmp, { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '1000', STUD_ACTION_TIMEOUT_MS: '120000', STUD_OPERATOR_KEY: OPERATOR_KEY, STUD_HOUSE_SIT_AND_GO: 'false' });
  log(`server listening on http://${ADDR}`);
  const created = await api('POST', '/api/admin/tournaments', {
    name: 'Deal SNG', variant: 'stud', kind: 'sit_and_go', min_entrants: 3, max_entrants: 3, seats_per_table: 3,
    entry_fee: ENTRY, house_fee: HOUSE, starting_chips: CHIPS, payouts: PAYOUTS,
    levels: [{ ante: 5, bring_in: 10, small_bet: 20, big_bet: 40, hands: 500 }],
  });
  check(created.status === 201 && created.json?.id, `creating the sit-and-go: ${created.status} ${created.text}`);
  const id = created.json.id;
  check(created.json.deals === true && created.json.deal == null, `the created detail: deals ${created.json.deals}, deal ${JSON.stringify(created.json.deal)}`);
  log(`tournament created: ${id}`);
  const browser = await launchChromium();
  try {
    const players = [];
    for (const [name, lang, width, height] of [['Ann', 'en', 1280, 800], ['Bob', 'it', 390, 844], ['Cat', 'hu', 1366, 768]]) {
      const context = await browser.newContext({ viewport: { width, height } });
      await context.addInitScript(LIVE_WATCH); // the live regions' writes (checkLiveRegions)
      await context.addInitScript(NOTICE_WATCH);
      players.push(new Player(name, lang, context, await context.newPage()));
    }
    const [a, b, c] = players;
    const url = `http://${ADDR}/`;
    for (const p of players) await enter(p, url);
    for (const p of players) {
      const reg = p.row(id).locator('[data-testid=tournament-register]');
      await until(`${p.name}: the register button`, async () => reg.isVisible(), 10000);
      // No deal before the start: the tournament view has no deal form.
      if (p === a) {
        await p.row(id).locator('[data-testid=tournament-open]').click();
        await eventually(`${p.name}: no deal form before the start`, async () => {
          check(await p.q('tournament').isVisible(), 'no tournament view');
          check(!(await p.q('deal-propose').isVisible()) && !(await p.q('tournament-deal-view').isVisible()), 'a deal form before the start');
        });
        await p.q('tournament-back').click();
      }
      await reg.click();
    }
    const bots = players.map((p) => runBot(p));
    for (const p of players) {
      await until(`${p.name}: tournament_seat, then the tournament table`, async () => p.seats.length > 0 && (await p.q('table').isVisible()), 20000);
    }
    log('all three seated by the tournament: the final table from the start');

    // 1. The operator pauses the tournament: every page says so at the table (and Ann's in the
    //    tournament panel), Cat's after a reload too (from the detail's paused_since); resumed,
    //    it goes everywhere.
    await until('a hand played', () => players.every((p) => p.handsEnded > 0), 60000, 50);
    const paused = await api('POST', `/api/admin/tournaments/${id}/pause`);
    check(paused.status >= 200 && paused.status < 300, `pausing: ${paused.status} ${paused.text}`);
    for (const p of players) {
      await until(`${p.name}: tournament_paused {paused: true}`, () => p.pauses.some((m) => m.tournament_id === id && m.paused === true), 10000, 50);
      await eventually(`${p.name}: "paused" at the table`, async () => {
        const node = p.page.locator('[data-testid=tournament-bar] [data-testid=tournament-paused]');
        check(await node.isVisible(), 'no [data-testid=tournament-paused] in the tournament bar');
        check(nb(await node.textContent()) === p.w.paused, `it says ${nb(await node.textContent())}`);
      });
    }
    const pd = (await api('GET', `/api/tournaments/${id}`)).json;
    check(pd.paused_since != null, `the detail while paused: paused_since ${pd.paused_since}`);
    await holding(a, async () => {
      await a.q('tournament-table-open').click();
      await eventually(`${a.name}: "paused" in the tournament panel`, async () => {
        const node = a.page.locator('[data-testid=tournament] [data-testid=tournament-paused]');
        check(await node.isVisible(), 'no [data-testid=tournament-paused] in the tournament view');
        check(nb(await node.textContent()) === a.w.paused, `it says ${nb(await node.textContent())}`);
      });
      await checkAxe(a, 'in the tournament panel while paused');
      await closePanel(a);
    });
    await holding(c, () => c.page.reload());
    await eventually(`${c.name}: "paused" at the table after a reload`, async () => {
      check(await c.q('table').isVisible(), 'not at the table after the reload');
      check(await c.page.locator('[data-testid=tournament-bar] [data-testid=tournament-paused]').isVisible(), 'no "paused" after the reload');
    }, 15000);
    await a.shot('deal-paused-ann.png');
    const resumed = await api('POST', `/api/admin/tournaments/${id}/resume`);
    check(resumed.status >= 200 && resumed.status < 300, `resuming: ${resumed.status} ${resumed.text}`);
    for (const p of players) {
      await until(`${p.name}: tournament_paused {paused: false}`, () => p.pauses.some((m) => m.tournament_id === id && m.paused === false), 10000, 50);
      await eventually(`${p.name}: "paused" gone`, async () => {
        check((await p.page.locator('[data-testid=tournament-paused]').evaluateAll((ns) => ns.filter((n) => n.checkVisibility()).length)) === 0, 'a "paused" line is still shown');
      });
    }
    log('pause: said at the table and in the tournament view on every page (after a reload too), gone on resume');

    // 2. At the final table every page offers a deal. Ann opens the form from the table (the
    //    panel, its method focused); a refusal (more left to play for than first place pays)
    //    is said under it; she proposes a chip chop and Bob declines it: the deal is off and
    //    the box goes on every page.
    for (const p of players) {
      await eventually(`${p.name}: "Propose a deal" at the final table`, async () => check(await p.q('tournament-table-deal').isVisible(), 'no [data-testid=tournament-table-deal]'));
    }
    const first = (await api('GET', `/api/tournaments/${id}`)).json.prizes[0];
    a.hold = true; // Ann's clicks in the panel
    await until(`${a.name}: its bot's click under way done`, () => !a.clicking, 6000, 20);
    await openDealForm(a);
    await a.q('deal-leave').fill(String((first + 100) / 100));
    await a.q('deal-propose-send').click();
    await eventually(`${a.name}: the refusal under the form`, async () => {
      const e = a.q('deal-propose-error');
      check(await e.isVisible(), 'no [data-testid=deal-propose-error]');
      check((await e.getAttribute('data-code')) === 'not_now' && nb(await e.textContent()) === a.w.leaveRefused, `it says ${nb(await e.textContent())} (${await e.getAttribute('data-code')})`);
    });
    check(a.errorFrames.some((m) => m.code === 'not_now'), `${a.name}: no not_now error frame`);
    await a.q('deal-method').selectOption('chip_chop');
    await a.q('deal-leave').fill('0');
    await a.q('deal-propose-send').click();
    for (const p of players) {
      await until(`${p.name}: the chip chop proposed`, () => p.deal?.state === 'proposed' && p.deal.method === 'chip_chop', 10000, 50);
      await eventually(`${p.name}: the deal box`, () => checkBox(p, 'proposed', 'for the chip chop'));
    }
    check(a.sentDeal.some((m) => m.type === 'tournament_deal_propose' && m.method === 'chip_chop' && m.leave === 0 && m.tournament_id === id), `${a.name} sent ${JSON.stringify(a.sentDeal)}`);
    await closePanel(a);
    a.hold = false;
    await holding(b, () => b.page.locator('[data-testid=tournament-deal] [data-testid=deal-decline]').click());
    for (const p of players) {
      await until(`${p.name}: the deal off`, () => p.deal?.state === 'off', 10000, 50);
      await eventually(`${p.name}: the box gone, "off" said`, async () => {
        check(!(await p.box()), 'the deal box is still shown');
        check((await p.page.evaluate(() => window.__notices)).map(nb).includes(p.w.off), `no "${p.w.off}" notice`);
      });
    }
    check(b.sentDeal.some((m) => m.type === 'tournament_deal_answer' && m.accept === false), `${b.name} sent ${JSON.stringify(b.sentDeal)}`);
    log('a chip chop proposed by Ann, declined by Bob: off on every page');

    // 3. With a hand in play (the bots hold), Ann proposes a deal by ICM with nothing left to
    //    play for. Every page's box shows the figures the frames carry; no page's box took the
    //    focus or lies over the action bar; axe. Accept is held back while the hand is played
    //    (aria-disabled, the reason beside it; a click sends nothing); once its result is in,
    //    each player accepts; the figures each saw last are what the made deal pays.
    await until('a hand in play at a prompt', async () => {
      for (const p of players) {
        if (p.prompt && !p.clicked.has(`${p.prompt.table_id}:${p.prompt.seq}`) && (await nextPrompt(p))) {
          play.hold = true;
          return true;
        }
      }
      return false;
    }, 30000, 50);
    await until('the bots\' clicks under way done', () => players.every((p) => !p.clicking), 6000, 20);
    // A bot may have answered the prompt seen above while the hold was being set (its click was
    // already under way); the next prompt then comes with the bots held and stays open.
    const open = () => players.find((p) => p.prompt && !p.clicked.has(`${p.prompt.table_id}:${p.prompt.seq}`));
    await until('a prompt held open', () => Boolean(open()), 10000, 50);
    const held = open();
    const handsBefore = players.map((p) => p.handsEnded);
    await openDealForm(a);
    await a.q('deal-method').selectOption('icm');
    await a.q('deal-propose-send').click();
    for (const p of players) {
      await until(`${p.name}: the ICM deal proposed`, () => p.deal?.state === 'proposed' && p.deal.method === 'icm', 10000, 50);
      await eventually(`${p.name}: the ICM deal's box`, () => checkBox(p, 'proposed', 'for the ICM deal'));
    }
    check(players.every((p, i) => p.handsEnded === handsBefore[i]), 'a hand ended while the bots held');
    check(a.deal.players.every((x) => !x.accepted), `proposed during a hand, yet accepted: ${JSON.stringify(a.deal.players)}`);
    await closePanel(a);
    for (const p of players) {
      await eventually(`${p.name}: Accept held back while the hand is played`, async () => {
        const box = await p.box();
        check(box?.accept?.disabled === true, `Accept is ${JSON.stringify(box?.accept)}`);
        check(await p.q('deal-wait').isVisible(), 'no [data-testid=deal-wait]');
      });
    }
    for (const p of players) await checkBoxPlace(p, 'with the ICM deal open');
    const sentBefore = b.sentDeal.length;
    await b.page.locator('[data-testid=tournament-deal] [data-testid=deal-accept]').click({ force: true });
    await sleep(300);
    check(b.sentDeal.length === sentBefore, `${b.name}: a held-back Accept sent ${JSON.stringify(b.sentDeal.slice(sentBefore))}`);
    await a.shot('deal-proposed-ann.png');
    await b.shot('deal-proposed-bob-390.png');
    await checkAxe(a, 'with the deal box');
    await checkAxe(b, 'with the deal box (390 px)');
    play.hold = false;
    await until('the hand in play ended on every page', () => players.every((p, i) => p.handsEnded > handsBefore[i]), 60000, 50);
    log(`the hand in play (${held.name} was to act) ended; no new hand while the deal is open`);
    const shown = {}; // player id -> the ICM figure the last page to accept saw
    await until('every player accepted: the deal made', async () => {
      if (players.every((p) => p.deal?.state === 'made')) return true;
      for (const p of players) {
        const box = await p.box();
        if (!box || box.state !== 'proposed' || !box.accept || box.accept.disabled) continue;
        await checkBox(p, 'proposed', 'before accepting').catch(() => {}); // the frame may be on its way
        for (const r of box.rows) shown[r.playerId] = Number(r.icm);
        await holding(p, () => p.page.locator('[data-testid=tournament-deal] [data-testid=deal-accept]').click({ timeout: 2000 }).catch(() => {}));
      }
      return false;
    }, 60000, 200);
    const made = a.deal;
    for (const p of players) check(JSON.stringify(p.deal) === JSON.stringify(made), `${p.name}'s made deal ${JSON.stringify(p.deal)} differs from Ann's ${JSON.stringify(made)}`);
    const lastProposed = [...a.deals].reverse().find((m) => m.deal.state === 'proposed').deal;
    for (const x of made.players) {
      check(x.paid === lastProposed.players.find((y) => y.player_id === x.player_id).icm, `${x.name}: paid ${x.paid}, the last ICM figure was ${JSON.stringify(lastProposed.players.find((y) => y.player_id === x.player_id))}`);
      check(x.paid === shown[x.player_id], `${x.name}: paid ${x.paid}, the box showed ${shown[x.player_id]} when the last player accepted`);
    }
    check(made.players.reduce((n, x) => n + x.paid, 0) === made.shared, `the shares add up to ${made.players.reduce((n, x) => n + x.paid, 0)}, shared ${made.shared}`);
    for (const p of players) {
      check(p.sentDeal.some((m) => m.type === 'tournament_deal_answer' && m.accept === true) || (p === a && made.by === a.playerId), `${p.name} sent no acceptance: ${JSON.stringify(p.sentDeal)}`);
      await eventually(`${p.name}: the made deal's box`, () => checkBox(p, 'made', 'once made'));
    }
    log(`deal made by ICM: ${made.players.map((x) => `${x.name} ${x.paid}`).join(', ')} (shared ${made.shared})`);

    // 4. The tournament ends with the deal: every page placed; the out box and notice say what
    //    the deal paid; the results show the deal amounts; the balances have them.
    for (const p of players) await until(`${p.name}: tournament_placed`, () => p.placed, 20000, 50);
    for (const p of players) p.stop = true;
    await Promise.all(bots);
    if (run.aborted) throw run.aborted;
    const d = (await api('GET', `/api/tournaments/${id}`)).json;
    check(d.status === 'finished' && d.deal?.state === 'made', `the detail at the end: ${d.status}, deal ${JSON.stringify(d.deal)}`);
    for (const x of made.players) {
      const r = d.results.find((y) => y.player_id === x.player_id);
      check(r && r.deal === x.paid, `${x.name}'s result: ${JSON.stringify(r)}, the deal paid ${x.paid}`);
    }
    for (const p of players) {
      const mine = made.players.find((x) => x.player_id === p.playerId).paid;
      await eventually(`${p.name}: the deal paid said`, async () => {
        check((await p.page.evaluate(() => window.__notices)).map(nb).some((n) => n.endsWith(p.w.paidYou(p.w.money(mine)))), `no notice saying ${p.w.paidYou(p.w.money(mine))}: ${JSON.stringify(await p.page.evaluate(() => window.__notices))}`);
      });
      await eventually(`${p.name}: the results with the deal amounts`, async () => {
        if (!(await p.q('tournament').isVisible()) && (await p.q('tournament-out-open').isVisible())) await p.q('tournament-out-open').click();
        check(await p.q('tournament').isVisible() && (await p.attr('tournament', 'data-status')) === 'finished', 'the finished tournament view is not shown');
        const rows = await p.page.locator('[data-testid=tournament-result]').evaluateAll((rs) => rs.map((r) => ({ id: r.dataset.playerId, deal: r.querySelector('[data-testid=result-deal]')?.dataset.amount, text: r.querySelector('[data-testid=result-deal]')?.textContent })));
        check(rows.length === d.results.length, `${rows.length} result rows, the detail has ${d.results.length}`);
        for (const r of d.results) {
          const row = rows.find((x) => x.id === r.player_id);
          check(row && row.deal === String(r.deal) && nb(row.text) === p.w.money(r.deal), `${r.name}'s result row ${JSON.stringify(row)}, the detail says deal ${r.deal}`);
        }
        check(await p.q('tournament-deal-line').isVisible(), 'the view does not say the deal made');
      }, 15000);
      const want = STARTING_BALANCE - ENTRY - HOUSE + mine + d.results.find((r) => r.player_id === p.playerId).prize;
      await eventually(`${p.name}: the balance with the deal`, async () => check((await p.balance()) === want, `the balance is ${await p.balance()}, expected ${want}`));
    }
    await b.shot('deal-results-bob-390.png');
    await checkAxe(b, 'in the finished tournament with a deal (390 px)');
    // Close: the made deal's box goes.
    await a.page.locator('[data-testid=tournament-deal] [data-testid=deal-close]').click();
    await eventually(`${a.name}: the made deal's box closed`, async () => check(!(await a.box()), 'the box is still shown'));
    for (const p of players) await checkLiveRegions(p, 'through the pause and the deals');
    log(`results: ${d.results.map((r) => `${r.place}. ${r.name} prize ${r.prize}, deal ${r.deal}`).join('; ')}`);
    checkConsole();
    log(`${frames.checked} WebSocket frames matched proto/schema.json; clicks: ${players.map((p) => `${p.name} ${p.clicks}`).join(', ')}`);
  } catch (e) {
    for (const p of PLAYERS) if (p.errors.length) console.error(`${p.name}'s page: ${p.errors.slice(0, 5).join(' | ')}`);
    for (const [i, ctx] of browser.contexts().entries()) {
      for (const page of ctx.pages()) {
        const f = path.join(SHOTS, `deal-failure-${i + 1}.png`);
        await page.screenshot({ path: f, fullPage: true }).then(() => console.log(`failure screenshot: ${path.relative(process.cwd(), f)}`), () => {});
      }
    }
    throw e;
  } finally {
    await browser.close().catch(() => {});
  }
}

await runTest('browser deal test', main, { overallMs: OVERALL_MS, tmp });
