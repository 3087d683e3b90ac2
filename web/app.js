// The stud browser client: lobby, table, hand log, LAST HAND and its replayer, spoken over the
// public protocol only (proto/PROTOCOL.md): POST /api/sessions, GET /api/tables, the WebSocket
// /ws and the hand-history API. A plain ES module: no framework, no build step.
//
// The page is a thin view: it shows what the server sends and never decides a game rule (who
// may act, what is legal, who wins, what a hand is worth). The pure parts (translations, money,
// seat rotation, log text, the replayer's steps, pre-action choice) are exported and
// unit-tested under Node (tests/browser/unit.test.mjs); the page itself starts only in a
// browser. (It is one file because the server embeds and serves exactly index.html, app.js and
// style.css: crates/server/src/web.rs.)

const PROTOCOL_VERSION = 1;
const TOKEN_KEY = 'stud.token';
const PRIVATE_KEY = 'stud.private'; // private tables joined with a code: {table id: {code, summary}}
const PREFS_KEY = 'stud.prefs'; // {lang, fourColour, sound, lobby: {sort, dir, variant, stakes, players}}
const NAMES_KEY = 'stud.handNames'; // {hand id: {seat: name}}: names for LAST HAND, last 60 hands
const LOBBY_REFRESH_MS = 5000;
const PING_MS = 15000;
const LOG_LINES_KEPT = 400;
const RESULT_HOLD_MS = 4000; // the result strip stays at least this long

// ---- translations --------------------------------------------------------------------------

export const LANGS = { en: 'English', it: 'Italiano', hu: 'Magyar' };
const LOCALES = { en: 'en-US', it: 'it-IT', hu: 'hu-HU' };

const EN = {
  hand_log: 'Hand log', guest: 'Guest',
  err_seat_taken: 'That seat is taken.', err_table_full: 'The table is full.', err_already_seated: 'You are already seated there.',
  err_buy_in_out_of_range: 'The buy-in is outside the table’s range.', err_insufficient_balance: 'Your balance is too small for that buy-in.',
  err_not_seated: 'You are not seated at that table.', err_not_now: 'Not now: wait for the hand to end.', err_not_your_turn: 'It is not your turn.',
  err_illegal_action: 'That action is not allowed now.', err_stale: 'That was for an earlier moment of the hand.', err_rate_limited: 'Too many messages: slow down a little.',
  err_unavailable: 'The server is busy: try again in a moment.', err_unknown_table: 'That table does not exist (any more).', err_forbidden: 'Not allowed.',
  title: 'stud', not_connected: 'not connected', connecting: 'connecting', connected: 'connected', reconnecting: 'reconnecting',
  banner_lost: 'Connection lost, reconnecting…',
  your_name: 'Your name', start: 'Start', balance: 'Balance', tables: 'Tables', private_table: 'Private table',
  table_id: 'table id', invite_code: 'invite code', join: 'Join', last_hands: 'Last hands', close: 'Close',
  col_table: 'Table', col_game: 'Game', col_stakes: 'Stakes', col_seats: 'Seats', col_buy_in: 'Buy-in',
  sit: 'Sit', watch: 'Watch', buy_in: 'buy-in', private: 'private', log_out: 'Log out', language: 'Language',
  four_colour: 'Four-colour deck', sound: 'Sound', sound_on: 'Sound on', sound_off: 'Sound off',
  filter_variant: 'Game', filter_stakes: 'Stakes', filter_players: 'Players', all: 'All',
  stakes_low: 'Small', stakes_high: 'Big', players_some: 'With players', players_free: 'With a free seat', players_empty: 'Empty',
  no_tables: 'No table matches.', sort_by: 'Sort by {what}',
  sit_out: 'Sit out', sit_in: 'Sit in', leave: 'Leave', take_seat: 'Take a seat', top_up: 'Top up', buy_in_top_up: 'Buy-in / top-up',
  sit_here: 'Sit here', sit_here_n: 'Sit here (seat {n})', empty_seat: 'Empty seat {n}', seat_n: 'Seat {n}', you: 'you',
  away: 'away', sitting_out: 'sitting out', all_in: 'all in', folded: 'folded', mucked: 'mucked', bring_in_tag: 'bring-in',
  wins: 'wins {amount}', pot: 'Pot', main_pot: 'Main pot', side_pot: 'Side pot {n}', community: 'Community',
  waiting_players: 'Waiting for players', waiting_hand: 'Waiting for the next hand', your_turn: 'Your turn', to_act: '{name} to act',
  time_bank: 'time bank', clock_split: '{s}s + time bank {b}s', clock_bank: 'time bank {s}s', clock: '{s}s',
  act_bring_in: 'Bring in {amount}', act_complete: 'Complete to {amount}', act_bet: 'Bet {amount}', act_bet_big: 'Bet {amount} (open pair)',
  act_raise: 'Raise to {amount}', act_call: 'Call {amount}', act_call_plain: 'Call', act_check: 'Check', act_fold: 'Fold', act_show: 'Show', act_muck: 'Muck',
  pre_check_fold: 'Check/fold', pre_check: 'Check', pre_call_any: 'Call any', pre_bring_in: 'Auto-post bring-in', pre_actions: 'Act in advance',
  sat_out_timeout: 'Your time ran out and you were sat out. You will not be dealt in until you come back.',
  sat_out_self: 'You are sitting out.', im_back: "I'm back",
  sat_out_busted: 'You have no chips left: top up, then sit in.', no_low: 'no low',
  reconnect_try: 'Reconnecting: try again in a moment.', unreachable: 'The server cannot be reached.', session_failed: 'Could not start a session ({status}).',
  table_closed: 'The table has closed; your chips are back in your balance.', download_failed: 'Download failed ({status}).',
  loading: 'Loading…', no_hands: 'No hands played in this session yet.', hand_row: '#{number} · {variant} · {seat} · ',
  your_net: 'Your net: {net} · commitment {commitment}', awards: 'Awards', action_h: 'Action', community_card: 'Community card',
  download_phh: 'Download PHH', download_text: 'Download text', hand_title: 'Hand #{number} · {variant} · {when}',
  replay: 'Replay', replay_prev: 'Previous street', replay_next: 'Next street', replay_first: 'Start', replay_last: 'End',
  step_start: 'Antes', step_showdown: 'Showdown', step_end: 'Result', step_of: 'step {i} of {n}',
  // log
  log_hand: 'Hand #{number}', log_hand_progress: 'Hand #{number} (in progress)', log_dealt_in: 'Dealt in: {list}',
  log_ante: '{who} antes {amount}', log_bring_in: '{who} brings in for {amount}', log_complete: '{who} completes to {amount}',
  log_bet: '{who} bets {amount}', log_raise: '{who} raises to {amount}', log_call: '{who} calls {amount}', log_check: '{who} checks',
  log_fold: '{who} folds', log_all_in: '{line} and is all in', log_uncalled: 'Uncalled bet of {amount} returned to {who}',
  log_showdown: 'Showdown', log_shows: '{who} shows {cards} ({hand})', log_may_show: '{who} may show or muck', log_mucks: '{who} mucks',
  log_community: 'Community card: {card}', log_over: 'Hand over', log_street: '{street}: {deals}',
  log_wins: '{who} wins {amount}', log_wins_with: '{who} wins {amount} with {hand}', log_high_half: 'high half', log_low_half: 'low half', log_side: 'side pot {n}',
  result_wins: '{who} wins {amount}', strength: 'Your hand: {hand}',
  variant_stud: 'Stud', variant_stud8: 'Stud Hi/Lo', variant_razz: 'Razz',
  street_third: '3rd street', street_fourth: '4th street', street_fifth: '5th street', street_sixth: '6th street', street_seventh: '7th street',
  stakes_line: 'ante {ante} · bring-in {bring_in}', turn_title: '● Your turn',
  card_back: 'Face-down card', card_name: '{rank} of {suit}',
  suit_c: 'clubs', suit_d: 'diamonds', suit_h: 'hearts', suit_s: 'spades',
  rank: ['Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Jack', 'Queen', 'King', 'Ace'],
  plural: ['Twos', 'Threes', 'Fours', 'Fives', 'Sixes', 'Sevens', 'Eights', 'Nines', 'Tens', 'Jacks', 'Queens', 'Kings', 'Aces'],
  h_royal: 'Royal flush', h_sflush: 'Straight flush, {r} high', h_quads: 'Four of a kind, {p}', h_full: 'Full house, {p} full of {q}',
  h_flush: 'Flush, {r} high', h_straight: 'Straight, {r} high', h_trips: 'Three of a kind, {p}', h_two_pair: 'Two pair, {p} and {q}',
  h_pair: 'Pair of {p}', h_high: 'High card, {r}', h_hi: 'HI: {h}', h_lo: 'LO: {h}',
};

const IT = {
  hand_log: 'Storico della mano', guest: 'Ospite',
  err_seat_taken: 'Quel posto è occupato.', err_table_full: 'Il tavolo è pieno.', err_already_seated: 'Sei già seduto a quel tavolo.',
  err_buy_in_out_of_range: 'Il buy-in è fuori dai limiti del tavolo.', err_insufficient_balance: 'Il tuo saldo non basta per quel buy-in.',
  err_not_seated: 'Non sei seduto a quel tavolo.', err_not_now: 'Non ora: aspetta la fine della mano.', err_not_your_turn: 'Non tocca a te.',
  err_illegal_action: 'Quell’azione ora non è consentita.', err_stale: 'Era per un momento precedente della mano.', err_rate_limited: 'Troppi messaggi: rallenta un po’.',
  err_unavailable: 'Il server è occupato: riprova tra un momento.', err_unknown_table: 'Quel tavolo non esiste (più).', err_forbidden: 'Non consentito.',
  title: 'stud', not_connected: 'non connesso', connecting: 'connessione', connected: 'connesso', reconnecting: 'riconnessione',
  banner_lost: 'Connessione persa, riconnessione in corso…',
  your_name: 'Il tuo nome', start: 'Inizia', balance: 'Saldo', tables: 'Tavoli', private_table: 'Tavolo privato',
  table_id: 'id del tavolo', invite_code: 'codice invito', join: 'Entra', last_hands: 'Ultime mani', close: 'Chiudi',
  col_table: 'Tavolo', col_game: 'Gioco', col_stakes: 'Puntate', col_seats: 'Posti', col_buy_in: 'Buy-in',
  sit: 'Siediti', watch: 'Guarda', buy_in: 'buy-in', private: 'privato', log_out: 'Esci', language: 'Lingua',
  four_colour: 'Mazzo a quattro colori', sound: 'Suono', sound_on: 'Suono attivo', sound_off: 'Suono spento',
  filter_variant: 'Gioco', filter_stakes: 'Puntate', filter_players: 'Giocatori', all: 'Tutti',
  stakes_low: 'Basse', stakes_high: 'Alte', players_some: 'Con giocatori', players_free: 'Con un posto libero', players_empty: 'Vuoti',
  no_tables: 'Nessun tavolo corrisponde.', sort_by: 'Ordina per {what}',
  sit_out: 'Pausa', sit_in: 'Rientra', leave: 'Lascia', take_seat: 'Siediti', top_up: 'Ricarica', buy_in_top_up: 'Buy-in / ricarica',
  sit_here: 'Siediti qui', sit_here_n: 'Siediti qui (posto {n})', empty_seat: 'Posto libero {n}', seat_n: 'Posto {n}', you: 'tu',
  away: 'assente', sitting_out: 'in pausa', all_in: 'all-in', folded: 'ha passato', mucked: 'carte coperte', bring_in_tag: 'bring-in',
  wins: 'vince {amount}', pot: 'Piatto', main_pot: 'Piatto principale', side_pot: 'Piatto laterale {n}', community: 'Carta comune',
  waiting_players: 'In attesa di giocatori', waiting_hand: 'In attesa della prossima mano', your_turn: 'Tocca a te', to_act: 'Tocca a {name}',
  time_bank: 'riserva di tempo', clock_split: '{s}s + riserva {b}s', clock_bank: 'riserva {s}s', clock: '{s}s',
  act_bring_in: 'Bring-in {amount}', act_complete: 'Completa a {amount}', act_bet: 'Punta {amount}', act_bet_big: 'Punta {amount} (coppia scoperta)',
  act_raise: 'Rilancia a {amount}', act_call: 'Vedi {amount}', act_call_plain: 'Vedi', act_check: 'Check', act_fold: 'Passa', act_show: 'Mostra', act_muck: 'Scarta',
  pre_check_fold: 'Check/passa', pre_check: 'Check', pre_call_any: 'Vedi tutto', pre_bring_in: 'Bring-in automatico', pre_actions: 'Azioni anticipate',
  sat_out_timeout: 'Il tuo tempo è scaduto e sei stato messo in pausa. Non riceverai carte finché non rientri.',
  sat_out_self: 'Sei in pausa.', im_back: 'Sono tornato',
  sat_out_busted: 'Non hai più fiches: ricarica, poi rientra.', no_low: 'nessun basso',
  reconnect_try: 'Riconnessione: riprova tra un momento.', unreachable: 'Il server non è raggiungibile.', session_failed: 'Impossibile iniziare una sessione ({status}).',
  table_closed: 'Il tavolo è chiuso; le tue fiches sono tornate nel saldo.', download_failed: 'Download non riuscito ({status}).',
  loading: 'Caricamento…', no_hands: 'Nessuna mano giocata in questa sessione.', hand_row: '#{number} · {variant} · {seat} · ',
  your_net: 'Il tuo netto: {net} · impegno {commitment}', awards: 'Vincite', action_h: 'Azioni', community_card: 'Carta comune',
  download_phh: 'Scarica PHH', download_text: 'Scarica testo', hand_title: 'Mano #{number} · {variant} · {when}',
  replay: 'Rivedi', replay_prev: 'Strada precedente', replay_next: 'Strada successiva', replay_first: 'Inizio', replay_last: 'Fine',
  step_start: 'Ante', step_showdown: 'Showdown', step_end: 'Risultato', step_of: 'passo {i} di {n}',
  log_hand: 'Mano #{number}', log_hand_progress: 'Mano #{number} (in corso)', log_dealt_in: 'In gioco: {list}',
  log_ante: '{who} mette l’ante di {amount}', log_bring_in: '{who} apre con il bring-in di {amount}', log_complete: '{who} completa a {amount}',
  log_bet: '{who} punta {amount}', log_raise: '{who} rilancia a {amount}', log_call: '{who} vede {amount}', log_check: '{who} fa check',
  log_fold: '{who} passa', log_all_in: '{line} ed è all-in', log_uncalled: 'Puntata non vista di {amount} restituita a {who}',
  log_showdown: 'Showdown', log_shows: '{who} mostra {cards} ({hand})', log_may_show: '{who} può mostrare o scartare', log_mucks: '{who} scarta',
  log_community: 'Carta comune: {card}', log_over: 'Mano finita', log_street: '{street}: {deals}',
  log_wins: '{who} vince {amount}', log_wins_with: '{who} vince {amount} con {hand}', log_high_half: 'metà alta', log_low_half: 'metà bassa', log_side: 'piatto laterale {n}',
  result_wins: '{who} vince {amount}', strength: 'La tua mano: {hand}',
  variant_stud: 'Stud', variant_stud8: 'Stud Hi/Lo', variant_razz: 'Razz',
  street_third: '3ª strada', street_fourth: '4ª strada', street_fifth: '5ª strada', street_sixth: '6ª strada', street_seventh: '7ª strada',
  stakes_line: 'ante {ante} · bring-in {bring_in}', turn_title: '● Tocca a te',
  card_back: 'Carta coperta', card_name: '{rank} di {suit}',
  suit_c: 'fiori', suit_d: 'quadri', suit_h: 'cuori', suit_s: 'picche',
  rank: ['Due', 'Tre', 'Quattro', 'Cinque', 'Sei', 'Sette', 'Otto', 'Nove', 'Dieci', 'Fante', 'Regina', 'Re', 'Asso'],
  plural: ['Due', 'Tre', 'Quattro', 'Cinque', 'Sei', 'Sette', 'Otto', 'Nove', 'Dieci', 'Fanti', 'Regine', 'Re', 'Assi'],
  al: ['al Due', 'al Tre', 'al Quattro', 'al Cinque', 'al Sei', 'al Sette', 'all’Otto', 'al Nove', 'al Dieci', 'al Fante', 'alla Regina', 'al Re', 'all’Asso'],
  h_royal: 'Scala reale', h_sflush: 'Scala colore {al}', h_quads: 'Poker di {p}', h_full: 'Full di {p} su {q}',
  h_flush: 'Colore {al}', h_straight: 'Scala {al}', h_trips: 'Tris di {p}', h_two_pair: 'Doppia coppia, {p} e {q}',
  h_pair: 'Coppia di {p}', h_high: 'Carta alta, {r}', h_hi: 'ALTO: {h}', h_lo: 'BASSO: {h}',
};

