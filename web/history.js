// LAST HAND: the list, one hand's report and its replayer, the downloads.

import { $, awardCardsElement, cardElement, el, markCard, notice } from './dom.js';
import { money, signedMoney, variantName } from './format.js';
import { LOCALES, language, t } from './i18n.js';
import { awardLine, cardPart, declarationTag, describeEvent, namer, replayState, replaySteps, seatDeclaration, seatHandName, seatPlayed, streetName } from './model.js';
import { send } from './net.js';
import { state } from './state.js';

// ---- LAST HAND and the replayer ------------------------------------------------------------

/** LAST HAND is a panel, not a modal: the table, its action bar and the keys stay live. */
export const lastHandsOpen = () => !$('last-hand').hidden;

export function openLastHands() {
  $('last-hand-list').replaceChildren(el('p', { class: 'muted', text: t('loading') }));
  $('last-hand-report').hidden = true;
  state.report = null;
  state.historyWait = null;
  $('last-hand').hidden = false;
  $('last-hand-close').focus();
  askHistory({ type: 'last_hands' });
}

/** Closes the panel (Escape, its Close button); the focus goes back to the button that opened
 *  it. False when it was not open. */
export function closeLastHands() {
  if (!lastHandsOpen()) return false;
  const inside = $('last-hand').contains(document.activeElement);
  $('last-hand').hidden = true;
  state.report = null;
  if (inside) $('last-hand-open').focus();
  return true;
}

export const toggleLastHands = () => (lastHandsOpen() ? closeLastHands() : openLastHands());

/** A hand ended while the panel is open: the list again, until it holds that hand (the server
 *  stores a hand a moment after its result, so the first answer may not have it yet). */
export function refreshLastHands(handId) {
  if (!lastHandsOpen()) return;
  state.historyWait = { handId, tries: 0 };
  askHistory({ type: 'last_hands' });
}

/** LAST HAND requests read the database: `unavailable` (the store is behind) is retried. */
export function askHistory(msg, tries = 0) {
  if (!send({ ...msg }, { kind: 'history', msg, tries })) showReportMessage(t('reconnect_try'));
}

export function onHistoryError(m, req) {
  if (m.code === 'unavailable' && req.tries < 3) {
    setTimeout(() => askHistory(req.msg, req.tries + 1), 1000);
  } else if (req.msg.type === 'last_hands') {
    $('last-hand-list').replaceChildren(el('p', { class: 'muted', text: m.message }));
  } else {
    showReportMessage(m.message);
  }
}

export function onLastHands(m) {
  state.lastHands = m.hands;
  const wait = state.historyWait;
  if (wait && !m.hands.some((h) => h.hand_id === wait.handId) && wait.tries < 6) {
    wait.tries += 1;
    setTimeout(() => { if (state.historyWait === wait && lastHandsOpen()) askHistory({ type: 'last_hands' }); }, 500);
  } else {
    state.historyWait = null;
  }
  renderLastHands();
}

export function renderLastHands() {
  const selected = state.report?.summary.hand_id;
  const rows = state.lastHands.map((h) => el('button', {
    'data-testid': 'last-hand-row', 'data-hand-id': h.hand_id, type: 'button', class: `hand-row${h.hand_id === selected ? ' selected' : ''}`,
    onclick: () => openHand(h.hand_id),
  }, t('hand_row', { number: h.number, variant: variantName(h.variant), seat: state.me?.name ?? t('seat_n', { n: h.seat }) }),
  el('span', { class: h.net >= 0 ? 'net up' : 'net down', 'data-amount': h.net, text: signedMoney(h.net, 'cash') }),
  ` · ${new Date(h.ended_at_ms).toLocaleTimeString(LOCALES[language()])}`));
  // Drawn again (a new hand came): the focus stays on the row it was on.
  const focused = $('last-hand-list').contains(document.activeElement) ? document.activeElement.dataset.handId : null;
  $('last-hand-list').replaceChildren(...(rows.length ? rows : [el('p', { class: 'muted', text: t('no_hands') })]));
  if (focused) rows.find((row) => row.dataset.handId === focused)?.focus();
}

export function openHand(handId) {
  for (const row of $('last-hand-list').children) row.classList.toggle('selected', row.dataset.handId === handId);
  showReportMessage(t('loading'));
  askHistory({ type: 'last_hand', hand_id: handId });
}

