// A tournament on screen: its view (status, level and clock, structure, entrants, tables,
// payouts, results, registering, rebuys and the add-on) and its line at one of its tables
// (level, clock, game, players left, our place once out); the offer box (a rebuy offered
// after a bust, the add-on at the end of the rebuy period) with its clock; and the notice of a
// break with its countdown to the resume; a deal at the final table (the view's form to
// propose one, the deal box with every player's figures, Accept / Decline) and an operator's
// pause ("Paused by the operator" in the view and at the table). It draws the
// details lobby.js fetched into state; registering is the lobby's (the session), passed in by
// app.js (configureTournament); a purchase is sent from here (the session is there already).

import { $, el, notice, now, setText } from './dom.js';
import { boxToAmount, clockText, feeText, limits, money, ordinal, timeOfDay, variantName } from './format.js';
import { dealErrorText, noDealKey, purchaseErrorText, t } from './i18n.js';
import { bountyPlan, breakNow, breakPlan, canProposeDeal, clockNow, clockPause, clockStopped, dealButtons, dealFigure, dealMsLeft, dealNow, dealOpen, dealWaiting, levelClock, levelNow, myEntry, nextGame, offerMsLeft, pausedNow, purchaseButtons, registrationButtons, resultsHaveDeal, standing } from './model.js';
import { send } from './net.js';
import { registeredIn, state, tournamentDetail, tournamentTableOf } from './state.js';

const hooks = {
  register: () => {},   // (id): tournament_register
  unregister: () => {}, // (id): tournament_unregister
  refocus: () => {},    // the offer box went with the focus in it: the focus to the action bar
};

/** app.js's part: registering, which needs a session. */
export function configureTournament(options) {
  Object.assign(hooks, options);
}

/** The current level in words: "Level 2 of 4 · 40/80 · ante 10" (tournament chips). */
function levelText(d) {
  const { n, count, level } = levelNow(d);
  if (!level) return '';
  return `${t('t_level', { n, count })} · ${limits(level, 'chips')} · ${t('t_col_ante')} ${money(level.ante, 'chips')}`;
}

/** The clock to the next level ("next level in 0:42"), or the hands left in a level by hands.
 *  Paused by an operator, it stands at what was left when it stopped ("next level in 0:42
 *  (paused)"; model.js levelClock), and counts on from there once resumed. */
function clockLine(id) {
  const entry = state.tdetails.get(id);
  const d = entry?.detail;
  if (!d || d.status !== 'running') return { text: '', ms: null, paused: false };
  const pause = pauseOf(id);
  const ms = levelClock(entry, pause, now());
  if (ms != null) {
    const text = t('t_next_level_in', { time: clockText(ms) });
    const paused = clockStopped(pause);
    return { text: paused ? t('clock_paused', { clock: text }) : text, ms, paused };
  }
  const { level, last } = levelNow(d);
  if (last) return { text: t('t_last_level'), ms: null, paused: false };
  if (d.hands_to_next_level != null) return { text: t('t_next_level_hands', { n: d.hands_to_next_level }), ms: null, paused: false };
  if (level?.hands) return { text: t('t_level_hands', { n: level.hands }), ms: null, paused: false };
  return { text: '', ms: null, paused: false };
}

function setClock(node, line) {
  node.textContent = line.text;
  if (line.ms == null) delete node.dataset.ms;
  else node.dataset.ms = String(Math.round(line.ms));
  setPausedMark(node, line.paused);
}

/** `data-paused="true"` on a clock while an operator's pause has it stopped; none otherwise. */
function setPausedMark(node, paused) {
  if (paused) node.dataset.paused = 'true';
  else delete node.dataset.paused;
}

/** Every 250 ms: the clocks on screen count down between fetches. */
export function renderTournamentClocks() {
  if (!$('tournament').hidden && state.tview) setClock($('tournament-clock'), clockLine(state.tview));
  const tid = state.table?.tournamentId;
  if (tid && !$('table').hidden) setClock($('tournament-table-clock'), clockLine(tid));
  if (!$('tournament').hidden && state.tview) {
    renderRebuysNow(tournamentDetail(state.tview));
    renderOnBreak(state.tview);
  }
}

/** What the lobby knows of us in a tournament: "Players left: 2 of 3 · Your place: 3rd". */
function playersText(d, id) {
  const s = standing(d, state.me?.player_id);
  const place = state.placed[id]?.place ?? s.place;
  const parts = [t('t_players_left', { left: s.left, total: s.total })];
  if (place) parts.push(t('t_your_place', { place: ordinal(place) }));
  if (d.hand_for_hand && d.status === 'running') parts.push(t('t_hand_for_hand'));
  return { text: parts.join(' · '), left: s.left, total: s.total, place };
}

