// Acting: the action buttons, pre-action boxes, the keyboard, the your-turn alert.

import { $, el, isTyping, notice, playSound, setText } from './dom.js';
import { declarationName, isBigBet, money } from './format.js';
import { errorText, language, t } from './i18n.js';
import { BET_PRESETS, KEYS, LARGER_KEY, SHORTCUT, clampTo, handPot, keyName, keyedAction, preActionOffer, preRaiseLabel, presetTo, shortcutFor, sizeError } from './model.js';
import { send } from './net.js';
import { state, turnPending } from './state.js';

// ---- acting --------------------------------------------------------------------------------

export function actionLabel(a) {
  const tb = state.table;
  switch (a.kind) {
    // The amounts of bring-in and call are the server's (`bring_in_amount`, `to_call`).
    case 'bring_in': return t('act_bring_in', { amount: money(state.prompt?.bringIn ?? tb.info.config.bring_in) });
    case 'complete': return t('act_complete', { amount: money(a.to) });
    case 'bet': return t(bigBetOption(a) ? 'act_bet_big' : 'act_bet', { amount: money(a.to) });
    case 'raise': return t('act_raise', { amount: money(a.to) });
    case 'call': return state.prompt?.toCall != null ? t('act_call', { amount: money(state.prompt.toCall) }) : t('act_call_plain');
    case 'declare': return t(`act_declare_${a.declaration}`);
    default: return t(`act_${a.kind}`);
  }
}

/** Our turn in words, for the screen reader (the table's turn line says it): the amount to call
 *  and the legal actions ("$2 to call; you may Fold, Call $2, Raise to $4"); a ranged wager
 *  with its top ("Raise to $2.40 (up to $5.60)"). Empty when it is not our turn. */
export function promptAnnouncement() {
  const p = state.prompt;
  if (!p || p.sent || !state.table?.info) return '';
  const ranged = new Map((p.wagers ?? []).map((w) => [w.kind, w]));
  const said = new Set();
  const actions = [];
  for (const a of p.legal) {
    const w = ranged.get(a.kind);
    if (!w) actions.push(actionLabel(a));
    else if (!said.has(a.kind)) actions.push(t('turn_range', { action: actionLabel({ kind: a.kind, to: w.min_to }), max: money(w.max_to) }));
    said.add(a.kind);
  }
  const parts = p.toCall ? [t('turn_to_call', { amount: money(p.toCall) })] : [];
  parts.push(t('turn_options', { actions: actions.join(', ') }));
  return parts.join('; ');
}

/** On 4th street with an open pair, two bets are legal: the small one and the big one. */
export function bigBetOption(a) {
  // Big-bet tables have no open-pair bet: their two bets are the ends of one range.
  if (state.prompt?.wagers || isBigBet(state.table?.info?.config)) return false;
  const bets = state.prompt?.legal.filter((x) => x.kind === 'bet') ?? [];
  return bets.length > 1 && a.to === Math.max(...bets.map((x) => x.to));
}

/** Exactly the legal actions, as buttons; empty when it is not our turn (or we just acted). */
export function renderActions() {
  const box = $('actions');
  const p = state.prompt;
  // The "Your turn" marks in the panels (LAST HAND, the tournament): the bar is live under them.
  for (const mark of document.querySelectorAll('[data-turn-mark]')) mark.hidden = !(p && !p.sent);
  // The buttons are about to go: a focus on one of them stays in the bar (never on <body>).
  const focused = box.contains(document.activeElement) && document.activeElement !== box;
  const keep = () => { if (focused && !box.contains(document.activeElement)) focusActions(); };
  if (!p || p.sent) {
    box.replaceChildren();
    keep();
    stopTitleFlash();
    renderPreActions();
    return;
  }
  // A ranged wager (big-bet tables: `wagers`) is one button and its size control in place of
  // the two end buttons `legal` lists for it; every other action is a button as it is.
  const wagers = p.wagers ?? [];
  for (const key of chosen.keys()) if (!key.startsWith(`${p.handId}:${p.seq}:`)) chosen.delete(key); // earlier prompts' sizes
  const ranged = new Set(wagers.map((w) => w.kind));
  // The declaration (the declare game): its three choices as one group of buttons.
  const declarations = p.legal.filter((a) => a.kind === 'declare');
  const parts = p.legal.filter((a) => !ranged.has(a.kind) && a.kind !== 'declare').map((a) => el('button', {
    'data-testid': 'action', 'data-action': a.kind, 'data-amount': a.to, type: 'button',
    class: `action action-${a.kind}`, onclick: () => act(a), 'aria-keyshortcuts': shortcutFor(a, p.legal),
  }, actionLabel(a), el('kbd', { text: shortcutFor(a, p.legal), 'aria-hidden': 'true' })));
  box.replaceChildren(...parts, ...(declarations.length ? [declareControl(declarations)] : []), ...wagers.map((w) => sizeControl(p, w)));
  keep();
  renderPreActions();
}

