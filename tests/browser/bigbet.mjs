// End-to-end browser test of the web client's bet-size control at a big-bet table (web/):
// an operator creates a pot-limit Stud table through the admin API; two headless Chromium pages
// (Ann and Bob) sit there and play by clicking. The lobby row and the table head say "Pot
// limit". At a prompt with `wagers`, the wager is one send button with a size control (no end
// buttons): once a preset (½ pot) is sent, and the act frame carries the preset's `to`; once an
// amount past the top is typed and refused locally (message shown, send disabled, no act
// frame), then a typed amount in the range goes out with the B key and the act frame carries
// it; then the P key sends the pot (the second size's key). The hands go on afterwards. Every frame is checked against proto/schema.json.
//
// Run from tests/browser:  node bigbet.mjs   (STUD_BIN, STUD_WEB_DIR, CHROMIUM as for play.mjs)
// Exits 1 with "FAIL: ..." on the first failure.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as harness from './harness.mjs';
import { abort, check, CHROMIUM, createTable, Failure, frames, launchChromium, log, PLAYERS, receivedFrame, run, runTest, SHOTS, sleep, startServer, until, watchPage } from './harness.mjs';

const OPERATOR_KEY = 'browser-bigbet-operator-key-0123456789abcdef';
const OVERALL_MS = 90 * 1000;
const TABLE = {
  name: 'Pot-limit Stud', variant: 'stud', betting: 'pot_limit', ante: 10, bring_in: 20, small_bet: 20, big_bet: 40,
  min_buy_in: 2000, max_buy_in: 10000, seats: 2,
};
const eventually = (desc, fn, timeoutMs = 5000) => harness.eventually(desc, fn, timeoutMs);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'stud-bigbet-'));

class Player {
  constructor(name, context, page) {
    Object.assign(this, { name, context, page });
    this.errors = [];
    this.prompt = null; // the latest your_turn frame
    this.handled = new Set(); // `${hand_id}:${seq}` of the prompts answered
    this.acts = []; // act frames sent
    this.events = []; // event frames received
    this.handsEnded = 0;
    this.stop = false;
    PLAYERS.push(this);
    watchPage(this, page, (m) => {
      if (m.type === 'act') this.acts.push(m);
    });
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    if (m.type === 'your_turn') this.prompt = m;
    else if (m.type === 'event') this.events.push(m.event);
    else if (m.type === 'hand_result') this.handsEnded += 1;
  }

  q(id) {
    return this.page.locator(`[data-testid=${id}]`);
  }
}

// What the test has seen: the preset sent, the typed amount refused then sent; hands after.
const done = { preset: null, typed: null, pot: null, potClaimed: null, handsAtDone: null, shot: null };

/** Waits for the act frame of prompt `m` and checks its `to`. */
async function sentTo(p, m, kind, to) {
  await until(`${p.name}: the act frame for seq ${m.seq}`, async () => p.acts.some((a) => a.seq === m.seq), 5000);
  const a = p.acts.find((x) => x.seq === m.seq);
  check(a.action.kind === kind && a.action.to === to, `${p.name}: sent ${JSON.stringify(a.action)}, expected ${kind} to ${to}`);
  // The server took it: the table's event says the same size.
  await until(`${p.name}: the ${kind} to ${to} event`, async () => p.events.some((ev) => ev.event === kind && ev.to === to), 5000);
}

