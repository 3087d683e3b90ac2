// End-to-end browser test of the stud web client (web/index.html + web/app.js).
//
// Starts the real server on a free port, opens the page in two headless Chromium contexts
// (two people), sits both at the Stud table and plays hands by clicking the action buttons,
// checking the page's DOM contract (its data-testid selectors; see README.md here) at every
// prompt. Then: a dropped connection and its reconnection, LAST HAND with its report, replayer
// and downloads, the language switch, no console errors, no serious accessibility violations
// (axe-core), and the layout at five window sizes (the action buttons inside the window, the
// viewer's seat at the bottom). Meanwhile two more people at a fast table: the clock sits one
// out (the notice and "I'm back"), a reload and a new tab continue the session, log out.
//
// The WebSocket frames each page receives are observed (Playwright's page.on('websocket')) as
// the reference the DOM is checked against: which hand is in play, the cards dealt, the legal
// actions, the hand ends.
//
// Run from the repo root after `cargo build -p stud-cli`:  node tests/browser/play.mjs
// STUD_BIN overrides the binary (default $CARGO_TARGET_DIR/debug/stud, else target/debug/stud); CHROMIUM the browser
// (default /usr/bin/chromium). Exits 1 with "FAIL: ..." on the first failure.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, HERE, LIVE_WATCH, ROOT, Failure, PLAYERS, checkAxe, checkLiveRegions, SHOTS, abort, check, fail, checkConsole, checkFrame, clickAction, eventually, frames, keepTrail, log, nextPrompt, pickButton, receivedFrame, run, runTest, sleep, startServer, until } from './harness.mjs';

const HANDS = 3; // complete hands both pages must see before the reconnect
const VIEWPORTS = [[1366, 657], [1280, 630], [1920, 1000], [390, 844], [844, 390]];
const OPERATOR_KEY = 'browser-test-operator-key-0123456789';
// English money as the page shows it: "$218.90", "$2" (cents are the unit on the wire).
const MONEY = /^-?\$\d{1,3}(,\d{3})*(\.\d\d)?$/;
const usd = (cents) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: cents % 100 ? 2 : 0, maximumFractionDigits: 2 }).format(cents / 100);
const OVERALL_MS = 8 * 60 * 1000;

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
    this.acts = []; // every `act` frame the page sent: {seq, kind, clicked}
    this.clickedSeqs = new Set(); // prompts answered by a click of the bot
    this.forcePick = null; // the bot's next choice, when a check needs it
    this.resultChecks = []; // how long the result strip stayed up after each hand
    PLAYERS.push(this);
    this.logSeen = new Set(); // every [data-testid=log-line] text seen
    this.lastResultAt = 0;
    this.chats = []; // `chat` frames received
    this.reports = new Map(); // hand id -> the LAST HAND report received
    this.errorFrames = []; // `error` frames received
    this.sentChats = 0; // `chat` frames the page sent
    this.pauses = []; // ms from a showdown hand's result to the next hand's start, as this process saw them
    this.showdownHands = []; // hands seen going to a showdown (the server's pause is checked on their records)
    this.handTables = new Map(); // hand id -> table id
    this.lastShowdownResultAt = null;
    this.socketOpenedAt = 0;

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
      this.socketOpenedAt = Date.now();
      ws.on('framereceived', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString('utf8');
        keepTrail(this, 'in', text);
        this.frame(text);
      });
      ws.on('framesent', ({ payload }) => {
        keepTrail(this, 'out', typeof payload === 'string' ? payload : payload.toString('utf8'));
        try {
          const m = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
          checkFrame(this, 'out', m);
          if (m.type === 'act') this.acts.push({ seq: m.seq, kind: m.action.kind, to: m.action.to ?? null, at: Date.now() });
          if (m.type === 'chat') this.sentChats += 1;
        } catch {
          // not JSON: not ours to check
        }
      });
    });
  }

  hand(id) {
    if (!this.hands.has(id)) {
      this.hands.set(id, { id, number: null, dealt: [], shown: new Map(), showdown: false, ended: false, street: 'third' });
      this.order.push(id);
    }
    return this.hands.get(id);
  }

  frame(text) {
    const m = receivedFrame(this, text);
    if (!m) return;
    switch (m.type) {
      case 'chat':
        this.chats.push(m);
        break;
      case 'last_hand':
        this.reports.set(m.report.summary.hand_id, m.report);
        break;
      case 'error':
        this.errorFrames.push(m);
        break;
      case 'hand_started':
        if (this.lastShowdownResultAt !== null) this.pauses.push(Date.now() - this.lastShowdownResultAt);
        this.lastShowdownResultAt = null;
        this.hand(m.hand_id).number = m.number;
        this.handTables.set(m.hand_id, m.table_id);
        this.current = m.hand_id;
        this.promptState = 'none';
        break;
      case 'event': {
        const h = this.hand(m.hand_id);
        const e = m.event || {};
        if (e.event === 'street_started') {
          h.street = e.street;
          h.streetActions = 0; // actions on this street so far
        }
        if (['bring_in', 'complete', 'bet', 'raise', 'call', 'check', 'fold'].includes(e.event)) h.streetActions = (h.streetActions ?? 0) + 1;
        if (e.event === 'dealt') h.dealt.push({ seat: e.seat, card: e.card, up: e.up });
        else if (e.event === 'bring_in') h.bringIn = e.seat;
        else if (e.event === 'street_started' && e.street !== 'third') h.bringIn = null;
        else if (e.event === 'hand_ended') h.bringIn = null;
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
        // The result stays up at least 4 s after the hand's end: watched until it goes; the
        // page's own times (data-ended-at, data-hidden-at) say for how long.
        (async () => {
          const t = Date.now();
          const strip = this.page.locator('[data-testid=result-strip]');
          let last = null;
          while (!this.stop && Date.now() - t < 10000) {
            last = await strip.evaluate((e) => ({ visible: e.checkVisibility(), text: e.textContent, hand: e.dataset.handId, ended: Number(e.dataset.endedAt), hidden: Number(e.dataset.hiddenAt) }));
            if (last.hand !== m.hand_id && Date.now() - t < 2000) {
              await sleep(100); // the page may not have drawn this hand's result yet
              continue;
            }
            if (!last.visible || last.hand !== m.hand_id) break;
            await sleep(150);
          }
          if (this.stop || !last || last.hand !== m.hand_id) return;
          this.resultChecks.push({ hand: m.hand_id, started: this.current !== m.hand_id, text: last.text, upMs: last.visible ? 10000 : last.hidden - last.ended });
        })().catch(() => {});
        this.hand(m.hand_id).ended = true;
        this.lastResultAt = Date.now();
        // A result that comes right after a socket opened may be one the server gives again to a
        // reconnecting page (the hand ended while it was offline): its arrival says nothing of
        // when the hand ended, so no pause is measured from it.
        this.lastShowdownResultAt = this.hand(m.hand_id).showdown && Date.now() - this.socketOpenedAt > 2000 ? Date.now() : null;
        if (this.hand(m.hand_id).showdown) this.showdownHands.push(m.hand_id);
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
        stackText: q('seat-stack', s)?.textContent.trim() ?? null,
        folded: s.getAttribute('data-folded') === 'true',
        bringIn: Boolean(q('bring-in-tag', s)),
        animations: qa('card', s).map((c) => getComputedStyle(c).animationName),
        cards: qa('card', s).map((c) => ({ card: c.getAttribute('data-card'), down: c.getAttribute('data-down') === 'true', label: c.getAttribute('aria-label') })),
      }));
      const actions = qa('action', q('actions') || document.createElement('div')).map((b) => ({
        action: b.getAttribute('data-action'),
        amount: b.getAttribute('data-amount'),
        text: b.textContent.trim(),
        label: b.firstChild?.textContent.trim() ?? '', // without its key
      }));
      return {
        seats,
        pot: q('pot')?.getAttribute('data-amount') ?? null,
        potText: q('pot')?.querySelector('.pot-amount')?.textContent.trim() ?? null,
        actions,
        logLines: qa('log-line').map((l) => l.textContent.trim()),
        status: q('status')?.getAttribute('data-state') ?? null,
        statusText: q('status')?.textContent.trim() ?? null,
        turn: q('turn')?.textContent.trim() ?? '',
        clock: q('clock')?.textContent.trim() ?? '',
        yourTurn: document.body.dataset.yourTurn === 'true',
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
    check(s.yourTurn, 'body[data-your-turn] is not set at a prompt (the title flash and sound)');
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

    // Our turn is said with the amount to call and the legal actions (the turn line, a live
    // region: "Your turn: $2 to call; you may Fold, Call $2, Raise to $4").
    check(s.turn.startsWith('Your turn: '), `[data-testid=turn] says ${JSON.stringify(s.turn)} at a prompt, expected "Your turn: " and the details`);
    if (prompt.to_call) check(s.turn.includes(`${usd(prompt.to_call)} to call`), `[data-testid=turn] says ${JSON.stringify(s.turn)}, without the ${usd(prompt.to_call)} to call`);
    for (const a of s.actions) check(s.turn.includes(a.label), `[data-testid=turn] says ${JSON.stringify(s.turn)}, without the action ${JSON.stringify(a.label)}`);
    // Own down cards: face up, real values, named as down cards ("Ace of spades, down card").
    const myDown = me.cards.filter((c) => c.down);
    for (const c of me.cards) check(c.down === / down card$/.test(c.label ?? ''), `own ${c.down ? 'down' : 'up'} card ${c.card} is named ${JSON.stringify(c.label)}`);
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
    // The bring-in is labelled on its seat, on 3rd street only.
    if (h) {
      const tagged = s.seats.filter((x) => x.bringIn).map((x) => Number(x.seat));
      const want = h.bringIn ? [h.bringIn] : [];
      check(tagged.join() === want.join(), `[data-testid=bring-in-tag] on seats [${tagged}], the bring-in was posted by [${want}]`);
    }
    // Reduced motion (Bob's browser asks for it): no card is animated.
    if (p.reducedMotion) {
      const moving = s.seats.flatMap((x) => x.animations).filter((n) => n !== 'none');
      check(moving.length === 0, `cards animate (${moving.join()}) although the browser prefers reduced motion`);
    }
    // Money as money: stacks, pot and the amounts on the buttons in dollars and cents.
    for (const x of occupied) check(x.stackText === usd(Number(x.stack)), `seat ${x.seat} [data-testid=seat-stack] shows ${JSON.stringify(x.stackText)} for ${x.stack} cents, expected ${JSON.stringify(usd(Number(x.stack)))}`);
    check(s.potText === usd(Number(s.pot)), `the pot shows ${JSON.stringify(s.potText)} for ${s.pot} cents, expected ${usd(Number(s.pot))}`);
    for (const a of s.actions) {
      const m = /\$[\d,.]+/.exec(a.text);
      if (['bet', 'raise', 'complete', 'call', 'bring_in'].includes(a.action)) check(m && MONEY.test(m[0]), `the ${a.action} button says ${JSON.stringify(a.text)}: no dollar amount`);
      if (a.amount !== null) check(a.text.includes(usd(Number(a.amount))), `the ${a.action} button to ${a.amount} cents says ${JSON.stringify(a.text)}, expected ${usd(Number(a.amount))} in it`);
    }
    // Names, not seat numbers, in the log.
    const seatWords = s.logLines.filter((l) => /\bSeat \d\b/.test(l));
    check(seatWords.length === 0, `log lines name seats by number: ${JSON.stringify(seatWords.slice(0, 3))}`);
    check(s.logLines.some((l) => l.includes(p.name) || l.includes(opp.name)), `no log line names ${p.name} or ${opp.name}: ${JSON.stringify(s.logLines.slice(-5))}`);
    for (const line of s.logLines) p.logSeen.add(line);
    return s;
  }).then(async (s) => {
    // Meanwhile it is not the opponent's turn: their actions area must be empty.
    // Their pre-action boxes offer only what can happen: never the bring-in (p is to act: the
    // bring-in is p's, or posted), no check on 3rd street (the bring-in is a bet to call).
    const street = h?.street ?? 'third';
    await eventually(`${opp.name}, while ${p.name} is to act`, async () => {
      const n = await opp.page.locator('[data-testid=actions] [data-testid=action]').count();
      check(n === 0, `[data-testid=actions] holds ${n} buttons although it is not the viewer's turn (it must be empty)`);
      const boxes = await opp.page.locator('[data-testid=pre-actions] [data-testid=pre-action]').evaluateAll((xs) => xs.map((x) => x.dataset.pre));
      check(!boxes.includes('bring_in'), `pre-action boxes [${boxes}] offer the auto-posted bring-in while ${p.name} is to act`);
      if (street === 'third') check(!boxes.includes('check') && !boxes.includes('check_fold'), `pre-action boxes [${boxes}] offer a check on 3rd street`);
      if (boxes.length) check(boxes.includes('fold_any') && boxes.includes('call_any') && boxes.includes('raise'), `pre-action boxes [${boxes}] lack "fold to any bet", "call any" or "bet / raise"`);
    }, 1500);
    return s;
  });
}

