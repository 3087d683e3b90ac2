// What the browser tests (play.mjs, tournament.mjs, ...) share: where things are, the protocol
// schema check, assertions that retry, the first failure that stops a run, the bots' prompt
// and click, and the server process.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { chromium } from 'playwright-core';
import { SOUNDS } from '../../web/model.js';

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '..', '..');
export const TARGET = process.env.CARGO_TARGET_DIR ? path.resolve(ROOT, process.env.CARGO_TARGET_DIR) : path.join(ROOT, 'target');
export const SHOTS = process.env.STUD_SCREENSHOTS ? path.resolve(process.env.STUD_SCREENSHOTS) : path.join(TARGET, 'browser-screenshots');
export const BIN = process.env.STUD_BIN ? path.resolve(process.env.STUD_BIN) : path.join(TARGET, 'debug', 'stud');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const AXE = path.join(HERE, 'node_modules', 'axe-core', 'axe.min.js');

// Every frame a page receives or sends is checked against proto/schema.json (the wire types
// the page may rely on: ServerMsg in, ClientMsg out).
const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addSchema(JSON.parse(readFileSync(path.join(ROOT, 'proto', 'schema.json'), 'utf8')), 'protocol');
const VALID = { in: ajv.getSchema('protocol#/$defs/ServerMsg'), out: ajv.getSchema('protocol#/$defs/ClientMsg') };
export const frames = { checked: 0 };
/** Checks one frame (`dir`: 'in' received, 'out' sent); a mismatch goes on `p.errors`. */
export function checkFrame(p, dir, m) {
  frames.checked += 1;
  if (VALID[dir](m)) return;
  const e = VALID[dir].errors.slice(0, 2).map((x) => `${x.instancePath} ${x.message}`).join('; ');
  p.errors.push(`a ${dir === 'in' ? 'received' : 'sent'} frame does not match proto/schema.json (${e}): ${JSON.stringify(m).slice(0, 300)}`);
}

/** A received frame's message, checked against the schema (`checkFrame`); `null` if it is not
 * JSON (not ours to check). */
export function receivedFrame(p, text) {
  let m;
  try {
    m = JSON.parse(text);
  } catch {
    return null;
  }
  checkFrame(p, 'in', m);
  return m;
}

/** Watches a test page the way the players of tournament.mjs and bigbet.mjs need: console
 * errors and uncaught exceptions go on `p.errors`; every WebSocket frame received goes to
 * `p.frame(text)`; every frame sent is checked against the schema and handed to `sent(m)`.
 * (play.mjs watches its pages itself: it forgives network noise while offline, counts sockets.) */
export function watchPage(p, page, sent = () => {}) {
  page.on('console', (m) => {
    if (m.type() === 'error') p.errors.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => p.errors.push(`uncaught exception: ${e.stack || e.message}`));
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      keepTrail(p, 'in', String(payload));
      p.frame(String(payload));
    });
    ws.on('framesent', ({ payload }) => {
      keepTrail(p, 'out', String(payload));
      let m;
      try {
        m = JSON.parse(String(payload));
      } catch {
        return; // not JSON: not ours to check
      }
      checkFrame(p, 'out', m);
      sent(m);
    });
  });
}

// The last frames each page sent and received, printed when a test fails: a timeout then says
// what each player last saw and did, not only that something did not come.
const TRAIL = 30;
export function keepTrail(p, dir, text) {
  p.trail ??= [];
  p.trail.push(`${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s ${dir === 'in' ? '<-' : '->'} ${text.slice(0, 240)}`);
  if (p.trail.length > TRAIL) p.trail.shift();
}