const HU = {
  hand_log: 'Leosztásnapló', guest: 'Vendég',
  err_seat_taken: 'Ez a hely foglalt.', err_table_full: 'Az asztal megtelt.', err_already_seated: 'Már ülsz ennél az asztalnál.',
  err_buy_in_out_of_range: 'A beülő kívül esik az asztal határain.', err_insufficient_balance: 'Az egyenleged kevés ehhez a beülőhöz.',
  err_not_seated: 'Nem ülsz ennél az asztalnál.', err_not_now: 'Most nem: várd meg a leosztás végét.', err_not_your_turn: 'Nem te következel.',
  err_illegal_action: 'Ez a lépés most nem megengedett.', err_stale: 'Ez a leosztás egy korábbi pillanatára szólt.', err_rate_limited: 'Túl sok üzenet: lassíts egy kicsit.',
  err_unavailable: 'A szerver foglalt: próbáld újra egy pillanat múlva.', err_unknown_table: 'Ez az asztal nem létezik (már).', err_forbidden: 'Nem megengedett.',
  title: 'stud', not_connected: 'nincs kapcsolat', connecting: 'kapcsolódás', connected: 'kapcsolódva', reconnecting: 'újrakapcsolódás',
  banner_lost: 'Megszakadt a kapcsolat, újrakapcsolódás…',
  your_name: 'A neved', start: 'Kezdés', balance: 'Egyenleg', tables: 'Asztalok', private_table: 'Privát asztal',
  table_id: 'asztal azonosító', invite_code: 'meghívókód', join: 'Belépés', last_hands: 'Utolsó leosztások', close: 'Bezárás',
  col_table: 'Asztal', col_game: 'Játék', col_stakes: 'Tétek', col_seats: 'Helyek', col_buy_in: 'Beülő',
  sit: 'Leülés', watch: 'Nézés', buy_in: 'beülő', private: 'privát', log_out: 'Kilépés', language: 'Nyelv',
  four_colour: 'Négyszínű pakli', sound: 'Hang', sound_on: 'Hang be', sound_off: 'Hang ki',
  filter_variant: 'Játék', filter_stakes: 'Tétek', filter_players: 'Játékosok', all: 'Mind',
  stakes_low: 'Kicsi', stakes_high: 'Nagy', players_some: 'Játékosokkal', players_free: 'Szabad hellyel', players_empty: 'Üres',
  no_tables: 'Nincs megfelelő asztal.', sort_by: 'Rendezés: {what}',
  sit_out: 'Szünet', sit_in: 'Visszaülés', leave: 'Távozás', take_seat: 'Leülés', top_up: 'Feltöltés', buy_in_top_up: 'Beülő / feltöltés',
  sit_here: 'Ülj ide', sit_here_n: 'Ülj ide ({n}. hely)', empty_seat: 'Üres hely {n}', seat_n: '{n}. hely', you: 'te',
  away: 'távol', sitting_out: 'szünetel', all_in: 'all-in', folded: 'dobott', mucked: 'bedobta', bring_in_tag: 'bring-in',
  wins: 'nyer {amount}', pot: 'Kassza', main_pot: 'Fő kassza', side_pot: '{n}. mellékkassza', community: 'Közös lap',
  waiting_players: 'Játékosokra vár', waiting_hand: 'A következő leosztásra vár', your_turn: 'Te következel', to_act: '{name} következik',
  time_bank: 'időbank', clock_split: '{s}mp + időbank {b}mp', clock_bank: 'időbank {s}mp', clock: '{s}mp',
  act_bring_in: 'Bring-in {amount}', act_complete: 'Kiegészítés {amount}-ra', act_bet: 'Tét {amount}', act_bet_big: 'Tét {amount} (nyitott pár)',
  act_raise: 'Emelés {amount}-ra', act_call: 'Megadás {amount}', act_call_plain: 'Megadás', act_check: 'Passz', act_fold: 'Dobás', act_show: 'Mutat', act_muck: 'Bedob',
  pre_check_fold: 'Passz/dobás', pre_check: 'Passz', pre_call_any: 'Bármit megad', pre_bring_in: 'Automatikus bring-in', pre_actions: 'Előre választott lépés',
  sat_out_timeout: 'Lejárt az időd, ezért szünetre kerültél. Amíg vissza nem jössz, nem kapsz lapot.',
  sat_out_self: 'Szünetelsz.', im_back: 'Visszajöttem',
  sat_out_busted: 'Elfogytak a zsetonjaid: tölts fel, majd ülj vissza.', no_low: 'nincs alsó',
  reconnect_try: 'Újrakapcsolódás: próbáld újra egy pillanat múlva.', unreachable: 'A szerver nem érhető el.', session_failed: 'Nem sikerült munkamenetet indítani ({status}).',
  table_closed: 'Az asztal bezárt; a zsetonjaid visszakerültek az egyenlegedre.', download_failed: 'A letöltés nem sikerült ({status}).',
  loading: 'Betöltés…', no_hands: 'Ebben a munkamenetben még nem volt leosztás.', hand_row: '#{number} · {variant} · {seat} · ',
  your_net: 'Nettó eredményed: {net} · elköteleződés {commitment}', awards: 'Nyeremények', action_h: 'Lépések', community_card: 'Közös lap',
  download_phh: 'PHH letöltése', download_text: 'Szöveg letöltése', hand_title: '#{number}. leosztás · {variant} · {when}',
  replay: 'Visszajátszás', replay_prev: 'Előző utca', replay_next: 'Következő utca', replay_first: 'Eleje', replay_last: 'Vége',
  step_start: 'Antek', step_showdown: 'Lapmutatás', step_end: 'Eredmény', step_of: '{i}. lépés / {n}',
  log_hand: '#{number}. leosztás', log_hand_progress: '#{number}. leosztás (folyamatban)', log_dealt_in: 'Lapot kap: {list}',
  log_ante: '{who} antét tesz: {amount}', log_bring_in: '{who} bring-in: {amount}', log_complete: '{who} kiegészít {amount}-ra',
  log_bet: '{who} tesz: {amount}', log_raise: '{who} emel {amount}-ra', log_call: '{who} megad: {amount}', log_check: '{who} passzol',
  log_fold: '{who} dob', log_all_in: '{line}, és all-in', log_uncalled: '{amount} meg nem adott tét visszajár: {who}',
  log_showdown: 'Lapmutatás', log_shows: '{who} mutat: {cards} ({hand})', log_may_show: '{who} mutathat vagy bedobhat', log_mucks: '{who} bedob',
  log_community: 'Közös lap: {card}', log_over: 'Vége a leosztásnak', log_street: '{street}: {deals}',
  log_wins: '{who} nyer: {amount}', log_wins_with: '{who} nyer: {amount}, ezzel: {hand}', log_high_half: 'felső fél', log_low_half: 'alsó fél', log_side: '{n}. mellékkassza',
  result_wins: '{who} nyer: {amount}', strength: 'A kezed: {hand}',
  variant_stud: 'Stud', variant_stud8: 'Stud Hi/Lo', variant_razz: 'Razz',
  street_third: '3. utca', street_fourth: '4. utca', street_fifth: '5. utca', street_sixth: '6. utca', street_seventh: '7. utca',
  stakes_line: 'ante {ante} · bring-in {bring_in}', turn_title: '● Te következel',
  card_back: 'Lefordított lap', card_name: '{suit} {rank}',
  suit_c: 'treff', suit_d: 'káró', suit_h: 'kőr', suit_s: 'pikk',
  rank: ['kettes', 'hármas', 'négyes', 'ötös', 'hatos', 'hetes', 'nyolcas', 'kilences', 'tízes', 'bubi', 'dáma', 'király', 'ász'],
  hand_rank: ['Kettes', 'Hármas', 'Négyes', 'Ötös', 'Hatos', 'Hetes', 'Nyolcas', 'Kilences', 'Tízes', 'Bubi', 'Dáma', 'Király', 'Ász'],
  plural: ['Kettesek', 'Hármasok', 'Négyesek', 'Ötösök', 'Hatosok', 'Hetesek', 'Nyolcasok', 'Kilencesek', 'Tízesek', 'Bubik', 'Dámák', 'Királyok', 'Ászok'],
  h_royal: 'Royal flös', h_sflush: 'Színsor, {r} magas', h_quads: 'Póker, {p}', h_full: 'Full, {p} és {q}',
  h_flush: 'Flöss, {r} magas', h_straight: 'Sor, {r} magas', h_trips: 'Drill, {p}', h_two_pair: 'Két pár, {p} és {q}',
  h_pair: 'Egy pár, {p}', h_high: 'Magas lap, {r}', h_hi: 'FELSŐ: {h}', h_lo: 'ALSÓ: {h}',
};

const DICTS = { en: EN, it: IT, hu: HU };
let lang = 'en';

/** The language to start with: a saved choice, else the browser's first supported language. */
export function pickLanguage(saved, browserLangs = []) {
  if (saved && DICTS[saved]) return saved;
  for (const l of browserLangs) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (DICTS[code]) return code;
  }
  return 'en';
}

export function setLanguage(code) {
  lang = DICTS[code] ? code : 'en';
}
export const language = () => lang;