export function showReportMessage(text) {
  const box = $('last-hand-report');
  box.hidden = false;
  box.replaceChildren(el('p', { class: 'muted', text }));
}

/** The names in a report: the server's (`names`: who played each seat, as they were named in
 *  the hand), else "Seat 3". */
export const reportNamer = (report) => namer(Object.fromEntries((report.names ?? []).map((x) => [x.seat, x.name])));

export function onLastHand(m) {
  const steps = replaySteps(m.report.events);
  state.report = { ...m.report, steps, step: steps.length - 1 };
  renderReport();
}

/** A seat's cards in LAST HAND (the report and the replayer): a shown hand's five marked as
 *  the table marks them (model.js seatPlayed, dom.js markCard). */
const seatCards = (view, s) => {
  const played = seatPlayed(view, s);
  return el('div', { class: 'cards' }, s.cards.map((c) => markCard(cardElement(c), cardPart(played, c.card), view.variant)));
};

/** The full report: every seat's cards (every card live at showdown face up; a shown hand's
 *  five marked), the actions and the awards (each with the five it was won with, as the
 *  table's result strip shows them), the downloads, and the replayer stepping through it
 *  street by street. */
export function renderReport() {
  const r = state.report;
  if (!r) return;
  const { summary, view, events } = r;
  const who = reportNamer(r);
  const ctx = { deals: [], variant: view.variant };
  const lines = events.flatMap((ev) => describeEvent(ev, ctx, who));
  const declarations = Object.fromEntries(view.seats.map((s) => [s.seat, s.declaration ?? null]));
  const awards = events.filter((ev) => ev.event === 'award').map((a) => {
    const cards = awardCardsElement(view, a);
    return el('li', { 'data-testid': 'last-hand-award', 'data-seat': a.seat, 'data-half': a.half ?? null },
      el('span', { 'data-testid': 'last-hand-award-text', text: awardLine(a, who, declarations[a.seat])() }), cards ? ' ' : null, cards);
  });
  const seats = view.seats.map((s) => el('div', { 'data-testid': 'last-hand-seat', 'data-seat': s.seat, class: 'report-seat' },
    el('div', { class: 'report-seat-head' },
      el('strong', { 'data-testid': 'last-hand-name', text: `${who(s.seat)}${s.seat === summary.seat ? ` (${t('you')})` : ''}` }),
      s.folded ? el('span', { class: 'tag', text: t('folded') }) : null,
      s.mucked ? el('span', { class: 'tag', text: t('mucked') }) : null,
      seatDeclaration(s) ? el('span', { class: 'tag declared', text: declarationTag(seatDeclaration(s)) }) : null,
      s.hand ? el('span', { class: 'hand-name', 'data-testid': 'last-hand-hand', text: seatHandName(view.variant, s) }) : null,
      s.won ? el('span', { class: 'won', text: t('wins', { amount: money(s.won, 'cash') }) }) : null),
    seatCards(view, s)));
  $('last-hand-report').replaceChildren(...[
    el('h3', { text: t('hand_title', { number: summary.number, variant: variantName(summary.variant), when: new Date(summary.ended_at_ms).toLocaleString(LOCALES[language()]) }) }),
    el('p', { class: 'muted', text: t('your_net', { net: signedMoney(summary.net, 'cash'), commitment: r.commitment ?? '—' }) }),
    el('div', { class: 'report-seats' }, seats),
    view.community ? el('div', { class: 'report-community' }, `${t('community_card')} `, cardElement({ card: view.community, up: true })) : null,
    el('h4', { text: t('awards') }),
    el('ul', { class: 'awards', 'data-testid': 'last-hand-awards' }, awards),
    replayer(r, who),
    el('h4', { text: t('action_h') }),
    el('ol', { class: 'report-log', 'data-testid': 'last-hand-log' }, lines.map((line) => el('li', { text: line() }))),
    el('div', { class: 'downloads' },
      el('button', { 'data-testid': 'download-phh', type: 'button', text: t('download_phh'), onclick: () => download(summary, 'phh') }),
      el('button', { 'data-testid': 'download-text', type: 'button', text: t('download_text'), onclick: () => download(summary, 'text') })),
  ].filter(Boolean));
  $('last-hand-report').hidden = false;
}