// Plays whenever the page shows a prompt: mostly check/call/bring_in/show so hands reach
// showdown, sometimes bet/complete, rarely raise.
async function bot(p, opp) {
  let staleSince = null;
  while (!p.stop) {
    if (run.aborted) return;
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
    // Where the focus is at a prompt (keyboardTasks set it up at the opponent's prompt).
    if (p.expectFocus) {
      const want = p.expectFocus;
      p.expectFocus = null;
      await eventually(`${p.name}: the focus at a prompt (${want.what})`, async () => {
        const f = await p.page.evaluate(() => {
          const e = document.activeElement;
          return { testid: e?.dataset?.testid ?? e?.tagName, inBar: Boolean(e?.closest('[data-testid=action-bar]')), value: e?.value ?? null };
        });
        if (want.what === 'bar') check(f.inBar, `the focus is on ${f.testid} at a prompt, not in the action bar`);
        else check(f.testid === 'chat-input' && f.value === want.value, `the focus left the chat box being typed in at a prompt (it is on ${f.testid}, value ${JSON.stringify(f.value)})`);
      });
      if (want.what === 'typing') {
        // Done typing: leave the chat box, or the keys pressed at this prompt would be typed
        // into it (as the page must: typing is not acting).
        await p.page.locator('[data-testid=chat-input]').fill('');
        await p.page.locator('[data-testid=chat-input]').blur();
      }
      want.done();
    }
    for (const task of p.tasks.splice(0)) await task();
    if (p.stop) return;
    if (p.clickedSeq >= prompt.seq) continue; // a task acted at this prompt itself
    const kinds = s.actions.map((a) => a.action);
    const me = s.seats.find((x) => x.me);
    const rich = Number(me.stack) >= 2000;
    let pick;
    const r = random();
    if (rich && r < 0.08 && kinds.includes('raise')) pick = 'raise';
    else if (rich && r < 0.25 && kinds.includes('bet')) pick = 'bet';
    else if (rich && r < 0.2 && kinds.includes('complete')) pick = 'complete';
    else pick = ['check', 'call', 'bring_in', 'show'].find((k) => kinds.includes(k)) ?? kinds.find((k) => k !== 'fold') ?? kinds[0];
    if (p.forcePick && kinds.includes(p.forcePick)) pick = p.forcePick;
    p.forcePick = null;
    // One button per legal action; bet can be offered at two sizes (an open pair on 4th).
    const choice = s.actions.find((a) => a.action === pick);
    const amount = choice.amount === null ? '' : `[data-amount="${choice.amount}"]`;
    p.clickedSeq = prompt.seq;
    p.clickedSeqs.add(prompt.seq);
    // Keyboard play: now and then Bob presses "c" (check or call) instead of clicking; the first
    // times with the focus on a checkbox (the four-colour deck), then on a select (the
    // language): the keys work there too, and change neither.
    const focusOn = p.name === 'Bob' ? p.keyFocus?.shift() : null;
    if (p.name === 'Bob' && (focusOn || p.clicks % 4 === 2) && ['check', 'call'].includes(pick)) {
      const before = p.acts.length;
      if (focusOn) await p.page.locator(`[data-testid=${focusOn}]`).focus();
      else await p.page.locator('body').press('c'); // (focuses <body> first)
      if (focusOn) await p.page.keyboard.press('c');
      await until(`${p.name}: the "c" key sends ${pick}${focusOn ? ` with the focus on [data-testid=${focusOn}]` : ''}`, async () => p.acts.length > before, 5000, 50);
      check(p.acts[before].kind === pick && p.acts[before].seq === prompt.seq, `${p.name}: the "c" key sent ${JSON.stringify(p.acts[before])}, expected ${pick} at seq ${prompt.seq}`);
      if (focusOn) {
        const prefs = await p.page.evaluate(() => ({ four: document.querySelector('[data-testid=four-colour]').checked, lang: document.querySelector('[data-testid=lang]').value }));
        check(!prefs.four && prefs.lang === 'en', `${p.name}: "c" on [data-testid=${focusOn}] changed it (${JSON.stringify(prefs)})`);
        p.keyFocused = [...(p.keyFocused ?? []), focusOn];
        log(`${p.name}: "c" sent ${pick} with the focus on [data-testid=${focusOn}]`);
      }
      p.keys = (p.keys ?? 0) + 1;
      p.clicks += 1;
      continue;
    }
    if (focusOn) p.keyFocus.unshift(focusOn); // not at this prompt
    await p.page.locator(`[data-testid=actions] [data-testid=action][data-action="${pick}"]${amount}`).click({ timeout: 5000 });
    p.clicks += 1;
    // The clicked button is gone: the focus stays in the action bar, never on <body>.
    const focus = await p.page.evaluate(() => ({ body: document.activeElement === document.body || !document.activeElement, inBar: Boolean(document.activeElement?.closest('[data-testid=action-bar]')) }));
    check(!focus.body && focus.inBar, `${p.name}: after clicking ${pick} the focus is ${focus.body ? 'on <body>' : 'outside the action bar'}`);
  }
}

// The focus (issue 31): set up on Bob's page at one of Ann's prompts, looked at on Bob's next
// prompt. Once on the log (not typing): his turn takes the focus to the action bar. Once in
// the chat box with text typed: his turn leaves it there.
function keyboardTasks(p, opp, done) {
  opp.keyFocus = ['four-colour', 'lang'];
  const task = (what) => {
    const run = async () => {
      if (p.forcePick || opp.expectFocus) return void p.tasks.push(run);
      if (what === 'bar') await opp.page.locator('[data-testid=log]').focus();
      const value = 'typing, not acting';
      if (what === 'typing') await opp.page.locator('[data-testid=chat-input]').fill(value);
      opp.expectFocus = { what, value, done: () => { done[what] = true; log(`${opp.name}: at his turn the focus ${what === 'bar' ? 'went from the log to the action bar' : 'stayed in the chat box being typed in'}`); } };
    };
    return run;
  };
  p.tasks.push(task('bar'), task('typing'));
}