export function renderTournamentView() {
  const id = state.tview;
  if (!id || $('tournament').hidden) return;
  const d = tournamentDetail(id);
  const x = d ?? state.tournaments.find((y) => y.id === id);
  $('tournament').dataset.tournamentId = id;
  if (!x) return;
  $('tournament-name').textContent = x.name;
  $('tournament-status').textContent = t(`t_status_${x.status}`);
  $('tournament').dataset.status = x.status;
  const fee = $('tournament-fee');
  fee.textContent = feeText(x);
  Object.assign(fee.dataset, { entry: String(x.entry_fee), bounty: String(x.bounty ?? ''), fee: String(x.house_fee) });
  if (!d) return;
  const { n } = levelNow(d);
  const lvl = $('tournament-level');
  setText(lvl, d.status === 'running' ? levelText(d) : '');
  lvl.dataset.level = String(d.status === 'running' ? n : '');
  const next = nextGame(d.variant, d.game);
  const game = $('tournament-game');
  setText(game, d.status === 'running' && d.variant === 'rotation'
    ? `${t('t_game', { game: variantName(d.game) })}${next ? ` · ${t('t_next_game', { game: variantName(next) })}` : ''}`
    : variantName(d.variant));
  game.dataset.game = d.game;
  game.dataset.nextGame = next ?? '';
  const players = playersText(d, id);
  setText($('tournament-players'), d.status === 'registering' ? t('t_entrants', { n: d.entrants.length, max: d.max_entrants }) : players.text);
  $('tournament-pool').textContent = t('t_pool', { pool: money(d.pool, 'cash') });
  $('tournament-pool').dataset.amount = String(d.pool);
  $('tournament-chips').textContent = t('t_starting_chips', { chips: money(d.starting_chips, 'chips') });
  $('tournament-over').hidden = d.status !== 'finished';
  setText($('tournament-over'), d.status === 'finished' ? t('t_over') : '');
  const table = tournamentTableOf(id);
  const me = standing(d, state.me?.player_id).me;
  // As a panel at the table, "My table" is its Close button.
  $('tournament-my-table').hidden = !(table && me?.state === 'playing' && d.status === 'running') || $('tournament').dataset.mode === 'panel';
  // Register / unregister here too, with the row's error.
  const registered = registeredIn(id);
  const buttons = registrationButtons(d, registered);
  const error = state.terrors[id];
  const box = $('tournament-register-box');
  // Its refusal is an alert: drawn again only when something in it changed (not every refresh).
  const key = JSON.stringify([id, buttons.register, buttons.unregister, error?.code ?? null, error?.text ?? null, t('t_register')]);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(...[
      buttons.register ? el('button', { type: 'button', 'data-testid': 'tournament-register', text: t('t_register'), onclick: () => hooks.register(id) }) : null,
      buttons.unregister ? el('button', { type: 'button', 'data-testid': 'tournament-unregister', text: t('t_unregister'), onclick: () => hooks.unregister(id) }) : null,
      error ? el('p', { class: 't-error', 'data-testid': 'tournament-error', 'data-code': error.code, role: 'alert', text: error.text }) : null,
    ].filter(Boolean));
  }
  // A knockout tournament: its bounty line, and the bounty columns of the results and entrants.
  const bounty = renderBounty(d);
  // Results, best place first; the finishing places as they come. A deal made: what it paid
  // each, in a column of its own beside the prize.
  const dealt = resultsHaveDeal(d);
  $('t-col-result-deal').hidden = !dealt;
  $('tournament-results').replaceChildren(...d.results.map((r) => el('tr', {
    'data-testid': 'tournament-result', 'data-place': r.place, 'data-player-id': r.player_id, 'data-prize': r.prize, 'data-deal': dealt ? r.deal ?? 0 : null,
    class: r.player_id === state.me?.player_id ? 'me' : null,
  }, el('td', { class: 'num', text: ordinal(r.place) }), el('td', { text: r.name }), el('td', { class: 'num', text: money(r.prize, 'cash') }),
  dealt ? el('td', { class: 'num', 'data-testid': 'result-deal', 'data-amount': r.deal ?? 0, text: money(r.deal ?? 0, 'cash') }) : null,
  bounty ? el('td', { class: 'num', 'data-testid': 'result-bounties', 'data-amount': r.bounties_won ?? 0, text: money(r.bounties_won ?? 0, 'cash') }) : null)));
  $('tournament-no-results').hidden = d.results.length > 0;
  $('tournament-levels').replaceChildren(...d.levels.map((l, i) => el('tr', {
    'data-testid': 'tournament-level-row', 'data-level': i + 1,
    'aria-current': d.status === 'running' && i + 1 === n ? 'step' : null, class: d.status === 'running' && i + 1 === n ? 'current' : null,
  }, el('td', { class: 'num', text: i + 1 }), el('td', { class: 'num', text: money(l.ante, 'chips') }), el('td', { class: 'num', text: money(l.bring_in, 'chips') }),
  el('td', { class: 'num', text: limits(l, 'chips') }), el('td', { text: l.minutes != null ? t('t_minutes', { n: l.minutes }) : t('t_hands', { n: l.hands }) }))));
  $('tournament-entrants').replaceChildren(...[...d.entrants].sort((a, b) => (a.place ?? 0) - (b.place ?? 0) || b.chips - a.chips).map((e) => el('tr', {
    'data-testid': 'tournament-entrant', 'data-player-id': e.player_id, 'data-state': e.state, 'data-chips': e.chips,
    'data-rebuys': d.rebuys ? e.rebuys ?? 0 : null, 'data-addon': d.rebuys ? String(Boolean(e.addon)) : null,
    class: e.player_id === state.me?.player_id ? 'me' : null,
  }, el('td', {}, e.name, ...buysMark(e)), el('td', { class: 'num', text: e.state === 'out' ? '' : money(e.chips, 'chips') }),
  ...(bounty ? bountyCells(e) : []),
  el('td', { text: whereText(d, e) }),
  el('td', { class: 'num', text: e.place ? ordinal(e.place) : '' }))));
  const names = Object.fromEntries(d.entrants.map((e) => [e.player_id, e.name]));
  $('tournament-tables').replaceChildren(...d.tables.map((tb) => el('tr', { 'data-testid': 'tournament-table', 'data-table': tb.table },
    el('td', { class: 'num', text: tb.table }), el('td', { class: 'wrap', text: tb.players.map((p) => names[p] ?? '?').join(', ') }), el('td', { class: 'num', text: tb.hands }))));
  $('tournament-payouts').replaceChildren(...d.payouts.map((pct, i) => el('tr', { 'data-testid': 'tournament-payout', 'data-place': i + 1, 'data-prize': d.prizes[i] ?? 0 },
    el('td', { class: 'num', text: ordinal(i + 1) }), el('td', { class: 'num', text: `${pct}%` }), el('td', { class: 'num', text: money(d.prizes[i] ?? 0, 'cash') }))));
  renderRebuys(id, d);
  renderPaused($('tournament-paused'), pausedOf(id));
  renderDealView(id, d);
  // The breaks in the structure: "5-minute break every 2 levels".
  const plan = breakPlan(d);
  const breaks = $('tournament-breaks');
  breaks.hidden = !plan;
  breaks.textContent = plan ? t(plan.every === 1 ? 't_breaks_every' : 't_breaks', { minutes: plan.minutes, n: plan.every }) : '';
  renderTournamentClocks();
}