const t0 = Date.now();
export const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s]`, ...a);

export class Failure extends Error {}
export function fail(msg) {
  throw new Failure(msg);
}
export function check(cond, msg) {
  if (!cond) fail(typeof msg === 'function' ? msg() : msg);
}

/** axe-core in the page (`p.page`), every rule at every impact: any violation fails, with the
 *  rule, its impact and the first nodes it names. Every view is checked with this one helper
 *  (play.mjs: the lobby, the table at a prompt, LAST HAND, the replayer; tournament.mjs: the
 *  lobby with tournaments, the tournament view, a tournament table). */
export async function checkAxe(p, where) {
  if (!(await p.page.evaluate(() => Boolean(window.axe)))) await p.page.addScriptTag({ path: AXE });
  const found = await p.page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  check(found.length === 0, `${p.name}: axe finds ${found.length} violation(s) ${where}:\n  ${found.join('\n  ')}`);
  log(`${p.name}: axe: no violations ${where}`);
}

// Live regions (issue 31): a screen reader speaks every write to one, so a page must write
// only news. Installed in a page before its scripts (`context.addInitScript(LIVE_WATCH)`), this
// counts, per region (aria-live, or role log / status / alert / timer / marquee: named by its
// data-testid, id or class, and the row it is in), the writes seen while it was visible, and
// those that left its text as it was ("same"): a redraw with the same words.
export const LIVE_WATCH = `(() => {
  const LIVE = '[aria-live]:not([aria-live="off"]), [role=log], [role=status], [role=alert], [role=timer], [role=marquee]';
  const name = (e) => {
    const row = e.closest('[data-tournament-id], [data-hand-id], tr[data-table-id]');
    const at = row && row !== e ? '@' + (row.dataset.tournamentId ?? row.dataset.handId ?? row.dataset.tableId) : '';
    return (e.dataset.testid || e.id || e.className || e.tagName.toLowerCase()) + at;
  };
  const w = window.__live = { writes: {}, same: {}, texts: {}, last: new Map() };
  const start = () => {
    for (const e of document.querySelectorAll(LIVE)) w.last.set(name(e), e.textContent);
    new MutationObserver((records) => {
      const hit = new Set();
      for (const r of records) {
        const t = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        const live = t && t.closest(LIVE);
        if (live) hit.add(live);
        // A region put in the page speaks at once only as an alert (a moved row does not).
        for (const n of r.addedNodes) {
          if (n.nodeType !== 1) continue;
          if (n.matches('[role=alert]')) hit.add(n);
          for (const x of n.querySelectorAll('[role=alert]')) hit.add(x);
        }
      }
      for (const e of hit) {
        if (!e.isConnected) continue;
        const k = name(e);
        const text = e.textContent;
        // Unseen (hidden, or emptied into display: none) it is not said, but it is what the
        // region held: the same words coming back after it are news (a second turn at the same
        // other table empties "Your turn at ..." and writes it again).
        if (!e.checkVisibility()) {
          w.last.set(k, text);
          continue;
        }
        w.writes[k] = (w.writes[k] || 0) + 1;
        if (w.last.get(k) === text) {
          w.same[k] = (w.same[k] || 0) + 1;
          w.texts[k] = text.slice(0, 80);
        } else w.last.set(k, text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();`;

/** Checks a page watched by LIVE_WATCH since its last check: no live region written again with
 *  the words it already had, and no clock inside a live region (a ticking clock is no news);
 *  then starts counting afresh. Returns the writes per region. */
export async function checkLiveRegions(p, where) {
  const r = await p.page.evaluate(() => {
    const w = window.__live;
    if (!w) return null;
    const LIVE = '[aria-live]:not([aria-live="off"]), [role=log], [role=status], [role=alert], [role=timer], [role=marquee]';
    const clocks = [...document.querySelectorAll('[data-testid=clock], [data-testid=tournament-clock], [data-testid=tournament-table-clock], [data-testid=seat-timer]')]
      .filter((c) => c.closest(LIVE)).map((c) => c.dataset.testid);
    const out = { writes: w.writes, same: w.same, texts: w.texts, clocks };
    window.__live.writes = {};
    window.__live.same = {};
    window.__live.texts = {};
    return out;
  });
  check(r, `${p.name}: the live-region watch is not installed in the page`);
  const same = Object.entries(r.same);
  check(same.length === 0, `${p.name}: live regions written again with the same words ${where} (a screen reader says them again): ${same.map(([k, n]) => `${k} ${n}x ${JSON.stringify(r.texts[k])}`).join('; ')}`);
  check(r.clocks.length === 0, `${p.name}: a ticking clock inside a live region ${where}: ${r.clocks.join(', ')}`);
  return r.writes;
}

// Sounds (issue 31 item 12): installed in a page before its scripts
// (`context.addInitScript(SOUND_WATCH)`), this records every oscillator the page starts, with
// its frequency and the moment (Date.now()); `soundsOf` names them by kind: each sound's first
// note has a frequency of its own (web/model.js SOUNDS).
export const SOUND_WATCH = `(() => {
  const list = window.__sounds = [];
  const Base = window.AudioContext;
  if (!Base) return;
  window.AudioContext = class extends Base {
    createOscillator() {
      const osc = super.createOscillator();
      const start = osc.start.bind(osc);
      osc.start = (...a) => { list.push({ f: osc.frequency.value, at: Date.now() }); return start(...a); };
      return osc;
    }
  };
})();`;
const FIRST_NOTE = Object.fromEntries(Object.entries(SOUNDS).map(([kind, notes]) => [notes[0][0], kind]));
/** The sounds `p.page` has played (SOUND_WATCH): [{kind, at}], kind deal / chips / turn / win. */
export async function soundsOf(p) {
  const list = await p.page.evaluate(() => window.__sounds ?? null);
  check(list, `${p.name}: the sound watch is not installed in the page`);
  return list.filter((s) => FIRST_NOTE[s.f]).map((s) => ({ kind: FIRST_NOTE[s.f], at: s.at }));
}

// The run: its first failure anywhere (bots run concurrently with the main flow) stops it; the
// server process.
export const run = { aborted: null, server: null, stopping: false };
export function abort(e) {
  if (!run.aborted) run.aborted = e;
}
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Console errors (and frames off the schema) fail the test as soon as they are seen.
export const PLAYERS = [];
export function checkConsole() {
  for (const p of PLAYERS) check(p.errors.length === 0, `${p.name}: ${p.errors.length} console error(s) or bad frame(s):\n  ${p.errors.join('\n  ')}`);
}
export async function until(desc, cond, timeoutMs = 20000, everyMs = 100) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    if (run.aborted) throw run.aborted;
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
// Retries a set of assertions for a while (the page may render a moment after the frame).
export async function eventually(desc, fn, timeoutMs = 2500) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (run.aborted) throw run.aborted;
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

// The bots: every script's players answer prompts by clicking the page's buttons.
/** The prompt a page's bot may answer now, or null: the page's latest `your_turn` frame
 *  (`p.prompt`), not answered yet (`answered`: a Set of `${table_id}:${seq}` keys, the page's
 *  `p.clicked` unless given), on the table view, with the action buttons drawn and each of
 *  them legal in that frame (else they are a newer prompt's than the frame seen: look again).
 *  `{prompt, key, buttons: [{action, amount}]}` (`amount`: the button's `data-amount`, or
 *  null); the caller adds `key` to `answered` once it acts. */
export async function nextPrompt(p, answered = p.clicked) {
  const prompt = p.prompt;
  const key = prompt ? `${prompt.table_id}:${prompt.seq}` : null;
  if (!prompt || answered.has(key) || !(await p.page.locator('[data-testid=table]').isVisible())) return null;
  const buttons = await p.page.locator('[data-testid=actions] [data-testid=action]').evaluateAll((bs) => bs.map((b) => ({ action: b.dataset.action, amount: b.dataset.amount ?? null })));
  const legal = prompt.legal.map((a) => a.kind);
  if (!buttons.length || buttons.some((b) => !legal.includes(b.action))) return null;
  return { prompt, key, buttons };
}

/** The first of `order` among the buttons, else any but fold, else the first: the button to
 *  click. */
export function pickButton(buttons, order) {
  const kinds = buttons.map((b) => b.action);
  const kind = order.find((k) => kinds.includes(k)) ?? kinds.find((k) => k !== 'fold') ?? kinds[0];
  return buttons.find((b) => b.action === kind);
}

/** Clicks an action button (`choice`: one of nextPrompt's `buttons`), the one of its amount. */
export function clickAction(p, choice) {
  const amount = choice.amount === null ? '' : `[data-amount="${choice.amount}"]`;
  return p.page.locator(`[data-testid=actions] [data-testid=action][data-action="${choice.action}"]${amount}`).first().click({ timeout: 5000 });
}

// The server: `stud serve` on a SQLite file in `dir`, with `env` on top of the shared settings.
/** Headless Chromium as the scripts launch it. */
export const launchChromium = () =>
  chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

/** A caller of the API of the server at `addrOf()` (known once it has started), with the
 *  operator key `key` unless another token is given: `{ status, json, text }` (json null when
 *  the body is not JSON). */
export function operatorApi(addrOf, key) {
  return async (method, route, body, token = key) => {
    const res = await fetch(`http://${addrOf()}${route}`, {
      method, headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, json, text };
  };
}

/** Opens the lobby at `url` as player `p` (its language unless English, its name), starts,
 *  and waits for the starting `balance` (cents). */
export async function enterLobby(p, url, balance) {
  await p.page.goto(url);
  await p.q('lobby').waitFor({ state: 'visible', timeout: 10000 });
  if (p.lang !== 'en') await p.q('lang').selectOption(p.lang);
  await p.q('name').fill(p.name);
  await p.q('start').click();
  await until(`${p.name}: the balance after starting`, async () => Number(await p.attr('balance', 'data-amount')) === balance, 10000);
}

/** Opens the tournament view as a panel at the table (its button; again if it did not open). */
export async function openPanel(p) {
  let clicked = 0;
  await until(`${p.name}: the tournament panel open at the table`, async () => {
    if ((await p.q('tournament').isVisible()) && (await p.attr('tournament', 'data-mode')) === 'panel') return true;
    if (Date.now() - clicked > 1000) {
      clicked = Date.now();
      await p.q('tournament-table-open').click();
    }
    return false;
  }, 8000);
}

/** Closes the tournament panel: its Close button (a notice may lie over it a moment), else
 *  Escape. */
export async function closePanel(p) {
  await p.q('tournament-close').click({ timeout: 2000 }).catch(() => {});
  let pressed = Date.now();
  await until(`${p.name}: the tournament panel closed`, async () => {
    if (!(await p.q('tournament').isVisible())) return true;
    if (Date.now() - pressed > 1000) {
      pressed = Date.now();
      await p.page.keyboard.press('Escape');
    }
    return false;
  }, 5000);
}

/** `POST /api/admin/tables` with the operator key `key`: the response and its JSON body (null
 *  when it is not JSON). */
export async function createTable(addr, key, settings) {
  const res = await fetch(`http://${addr}/api/admin/tables`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(settings),
  });
  return { res, body: await res.json().catch(() => null) };
}

export const serverLog = [];
export function startServer(dir, env) {
  check(existsSync(BIN), `no server binary at ${BIN}: run \`cargo build -p stud-cli\` first, or set STUD_BIN`);
  const all = { ...process.env, STUD_ACTION_TIMEOUT_MS: '20000', RUST_LOG: 'info', NO_COLOR: '1', ...env };
  delete all.STUD_LOG_FORMAT;
  const args = ['serve', '--bind', '127.0.0.1:0', '--database-url', `sqlite://${path.join(dir, 'stud.db')}`, '--tables-per-variant', '1'];
  log(`server: ${BIN} ${args.join(' ')}`);
  const server = spawn(BIN, args, { cwd: dir, env: all, stdio: ['ignore', 'ignore', 'pipe'] });
  run.server = server;
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
          clearTimeout(timer);
          resolve(rest.trim().split(/\s/)[0].replace(/[^0-9.:]/g, ''));
        }
      }
    });
    server.on('exit', (code, sig) => {
      clearTimeout(timer);
      if (!run.stopping) {
        const e = new Failure(`the server exited (code ${code}, signal ${sig})`);
        reject(e);
        abort(e);
      }
    });
  });
}