/** A translated message, `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  const raw = DICTS[lang][key] ?? EN[key] ?? key;
  return String(raw).replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
}

// ---- money ---------------------------------------------------------------------------------

// Chips on the wire are integer cents. A table shows them as dollars and cents (the default)
// or as chips, if the server's table state ever says so (`display: "chips"`).
let moneyMode = 'cash';
export function setMoneyMode(mode) {
  moneyMode = mode === 'chips' ? 'chips' : 'cash';
}
export const moneyModeNow = () => moneyMode;

/** "$218.90", "$2" (whole dollars without cents); chips: "21,890" (locale separators). */
export function money(cents, mode = moneyMode, code = lang) {
  const locale = LOCALES[code] || 'en-US';
  const n = Number(cents) || 0;
  if (mode === 'chips') return new Intl.NumberFormat(locale).format(n);
  const whole = n % 100 === 0;
  return new Intl.NumberFormat(locale, {
    style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2,
  }).format(n / 100);
}

/** A signed net result: "+$1.20", "-$0.40". */
export function signedMoney(cents, mode = moneyMode, code = lang) {
  return `${cents > 0 ? '+' : cents < 0 ? '-' : ''}${money(Math.abs(cents), mode, code)}`;
}

/** "$2/$4": the small and big bet. */
export const limits = (c, mode = moneyMode) => `${money(c.small_bet, mode)}/${money(c.big_bet, mode)}`;
export const stakesLine = (c, mode = moneyMode) => t('stakes_line', { ante: money(c.ante, mode), bring_in: money(c.bring_in, mode), small: money(c.small_bet, mode), big: money(c.big_bet, mode) });

/** The table's display setting, if the server sends one (TableState/TableSummary `display`). */
export const displayOf = (x) => (x?.display === 'chips' || x?.chips_display === true ? 'chips' : 'cash');

// ---- cards and hand names ------------------------------------------------------------------

const RANKS = '23456789TJQKA';
const SUIT_SYMBOLS = { c: '♣', d: '♦', h: '♥', s: '♠' };

/** "Ace of spades" (a screen reader's name for a card); a back is "Face-down card". */
export function cardName(card, code = lang) {
  const prev = lang;
  lang = code;
  try {
    if (!card) return t('card_back');
    const rank = DICTS[code].rank[RANKS.indexOf(card[0])];
    return t('card_name', { rank, suit: t(`suit_${card[1]}`) });
  } finally {
    lang = prev;
  }
}

/** A card as short text: "A♠". */
export const cardText = (card) => (card ? `${card[0] === 'T' ? '10' : card[0]}${SUIT_SYMBOLS[card[1]]}` : '??');

/** The server's English hand names ("Two pair, Queens and Nines", "HI: ...; LO: 8-6-4-2-A")
 *  in the page's language. This is wording only: the server decides what the hand is. A name
 *  this does not recognise stays as sent. */
export function translateHand(desc, code = lang) {
  if (!desc || code === 'en') return desc;
  const d = DICTS[code];
  const fill = (key, p) => d[key].replace(/\{(\w+)\}/g, (m, k) => p[k] ?? m);
  const name = (w) => EN.rank.indexOf(w);
  const plural = (w) => EN.plural.indexOf(w);
  const R = (i) => (d.hand_rank || d.rank)[i];
  const P = (i) => d.plural[i];
  const one = (text) => {
    let m;
    let rest = '';
    const withRest = (s) => (rest ? `${s}, ${rest}` : s);
    if (text === 'Royal flush') return d.h_royal;
    if ((m = /^Straight flush, (\w+) high$/.exec(text)) && name(m[1]) >= 0) return fill('h_sflush', { r: R(name(m[1])), al: d.al?.[name(m[1])] });
    if ((m = /^Flush, (\w+) high$/.exec(text)) && name(m[1]) >= 0) return fill('h_flush', { r: R(name(m[1])), al: d.al?.[name(m[1])] });
    if ((m = /^Straight, (\w+) high$/.exec(text)) && name(m[1]) >= 0) return fill('h_straight', { r: R(name(m[1])), al: d.al?.[name(m[1])] });
    if ((m = /^High card, (\w+)$/.exec(text)) && name(m[1]) >= 0) return fill('h_high', { r: R(name(m[1])) });
    if ((m = /^Full house, (\w+) full of (\w+)$/.exec(text)) && plural(m[1]) >= 0 && plural(m[2]) >= 0) return fill('h_full', { p: P(plural(m[1])), q: P(plural(m[2])) });
    // Low hands add the kickers after a comma ("Pair of Twos, K-Q-J"): kept as they are.
    if ((m = /^(.*), ([2-9TJQKA](?:-[2-9TJQKA0-9]+)*)$/.exec(text))) [text, rest] = [m[1], m[2]];
    if ((m = /^Four of a kind, (\w+)$/.exec(text)) && plural(m[1]) >= 0) return withRest(fill('h_quads', { p: P(plural(m[1])) }));
    if ((m = /^Three of a kind, (\w+)$/.exec(text)) && plural(m[1]) >= 0) return withRest(fill('h_trips', { p: P(plural(m[1])) }));
    if ((m = /^Two pair, (\w+) and (\w+)$/.exec(text)) && plural(m[1]) >= 0 && plural(m[2]) >= 0) return withRest(fill('h_two_pair', { p: P(plural(m[1])), q: P(plural(m[2])) }));
    if ((m = /^Pair of (\w+)$/.exec(text)) && plural(m[1]) >= 0) return withRest(fill('h_pair', { p: P(plural(m[1])) }));
    return rest ? `${text}, ${rest}` : text;
  };
  return desc.split('; ').map((part) => {
    let m;
    if ((m = /^HI: (.*)$/.exec(part))) return fill('h_hi', { h: one(m[1]) });
    if ((m = /^LO: (.*)$/.exec(part))) return fill('h_lo', { h: one(m[1]) });
    return one(part);
  }).join('; ');
}

/** A hand code from the server (`{category, ranks}`: `ranks` are rank symbols, the naming
 *  ranks first) in words. `low`: an ace-to-five low, said as it reads ("8-6-4-2-A", "Pair of
 *  Twos, K-Q-J"). Wording only: the server's evaluator decided the hand. */
export function codeName(c, low = false, code = lang) {
  if (!c || typeof c.ranks !== 'string') return '';
  const d = DICTS[code];
  const fill = (key, p) => (d[key] ?? EN[key]).replace(/\{(\w+)\}/g, (m, k) => p[k] ?? m);
  const at = (i) => RANKS.indexOf(c.ranks[i]);
  const r = (i) => (d.hand_rank || d.rank)[at(i)];
  const p = (i) => d.plural[at(i)];
  const al = (i) => d.al?.[at(i)];
  const run = (from) => [...c.ranks.slice(from)].map((x) => (x === 'T' ? '10' : x)).join('-');
  const rest = (name, from) => (low && c.ranks.length > from ? `${name}, ${run(from)}` : name);
  switch (c.category) {
    case 'straight_flush': return c.ranks[0] === 'A' ? d.h_royal : fill('h_sflush', { r: r(0), al: al(0) });
    case 'four_of_a_kind': return rest(fill('h_quads', { p: p(0) }), 1);
    case 'full_house': return fill('h_full', { p: p(0), q: p(1) });
    case 'flush': return fill('h_flush', { r: r(0), al: al(0) });
    case 'straight': return fill('h_straight', { r: r(0), al: al(0) });
    case 'three_of_a_kind': return rest(fill('h_trips', { p: p(0) }), 1);
    case 'two_pair': return rest(fill('h_two_pair', { p: p(0), q: p(1) }), 2);
    case 'one_pair': return rest(fill('h_pair', { p: p(0) }), 1);
    case 'high_card': return low ? run(0) : fill('h_high', { r: r(0) });
    default: return '';
  }
}

/** A hand strength (`{high, low}` codes: `hand_strength` on `your_turn`, `hand_code` on
 *  shown and award events) in words: the high hand, the low, or both (stud8). */
export function strengthName(s, variant = null, code = lang) {
  if (!s) return '';
  const high = s.high ? codeName(s.high, false, code) : '';
  const low = s.low ? codeName(s.low, true, code) : '';
  const d = DICTS[code];
  const fill = (key, h) => (d[key] ?? EN[key]).replace('{h}', h);
  if (high && low) return `${fill('h_hi', high)}; ${fill('h_lo', low)}`;
  if (high && variant === 'stud8') return `${high}; ${d.no_low ?? EN.no_low}`;
  return high || low;
}

// ---- seats around the table ----------------------------------------------------------------

/** Where seat `n` is drawn: position 0 is the bottom centre (the viewer's own seat), then
 *  clockwise round the table. An observer sees seat 1 at the bottom. */
export function seatPosition(n, viewerSeat, count) {
  const base = viewerSeat ?? 1;
  return (((n - base) % count) + count) % count;
}

/** The point of position `pos` of `count` on the oval, in percent of the table area, and the
 *  direction to the centre (for the bet in front of the seat). */
export function seatPoint(pos, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * pos) / count; // 90 degrees = straight down
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return { left: 50 + 40 * cos, top: 50 + 38 * sin, dx: -cos, dy: -sin };
}

// ---- pre-actions ---------------------------------------------------------------------------

/** The action a ticked pre-action box answers a prompt with, or null (show the buttons).
 *  Only ever one of the prompt's own legal actions: the server decides what is legal. */
export function preActionChoice(pre, legal) {
  const find = (kind) => legal.find((a) => a.kind === kind) ?? null;
  if (legal.some((a) => a.kind === 'show' || a.kind === 'muck')) return null;
  switch (pre) {
    case 'check_fold': return find('check') ?? find('fold');
    case 'check': return find('check');
    case 'call_any': return find('call') ?? find('check');
    case 'bring_in': return find('bring_in');
    default: return null;
  }
}

// ---- hand events: the page's copy of the hand, and the log's words -------------------------

/** Applies one event to a HandView, as the engine does (view.rs): `bet` is this street's
 *  chips, `committed` the hand's (antes included). False if the event names a seat this view
 *  does not have. The pots are the server's (`pots` on the event frame), never added up here. */
export function applyEvent(view, ev, pots = null) {
  const seat = view.seats.find((s) => s.seat === ev.seat);
  if (ev.seat != null && !seat) return false;
  const pay = (amount) => {
    seat.stack -= amount;
    seat.bet += amount;
    seat.committed += amount;
  };
  switch (ev.event) {
    case 'hand_started':
      view.seats = ev.seats.map(([n, stack]) => ({
        seat: n, stack, bet: 0, committed: 0, folded: false, all_in: false, cards: [],
        shown: false, mucked: false, hand: null, won: 0,
      }));
      break;
    case 'ante': seat.stack -= ev.amount; seat.committed += ev.amount; break;
    case 'dealt': seat.cards.push({ card: ev.card ?? null, up: ev.up }); view.street = ev.street; break;
    case 'community': view.community = ev.card; break;
    case 'street_started':
      view.street = ev.street;
      view.current_bet = 0;
      for (const s of view.seats) { s.bet = 0; s.brought_in = false; }
      break;
    case 'bring_in': pay(ev.amount); seat.brought_in = true; break;
    case 'call': pay(ev.amount); break;
    case 'complete': case 'bet': case 'raise': pay(ev.to - seat.bet); break;
    case 'fold': seat.folded = true; break;
    case 'uncalled': seat.stack += ev.amount; seat.bet -= ev.amount; seat.committed -= ev.amount; break;
    case 'showdown': view.phase = 'showdown'; break;
    case 'shown':
      // Every card face up now; the up/down positions stay (down cards are drawn lower).
      seat.cards = ev.cards.map((card, i) => ({ card, up: seat.cards[i]?.up ?? (i >= 2 && i <= 5) }));
      seat.shown = true;
      seat.hand = ev.description;
      seat.handCode = ev.code ?? null;
      break;
    case 'mucked': seat.mucked = true; break;
    case 'award': seat.stack += ev.amount; seat.won += ev.amount; seat.winning = ev.hand ?? seat.winning ?? null; break;
    case 'hand_ended':
      view.phase = 'over';
      view.to_act = null;
      for (const s of view.seats) { s.bet = 0; s.committed = 0; s.brought_in = false; }
      break;
    default: break;
  }
  for (const s of view.seats) s.all_in = !s.folded && s.stack === 0 && view.phase !== 'over';
  view.current_bet = Math.max(0, ...view.seats.map((s) => s.bet));
  if (Array.isArray(pots)) view.pots = pots;
  if (view.phase === 'over') view.pots = [];
  return true;
}

/** A fresh, empty view for a hand of `variant`. */
export const emptyView = (variant) => ({ variant, street: 'third', phase: 'betting', seats: [], pots: [], community: null, current_bet: 0, legal_actions: [] });

const streetName = (s) => t(`street_${s}`);
const dealtText = (cards) => cards.map((c) => (c.up ? cardText(c.card) : `[${cardText(c.card)}]`)).join(' ').replaceAll('] [', ' ');

/** The cards of a street are announced on one line once the street's dealing is done. */
function flushDeals(ctx, who) {
  if (!ctx.deals.length) return [];
  const deals = ctx.deals;
  ctx.deals = [];
  const street = deals[0].street;
  const bySeat = new Map();
  for (const d of deals) bySeat.set(d.seat, [...(bySeat.get(d.seat) || []), d]);
  return [() => t('log_street', { street: streetName(street), deals: [...bySeat].map(([seat, cards]) => `${who(seat)} ${dealtText(cards)}`).join(' · ') })];
}