/** A knockout tournament's line ("Progressive knockout: $5 on each head · bounties paid: $2.50")
 *  and its columns' headers, shown only when it has bounties; its plan (model.js bountyPlan). */
function renderBounty(d) {
  const plan = bountyPlan(d);
  const line = $('tournament-bounty');
  line.hidden = !plan;
  for (const id of ['t-col-bounty', 't-col-result-bounties']) $(id).hidden = !plan;
  if (!plan) {
    setText(line, '');
    for (const k of ['bounty', 'progressive', 'paid']) delete line.dataset[k];
    return null;
  }
  const terms = t(plan.progressive ? 't_knockout_progressive' : 't_knockout', { bounty: money(plan.bounty, 'cash') });
  setText(line, `${terms} · ${t('t_bounties_paid', { paid: money(plan.paid, 'cash') })}`);
  Object.assign(line.dataset, { bounty: String(plan.bounty), progressive: String(plan.progressive), paid: String(plan.paid) });
  return plan;
}

/** An entrant's bounty cell, in dollars: the bounty on their head now (while registered or
 *  playing) and under it what they have won ("won $2.50"); one narrow column, so the table
 *  fits a phone's width. */
function bountyCells(e) {
  const head = e.bounty ?? 0;
  const won = e.bounties_won ?? 0;
  const inPlay = e.state === 'registered' || e.state === 'playing';
  return [el('td', { class: 'num t-bounty' },
    el('span', { 'data-testid': 'entrant-bounty', 'data-amount': head, text: inPlay ? money(head, 'cash') : '' }),
    el('span', { 'data-testid': 'entrant-bounties-won', class: 'muted', 'data-amount': won, text: t('t_bounties_won', { amount: money(won, 'cash') }) }))];
}

/** Where an entrant is: their table and seat while it runs, else registered / out / won (out
 *  but offered a rebuy: "out, may rebuy"). */
function whereText(d, e) {
  if (d.status === 'running' && e.table != null) return t('t_at_table', { table: e.table, seat: e.seat });
  if (e.state === 'playing') return '';
  if (e.state === 'out' && e.rebuy_offer_until != null && d.status === 'running') return t('t_state_may_rebuy');
  return t(`t_state_${e.state}`);
}

/** An entrant's rebuys and add-on beside the name ("rebuys: 2 · add-on"), when any. */
function buysMark(e) {
  const parts = [e.rebuys ? t('t_entrant_rebuys', { n: e.rebuys }) : null, e.addon ? t('t_entrant_addon') : null].filter(Boolean);
  return parts.length ? [' ', el('span', { class: 'muted t-buys', text: `(${parts.join(' · ')})` })] : [];
}

// ---- rebuys and the add-on -----------------------------------------------------------------

/** The view's rebuy block (when the tournament sells rebuys): the terms, the counts sold, what
 *  is on sale now, and the viewer's Rebuy / Add-on buttons with a refusal's words. */
function renderRebuys(id, d) {
  const box = $('tournament-rebuys');
  const r = d.rebuys;
  box.hidden = !r;
  if (!r) return;
  Object.assign(box.dataset, {
    rebuys: String(r.rebuys), addons: String(r.addons), rebuyOpen: String(r.rebuy_open), addonUntil: String(r.addon_until ?? ''),
  });
  const terms = [t('t_rebuy_terms', { chips: money(r.rebuy_chips, 'chips'), fee: money(r.rebuy_fee, 'cash'), level: r.rebuy_until_level }),
    r.max_rebuys != null ? t('t_rebuy_max', { n: r.max_rebuys }) : t('t_rebuy_no_max')];
  setText($('tournament-rebuy-terms'), terms.join(', '));
  const addon = $('tournament-addon-terms');
  setText(addon, r.addon_chips != null ? t('t_addon_terms', { chips: money(r.addon_chips, 'chips'), fee: money(r.addon_fee ?? r.rebuy_fee, 'cash') }) : t('t_no_addon'));
  Object.assign(addon.dataset, { chips: String(r.addon_chips ?? ''), fee: String(r.addon_fee ?? '') });
  const sold = $('tournament-rebuys-sold');
  setText(sold, r.addon_chips != null ? t('t_sold', { rebuys: r.rebuys, addons: r.addons }) : t('t_sold_rebuys', { rebuys: r.rebuys }));
  renderRebuysNow(d);
  // The buttons, drawn again only when they change (a refresh keeps the focus); a refusal in
  // its own alert, written only when its words change. The offers' ends as the tournament's
  // clocks read them (they stand while it is paused).
  const buttons = purchaseButtons(d, state.me?.player_id, clockNow(pauseOf(id), Date.now()));
  const error = state.perrors[id];
  const errorBox = $('tournament-purchase-error');
  errorBox.hidden = !error;
  setText(errorBox, error?.text ?? '');
  if (error) errorBox.dataset.code = error.code;
  else delete errorBox.dataset.code;
  const labels = { rebuy: t('t_rebuy_button', { price: money(r.rebuy_fee, 'cash') }), addon: t('t_addon_button', { price: money(r.addon_fee ?? 0, 'cash') }) };
  const key = JSON.stringify([id, buttons.rebuy, buttons.addon, labels]);
  const buy = $('tournament-buy-box');
  if (buy.dataset.key === key) return;
  const focused = buy.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
  buy.dataset.key = key;
  buy.replaceChildren(...['rebuy', 'addon'].filter((kind) => buttons[kind]).map((kind) => el('button', {
    type: 'button', 'data-testid': `tournament-${kind}`, class: 'offer-buy', text: labels[kind], onclick: () => purchase(id, kind, 'view'),
  })));
  // The button that had the focus, if it is still there.
  if (focused) buy.querySelector(`[data-testid=${focused}]`)?.focus();
}