async function runBot(p, opp) {
  try {
    await bot(p, opp);
  } catch (e) {
    const named = PLAYERS.some((q) => e.message?.startsWith(`${q.name}: `));
    abort(e instanceof Failure && !named ? new Failure(`${p.name}: ${e.message}`) : e);
  }
}

// The page at one window size, at a prompt: every action button inside the window without
// scrolling (the page is at the top), no horizontal overflow, the table visible, the viewer's
// seat the lowest one and centred; a screenshot of the window.
async function checkLayout(p, width, height, { seats = 2, resize = true, file = `viewport-${width}x${height}.png` } = {}) {
  if (resize) await p.page.setViewportSize({ width, height });
  await p.page.evaluate(() => window.scrollTo(0, 0));
  await sleep(resize ? 250 : 50);
  await eventually(`${p.name} at ${width}x${height}`, async () => {
    const r = await p.page.evaluate(() => {
      const box = (e) => {
        const b = e.getBoundingClientRect();
        return { x: b.x, y: b.y, w: b.width, h: b.height, cx: b.x + b.width / 2, cy: b.y + b.height / 2 };
      };
      const seats = [...document.querySelectorAll('[data-testid=table] [data-testid=seat]')].filter((e) => e.querySelector('[data-testid=seat-stack]'));
      return {
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
        innerHeight: window.innerHeight,
        scrollY: window.scrollY,
        buttons: [...document.querySelectorAll('[data-testid=actions] [data-testid=action]')].map((e) => ({ ...box(e), visible: e.checkVisibility() })),
        seats: seats.map((e) => ({ me: e.getAttribute('data-me') === 'true', ...box(e) })),
        area: box(document.getElementById('seats')),
      };
    });
    check(r.scrollY === 0, `the page is scrolled (${r.scrollY})`);
    check(r.scrollWidth <= r.innerWidth + 1, `horizontal overflow: document scrollWidth ${r.scrollWidth} > innerWidth ${r.innerWidth}`);
    check(await p.page.locator('[data-testid=table]').isVisible(), '[data-testid=table] is not visible');
    check(r.buttons.length > 0, 'no [data-testid=action] buttons shown at a prompt');
    r.buttons.forEach((b, i) => {
      check(b.visible, `action button ${i} is not visible`);
      check(b.x >= -1 && b.x + b.w <= r.innerWidth + 1 && b.y >= -1 && b.y + b.h <= r.innerHeight + 1, `action button ${i} lies outside the ${r.innerWidth}x${r.innerHeight} window without scrolling (${JSON.stringify(b)})`);
    });
    const me = r.seats.find((x) => x.me);
    check(me && r.seats.length === seats, `expected ${seats} occupied seats, one data-me: ${JSON.stringify(r.seats)}`);
    for (const o of r.seats.filter((x) => !x.me)) check(me.cy > o.cy, `the viewer's seat (centre y ${me.cy.toFixed(0)}) is not below another seat (${o.cy.toFixed(0)})`);
    const mid = r.area.x + r.area.w / 2;
    check(Math.abs(me.cx - mid) < r.area.w * 0.1, `the viewer's seat is not at the centre (x ${me.cx.toFixed(0)}, the table's centre ${mid.toFixed(0)})`);
  });
  if (file) await p.shot(`v${width}x${height}`, file, { fullPage: false });
}

// Two and three pages play hands to showdown at each window size (two new tables made through
// the operator API, 2 and 3 seats): at every size each page's action buttons are checked
// inside the window at a prompt (its seat at the bottom), and each table is photographed at
// its showdown (viewport-WxH-2p.png, viewport-WxH-3p.png). The bots check and call, so every
// hand goes to showdown.
async function viewportShowdowns(browser, addr) {
  const make = async (name, seats) => {
    const res = await fetch(`http://${addr}/api/admin/tables`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_KEY}` },
      body: JSON.stringify({ name, variant: 'stud', ante: 10, bring_in: 20, small_bet: 40, big_bet: 80, seats, min_buy_in: 4000, max_buy_in: 4000, action_timeout_ms: 30000, time_bank_ms: 0 }),
    });
    const body = await res.json();
    check(res.ok && body.id, `creating the ${seats}-seat table: ${res.status} ${JSON.stringify(body)}`);
    return body.id;
  };
  const groups = [
    { label: '2p', id: await make('Two to showdown', 2), names: ['Eve', 'Fay'], players: [] },
    { label: '3p', id: await make('Three to showdown', 3), names: ['Gil', 'Hal', 'Ivy'], players: [] },
  ];
  const size = { key: null };
  const all = [];
  for (const g of groups) {
    for (const name of g.names) {
      const context = await browser.newContext({ viewport: { width: VIEWPORTS[0][0], height: VIEWPORTS[0][1] } });
      const p = new Player(name, context, await context.newPage());
      p.checked = new Set();
      g.players.push(p);
      all.push(p);
      await p.page.goto(`http://${addr}/`);
      await p.page.locator('[data-testid=name]').fill(name);
      await p.page.locator('[data-testid=start]').click();
      const row = p.page.locator(`[data-testid=table-row][data-table-id="${g.id}"]`);
      await until(`${name}: the ${g.label} table in the lobby`, async () => (await row.count()) === 1, 15000);
      await row.locator('[data-testid=sit]').click();
      await until(`${name}: seated at the ${g.label} table`, async () => (await p.page.locator('[data-testid=seat][data-me=true]').count()) === 1, 10000);
    }
  }
  const play = async (p, seats) => {
    p.answered = new Set();
    while (!p.stop) {
      if (run.aborted) return;
      const next = p.promptState === 'mine' ? await nextPrompt(p, p.answered) : null;
      if (!next) {
        await sleep(60);
        continue;
      }
      const key = size.key;
      if (key && !p.checked.has(key) && !next.prompt.legal.some((a) => a.kind === 'show' || a.kind === 'muck')) {
        const [w, h] = key.split('x').map(Number);
        await checkLayout(p, w, h, { seats, resize: false, file: null });
        p.checked.add(key);
      }
      p.clickedSeq = next.prompt.seq;
      p.answered.add(next.key);
      await clickAction(p, pickButton(next.buttons, ['check', 'call', 'bring_in', 'show']));
    }
  };
  const bots = groups.flatMap((g) => g.players.map((p) => play(p, g.names.length).catch((e) => abort(e instanceof Failure ? new Failure(`${p.name}: ${e.message}`) : e))));
  // "Call {amount}" (issue 31): at the 3-seat table a page facing a bet while another is to act
  // offers it; ticked, it answers that page's next prompt by itself with a call (nobody raises).
  const called = { done: false };
  const callBox = (async () => {
    while (!called.done && !run.aborted && !all.some((p) => p.stop)) {
      for (const p of groups[1].players) {
        const box = p.page.locator('[data-testid=pre-actions] [data-testid=pre-action][data-pre=call]');
        if (p.promptState === 'mine' || (await box.count()) !== 1) continue;
        const amount = Number(await box.getAttribute('data-amount').catch(() => 0));
        const label = (await box.locator('xpath=..').textContent().catch(() => '')).trim();
        const before = p.acts.length;
        const ticked = await box.check({ timeout: 1000 }).then(() => box.isChecked({ timeout: 500 })).catch(() => false);
        if (!ticked || p.acts.length > before) continue; // it went meanwhile
        check(amount > 0 && label === `Call ${usd(amount)}`, `${p.name}: the "call" box says ${JSON.stringify(label)} for ${amount} cents`);
        await until(`${p.name}: the ticked "${label}" box answers the next prompt by itself`, async () => p.acts.length > before, 30000, 50);
        const a = p.acts[before];
        check(a.kind === 'call' && a.seq > p.clickedSeq, `${p.name}: after ticking "${label}" the page sent ${JSON.stringify(a)} (last click at seq ${p.clickedSeq})`);
        called.done = true;
        log(`${p.name}: the "${label}" box called by itself`);
        break;
      }
      await sleep(100);
    }
  })().catch(abort);
  try {
    for (const [w, h] of VIEWPORTS) {
      for (const p of all) await p.page.setViewportSize({ width: w, height: h });
      size.key = `${w}x${h}`;
      const marks = groups.map((g) => g.players[0].order.length);
      const shot = new Set();
      await until(`${w}x${h}: a hand to showdown at both tables, each page's buttons checked`, async () => {
        for (const [i, g] of groups.entries()) {
          const first = g.players[0];
          const done = first.order.slice(marks[i]).some((id) => first.hands.get(id).showdown && first.hands.get(id).ended && first.hands.get(id).number !== null);
          if (done && !shot.has(g.label)) {
            // The showdown stays up (the server's pause): the cards and the winner are on screen.
            await first.shot(`v${w}x${h}-${g.label}`, `viewport-${w}x${h}-${g.label}.png`, { fullPage: false });
            shot.add(g.label);
          }
        }
        return shot.size === groups.length && all.every((p) => p.checked.has(size.key));
      }, 90000, 150);
      log(`${w}x${h}: two and three pages played to showdown; every page's buttons inside the window`);
    }
    await until('the "call {amount}" box used at the 3-seat table', () => called.done, 60000, 100);
    await callBox;
  } finally {
    for (const p of all) p.stop = true;
    await Promise.all(bots);
  }
  for (const p of all) {
    PLAYERS.splice(PLAYERS.indexOf(p), 1);
    check(p.errors.length === 0, `${p.name}: console errors: ${p.errors.join('; ')}`);
    await p.context.close();
  }
}

