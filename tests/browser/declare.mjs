// End-to-end browser test of the declaration (RULES.md 12) in the web client (web/): an operator
// creates a Stud Hi/Lo Declare table (`stud8_declare`) through the admin API; two headless
// Chromium pages (Ann and Bob) sit there and check and call to the end of 7th street. At the
// declaration each page offers exactly three buttons, High / Low / Both (`declare-high`,
// `declare-low`, `declare-both`, no `action` buttons), with the clock running. The first to
// declare sees their own choice on their seat at once; the other page shows only "declared"
// (its frame carried no choice) until the reveal; after it both pages show both choices and
// their logs say them; the hand ends (result strip) on both pages. The first hand is declared
// by clicking, the second by keyboard (H, L, B). Every frame is checked against
// proto/schema.json.
//
// Run from tests/browser:  node declare.mjs   (STUD_BIN, STUD_WEB_DIR, CHROMIUM as for play.mjs)
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { abort, check, CHROMIUM, createTable, Failure, frames, launchChromium, log, PLAYERS, receivedFrame, run, runTest, SHOTS, sleep, startServer, until, watchPage } from './harness.mjs';

const OPERATOR_KEY = 'browser-declare-operator-key-0123456789abcdef';
const OVERALL_MS = 90 * 1000;
const TABLE = {
  name: 'Declare Table', variant: 'stud8_declare', ante: 10, bring_in: 10, small_bet: 20, big_bet: 40,
  min_buy_in: 2000, max_buy_in: 10000, seats: 2,
};
const LABELS = { high: 'High', low: 'Low', both: 'Both' };
const KEYS = { high: 'h', low: 'l', both: 'b' };
// What each declares, hand by hand (the first hand by clicking, the second by keyboard).
const PLAN = [{ Ann: 'low', Bob: 'high' }, { Ann: 'both', Bob: 'low' }];
const HANDS = PLAN.length;
const eventually = (desc, fn, timeoutMs = 5000) => harness.eventually(desc, fn, timeoutMs);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-declare-'));

class Player {
  constructor(name, context, page) {
    Object.assign(this, { name, context, page });
    this.errors = [];
    this.prompt = null; // the latest your_turn frame
    this.handled = new Set(); // `${hand_id}:${seq}` of the prompts answered
    this.acts = []; // act frames sent
    this.events = []; // {hand_id, event} of event frames received
    this.results = []; // hand_result frames
    this.seat = null;
    this.stop = false;
    this.sessions = 0; // POST /api/sessions sent by the page
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/sessions') this.sessions += 1;
    });
    PLAYERS.push(this);
    watchPage(this, page, (m) => {
      if (m.type === 'act') this.acts.push(m);
    });
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (m.type === 'your_turn') this.prompt = m;
    else if (m.type === 'event') this.events.push({ hand_id: m.hand_id, event: m.event });
    else if (m.type === 'hand_result') this.results.push(m);
    else if (m.type === 'snapshot' && m.table?.your_seat != null) this.seat = m.table.your_seat;
  }

  q(id) {
    return this.page.locator(`[data-testid=${id}]`);
  }

  /** This page's seat tag for `seat`: {text, declaration} or null when it has none. */
  async tag(seat) {
    const t = this.page.locator(`[data-testid=seat][data-seat="${seat}"] [data-testid=seat-declaration]`);
    if ((await t.count()) === 0) return null;
    return { text: (await t.textContent()).trim(), declaration: await t.getAttribute('data-declaration') };
  }

  async logText() {
    return (await this.page.locator('[data-testid=log-line]').allTextContents()).join('\n');
  }
}

// The hands that reached a declaration: hand id -> {index, declared: [name]}.
const hands = new Map();
let declared = 0; // hands whose declarations both pages checked after the reveal

/** A declaration prompt: the three buttons, the clock; the other seat's tag as the rules say;
 *  then the choice, by click (the first hand) or key (the second). */