/** What is on sale now: rebuys (to a short stack), the add-on with its time left (standing while
 *  an operator has the tournament paused), or the end of the rebuy period. Redrawn with the
 *  clocks (no live region: it ticks). */
function renderRebuysNow(d) {
  const r = d?.rebuys;
  const line = $('tournament-rebuys-now');
  if (!r) return;
  let text = '';
  if (d.status === 'running') {
    const pause = pauseOf(d.id);
    const addonMs = r.addon_until != null ? offerMsLeft(r.addon_until, clockNow(pause, Date.now())) : 0;
    if (r.rebuy_open) text = t('t_rebuy_open', { chips: money(d.starting_chips, 'chips') });
    else if (addonMs > 0) {
      text = t('t_addon_open', { time: clockText(addonMs) });
      if (clockStopped(pause)) text = t('clock_paused', { clock: text });
    } else text = t('t_rebuy_over');
  }
  setText(line, text);
  line.hidden = !text;
}

/** Buys a rebuy or the add-on (`kind`) in tournament `id`: `tournament_rebuy` /
 *  `tournament_addon`, answered `tournament_purchase` (app.js) or an error (onPurchaseError).
 *  `from`: 'offer' (the offer box) or 'view' (the tournament view's buttons), where a refusal
 *  is shown. */
export function purchase(id, kind, from) {
  delete state.perrors[id];
  const o = state.offer;
  const fromBox = from === 'offer' && o?.tournamentId === id && o.offer === kind;
  if (fromBox) o.error = null;
  const sent = send({ type: kind === 'addon' ? 'tournament_addon' : 'tournament_rebuy', tournament_id: id }, { kind: 'purchase', tournamentId: id, offer: kind, from });
  if (!sent) onPurchaseError({ code: 'offline', message: t('err_p_offline') }, { tournamentId: id, offer: kind, from });
  else if (fromBox) o.busy = true;
  renderOffer();
  renderTournamentView();
}

/** A refused purchase: its words in the offer box (when it came from there and the box is
 *  still that offer's), else in the tournament view. */
export function onPurchaseError(m, req) {
  const error = { code: m.code, text: purchaseErrorText(m) };
  const o = state.offer;
  if (req.from === 'offer' && o?.tournamentId === req.tournamentId && o.offer === req.offer) {
    o.busy = false;
    o.error = error;
    renderOffer();
  } else {
    state.perrors[req.tournamentId] = error;
    renderTournamentView();
  }
}

/** A bought rebuy or add-on (`tournament_purchase`): its offer box goes (if open). */
export function onPurchased(p) {
  delete state.perrors[p.tournament_id];
  if (state.offer?.tournamentId === p.tournament_id && state.offer.offer === p.kind) closeOffer();
  renderTournamentView();
}

// ---- the offer box -------------------------------------------------------------------------

/** `tournament_offer`: the box says what is offered, the chips, the price and the time left,
 *  with Buy and Dismiss. A newer offer takes the place of the one shown. */
export function showOffer(m) {
  if (offerMsLeft(m.until_ms, Date.now()) <= 0) return;
  state.offer = { tournamentId: m.tournament_id, offer: m.offer, chips: m.chips, fee: m.fee, untilMs: m.until_ms, busy: false, error: null };
  renderOffer();
}

/** The offer box goes (Dismiss, bought, lapsed, the tournament is over for us), optionally
 *  only if it is tournament `id`'s. The focus, if it was in the box, goes to the action bar. */
export function closeOffer(id = null) {
  if (!state.offer || (id && state.offer.tournamentId !== id)) return;
  const box = $('tournament-offer');
  const inside = box.contains(document.activeElement);
  state.offer = null;
  renderOffer();
  if (inside) hooks.refocus();
}

/** Draws the offer box from state.offer (hidden when there is none); its words in the page's
 *  language, the live region written only when they change. */
export function renderOffer() {
  const o = state.offer;
  const box = $('tournament-offer');
  box.hidden = !o;
  if (!o) {
    for (const k of ['tournamentId', 'offer', 'chips', 'fee', 'until']) delete box.dataset[k];
    return;
  }
  Object.assign(box.dataset, { tournamentId: o.tournamentId, offer: o.offer, chips: String(o.chips), fee: String(o.fee), until: String(o.untilMs) });
  const name = tournamentDetail(o.tournamentId)?.name ?? state.tournaments.find((x) => x.id === o.tournamentId)?.name ?? t('t_view');
  const price = money(o.fee, 'cash');
  box.setAttribute('aria-label', `${t('offer_region')}: ${t(o.offer === 'addon' ? 'offer_addon_title' : 'offer_rebuy_title')}`);
  setText($('tournament-offer-title'), t(o.offer === 'addon' ? 'offer_addon_title' : 'offer_rebuy_title'));
  setText($('tournament-offer-text'), t(o.offer === 'addon' ? 'offer_addon' : 'offer_rebuy', { name, chips: money(o.chips, 'chips'), price }));
  const buy = $('tournament-offer-buy');
  setText(buy, t('offer_buy', { price }));
  // While the reply is awaited: aria-disabled, not disabled (a disabled button would drop the
  // focus to the page), and a click does nothing.
  buy.setAttribute('aria-disabled', String(Boolean(o.busy)));
  buy.onclick = () => { if (!state.offer?.busy) purchase(o.tournamentId, o.offer, 'offer'); };
  $('tournament-offer-dismiss').onclick = () => closeOffer();
  const error = $('tournament-offer-error');
  error.hidden = !o.error;
  setText(error, o.error?.text ?? '');
  if (o.error) error.dataset.code = o.error.code;
  else delete error.dataset.code;
  renderOfferClock();
}