export async function stopServer() {
  const server = run.server;
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  run.stopping = true;
  const gone = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  if (await Promise.race([gone.then(() => true), sleep(5000).then(() => false)])) return;
  server.kill('SIGKILL');
  await gone;
}
process.on('exit', () => {
  const server = run.server;
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
});

/** Runs a script's `main` the way every test here ends: a hard stop after `overallMs` (in case
 * something hangs where no timeout applies), `PASS: <title>` or `FAIL: ...` with the server's
 * last log lines, then the server stopped and `tmp` removed; exits 0 or 1. */
export async function runTest(title, main, { overallMs, tmp }) {
  const watchdog = setTimeout(() => {
    console.error(`FAIL: the whole test took longer than ${overallMs / 1000} s`);
    console.error(serverLog.slice(-25).join('\n'));
    for (const p of PLAYERS.filter((x) => x.trail?.length)) console.error(`--- ${p.name}: the last ${p.trail.length} frames ---\n${p.trail.join('\n')}`);
    if (run.server && run.server.exitCode === null) run.server.kill('SIGKILL');
    process.exit(1);
  }, overallMs);
  let code = 0;
  try {
    await main();
    console.log(`PASS: ${title}`);
  } catch (e) {
    code = 1;
    console.error(`FAIL: ${e instanceof Failure ? e.message : e.stack || e}`);
    for (const p of PLAYERS.filter((x) => x.trail?.length)) console.error(`--- ${p.name}: the last ${p.trail.length} frames ---\n${p.trail.join('\n')}`);
    if (serverLog.length) console.error(`--- last server log lines ---\n${serverLog.slice(-25).join('\n')}`);
  } finally {
    clearTimeout(watchdog);
    run.aborted ??= new Failure('done'); // stops the bots if they are still running
    await stopServer();
    rmSync(tmp, { recursive: true, force: true });
  }
  process.exit(code);
}