// Pre-action boxes, ticked on the opponent's page while this page (p) holds its turn:
// - at p's bring-in: the opponent ticks "call any"; p brings in; the opponent's page must answer
//   its next prompt by itself (an act frame no click sent: call or check), and untick the box;
// - at a prompt where p may bet: the opponent ticks "check"; p bets; the box must be cleared
//   (the bet changed) and the opponent gets buttons;
// - at a prompt where p is first to act after 3rd street and may check: the opponent ticks
//   "bet / raise" (it says "Bet"); p checks; the opponent's page must bet the smallest legal
//   bet by itself at its next prompt, and untick the box.
function preActionTasks(p, opp, done) {
  const box = (kind) => opp.page.locator(`[data-testid=pre-actions] [data-testid=pre-action][data-pre=${kind}]`);
  const callAny = async () => {
    const legal = p.prompt.legal.map((a) => a.kind);
    if (done.callAny || !legal.includes('bring_in')) return void p.tasks.push(callAny);
    await until(`${opp.name}: the pre-action boxes while ${p.name} is to act`, async () => (await box('call_any').count()) === 1, 5000);
    await box('call_any').check();
    const before = opp.acts.length;
    p.forcePick = 'bring_in';
    (async () => {
      await until(`${opp.name}: the ticked "call any" answers the next prompt by itself`, async () => opp.acts.length > before, 20000);
      const a = opp.acts[before];
      check(!opp.clickedSeqs.has(a.seq) && ['call', 'check'].includes(a.kind), `${opp.name}: after "call any" the page sent ${JSON.stringify(a)} (clicked: ${opp.clickedSeqs.has(a.seq)})`);
      await eventually(`${opp.name}: "call any" unticked once used`, async () => check((await box('call_any').count()) === 0 || !(await box('call_any').isChecked()), 'the box is still ticked'), 5000);
      done.callAny = true;
      log(`${opp.name}: the "call any" box answered ${a.kind} by itself`);
    })().catch(abort);
  };
  const checkBox = async () => {
    const legal = p.prompt.legal.map((a) => a.kind);
    if (done.check || !legal.includes('bet') || (await box('check').count()) !== 1) return void p.tasks.push(checkBox);
    await box('check').check();
    check(await box('check').isChecked(), `${opp.name}: the "check" box does not tick`);
    p.forcePick = 'bet';
    (async () => {
      await until(`${opp.name}: "check" cleared after ${p.name} bet`, async () => (await box('check').count()) === 0 || !(await box('check').isChecked()), 10000);
      await until(`${opp.name}: buttons after the bet (the cleared box does not act)`, async () => (await opp.page.locator('[data-testid=actions] [data-testid=action]').count()) > 0 || opp.promptState !== 'mine', 10000);
      done.check = true;
      log(`${opp.name}: the "check" box was cleared when ${p.name} bet`);
    })().catch(abort);
  };
  // Bet / raise: at a prompt of p's after 3rd street with no bet in (p may check or bet), the
  // opponent ticks the box (it says "Bet"); p checks; the opponent's page must answer its next
  // prompt by itself with the smallest bet legal (an act frame no click sent), then untick it.
  const raiseBox = async () => {
    const legal = p.prompt.legal;
    // p first to act on the street: once p checks, the opponent is to act on it (a check by the
    // last to act would end the street, and a new street clears the box).
    const h = p.hands.get(p.current);
    if (done.raise || p.forcePick || !h?.street || h.street === 'third' || h.streetActions !== 0 || !legal.some((a) => a.kind === 'check') || !legal.some((a) => a.kind === 'bet') || (await box('raise').count()) !== 1) return void p.tasks.push(raiseBox);
    const label = (await box('raise').locator('xpath=..').textContent()).trim();
    check(label === 'Bet', `${opp.name}: the bet / raise box says ${JSON.stringify(label)} with no bet in, expected "Bet"`);
    await box('raise').check();
    check(await box('raise').isChecked(), `${opp.name}: the "bet / raise" box does not tick`);
    const before = opp.acts.length;
    p.forcePick = 'check';
    (async () => {
      await until(`${opp.name}: the ticked "Bet" box answers the next prompt by itself`, async () => opp.acts.length > before, 20000);
      const a = opp.acts[before];
      const prompt = opp.prompt;
      const smallest = Math.min(...prompt.legal.filter((x) => x.kind === 'bet').map((x) => x.to));
      check(!opp.clickedSeqs.has(a.seq) && a.kind === 'bet' && a.seq === prompt.seq, `${opp.name}: after ticking "Bet" the page sent ${JSON.stringify(a)} (clicked: ${opp.clickedSeqs.has(a.seq)}; the prompt: ${JSON.stringify(prompt.legal)})`);
      check(a.to === smallest, `${opp.name}: the "Bet" box bet to ${a.to}, the smallest legal bet is ${smallest}`);
      await eventually(`${opp.name}: "bet / raise" unticked once used`, async () => check((await box('raise').count()) === 0 || !(await box('raise').isChecked()), 'the box is still ticked'), 5000);
      done.raise = true;
      log(`${opp.name}: the "Bet" box bet ${a.to} by itself`);
    })().catch(abort);
  };
  p.tasks.push(callAny, checkBox, raiseBox);
}

// LAST HAND at one of p's prompts (issue 31): a panel, not a modal. The action bar stays
// visible with nothing over its buttons, the panel says "Your turn", a key acts with the focus
// in the panel; the hand that ends while it is open appears in its list; Escape closes it.
function lastHandTasks(p, done) {
  const KEY = { check: 'c', call: 'c', bring_in: 'i' };
  const task = async () => {
    const kind = ['check', 'call', 'bring_in'].find((k) => p.prompt.legal.some((a) => a.kind === k));
    if (done.lastHand || p.forcePick || p.results.length < 1 || !kind) return void p.tasks.push(task);
    const page = p.page;
    const prompt = p.prompt;
    const panel = page.locator('[data-testid=last-hand]');
    await page.locator('[data-testid=last-hand-open]').click();
    await panel.waitFor({ state: 'visible', timeout: 5000 });
    await eventually(`${p.name}: LAST HAND opened on her turn`, async () => {
      const turn = page.locator('[data-testid=last-hand-turn]');
      check(await turn.isVisible(), 'LAST HAND does not say it is her turn ([data-testid=last-hand-turn] hidden)');
      check((await turn.textContent()).trim() === 'Your turn', `[data-testid=last-hand-turn] says ${JSON.stringify(await turn.textContent())}`);
      check(await page.locator('[data-testid=action-bar]').isVisible(), 'the action bar is not visible with LAST HAND open');
      const bar = await page.evaluate(() => [...document.querySelectorAll('[data-testid=actions] [data-testid=action]')].map((b) => {
        const r = b.getBoundingClientRect();
        const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return { action: b.dataset.action, free: Boolean(at && b.contains(at)), over: at ? `${at.tagName.toLowerCase()}#${at.id}.${at.className}` : null };
      }));
      check(bar.length > 0, 'no action buttons with LAST HAND open');
      const covered = bar.filter((b) => !b.free);
      check(covered.length === 0, `action buttons covered with LAST HAND open: ${JSON.stringify(covered)}`);
    });
    await checkAxe(p, 'with LAST HAND open at a prompt');
    const before = p.acts.length;
    await page.locator('[data-testid=last-hand-close]').focus(); // the focus in the panel
    await page.keyboard.press(KEY[kind]);
    await until(`${p.name}: "${KEY[kind]}" acts (${kind}) with LAST HAND open`, async () => p.acts.length > before, 5000, 50);
    check(p.acts[before].seq === prompt.seq && p.acts[before].kind === kind, `${p.name}: "${KEY[kind]}" with LAST HAND open sent ${JSON.stringify(p.acts[before])}, expected ${kind} at seq ${prompt.seq}`);
    p.clickedSeq = prompt.seq;
    p.clickedSeqs.add(prompt.seq);
    p.clicks += 1;
    log(`${p.name}: LAST HAND open on her turn: the bar uncovered, "Your turn" in the panel, "${KEY[kind]}" sent ${kind}`);
    (async () => {
      const id = prompt.hand_id;
      await until(`${p.name}: hand ${id} ends with LAST HAND open`, () => p.hands.get(id)?.ended, 90000, 100);
      await until(`${p.name}: LAST HAND lists hand ${id}, which ended while it was open`, async () => (await panel.locator(`[data-testid=last-hand-row][data-hand-id="${id}"]`).count()) === 1, 8000, 100);
      check(await panel.isVisible(), 'LAST HAND closed by itself');
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden', timeout: 3000 });
      done.lastHand = true;
      log(`${p.name}: LAST HAND listed the hand that ended while it was open; Escape closed it`);
    })().catch(abort);
  };
  p.tasks.push(task);
}