/** Every 250 ms: the offer's clock counts down; at zero the box goes by itself. */
export function renderOfferClock() {
  const o = state.offer;
  if (!o) return;
  // Paused by an operator: the offer's clock stands (the server's too), counting on from where
  // it stood once resumed.
  if (pausedOf(o.tournamentId)) o.frozenMs ??= offerMsLeft(o.untilMs, Date.now());
  else if (o.frozenMs != null) {
    o.untilMs = Date.now() + o.frozenMs;
    delete o.frozenMs;
  }
  const ms = o.frozenMs ?? offerMsLeft(o.untilMs, Date.now());
  if (ms <= 0) return closeOffer();
  const clock = $('tournament-offer-clock');
  setText(clock, t('offer_ends_in', { time: clockText(ms) }));
  clock.dataset.ms = String(Math.round(ms));
}

/** The socket closed: no reply to a purchase will come; Buy works again. */
export function purchaseDropped() {
  if (state.offer?.busy) {
    state.offer.busy = false;
    renderOffer();
  }
}

/** At a tournament table: the level and its stakes, the clock, a rotation's game and the next
 *  one, players left (and our place once out); the notice with our place and prize. */
export function renderTournamentBar() {
  renderBreak();
  const tb = state.table;
  const id = tb?.tournamentId ?? null;
  $('tournament-bar').hidden = !id;
  const placed = id ? state.placed[id] : null;
  const out = $('tournament-out');
  out.hidden = !placed;
  if (placed) {
    const key = placed.place === 1 ? 't_winner' : placed.prize > 0 ? 't_out_prize' : 't_out_none';
    const paid = dealPaidText(id);
    setText($('tournament-out-text'), `${t(key, { place: ordinal(placed.place), prize: money(placed.prize, 'cash') })}${paid ? ` ${paid}` : ''}`);
    Object.assign(out.dataset, { place: String(placed.place), prize: String(placed.prize) });
  }
  renderDeal();
  renderPaused($('tournament-table-paused'), Boolean(id) && pausedOf(id));
  if (!id) return;
  const d = tournamentDetail(id);
  const lvl = $('tournament-table-level');
  if (!d) return;
  // Propose a deal (the final table): the tournament panel's form.
  $('tournament-table-deal').hidden = !canProposeDeal(d, state.me?.player_id, dealOf(id), Date.now());
  const { n, level } = levelNow(d);
  lvl.textContent = level ? t('t_level_stakes', { n, limits: limits(level, 'chips'), ante: money(level.ante, 'chips') }) : '';
  lvl.dataset.level = String(n);
  // The table's own game (the snapshot's) is the one being played here; the next in turn.
  const current = tb.info?.config.variant ?? d.game;
  const next = nextGame(d.variant, current);
  const game = $('tournament-table-game');
  game.hidden = d.variant !== 'rotation';
  game.textContent = d.variant === 'rotation' ? `${t('t_game', { game: variantName(current) })}${next ? ` · ${t('t_next_game', { game: variantName(next) })}` : ''}` : '';
  game.dataset.game = current;
  game.dataset.nextGame = next ?? '';
  const players = playersText(d, id);
  const box = $('tournament-table-players');
  box.textContent = players.text;
  Object.assign(box.dataset, { left: String(players.left), total: String(players.total), place: String(players.place ?? '') });
  renderTournamentClocks();
}

// ---- breaks --------------------------------------------------------------------------------

/** The break tournament `id` is on now, as far as the page knows (model.js breakNow): the
 *  `tournament_break` frame, the detail's `on_break_until`, a hand dealt since; its clock
 *  stopped while an operator has the tournament paused. */
function breakOf(id) {
  const b = state.breaks[id] ?? {};
  const pause = pauseOf(id);
  const found = breakNow({ frameUntil: b.frameUntil, detailUntil: tournamentDetail(id)?.on_break_until, endedUntil: b.endedUntil }, clockNow(pause, Date.now()));
  return found && { ...found, paused: clockStopped(pause) };
}

/** A break's countdown in words ("play resumes in 0:42"), "(paused)" after it while it stands. */
const breakClockText = (key, b) => {
  const text = t(key, { time: clockText(b.ms) });
  return b.paused ? t('clock_paused', { clock: text }) : text;
};

/** `tournament_break`: a tournament we play in is on a break until `until_ms`. */
export function onBreak(m) {
  state.breaks[m.tournament_id] = { ...state.breaks[m.tournament_id], frameUntil: m.until_ms };
  renderBreak();
}

/** A hand was dealt at tournament `id`'s table: its break, if the page still shows one (its
 *  clock a moment behind the server's), is over. */
export function breakEnded(id) {
  const b = breakOf(id);
  if (!b) return;
  state.breaks[id] = { ...state.breaks[id], endedUntil: b.until };
  renderBreak();
  renderTournamentClocks();
}

/** The view's countdown while the tournament is on a break (no live region: it ticks). */
function renderOnBreak(id) {
  const node = $('tournament-on-break');
  const b = id ? breakOf(id) : null;
  node.hidden = !b;
  setText(node, b ? breakClockText('t_on_break', b) : '');
  if (b) Object.assign(node.dataset, { until: String(b.until), ms: String(Math.round(b.ms)) });
  else for (const k of ['until', 'ms']) delete node.dataset[k];
  setPausedMark(node, b?.paused);
}