/** An award as words: "Ann wins $3.60 with Two pair, Queens and Nines (high half)". */
export function awardLine(a, who) {
  return () => {
    const where = [];
    if (a.half === 'high') where.push(t('log_high_half'));
    if (a.half === 'low') where.push(t('log_low_half'));
    if (a.pot > 0) where.push(t('log_side', { n: a.pot }));
    const params = { who: who(a.seat), amount: money(a.amount), hand: a.code ? strengthName(a.code) : translateHand(a.hand) };
    const line = t(a.hand ? 'log_wins_with' : 'log_wins', params);
    return where.length ? `${line} (${where.join(', ')})` : line;
  };
}

/** One event as dealer-chat lines, each a function giving the text in the language of the
 *  moment (so the log can be re-read after a language switch). `who(seat)` names a seat;
 *  `ctx.deals` collects the cards of the street being dealt. */
export function describeEvent(ev, ctx, who) {
  const name = ev.seat != null ? who(ev.seat) : '';
  const allIn = (fn) => (ev.all_in ? () => t('log_all_in', { line: fn() }) : fn);
  switch (ev.event) {
    case 'hand_started': return [() => t('log_dealt_in', { list: ev.seats.map(([s, stack]) => `${who(s)} (${money(stack)})`).join(', ') })];
    case 'ante': return [allIn(() => t('log_ante', { who: name, amount: money(ev.amount) }))];
    case 'dealt': ctx.deals.push(ev); return [];
    case 'community': return [...flushDeals(ctx, who), () => t('log_community', { card: cardText(ev.card) })];
    case 'street_started': return flushDeals(ctx, who);
    case 'bring_in': return [allIn(() => t('log_bring_in', { who: name, amount: money(ev.amount) }))];
    case 'complete': return [allIn(() => t('log_complete', { who: name, amount: money(ev.to) }))];
    case 'bet': return [allIn(() => t('log_bet', { who: name, amount: money(ev.to) }))];
    case 'raise': return [allIn(() => t('log_raise', { who: name, amount: money(ev.to) }))];
    case 'call': return [allIn(() => t('log_call', { who: name, amount: money(ev.amount) }))];
    case 'check': return [() => t('log_check', { who: name })];
    case 'fold': return [() => t('log_fold', { who: name })];
    case 'uncalled': return [() => t('log_uncalled', { who: name, amount: money(ev.amount) })];
    case 'showdown': return [...flushDeals(ctx, who), () => t('log_showdown')];
    case 'shown': return [() => t('log_shows', { who: name, cards: ev.cards.map(cardText).join(' '), hand: ev.code ? strengthName(ev.code) : translateHand(ev.description) })];
    case 'show_or_muck': return [() => t('log_may_show', { who: name })];
    case 'mucked': return [() => t('log_mucks', { who: name })];
    case 'award': return [awardLine(ev, who)];
    case 'hand_ended': return [...flushDeals(ctx, who), () => t('log_over')];
    default: return [];
  }
}

export function lineClass(ev) {
  if (ev.event === 'award') return 'win';
  if (ev.event === 'shown' || ev.event === 'showdown') return 'showdown';
  if (ev.event === 'dealt' || ev.event === 'street_started' || ev.event === 'community') return 'deal';
  return '';
}

/** A seat's name for the log: the name, else "Seat 3". */
export const namer = (names) => (seat) => names?.[seat] ?? t('seat_n', { n: seat });

// ---- the replayer --------------------------------------------------------------------------

/** A finished hand's events cut into steps a player steps through, street by street: each
 *  street's deal and betting, then the showdown, then the result. Each step is the number of
 *  events it shows (events[0..end]) and its label (a street, 'step_showdown', 'step_end'). */
export function replaySteps(events) {
  const steps = [];
  let street = 'third';
  let showdownAt = -1;
  events.forEach((ev, i) => {
    if (ev.event === 'street_started' || ev.event === 'dealt') street = ev.street;
    if (ev.event === 'street_ended') steps.push({ end: i + 1, label: ev.street });
    if (ev.event === 'showdown') showdownAt = i;
  });
  const firstAward = events.findIndex((ev) => ev.event === 'award');
  const last = steps.at(-1)?.end ?? 0;
  if (showdownAt >= 0 && firstAward > showdownAt && firstAward > last) steps.push({ end: firstAward, label: 'step_showdown' });
  else if (firstAward > last && showdownAt < 0) steps.push({ end: firstAward, label: street });
  if (!steps.length || steps.at(-1).end < events.length) steps.push({ end: events.length, label: 'step_end' });
  return steps;
}

/** The hand as it stood after `count` events: the view and the log lines so far. */
export function replayState(events, count, variant = 'stud') {
  const view = emptyView(variant);
  const ctx = { deals: [] };
  const lines = [];
  for (const ev of events.slice(0, count)) {
    applyEvent(view, ev);
    lines.push(ev);
  }
  // The chips in the middle: what everyone has put in so far, or (at the end) what was won.
  const pot = view.seats.reduce((sum, s) => sum + s.committed, 0) || view.seats.reduce((sum, s) => sum + s.won, 0);
  return { view, ctx, events: lines, pot };
}

// =============================================================================================
// The page (browser only from here on).

const $ = (id) => document.getElementById(id);
const store = globalThis.localStorage;

/** Creates an element. `attrs`: text, class, on<event> handlers, anything else as an attribute
 *  (`true` becomes "true"; false, null and undefined leave the attribute out). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key === 'style') node.style.cssText = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? 'true' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

const now = () => performance.now();
const seconds = (ms) => Math.ceil(ms / 1000);
const variantName = (v) => t(`variant_${v}`);
const readJson = (key, fallback) => {
  try { return JSON.parse(store.getItem(key)) ?? fallback; } catch { return fallback; }
};

/** An error in the page's language: by its code, else the server's message. */
const errorText = (m) => (DICTS[lang][`err_${m.code}`] || (lang === 'en' && EN[`err_${m.code}`]) ? t(`err_${m.code}`) : m.message);