// The language switch: Italian, Hungarian, back to English; labels, log lines (hand names too)
// and money change with it.
async function languages(p) {
  const page = p.page;
  const lang = page.locator('[data-testid=lang]');
  const text = (sel) => page.locator(`[data-testid=${sel}]`).first().textContent();
  await lang.selectOption('it');
  await eventually(`${p.name}: the page in Italian`, async () => {
    check((await page.evaluate(() => document.documentElement.lang)) === 'it', 'html lang is not "it"');
    check((await text('last-hand-open')).trim() === 'Ultime mani', `the LAST HAND button says ${JSON.stringify(await text('last-hand-open'))}`);
    const lines = await page.locator('[data-testid=log-line]').allTextContents();
    check(lines.some((l) => /\bvince\b/.test(l)), `no Italian "vince" in the log: ${JSON.stringify(lines.slice(-4))}`);
    const english = lines.filter((l) => /\b(wins|shows|checks|calls|Two pair|Pair of|High card|Three of a kind|Full house)\b/.test(l));
    check(english.length === 0, `English left in the Italian log: ${JSON.stringify(english.slice(0, 3))}`);
    const stack = (await page.locator('[data-testid=seat][data-me=true] [data-testid=seat-stack]').textContent()).replace(/[\u00a0\u202f]/g, ' ');
    check(/^\d{1,3}(\.\d{3})*(,\d\d)? \$$/.test(stack), `the stack in Italian is ${JSON.stringify(stack)}, expected like "218,90 $"`);
  });
  await p.shot('italian', 'italian.png', { fullPage: false });
  await lang.selectOption('hu');
  await eventually(`${p.name}: the page in Hungarian`, async () => {
    check((await text('last-hand-open')).trim() === 'Utolsó leosztások', `the LAST HAND button says ${JSON.stringify(await text('last-hand-open'))}`);
    check((await text('status')).trim() === 'kapcsolódva', `the status says ${JSON.stringify(await text('status'))}`);
  });
  await lang.selectOption('en');
  await eventually(`${p.name}: the page in English again`, async () => check((await text('last-hand-open')).trim() === 'Last hands', 'not English again'));
  log(`${p.name}: language switch it -> hu -> en checked`);
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
  // The top-up box at the table reads money as the lobby does: dollars, not cents.
  await eventually(`${p.name}: the table's buy-in / top-up box in dollars`, async () => {
    const v = await page.locator('[data-testid=table-buy-in]').inputValue();
    check(v === String(p.buyIn / 100), `[data-testid=table-buy-in] says ${JSON.stringify(v)} for a ${p.buyIn}-cent buy-in, expected dollars: ${p.buyIn / 100}`);
  });
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
  check(await b.page.locator('[data-testid=connection-banner]').isVisible(), `${b.name}: no [data-testid=connection-banner] while reconnecting`);
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
  check(!(await b.page.locator('[data-testid=connection-banner]').isVisible()), `${b.name}: the connection banner is still shown once connected`);
  await sleep(1000);
  b.offlineWindow[1] = Date.now();
  log(`${b.name}: reconnected (${b.sockets} sockets so far)`);
}