/** Every 250 ms and after each change: the break notice of the tournament we play in (the
 *  table's, or one whose `tournament_break` came) while it is on a break, with the time left
 *  to the resume; hidden at 0:00 or once a hand is dealt. Where the offer box is (in the
 *  page's flow under the top bar, never over the action bar); it takes no focus. Its end is
 *  said once to a screen reader, as a time of day (the countdown is no live region). */
export function renderBreak() {
  const ids = [...new Set([state.table?.tournamentId, ...Object.keys(state.breaks)])].filter((id) => id && !state.placed[id]);
  const found = ids.map((id) => [id, breakOf(id)]).find(([, b]) => b);
  const box = $('tournament-break');
  const said = $('tournament-break-said');
  const clock = $('tournament-break-clock');
  if (!found) {
    if (box.hidden) return;
    box.hidden = true; // hidden first: the live region's words go while nobody hears them
    setText(said, '');
    setText(clock, '');
    for (const k of ['tournamentId', 'until', 'ms', 'paused']) delete box.dataset[k];
    delete clock.dataset.ms;
    return;
  }
  const [id, b] = found;
  box.hidden = false;
  Object.assign(box.dataset, { tournamentId: id, until: String(b.until), ms: String(Math.round(b.ms)) });
  setPausedMark(box, b.paused);
  setText(clock, breakClockText('break_resumes', b));
  clock.dataset.ms = String(Math.round(b.ms));
  // Paused, the end is not known: the line said keeps the last one (the status in the bar
  // says the pause); resumed, the end moved on by the pause is said.
  if (!b.paused) setText(said, t('break_said', { time: timeOfDay(b.until) }));
}

// ---- deals at the final table --------------------------------------------------------------

/** The deal tournament `id` has now, as far as the page knows (model.js dealNow: the last
 *  `tournament_deal` frame or the detail's `deal`, whichever is newer); null when none or off. */
export const dealOf = (id) => dealNow(state.dealFrames[id], state.tdetails.get(id));

/** Whether an operator has tournament `id` paused now (model.js pausedNow). */
export const pausedOf = (id) => pausedNow(state.pausedFrames[id], state.tdetails.get(id));

/** Where an operator's pause has tournament `id`'s clocks (model.js clockPause): null while they run. */
const pauseOf = (id) => clockPause(state.pausedFrames[id], state.tdetails.get(id));

/** Whether a hand is in play at tournament `id`'s table (the one we are at): the server takes an
 *  acceptance only between hands. */
function handInPlay(id) {
  const tb = [...state.tables.values()].find((x) => x.tournamentId === id);
  return Boolean(tb?.hand && tb.hand.view.phase !== 'over');
}

const methodName = (method) => t(method === 'chip_chop' ? 'deal_method_chip_chop' : 'deal_method_icm');

/** Who proposed a deal, by name (the deal's players, else the tournament's entrants). */
function proposerName(id, deal) {
  return deal.players.find((p) => p.player_id === deal.by)?.name
    ?? tournamentDetail(id)?.entrants.find((e) => e.player_id === deal.by)?.name ?? '?';
}

/** "The deal paid you $38.39." once a deal made in tournament `id` paid us; '' otherwise. */
export function dealPaidText(id) {
  const deal = dealOf(id);
  const mine = deal?.state === 'made' ? deal.players.find((p) => p.player_id === state.me?.player_id) : null;
  const paid = mine ? dealFigure(deal, mine) : 0;
  return paid > 0 ? t('t_deal_paid_you', { amount: money(paid, 'cash') }) : '';
}

/** The tournament whose deal the box shows, with the deal: an open one we are in, else one
 *  made while this page watched (its frame came) that we were in and have not closed. */
function dealShown() {
  const me = state.me?.player_id;
  if (!me) return null;
  const ids = [...new Set([...Object.keys(state.dealFrames), state.table?.tournamentId, ...[...state.tables.values()].map((x) => x.tournamentId)])].filter(Boolean);
  const at = Date.now();
  let made = null;
  for (const id of ids) {
    const deal = dealOf(id);
    if (!deal?.players.some((p) => p.player_id === me)) continue;
    if (dealOpen(deal, at)) return [id, deal];
    if (deal.state === 'made' && state.dealFrames[id]?.deal.state === 'made' && !state.dealClosed[id]) made ??= [id, deal];
  }
  return made;
}

/** The deal box (under the top bar, in the page's flow like the offer box; it takes no focus):
 *  proposed, every player's chips and both figures (the deal's method marked), who has
 *  accepted, the clock, Accept (held back while a hand is in play) and Decline; made, what each
 *  was paid, and Close. Redrawn only where it changed (its status line is a live region). */
