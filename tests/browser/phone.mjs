// End-to-end browser test of the web client on phones (issue 31, WCAG 2.5.8): two players with
// long names at a table with a long name, one page at 390x844 and one at 844x390 (then the
// other way round). In the lobby and at the table (the action bar at a prompt) every visible
// interactive element is at least 24x24 CSS px and every action button at least 44 px high; a
// player's or table's name cut short (ellipsis) carries its full text in `title`; the top bar
// keeps the player's name and every control in it has an accessible name. At a showdown (issue
// 31 item 2) at 844x390 and at 1366x768: the result strip, the seats and the action bar do not
// overlap, seven cards stay inside their seat's box, the strip's cards show their suits and its
// low writes a ten as "10".
//
// Run from tests/browser:  node phone.mjs   (STUD_BIN, STUD_WEB_DIR, CHROMIUM as for play.mjs)
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { abort, check, CHROMIUM, createTable, Failure, launchChromium, log, PLAYERS, receivedFrame, run, runTest, SHOTS, sleep, startServer, until, watchPage } from './harness.mjs';

const OPERATOR_KEY = 'browser-phone-operator-key-0123456789abcdef';
const OVERALL_MS = 120 * 1000;
const TABLE_NAME = 'The longest table name here';
const TABLE = {
  name: TABLE_NAME, variant: 'stud', ante: 10, bring_in: 20, small_bet: 20, big_bet: 40,
  min_buy_in: 2000, max_buy_in: 10000, seats: 2,
};
const NAMES = ['Annabella Maximiliana X', 'Bartholomew Fitzgerald Y'];
const PORTRAIT = { width: 390, height: 844 };
const LANDSCAPE = { width: 844, height: 390 };
const eventually = (desc, fn, timeoutMs = 5000) => harness.eventually(desc, fn, timeoutMs);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-phone-'));

class Player {
  constructor(name, context, page) {
    Object.assign(this, { name, context, page });
    this.errors = [];
    this.prompt = null;
    this.handled = new Set();
    this.handsEnded = 0;
    this.stop = false;
    this.measureNext = null; // a resolver: the next prompt is measured before it is answered
    PLAYERS.push(this);
    watchPage(this, page);
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (m.type === 'your_turn') this.prompt = m;
    else if (m.type === 'hand_result') {
      this.handsEnded += 1;
      this.lastResult = m;
    } else if (m.type === 'event' && (m.event.event === 'shown' || m.event.event === 'award')) this.lastEvents = { ...this.lastEvents, [m.event.event]: m.event };
  }

  q(id) {
    return this.page.locator(`[data-testid=${id}]`);
  }
}

/** Every visible interactive element of the page with its box (a checkbox or radio counts with
 *  its label, the target a finger hits), the action buttons apart. */
async function targets(p) {
  return p.page.evaluate(() => {
    const SEL = 'button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
    const out = [];
    for (const e of document.querySelectorAll(SEL)) {
      if (!e.checkVisibility()) continue;
      if (e.closest('.sr-only')) continue;
      let r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // A checkbox inside its label: the label is the target.
      if ((e.type === 'checkbox' || e.type === 'radio') && e.closest('label')) r = e.closest('label').getBoundingClientRect();
      // Scrolling regions (the log, the chat lines) are no small targets.
      if (e.matches('[tabindex]') && !e.matches('button, a, input, select, textarea, summary') && r.height > 60) continue;
      const id = e.dataset.testid || e.id || `${e.tagName.toLowerCase()}.${e.className}`;
      out.push({ id, w: r.width, h: r.height, action: e.matches('[data-testid=action], [data-testid=bet-send], .action-declare') });
    }
    return out;
  });
}

async function checkTargets(p, where) {
  const ts = await targets(p);
  check(ts.length > 0, `${p.name}: no interactive element ${where}`);
  const small = ts.filter((t) => t.w < 24 - 0.01 || t.h < 24 - 0.01).map((t) => `${t.id} ${t.w.toFixed(1)}x${t.h.toFixed(1)}`);
  check(small.length === 0, `${p.name}: touch targets under 24x24 px ${where}: ${small.join(', ')}`);
  const low = ts.filter((t) => t.action && t.h < 44 - 0.01).map((t) => `${t.id} ${t.h.toFixed(1)} px high`);
  check(low.length === 0, `${p.name}: action buttons under 44 px high ${where}: ${low.join(', ')}`);
  log(`${p.name}: ${ts.length} touch targets of 24x24 px or more ${where} (${ts.filter((t) => t.action).length} action buttons 44 px high or more)`);
}

/** The names cut short carry their full text (title or aria-label); the top bar names the
 *  player and labels its controls. */
