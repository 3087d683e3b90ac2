// A tournament on screen: its view (status, level and clock, structure, entrants, tables,
// payouts, results, registering) and its line at one of its tables (level, clock, game,
// players left, our place once out). It draws the details lobby.js fetched into state;
// registering is the lobby's (the session), passed in by app.js (configureTournament).

import { $, el, now, setText } from './dom.js';
import { clockText, feeText, limits, money, ordinal, variantName } from './format.js';
import { t } from './i18n.js';
import { levelMsLeft, levelNow, nextGame, registrationButtons, standing } from './model.js';
import { registeredIn, state, tournamentDetail, tournamentTableOf } from './state.js';

const hooks = {
  register: () => {},   // (id): tournament_register
  unregister: () => {}, // (id): tournament_unregister
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
  $('tournament-fee').textContent = feeText(x);
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
  // Results, best place first; the finishing places as they come.
  $('tournament-results').replaceChildren(...d.results.map((r) => el('tr', {
    'data-testid': 'tournament-result', 'data-place': r.place, 'data-player-id': r.player_id, 'data-prize': r.prize,
    class: r.player_id === state.me?.player_id ? 'me' : null,
  }, el('td', { class: 'num', text: ordinal(r.place) }), el('td', { text: r.name }), el('td', { class: 'num', text: money(r.prize, 'cash') }))));
  $('tournament-no-results').hidden = d.results.length > 0;
  $('tournament-levels').replaceChildren(...d.levels.map((l, i) => el('tr', {
    'data-testid': 'tournament-level-row', 'data-level': i + 1,
    'aria-current': d.status === 'running' && i + 1 === n ? 'step' : null, class: d.status === 'running' && i + 1 === n ? 'current' : null,
  }, el('td', { class: 'num', text: i + 1 }), el('td', { class: 'num', text: money(l.ante, 'chips') }), el('td', { class: 'num', text: money(l.bring_in, 'chips') }),
  el('td', { class: 'num', text: limits(l, 'chips') }), el('td', { text: l.minutes != null ? t('t_minutes', { n: l.minutes }) : t('t_hands', { n: l.hands }) }))));
  $('tournament-entrants').replaceChildren(...[...d.entrants].sort((a, b) => (a.place ?? 0) - (b.place ?? 0) || b.chips - a.chips).map((e) => el('tr', {
    'data-testid': 'tournament-entrant', 'data-player-id': e.player_id, 'data-state': e.state, 'data-chips': e.chips,
    class: e.player_id === state.me?.player_id ? 'me' : null,
  }, el('td', { text: e.name }), el('td', { class: 'num', text: e.state === 'out' ? '' : money(e.chips, 'chips') }),
  el('td', { text: whereText(d, e) }),
  el('td', { class: 'num', text: e.place ? ordinal(e.place) : '' }))));
  const names = Object.fromEntries(d.entrants.map((e) => [e.player_id, e.name]));
  $('tournament-tables').replaceChildren(...d.tables.map((tb) => el('tr', { 'data-testid': 'tournament-table', 'data-table': tb.table },
    el('td', { class: 'num', text: tb.table }), el('td', { class: 'wrap', text: tb.players.map((p) => names[p] ?? '?').join(', ') }), el('td', { class: 'num', text: tb.hands }))));
  $('tournament-payouts').replaceChildren(...d.payouts.map((pct, i) => el('tr', { 'data-testid': 'tournament-payout', 'data-place': i + 1, 'data-prize': d.prizes[i] ?? 0 },
    el('td', { class: 'num', text: ordinal(i + 1) }), el('td', { class: 'num', text: `${pct}%` }), el('td', { class: 'num', text: money(d.prizes[i] ?? 0, 'cash') }))));
  renderTournamentClocks();
}

/** Where an entrant is: their table and seat while it runs, else registered / out / won. */
function whereText(d, e) {
  if (d.status === 'running' && e.table != null) return t('t_at_table', { table: e.table, seat: e.seat });
  if (e.state === 'playing') return '';
  return t(`t_state_${e.state}`);
}

/** At a tournament table: the level and its stakes, the clock, a rotation's game and the next
 *  one, players left (and our place once out); the notice with our place and prize. */
export function renderTournamentBar() {
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