export function renderDeal() {
  const box = $('tournament-deal');
  const focused = box.contains(document.activeElement) ? document.activeElement : null;
  const found = dealShown();
  if (!found) {
    if (box.hidden) return;
    box.hidden = true;
    setText($('deal-text'), '');
    for (const k of ['tournamentId', 'state', 'method', 'leave', 'shared', 'until']) delete box.dataset[k];
    if (focused) {
      // Not left on a hidden button (it would be in the box again when the next deal shows).
      focused.blur();
      hooks.refocus();
    }
    return;
  }
  const [id, deal] = found;
  const me = state.me?.player_id;
  const made = deal.state === 'made';
  box.hidden = false;
  Object.assign(box.dataset, { tournamentId: id, state: deal.state, method: deal.method, leave: String(deal.leave), shared: String(deal.shared), until: String(deal.until_ms ?? '') });
  box.setAttribute('aria-label', t('deal_region'));
  setText($('deal-title'), t(made ? 'deal_title_made' : 'deal_title_proposed'));
  const words = { who: proposerName(id, deal), method: methodName(deal.method), shared: money(deal.shared, 'cash'), leave: money(deal.leave, 'cash') };
  setText($('deal-text'), made ? t(deal.leave > 0 ? 'deal_made_text' : 'deal_made_end', words) : t(deal.by === me ? 'deal_text_you' : 'deal_text', words));
  // The players' lines, drawn again only when the deal (or the language) changed.
  const key = JSON.stringify([deal, me, t('deal_col_chips')]);
  const body = $('deal-players');
  if (body.dataset.key !== key) {
    body.dataset.key = key;
    const cols = made ? ['chips', 'paid'] : ['chips', 'icm', 'chip_chop', 'accepted'];
    $('deal-head').replaceChildren(el('th', { scope: 'col', text: t('t_col_player') }), ...cols.map((c) => el('th', {
      scope: 'col', class: c === 'accepted' ? null : `num${c === deal.method ? ' chosen' : ''}`, text: t(`deal_col_${c}`),
    })));
    const figure = (c, p) => el('td', { class: `num${c === deal.method ? ' chosen' : ''}`, 'data-testid': `deal-${c.replace('_', '-')}`, 'data-amount': p[c] ?? 0, text: money(p[c] ?? 0, 'cash') });
    body.replaceChildren(...deal.players.map((p) => el('tr', {
      'data-testid': 'deal-player', 'data-player-id': p.player_id, 'data-chips': p.chips, 'data-icm': p.icm, 'data-chip-chop': p.chip_chop,
      'data-accepted': String(Boolean(p.accepted)), 'data-paid': made ? dealFigure(deal, p) : null, class: p.player_id === me ? 'me' : null,
    }, el('th', { scope: 'row', text: p.name }),
    el('td', { class: 'num', 'data-testid': 'deal-chips', text: money(p.chips, 'chips') }),
    ...(made
      ? [el('td', { class: 'num chosen', 'data-testid': 'deal-paid', 'data-amount': dealFigure(deal, p), text: money(dealFigure(deal, p), 'cash') })]
      : [figure('icm', p), figure('chip_chop', p),
        el('td', { 'data-testid': 'deal-accepted', class: p.accepted ? 'accepted' : 'muted', text: p.accepted ? `✓ ${t('deal_accepted')}` : t('deal_waiting') })]))));
  }
  // The viewer's buttons: Accept held back (aria-disabled, keeping the focus) while a hand is
  // in play or an answer is awaited.
  const b = dealButtons(deal, me, handInPlay(id), Date.now());
  const busy = state.dealBusy?.tournamentId === id;
  const accept = $('deal-accept');
  accept.hidden = !b.accept;
  accept.setAttribute('aria-disabled', String(b.wait || busy));
  accept.onclick = () => { if (accept.getAttribute('aria-disabled') !== 'true') answerDeal(id, true); };
  const decline = $('deal-decline');
  decline.hidden = !b.decline;
  decline.setAttribute('aria-disabled', String(busy));
  decline.onclick = () => { if (decline.getAttribute('aria-disabled') !== 'true') answerDeal(id, false); };
  const close = $('deal-close');
  close.hidden = !made;
  close.onclick = () => {
    state.dealClosed[id] = true;
    renderDeal();
  };
  const wait = $('deal-wait');
  wait.hidden = !b.wait;
  setText(wait, b.wait ? t('deal_wait_hand') : '');
  if (b.wait) accept.setAttribute('aria-describedby', 'deal-wait');
  else accept.removeAttribute('aria-describedby');
  const error = state.dealErrors[id]?.where === 'box' ? state.dealErrors[id] : null;
  const errorBox = $('deal-error');
  errorBox.hidden = !error;
  setText(errorBox, error?.text ?? '');
  if (error) errorBox.dataset.code = error.code;
  else delete errorBox.dataset.code;
  renderDealClock();
  // A button that had the focus went: Accept once accepted (the box itself, not Decline, which
  // a second Enter would press), Accept or Decline once made (Close).
  if (focused && (focused.hidden || !box.contains(focused))) {
    if (!close.hidden) close.focus();
    else {
      box.tabIndex = -1;
      box.focus();
    }
  }
}

/** Every 250 ms: the open deal's clock (no live region); at 0:00 the box goes (the server says
 *  it is off). */
export function renderDealClock() {
  const box = $('tournament-deal');
  const clock = $('deal-clock');
  if (box.hidden) return;
  const id = box.dataset.tournamentId;
  const deal = dealOf(id);
  if (deal?.state === 'made') {
    setText(clock, '');
    delete clock.dataset.ms;
    return;
  }
  const ms = dealMsLeft(deal, Date.now());
  if (ms != null && ms <= 0) return renderDeal();
  setText(clock, ms == null ? '' : t('deal_ends_in', { time: clockText(ms) }));
  if (ms == null) delete clock.dataset.ms;
  else clock.dataset.ms = String(Math.round(ms));
}

/** `tournament_deal` (broadcast, or the reply to ours): the deal as it stands. Off after being
 *  open: said once as a notice (the box goes for everyone). */
export function onDeal(m, reply) {
  const id = m.tournament_id;
  const before = dealOf(id);
  state.dealFrames[id] = { deal: m.deal, at: now() };
  if (reply && state.dealBusy?.tournamentId === id) state.dealBusy = null;
  if (m.deal.state !== 'proposed') {
    if (state.dealBusy?.tournamentId === id) state.dealBusy = null;
    delete state.dealErrors[id];
  }
  if (m.deal.state === 'off' && before?.state === 'proposed') notice(t('deal_off'));
  renderDeal();
  renderTournamentView();
  renderTournamentBar();
}