/** The focus to the action bar: its group of actions (Tab goes on to the first button; no
 *  button has the focus, so Enter or Space cannot act by accident). */
export function focusActions() {
  $('actions').focus({ preventScroll: true });
}

/** The declaration: High, Low, Both (RULES.md 12.2), each a button that acts with it; they
 *  replace the three `action` buttons the legal list would give (data-testid declare-high, ...). */
export function declareControl(legal) {
  return el('div', { class: 'declare', 'data-testid': 'declare', role: 'group', 'aria-label': t('declare_prompt') },
    legal.map((a) => el('button', {
      type: 'button', 'data-testid': `declare-${a.declaration}`, 'data-action': 'declare', 'data-declaration': a.declaration,
      class: `action action-declare action-declare-${a.declaration}`, onclick: () => act(a), 'aria-keyshortcuts': SHORTCUT[keyName(a)],
      title: t('act_declare_title', { declaration: declarationName(a.declaration) }),
    }, actionLabel(a), el('kbd', { text: SHORTCUT[keyName(a)], 'aria-hidden': 'true' }))));
}

// ---- bet sizing (pot limit, no limit) ------------------------------------------------------

// The size chosen for each wager of the prompt on screen (`handId:seq:kind` → text typed or
// set), so drawing the bar again (a clock tick, a language switch) keeps it.
const chosen = new Map();
const sizeKey = (p, w) => `${p.handId}:${p.seq}:${w.kind}`;

/** What the pot presets count with: every chip in the hand, our call, our chips in this street.
 *  The bring-in's own choice to open for more counts as if the bring-in were called. */
export function potContext(p) {
  const tb = state.table;
  const view = tb?.hand?.view;
  const mine = view?.seats.find((s) => s.seat === tb.info?.your_seat);
  const bringing = p.legal.some((a) => a.kind === 'bring_in');
  const toCall = p.toCall ?? (bringing ? (p.bringIn ?? tb?.info?.config.bring_in ?? 0) : 0);
  return { pot: handPot(view), toCall, streetBet: mine?.bet ?? 0 };
}

/** The typed size of a wager now, or its minimum when nothing was chosen yet. */
export const chosenSize = (p, w) => chosen.get(sizeKey(p, w)) ?? String(w.min_to);

/** One ranged wager: the slider, the typed amount, the presets, the send button and the
 *  message that refuses an amount outside the range (it is not sent). */
export function sizeControl(p, w) {
  const key = sizeKey(p, w);
  const ctx = potContext(p);
  const range = el('input', {
    type: 'range', min: w.min_to, max: w.max_to, step: 1, 'data-testid': 'bet-size-range', 'aria-label': t('bet_slider'),
  });
  const input = el('input', {
    type: 'number', min: w.min_to, max: w.max_to, step: 1, inputmode: 'numeric', 'data-testid': 'bet-size-input', 'aria-label': t('bet_amount'),
  });
  const error = el('div', { class: 'bet-size-error', 'data-testid': 'bet-size-error', role: 'alert', hidden: true });
  const sendButton = el('button', {
    type: 'button', 'data-testid': 'bet-send', 'data-action': w.kind, class: `action action-${w.kind}`, 'aria-keyshortcuts': SHORTCUT[w.kind],
    onclick: () => sendWager(p, w),
  });
  // Everything but the field being typed in follows the size; a bad size disables sending.
  const update = (text, from = null) => {
    chosen.set(key, text);
    const problem = sizeError(text, w.min_to, w.max_to);
    const to = problem ? null : Number(text);
    if (from !== input) input.value = text;
    if (from !== range && to != null) range.value = String(to);
    sendButton.disabled = to == null;
    sendButton.dataset.amount = to == null ? '' : String(to);
    sendButton.replaceChildren(actionLabel({ kind: w.kind, to: to ?? w.min_to }), el('kbd', { text: SHORTCUT[w.kind], 'aria-hidden': 'true' }));
    error.hidden = !problem;
    setText(error, problem ? t('bet_size_range', { min: money(w.min_to), max: money(w.max_to) }) : '');
    input.setAttribute('aria-invalid', problem ? 'true' : 'false');
  };
  range.addEventListener('input', () => update(range.value, range));
  input.addEventListener('input', () => update(input.value, input));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      sendWager(p, w);
    }
  });
  const presets = BET_PRESETS.map((preset) => {
    const to = presetTo(preset, w, ctx);
    // The pot size has its own key (P): it acts at once, as the larger of two sizes.
    const key = preset === 'pot' ? LARGER_KEY : null;
    return el('button', {
      type: 'button', class: 'bet-preset', 'data-testid': 'bet-preset', 'data-preset': preset, 'data-amount': to,
      title: money(to), onclick: () => update(String(to)), 'aria-keyshortcuts': key,
    }, t(`preset_${preset}`), key ? el('kbd', { text: key, 'aria-hidden': 'true' }) : null);
  });
  update(chosenSize(p, w));
  return el('div', { class: 'bet-size', 'data-testid': 'bet-size', 'data-kind': w.kind, 'data-min': w.min_to, 'data-max': w.max_to, role: 'group', 'aria-label': t('bet_size') },
    el('div', { class: 'bet-presets' }, presets),
    el('div', { class: 'bet-inputs' }, range, input, sendButton),
    error);
}