async function checkNames(p, where, expectNames) {
  const r = await p.page.evaluate(() => {
    const cut = [];
    const sel = '[data-testid=seat-name], [data-testid=who], #table-name, [data-testid=table-row] td:first-child, [data-testid=chat-name]';
    for (const e of document.querySelectorAll(sel)) {
      if (!e.checkVisibility()) continue;
      const full = e.textContent.trim();
      const clipped = e.scrollWidth > e.clientWidth + 1;
      const named = (e.getAttribute('title') || '').includes(full) || (e.getAttribute('aria-label') || '').includes(full);
      if (clipped && !named) cut.push(`${e.dataset.testid || e.id || e.tagName} "${full}"`);
    }
    const seatNames = [...document.querySelectorAll('[data-testid=seat-name]')].filter((e) => e.checkVisibility()).map((e) => ({ text: e.textContent, title: e.getAttribute('title') }));
    const who = document.querySelector('[data-testid=who]');
    const wr = who.getBoundingClientRect();
    const unlabelled = [];
    for (const e of document.querySelectorAll('.topbar button, .topbar input, .topbar select')) {
      if (!e.checkVisibility()) continue;
      const label = (e.getAttribute('aria-label') || (e.labels && [...e.labels].map((l) => l.textContent).join(' ')) || e.textContent || '').trim();
      if (!label) unlabelled.push(e.dataset.testid || e.id);
    }
    return { cut, seatNames, who: who.textContent, whoTitle: who.getAttribute('title'), whoVisible: who.checkVisibility() && wr.width >= 24, unlabelled };
  });
  check(r.cut.length === 0, `${p.name}: names cut short without their full text ${where}: ${r.cut.join(', ')}`);
  check(r.who === p.name && r.whoVisible, `${p.name}: the top bar does not show the player's name ${where} ("${r.who}")`);
  check(r.whoTitle === p.name, `${p.name}: the top bar's name has no title with the full name ${where} (${r.whoTitle})`);
  check(r.unlabelled.length === 0, `${p.name}: top bar controls with no name ${where}: ${r.unlabelled.join(', ')}`);
  if (expectNames) {
    for (const s of r.seatNames) check(s.title === s.text, `${p.name}: the seat name "${s.text}" has title ${JSON.stringify(s.title)} ${where}`);
  }
}

async function bot(p) {
  while (!p.stop) {
    const m = p.prompt;
    const key = m && `${m.hand_id}:${m.seq}`;
    if (!m || p.handled.has(key)) {
      await sleep(50);
      continue;
    }
    const buttons = await p.page.locator('[data-testid=actions] [data-testid=action]').evaluateAll((bs) => bs.map((b) => b.dataset.action));
    if (!buttons.length) {
      await sleep(50);
      continue;
    }
    p.handled.add(key);
    if (p.measureNext) {
      const done = p.measureNext;
      p.measureNext = null;
      await done(p);
    }
    const pick = ['check', 'call', 'bring_in', 'show', 'muck', 'fold'].find((k) => buttons.includes(k));
    await p.page.locator(`[data-testid=actions] [data-testid=action][data-action="${pick}"]`).first().click({ timeout: 5000 }).catch((e) => {
      if (!p.stop) throw e;
    });
  }
}

/** At a showdown (the result strip up, a seat with seven cards): the result strip, the seats
 *  and the action bar do not overlap, every card lies inside its seat's box, the strip's cards
 *  show their suits, and a low is written as the page writes it everywhere ("10", not "T"). */
async function checkShowdown(p, where) {
  await until(`${p.name}: a showdown ${where}`, async () => p.page.evaluate(() => {
    const strip = document.querySelector('[data-testid=result-strip]');
    return strip.checkVisibility() && strip.querySelector('.mini-cards') && [...document.querySelectorAll('[data-testid=seat]')].some((s) => s.querySelectorAll('[data-testid=card]').length === 7);
  }), 30000, 50);
  const r = await p.page.evaluate(() => {
    const box = (e) => { const b = e.getBoundingClientRect(); return { l: b.left, t: b.top, r: b.right, b: b.bottom }; };
    const over = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5;
    const strip = document.querySelector('[data-testid=result-strip]');
    const bar = document.querySelector('[data-testid=action-bar]');
    const seats = [...document.querySelectorAll('[data-testid=seat]')].filter((s) => s.checkVisibility());
    const parts = [['result-strip', box(strip)], ...(bar.checkVisibility() ? [['action-bar', box(bar)]] : []), ...seats.map((s) => [`seat ${s.dataset.seat}`, box(s)])];
    const overlaps = [];
    for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) if (over(parts[i][1], parts[j][1])) overlaps.push(`${parts[i][0]} / ${parts[j][0]}`);
    const outside = [];
    for (const s of seats) {
      const sb = box(s);
      for (const c of s.querySelectorAll('[data-testid=card]')) {
        const cb = box(c);
        if (cb.l < sb.l - 0.5 || cb.r > sb.r + 0.5 || cb.t < sb.t - 0.5 || cb.b > sb.b + 0.5) outside.push(`seat ${s.dataset.seat} ${c.dataset.card}`);
      }
    }
    const minis = [...strip.querySelectorAll('[data-testid=card]')];
    const suitless = minis.filter((c) => { const s = c.querySelector('.suit'); return !s || !s.checkVisibility() || !s.textContent.trim(); }).map((c) => c.dataset.card);
    const sevens = seats.filter((s) => s.querySelectorAll('[data-testid=card]').length === 7).length;
    return { overlaps, outside, suitless, minis: minis.length, sevens, strip: strip.textContent };
  });
  check(r.overlaps.length === 0, `${p.name}: at a showdown ${where} these overlap: ${r.overlaps.join(', ')}`);
  check(r.outside.length === 0, `${p.name}: at a showdown ${where} cards stick out of their seat: ${r.outside.join(', ')}`);
  check(r.minis > 0 && r.suitless.length === 0, `${p.name}: the result strip's cards show no suit ${where}: ${r.suitless.join(', ')}`);
  check(!/\bT-|-T\b/.test(r.strip), `${p.name}: the result strip writes a ten as T: ${r.strip}`);
  // What the protocol says of the hand at a showdown: no frame names the five cards that made a
  // hand, only all the cards shown and the hand's category and ranks (the page finds the five
  // itself and marks them only when they make that hand: showdown.mjs checks it).
  log(`${p.name}: hand_result ${JSON.stringify(p.lastResult)}; shown ${JSON.stringify(p.lastEvents?.shown)}; award ${JSON.stringify(p.lastEvents?.award)}`);
  await p.page.screenshot({ path: path.join(SHOTS, `phone-showdown-${where.replace(/\W+/g, '-')}.png`) });
  log(`${p.name}: showdown ${where}: no overlap, ${r.sevens} seat(s) of seven cards inside their boxes, ${r.minis} strip cards with suits ("${r.strip.slice(0, 80)}")`);
}