async function declare(p, m, players) {
  const other = players.find((x) => x !== p);
  const h = hands.get(m.hand_id) ?? { declared: [], index: hands.size };
  hands.set(m.hand_id, h);
  const plan = PLAN[h.index];
  check(plan, `${p.name}: a declaration in hand ${h.index + 1}, only ${HANDS} planned`);
  const choice = plan[p.name];
  check(m.legal.length === 3 && m.legal.every((a) => a.kind === 'declare'), `${p.name}: the prompt's legal actions are not the three declarations: ${JSON.stringify(m.legal)}`);
  await eventually(`${p.name}: the three declare buttons`, async () => {
    check((await p.page.locator('[data-testid=actions] [data-testid=action]').count()) === 0, 'action buttons drawn beside the declaration');
    for (const d of ['high', 'low', 'both']) {
      const b = p.q(`declare-${d}`);
      check((await b.count()) === 1 && (await b.isVisible()), `no visible declare-${d}`);
      check((await b.getAttribute('data-declaration')) === d, `declare-${d}'s data-declaration`);
      check((await b.textContent()).startsWith(LABELS[d]), `declare-${d} says ${await b.textContent()}`);
    }
    check(/\d+s/.test(await p.q('clock').textContent()), `the clock says "${await p.q('clock').textContent()}"`);
    check((await p.page.locator(`[data-testid=seat][data-seat="${p.seat}"] [data-testid=seat-timer]`).count()) === 1, 'no timer on our seat');
    const inWindow = await p.page.evaluate(() => [...document.querySelectorAll('[data-testid^=declare-]')].every((b) => {
      const r = b.getBoundingClientRect();
      return r.left >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight + 1;
    }));
    check(inWindow, 'a declare button outside the window');
  });
  check(!(await p.tag(p.seat)), `${p.name}: our seat is tagged before we declared`);
  // Our prompt follows the other's `declared` frame, if they declared first.
  if (p.events.some((e) => e.hand_id === m.hand_id && e.event.event === 'declared' && e.event.seat === other.seat)) {
    // The other player declared first: their page shows their choice, ours only "declared".
    const first = other;
    const choiceFirst = plan[first.name];
    await eventually(`${p.name}: ${first.name} declared, the choice hidden here and shown there`, async () => {
      const here = await p.tag(first.seat);
      check(here && here.declaration === '' && here.text === 'declared', `${p.name} sees ${first.name}'s tag as ${JSON.stringify(here)}`);
      const there = await first.tag(first.seat);
      check(there && there.declaration === choiceFirst && there.text === `declared ${choiceFirst}`, `${first.name} sees their own tag as ${JSON.stringify(there)}`);
      check(!(await first.tag(p.seat)), `${first.name} sees ${p.name} declared before ${p.name} did`);
      const text = await p.logText();
      check(text.includes(`${first.name} has declared`), `${p.name}'s log does not say ${first.name} has declared`);
      check(!text.includes(`${first.name} declares`), `${p.name}'s log names ${first.name}'s choice before the reveal`);
      check((await first.logText()).includes(`${first.name} declares ${choiceFirst}`), `${first.name}'s log does not say their own choice`);
    });
    // On the wire too: the frame for the other's declaration carried no choice.
    const frame = p.events.find((e) => e.hand_id === m.hand_id && e.event.event === 'declared' && e.event.seat === first.seat);
    check(frame && frame.event.declaration === null, `${p.name} got ${first.name}'s declaration as ${JSON.stringify(frame?.event)}`);
  }
  if (h.index === 0) await p.page.screenshot({ path: path.join(SHOTS, `declare-${p.name.toLowerCase()}.png`) });
  const before = p.acts.length;
  if (h.index === 0) {
    await p.q(`declare-${choice}`).click();
  } else {
    await p.page.locator('[data-testid=log]').click(); // focus off any field: the keys act
    await p.page.keyboard.press(KEYS[choice]);
  }
  await until(`${p.name}: the act frame for the declaration`, async () => p.acts.length > before, 5000);
  const a = p.acts.at(-1);
  check(a.seq === m.seq && a.action.kind === 'declare' && a.action.declaration === choice, `${p.name} sent ${JSON.stringify(a)}, expected declare ${choice}`);
  h.declared.push(p.name);
  log(`${p.name}: declared ${choice} by ${h.index === 0 ? 'click' : 'key'} (hand ${h.index + 1})`);
}