/** Acts with a wager's chosen size, if it is within the range (else nothing is sent). */
export function sendWager(p, w) {
  const text = chosenSize(p, w);
  if (sizeError(text, w.min_to, w.max_to)) return false;
  act({ kind: w.kind, to: clampTo(text, w.min_to, w.max_to) });
  return true;
}

/** The pre-action boxes, while someone else is to act in a hand we are still in: only those
 *  that can still happen (model.js preActionOffer). */
export function renderPreActions() {
  const box = $('pre-actions');
  const tb = state.table;
  const h = tb?.hand;
  const mine = h?.view.seats.find((s) => s.seat === tb.info?.your_seat);
  const show = Boolean(h && mine && !mine.folded && !mine.all_in && h.view.phase === 'betting' && !(state.prompt && !state.prompt.sent));
  const toCall = show ? Math.max(0, Math.min(h.view.current_bet - mine.bet, mine.stack)) : 0;
  const offer = show ? preActionOffer({
    street: h.view.street, bringInGame: (tb.info?.config.bring_in ?? 0) > 0,
    broughtIn: h.view.current_bet > 0 || h.view.seats.some((s) => s.brought_in), toAct: h.toAct, mySeat: tb.info.your_seat, toCall,
  }) : [];
  // The bet / raise box says what it would do now: bet, raise, or complete on 3rd street.
  const raiseLabel = show ? preRaiseLabel({
    street: h.view.street, bringInGame: (tb.info?.config.bring_in ?? 0) > 0, currentBet: h.view.current_bet, smallBet: tb.info?.config.small_bet ?? 0,
  }) : null;
  // A ticked box that can no longer happen is no longer ticked.
  if (show && state.pre && !offer.includes(state.pre.kind)) state.pre = null;
  // Drawn again only when something it shows changed (keeps the keyboard focus on a box).
  const keyOf = () => JSON.stringify([show, offer, toCall, raiseLabel, state.pre?.kind ?? null, state.autoBringIn, language()]);
  const key = keyOf();
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  // A box with the focus that goes or is drawn again: the focus stays on it, else in the bar.
  const focusedPre = box.contains(document.activeElement) ? document.activeElement.dataset.pre ?? '' : null;
  const keep = () => {
    if (focusedPre === null || box.contains(document.activeElement)) return;
    const again = focusedPre && box.querySelector(`input[data-pre="${focusedPre}"]`);
    if (again) again.focus();
    else focusActions();
  };
  box.hidden = !show;
  if (!show) {
    box.replaceChildren();
    return keep();
  }
  const box1 = (kind, label, checked, onchange, amount = null) => el('label', { class: 'pre' },
    el('input', { type: 'checkbox', 'data-testid': 'pre-action', 'data-pre': kind, 'data-amount': amount, checked: checked || null, onchange }), ` ${label}`);
  // A tick updates the boxes in place (one of them at most), not by drawing them again.
  // `amount`: "call this amount" calls only that much (table.js clears it, and check and
  // bet / raise, when the bet moves).
  const pick = (kind) => (e) => {
    state.pre = e.target.checked ? { kind, bet: h.view.current_bet, amount: kind === 'call' ? toCall : null } : null;
    for (const input of box.querySelectorAll('input[data-pre]')) if (input.dataset.pre !== 'bring_in') input.checked = input.dataset.pre === state.pre?.kind;
    box.dataset.key = keyOf();
  };
  const label = (k) => (k === 'call' ? t('pre_call', { amount: money(toCall) }) : k === 'raise' ? t(raiseLabel) : t(`pre_${k}`));
  const parts = offer.filter((k) => k !== 'bring_in').map((k) => box1(k, label(k), state.pre?.kind === k, pick(k), k === 'call' ? toCall : null));
  if (offer.includes('bring_in')) {
    parts.push(box1('bring_in', t('pre_bring_in'), state.autoBringIn, (e) => { state.autoBringIn = e.target.checked; box.dataset.key = keyOf(); }));
  }
  box.setAttribute('aria-label', t('pre_actions'));
  box.replaceChildren(...parts);
  keep();
}