/** The replayer: the table as it stood at the end of one street, with the names, the pot, the
 *  cards as they were and that street's lines; buttons step street by street. */
export function replayer(r, who) {
  const step = r.steps[r.step];
  const { view, events, pot } = replayState(r.events, step.end, r.summary.variant, r.pots);
  const ctx = { deals: [], variant: view.variant };
  const before = r.step > 0 ? r.steps[r.step - 1].end : 0;
  const lines = events.flatMap((ev, i) => describeEvent(ev, ctx, who).map((fn) => ({ fn, i }))).filter((x) => x.i >= before).map((x) => x.fn);
  const label = step.label.startsWith('step_') ? t(step.label) : streetName(step.label);
  const go = (i) => () => {
    // Focus stays on the button that moved the same way (compared with the step it left), so
    // Enter held on "Next street" keeps stepping forward.
    const from = r.step;
    r.step = Math.max(0, Math.min(r.steps.length - 1, i));
    const node = $('replayer');
    node.replaceWith(replayer(r, who));
    $('replayer').querySelector(`[data-testid=${r.step > from ? 'replay-next' : 'replay-prev'}]`)?.focus();
  };
  const button = (testid, text, i, disabled) => el('button', { type: 'button', 'data-testid': testid, text, onclick: go(i), disabled: disabled || null });
  return el('section', { id: 'replayer', class: 'replayer', 'data-testid': 'replayer', 'data-step': r.step, 'aria-label': t('replay') },
    el('h4', { text: t('replay') }),
    el('div', { class: 'replay-controls' },
      button('replay-first', t('replay_first'), 0, r.step === 0),
      button('replay-prev', t('replay_prev'), r.step - 1, r.step === 0),
      el('span', { class: 'replay-step', 'data-testid': 'replay-step', 'data-label': step.label, 'aria-live': 'polite', text: `${label} · ${t('step_of', { i: r.step + 1, n: r.steps.length })}` }),
      button('replay-next', t('replay_next'), r.step + 1, r.step === r.steps.length - 1),
      button('replay-last', t('replay_last'), r.steps.length - 1, r.step === r.steps.length - 1)),
    el('div', { class: 'replay-pot', 'data-testid': 'replay-pot', 'data-amount': pot, text: `${t('pot')} ${money(pot, 'cash')}` }),
    el('div', { class: 'replay-seats' }, view.seats.map((s) => el('div', { class: 'replay-seat', 'data-testid': 'replay-seat', 'data-seat': s.seat, 'data-folded': s.folded },
      el('div', { class: 'report-seat-head' },
        el('strong', { 'data-testid': 'replay-name', text: who(s.seat) }),
        el('span', { class: 'stack', text: money(s.stack, 'cash') }),
        s.bet ? el('span', { class: 'bet', text: money(s.bet, 'cash') }) : null,
        s.folded ? el('span', { class: 'tag', text: t('folded') }) : null,
        seatDeclaration(s) ? el('span', { class: 'tag declared', text: declarationTag(seatDeclaration(s)) }) : null,
        s.shown && s.hand ? el('span', { class: 'hand-name', 'data-testid': 'replay-hand', text: seatHandName(view.variant, s) }) : null,
        s.won ? el('span', { class: 'won', text: t('wins', { amount: money(s.won, 'cash') }) }) : null),
      seatCards(view, s)))),
    el('ol', { class: 'report-log', 'data-testid': 'replay-log' }, lines.map((fn) => el('li', { text: fn() }))));
}

/** Fetches a hand history with the token, then saves it through a blob URL. */
export async function download(summary, format) {
  let res;
  try {
    res = await fetch(`/api/hands/${summary.hand_id}?format=${format}`, { headers: { Authorization: `Bearer ${state.token}` } });
  } catch {
    return notice(t('unreachable'));
  }
  if (!res.ok) return notice(t('download_failed', { status: res.status }));
  const url = URL.createObjectURL(await res.blob());
  const link = el('a', { href: url, download: `hand-${summary.number}-${summary.hand_id.slice(0, 8)}.${format === 'phh' ? 'phh' : 'txt'}` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