async function lastHand(a) {
  const page = a.page;
  // Opened with its key (V), from the table (the focus on the log: not typing).
  await page.locator('[data-testid=log]').focus();
  await page.keyboard.press('v');
  const dialog = page.locator('[data-testid=last-hand]');
  await dialog.waitFor({ state: 'visible', timeout: 10000 }).catch(() => fail(`${a.name}: the V key did not open LAST HAND`));
  const rows = dialog.locator('[data-testid=last-hand-row]');
  await until(`${a.name}: at least 3 [data-testid=last-hand-row]`, async () => (await rows.count()) >= 3, 15000);
  const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-hand-id')));
  log(`${a.name}: LAST HAND lists ${ids.length} hands`);
  await checkAxe(a, 'in LAST HAND (the list)');
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
  // Names, not seat numbers, and money in the report.
  await eventually('LAST HAND names and money', async () => {
    const names = await report.locator('[data-testid=last-hand-name]').allTextContents();
    check(names.some((n) => n.includes(a.name)) && names.every((n) => !/^Seat \d/.test(n)), `the report's seats are named ${JSON.stringify(names)}`);
    const awards = await report.locator('[data-testid=last-hand-awards] li').allTextContents();
    check(awards.length > 0 && awards.every((l) => /^(Ann|Bob) wins \$[\d,]+(\.\d\d)?( with .+)?$/.test(l)), `the report's awards say ${JSON.stringify(awards)}`);
    const lines = await report.locator('[data-testid=last-hand-log] li').allTextContents();
    check(lines.every((l) => !/\bSeat \d\b/.test(l)), `the report's log names seats by number: ${JSON.stringify(lines.filter((l) => /Seat \d/.test(l)).slice(0, 3))}`);
  });
  await a.shot('last-hand', 'last-hand.png');

  // The replayer: from the start, street by street to the result; the names throughout, the
  // cards only ever more, the pot only ever more until the result (less only by an uncalled
  // bet returned).
  const replayer = report.locator('[data-testid=replayer]');
  await replayer.locator('[data-testid=replay-first]').click();
  const steps = [];
  for (let i = 0; i < 12; i++) {
    const st = await replayer.evaluate((r) => ({
      step: Number(r.getAttribute('data-step')),
      label: r.querySelector('[data-testid=replay-step]').getAttribute('data-label'),
      pot: Number(r.querySelector('[data-testid=replay-pot]').getAttribute('data-amount')),
      names: [...r.querySelectorAll('[data-testid=replay-name]')].map((e) => e.textContent.trim()),
      cards: [...r.querySelectorAll('[data-testid=replay-seat]')].map((e) => e.querySelectorAll('[data-testid=card]').length),
      lines: [...r.querySelectorAll('[data-testid=replay-log] li')].map((e) => e.textContent.trim()),
      potText: r.querySelector('[data-testid=replay-pot]').textContent.trim(),
      last: r.querySelector('[data-testid=replay-next]').disabled,
    }));
    steps.push(st);
    check(st.step === i, `replayer step ${st.step}, expected ${i}`);
    check(st.names.includes(a.name) && st.names.every((n) => !/^Seat \d/.test(n)), `replayer step ${i} names ${JSON.stringify(st.names)}`);
    check(st.lines.length > 0, `replayer step ${i} (${st.label}) has no lines`);
    check(st.pot > 0 && st.potText.includes(usd(st.pot)), `replayer step ${i}: the pot is ${st.pot} cents, shown as ${JSON.stringify(st.potText)}`);
    if (i > 0) {
      const prev = steps[i - 1];
      check(st.cards.every((n, j) => n >= prev.cards[j]), `replayer step ${i}: fewer cards than the step before (${prev.cards} -> ${st.cards})`);
      // An uncalled bet goes back to its bettor (RULES.md): the pot goes down by it, and only by it.
      const returned = st.lines.map((l) => /Uncalled bet of \$([\d.,]+) returned/.exec(l)).find(Boolean);
      const back = returned ? Math.round(Number(returned[1].replace(/,/g, '')) * 100) : 0;
      check(st.pot >= prev.pot - back && (st.pot >= prev.pot || prev.pot - st.pot === back), `replayer step ${i}: the pot went down (${prev.pot} -> ${st.pot}, ${back} returned)`);
    }
    if (st.last) break;
    await replayer.locator('[data-testid=replay-next]').click();
  }
  // The keyboard: Enter on "Next street" steps forward every time (the focus stays on it).
  await replayer.locator('[data-testid=replay-first]').click();
  await replayer.locator('[data-testid=replay-next]').focus();
  const forward = Math.min(3, steps.length - 1);
  for (let k = 1; k <= forward; k++) {
    await a.page.keyboard.press('Enter');
    const at = Number(await replayer.getAttribute('data-step'));
    check(at === k, `Enter on Next street: step ${at}, expected ${k}`);
  }
  const labels = steps.map((x) => x.label);
  check(labels[0] === 'third' && labels.at(-1) === 'step_end' && labels.includes('step_showdown'), `replayer steps ${JSON.stringify(labels)}: expected 3rd street first, the showdown, the result last`);
  check(steps.at(-2).cards.every((n) => n === 7), `the showdown step does not show 7 cards a seat (${steps.at(-2).cards})`);
  // The pot as it was: at the result, the pot that was awarded (the awards add up to it).
  const rep = a.reports.get(showdownId);
  check(rep, `no last_hand frame for hand ${showdownId} was received`);
  check(Array.isArray(rep.pots) && rep.pots.length === rep.events.length, `the report's pots (${rep.pots?.length}) do not follow its ${rep.events.length} events one to one`);
  const names = new Map((rep.names ?? []).map((x) => [x.seat, x.name]));
  check(names.get(a.mySeat) === a.name, `the report's names ${JSON.stringify(rep.names)} do not name ${a.name} at seat ${a.mySeat}`);
  const awardedTotal = rep.events.filter((e) => e.event === 'award').reduce((n, e) => n + e.amount, 0);
  check(steps.at(-1).pot === awardedTotal, `the replayer's result shows a pot of ${steps.at(-1).pot} cents, the awards add up to ${awardedTotal}`);
  log(`${a.name}: replayer stepped through ${labels.join(' > ')}`);
  await a.shot('replayer', 'replayer.png', { fullPage: false });
  await checkAxe(a, 'in LAST HAND with the replayer');

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

// Table chat between the two seated players: a message with markup arrives on both pages as
// text (no element made, nothing run); the frame names the writer and carries no seq; the
// server's rate limit answers with a typed error the page shows; a message over 200
// characters is not sent.
async function chat(a, b) {
  for (const p of [a, b]) {
    await until(`${p.name}: the chat box at the table`, async () => (await p.page.locator('[data-testid=chat]').isVisible()) && (await p.page.locator('[data-testid=chat-form]').isVisible()), 5000);
  }
  const text = '<b>Hello</b> & <img src=x onerror="window.__chatRan=1"> é😀 <script>window.__chatRan=2</script>';
  await a.page.locator('[data-testid=chat-input]').fill(text);
  await a.page.locator('[data-testid=chat-send]').click();
  const lines = (p) => p.page.locator('[data-testid=chat-line]').evaluateAll((ls) => ls.map((l) => ({
    name: l.querySelector('[data-testid=chat-name]')?.textContent,
    text: l.querySelector('[data-testid=chat-text]')?.textContent,
    markup: l.querySelectorAll('b, img, script').length,
    seat: l.getAttribute('data-seat'),
  })));
  for (const p of [a, b]) {
    await until(`${p.name}: Ann's chat line, as text`, async () => (await lines(p)).some((l) => l.name === a.name && l.text === text), 8000);
    const got = (await lines(p)).find((l) => l.text === text);
    check(got.markup === 0, `${p.name}: the chat line holds ${got.markup} element(s) made from the message's markup`);
    check(Number(got.seat) === a.mySeat, `${p.name}: the chat line's data-seat is ${got.seat}, Ann sits at ${a.mySeat}`);
    check(await p.page.evaluate(() => window.__chatRan === undefined), `${p.name}: markup in a chat message ran`);
    const frame = p.chats.find((m) => m.text === text);
    check(frame && frame.name === a.name && frame.seat === a.mySeat && !('seq' in frame), `${p.name}: the chat frame ${JSON.stringify(frame)}`);
  }
  // Over 200 characters: the page does not send it (the input's maxlength is bypassed here).
  const sentBefore = a.sentChats;
  await a.page.locator('[data-testid=chat-input]').evaluate((i) => { i.value = 'x'.repeat(201); });
  await a.page.locator('[data-testid=chat-send]').click();
  await sleep(300);
  check(a.sentChats === sentBefore, `${a.name}: a 201-character chat message was sent`);
  check(/too long/i.test(await a.page.locator('#notice').textContent()), `${a.name}: no "too long" notice: ${JSON.stringify(await a.page.locator('#notice').textContent())}`);
  await a.page.locator('[data-testid=chat-input]').fill('');
  // The rate limit: Bob writes 7 at once; the server answers rate_limited, the page says so.
  const errorsBefore = b.errorFrames.length;
  for (let i = 0; i < 7; i++) {
    await b.page.locator('[data-testid=chat-input]').fill(`quick ${i}`);
    await b.page.locator('[data-testid=chat-input]').press('Enter');
  }
  await until(`${b.name}: a rate_limited error for the 6th chat message`, async () => b.errorFrames.slice(errorsBefore).some((m) => m.code === 'rate_limited'), 5000);
  await until(`${b.name}: the rate limit shown`, async () => /too many/i.test(await b.page.locator('#notice').textContent()), 3000);
  await until(`${a.name}: Bob's first 5 quick messages`, async () => a.chats.filter((m) => m.text.startsWith('quick ')).length === 5, 5000);
  await a.shot('chat', 'chat.png', { fullPage: false });
  log(`chat: markup shown as text on both pages, 201 characters not sent, the 6th quick message refused (rate_limited)`);
}

// The lobby sorts and filters, and keeps its order (after a reload too); no serious
// accessibility violation there.
async function lobby(p) {
  const page = p.page;
  const order = () => page.locator('[data-testid=table-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-variant')));
  await page.locator('[data-testid=lobby-sort][data-key=variant]').click();
  await eventually('the lobby sorted by game', async () => check((await order()).join() === 'razz,stud,stud8', `rows by game: ${await order()}`));
  await page.locator('[data-testid=lobby-sort][data-key=variant]').click();
  await eventually('the lobby sorted by game, descending', async () => check((await order()).join() === 'stud8,stud,razz', `rows by game, descending: ${await order()}`));
  await page.reload();
  await until(`${p.name}: the lobby rows after a reload`, async () => (await order()).length === 3, 10000);
  check((await order()).join() === 'stud8,stud,razz', `the lobby's order after a reload: ${await order()}`);
  await page.locator('[data-testid=lobby-filter-variant]').selectOption('razz');
  await eventually('the lobby filtered to razz', async () => check((await order()).join() === 'razz', `rows filtered to razz: ${await order()}`));
  await page.locator('[data-testid=lobby-filter-variant]').selectOption('all');
  await page.locator('[data-testid=lobby-sort][data-key=name]').click();
  await eventually('all rows back', async () => check((await order()).length === 3, `rows: ${await order()}`));
  // The lobby on a phone: no horizontal scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await eventually('the lobby at 390 px', async () => {
    const r = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth }));
    check(r.sw <= r.w + 1, `the lobby overflows at 390 px: scrollWidth ${r.sw}`);
  });
  await p.shot('lobby-390', 'lobby-390.png', { fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  const balance = (await page.locator('[data-testid=balance]').textContent()).trim();
  check(MONEY.test(balance), `[data-testid=balance] shows ${JSON.stringify(balance)}, expected dollars like "$1,000"`);
  await checkAxe(p, 'in the lobby');
  // Delivery: the page describes itself to search engines and link previews.
  const description = await page.evaluate(() => document.querySelector('head meta[name=description]')?.getAttribute('content') ?? null);
  check(description && description.trim().length >= 20, `no <meta name="description"> with a sentence in the page's head (${JSON.stringify(description)})`);
  // Delivery: the page's files come gzipped with an ETag, and one asked for again while
  // unchanged is answered 304 (Lighthouse counted 121 KiB to save).
  const delivered = [];
  const onResponse = async (r) => {
    if (new URL(r.url()).pathname !== '/table.js') return;
    await r.finished();
    const sizes = await r.request().sizes();
    delivered.push({ status: r.status(), headers: await r.allHeaders(), asked: await r.request().allHeaders(), body: sizes.responseBodySize });
  };
  page.on('response', onResponse);
  const encoding = await page.evaluate(async () => (await fetch('/table.js', { cache: 'reload' })).headers.get('content-encoding'));
  check(encoding === 'gzip', `/table.js came with content-encoding ${encoding}, expected gzip`);
  await page.evaluate(async () => (await fetch('/table.js', { cache: 'no-cache' })).status);
  await eventually('both answers for /table.js seen', async () => check(delivered.length >= 2, `${delivered.length} answers seen`));
  page.off('response', onResponse);
  check(delivered[0].status === 200 && delivered[0].headers.etag, `the first answer: ${JSON.stringify(delivered[0])}`);
  // (Chromium hands the page the cached copy as a 200; what went over the wire was a 304.)
  const again = delivered[1];
  check(again.asked['if-none-match'] === delivered[0].headers.etag, `asked again with ${again.asked['if-none-match']}, not its ETag ${delivered[0].headers.etag}`);
  check(again.body === 0, `asked again with its ETag, /table.js came with a body of ${again.body} bytes (expected a 304)`);
  log(`${p.name}: lobby sorts, filters, keeps its order; balance ${balance}; files gzipped, 304 when unchanged`);
}

// The four-colour deck and the sound switch, kept across a reload.
async function preferences(p) {
  const page = p.page;
  await page.locator('[data-testid=four-colour]').check();
  const sound = page.locator('[data-testid=sound-toggle]');
  check((await sound.getAttribute('aria-pressed')) === 'true', 'the sound is not on by default');
  await sound.click();
  check((await sound.getAttribute('aria-pressed')) === 'false', 'the sound switch does not mute');
  const colours = () => page.evaluate(() => {
    const d = document.querySelector('[data-testid=card][data-card$=d]');
    return { four: document.body.classList.contains('four-colour'), diamond: d ? getComputedStyle(d).color : null };
  });
  const c = await colours();
  check(c.four, 'the four-colour class is not on the page');
  if (c.diamond) check(c.diamond === 'rgb(21, 83, 184)', `a diamond is ${c.diamond} in the four-colour deck, expected blue`);
  await page.reload();
  await until(`${p.name}: the table again after a reload`, async () => (await page.locator('[data-testid=seat][data-me=true]').count()) === 1, 15000);
  check(await page.locator('[data-testid=four-colour]').isChecked(), 'the four-colour deck is off after a reload');
  // The hand in progress survives the reload: the server sends its events with the snapshot
  // (HandState.events), so the log has the whole hand, not just "in progress".
  const lines = await page.locator('[data-testid=log-line]').allTextContents();
  const at = lines.findIndex((l) => /\(in progress\)$/.test(l.trim()));
  if (at >= 0) {
    const rest = lines.slice(at + 1).map((l) => l.trim());
    check(/^Dealt in: /.test(rest[0] ?? '') && rest.some((l) => / antes \$/.test(l)), `after a reload mid-hand the log has the hand so far: ${JSON.stringify(rest.slice(0, 4))}`);
    log(`${p.name}: after a reload mid-hand, the log has the hand so far (${rest.length} lines)`);
  }
  check((await sound.getAttribute('aria-pressed')) === 'false', 'the sound is on again after a reload');
  await page.locator('[data-testid=four-colour]').uncheck();
  await sound.click();
  log(`${p.name}: four-colour deck and sound switch work and last`);
}

// Two more people at a fast table (made through the operator API: 1.5 s to act, 1.5 s of time
// bank) who never act: the clock posts the bring-in, then folds the other, who is sat out.
// Checks: the timer bar on the seat to act (on both pages), its time-bank colour on the
// player's own page, the sat-out notice and "I'm back"; then the session lasts: a reload and a
// new tab continue as the same player in the same seat; log out ends it.
async function fastTable(browser, addr) {
  const res = await fetch(`http://${addr}/api/admin/tables`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_KEY}` },
    body: JSON.stringify({ name: 'Fast razz', variant: 'razz', ante: 10, bring_in: 20, small_bet: 40, big_bet: 80, min_buy_in: 1000, max_buy_in: 4000, action_timeout_ms: 1500, time_bank_ms: 1500 }),
  });
  const body = await res.json();
  check(res.ok && body.id, `creating the fast table: ${res.status} ${JSON.stringify(body)}`);
  const people = [];
  for (const name of ['Dan', 'Cat']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const p = new Player(name, context, await context.newPage());
    people.push(p);
    await p.page.goto(`http://${addr}/`);
    await p.page.locator('[data-testid=name]').fill(name);
    await p.page.locator('[data-testid=start]').click();
    const row = p.page.locator(`[data-testid=table-row][data-table-id="${body.id}"]`);
    await until(`${name}: the fast table in the lobby`, async () => (await row.count()) === 1, 15000);
    if (name === 'Dan') {
      await row.locator('[data-testid=sit]').click();
    } else {
      // Cat watches first: the empty seats are "Sit here" spots; she takes one of them.
      await row.locator('[data-testid=watch]').click();
      const spots = p.page.locator('[data-testid=seat][data-empty=true] [data-testid=sit-here]');
      await until('Cat, watching: 7 "Sit here" spots', async () => (await spots.count()) === 7, 10000);
      // Watching, Cat reads the chat but has no box to write in; Dan (seated) writes to her.
      await until('Cat, watching: the chat shown, read only', async () =>
        (await p.page.locator('[data-testid=chat]').isVisible()) && !(await p.page.locator('[data-testid=chat-form]').isVisible())
        && (await p.page.locator('[data-testid=chat-note]').isVisible()), 5000);
      const danPage = people[0].page;
      await danPage.locator('[data-testid=chat-input]').fill('hi Cat, take a seat');
      await danPage.locator('[data-testid=chat-send]').click();
      await until('Cat, watching: Dan\'s chat line', async () =>
        (await p.page.locator('[data-testid=chat-text]').allTextContents()).includes('hi Cat, take a seat'), 8000);
      log('Cat, watching: reads Dan\'s chat line, has no chat box');
      const seat = await spots.nth(2).evaluate((b) => b.closest('[data-testid=seat]').getAttribute('data-seat'));
      // The buy-in box says dollars ($10 is the table's least, 1000 cents); "Sit here" takes it.
      const box = p.page.locator('[data-testid=table-buy-in]');
      check((await box.inputValue()) === '10', `Cat: the table's buy-in box says ${JSON.stringify(await box.inputValue())}, expected 10 (dollars) for a 1000-cent minimum`);
      await box.fill('25');
      await spots.nth(2).click();
      await until(`Cat: seated at seat ${seat} from its "Sit here" spot`, async () => (await p.page.locator(`[data-testid=seat][data-me=true][data-seat="${seat}"]`).count()) === 1, 10000);
      const stack = p.page.locator('[data-testid=seat][data-me=true] [data-testid=seat-stack]');
      await until('Cat: seated with the $25 typed (2500 cents)', async () => Number(await stack.getAttribute('data-amount')) + Number(await stack.getAttribute('data-committed')) === 2500, 5000);
    }
    await until(`${name}: seated at the fast table`, async () => (await p.page.locator('[data-testid=seat][data-me=true]').count()) === 1, 10000);
  }
  const [dan, cat] = people;
  // The clock on the seat to act, seen by both; in the bank's colour on the actor's own page.
  await until('the fast table: a [data-testid=seat-timer] on both pages', async () =>
    (await cat.page.locator('[data-testid=seat-timer]').count()) === 1 && (await dan.page.locator('[data-testid=seat-timer]').count()) === 1, 15000, 50);
  // The clock reads the same on both pages (issue 31): the actor's and the other's clock both
  // say the action time and the same bank ("2s + time bank 2s"), then both "time bank 1s";
  // in the bank the actor's seat shows its "time bank" tag and the bank's colour on both pages.
  const clockSeen = { split: null, bank: null };
  await until('the fast table: the same clock on both pages, the action time and then the time bank (on the actor\'s seat too)', async () => {
    const views = await Promise.all(people.map((p) => p.page.evaluate(() => {
      const clock = document.querySelector('[data-testid=clock]');
      const seat = clock?.dataset.seat;
      const actor = seat ? document.querySelector(`[data-testid=seat][data-seat="${seat}"]`) : null;
      const tag = actor?.querySelector('[data-testid=seat-time-bank]');
      return {
        text: clock?.textContent ?? '', phase: clock?.dataset.phase ?? null, seat: seat ?? null, mine: actor?.dataset.me === 'true',
        timer: actor?.querySelector('[data-testid=seat-timer]')?.dataset.phase ?? null,
        tag: tag && tag.checkVisibility() ? tag.textContent : null,
      };
    })));
    const [x, y] = views;
    if (!x.seat || x.seat !== y.seat || x.phase !== y.phase || x.mine === y.mine) return false;
    const split = views.map((v) => /^(\d+)s \+ time bank (\d+)s$/.exec(v.text));
    if (x.phase === 'action' && split.every(Boolean) && split[0][2] === split[1][2] && Math.abs(split[0][1] - split[1][1]) <= 1) clockSeen.split ??= views;
    const bank = views.map((v) => /^time bank (\d+)s$/.exec(v.text));
    if (x.phase === 'bank' && bank.every(Boolean) && Math.abs(bank[0][1] - bank[1][1]) <= 1 && views.every((v) => v.timer === 'bank' && v.tag === 'time bank')) clockSeen.bank ??= views;
    return clockSeen.split && clockSeen.bank;
  }, 15000, 30);
  log(`the fast table: both pages read the clock alike: ${clockSeen.split.map((v) => `"${v.text}"`).join(' and ')}, then ${clockSeen.bank.map((v) => `"${v.text}" (${v.mine ? 'the actor' : 'the other'}: the seat says "${v.tag}")`).join(' and ')}`);
  // Someone is sat out by the clock: the notice, then "I'm back".
  let out = null;
  await until('the fast table: a [data-testid=sat-out-notice] after a timeout fold', async () => {
    for (const p of people) if (await p.page.locator('[data-testid=sat-out-notice]').isVisible()) out = p;
    return out !== null;
  }, 30000, 100);
  const noticeBox = out.page.locator('[data-testid=sat-out-notice]');
  check((await noticeBox.getAttribute('data-reason')) === 'timeout', `${out.name}: the sat-out notice's data-reason is ${await noticeBox.getAttribute('data-reason')}, expected "timeout"`);
  check(/time ran out/i.test(await noticeBox.textContent()), `${out.name}: the sat-out notice says ${JSON.stringify(await noticeBox.textContent())}`);
  await out.shot('sat-out', 'sat-out.png', { fullPage: false });
  await out.page.locator('[data-testid=im-back]').click();
  const mySeat = out.page.locator('[data-testid=seat][data-me=true]');
  await until(`${out.name}: the notice gone and the seat in again after "I'm back"`, async () =>
    !(await noticeBox.isVisible()) && (await mySeat.getAttribute('data-sitting-out')) !== 'true', 10000);
  log(`${out.name}: sat out by the clock; the notice and "I'm back" work`);
  // The sit-out key (O): out (the notice says it was asked for), and O again: in.
  await out.page.locator('[data-testid=log]').focus();
  await out.page.keyboard.press('o');
  await until(`${out.name}: sat out by the O key`, async () => (await mySeat.getAttribute('data-sitting-out')) === 'true' && (await noticeBox.isVisible()), 10000);
  await out.page.keyboard.press('o');
  await until(`${out.name}: in again by the O key`, async () => (await mySeat.getAttribute('data-sitting-out')) !== 'true' && !(await noticeBox.isVisible()), 10000);
  log(`${out.name}: the O key sat out and in again`);

  // The operator turns the chat off and the money display to chips (PATCH, from the next hand).
  const patch = await fetch(`http://${addr}/api/admin/tables/${body.id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_KEY}` },
    body: JSON.stringify({ chat: false, display: 'chips' }),
  });
  const patched = await patch.json();
  check(patch.ok && patched.settings.chat === false && patched.settings.display === 'chips', `PATCH chat/display: ${patch.status} ${JSON.stringify(patched.settings)}`);
  for (const p of people) {
    await until(`${p.name}: no chat and stacks in chips after the operator's change`, async () => {
      const stack = (await p.page.locator('[data-testid=seat][data-me=true] [data-testid=seat-stack]').textContent()).trim();
      return !(await p.page.locator('[data-testid=chat]').isVisible()) && /^\d{1,3}(,\d{3})*$/.test(stack);
    }, 30000);
    // The buy-in box follows: chips now (Dan's $10 is 1000 chips, Cat's $25 2500).
    const want = p.name === 'Dan' ? '1000' : '2500';
    await eventually(`${p.name}: the buy-in box in chips`, async () => check((await p.page.locator('[data-testid=table-buy-in]').inputValue()) === want, `[data-testid=table-buy-in] says ${JSON.stringify(await p.page.locator('[data-testid=table-buy-in]').inputValue())} at a chip table, expected ${want}`));
  }
  log('fast table: the operator turned the chat off and the display to chips; both pages follow');

  // The session lasts: a reload, then a new tab, continue as Dan in his seat.
  const seat = await dan.page.locator('[data-testid=seat][data-me=true]').getAttribute('data-seat');
  await dan.page.reload();
  for (const [what, page] of [['after a reload', dan.page], ['in a new tab', await dan.context.newPage()]]) {
    if (page !== dan.page) {
      page.on('pageerror', (e) => dan.errors.push(`uncaught exception (new tab): ${e.message}`));
      await page.goto(`http://${addr}/`);
    }
    await until(`Dan ${what}: the same player, back in seat ${seat}`, async () =>
      (await page.locator('[data-testid=who]').textContent()) === 'Dan'
      && (await page.locator(`[data-testid=seat][data-me=true][data-seat="${seat}"]`).count()) === 1, 15000);
    if (page !== dan.page) {
      // Log out ends the session on the server: DELETE /api/sessions/{id} with the token (a
      // server without that route answers 404/405 and the page forgets the token anyway).
      const token = await page.evaluate(() => localStorage.getItem('stud.token'));
      const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && /\/api\/sessions\/[0-9a-f-]{36}$/.test(r.url()), { timeout: 10000 });
      await page.locator('[data-testid=logout]').click();
      const res = await deleted;
      const auth = await res.request().headerValue('authorization');
      check(auth === `Bearer ${token}`, `log out: the DELETE went with ${JSON.stringify(auth)}, not the session's token`);
      check([204, 404, 405].includes(res.status()), `log out: DELETE ${res.url()} answered ${res.status()}`);
      if (res.status() === 204) {
        const after = await fetch(`http://${addr}${new URL(res.url()).pathname}/ledger`, { headers: { authorization: `Bearer ${token}` } });
        check(after.status === 401, `the token still works after log out (GET .../ledger: ${after.status})`);
        log('log out: DELETE /api/sessions/{id} 204, the token no longer works');
      } else {
        log(`log out: DELETE /api/sessions/{id} answered ${res.status()} (no such route on this server yet); the page forgot the token`);
      }
      await until('Dan: the name field again after log out', async () => page.locator('[data-testid=name]').isVisible(), 5000);
      check((await page.evaluate(() => localStorage.getItem('stud.token'))) === null, 'the token is still in localStorage after log out');
      await page.close();
    }
  }
  log('Dan: a reload and a new tab continued the session; log out ended it');
  for (const p of people) {
    PLAYERS.splice(PLAYERS.indexOf(p), 1);
    check(p.errors.length === 0, `${p.name}: console errors: ${p.errors.join('; ')}`);
    await p.context.close();
  }
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  // The page's Node tests first (Node's test runner): the pure parts (unit.test.mjs), the
  // transport with a fake socket (net.test.mjs) and the modules' layers (layers.test.mjs).
  // CI runs only this file, so every one of them is run from here.
  for (const file of ['unit.test.mjs', 'net.test.mjs', 'layers.test.mjs', 'admin-unit.test.mjs']) {
    const run = spawnSync(process.execPath, ['--test', path.join(HERE, file)], { encoding: 'utf8' });
    check(run.status === 0, `${file} failed:\n${run.stdout}\n${run.stderr}`);
    log(`${file}: ${(/# pass (\d+)/.exec(run.stdout) || [])[1] ?? '?'} tests pass`);
  }
  check(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  const addr = await startServer(tmp, { STUD_HAND_PAUSE_MS: '800', STUD_OPERATOR_KEY: OPERATOR_KEY });
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
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true, reducedMotion: name === 'Bob' ? 'reduce' : 'no-preference' });
      await context.addInitScript(LIVE_WATCH); // the live regions' writes, checked after play
      players.push(new Player(name, context, await context.newPage()));
      players.at(-1).reducedMotion = name === 'Bob';
    }
    const [a, b] = players;

    // Lobby, then both sit at the Stud table. Bob goes through the relay.
    const rowA = await join(a, `http://${addr}/`);
    await lobby(a);
    await sit(a, rowA, () => a.shot('lobby', 'lobby.png'));
    await sit(b, await join(b, `http://${relay.addr}/`));
    const fast = fastTable(browser, addr).catch(abort);

    // Play, with checks at every prompt; screenshots and the layout checks at prompts too.
    for (const p of players) {
      const shoot = async () => {
        const h = p.prompt && p.hands.get(p.prompt.hand_id);
        if (h && p.results.length >= 1) await p.shot('play', `play-${p.name.toLowerCase()}.png`);
        else p.tasks.push(shoot);
      };
      p.tasks.push(shoot);
    }
    const layouts = async () => {
      if (a.prompt.legal.some((x) => x.kind === 'show' || x.kind === 'muck')) return void a.tasks.push(layouts);
      for (const [w, h] of VIEWPORTS) await checkLayout(a, w, h);
      await a.page.setViewportSize({ width: 1280, height: 800 });
      await checkAxe(a, 'at the table, at a prompt');
      a.layoutsDone = true;
    };
    a.tasks.push(layouts);
    const pre = {};
    preActionTasks(a, b, pre);
    lastHandTasks(a, pre);
    keyboardTasks(a, b, pre);
    const bots = players.map((p, i) => runBot(p, players[1 - i]));
    await until(`${HANDS} complete hands on both pages (now ${a.results.length} and ${b.results.length}), the layouts, the pre-action boxes, LAST HAND and the focus during play checked`, () => a.results.length >= HANDS && b.results.length >= HANDS && a.shots.play && b.shots.play && a.layoutsDone && pre.callAny && pre.check && pre.raise && pre.lastHand && pre.bar && pre.typing && b.keyFocused?.length === 2, 240000, 200);
    log(`${a.results.length} hands complete; ${a.clicks} + ${b.clicks} actions clicked`);
    // Screen readers hear only news: no live region written again with the same words.
    for (const p of players) {
      const writes = await checkLiveRegions(p, `in ${p.results.length} hands`);
      log(`${p.name}: live regions written only with news in ${p.results.length} hands: ${Object.entries(writes).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    }

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
    if (run.aborted) throw run.aborted;
    for (const p of players) {
      const lines = [...p.logSeen];
      check(lines.length > 0, `${p.name}: [data-testid=log] never had a line`);
      check(lines.some((l) => /^(Ann|Bob) wins \$[\d,]+(\.\d\d)?\b/.test(l)), `${p.name}: no [data-testid=log-line] ever said who wins (e.g. "Ann wins $3.60 with ..."); lines seen: ${JSON.stringify(lines.slice(-8))}`);
    }
    for (const p of players) {
      const rc = p.resultChecks;
      check(rc.length > 0, `${p.name}: the result strip was never looked at`);
      const bad = rc.filter((r) => !(r.upMs >= 3990) || !/ wins \$/.test(r.text));
      check(bad.length === 0, `${p.name}: the result strip was up less than 4 s after a hand ended: ${JSON.stringify(bad)}`);
      check(rc.some((r) => r.started), `${p.name}: no result strip was seen into the next hand`);
    }
    log(`result strip up at least 4 s after each hand: ${a.resultChecks.length} + ${b.resultChecks.length} checks; ${b.name} played ${b.keys ?? 0} action(s) by keyboard`);
    // The server's pause after a showdown (4 s by default; STUD_HAND_PAUSE_MS=800 is only the
    // pause after a hand won without one): the next hand's antes come no sooner. Checked on the
    // server's own clock (the stored hands' ended_at_ms and the next hand's started_at_ms):
    // two frames' arrival in this process, on a busy machine, can be closer than the server
    // sent them (3.67 s was seen once for a 4 s pause), so those are only logged.
    for (const p of players) check(p.pauses.length > 0, `${p.name}: no hand started after a showdown`);
    const showdowns = new Set(players.flatMap((p) => p.showdownHands));
    const tableIds = new Set(players.flatMap((p) => [...showdowns].map((id) => p.handTables.get(id))).filter(Boolean));
    let measured = 0;
    for (const tableId of tableIds) {
      const res = await fetch(`http://${addr}/api/hands?table=${tableId}&limit=50`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } });
      check(res.ok, `GET /api/hands for table ${tableId}: ${res.status}`);
      const stored = (await res.json()).hands;
      const byNumber = new Map(stored.map((hd) => [hd.number, hd]));
      for (const hd of stored.filter((x) => showdowns.has(x.hand_id))) {
        const next = byNumber.get(hd.number + 1);
        if (!next) continue;
        const gap = next.started_at_ms - hd.ended_at_ms;
        check(gap >= 4000, `hand #${next.number} started ${gap} ms after hand #${hd.number}'s showdown (server clock; at least 4 s expected)`);
        measured += 1;
      }
    }
    check(measured > 0, 'no stored showdown hand was followed by a stored hand');
    log(`showdown pauses on the server's clock: ${measured} checked, each at least 4 s`);
    log(`showdown pauses seen: ${a.pauses.map((x) => (x / 1000).toFixed(1)).join(', ')} s`);
    check((b.keys ?? 0) > 0, `${b.name} never played by keyboard`);
    await chat(a, b);
    await lastHand(a);
    await languages(a);
    await preferences(a);
    await fast;
    if (run.aborted) throw run.aborted;
    await viewportShowdowns(browser, addr);
    if (run.aborted) throw run.aborted;

    for (const p of players) {
      if (p.ignored.length) log(`${p.name}: ${p.ignored.length} network error(s) in the console while deliberately offline, ignored: ${JSON.stringify(p.ignored)}`);
    }
    checkConsole();
    log(`${frames.checked} WebSocket frames matched proto/schema.json`);
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

await runTest('browser end-to-end test', main, { overallMs: OVERALL_MS, tmp });