/** Answers the prompt of a table (the one on screen unless `tb` says another: a ticked
 *  pre-action box answers at a table in the background too). */
export function act(action, tb = state.table) {
  const p = tb?.prompt;
  if (!tb || !p || p.sent) return;
  // The key names the intended action: a repeat (after a dropped socket) is not applied twice.
  const msg = { type: 'act', table_id: tb.id, hand_id: p.handId, seq: p.seq, idempotency_key: `${p.handId}:${p.seq}`, action };
  if (!send(msg, { kind: 'act', seq: p.seq, tableId: tb.id })) return notice(t('reconnect_try'));
  p.sent = true;
  if (tb === state.table) renderActions();
}

export function onActError(m, req) {
  const tb = state.tables.get(req.tableId) ?? state.table;
  const p = tb?.prompt;
  if (m.code === 'illegal_action' && p && p.seq === req.seq) {
    p.sent = false; // still our turn: offer the actions again
    if (tb === state.table) renderActions();
  } else if (tb) {
    send({ type: 'snapshot', table_id: tb.id }); // stale or not our turn: catch up
  }
  notice(errorText(m));
}

export function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  // Typing (chat, an amount) is not acting; anywhere else, panels open or not, the keys act.
  if (isTyping(e.target)) return;
  const kinds = KEYS[e.key.toLowerCase()];
  const p = state.prompt;
  if (!kinds || !p || p.sent) return;
  // A ranged wager acts with the size chosen (B sends it, as its button would); P with the pot.
  const wager = kinds.map((k) => p.wagers?.find((w) => w.kind === k)).find(Boolean);
  if (wager) {
    e.preventDefault();
    if (e.key.toUpperCase() === LARGER_KEY) act({ kind: wager.kind, to: presetTo('pot', wager, potContext(p)) });
    else sendWager(p, wager);
    return;
  }
  const action = keyedAction(e.key, p.legal);
  if (action) {
    e.preventDefault();
    act(action);
  }
}

// ---- your turn: a sound and the title ------------------------------------------------------

let titleTimer = null;
/** The page's title: the table on screen, or the turn waiting at another table ("Your turn at
 *  Razz 1 · stud"), so a player at several tables sees it in the browser's tab too. */
export function baseTitle() {
  const elsewhere = [...state.tables.values()].filter((tb) => turnPending(tb) && !onScreen(tb));
  if (elsewhere.length) return `${t('turn_title_at', { table: elsewhere.map((tb) => tb.info?.name ?? '').join(', ') })} · stud`;
  return onScreen(state.table) && state.table.info ? `${state.table.info.name} · stud` : 'stud';
}

/** Whether a table is the one on screen (the table view showing it). */
export const onScreen = (tb) => Boolean(tb) && tb === state.table && typeof document !== 'undefined' && !$('table').hidden;

export function yourTurnAlert() {
  playSound('turn');
  stopTitleFlash();
  // The focus to the action bar, unless the player is typing (chat, an amount): not taken away.
  if (!isTyping(document.activeElement)) focusActions();
  let on = true;
  document.title = t('turn_title');
  document.body.dataset.yourTurn = 'true';
  titleTimer = setInterval(() => {
    on = !on;
    document.title = on ? t('turn_title') : baseTitle();
  }, 1000);
}

/** The title again (a turn elsewhere came or went), unless our turn here is flashing in it. */
export function refreshTitle() {
  if (!titleTimer && typeof document !== 'undefined') document.title = baseTitle();
}

export function stopTitleFlash() {
  clearInterval(titleTimer);
  titleTimer = null;
  if (typeof document !== 'undefined') {
    document.title = baseTitle();
    delete document.body.dataset.yourTurn;
  }
}