let noticeTimer = null;
/** A short message under the top bar (errors, table closed, ...). */
function notice(text) {
  const box = $('notice');
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---- state ---------------------------------------------------------------------------------

const prefs = { lang: null, fourColour: false, sound: true, lobby: { sort: 'name', dir: 1, variant: 'all', stakes: 'all', players: 'all' }, ...readJson(PREFS_KEY, {}) };
const savePrefs = () => store.setItem(PREFS_KEY, JSON.stringify(prefs));

const state = {
  token: store?.getItem(TOKEN_KEY) ?? null,
  me: null,                 // the last `welcome`: player_id, session_id, name, balance
  lobby: [],                // GET /api/tables
  privates: readJson(PRIVATE_KEY, {}),
  pending: null,            // {tableId, code}: a watch waiting for its first snapshot
  left: new Set(),          // tables left on this page: never pulled back into them
  table: null,              // the table on screen, see enterTable()
  prompt: null,             // our turn: {handId, seq, legal, bankMs, sent}
  pre: null,                // the ticked pre-action box: {kind, bet} (bet: the bet level when ticked)
  autoBringIn: false,       // the "auto-post bring-in" box (kept across hands)
  lastHands: [],            // the LAST HAND list
  report: null,             // the LAST HAND report on screen, with its replay position
  handNames: readJson(NAMES_KEY, {}),
  timedOut: false,          // the clock acted for us in the hand just played
};

const savePrivates = () => store.setItem(PRIVATE_KEY, JSON.stringify(state.privates));

// ---- the connection ------------------------------------------------------------------------

const conn = {
  ws: null,
  retries: 0,
  retryTimer: null,
  pingTimer: null,
  awaitingPong: false,
  resubscribe: false, // the next `welcome` follows a (re)connect: get the table back
  loggingOut: false,
  nextId: 1,
  requests: new Map(), // request_id -> {kind, ...}: what an ack or error answers
  welcomed: [],        // resolvers waiting for the next `welcome`
};

function setStatus(word) {
  const status = $('status');
  status.textContent = t(word === 'idle' ? 'not_connected' : word);
  status.dataset.state = word;
  const banner = $('banner');
  banner.hidden = word !== 'reconnecting';
  banner.textContent = t('banner_lost');
}

function connect() {
  if (conn.ws) return;
  clearTimeout(conn.retryTimer);
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  conn.ws = ws;
  if (!$('status').dataset.state.startsWith('reconnecting')) setStatus('connecting');
  ws.onopen = () => {
    conn.resubscribe = true;
    conn.awaitingPong = false;
    if (state.token) sendHello();
    conn.pingTimer = setInterval(keepAlive, PING_MS);
  };
  ws.onmessage = (e) => onFrame(e.data);
  ws.onerror = () => {}; // `close` follows and reconnects
  ws.onclose = () => {
    clearInterval(conn.pingTimer);
    conn.ws = null;
    conn.requests.clear();
    if (state.prompt) state.prompt.sent = false;
    if (conn.loggingOut) {
      conn.loggingOut = false;
      setStatus('idle');
      return;
    }
    setStatus('reconnecting');
    scheduleReconnect();
  };
}

/** Back off 0.5 s, 1 s, 2 s ... 5 s; while the browser says it is offline, try again as soon
 *  as it is back (or every 5 s, in case that event never comes). */
function scheduleReconnect() {
  if (!navigator.onLine) window.addEventListener('online', connect, { once: true });
  const delay = navigator.onLine ? Math.min(5000, 500 * 2 ** conn.retries) : 5000;
  conn.retries += 1;
  conn.retryTimer = setTimeout(connect, delay);
}

/** A ping every 15 s; no pong by the next one means the socket is dead: close and reconnect. */
function keepAlive() {
  if (conn.awaitingPong) return conn.ws?.close();
  conn.awaitingPong = send({ type: 'ping', nonce: Date.now() });
}

/** Sends a message; `request` (e.g. {kind: 'sit'}) gives it a request_id to match the reply. */
function send(msg, request) {
  if (!conn.ws || conn.ws.readyState !== WebSocket.OPEN) return false;
  if (request) {
    msg.request_id = `r${conn.nextId++}`;
    conn.requests.set(msg.request_id, request);
  }
  conn.ws.send(JSON.stringify(msg));
  return true;
}

/** `hello` authenticates a socket; said again on an open socket it refreshes the balance. */
function sendHello() {
  send({ type: 'hello', version: PROTOCOL_VERSION, token: state.token });
}

function onFrame(text) {
  let msg;
  try { msg = JSON.parse(text); } catch { return; }
  const handler = HANDLERS[msg.type];
  try {
    handler?.(msg);
  } catch (err) {
    // A frame our copy of the table cannot take (it missed something): start again from a
    // snapshot rather than break the page.
    console.debug('stud: resyncing after', msg.type, err);
    if (state.table) send({ type: 'snapshot', table_id: state.table.id });
  }
}

const HANDLERS = {
  welcome: onWelcome,
  ack: onAck,
  error: onError,
  pong: () => { conn.awaitingPong = false; },
  snapshot: onSnapshot,
  hand_started: (m) => forTable(m, onHandStarted),
  event: (m) => forTable(m, onEvent),
  turn: (m) => forTable(m, onTurn),
  your_turn: (m) => forTable(m, onYourTurn),
  hand_result: (m) => forTable(m, onHandResult),
  table_closed: onTableClosed,
  last_hands: onLastHands,
  last_hand: onLastHand,
};

function onWelcome(m) {
  state.me = m;
  conn.retries = 0;
  setStatus('connected');
  renderMe();
  for (const resolve of conn.welcomed.splice(0)) resolve(true);
  if (conn.resubscribe) {
    conn.resubscribe = false;
    resubscribe();
  }
}

/** After a reconnect: a seated player is put back by the server (snapshot, then the prompt);
 *  we ask for a snapshot anyway in case the seat is gone. An observer joins again. */
function resubscribe() {
  const t = state.table;
  if (!t) return;
  if (t.info?.your_seat) send({ type: 'snapshot', table_id: t.id });
  else send({ type: 'join_table', table_id: t.id, invite_code: t.code ?? null }, { kind: 'rejoin', tableId: t.id });
}

function onAck(m) {
  const req = conn.requests.get(m.request_id);
  conn.requests.delete(m.request_id);
  if (!req) return;
  if (req.kind === 'sit' && state.table?.id !== req.tableId) enterTable(req.tableId, req.code);
  if (['sit', 'leave', 'top_up'].includes(req.kind)) sendHello(); // the balance changed
}

function onError(m) {
  const req = conn.requests.get(m.request_id);
  conn.requests.delete(m.request_id);
  if (!req) return onSessionError(m);
  if (req.kind === 'act') return onActError(m, req);
  if (req.kind === 'sit' && m.code === 'already_seated') {
    if (state.table?.id !== req.tableId) enterTable(req.tableId, req.code);
    send({ type: 'snapshot', table_id: req.tableId });
    return;
  }
  if (req.kind === 'sit' && state.table?.id !== req.tableId) {
    // `sit` subscribed this socket to the table first: stop watching it again.
    send({ type: 'leave', table_id: req.tableId });
  }
  if (req.kind === 'watch') state.pending = null;
  if (req.kind === 'rejoin' && state.table?.id === req.tableId) {
    state.table = null; // the table is gone (closed, or we may no longer watch it)
    showView('lobby');
  }
  if (req.kind === 'history') return onHistoryError(m, req);
  notice(errorText(m));
}

/** Errors without a request: the handshake, or the server's limits. */
function onSessionError(m) {
  if (m.code === 'not_authenticated' || m.code === 'forbidden') {
    store.removeItem(TOKEN_KEY);
    state.token = null;
    state.me = null;
    renderMe();
    for (const resolve of conn.welcomed.splice(0)) resolve(false);
  } else if (m.code === 'unavailable' && !state.me) {
    setTimeout(sendHello, 2000);
  } else if (m.code === 'rate_limited' && state.prompt?.sent) {
    state.prompt.sent = false; // our action was dropped: offer it again
    renderActions();
  }
  notice(errorText(m));
}

// ---- session and lobby ---------------------------------------------------------------------

/** POST /api/sessions, then hello on the socket. Resolves true once welcomed. The token is
 *  kept in localStorage: a new tab, or the next day, continues as the same player. */
async function login(name) {
  let res;
  let body = {};
  try {
    res = await fetch('/api/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    body = await res.json();
  } catch {
    notice(t('unreachable'));
    return false;
  }
  if (!res.ok) {
    notice(body.message || t('session_failed', { status: res.status }));
    return false;
  }
  state.token = body.token;
  store.setItem(TOKEN_KEY, body.token);
  const welcomed = new Promise((resolve) => conn.welcomed.push(resolve));
  if (conn.ws?.readyState === WebSocket.OPEN) sendHello();
  else connect();
  return welcomed;
}

/** Log out: leave the table on screen, forget the token, close the socket. */
function logout() {
  if (state.table) leaveTable();
  store.removeItem(TOKEN_KEY);
  state.token = null;
  state.me = null;
  state.privates = {};
  savePrivates();
  conn.loggingOut = Boolean(conn.ws);
  clearTimeout(conn.retryTimer);
  conn.ws?.close();
  renderMe();
  showView('lobby');
}

/** A session before sitting or watching: the one we have, or a new guest. */
async function ensureSession() {
  if (state.me) return true;
  if (state.token) {
    const welcomed = new Promise((resolve) => conn.welcomed.push(resolve));
    connect();
    return welcomed;
  }
  return login($('name').value.trim() || t('guest'));
}

function renderMe() {
  const me = state.me;
  $('login').hidden = Boolean(me);
  $('balance').parentElement.hidden = !me;
  $('balance').textContent = me ? money(me.balance, 'cash') : '';
  $('balance').dataset.amount = me ? String(me.balance) : '';
  $('who').textContent = me ? me.name : '';
  $('last-hand-open').disabled = !me;
  $('logout').hidden = !me;
}

async function refreshLobby() {
  try {
    const res = await fetch('/api/tables');
    if (res.ok) state.lobby = await res.json();
  } catch {
    return; // offline: keep the last list
  }
  renderLobby();
}

/** Every table we can list: the public ones, then private ones joined with a code. */
function lobbyTables() {
  const list = state.lobby.map((t) => ({ ...t, code: null }));
  for (const [id, p] of Object.entries(state.privates)) {
    if (!list.some((t) => t.id === id)) list.push({ ...p.summary, id, code: p.code });
  }
  return list;
}

const LOBBY_COLUMNS = [
  { key: 'name', label: 'col_table' },
  { key: 'variant', label: 'col_game' },
  { key: 'stakes', label: 'col_stakes' },
  { key: 'seats', label: 'col_seats' },
  { key: 'buy_in', label: 'col_buy_in' },
];

/** The lobby's filters and order, kept in the preferences (so the order stays put). */
export function lobbyView(tables, opts) {
  const big = (x) => x.config.big_bet;
  const bigs = [...new Set(tables.map(big))].sort((a, b) => a - b);
  const median = bigs[Math.floor((bigs.length - 1) / 2)] ?? 0;
  const keep = tables.filter((x) =>
    (opts.variant === 'all' || x.variant === opts.variant)
    && (opts.stakes === 'all' || (opts.stakes === 'low' ? big(x) <= median : big(x) > median))
    && (opts.players === 'all'
      || (opts.players === 'some' && x.seats_taken > 0)
      || (opts.players === 'free' && x.seats_taken < (x.seats ?? 8))
      || (opts.players === 'empty' && x.seats_taken === 0)));
  const value = {
    name: (x) => x.name.toLowerCase(), variant: (x) => x.variant, stakes: big,
    seats: (x) => x.seats_taken, buy_in: (x) => x.min_buy_in,
  }[opts.sort] ?? ((x) => x.name);
  // A stable sort with the table id as the last key: the order never jumps between refreshes.
  return keep.sort((a, b) => {
    const [va, vb] = [value(a), value(b)];
    if (va < vb) return -opts.dir;
    if (va > vb) return opts.dir;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

function renderLobbyHead() {
  const o = prefs.lobby;
  $('lobby-head').replaceChildren(...LOBBY_COLUMNS.map((c) => el('th', {
    scope: 'col', 'aria-sort': o.sort === c.key ? (o.dir > 0 ? 'ascending' : 'descending') : 'none',
  }, el('button', {
    type: 'button', class: 'sort', 'data-testid': 'lobby-sort', 'data-key': c.key,
    onclick: () => {
      o.dir = o.sort === c.key ? -o.dir : 1;
      o.sort = c.key;
      savePrefs();
      renderLobbyHead();
      renderLobby();
    },
  }, t(c.label), el('span', { 'aria-hidden': 'true', class: 'sort-mark', text: o.sort === c.key ? (o.dir > 0 ? ' ▲' : ' ▼') : '' }))),
  el('th', { scope: 'col' }, el('span', { class: 'sr-only', text: t('sit') }))));
  const fill = (id, options, value) => {
    const select = $(id);
    select.replaceChildren(...options.map(([v, label]) => el('option', { value: v, text: label })));
    select.value = value;
  };
  fill('filter-variant', [['all', t('all')], ...['stud', 'stud8', 'razz'].map((v) => [v, variantName(v)])], o.variant);
  fill('filter-stakes', [['all', t('all')], ['low', t('stakes_low')], ['high', t('stakes_high')]], o.stakes);
  fill('filter-players', [['all', t('all')], ['some', t('players_some')], ['free', t('players_free')], ['empty', t('players_empty')]], o.players);
}

/** Updates the table rows in place, so a buy-in being typed is not lost on a refresh. */
function renderLobby() {
  const body = $('table-rows');
  const old = new Map([...body.children].map((row) => [row.dataset.tableId, row]));
  const shown = lobbyView(lobbyTables(), prefs.lobby);
  const rows = shown.map((x) => {
    const row = old.get(x.id) || tableRow(x);
    old.delete(x.id);
    const cells = row.children;
    cells[0].textContent = x.code ? `${x.name} (${t('private')})` : x.name;
    cells[1].textContent = variantName(x.variant);
    const mode = displayOf(x);
    cells[2].textContent = limits(x.config, mode);
    cells[2].title = stakesLine(x.config, mode);
    cells[3].textContent = `${x.seats_taken}/${x.seats ?? 8}`;
    cells[3].title = (x.players || []).join(', ');
    row.querySelector('.range').textContent = ` (${money(x.min_buy_in, mode)}–${money(x.max_buy_in, mode)})`;
    row.querySelector('.as-money').textContent = ` = ${money(Number(row.querySelector('[data-testid=buy-in]').value), mode)}`;
    row.querySelector('[data-testid=sit]').textContent = t('sit');
    row.querySelector('[data-testid=watch]').textContent = t('watch');
    row.querySelector('[data-testid=buy-in]').setAttribute('aria-label', `${t('buy_in')} ${x.name}`);
    return row;
  });
  for (const row of old.values()) row.remove();
  $('no-tables').hidden = rows.length > 0 || !state.lobby.length;
  // Re-insert only when the order changed (moving a row would take the focus from its input).
  if (rows.length !== body.children.length || rows.some((row, i) => body.children[i] !== row)) body.replaceChildren(...rows);
}

function tableRow(x) {
  // The buy-in is typed in chips (cents), as the protocol counts; its money value is shown beside.
  const buyIn = el('input', {
    'data-testid': 'buy-in', type: 'number', min: x.min_buy_in, max: x.max_buy_in, step: 1, value: x.min_buy_in,
    'aria-label': t('buy_in'),
    oninput: (e) => { e.target.nextElementSibling.textContent = ` = ${money(Number(e.target.value), displayOf(x))}`; },
  });
  return el('tr', { 'data-testid': 'table-row', 'data-table-id': x.id, 'data-variant': x.variant },
    el('td'), el('td'), el('td', { class: 'num' }), el('td', { class: 'num' }),
    el('td', {}, buyIn, el('span', { class: 'as-money', 'aria-live': 'polite' }), el('span', { class: 'range' })),
    el('td', { class: 'row-buttons' },
      el('button', { 'data-testid': 'sit', type: 'button', text: t('sit'), onclick: () => takeSeat(x.id, Number(buyIn.value), x.code) }),
      el('button', { 'data-testid': 'watch', type: 'button', text: t('watch'), onclick: () => watch(x.id, x.code) })));
}

/** `sit` with no seat number: the first free seat. We switch to the table on the ack. */
async function takeSeat(tableId, buyIn, code, seat = null) {
  if (!(await ensureSession())) return;
  state.left.delete(tableId);
  send({ type: 'sit', table_id: tableId, seat, buy_in: buyIn, invite_code: code ?? null }, { kind: 'sit', tableId, code });
}

/** `join_table` (watch); we switch to the table on its snapshot. */
async function watch(tableId, code) {
  if (!(await ensureSession())) return;
  state.left.delete(tableId);
  state.pending = { tableId, code };
  send({ type: 'join_table', table_id: tableId, invite_code: code ?? null }, { kind: 'watch', tableId });
}

function showView(name) {
  $('lobby').hidden = name !== 'lobby';
  $('table').hidden = name !== 'table';
  $('action-bar').hidden = name !== 'table';
  document.body.dataset.view = name;
  if (name === 'lobby') refreshLobby();
}

// ---- the table: state from snapshots and events --------------------------------------------

function enterTable(id, code) {
  state.pending = null;
  state.prompt = null;
  state.pre = null;
  state.timedOut = false;
  state.table = { id, code: code ?? null, seq: 0, info: null, hand: null, resyncing: false, log: { deals: [], entries: [] }, result: null };
  $('log').replaceChildren();
  $('table-buy-in').value = '';
  $('result').hidden = true;
  renderActions();
  showView('table');
}

function leaveTable() {
  const t = state.table;
  if (!t) return;
  send({ type: 'leave', table_id: t.id }, { kind: 'leave' });
  state.left.add(t.id);
  state.table = null;
  state.prompt = null;
  renderActions();
  showView('lobby');
}

function onTableClosed(m) {
  if (state.table?.id !== m.table_id) return;
  state.table = null;
  state.prompt = null;
  notice(t('table_closed'));
  sendHello();
  showView('lobby');
}

/** Frames about the table on screen, in sequence: a gap means we missed a broadcast, so we ask
 *  for a fresh snapshot (and apply what comes meanwhile; the snapshot overrides it). */
function forTable(m, handler) {
  const tb = state.table;
  if (!tb || tb.id !== m.table_id) return;
  const resent = m.type === 'your_turn' && m.seq === tb.seq; // a prompt re-sent after reconnecting
  if (m.seq <= tb.seq && !resent) return;
  if (m.seq > tb.seq + 1 && !tb.resyncing) {
    tb.resyncing = true;
    send({ type: 'snapshot', table_id: tb.id });
  }
  tb.seq = Math.max(tb.seq, m.seq);
  handler(m, tb);
  renderTable();
}

/** The names of the seats: the hand's (as they were when it began), then the table's. */
function seatNames(tb) {
  const names = {};
  for (const s of tb.info?.seats ?? []) names[s.seat] = s.name;
  return { ...names, ...(tb.hand?.names ?? {}) };
}
const whoAt = (tb) => (seat) => namer(seatNames(tb))(seat);

function onSnapshot(m) {
  let tb = state.table;
  const adopt = !tb && !state.left.has(m.table_id) && m.table.your_seat != null; // after a page reload
  if (!tb && (state.pending?.tableId === m.table_id || adopt)) {
    enterTable(m.table_id, state.pending?.code ?? state.privates[m.table_id]?.code);
    tb = state.table;
  }
  if (!tb || tb.id !== m.table_id) {
    // A table we left during a hand: the seat stays until the hand is over (and a `hello`
    // subscribes a held seat again). Once it is cashed out, stop watching and get the balance.
    if (state.left.has(m.table_id) && m.table.your_seat == null) {
      send({ type: 'leave', table_id: m.table_id });
      sendHello();
    }
    return;
  }
  tb.seq = m.seq;
  tb.resyncing = false;
  tb.info = m.table;
  setMoneyMode(displayOf(m.table));
  const h = m.table.hand;
  const fresh = h && tb.loggedHand !== h.hand_id && h.view.phase !== 'over';
  const old = tb.hand;
  const names = h && tb.hand?.id === h.hand_id ? { ...nameMap(m.table.seats), ...tb.hand.names } : nameMap(m.table.seats);
  tb.hand = h && {
    id: h.hand_id, number: h.number, view: h.view, toAct: h.view.to_act ?? null, names,
    deadlineAt: h.deadline_ms == null ? null : now() + h.deadline_ms, deadlineTotal: h.deadline_ms ?? null,
    bankMs: h.time_bank_ms ?? null,
  };
  // A snapshot's view does not say who brought in (unless the server adds `bring_in`): keep
  // what the events said, this street.
  if (h && h.view.bring_in != null && h.view.street === 'third') {
    for (const s of h.view.seats) s.brought_in = s.seat === h.view.bring_in;
  } else if (h && old?.id === h.hand_id && h.view.street === 'third') {
    for (const s of h.view.seats) s.brought_in = old.view.seats.find((x) => x.seat === s.seat)?.brought_in ?? false;
  }
  if (h) rememberNames(h.hand_id, names);
  if (fresh) {
    // Joining mid-hand (or after a reload): the hand so far, if the server sends its events
    // (`HandState.events`, redacted for this viewer), else a line saying it is in progress.
    tb.loggedHand = h.hand_id;
    addLog(() => t('log_hand_progress', { number: h.number }), 'hand-start');
    if (Array.isArray(h.events)) {
      const ctx = { deals: [] };
      for (const ev of h.events) for (const line of describeEvent(ev, ctx, whoAt(tb))) addLog(line, lineClass(ev));
      tb.log.deals = ctx.deals;
    }
  }
  // The server's pots, split only at all-in levels; a finished hand's are the pots awarded,
  // already in the winners' stacks, so the middle of the table is empty.
  if (h && Array.isArray(h.pots)) h.view.pots = h.view.phase === 'over' ? [] : h.pots;
  if (h?.hand_strength) tb.hand.strength = h.hand_strength;
  // The snapshot carries our legal actions: a prompt can be rebuilt from it (seq = now).
  const legal = h?.view.legal_actions ?? [];
  if (h && legal.length && h.view.to_act === m.table.your_seat) {
    const bankMs = state.prompt?.handId === h.hand_id ? state.prompt.bankMs : null;
    setPrompt({ handId: h.hand_id, seq: m.seq, legal, bankMs, toCall: h.to_call ?? null, bringIn: h.bring_in_amount ?? null, sent: false });
  } else {
    setPrompt(null);
  }
  const me = m.table.seats.find((s) => s.seat === m.table.your_seat);
  if (tb.code) rememberPrivate(tb);
  if ($('table-buy-in').value === '') $('table-buy-in').value = m.table.min_buy_in;
  renderTable();
}

const nameMap = (seats) => Object.fromEntries((seats ?? []).map((s) => [s.seat, s.name]));

/** The names at a hand, kept for LAST HAND (its report has seat numbers only). */
function rememberNames(handId, names) {
  if (!names || !Object.keys(names).length) return;
  state.handNames[handId] = { ...(state.handNames[handId] ?? {}), ...names };
  const ids = Object.keys(state.handNames);
  for (const id of ids.slice(0, Math.max(0, ids.length - 60))) delete state.handNames[id];
  store.setItem(NAMES_KEY, JSON.stringify(state.handNames));
}

/** A private table joined with its code gets a lobby row like any other. */
function rememberPrivate(tb) {
  const i = tb.info;
  state.privates[tb.id] = {
    code: tb.code,
    summary: {
      name: i.name, variant: i.config.variant, config: i.config, min_buy_in: i.min_buy_in,
      max_buy_in: i.max_buy_in, seats_taken: i.seats.length, players: i.seats.map((s) => s.name),
    },
  };
  savePrivates();
}

function onHandStarted(m, tb) {
  const variant = tb.info?.config.variant ?? 'stud';
  const names = nameMap(tb.info?.seats);
  tb.hand = { id: m.hand_id, number: m.number, toAct: null, deadlineAt: null, names, view: emptyView(variant) };
  tb.loggedHand = m.hand_id;
  rememberNames(m.hand_id, names);
  tb.log.deals = [];
  state.pre = null;
  state.timedOut = false;
  setPrompt(null);
  // The last result stays up at least RESULT_HOLD_MS.
  const r = tb.result;
  if (r) {
    setTimeout(() => {
      if (tb.result !== r) return;
      tb.result = null;
      $('result').hidden = true;
      $('result').dataset.hiddenAt = String(Date.now());
    }, Math.max(0, r.at + RESULT_HOLD_MS - now()));
  }
  addLog(() => `${t('log_hand', { number: m.number })} · ${m.commitment.slice(0, 12)}…`, 'hand-start');
}

const ACTION_EVENTS = ['bring_in', 'complete', 'bet', 'raise', 'call', 'check', 'fold', 'mucked', 'shown'];

function onEvent(m, tb) {
  if (!tb.hand || tb.hand.id !== m.hand_id) return;
  const ev = m.event;
  const betBefore = tb.hand.view.current_bet;
  if (m.hand_code) ev.code = m.hand_code; // the shown or winning hand as a code, for any language
  if (!applyEvent(tb.hand.view, ev, m.pots)) {
    send({ type: 'snapshot', table_id: tb.id }); // an event for a seat we do not know: resync
    return;
  }
  for (const line of describeEvent(ev, tb.log, whoAt(tb))) addLog(line, lineClass(ev));
  // Someone acted (or the clock did for them): nobody is to act until the next prompt.
  if (ACTION_EVENTS.includes(ev.event)) {
    if (tb.hand.toAct === ev.seat) {
      tb.hand.toAct = null;
      tb.hand.deadlineAt = null;
    }
    if (ev.seat === tb.info?.your_seat) {
      // Our prompt was still open and unanswered: the clock acted for us.
      if (state.prompt && !state.prompt.sent && ev.event !== 'shown') state.timedOut = true;
      setPrompt(null);
    }
  }
  // A ticked "check" no longer means the same once the bet changes; a new street starts fresh.
  if (state.pre && (ev.event === 'street_started' || (state.pre.kind === 'check' && tb.hand.view.current_bet !== betBefore))) state.pre = null;
  if (ev.event === 'award') showResult(tb, ev);
  if (ev.event === 'hand_ended') endHand(tb, ev.stacks);
}

function onTurn(m, tb) {
  if (!tb.hand || tb.hand.id !== m.hand_id) return;
  tb.hand.toAct = m.seat;
  tb.hand.deadlineAt = now() + m.deadline_ms;
  tb.hand.deadlineTotal = m.deadline_ms;
  tb.hand.bankMs = m.time_bank_ms ?? null;
  if (m.seat !== tb.info?.your_seat) setPrompt(null);
}

function onYourTurn(m, tb) {
  if (!tb.hand || tb.hand.id !== m.hand_id) return;
  tb.hand.toAct = tb.info?.your_seat ?? null;
  tb.hand.deadlineAt = now() + m.deadline_ms;
  tb.hand.deadlineTotal = m.deadline_ms;
  tb.hand.bankMs = m.time_bank_ms;
  if (m.hand_strength) tb.hand.strength = m.hand_strength;
  const fresh = state.prompt?.seq !== m.seq;
  setPrompt({ handId: m.hand_id, seq: m.seq, legal: m.legal, bankMs: m.time_bank_ms, toCall: m.to_call ?? null, bringIn: m.bring_in_amount ?? null, sent: false });
  // A ticked box answers at once with one of the legal actions; else the buttons, a sound.
  const auto = (state.autoBringIn && preActionChoice('bring_in', m.legal)) || (state.pre && preActionChoice(state.pre.kind, m.legal));
  if (state.pre) state.pre = null;
  if (auto) return act(auto);
  if (fresh) yourTurnAlert();
}

function onHandResult(m, tb) {
  endHand(tb, m.stacks);
}

/** The hand is over: nobody to act; the seats' stacks are the final ones. */
function endHand(tb, stacks) {
  if (tb.hand) {
    tb.hand.toAct = null;
    tb.hand.deadlineAt = null;
  }
  state.pre = null;
  setPrompt(null);
  if (tb.result && tb.result.handId === tb.hand?.id) {
    // data-ended-at / data-hidden-at (ms since the epoch) show how long the result stayed up.
    tb.result.at = now();
    $('result').dataset.endedAt = String(Date.now());
  }
  for (const [seat, stack] of stacks) {
    const info = tb.info?.seats.find((s) => s.seat === seat);
    if (info) info.stack = stack;
  }
}

/** The result strip in the middle: who won what with which hand, and the cards shown; it stays
 *  at least RESULT_HOLD_MS, into the next hand. */
function showResult(tb, award) {
  const hand = tb.hand;
  if (!tb.result || tb.result.handId !== hand.id) tb.result = { handId: hand.id, awards: [], at: now() };
  tb.result.awards.push(award);
  tb.result.at = now();
  renderResult(tb);
}

function renderResult(tb) {
  const r = tb.result;
  const box = $('result');
  if (!r) return;
  const who = whoAt(tb);
  const view = tb.hand?.id === r.handId ? tb.hand.view : null;
  if (box.dataset.handId !== r.handId) {
    box.dataset.handId = r.handId;
    delete box.dataset.hiddenAt;
    delete box.dataset.endedAt;
  }
  box.replaceChildren(...r.awards.map((a) => {
    const sv = view?.seats.find((s) => s.seat === a.seat);
    const cards = sv?.shown ? el('span', { class: 'mini-cards' }, sv.cards.map((c) => cardElement({ card: c.card, up: true }, 'mini'))) : null;
    return el('div', { class: 'result-line', 'data-testid': 'result-line', 'data-seat': a.seat }, el('span', { text: awardLine(a, who)() }), cards);
  }));
  box.hidden = false;
}

// ---- the hand log --------------------------------------------------------------------------

function addLog(fn, cls = '') {
  const tb = state.table;
  const log = $('log');
  const stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 20; // follow unless scrolled up
  const line = el('div', { 'data-testid': 'log-line', class: `log-line ${cls}`, text: fn() });
  line.render = fn;
  log.append(line);
  while (log.childElementCount > LOG_LINES_KEPT) log.firstElementChild.remove();
  if (stick) log.scrollTop = log.scrollHeight;
  if (tb) tb.log.entries = null; // the DOM keeps the lines (and how to say them again)
}

/** After a language switch: every log line said again in the new language. */
function relabelLog() {
  for (const line of $('log').children) if (line.render) line.textContent = line.render();
}

// ---- drawing the table ---------------------------------------------------------------------

/** A card: a face with its corner rank and suit, or a back; named for screen readers ("Ace of
 *  spades"). Down cards carry data-down and sit lower than up cards. */
function cardElement(seen, size = '') {
  const down = !seen.up;
  if (!seen.card) {
    return el('div', { 'data-testid': 'card', 'data-card': 'back', 'data-down': down, class: `card back ${size}`, role: 'img', 'aria-label': t('card_back') });
  }
  const [rank, suit] = seen.card;
  const r = rank === 'T' ? '10' : rank;
  return el('div', {
    'data-testid': 'card', 'data-card': seen.card, 'data-down': down,
    class: `card suit-${suit} ${size}`, role: 'img', 'aria-label': cardName(seen.card), title: cardName(seen.card),
  }, el('span', { class: 'corner', 'aria-hidden': 'true' }, el('span', { class: r === '10' ? 'rank ten' : 'rank', text: r }), el('span', { class: 'suit', text: SUIT_SYMBOLS[suit] })),
  el('span', { class: 'pip', 'aria-hidden': 'true', text: SUIT_SYMBOLS[suit] }));
}

/** A small stack of chips beside an amount (more chips for more money, at most five). */
function chips(amount) {
  const n = Math.max(1, Math.min(5, Math.ceil(Math.log10(Math.max(10, amount)) - 0.5)));
  return el('span', { class: 'chips', 'aria-hidden': 'true' }, Array.from({ length: n }, (_, i) => el('i', { class: `chip c${i % 3}` })));
}

function renderTable() {
  const tb = state.table;
  if (!tb || !tb.info) return;
  $('table-name').textContent = tb.info.name;
  $('table-stakes').textContent = `${variantName(tb.info.config.variant)} ${limits(tb.info.config)} · ${stakesLine(tb.info.config)}`;
  const count = tb.info.seat_count ?? state.lobby.find((x) => x.id === tb.id)?.seats ?? 8;
  const seats = [];
  for (let n = 1; n <= count; n += 1) seats.push(seatElement(tb, n, count));
  $('seats').replaceChildren(...seats);
  // What is on screen now: only cards dealt and bets made after this are animated.
  tb.drawn = Object.fromEntries((tb.hand?.view.seats ?? []).map((s) => [`${tb.hand.id}:${s.seat}`, s.cards.length]));
  tb.bets = Object.fromEntries((tb.hand?.view.seats ?? []).map((s) => [s.seat, s.bet]));
  renderCenter(tb);
  renderSeatBar(tb);
  renderPreActions();
  renderStrength(tb);
  renderClock();
}

function seatElement(tb, n, count) {
  const info = tb.info.seats.find((s) => s.seat === n);
  const sv = tb.hand?.view.seats.find((s) => s.seat === n);
  const mine = tb.info.your_seat === n;
  const live = sv && tb.hand.view.phase !== 'over';
  const empty = !info && !live; // a finished hand's seat that has been cashed out is empty
  const pos = seatPosition(n, tb.info.your_seat, count);
  const p = seatPoint(pos, count);
  const node = el('div', {
    'data-testid': 'seat', 'data-seat': n, 'data-me': mine, 'data-empty': empty, 'data-pos': pos,
    'data-sitting-out': info?.sitting_out, 'data-folded': !empty && sv?.folded,
    class: `seat${tb.hand?.toAct === n ? ' to-act' : ''}${empty ? ' empty' : ''}`,
    style: `left:${p.left.toFixed(2)}%;top:${p.top.toFixed(2)}%;--order:${pos === 0 ? 99 : pos};--dx:${p.dx.toFixed(3)};--dy:${p.dy.toFixed(3)}`,
    role: 'group', 'aria-label': empty ? t('empty_seat', { n }) : (info?.name ?? t('seat_n', { n })),
  });
  if (empty) {
    if (tb.info.your_seat == null && state.me) {
      node.append(el('button', { type: 'button', class: 'sit-here', 'data-testid': 'sit-here', text: t('sit_here'), 'aria-label': t('sit_here_n', { n }), onclick: () => sitHere(n) }));
    } else {
      node.append(el('span', { class: 'seat-no', text: n, 'aria-hidden': 'true' }));
    }
    return node;
  }
  const stack = live ? sv.stack : (info?.stack ?? sv.stack);
  const bet = live ? sv.bet : 0;
  const tags = [];
  if (info && !info.connected) tags.push(t('away'));
  if (info?.sitting_out) tags.push(t('sitting_out'));
  if (live && sv.all_in) tags.push(t('all_in'));
  node.append(...[
    el('div', { class: 'seat-head' },
      el('span', { 'data-testid': 'seat-name', class: 'seat-name', text: info?.name ?? seatNames(tb)[n] ?? t('seat_n', { n }) }),
      el('span', {
        'data-testid': 'seat-stack', 'data-amount': stack, 'data-committed': live ? sv.committed : 0, class: 'stack', text: money(stack),
      })),
    tags.length || sv?.brought_in ? el('div', { class: 'tags' },
      tags.map((tag) => el('span', { class: 'tag', text: tag })),
      sv?.brought_in ? el('span', { class: 'tag bring-in', 'data-testid': 'bring-in-tag', text: t('bring_in_tag') }) : null) : null,
    el('div', { class: 'cards' }, (sv?.cards ?? []).map((c, i) => cardElement(c, i >= (tb.drawn?.[`${tb.hand?.id}:${n}`] ?? 0) ? 'new' : ''))),
    // data-committed (on the stack): chips this seat has in the hand (antes included), so
    // stack + committed is what the seat had when the hand began.
    el('div', { 'data-testid': 'seat-bet', 'data-amount': bet, class: `bet${bet ? '' : ' zero'}${bet && bet !== tb.bets?.[n] ? ' moved' : ''}` }, bet ? [chips(bet), el('span', { text: money(bet) })] : []),
    el('div', { class: 'seat-foot' }, seatFoot(sv)),
    tb.hand?.toAct === n && tb.hand.deadlineAt != null ? el('div', { class: 'timer', 'data-testid': 'seat-timer', 'aria-hidden': 'true' }, el('div', { class: 'timer-fill' })) : null,
  ].filter(Boolean));
  return node;
}

/** Under the cards: the hand's name when visible, what was won, mucked. */
function seatFoot(sv) {
  if (!sv) return [];
  const parts = [];
  if (sv.hand) parts.push(el('span', { class: 'hand-name', 'data-testid': 'seat-hand', text: sv.handCode ? strengthName(sv.handCode) : translateHand(sv.hand) }));
  if (sv.mucked) parts.push(el('span', { class: 'tag', text: t('mucked') }));
  if (sv.won > 0) parts.push(el('span', { class: 'won', text: t('wins', { amount: money(sv.won) }) }));
  return parts;
}

function renderCenter(tb) {
  const view = tb.hand?.view;
  const pots = view?.pots ?? [];
  const total = pots.reduce((sum, p) => sum + p.amount, 0);
  const pot = $('pot');
  pot.dataset.amount = String(total);
  // With a player all in, the main and side pots (the server's) are listed under the total.
  const who = whoAt(tb);
  const listed = pots.length > 1 ? pots.map((p, i) => el('div', {
    'data-testid': i === 0 ? null : 'side-pot', 'data-amount': p.amount, class: 'side-pot',
    text: `${i === 0 ? t('main_pot') : t('side_pot', { n: i })}: ${money(p.amount)} (${p.eligible.map(who).join(', ')})`,
  })) : [];
  pot.replaceChildren(el('span', { class: 'pot-main' }, total ? chips(total) : null, el('span', { class: 'pot-label', text: `${t('pot')} ` }), el('span', { class: 'pot-amount', text: money(total) })), ...listed);
  $('community').replaceChildren(...(view?.community ? [el('span', { class: 'label', text: t('community') }), cardElement({ card: view.community, up: true })] : []));
  $('turn').textContent = turnText(tb);
  if (tb.result) renderResult(tb);
}

function turnText(tb) {
  const h = tb.hand;
  if (!h || h.view.phase === 'over') return tb.info.seats.length < 2 ? t('waiting_players') : t('waiting_hand');
  if (h.toAct == null) return streetName(h.view.street);
  if (h.toAct === tb.info.your_seat) return t('your_turn');
  return t('to_act', { name: whoAt(tb)(h.toAct) });
}

/** The clock of the seat to act, counting down locally from the last deadline_ms: the text in
 *  the middle and the bar on the seat (another colour once into the time bank). Ours is split
 *  into action time and time bank (the deadline includes the bank). */
function renderClock() {
  const clock = $('clock');
  const h = state.table?.hand;
  if (!h || h.toAct == null || h.deadlineAt == null) {
    clock.textContent = '';
    clock.classList.remove('low');
    return;
  }
  const left = Math.max(0, h.deadlineAt - now());
  const bankMs = state.prompt ? state.prompt.bankMs : h.bankMs;
  const inBank = bankMs != null && left <= bankMs;
  if (state.prompt && bankMs != null) {
    const bank = Math.min(bankMs, left);
    clock.textContent = left > bank ? t('clock_split', { s: seconds(left - bank), b: seconds(bank) }) : t('clock_bank', { s: seconds(left) });
  } else {
    clock.textContent = t('clock', { s: seconds(left) });
  }
  clock.classList.toggle('low', left < 5000);
  const timer = document.querySelector('[data-testid=seat-timer]');
  if (timer) {
    // The bar shows the action time, then (refilled, in the bank's colour) the time bank.
    const span = inBank ? bankMs : Math.max(1, (h.deadlineTotal ?? left) - (bankMs ?? 0));
    const part = inBank ? left : left - (bankMs ?? 0);
    timer.dataset.phase = inBank ? 'bank' : 'action';
    timer.firstElementChild.style.width = `${Math.max(0, Math.min(100, (100 * part) / Math.max(1, span))).toFixed(1)}%`;
  }
}

/** Take a seat (watching) or top up and sit out / in (seated); the sat-out notice. */
function renderSeatBar(tb) {
  const seated = tb.info.your_seat != null;
  const me = tb.info.seats.find((s) => s.seat === tb.info.your_seat);
  $('table-sit').hidden = seated;
  $('top-up').hidden = !seated;
  $('sit-toggle').hidden = !seated;
  $('sit-toggle').textContent = me?.sitting_out ? t('sit_in') : t('sit_out');
  const out = Boolean(me?.sitting_out);
  $('sat-out').hidden = !out;
  // Why: the server's `sitting_out_reason` (timeout, requested, busted).
  const reason = { timeout: 'timeout', busted: 'busted' }[me?.sitting_out_reason] ?? 'self';
  $('sat-out').dataset.reason = out ? reason : '';
  $('sat-out-text').textContent = out ? t(`sat_out_${reason}`) : '';
}

function sitHere(seat) {
  const tb = state.table;
  takeSeat(tb.id, Number($('table-buy-in').value), tb.code, seat);
}

/** The hand-strength line under your cards: only what the server says (`hand_strength` on
 *  `your_turn`, or your own seat's `hand` in a snapshot); the page never evaluates a hand. */
function renderStrength(tb) {
  const box = $('hand-strength');
  const h = tb.hand;
  const mine = h?.view.seats.find((s) => s.seat === tb.info.your_seat);
  const live = h && h.view.phase !== 'over' && mine && !mine.folded;
  // "no low" (stud8) only once five cards could make one.
  const text = !live ? '' : h.strength ? strengthName(h.strength, mine.cards.length >= 5 ? h.view.variant : null) : translateHand(mine.hand ?? '');
  box.hidden = !text;
  box.textContent = text ? t('strength', { hand: text }) : '';
}

// ---- acting --------------------------------------------------------------------------------

function setPrompt(prompt) {
  const same = JSON.stringify(prompt) === JSON.stringify(state.prompt);
  state.prompt = prompt;
  if (!same) renderActions();
}

function actionLabel(a) {
  const tb = state.table;
  switch (a.kind) {
    // The amounts of bring-in and call are the server's (`bring_in_amount`, `to_call`).
    case 'bring_in': return t('act_bring_in', { amount: money(state.prompt?.bringIn ?? tb.info.config.bring_in) });
    case 'complete': return t('act_complete', { amount: money(a.to) });
    case 'bet': return t(bigBetOption(a) ? 'act_bet_big' : 'act_bet', { amount: money(a.to) });
    case 'raise': return t('act_raise', { amount: money(a.to) });
    case 'call': return state.prompt?.toCall != null ? t('act_call', { amount: money(state.prompt.toCall) }) : t('act_call_plain');
    default: return t(`act_${a.kind}`);
  }
}

/** On 4th street with an open pair, two bets are legal: the small one and the big one. */
function bigBetOption(a) {
  const bets = state.prompt?.legal.filter((x) => x.kind === 'bet') ?? [];
  return bets.length > 1 && a.to === Math.max(...bets.map((x) => x.to));
}

// Keyboard shortcuts: the first legal action of one of these kinds.
const KEYS = { f: ['fold'], c: ['check', 'call'], b: ['bet', 'raise', 'complete'], i: ['bring_in'], s: ['show'], m: ['muck'] };
const SHORTCUT = { fold: 'F', check: 'C', call: 'C', bet: 'B', raise: 'B', complete: 'B', bring_in: 'I', show: 'S', muck: 'M' };

/** Exactly the legal actions, as buttons; empty when it is not our turn (or we just acted). */
function renderActions() {
  const box = $('actions');
  const p = state.prompt;
  if (!p || p.sent) {
    box.replaceChildren();
    stopTitleFlash();
    renderPreActions();
    return;
  }
  box.replaceChildren(...p.legal.map((a) => el('button', {
    'data-testid': 'action', 'data-action': a.kind, 'data-amount': a.to, type: 'button',
    class: `action action-${a.kind}`, onclick: () => act(a), 'aria-keyshortcuts': SHORTCUT[a.kind],
  }, actionLabel(a), el('kbd', { text: SHORTCUT[a.kind], 'aria-hidden': 'true' }))));
  renderPreActions();
}

/** The pre-action boxes, while someone else is to act in a hand we are still in. */
function renderPreActions() {
  const box = $('pre-actions');
  const tb = state.table;
  const h = tb?.hand;
  const mine = h?.view.seats.find((s) => s.seat === tb.info?.your_seat);
  const show = Boolean(h && mine && !mine.folded && !mine.all_in && h.view.phase === 'betting' && !(state.prompt && !state.prompt.sent));
  // Drawn again only when something it shows changed (keeps the keyboard focus on a box).
  const keyOf = () => JSON.stringify([show, state.pre?.kind ?? null, state.autoBringIn, h?.view.street ?? null, lang]);
  const key = keyOf();
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.hidden = !show;
  if (!show) return box.replaceChildren();
  const box1 = (kind, label, checked, onchange) => el('label', { class: 'pre' },
    el('input', { type: 'checkbox', 'data-testid': 'pre-action', 'data-pre': kind, checked: checked || null, onchange }), ` ${label}`);
  // A tick updates the boxes in place (one of the three at most), not by drawing them again.
  const pick = (kind) => (e) => {
    state.pre = e.target.checked ? { kind, bet: h.view.current_bet } : null;
    for (const input of box.querySelectorAll('input[data-pre]')) if (input.dataset.pre !== 'bring_in') input.checked = input.dataset.pre === state.pre?.kind;
    box.dataset.key = keyOf();
  };
  const parts = ['check_fold', 'check', 'call_any'].map((k) => box1(k, t(`pre_${k}`), state.pre?.kind === k, pick(k)));
  if (h.view.street === 'third') {
    parts.push(box1('bring_in', t('pre_bring_in'), state.autoBringIn, (e) => { state.autoBringIn = e.target.checked; box.dataset.key = keyOf(); }));
  }
  box.setAttribute('aria-label', t('pre_actions'));
  box.replaceChildren(...parts);
}

function act(action) {
  const tb = state.table;
  const p = state.prompt;
  if (!tb || !p || p.sent) return;
  // The key names the intended action: a repeat (after a dropped socket) is not applied twice.
  const msg = { type: 'act', table_id: tb.id, hand_id: p.handId, seq: p.seq, idempotency_key: `${p.handId}:${p.seq}`, action };
  if (!send(msg, { kind: 'act', seq: p.seq })) return notice(t('reconnect_try'));
  p.sent = true;
  renderActions();
}

function onActError(m, req) {
  const p = state.prompt;
  if (m.code === 'illegal_action' && p && p.seq === req.seq) {
    p.sent = false; // still our turn: offer the actions again
    renderActions();
  } else if (state.table) {
    send({ type: 'snapshot', table_id: state.table.id }); // stale or not our turn: catch up
  }
  notice(errorText(m));
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.target.closest('input, textarea, select, dialog[open]') || $('last-hand').open) return;
  const kinds = KEYS[e.key.toLowerCase()];
  const p = state.prompt;
  if (!kinds || !p || p.sent) return;
  const action = kinds.map((k) => p.legal.find((a) => a.kind === k)).find(Boolean);
  if (action) {
    e.preventDefault();
    act(action);
  }
}

// ---- your turn: a sound and the title ------------------------------------------------------

let audio = null;
let titleTimer = null;
const baseTitle = () => (state.table?.info ? `${state.table.info.name} · stud` : 'stud');

function yourTurnAlert() {
  if (prefs.sound) {
    try {
      audio ??= new AudioContext();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.08, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.25);
    } catch { /* no audio: the title still flashes */ }
  }
  stopTitleFlash();
  let on = true;
  document.title = t('turn_title');
  document.body.dataset.yourTurn = 'true';
  titleTimer = setInterval(() => {
    on = !on;
    document.title = on ? t('turn_title') : baseTitle();
  }, 1000);
}

function stopTitleFlash() {
  clearInterval(titleTimer);
  titleTimer = null;
  if (typeof document !== 'undefined') {
    document.title = baseTitle();
    delete document.body.dataset.yourTurn;
  }
}

// ---- LAST HAND and the replayer ------------------------------------------------------------

function openLastHands() {
  $('last-hand-list').replaceChildren(el('p', { class: 'muted', text: t('loading') }));
  $('last-hand-report').hidden = true;
  state.report = null;
  $('last-hand').showModal();
  askHistory({ type: 'last_hands' });
}

/** LAST HAND requests read the database: `unavailable` (the store is behind) is retried. */
function askHistory(msg, tries = 0) {
  if (!send({ ...msg }, { kind: 'history', msg, tries })) showReportMessage(t('reconnect_try'));
}

function onHistoryError(m, req) {
  if (m.code === 'unavailable' && req.tries < 3) {
    setTimeout(() => askHistory(req.msg, req.tries + 1), 1000);
  } else if (req.msg.type === 'last_hands') {
    $('last-hand-list').replaceChildren(el('p', { class: 'muted', text: m.message }));
  } else {
    showReportMessage(m.message);
  }
}

function onLastHands(m) {
  state.lastHands = m.hands;
  renderLastHands();
}

function renderLastHands() {
  const selected = state.report?.summary.hand_id;
  const rows = state.lastHands.map((h) => el('button', {
    'data-testid': 'last-hand-row', 'data-hand-id': h.hand_id, type: 'button', class: `hand-row${h.hand_id === selected ? ' selected' : ''}`,
    onclick: () => openHand(h.hand_id),
  }, t('hand_row', { number: h.number, variant: variantName(h.variant), seat: state.handNames[h.hand_id]?.[h.seat] ?? t('seat_n', { n: h.seat }) }),
  el('span', { class: h.net >= 0 ? 'net up' : 'net down', 'data-amount': h.net, text: signedMoney(h.net, 'cash') }),
  ` · ${new Date(h.ended_at_ms).toLocaleTimeString(LOCALES[lang])}`));
  $('last-hand-list').replaceChildren(...(rows.length ? rows : [el('p', { class: 'muted', text: t('no_hands') })]));
}

function openHand(handId) {
  for (const row of $('last-hand-list').children) row.classList.toggle('selected', row.dataset.handId === handId);
  showReportMessage(t('loading'));
  askHistory({ type: 'last_hand', hand_id: handId });
}

function showReportMessage(text) {
  const box = $('last-hand-report');
  box.hidden = false;
  box.replaceChildren(el('p', { class: 'muted', text }));
}

/** The names in a report: the server's if it ever sends them (`names`, or `name` on the
 *  seats), else the ones this browser saw at the table, else "Seat 3". */
function reportNamer(report) {
  const names = { ...(state.handNames[report.summary.hand_id] ?? {}) };
  for (const s of report.view.seats) if (s.name) names[s.seat] = s.name;
  for (const [seat, name] of Object.entries(report.names ?? {})) names[seat] = name;
  return namer(names);
}

function onLastHand(m) {
  const steps = replaySteps(m.report.events);
  state.report = { ...m.report, steps, step: steps.length - 1 };
  renderReport();
}

/** The full report: every seat's cards (every card live at showdown face up), the actions and
 *  the awards, the downloads, and the replayer stepping through it street by street. */
function renderReport() {
  const r = state.report;
  if (!r) return;
  const { summary, view, events } = r;
  const who = reportNamer(r);
  const ctx = { deals: [] };
  const lines = events.flatMap((ev) => describeEvent(ev, ctx, who));
  const awards = events.filter((ev) => ev.event === 'award').map((a) => awardLine(a, who));
  const seats = view.seats.map((s) => el('div', { 'data-testid': 'last-hand-seat', 'data-seat': s.seat, class: 'report-seat' },
    el('div', { class: 'report-seat-head' },
      el('strong', { 'data-testid': 'last-hand-name', text: `${who(s.seat)}${s.seat === summary.seat ? ` (${t('you')})` : ''}` }),
      s.folded ? el('span', { class: 'tag', text: t('folded') }) : null,
      s.mucked ? el('span', { class: 'tag', text: t('mucked') }) : null,
      s.hand ? el('span', { class: 'hand-name', text: translateHand(s.hand) }) : null,
      s.won ? el('span', { class: 'won', text: t('wins', { amount: money(s.won, 'cash') }) }) : null),
    el('div', { class: 'cards' }, s.cards.map((c) => cardElement(c)))));
  $('last-hand-report').replaceChildren(...[
    el('h3', { text: t('hand_title', { number: summary.number, variant: variantName(summary.variant), when: new Date(summary.ended_at_ms).toLocaleString(LOCALES[lang]) }) }),
    el('p', { class: 'muted', text: t('your_net', { net: signedMoney(summary.net, 'cash'), commitment: r.commitment ?? '—' }) }),
    el('div', { class: 'report-seats' }, seats),
    view.community ? el('div', { class: 'report-community' }, `${t('community_card')} `, cardElement({ card: view.community, up: true })) : null,
    el('h4', { text: t('awards') }),
    el('ul', { class: 'awards', 'data-testid': 'last-hand-awards' }, awards.map((a) => el('li', { text: a() }))),
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
function replayer(r, who) {
  const step = r.steps[r.step];
  const { view, events, pot } = replayState(r.events, step.end, r.summary.variant);
  const ctx = { deals: [] };
  const before = r.step > 0 ? r.steps[r.step - 1].end : 0;
  const lines = events.flatMap((ev, i) => describeEvent(ev, ctx, who).map((fn) => ({ fn, i }))).filter((x) => x.i >= before).map((x) => x.fn);
  const label = step.label.startsWith('step_') ? t(step.label) : streetName(step.label);
  const go = (i) => () => {
    r.step = Math.max(0, Math.min(r.steps.length - 1, i));
    const node = $('replayer');
    node.replaceWith(replayer(r, who));
    $('replayer').querySelector(`[data-testid=${i > r.step ? 'replay-next' : 'replay-prev'}]`)?.focus();
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
        s.won ? el('span', { class: 'won', text: t('wins', { amount: money(s.won, 'cash') }) }) : null),
      el('div', { class: 'cards' }, s.cards.map((c) => cardElement(c)))))),
    el('ol', { class: 'report-log', 'data-testid': 'replay-log' }, lines.map((fn) => el('li', { text: fn() }))));
}

/** Fetches a hand history with the token, then saves it through a blob URL. */
async function download(summary, format) {
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

// ---- preferences: language, deck, sound ----------------------------------------------------

/** Every fixed label in the page (data-i18n, -placeholder, -aria) in the current language. */
function applyTranslations() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll('[data-i18n-placeholder]')) node.placeholder = t(node.dataset.i18nPlaceholder);
  for (const node of document.querySelectorAll('[data-i18n-aria]')) node.setAttribute('aria-label', t(node.dataset.i18nAria));
  $('lang').setAttribute('aria-label', t('language'));
  const sound = $('sound-toggle');
  sound.setAttribute('aria-pressed', String(prefs.sound));
  sound.title = prefs.sound ? t('sound_on') : t('sound_off');
  sound.classList.toggle('muted-sound', !prefs.sound);
  setStatus($('status').dataset.state);
}

function switchLanguage(code) {
  setLanguage(code);
  prefs.lang = lang;
  savePrefs();
  $('lang').value = lang;
  applyTranslations();
  renderLobbyHead();
  renderLobby();
  renderMe();
  relabelLog();
  renderTable();
  renderActions();
  if (state.table?.result) renderResult(state.table);
  if ($('last-hand').open) {
    renderLastHands();
    renderReport();
  }
}

// ---- wiring --------------------------------------------------------------------------------

function init() {
  setLanguage(pickLanguage(prefs.lang, navigator.languages ?? [navigator.language]));
  $('lang').replaceChildren(...Object.entries(LANGS).map(([code, label]) => el('option', { value: code, lang: code, text: label })));
  $('lang').value = lang;
  $('lang').addEventListener('change', (e) => switchLanguage(e.target.value));
  $('four-colour').checked = prefs.fourColour;
  document.body.classList.toggle('four-colour', prefs.fourColour);
  $('four-colour').addEventListener('change', (e) => {
    prefs.fourColour = e.target.checked;
    savePrefs();
    document.body.classList.toggle('four-colour', prefs.fourColour);
  });
  $('sound-toggle').addEventListener('click', () => {
    prefs.sound = !prefs.sound;
    savePrefs();
    applyTranslations();
  });
  for (const [id, key] of [['filter-variant', 'variant'], ['filter-stakes', 'stakes'], ['filter-players', 'players']]) {
    $(id).addEventListener('change', (e) => {
      prefs.lobby[key] = e.target.value;
      savePrefs();
      renderLobby();
    });
  }
  $('login').addEventListener('submit', (e) => {
    e.preventDefault();
    login($('name').value.trim() || t('guest'));
  });
  $('private').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = $('invite-table').value.trim();
    if (id) watch(id, $('invite-code').value.trim());
  });
  $('leave').addEventListener('click', leaveTable);
  $('logout').addEventListener('click', logout);
  const sitToggle = (sitIn) => {
    const tb = state.table;
    const me = tb?.info?.seats.find((s) => s.seat === tb.info.your_seat);
    if (!me) return;
    const wantIn = sitIn ?? me.sitting_out;
    if (wantIn) state.timedOut = false;
    send({ type: wantIn ? 'sit_in' : 'sit_out', table_id: tb.id }, { kind: 'sit_toggle' });
  };
  $('sit-toggle').addEventListener('click', () => sitToggle(null));
  $('im-back').addEventListener('click', () => sitToggle(true));
  $('table-sit').addEventListener('click', () => sitHere(null));
  $('top-up').addEventListener('click', () => {
    send({ type: 'top_up', table_id: state.table.id, amount: Number($('table-buy-in').value) }, { kind: 'top_up' });
  });
  $('last-hand-open').addEventListener('click', openLastHands);
  $('last-hand-close').addEventListener('click', () => $('last-hand').close());
  document.addEventListener('keydown', onKey);

  applyTranslations();
  renderLobbyHead();
  renderMe();
  showView('lobby');
  // The table fills the window between the top bar (and the notices) and the action bar.
  const measure = () => {
    const h = (id) => ($(id).hidden ? 0 : $(id).getBoundingClientRect().height);
    const root = document.documentElement.style;
    root.setProperty('--top-h', `${Math.ceil(document.querySelector('.topbar').getBoundingClientRect().height + h('banner') + h('sat-out') + (h('sat-out') ? 8 : 0))}px`);
    root.setProperty('--head-h', `${Math.ceil(document.querySelector('.table-head').getBoundingClientRect().height || 40)}px`);
    root.setProperty('--bar-h', `${Math.ceil(h('action-bar') || 56)}px`);
  };
  const observer = new ResizeObserver(measure);
  for (const node of [document.querySelector('.topbar'), document.querySelector('.table-head'), $('action-bar'), $('banner'), $('sat-out')]) observer.observe(node);
  window.addEventListener('resize', measure);
  measure();
  setInterval(() => {
    if (!$('lobby').hidden) refreshLobby();
  }, LOBBY_REFRESH_MS);
  setInterval(renderClock, 250);
  if (state.token) connect();
}

if (typeof document !== 'undefined' && typeof window !== 'undefined') init();
