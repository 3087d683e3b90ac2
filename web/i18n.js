// Translations: the English, Italian and Hungarian texts, the page's language, `t`.


// ---- translations --------------------------------------------------------------------------

export const LANGS = { en: 'English', it: 'Italiano', hu: 'Magyar' };
export const LOCALES = { en: 'en-US', it: 'it-IT', hu: 'hu-HU' };

export const EN = {
  hand_log: 'Hand log', guest: 'Guest',
  err_seat_taken: 'That seat is taken.', err_table_full: 'The table is full.', err_already_seated: 'You are already seated there.',
  err_buy_in_out_of_range: 'The buy-in is outside the table’s range.', err_insufficient_balance: 'Your balance is too small for that buy-in.',
  err_not_seated: 'You are not seated at that table.', err_not_now: 'Not now: wait for the hand to end.', err_not_your_turn: 'It is not your turn.',
  err_illegal_action: 'That action is not allowed now.', err_stale: 'That was for an earlier moment of the hand.', err_rate_limited: 'Too many messages: slow down a little.',
  err_unavailable: 'The server is busy: try again in a moment.', err_unknown_table: 'That table does not exist (any more).', err_forbidden: 'Not allowed.',
  err_chat_off: 'Chat is off at this table.', err_too_long: 'That message is too long (200 characters at most).', err_not_seated_chat: 'Take a seat to write in the chat.',
  chat: 'Table chat', chat_message: 'Chat message', chat_placeholder: 'Say something nice', chat_send: 'Send', chat_observer: 'Watching: take a seat to write.',
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
  tournament_seat: 'Tournament: you play at table {table}, seat {seat}.', tournament_placed: 'Tournament over for you: place {place}, prize {prize}.',
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

export const IT = {
  hand_log: 'Storico della mano', guest: 'Ospite',
  err_seat_taken: 'Quel posto è occupato.', err_table_full: 'Il tavolo è pieno.', err_already_seated: 'Sei già seduto a quel tavolo.',
  err_buy_in_out_of_range: 'Il buy-in è fuori dai limiti del tavolo.', err_insufficient_balance: 'Il tuo saldo non basta per quel buy-in.',
  err_not_seated: 'Non sei seduto a quel tavolo.', err_not_now: 'Non ora: aspetta la fine della mano.', err_not_your_turn: 'Non tocca a te.',
  err_illegal_action: 'Quell’azione ora non è consentita.', err_stale: 'Era per un momento precedente della mano.', err_rate_limited: 'Troppi messaggi: rallenta un po’.',
  err_unavailable: 'Il server è occupato: riprova tra un momento.', err_unknown_table: 'Quel tavolo non esiste (più).', err_forbidden: 'Non consentito.',
  err_chat_off: 'La chat di questo tavolo è disattivata.', err_too_long: 'Messaggio troppo lungo (al massimo 200 caratteri).', err_not_seated_chat: 'Siediti per scrivere in chat.',
  chat: 'Chat del tavolo', chat_message: 'Messaggio in chat', chat_placeholder: 'Scrivi qualcosa di gentile', chat_send: 'Invia', chat_observer: 'Stai guardando: siediti per scrivere.',
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
  tournament_seat: 'Torneo: giochi al tavolo {table}, posto {seat}.', tournament_placed: 'Il tuo torneo è finito: posto {place}, premio {prize}.',
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

export const HU = {
  hand_log: 'Leosztásnapló', guest: 'Vendég',
  err_seat_taken: 'Ez a hely foglalt.', err_table_full: 'Az asztal megtelt.', err_already_seated: 'Már ülsz ennél az asztalnál.',
  err_buy_in_out_of_range: 'A beülő kívül esik az asztal határain.', err_insufficient_balance: 'Az egyenleged kevés ehhez a beülőhöz.',
  err_not_seated: 'Nem ülsz ennél az asztalnál.', err_not_now: 'Most nem: várd meg a leosztás végét.', err_not_your_turn: 'Nem te következel.',
  err_illegal_action: 'Ez a lépés most nem megengedett.', err_stale: 'Ez a leosztás egy korábbi pillanatára szólt.', err_rate_limited: 'Túl sok üzenet: lassíts egy kicsit.',
  err_unavailable: 'A szerver foglalt: próbáld újra egy pillanat múlva.', err_unknown_table: 'Ez az asztal nem létezik (már).', err_forbidden: 'Nem megengedett.',
  err_chat_off: 'Ennél az asztalnál ki van kapcsolva a csevegés.', err_too_long: 'Túl hosszú üzenet (legfeljebb 200 karakter).', err_not_seated_chat: 'Ülj le, hogy írhass a csevegésbe.',
  chat: 'Asztali csevegés', chat_message: 'Csevegőüzenet', chat_placeholder: 'Írj valami kedveset', chat_send: 'Küldés', chat_observer: 'Nézőként olvasod: ülj le, hogy írhass.',
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
  tournament_seat: 'Verseny: a(z) {table}. asztalnál játszol, {seat}. hely.', tournament_placed: 'Számodra véget ért a verseny: {place}. hely, nyeremény {prize}.',
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

export const DICTS = { en: EN, it: IT, hu: HU };
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

/** A translated message in language `code`, `{name}` placeholders filled from `params`. */
export function tIn(code, key, params = {}) {
  const raw = (DICTS[code] ?? EN)[key] ?? EN[key] ?? key;
  return String(raw).replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
}

/** A translated message in the page's language. */
export const t = (key, params = {}) => tIn(lang, key, params);

/** An error in the page's language: by its code, else the server's message. */
export const errorText = (m) => (DICTS[lang][`err_${m.code}`] || EN[`err_${m.code}`] ? t(`err_${m.code}`) : m.message);