/** `tournament_deal_propose` from the tournament view's form: the method and the amount left
 *  to play for (dollars typed; cents sent). A refusal is said under the form. */
export function proposeDeal(id) {
  if (!id) return;
  const leave = boxToAmount($('deal-leave').value.trim() || '0', 'cash');
  if (Number.isNaN(leave) || leave < 0) {
    state.dealErrors[id] = { code: 'local', text: t('deal_leave_bad'), where: 'view' };
    renderTournamentView();
    $('deal-leave').focus();
    return;
  }
  delete state.dealErrors[id];
  const method = $('deal-method').value === 'chip_chop' ? 'chip_chop' : 'icm';
  if (!send({ type: 'tournament_deal_propose', tournament_id: id, method, leave }, { kind: 'deal', tournamentId: id, propose: true })) {
    state.dealErrors[id] = { code: 'offline', text: t('err_p_offline'), where: 'view' };
  }
  renderTournamentView();
}

/** `tournament_deal_answer`: accept (between hands) or decline the open deal. */
export function answerDeal(id, accept, tries = 0) {
  delete state.dealErrors[id];
  if (!send({ type: 'tournament_deal_answer', tournament_id: id, accept }, { kind: 'deal', tournamentId: id, accept })) {
    state.dealBusy = null;
    state.dealErrors[id] = { code: 'offline', text: t('err_p_offline'), where: 'box' };
  } else {
    state.dealBusy = { tournamentId: id, accept, tries };
  }
  renderDeal();
}

/** A refused proposal or answer, in words where it was made. An acceptance refused because
 *  the hand had not ended yet for the tournament (its result reaches the tournament a moment
 *  after our page shows it) is sent again shortly while the deal is open, a few times. */
export function onDealError(m, req) {
  const id = req.tournamentId;
  const tries = state.dealBusy?.tournamentId === id ? state.dealBusy.tries : 0;
  if (state.dealBusy?.tournamentId === id) state.dealBusy = null;
  if (req.accept === true && m.code === 'not_now' && noDealKey(m.message) === 'nd_hand' && tries < 8 && dealOpen(dealOf(id), Date.now())) {
    state.dealBusy = { tournamentId: id, accept: true, tries: tries + 1 };
    setTimeout(() => {
      if (state.dealBusy?.tournamentId !== id || !dealOpen(dealOf(id), Date.now())) return;
      if (handInPlay(id)) {
        // Sent again when the hand's result comes (dealHandEnded).
        state.dealBusy = { ...state.dealBusy, afterHand: true };
        return renderDeal();
      }
      answerDeal(id, true, tries + 1);
    }, 400);
    return renderDeal();
  }
  state.dealErrors[id] = { code: m.code, text: dealErrorText(m), where: req.propose ? 'view' : 'box' };
  renderDeal();
  renderTournamentView();
}

/** A hand ended (or began) at tournament `id`'s table: Accept is offered again (or held back);
 *  an acceptance waiting for the hand's end is sent. */
export function dealHandChanged(id) {
  const b = state.dealBusy;
  if (b?.tournamentId === id && b.afterHand && !handInPlay(id) && dealOpen(dealOf(id), Date.now())) answerDeal(id, true, b.tries);
  renderDeal();
}

/** The socket closed: no reply to an answer will come; the buttons work again. */
export function dealDropped() {
  if (state.dealBusy) {
    state.dealBusy = null;
    renderDeal();
  }
}

/** `tournament_paused`: an operator paused or resumed a tournament we play in. */
export function onPaused(m) {
  state.pausedFrames[m.tournament_id] = { paused: m.paused, at: now(), wall: Date.now() };
  renderTournamentView();
  renderTournamentBar();
}

/** "Paused by the operator" (a status, written only when it changes: shown before its words
 *  are written, hidden before they go). */
function renderPaused(node, paused) {
  if (paused) {
    node.hidden = false;
    setText(node, t('t_paused'));
  } else {
    node.hidden = true;
    setText(node, '');
  }
}

/** The tournament view's deal: where it stands (proposed: by whom, how, who it waits for;
 *  made: what each was paid), and the form to propose one while one can be (model.js
 *  canProposeDeal; the server decides and says why not). */
function renderDealView(id, d) {
  const section = $('tournament-deal-view');
  const deal = dealOf(id);
  const me = state.me?.player_id;
  const at = Date.now();
  const can = canProposeDeal(d, me, deal, at);
  const line = $('tournament-deal-line');
  let text = '';
  if (dealOpen(deal, at)) text = t('t_deal_proposed', { who: proposerName(id, deal), method: methodName(deal.method), names: dealWaiting(deal).join(', ') });
  else if (deal?.state === 'made') text = t('t_deal_made', { method: methodName(deal.method), paid: deal.players.map((p) => `${p.name} ${money(dealFigure(deal, p), 'cash')}`).join(' · ') });
  line.hidden = !text;
  setText(line, text);
  line.dataset.state = text ? deal.state : '';
  const form = $('deal-propose');
  const hadFocus = form.contains(document.activeElement);
  form.hidden = !can;
  const select = $('deal-method');
  if (!select.options.length) select.append(el('option', { value: 'icm' }), el('option', { value: 'chip_chop' }));
  for (const o of select.options) setText(o, methodName(o.value));
  const error = state.dealErrors[id]?.where === 'view' ? state.dealErrors[id] : null;
  const errorBox = $('deal-propose-error');
  errorBox.hidden = !error;
  setText(errorBox, error?.text ?? '');
  if (error) errorBox.dataset.code = error.code;
  else delete errorBox.dataset.code;
  section.hidden = !text && !can && !error;
  // Proposed: the form goes; the focus to the line that says so.
  if (hadFocus && form.hidden) {
    line.tabIndex = -1;
    if (!line.hidden) line.focus();
    else hooks.refocus();
  }
}