/** After the reveal: both pages show both choices; the log says them; the hand ends. */
async function afterReveal(players, handId, index) {
  const plan = PLAN[index];
  for (const p of players) {
    await until(`${p.name}: declarations_revealed`, async () => p.events.some((e) => e.hand_id === handId && e.event.event === 'declarations_revealed'), 10000);
    const ev = p.events.find((e) => e.hand_id === handId && e.event.event === 'declarations_revealed').event;
    const expected = players.map((x) => [x.seat, plan[x.name]]).sort((x, y) => x[0] - y[0]);
    check(JSON.stringify(ev.declarations) === JSON.stringify(expected), `${p.name}: revealed ${JSON.stringify(ev.declarations)}, expected ${JSON.stringify(expected)}`);
  }
  for (const p of players) {
    await eventually(`${p.name}: every choice shown after the reveal`, async () => {
      // The seats show the choices until the next hand starts (the showdown pause is 3 s).
      const handNow = p.events.filter((e) => e.event.event === 'hand_started').length;
      for (const x of players) {
        const tag = await p.tag(x.seat);
        if (!tag && handNow > index + 1) break; // already the next hand: the log still says it
        check(tag && tag.declaration === plan[x.name] && tag.text === `declared ${plan[x.name]}`, `${p.name} sees ${x.name}'s tag as ${JSON.stringify(tag)}`);
      }
      const line = `Declarations: ${players.slice().sort((x, y) => x.seat - y.seat).map((x) => `${x.name} ${plan[x.name]}`).join(', ')}`;
      check((await p.logText()).includes(line), `${p.name}'s log lacks "${line}"`);
    });
    if (index === 0) await p.page.screenshot({ path: path.join(SHOTS, `declare-revealed-${p.name.toLowerCase()}.png`) });
  }
  for (const p of players) {
    await until(`${p.name}: the hand's result`, async () => p.results.some((r) => r.hand_id === handId), 10000);
    const r = p.results.find((x) => x.hand_id === handId);
    await eventually(`${p.name}: the result strip`, async () => {
      const strip = p.q('result-strip');
      check((await strip.getAttribute('data-hand-id')) === handId, `the strip is for ${await strip.getAttribute('data-hand-id')}`);
      const lines = await strip.locator('[data-testid=result-line]').allTextContents();
      check(lines.length === r.awards.length, `${lines.length} result lines, ${r.awards.length} awards`);
      check(lines.every((l) => / wins \$/.test(l)), `result lines: ${JSON.stringify(lines)}`);
      // A winner's hand is named for what they declared: no low for a high declaration.
      for (const line of await strip.locator('[data-testid=result-line]').all()) {
        const seat = Number(await line.getAttribute('data-seat'));
        const winner = players.find((x) => x.seat === seat);
        const text = await line.textContent();
        check(text.includes(`declared ${plan[winner.name]}`), `the result line "${text}" does not say ${winner.name} declared ${plan[winner.name]}`);
        if (plan[winner.name] === 'high') check(!text.includes('LO:'), `a high declaration won with a low: "${text}"`);
        if (plan[winner.name] === 'low') check(!text.includes('HI:'), `a low declaration won with a high: "${text}"`);
      }
    });
    log(`${p.name}: hand ${index + 1} result: ${(await p.q('result-strip').locator('[data-testid=result-line]').allTextContents()).join(' | ')}`);
  }
}

async function bot(p, players) {
  while (!p.stop) {
    const m = p.prompt;
    const key = m && `${m.hand_id}:${m.seq}`;
    if (!m || p.handled.has(key)) {
      await sleep(50);
      continue;
    }
    if (m.legal.some((a) => a.kind === 'declare')) {
      p.handled.add(key);
      await declare(p, m, players);
      continue;
    }
    const buttons = await p.page.locator('[data-testid=actions] [data-testid=action]').evaluateAll((bs) => bs.map((b) => b.dataset.action));
    if (!buttons.length) {
      await sleep(50);
      continue;
    }
    p.handled.add(key);
    // Check and call through: nobody folds, so every hand reaches the declaration.
    const pick = ['check', 'call', 'bring_in', 'show', 'muck', 'fold'].find((k) => buttons.includes(k));
    check(pick, `${p.name}: nothing to click among ${buttons}`);
    await p.page.locator(`[data-testid=actions] [data-testid=action][data-action="${pick}"]`).first().click({ timeout: 5000 }).catch((e) => {
      if (!p.stop) throw e;
    });
  }
}

