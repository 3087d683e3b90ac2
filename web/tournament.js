// A tournament on screen: its view (status, level and clock, structure, entrants, tables,
// payouts, results, registering, rebuys and the add-on) and its line at one of its tables
// (level, clock, game, players left, our place once out); the offer box (a rebuy offered
// after a bust, the add-on at the end of the rebuy period) with its clock; and the notice of a
// break with its countdown to the resume. It draws the
// details lobby.js fetched into state; registering is the lobby's (the session), passed in by
// app.js (configureTournament); a purchase is sent from here (the session is there already).

import { $, el, now, setText } from './dom.js';
import { clockText, feeText, limits, money, ordinal, timeOfDay, variantName } from './format.js';
import { purchaseErrorText, t } from './i18n.js';
import { bountyPlan, breakNow, breakPlan, levelMsLeft, levelNow, myEntry, nextGame, offerMsLeft, purchaseButtons, registrationButtons, standing } from './model.js';
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

/** The clock to the next level ("next level in 0:42"), or the hands left in a level by hands. */
function clockLine(id) {
  const entry = state.tdetails.get(id);
  const d = entry?.detail;
  if (!d || d.status !== 'running') return { text: '', ms: null };
  const ms = levelMsLeft(d, entry.at, now());
  if (ms != null) return { text: t('t_next_level_in', { time: clockText(ms) }), ms };
  const { level, last } = levelNow(d);
  if (last) return { text: t('t_last_level'), ms: null };
  if (d.hands_to_next_level != null) return { text: t('t_next_level_hands', { n: d.hands_to_next_level }), ms: null };
  if (level?.hands) return { text: t('t_level_hands', { n: level.hands }), ms: null };
  return { text: '', ms: null };
}

function setClock(node, line) {
  node.textContent = line.text;
  if (line.ms == null) delete node.dataset.ms;
  else node.dataset.ms = String(Math.round(line.ms));
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
  // Results, best place first; the finishing places as they come.
  $('tournament-results').replaceChildren(...d.results.map((r) => el('tr', {
    'data-testid': 'tournament-result', 'data-place': r.place, 'data-player-id': r.player_id, 'data-prize': r.prize,
    class: r.player_id === state.me?.player_id ? 'me' : null,
  }, el('td', { class: 'num', text: ordinal(r.place) }), el('td', { text: r.name }), el('td', { class: 'num', text: money(r.prize, 'cash') }),
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
  // its own alert, written only when its words change.
  const buttons = purchaseButtons(d, state.me?.player_id, Date.now());
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

/** What is on sale now: rebuys (to a short stack), the add-on with its time left, or the end of
 *  the rebuy period. Redrawn with the clocks (no live region: it ticks). */
function renderRebuysNow(d) {
  const r = d?.rebuys;
  const line = $('tournament-rebuys-now');
  if (!r) return;
  let text = '';
  if (d.status === 'running') {
    const addonMs = r.addon_until != null ? offerMsLeft(r.addon_until, Date.now()) : 0;
    if (r.rebuy_open) text = t('t_rebuy_open', { chips: money(d.starting_chips, 'chips') });
    else if (addonMs > 0) text = t('t_addon_open', { time: clockText(addonMs) });
    else text = t('t_rebuy_over');
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
  const ms = offerMsLeft(o.untilMs, Date.now());
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
    setText($('tournament-out-text'), t(key, { place: ordinal(placed.place), prize: money(placed.prize, 'cash') }));
    Object.assign(out.dataset, { place: String(placed.place), prize: String(placed.prize) });
  }
  if (!id) return;
  const d = tournamentDetail(id);
  const lvl = $('tournament-table-level');
  if (!d) return;
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
 *  `tournament_break` frame, the detail's `on_break_until`, a hand dealt since. */
function breakOf(id) {
  const b = state.breaks[id] ?? {};
  return breakNow({ frameUntil: b.frameUntil, detailUntil: tournamentDetail(id)?.on_break_until, endedUntil: b.endedUntil }, Date.now());
}

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
  setText(node, b ? t('t_on_break', { time: clockText(b.ms) }) : '');
  if (b) Object.assign(node.dataset, { until: String(b.until), ms: String(Math.round(b.ms)) });
  else for (const k of ['until', 'ms']) delete node.dataset[k];
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
    for (const k of ['tournamentId', 'until', 'ms']) delete box.dataset[k];
    delete clock.dataset.ms;
    return;
  }
  const [id, b] = found;
  box.hidden = false;
  Object.assign(box.dataset, { tournamentId: id, until: String(b.until), ms: String(Math.round(b.ms)) });
  setText(clock, t('break_resumes', { time: clockText(b.ms) }));
  clock.dataset.ms = String(Math.round(b.ms));
  setText(said, t('break_said', { time: timeOfDay(b.until) }));
}