/** Measures `p`'s page at its next prompt. */
function atPrompt(p, where) {
  return new Promise((resolve, reject) => {
    p.measureNext = async () => {
      try {
        await checkTargets(p, where);
        await checkNames(p, where, true);
        await p.page.screenshot({ path: path.join(SHOTS, `phone-${p.name.split(' ')[0].toLowerCase()}-${where.replace(/\W+/g, '-')}.png`) });
        resolve();
      } catch (e) {
        reject(e);
      }
    };
  });
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  const env = { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '3000', STUD_OPERATOR_KEY: OPERATOR_KEY };
  const addr = await startServer(tmp, env);
  log(`server listening on http://${addr}`);
  const { res, body } = await createTable(addr, OPERATOR_KEY, TABLE);
  check(res.ok && body?.id, `creating the table: ${res.status} ${JSON.stringify(body)}`);
  const browser = await launchChromium();
  try {
    const players = [];
    for (const [i, name] of NAMES.entries()) {
      const context = await browser.newContext({ viewport: i === 0 ? PORTRAIT : LANDSCAPE, hasTouch: true });
      players.push(new Player(name, context, await context.newPage()));
    }
    for (const p of players) {
      await p.page.goto(`http://${addr}/`);
      await p.q('lobby').waitFor({ state: 'visible', timeout: 10000 });
      const vp = p.page.viewportSize();
      await checkTargets(p, `in the lobby before sign-in at ${vp.width}x${vp.height}`);
      await p.q('name').fill(p.name);
      await p.q('start').click();
      const row = p.page.locator(`[data-testid=table-row][data-table-id="${body.id}"]`);
      await until(`${p.name}: the table in the lobby`, async () => (await row.count()) === 1, 15000);
      await eventually(`${p.name}: the lobby at ${vp.width}x${vp.height}`, async () => {
        await checkTargets(p, `in the lobby at ${vp.width}x${vp.height}`);
        await checkNames(p, `in the lobby at ${vp.width}x${vp.height}`, false);
      });
      await row.locator('[data-testid=sit]').click();
      await p.q('table').waitFor({ state: 'visible', timeout: 10000 });
    }
    const bots = players.map((p) => bot(p).catch((e) => abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e)));
    const race = (pr) => Promise.race([pr, until('no abort', async () => run.aborted, 60000).then(() => { throw run.aborted; })]);
    await race(Promise.all(players.map((p) => atPrompt(p, `at the table at ${p.page.viewportSize().width}x${p.page.viewportSize().height}`))));
    // The other way round.
    await players[0].page.setViewportSize(LANDSCAPE);
    await players[1].page.setViewportSize(PORTRAIT);
    await sleep(300);
    await race(Promise.all(players.map((p) => atPrompt(p, `at the table at ${p.page.viewportSize().width}x${p.page.viewportSize().height}`))));
    // Showdowns: the phone on its side, and a laptop (seven cards in each seat box).
    await players[1].page.setViewportSize({ width: 1366, height: 768 });
    await race(Promise.all([checkShowdown(players[0], 'at 844x390'), checkShowdown(players[1], 'at 1366x768')]));
    for (const p of players) p.stop = true;
    await Promise.all(bots);
    if (run.aborted) throw run.aborted;
    harness.checkConsole();
  } catch (e) {
    for (const [i, p] of PLAYERS.entries()) await p.page.screenshot({ path: path.join(SHOTS, `phone-failure-${i}.png`) }).catch(() => {});
    throw e;
  } finally {
    await browser.close();
  }
}

await runTest('browser phone test', main, { overallMs: OVERALL_MS, tmp });
