// The page's state and preferences (localStorage).


export const PROTOCOL_VERSION = 1;
export const TOKEN_KEY = 'stud.token';
export const PRIVATE_KEY = 'stud.private'; // private tables joined with a code: {table id: {code, summary}}
export const PRIVATE_TOURNAMENTS_KEY = 'stud.private-tournaments'; // private tournaments reached by id and code: {tournament id: {code}}
export const PREFS_KEY = 'stud.prefs'; // {lang, fourColour, sound, lobby: {sort, dir, variant, stakes, players}}
// sound: true / false once the player has chosen; null (not chosen) means on while seated at a
// table and off otherwise (an observer's page makes no sound until asked to).
export const LOBBY_REFRESH_MS = 5000;
export const TOURNAMENT_TABLES_KEY = 'stud.tournament-tables'; // {table id: tournament id}: the tables tournaments seated us at
export const TOURNAMENT_REFRESH_MS = 2000; // the tournament on screen (view or table) is fetched again this often
export const PING_MS = 15000;
export const LOG_LINES_KEPT = 400;
export const RESULT_HOLD_MS = 4000; // the result strip stays at least this long

export const store = globalThis.localStorage;
export const readJson = (key, fallback) => {
  try { return JSON.parse(store.getItem(key)) ?? fallback; } catch { return fallback; }
};

// ---- state ---------------------------------------------------------------------------------

export const prefs = { lang: null, fourColour: false, sound: null, lobby: { sort: 'name', dir: 1, variant: 'all', stakes: 'all', players: 'all' }, ...readJson(PREFS_KEY, {}) };
export const savePrefs = () => store.setItem(PREFS_KEY, JSON.stringify(prefs));

export const state = {
  token: store?.getItem(TOKEN_KEY) ?? null,
  me: null,                 // the last `welcome`: player_id, session_id, name, balance
  lobby: [],                // GET /api/tables
  privates: readJson(PRIVATE_KEY, {}),
  tprivates: readJson(PRIVATE_TOURNAMENTS_KEY, {}), // private tournaments reached by id and code (the lobby lists them only to their players)
  pending: null,            // {tableId, code}: a watch waiting for its first snapshot
  left: new Set(),          // tables left on this page: never pulled back into them
  tables: new Map(),        // table id -> every table this page is at (seated or watching), see enterTable()
  table: null,              // the table on screen (or the last one shown, while the lobby is), one of `tables`
  lastHands: [],            // the LAST HAND list
  report: null,             // the LAST HAND report on screen, with its replay position
  historyWait: null,        // {handId, tries}: LAST HAND asked again until its list holds the hand that just ended
  tournaments: [],          // GET /api/tournaments
  tdetails: new Map(),      // tournament id -> {detail: GET /api/tournaments/{id}, at: performance.now() when it came}
  tview: null,              // the tournament shown in the tournament view
  tournamentTables: readJson(TOURNAMENT_TABLES_KEY, {}),
  placed: {},               // tournament id -> {place, prize}: our `tournament_placed`
  tcodes: {},               // tournament id -> the invite code typed in the lobby (else the remembered one: tournamentCode)
  terrors: {},              // tournament id -> the last refusal's text, shown in its row
  offer: null,              // the open `tournament_offer`: {tournamentId, offer, chips, fee, untilMs, busy, error}
  perrors: {},              // tournament id -> a refused rebuy / add-on bought from its view: {code, text}
  breaks: {},               // tournament id -> {frameUntil: `tournament_break`'s until_ms, endedUntil: the break a hand was dealt after}
  dealFrames: {},           // tournament id -> {deal: the last `tournament_deal`'s deal, at: performance.now() when it came}
  dealClosed: {},           // tournament id -> true: the made deal's box was closed
  dealBusy: null,           // {tournamentId, accept}: a deal's answer awaiting its reply (or sent again once the hand ends)
  dealErrors: {},           // tournament id -> {code, text, where: 'box' | 'view'}: a refused proposal or answer
  pausedFrames: {},         // tournament id -> {paused: the last `tournament_paused`'s, at: performance.now() and wall: Date.now() when it came}
  // The table on screen's own parts (each table keeps its own: see enterTable):
  // prompt: our turn {handId, seq, legal, bankMs, sent}; pre: the ticked pre-action box {kind,
  // bet} (bet: the bet level when ticked); autoBringIn: the "auto-post bring-in" box (kept
  // across hands); timedOut: the clock acted for us in the hand just played.
  get prompt() { return this.table?.prompt ?? null; },
  set prompt(v) { if (this.table) this.table.prompt = v; },
  get pre() { return this.table?.pre ?? null; },
  set pre(v) { if (this.table) this.table.pre = v; },
  get autoBringIn() { return this.table?.autoBringIn ?? false; },
  set autoBringIn(v) { if (this.table) this.table.autoBringIn = v; },
  get timedOut() { return this.table?.timedOut ?? false; },
  set timedOut(v) { if (this.table) this.table.timedOut = v; },
};

/** Whether the page holds a seat at any of its tables (its sounds are on by default then). */
export const seatedAnywhere = () => [...state.tables.values()].some((tb) => tb.info?.your_seat != null);

/** Whether the sounds are on: the player's choice, else on while seated and off otherwise. */
export const soundOn = () => prefs.sound ?? seatedAnywhere();

/** Our prompt at a table, not yet answered (its turn is ours). */
export const turnPending = (tb) => Boolean(tb?.prompt && !tb.prompt.sent);

export const savePrivates = () => store.setItem(PRIVATE_KEY, JSON.stringify(state.privates));
export const savePrivateTournaments = () => store.setItem(PRIVATE_TOURNAMENTS_KEY, JSON.stringify(state.tprivates));
export const saveTournamentTables = () => store.setItem(TOURNAMENT_TABLES_KEY, JSON.stringify(state.tournamentTables));

// ---- what the state says -------------------------------------------------------------------

/** A tournament's detail as last fetched (GET /api/tournaments/{id}), or null. */
export const tournamentDetail = (id) => state.tdetails.get(id)?.detail ?? null;

/** Whether we hold an entry (registered or playing): true / false, or null when not known. */
export function registeredIn(id) {
  const d = tournamentDetail(id);
  const me = state.me?.player_id;
  if (!d || !me) return null;
  return d.entrants.some((e) => e.player_id === me && (e.state === 'registered' || e.state === 'playing'));
}

/** A tournament's invite code: the one typed in its row (even emptied), else the one it was
 *  reached with from the private form, else none. */
export const tournamentCode = (id) => state.tcodes[id] ?? state.tprivates[id]?.code ?? '';

/** The table a tournament seated us at (from its `tournament_seat`), if any. */
export const tournamentTableOf = (id) => Object.entries(state.tournamentTables).find(([, tid]) => tid === id)?.[0] ?? null;