/** A prompt with a ranged wager: the control replaces the end buttons; one scenario is played. */
async function sizeScenario(p, m) {
  const w = m.wagers[0];
  const box = p.page.locator(`[data-testid=bet-size][data-kind="${w.kind}"]`);
  await eventually(`${p.name}: the size control for ${JSON.stringify(w)}`, async () => {
    check((await p.q('bet-size').count()) === m.wagers.length, `${await p.q('bet-size').count()} [data-testid=bet-size], ${m.wagers.length} wagers`);
    check(Number(await box.getAttribute('data-min')) === w.min_to && Number(await box.getAttribute('data-max')) === w.max_to, 'the range attributes');
    const range = box.locator('[data-testid=bet-size-range]');
    check(Number(await range.getAttribute('min')) === w.min_to && Number(await range.getAttribute('max')) === w.max_to, 'the slider range');
    check((await p.page.locator(`[data-testid=actions] [data-testid=action][data-action="${w.kind}"]`).count()) === 0, `end buttons for ${w.kind} are still drawn`);
    check((await box.locator('[data-testid=bet-preset]').count()) === 5, 'five presets');
    const fits = await p.page.evaluate(() => {
      const bar = document.querySelector('[data-testid=action-bar]').getBoundingClientRect();
      const ctl = document.querySelector('[data-testid=bet-size]').getBoundingClientRect();
      return document.documentElement.scrollWidth <= window.innerWidth && ctl.left >= 0 && ctl.right <= window.innerWidth && bar.bottom <= window.innerHeight + 1;
    });
    check(fits, 'the size control does not fit in the window');
  });
  // Pot limit: the "Pot" preset is the top of the range (the pot-size raise, or all in).
  const presetAmount = async (name) => Number(await box.locator(`[data-testid=bet-preset][data-preset=${name}]`).getAttribute('data-amount'));
  check(await presetAmount('pot') === w.max_to, `the Pot preset is ${await presetAmount('pot')}, the range's top ${w.max_to}`);
  check(await presetAmount('min') === w.min_to && await presetAmount('max') === w.max_to, 'Min and Max are the ends');
  const input = box.locator('[data-testid=bet-size-input]');
  const send = box.locator('[data-testid=bet-send]');
  if (!done.preset) {
    const half = await presetAmount('half');
    check(half >= w.min_to && half <= w.max_to, `½ pot ${half} outside ${w.min_to}..${w.max_to}`);
    await box.locator('[data-testid=bet-preset][data-preset=half]').click();
    await eventually(`${p.name}: ½ pot chosen`, async () => {
      check(Number(await input.inputValue()) === half, `the input says ${await input.inputValue()}, ½ pot is ${half}`);
      check(Number(await send.getAttribute('data-amount')) === half, 'the send button carries ½ pot');
    });
    await send.click();
    await sentTo(p, m, w.kind, half);
    done.preset = { kind: w.kind, to: half };
    log(`${p.name}: ½ pot preset sent: ${w.kind} to ${half} (range ${w.min_to}..${w.max_to})`);
    return;
  }
  // Past the top: refused here, nothing sent.
  const before = p.acts.length;
  await input.fill(String(w.max_to + 1));
  await eventually(`${p.name}: ${w.max_to + 1} refused`, async () => {
    check(await box.locator('[data-testid=bet-size-error]').isVisible(), 'no message for an amount past the top');
    check(await send.isDisabled(), 'the send button is enabled for an amount past the top');
  });
  if (!done.shot?.[p.name]) {
    done.shot = { ...done.shot, [p.name]: true };
    await p.page.screenshot({ path: path.join(SHOTS, `bigbet-size-${p.name.toLowerCase()}.png`) });
  }
  await input.press('Enter');
  await sleep(300);
  check(p.acts.length === before, `${p.name}: an act frame went out for an amount past the top`);
  // A typed amount in the range, sent with the B key (focus off the field).
  const to = w.max_to > w.min_to ? w.min_to + Math.max(1, Math.floor((w.max_to - w.min_to) / 3)) : w.min_to;
  await input.fill(String(to));
  await eventually(`${p.name}: ${to} accepted`, async () => {
    check(!(await box.locator('[data-testid=bet-size-error]').isVisible()), 'the message stays for an amount in the range');
    check(Number(await send.getAttribute('data-amount')) === to && !(await send.isDisabled()), 'the send button does not carry the typed amount');
  });
  await p.page.locator('[data-testid=log]').click();
  await p.page.keyboard.press('b');
  await sentTo(p, m, w.kind, to);
  done.typed = { kind: w.kind, to };
  log(`${p.name}: typed ${w.max_to + 1} refused, typed ${to} sent with B (range ${w.min_to}..${w.max_to})`);
}

/** The second key for a second size (issue 31): P acts with the pot at once, whatever size is
 *  chosen; the Pot preset shows it (aria-keyshortcuts). */
async function potKey(p, m) {
  const w = m.wagers[0];
  const box = p.page.locator(`[data-testid=bet-size][data-kind="${w.kind}"]`);
  const pot = box.locator('[data-testid=bet-preset][data-preset=pot]');
  await eventually(`${p.name}: the Pot preset names its key`, async () => check((await pot.getAttribute('aria-keyshortcuts')) === 'P', `the Pot preset's aria-keyshortcuts is ${await pot.getAttribute('aria-keyshortcuts')}`));
  const to = Number(await pot.getAttribute('data-amount'));
  check(to === w.max_to, `the Pot preset is ${to}, the range's top ${w.max_to} (pot limit)`);
  await p.page.locator('[data-testid=log]').focus();
  await p.page.keyboard.press('p');
  await sentTo(p, m, w.kind, to);
  done.pot = { kind: w.kind, to };
  done.handsAtDone = Math.max(...PLAYERS.map((x) => x.handsEnded));
  log(`${p.name}: P sent the pot: ${w.kind} to ${to} (range ${w.min_to}..${w.max_to})`);
}