async function enter(p, url, tableId) {
  await p.page.goto(url);
  await p.q('lobby').waitFor({ state: 'visible', timeout: 10000 });
  if (p.name === 'Ann') {
    // Ann's sign-in is slow (as on a loaded server, where CI met this): her Sit click comes
    // while it is under way.
    await p.page.route('**/api/sessions', async (r) => {
      await sleep(1500);
      await r.continue();
    });
  }
  await p.q('name').fill(p.name);
  await p.q('start').click();
  const row = p.page.locator(`[data-testid=table-row][data-table-id="${tableId}"]`);
  await until(`${p.name}: the declare table in the lobby`, async () => (await row.count()) === 1, 15000);
  await eventually(`${p.name}: the lobby row names the game`, async () => {
    check((await row.getAttribute('data-variant')) === 'stud8_declare', `the row's variant is ${await row.getAttribute('data-variant')}`);
    check((await row.textContent()).includes('Stud Hi/Lo Declare'), `the row says ${await row.textContent()}`);
  });
  // Sit is clicked as soon as the row shows, while the sign-in may still be under way: the
  // page must wait for it, not start a second session (one guest, one POST).
  await row.locator('[data-testid=sit]').click();
  await p.q('table').waitFor({ state: 'visible', timeout: 10000 }).catch(async (e) => {
    const notice = await p.q('notice').textContent().catch(() => null);
    throw new Failure(`${p.name}: the table did not open after Sit (${p.sessions} sessions started; notice: ${JSON.stringify(notice)}): ${e.message}`);
  });
  check(p.sessions === 1, `${p.name}: ${p.sessions} sessions started for one sign-in`);
  await eventually(`${p.name}: the table head names the game`, async () => {
    check((await p.q('table-stakes').textContent()).startsWith('Stud Hi/Lo Declare'), `the head says ${await p.q('table-stakes').textContent()}`);
    check(p.seat != null, 'no seat yet');
  });
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  // A 3 s showdown pause: the revealed choices stay on the seats while the test reads them.
  const env = { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '3000', STUD_OPERATOR_KEY: OPERATOR_KEY };
  const addr = await startServer(tmp, env);
  log(`server listening on http://${addr}`);
  const { res, body } = await createTable(addr, OPERATOR_KEY, TABLE);
  check(res.ok && body?.id, `creating the declare table: ${res.status} ${JSON.stringify(body)}`);
  log(`table created: ${body.id}`);
  const browser = await launchChromium();
  try {
    const players = [];
    for (const name of ['Ann', 'Bob']) {
      // Bob on a 390 px phone: the three buttons fit there too.
      const context = await browser.newContext({ viewport: name === 'Bob' ? { width: 390, height: 844 } : { width: 1280, height: 800 } });
      players.push(new Player(name, context, await context.newPage()));
    }
    for (const p of players) await enter(p, `http://${addr}/`, body.id);
    const bots = players.map((p) => bot(p, players).catch((e) => abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e)));
    for (let i = 0; i < HANDS; i += 1) {
      await until(`hand ${i + 1}: the declaration starts`, async () => hands.size > i, 40000);
      const handId = [...hands.keys()][i];
      const started = players[0].events.find((e) => e.hand_id === handId && e.event.event === 'declaration_started');
      check(started && started.event.order.length === 2, `hand ${i + 1}: declaration_started ${JSON.stringify(started?.event)}`);
      await afterReveal(players, handId, i);
      declared += 1;
    }
    for (const p of players) p.stop = true;
    await Promise.all(bots);
    if (run.aborted) throw run.aborted;
    harness.checkConsole();
    log(`${frames.checked} frames checked; ${declared} hands declared and ended on both pages`);
  } catch (e) {
    for (const [i, p] of PLAYERS.entries()) await p.page.screenshot({ path: path.join(SHOTS, `declare-failure-${i}.png`) }).catch(() => {});
    throw e;
  } finally {
    await browser.close();
  }
}

await runTest('browser declare test', main, { overallMs: OVERALL_MS, tmp });