async function bot(p) {
  while (!p.stop) {
    const m = p.prompt;
    const key = m && `${m.hand_id}:${m.seq}`;
    if (!m || p.handled.has(key)) {
      await sleep(50);
      continue;
    }
    // Fixed-limit prompts are not here; a pot-limit one lists wagers (or only calls and folds).
    const buttons = await p.page.locator('[data-testid=actions] [data-testid=action]').evaluateAll((bs) => bs.map((b) => b.dataset.action));
    if (!buttons.length && !(await p.q('bet-send').count())) {
      await sleep(50);
      continue;
    }
    p.handled.add(key);
    if (m.wagers?.length && !done.typed) {
      await sizeScenario(p, m);
      continue;
    }
    // One player sends the pot, once: claimed before the first await, or both pages could
    // raise the pot in turn to an all-in, and with one player busted no further hand ends.
    if (m.wagers?.length && !done.potClaimed) {
      done.potClaimed = p.name;
      await potKey(p, m);
      continue;
    }
    // Otherwise the hand goes on quietly: check, call, bring in, show.
    const pick = ['check', 'call', 'bring_in', 'show', 'muck', 'fold'].find((k) => buttons.includes(k));
    if (pick) {
      await p.page.locator(`[data-testid=actions] [data-testid=action][data-action="${pick}"]`).first().click({ timeout: 5000 }).catch((e) => {
        if (!p.stop) throw e;
      });
    } else {
      await p.page.locator('[data-testid=bet-send]').first().click({ timeout: 5000 });
    }
  }
}

async function enter(p, url, tableId) {
  await p.page.goto(url);
  await p.q('lobby').waitFor({ state: 'visible', timeout: 10000 });
  await p.q('name').fill(p.name);
  await p.q('start').click();
  const row = p.page.locator(`[data-testid=table-row][data-table-id="${tableId}"]`);
  await until(`${p.name}: the pot-limit table in the lobby`, async () => (await row.count()) === 1, 15000);
  await eventually(`${p.name}: the lobby row says Pot limit`, async () => {
    const s = row.locator('[data-testid=betting-structure]');
    check((await s.textContent()) === 'Pot limit' && (await s.getAttribute('data-betting')) === 'pot_limit', `the row says ${await row.textContent()}`);
  });
  // Fixed-limit rows say nothing of it.
  check((await p.page.locator('[data-testid=table-row]:not([data-table-id="' + tableId + '"]) [data-testid=betting-structure]').count()) === 0, 'a fixed-limit row names its structure');
  await row.locator('[data-testid=sit]').click();
  await p.q('table').waitFor({ state: 'visible', timeout: 10000 });
  await eventually(`${p.name}: the table head says Pot limit`, async () => {
    const s = p.page.locator('[data-testid=table] [data-testid=betting-structure]');
    check(await s.isVisible() && (await s.textContent()) === 'Pot limit', 'no "Pot limit" in the table head');
  });
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  const env = { STUD_HAND_PAUSE_MS: '500', STUD_SHOWDOWN_PAUSE_MS: '1000', STUD_OPERATOR_KEY: OPERATOR_KEY };
  const addr = await startServer(tmp, env);
  log(`server listening on http://${addr}`);
  const create = (settings) => createTable(addr, OPERATOR_KEY, settings);
  const { res, body } = await create(TABLE);
  check(res.ok && body?.id, `creating the pot-limit table: ${res.status} ${JSON.stringify(body)}`);
  log(`table created: ${body.id}`);
  const browser = await launchChromium();
  try {
    const players = [];
    for (const name of ['Ann', 'Bob']) {
      // Bob on a 390 px phone: the size control fits there too.
      const context = await browser.newContext({ viewport: name === 'Bob' ? { width: 390, height: 844 } : { width: 1280, height: 800 } });
      players.push(new Player(name, context, await context.newPage()));
    }
    for (const p of players) await enter(p, `http://${addr}/`, body.id);
    const bots = players.map((p) => bot(p).catch((e) => abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e)));
    // Both scenarios, then two hands more on both pages: the table plays on.
    await until('the preset, the typed size and the pot (P) sent, then two further hands ended', async () =>
      done.pot && players.every((p) => p.handsEnded >= done.handsAtDone + 2), 70000);
    for (const p of players) p.stop = true;
    await Promise.all(bots);
    if (run.aborted) throw run.aborted;
    harness.checkConsole();
    log(`${frames.checked} frames checked; hands ended: ${players.map((p) => `${p.name} ${p.handsEnded}`).join(', ')}`);
  } catch (e) {
    for (const [i, p] of PLAYERS.entries()) await p.page.screenshot({ path: path.join(SHOTS, `bigbet-failure-${i}.png`) }).catch(() => {});
    throw e;
  } finally {
    await browser.close();
  }
}

await runTest('browser big-bet test', main, { overallMs: OVERALL_MS, tmp });
