// Translations: the English, Italian and Hungarian texts, the page's language, `t`.


// ---- translations --------------------------------------------------------------------------

export const LANGS = { en: 'English', it: 'Italiano', hu: 'Magyar' };
export const LOCALES = { en: 'en-US', it: 'it-IT', hu: 'hu-HU' };

export const EN = {
  col_hands_per_hour: 'Hands/h', col_average_pot: 'Avg pot', col_waiting: 'Waiting',
  your_tables: 'Your tables', watching: 'watching', seated_here: 'seated', turn_at: 'Your turn at {table}', turn_title_at: '● Your turn at {table}',
  to_lobby: 'Lobby', to_lobby_title: 'The lobby (you keep your seat here)', open_table: 'Open', open_table_n: 'Open {name}',
  auto_muck: 'Auto-muck', auto_muck_title: 'Muck a losing hand at the showdown without asking',
  betting_pot_limit: 'Pot limit', betting_no_limit: 'No limit', min_bet: 'min bet {amount}',
  bet_size: 'Bet size', bet_amount: 'Amount in chips', bet_slider: 'Bet size slider', preset_min: 'Min', preset_half: '½ pot',
  preset_three_quarters: '¾ pot', preset_pot: 'Pot', preset_max: 'Max', bet_size_range: 'Choose an amount from {min} to {max}.',
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
  your_name: 'Your name', start: 'Start', balance: 'Balance', tables: 'Tables', private_heading: 'Private table or tournament',
  private_id: 'table or tournament id', invite_code: 'invite code', join: 'Join', last_hands: 'Last hands', close: 'Close',
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
  waiting_players: 'Waiting for players', waiting_hand: 'Waiting for the next hand', your_turn: 'Your turn', turn_to_call: '{amount} to call', turn_options: 'you may {actions}', turn_range: '{action} (up to {max})', to_act: '{name} to act',
  time_bank: 'time bank', clock_split: '{s}s + time bank {b}s', clock_bank: 'time bank {s}s', clock: '{s}s',
  act_bring_in: 'Bring in {amount}', act_complete: 'Complete to {amount}', act_bet: 'Bet {amount}', act_bet_big: 'Bet {amount} (open pair)',
  act_raise: 'Raise to {amount}', act_call: 'Call {amount}', act_call_plain: 'Call', act_check: 'Check', act_fold: 'Fold', act_show: 'Show', act_muck: 'Muck',
  act_declare_high: 'High', act_declare_low: 'Low', act_declare_both: 'Both', act_declare_title: 'Declare {declaration}', declare_prompt: 'Declare: high, low or both',
  declared: 'declared', declared_as: 'declared {declaration}', decl_high: 'high', decl_low: 'low', decl_both: 'both',
  pre_check_fold: 'Check/fold', pre_check: 'Check', pre_call_any: 'Call any', pre_bring_in: 'Auto-post bring-in', pre_actions: 'Act in advance', pre_fold_any: 'Fold to any bet', pre_call: 'Call {amount}', pre_bet: 'Bet', pre_raise: 'Raise', pre_complete: 'Complete', action_bar: 'Your actions', actions_group: 'Actions',
  keys_title: 'Keyboard shortcuts', key_fold: 'Fold', key_check_call: 'Check or call', key_bet: 'Bet, raise or complete (the smaller size, or the size chosen)',
  key_larger: 'The larger size: the big bet with an open pair, the pot at pot limit and no limit', key_bring_in: 'Bring in', key_show_muck: 'Show or muck',
  key_declare: 'Declare high, low or both', key_last_hands: 'Last hands: open or close', key_sit_out: 'Sit out, or sit in again',
  key_tournament: 'The tournament (at a tournament table): open or close', key_next_table: 'The next table where your turn waits', key_escape: 'Close the panel',
  sat_out_timeout: 'Your time ran out and you were sat out. You will not be dealt in until you come back.',
  sat_out_self: 'You are sitting out.', im_back: "I'm back",
  sat_out_busted: 'You have no chips left: top up, then sit in.', no_low: 'no low',
  reconnect_try: 'Reconnecting: try again in a moment.', unreachable: 'The server cannot be reached.', session_failed: 'Could not start a session ({status}).',
  tournament_seat: 'Tournament: you play at table {table}, seat {seat}.', tournament_placed: 'Tournament over for you: {place} place, prize {prize}.',
  tn_removed: 'An operator removed you from this table.', tn_removed_at: 'An operator removed you from {table}.',
  tn_access: 'This table’s access changed: you are no longer watching it.', tn_access_at: 'The access to {table} changed: you are no longer watching it.',
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
  log_community: 'Community card: {card}', log_over: 'Hand over',
  log_declaration: 'Declaration: {list}', log_declared: '{who} has declared', log_declares: '{who} declares {declaration}', log_declarations: 'Declarations: {list}', log_street: '{street}: {deals}',
  log_wins: '{who} wins {amount}', log_wins_with: '{who} wins {amount} with {hand}', log_high_half: 'high half', log_low_half: 'low half', log_spade_half: 'spade half', log_side: 'side pot {n}',
  result_wins: '{who} wins {amount}', strength: 'Your hand: {hand}',
  variant_stud: 'Stud', variant_stud8: 'Stud Hi/Lo', variant_razz: 'Razz',
  variant_london: 'London Lowball', variant_stud8_declare: 'Stud Hi/Lo Declare', variant_chicago: 'Chicago', variant_mississippi: 'Mississippi Stud',
  street_third: '3rd street', street_fourth: '4th street', street_fifth: '5th street', street_sixth: '6th street', street_seventh: '7th street',
  stakes_line: 'ante {ante} · bring-in {bring_in}', turn_title: '● Your turn',
  card_back: 'Face-down card', card_name: '{rank} of {suit}', card_down: '{card}, down card',
  in_hand: 'in the hand', in_high: 'in the high hand', in_low: 'in the low hand', in_both: 'in the high and the low hand',
  suit_c: 'clubs', suit_d: 'diamonds', suit_h: 'hearts', suit_s: 'spades',
  rank: ['Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Jack', 'Queen', 'King', 'Ace'],
  plural: ['Twos', 'Threes', 'Fours', 'Fives', 'Sixes', 'Sevens', 'Eights', 'Nines', 'Tens', 'Jacks', 'Queens', 'Kings', 'Aces'],
  h_royal: 'Royal flush', h_sflush: 'Straight flush, {r} high', h_quads: 'Four of a kind, {p}', h_full: 'Full house, {p} full of {q}',
  h_flush: 'Flush, {r} high', h_straight: 'Straight, {r} high', h_trips: 'Three of a kind, {p}', h_two_pair: 'Two pair, {p} and {q}',
  h_pair: 'Pair of {p}', h_high: 'High card, {r}', h_hi: 'HI: {h}', h_lo: 'LO: {h}', h_spade: 'Spade in the hole, {r}', h_spade_part: 'SPADE: {h}',
  // tournaments
  tournaments: 'Tournaments', no_tournaments: 'No tournaments at the moment.', variant_rotation: 'Mixed (Razz, Stud, Stud Hi/Lo)',
  t_kind_sit_and_go: 'Sit & Go', t_kind_scheduled: 'Scheduled',
  t_status_registering: 'Registering', t_status_running: 'Running', t_status_finished: 'Finished', t_status_cancelled: 'Cancelled',
  t_entrants: '{n}/{max} players', t_fee: '{entry} + {fee} fee', t_starts_at_players: 'starts at {n} players', t_starts_at: 'starts {when}',
  t_register: 'Register', t_unregister: 'Unregister', t_open: 'Details', t_registered: 'You are registered', t_code: 'Invite code for {name}',
  t_back: 'Lobby', t_level: 'Level {n} of {count}', t_next_level_in: 'next level in {time}', t_level_hands: 'level of {n} hands', t_next_level_hands: 'next level in {n} hands', t_row_level: 'level {n}, {left} left',
  t_last_level: 'last level', t_game: 'Game: {game}', t_next_game: 'next: {game}', t_players_left: 'Players left: {left} of {total}',
  t_your_place: 'Your place: {place}', t_structure: 'Structure', t_col_level: 'Level', t_col_ante: 'Ante', t_col_bring_in: 'Bring-in',
  t_col_limits: 'Limits', t_col_length: 'Length', t_minutes: '{n} min', t_hands: '{n} hands', t_entrants_h: 'Entrants',
  t_col_player: 'Player', t_col_chips: 'Chips', t_col_where: 'Table', t_col_place: 'Place', t_col_prize: 'Prize', t_col_percent: 'Share',
  t_tables_h: 'Tables', t_col_table: 'Table', t_col_players: 'Players', t_col_hands: 'Hands', t_payouts_h: 'Payouts', t_results_h: 'Results',
  t_pool: 'Prize pool: {pool}', t_starting_chips: 'Starting chips: {chips}', t_hand_for_hand: 'Hand-for-hand', t_no_results: 'Nobody has finished yet.',
  t_at_table: 'table {table}, seat {seat}', t_state_registered: 'registered', t_state_playing: 'playing', t_state_out: 'out', t_state_won: 'won',
  t_out_prize: 'You finished {place} and won {prize}.', t_out_none: 'You finished {place}.', t_winner: 'You won the tournament! Prize: {prize}.',
  t_view: 'Tournament', t_my_table: 'My table', t_over: 'The tournament is over: the results are below.', t_level_stakes: 'Level {n}: {limits} · ante {ante}',
  t_table_clock_none: 'no time limit', t_your_chips: 'Your chips: {chips}',
  err_t_insufficient_balance: 'Your balance is too small for the entry and the fee.', err_t_invite_required: 'A private tournament: enter its invite code.',
  err_unknown_tournament: 'That tournament does not exist.', err_tournament_full: 'The tournament is full.', err_tournament_started: 'The tournament has already started.',
  err_registration_closed: 'Registration is closed.', err_already_registered: 'You are already registered.', err_not_registered: 'You are not registered.',
  // Rebuys and the add-on: the offer box, the tournament view's block, the refusals.
  offer_region: 'Tournament offer', offer_rebuy_title: 'Rebuy', offer_addon_title: 'Add-on',
  offer_rebuy: '{name}: you are out, but you may buy back in: {chips} chips for {price}.',
  offer_addon: '{name}: the rebuy period is over. Add-on: {chips} more chips for {price}.',
  offer_ends_in: 'ends in {time}', offer_buy: 'Buy for {price}', offer_dismiss: 'Dismiss',
  t_bought_rebuy: 'Rebuy bought: {chips} chips for {fee}. Your balance: {balance}.',
  t_bought_addon: 'Add-on bought: {chips} chips for {fee}. Your balance: {balance}.',
  tournament_seat_rebuy: 'You are back in at table {table}, seat {seat}.',
  t_rebuys_h: 'Rebuys and add-on', t_rebuy_terms: 'Rebuy: {chips} chips for {fee}, until the end of level {level}',
  t_rebuy_max: 'at most {n} per player', t_rebuy_no_max: 'no limit per player',
  t_addon_terms: 'Add-on: {chips} chips for {fee}, once, when the rebuy period ends', t_no_addon: 'No add-on',
  t_sold: 'Sold so far: {rebuys} rebuys, {addons} add-ons', t_sold_rebuys: 'Sold so far: {rebuys} rebuys',
  t_rebuy_open: 'Rebuys are on sale now (to a stack of {chips} chips or less).', t_addon_open: 'The add-on is on sale: {time} left.',
  t_rebuy_over: 'The rebuy period is over.', t_rebuy_button: 'Rebuy ({price})', t_addon_button: 'Add-on ({price})',
  t_entrant_rebuys: 'rebuys: {n}', t_entrant_addon: 'add-on', t_state_may_rebuy: 'out, may rebuy',
  err_not_offered: 'That is not on offer to you now.', err_p_insufficient_balance: 'Your balance is too small for it.',
  err_p_tournament_full: 'The tournament sells no more.', err_p_offline: 'Not connected: try again in a moment.',
  np_stack: 'A rebuy needs a stack at or below the starting stack.', np_max: 'You have bought every rebuy the tournament allows.',
  np_lapsed: 'The rebuy offer has lapsed: you are out.', np_taken: 'You have taken the add-on already.',
  np_still_in: 'The add-on is for players still in.', np_rebuy_closed: 'Rebuys are closed.', np_addon_closed: 'The add-on is not on sale now.',
  // Breaks: the structure's line, the view's countdown, the notice at the table.
  t_breaks: '{minutes}-minute break every {n} levels', t_breaks_every: '{minutes}-minute break after every level',
  t_on_break: 'On a break: play resumes in {time}', break_region: 'Tournament break', break_title: 'Break',
  break_resumes: 'play resumes in {time}', break_said: 'Tournament break: play resumes at {time}.',
  // Bounties (knockout tournaments): the buy-in, the view's line and columns, the seat's badge,
  // the notice of a bounty paid.
  t_fee_bounty: '{entry} + {bounty} bounty + {fee} fee', t_knockout: 'Knockout: {bounty} on each head', t_knockout_progressive: 'Progressive knockout: {bounty} on each head',
  t_bounties_paid: 'bounties paid: {paid}', t_col_bounty: 'Bounty', t_bounties_won: 'won {amount}', t_col_bounties: 'Bounties',
  seat_bounty: 'bounty {amount}', t_row_knockout: 'Knockout', t_row_knockout_progressive: 'Progressive knockout',
  bounty_won: '{who} won {amount} for knocking out {out}', bounty_won_you: 'You won {amount} for knocking out {out}',
  bounty_won_on_you: '{who} won {amount} for knocking you out',
  bounty_own: '{who} won {amount}: the bounty on their own head', bounty_own_you: 'You won {amount}: the bounty on your own head',
  // Deals at the final table, and the operator's pause.
  deal_region: 'Deal', deal_title_proposed: 'Deal proposed', deal_title_made: 'Deal made', deal_open: 'Deal',
  deal_text: '{who} proposes a deal by {method}: {shared} shared, {leave} left to play for.',
  deal_text_you: 'You propose a deal by {method}: {shared} shared, {leave} left to play for.',
  deal_made_text: 'Deal made by {method}: {shared} shared, each share paid; {leave} left to play for.',
  deal_made_end: 'Deal made by {method}: {shared} shared, each share paid. The tournament ends here.',
  deal_method_icm: 'ICM', deal_method_chip_chop: 'chip chop', deal_ends_in: 'lapses in {time}',
  deal_col_chips: 'Chips', deal_col_icm: 'ICM', deal_col_chip_chop: 'Chip chop', deal_col_accepted: 'Accepted', deal_col_paid: 'Paid',
  deal_accepted: 'accepted', deal_waiting: 'waiting', deal_accept: 'Accept', deal_decline: 'Decline',
  deal_wait_hand: 'Accept once this hand has ended: its result may change the figures.', deal_off: 'The deal is off.',
  deal_propose: 'Propose a deal', deal_method: 'Method', deal_leave: 'Left to play for ($)', deal_leave_bad: 'Enter an amount in dollars, 0 or more.',
  t_deal_proposed: '{who} proposed a deal by {method} · waiting for {names}', t_deal_made: 'Deal made by {method}: {paid}',
  t_col_deal: 'Deal', t_deal_paid_you: 'The deal paid you {amount}.', t_paused: 'Paused by the operator',
  nd_no_deals: 'This tournament takes no deals.', nd_final: 'Deals are made at the final table, once the field is final.',
  nd_made: 'A deal has been made.', nd_proposed: 'A deal is already proposed.', nd_leave: 'More is left to play for than first place pays.',
  nd_share: 'The prizes left cannot be shared.', nd_none: 'No deal is proposed.', nd_hand: 'Accept once the hand in play has ended.',
};

export const IT = {
  col_hands_per_hour: 'Mani/h', col_average_pot: 'Piatto medio', col_waiting: 'In attesa',
  your_tables: 'I tuoi tavoli', watching: 'osservi', seated_here: 'seduto', turn_at: 'Tocca a te a {table}', turn_title_at: '● Tocca a te a {table}',
  to_lobby: 'Lobby', to_lobby_title: 'La lobby (il posto a questo tavolo resta tuo)', open_table: 'Apri', open_table_n: 'Apri {name}',
  auto_muck: 'Scarto automatico', auto_muck_title: 'Scarta la mano perdente allo showdown senza chiedere',
  betting_pot_limit: 'Pot limit', betting_no_limit: 'No limit', min_bet: 'puntata minima {amount}',
  bet_size: 'Importo della puntata', bet_amount: 'Importo in fiches', bet_slider: 'Cursore della puntata', preset_min: 'Min', preset_half: '½ piatto',
  preset_three_quarters: '¾ piatto', preset_pot: 'Piatto', preset_max: 'Max', bet_size_range: 'Scegli un importo da {min} a {max}.',
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
  your_name: 'Il tuo nome', start: 'Inizia', balance: 'Saldo', tables: 'Tavoli', private_heading: 'Tavolo o torneo privato',
  private_id: 'id del tavolo o del torneo', invite_code: 'codice invito', join: 'Entra', last_hands: 'Ultime mani', close: 'Chiudi',
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
  waiting_players: 'In attesa di giocatori', waiting_hand: 'In attesa della prossima mano', your_turn: 'Tocca a te', turn_to_call: '{amount} da vedere', turn_options: 'puoi {actions}', turn_range: '{action} (fino a {max})', to_act: 'Tocca a {name}',
  time_bank: 'riserva di tempo', clock_split: '{s}s + riserva {b}s', clock_bank: 'riserva {s}s', clock: '{s}s',
  act_bring_in: 'Bring-in {amount}', act_complete: 'Completa a {amount}', act_bet: 'Punta {amount}', act_bet_big: 'Punta {amount} (coppia scoperta)',
  act_raise: 'Rilancia a {amount}', act_call: 'Vedi {amount}', act_call_plain: 'Vedi', act_check: 'Check', act_fold: 'Passa', act_show: 'Mostra', act_muck: 'Scarta',
  act_declare_high: 'Alto', act_declare_low: 'Basso', act_declare_both: 'Entrambi', act_declare_title: 'Dichiara {declaration}', declare_prompt: 'Dichiara: alto, basso o entrambi',
  declared: 'ha dichiarato', declared_as: 'dichiara {declaration}', decl_high: 'alto', decl_low: 'basso', decl_both: 'entrambi',
  pre_check_fold: 'Check/passa', pre_check: 'Check', pre_call_any: 'Vedi tutto', pre_bring_in: 'Bring-in automatico', pre_actions: 'Azioni anticipate', pre_fold_any: 'Passa a ogni puntata', pre_call: 'Vedi {amount}', pre_bet: 'Punta', pre_raise: 'Rilancia', pre_complete: 'Completa', action_bar: 'Le tue azioni', actions_group: 'Azioni',
  keys_title: 'Scorciatoie da tastiera', key_fold: 'Passa', key_check_call: 'Check o vedi', key_bet: 'Punta, rilancia o completa (la misura minore, o quella scelta)',
  key_larger: 'La misura maggiore: la puntata grande con una coppia scoperta, il piatto a pot limit e no limit', key_bring_in: 'Bring-in', key_show_muck: 'Mostra o scarta',
  key_declare: 'Dichiara alto, basso o entrambi', key_last_hands: 'Ultime mani: apri o chiudi', key_sit_out: 'Pausa, o rientra',
  key_tournament: 'Il torneo (a un tavolo del torneo): apri o chiudi', key_next_table: 'Il prossimo tavolo dove tocca a te', key_escape: 'Chiudi il pannello',
  sat_out_timeout: 'Il tuo tempo è scaduto e sei stato messo in pausa. Non riceverai carte finché non rientri.',
  sat_out_self: 'Sei in pausa.', im_back: 'Sono tornato',
  sat_out_busted: 'Non hai più fiches: ricarica, poi rientra.', no_low: 'nessun basso',
  reconnect_try: 'Riconnessione: riprova tra un momento.', unreachable: 'Il server non è raggiungibile.', session_failed: 'Impossibile iniziare una sessione ({status}).',
  tournament_seat: 'Torneo: giochi al tavolo {table}, posto {seat}.', tournament_placed: 'Il tuo torneo è finito: {place} posto, premio {prize}.',
  tn_removed: 'Un operatore ti ha rimosso da questo tavolo.', tn_removed_at: 'Un operatore ti ha rimosso dal tavolo {table}.',
  tn_access: 'L’accesso a questo tavolo è cambiato: non lo stai più guardando.', tn_access_at: 'L’accesso al tavolo {table} è cambiato: non lo stai più guardando.',
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
  log_declaration: 'Dichiarazione: {list}', log_declared: '{who} ha dichiarato', log_declares: '{who} dichiara {declaration}', log_declarations: 'Dichiarazioni: {list}',
  log_wins: '{who} vince {amount}', log_wins_with: '{who} vince {amount} con {hand}', log_high_half: 'metà alta', log_low_half: 'metà bassa', log_spade_half: 'metà della picca', log_side: 'piatto laterale {n}',
  result_wins: '{who} vince {amount}', strength: 'La tua mano: {hand}',
  variant_stud: 'Stud', variant_stud8: 'Stud Hi/Lo', variant_razz: 'Razz',
  variant_london: 'London Lowball', variant_stud8_declare: 'Stud Hi/Lo con dichiarazione', variant_chicago: 'Chicago', variant_mississippi: 'Mississippi Stud',
  street_third: '3ª strada', street_fourth: '4ª strada', street_fifth: '5ª strada', street_sixth: '6ª strada', street_seventh: '7ª strada',
  stakes_line: 'ante {ante} · bring-in {bring_in}', turn_title: '● Tocca a te',
  card_back: 'Carta coperta', card_name: '{rank} di {suit}', card_down: '{card}, carta coperta',
  in_hand: 'nella mano', in_high: 'nella mano alta', in_low: 'nella mano bassa', in_both: 'nella mano alta e in quella bassa',
  suit_c: 'fiori', suit_d: 'quadri', suit_h: 'cuori', suit_s: 'picche',
  rank: ['Due', 'Tre', 'Quattro', 'Cinque', 'Sei', 'Sette', 'Otto', 'Nove', 'Dieci', 'Fante', 'Regina', 'Re', 'Asso'],
  plural: ['Due', 'Tre', 'Quattro', 'Cinque', 'Sei', 'Sette', 'Otto', 'Nove', 'Dieci', 'Fanti', 'Regine', 'Re', 'Assi'],
  al: ['al Due', 'al Tre', 'al Quattro', 'al Cinque', 'al Sei', 'al Sette', 'all’Otto', 'al Nove', 'al Dieci', 'al Fante', 'alla Regina', 'al Re', 'all’Asso'],
  h_royal: 'Scala reale', h_sflush: 'Scala colore {al}', h_quads: 'Poker di {p}', h_full: 'Full di {p} su {q}',
  h_flush: 'Colore {al}', h_straight: 'Scala {al}', h_trips: 'Tris di {p}', h_two_pair: 'Doppia coppia, {p} e {q}',
  h_pair: 'Coppia di {p}', h_high: 'Carta alta, {r}', h_hi: 'ALTO: {h}', h_lo: 'BASSO: {h}', h_spade: 'Picca coperta, {r}', h_spade_part: 'PICCA: {h}',
  tournaments: 'Tornei', no_tournaments: 'Nessun torneo al momento.', variant_rotation: 'Misto (Razz, Stud, Stud Hi/Lo)',
  t_kind_sit_and_go: 'Sit & Go', t_kind_scheduled: 'Programmato',
  t_status_registering: 'Iscrizioni aperte', t_status_running: 'In corso', t_status_finished: 'Finito', t_status_cancelled: 'Annullato',
  t_entrants: '{n}/{max} giocatori', t_fee: '{entry} + {fee} di commissione', t_starts_at_players: 'parte a {n} giocatori', t_starts_at: 'inizia {when}',
  t_register: 'Iscriviti', t_unregister: 'Annulla iscrizione', t_open: 'Dettagli', t_registered: 'Sei iscritto', t_code: 'Codice invito per {name}',
  t_back: 'Lobby', t_level: 'Livello {n} di {count}', t_next_level_in: 'prossimo livello tra {time}', t_level_hands: 'livello di {n} mani', t_next_level_hands: 'prossimo livello tra {n} mani', t_row_level: 'livello {n}, {left} in gioco',
  t_last_level: 'ultimo livello', t_game: 'Gioco: {game}', t_next_game: 'poi: {game}', t_players_left: 'Giocatori rimasti: {left} su {total}',
  t_your_place: 'Il tuo piazzamento: {place}', t_structure: 'Struttura', t_col_level: 'Livello', t_col_ante: 'Ante', t_col_bring_in: 'Bring-in',
  t_col_limits: 'Limiti', t_col_length: 'Durata', t_minutes: '{n} min', t_hands: '{n} mani', t_entrants_h: 'Iscritti',
  t_col_player: 'Giocatore', t_col_chips: 'Fiches', t_col_where: 'Tavolo', t_col_place: 'Posizione', t_col_prize: 'Premio', t_col_percent: 'Quota',
  t_tables_h: 'Tavoli', t_col_table: 'Tavolo', t_col_players: 'Giocatori', t_col_hands: 'Mani', t_payouts_h: 'Premi', t_results_h: 'Classifica',
  t_pool: 'Montepremi: {pool}', t_starting_chips: 'Fiches iniziali: {chips}', t_hand_for_hand: 'Mano per mano', t_no_results: 'Nessuno è ancora uscito.',
  t_at_table: 'tavolo {table}, posto {seat}', t_state_registered: 'iscritto', t_state_playing: 'in gioco', t_state_out: 'eliminato', t_state_won: 'vincitore',
  t_out_prize: 'Hai finito {place} e vinto {prize}.', t_out_none: 'Hai finito {place}.', t_winner: 'Hai vinto il torneo! Premio: {prize}.',
  t_view: 'Torneo', t_my_table: 'Il mio tavolo', t_over: 'Il torneo è finito: ecco la classifica.', t_level_stakes: 'Livello {n}: {limits} · ante {ante}',
  t_table_clock_none: 'senza limite di tempo', t_your_chips: 'Le tue fiches: {chips}',
  err_t_insufficient_balance: 'Il tuo saldo non basta per l’iscrizione e la commissione.', err_t_invite_required: 'Torneo privato: inserisci il codice invito.',
  err_unknown_tournament: 'Quel torneo non esiste.', err_tournament_full: 'Il torneo è al completo.', err_tournament_started: 'Il torneo è già iniziato.',
  err_registration_closed: 'Le iscrizioni sono chiuse.', err_already_registered: 'Sei già iscritto.', err_not_registered: 'Non sei iscritto.',
  offer_region: 'Offerta del torneo', offer_rebuy_title: 'Rebuy', offer_addon_title: 'Add-on',
  offer_rebuy: '{name}: sei eliminato, ma puoi rientrare: {chips} fiches per {price}.',
  offer_addon: '{name}: il periodo dei rebuy è finito. Add-on: altre {chips} fiches per {price}.',
  offer_ends_in: 'scade tra {time}', offer_buy: 'Compra per {price}', offer_dismiss: 'Ignora',
  t_bought_rebuy: 'Rebuy acquistato: {chips} fiches per {fee}. Il tuo saldo: {balance}.',
  t_bought_addon: 'Add-on acquistato: {chips} fiches per {fee}. Il tuo saldo: {balance}.',
  tournament_seat_rebuy: 'Sei di nuovo in gioco al tavolo {table}, posto {seat}.',
  t_rebuys_h: 'Rebuy e add-on', t_rebuy_terms: 'Rebuy: {chips} fiches per {fee}, fino alla fine del livello {level}',
  t_rebuy_max: 'al massimo {n} a giocatore', t_rebuy_no_max: 'senza limite a giocatore',
  t_addon_terms: 'Add-on: {chips} fiches per {fee}, una volta, alla fine del periodo dei rebuy', t_no_addon: 'Nessun add-on',
  t_sold: 'Venduti finora: {rebuys} rebuy, {addons} add-on', t_sold_rebuys: 'Venduti finora: {rebuys} rebuy',
  t_rebuy_open: 'I rebuy sono in vendita ora (a chi ha {chips} fiches o meno).', t_addon_open: 'L’add-on è in vendita: mancano {time}.',
  t_rebuy_over: 'Il periodo dei rebuy è finito.', t_rebuy_button: 'Rebuy ({price})', t_addon_button: 'Add-on ({price})',
  t_entrant_rebuys: 'rebuy: {n}', t_entrant_addon: 'add-on', t_state_may_rebuy: 'eliminato, può rientrare',
  err_not_offered: 'Non ti è offerto ora.', err_p_insufficient_balance: 'Il tuo saldo non basta.',
  err_p_tournament_full: 'Il torneo non vende più.', err_p_offline: 'Non connesso: riprova tra un momento.',
  np_stack: 'Il rebuy richiede uno stack pari o inferiore a quello iniziale.', np_max: 'Hai già comprato tutti i rebuy consentiti.',
  np_lapsed: 'L’offerta di rebuy è scaduta: sei eliminato.', np_taken: 'Hai già preso l’add-on.',
  np_still_in: 'L’add-on è per chi è ancora in gioco.', np_rebuy_closed: 'I rebuy sono chiusi.', np_addon_closed: 'L’add-on non è in vendita ora.',
  t_breaks: 'Pausa di {minutes} min ogni {n} livelli', t_breaks_every: 'Pausa di {minutes} min dopo ogni livello',
  t_on_break: 'In pausa: si riprende tra {time}', break_region: 'Pausa del torneo', break_title: 'Pausa',
  break_resumes: 'si riprende tra {time}', break_said: 'Pausa del torneo: si riprende alle {time}.',
  t_fee_bounty: '{entry} + {bounty} di taglia + {fee} di commissione', t_knockout: 'Knockout: taglia di {bounty} su ogni giocatore', t_knockout_progressive: 'Knockout progressivo: taglia di {bounty} su ogni giocatore',
  t_bounties_paid: 'taglie pagate: {paid}', t_col_bounty: 'Taglia', t_bounties_won: 'vinte {amount}', t_col_bounties: 'Taglie',
  seat_bounty: 'taglia {amount}', t_row_knockout: 'Knockout', t_row_knockout_progressive: 'Knockout progressivo',
  bounty_won: '{who} ha vinto {amount} per aver eliminato {out}', bounty_won_you: 'Hai vinto {amount} per aver eliminato {out}',
  bounty_won_on_you: '{who} ha vinto {amount} per averti eliminato',
  bounty_own: '{who} ha vinto {amount}: la taglia sulla propria testa', bounty_own_you: 'Hai vinto {amount}: la taglia sulla tua testa',
  deal_region: 'Accordo', deal_title_proposed: 'Accordo proposto', deal_title_made: 'Accordo fatto', deal_open: 'Accordo',
  deal_text: '{who} propone un accordo con {method}: {shared} da dividere, {leave} ancora in palio.',
  deal_text_you: 'Proponi un accordo con {method}: {shared} da dividere, {leave} ancora in palio.',
  deal_made_text: 'Accordo fatto con {method}: {shared} diviso, ogni quota pagata; {leave} ancora in palio.',
  deal_made_end: 'Accordo fatto con {method}: {shared} diviso, ogni quota pagata. Il torneo finisce qui.',
  deal_method_icm: 'ICM', deal_method_chip_chop: 'chip chop', deal_ends_in: 'scade tra {time}',
  deal_col_chips: 'Fiches', deal_col_icm: 'ICM', deal_col_chip_chop: 'Chip chop', deal_col_accepted: 'Accettato', deal_col_paid: 'Pagato',
  deal_accepted: 'accettato', deal_waiting: 'in attesa', deal_accept: 'Accetta', deal_decline: 'Rifiuta',
  deal_wait_hand: 'Accetta quando questa mano è finita: il suo esito può cambiare le cifre.', deal_off: 'L’accordo è saltato.',
  deal_propose: 'Proponi un accordo', deal_method: 'Metodo', deal_leave: 'Ancora in palio ($)', deal_leave_bad: 'Inserisci un importo in dollari, 0 o più.',
  t_deal_proposed: '{who} ha proposto un accordo con {method} · in attesa di {names}', t_deal_made: 'Accordo fatto con {method}: {paid}',
  t_col_deal: 'Accordo', t_deal_paid_you: 'L’accordo ti ha pagato {amount}.', t_paused: 'Sospeso dall’operatore',
  nd_no_deals: 'Questo torneo non prevede accordi.', nd_final: 'Gli accordi si fanno al tavolo finale, a iscrizioni chiuse.',
  nd_made: 'Un accordo è già stato fatto.', nd_proposed: 'Un accordo è già proposto.', nd_leave: 'Resterebbe in palio più di quanto paga il primo posto.',
  nd_share: 'I premi rimasti non si possono dividere.', nd_none: 'Nessun accordo è proposto.', nd_hand: 'Accetta quando la mano in corso è finita.',
};

export const HU = {
  col_hands_per_hour: 'Leosztás/óra', col_average_pot: 'Átlagkassza', col_waiting: 'Várakozók',
  your_tables: 'Asztalaid', watching: 'nézed', seated_here: 'ülsz', turn_at: 'Te következel itt: {table}', turn_title_at: '● Te következel: {table}',
  to_lobby: 'Lobbi', to_lobby_title: 'A lobbi (a helyed itt megmarad)', open_table: 'Megnyitás', open_table_n: '{name} megnyitása',
  auto_muck: 'Automatikus bedobás', auto_muck_title: 'A vesztes lapokat a leleplezésnél kérdés nélkül bedobja',
  betting_pot_limit: 'Pot limit', betting_no_limit: 'No limit', min_bet: 'minimális tét {amount}',
  bet_size: 'Tét mérete', bet_amount: 'Összeg zsetonban', bet_slider: 'Tét csúszka', preset_min: 'Min', preset_half: '½ kassza',
  preset_three_quarters: '¾ kassza', preset_pot: 'Kassza', preset_max: 'Max', bet_size_range: 'Válassz összeget {min} és {max} között.',
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
  your_name: 'A neved', start: 'Kezdés', balance: 'Egyenleg', tables: 'Asztalok', private_heading: 'Privát asztal vagy verseny',
  private_id: 'asztal- vagy versenyazonosító', invite_code: 'meghívókód', join: 'Belépés', last_hands: 'Utolsó leosztások', close: 'Bezárás',
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
  waiting_players: 'Játékosokra vár', waiting_hand: 'A következő leosztásra vár', your_turn: 'Te következel', turn_to_call: '{amount} a megadás', turn_options: 'lehetőségeid: {actions}', turn_range: '{action} (legfeljebb {max})', to_act: '{name} következik',
  time_bank: 'időbank', clock_split: '{s}mp + időbank {b}mp', clock_bank: 'időbank {s}mp', clock: '{s}mp',
  act_bring_in: 'Bring-in {amount}', act_complete: 'Kiegészítés {amount}-ra', act_bet: 'Tét {amount}', act_bet_big: 'Tét {amount} (nyitott pár)',
  act_raise: 'Emelés {amount}-ra', act_call: 'Megadás {amount}', act_call_plain: 'Megadás', act_check: 'Passz', act_fold: 'Dobás', act_show: 'Mutat', act_muck: 'Bedob',
  act_declare_high: 'Felső', act_declare_low: 'Alsó', act_declare_both: 'Mindkettő', act_declare_title: 'Bemondás: {declaration}', declare_prompt: 'Bemondás: felső, alsó vagy mindkettő',
  declared: 'bemondott', declared_as: 'bemondás: {declaration}', decl_high: 'felső', decl_low: 'alsó', decl_both: 'mindkettő',
  pre_check_fold: 'Passz/dobás', pre_check: 'Passz', pre_call_any: 'Bármit megad', pre_bring_in: 'Automatikus bring-in', pre_actions: 'Előre választott lépés', pre_fold_any: 'Dobás bármilyen tétre', pre_call: 'Megadás {amount}', pre_bet: 'Tét', pre_raise: 'Emelés', pre_complete: 'Kiegészítés', action_bar: 'Lépéseid', actions_group: 'Lépések',
  keys_title: 'Billentyűparancsok', key_fold: 'Dobás', key_check_call: 'Passz vagy megadás', key_bet: 'Tét, emelés vagy kiegészítés (a kisebb méret, vagy a választott)',
  key_larger: 'A nagyobb méret: nagy tét nyitott párnál, a kassza pot limitnél és no limitnél', key_bring_in: 'Bring-in', key_show_muck: 'Mutatás vagy eldobás',
  key_declare: 'Bemondás: felső, alsó vagy mindkettő', key_last_hands: 'Utolsó leosztások: megnyitás vagy bezárás', key_sit_out: 'Szünet, vagy visszaülés',
  key_tournament: 'A verseny (versenyasztalnál): megnyitás vagy bezárás', key_next_table: 'A következő asztal, ahol te következel', key_escape: 'A panel bezárása',
  sat_out_timeout: 'Lejárt az időd, ezért szünetre kerültél. Amíg vissza nem jössz, nem kapsz lapot.',
  sat_out_self: 'Szünetelsz.', im_back: 'Visszajöttem',
  sat_out_busted: 'Elfogytak a zsetonjaid: tölts fel, majd ülj vissza.', no_low: 'nincs alsó',
  reconnect_try: 'Újrakapcsolódás: próbáld újra egy pillanat múlva.', unreachable: 'A szerver nem érhető el.', session_failed: 'Nem sikerült munkamenetet indítani ({status}).',
  tournament_seat: 'Verseny: a(z) {table}. asztalnál játszol, {seat}. hely.', tournament_placed: 'Számodra véget ért a verseny: {place} hely, nyeremény {prize}.',
  tn_removed: 'Egy operátor eltávolított erről az asztalról.', tn_removed_at: 'Egy operátor eltávolított a(z) {table} asztalról.',
  tn_access: 'Megváltozott az asztal hozzáférése: már nem nézed.', tn_access_at: 'Megváltozott a(z) {table} asztal hozzáférése: már nem nézed.',
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
  log_declaration: 'Bemondás: {list}', log_declared: '{who} bemondott', log_declares: '{who} bemondása: {declaration}', log_declarations: 'Bemondások: {list}',
  log_wins: '{who} nyer: {amount}', log_wins_with: '{who} nyer: {amount}, ezzel: {hand}', log_high_half: 'felső fél', log_low_half: 'alsó fél', log_spade_half: 'pikk fél', log_side: '{n}. mellékkassza',
  result_wins: '{who} nyer: {amount}', strength: 'A kezed: {hand}',
  variant_stud: 'Stud', variant_stud8: 'Stud Hi/Lo', variant_razz: 'Razz',
  variant_london: 'London Lowball', variant_stud8_declare: 'Stud Hi/Lo bemondással', variant_chicago: 'Chicago', variant_mississippi: 'Mississippi Stud',
  street_third: '3. utca', street_fourth: '4. utca', street_fifth: '5. utca', street_sixth: '6. utca', street_seventh: '7. utca',
  stakes_line: 'ante {ante} · bring-in {bring_in}', turn_title: '● Te következel',
  card_back: 'Lefordított lap', card_name: '{suit} {rank}', card_down: '{card}, lefordított lap',
  in_hand: 'a kézben', in_high: 'a felső kézben', in_low: 'az alsó kézben', in_both: 'a felső és az alsó kézben',
  suit_c: 'treff', suit_d: 'káró', suit_h: 'kőr', suit_s: 'pikk',
  rank: ['kettes', 'hármas', 'négyes', 'ötös', 'hatos', 'hetes', 'nyolcas', 'kilences', 'tízes', 'bubi', 'dáma', 'király', 'ász'],
  hand_rank: ['Kettes', 'Hármas', 'Négyes', 'Ötös', 'Hatos', 'Hetes', 'Nyolcas', 'Kilences', 'Tízes', 'Bubi', 'Dáma', 'Király', 'Ász'],
  plural: ['Kettesek', 'Hármasok', 'Négyesek', 'Ötösök', 'Hatosok', 'Hetesek', 'Nyolcasok', 'Kilencesek', 'Tízesek', 'Bubik', 'Dámák', 'Királyok', 'Ászok'],
  h_royal: 'Royal flös', h_sflush: 'Színsor, {r} magas', h_quads: 'Póker, {p}', h_full: 'Full, {p} és {q}',
  h_flush: 'Flöss, {r} magas', h_straight: 'Sor, {r} magas', h_trips: 'Drill, {p}', h_two_pair: 'Két pár, {p} és {q}',
  h_pair: 'Egy pár, {p}', h_high: 'Magas lap, {r}', h_hi: 'FELSŐ: {h}', h_lo: 'ALSÓ: {h}', h_spade: 'Lefordított pikk, {r}', h_spade_part: 'PIKK: {h}',
  tournaments: 'Versenyek', no_tournaments: 'Most nincs verseny.', variant_rotation: 'Vegyes (Razz, Stud, Stud Hi/Lo)',
  t_kind_sit_and_go: 'Sit & Go', t_kind_scheduled: 'Időzített',
  t_status_registering: 'Regisztráció', t_status_running: 'Folyamatban', t_status_finished: 'Véget ért', t_status_cancelled: 'Törölve',
  t_entrants: '{n}/{max} játékos', t_fee: '{entry} + {fee} díj', t_starts_at_players: '{n} játékosnál indul', t_starts_at: 'kezdés: {when}',
  t_register: 'Nevezés', t_unregister: 'Nevezés visszavonása', t_open: 'Részletek', t_registered: 'Neveztél', t_code: 'Meghívókód: {name}',
  t_back: 'Lobbi', t_level: '{n}. szint / {count}', t_next_level_in: 'következő szint: {time} múlva', t_level_hands: '{n} leosztásos szint', t_next_level_hands: 'következő szint: {n} leosztás múlva', t_row_level: '{n}. szint, {left} játékos maradt',
  t_last_level: 'utolsó szint', t_game: 'Játék: {game}', t_next_game: 'utána: {game}', t_players_left: 'Maradt: {left} / {total} játékos',
  t_your_place: 'Helyezésed: {place}', t_structure: 'Felépítés', t_col_level: 'Szint', t_col_ante: 'Ante', t_col_bring_in: 'Bring-in',
  t_col_limits: 'Limitek', t_col_length: 'Hossz', t_minutes: '{n} perc', t_hands: '{n} leosztás', t_entrants_h: 'Nevezők',
  t_col_player: 'Játékos', t_col_chips: 'Zseton', t_col_where: 'Asztal', t_col_place: 'Helyezés', t_col_prize: 'Nyeremény', t_col_percent: 'Arány',
  t_tables_h: 'Asztalok', t_col_table: 'Asztal', t_col_players: 'Játékosok', t_col_hands: 'Leosztások', t_payouts_h: 'Kifizetések', t_results_h: 'Eredmények',
  t_pool: 'Díjalap: {pool}', t_starting_chips: 'Kezdő zseton: {chips}', t_hand_for_hand: 'Leosztásról leosztásra', t_no_results: 'Még senki sem esett ki.',
  t_at_table: '{table}. asztal, {seat}. hely', t_state_registered: 'nevezett', t_state_playing: 'játszik', t_state_out: 'kiesett', t_state_won: 'nyert',
  t_out_prize: '{place} helyen végeztél, nyeremény: {prize}.', t_out_none: '{place} helyen végeztél.', t_winner: 'Megnyerted a versenyt! Nyeremény: {prize}.',
  t_view: 'Verseny', t_my_table: 'Az asztalom', t_over: 'A verseny véget ért: lent az eredmények.', t_level_stakes: '{n}. szint: {limits} · ante {ante}',
  t_table_clock_none: 'nincs időkorlát', t_your_chips: 'Zsetonjaid: {chips}',
  err_t_insufficient_balance: 'Az egyenleged kevés a nevezési díjhoz.', err_t_invite_required: 'Privát verseny: add meg a meghívókódot.',
  err_unknown_tournament: 'Ez a verseny nem létezik.', err_tournament_full: 'A verseny megtelt.', err_tournament_started: 'A verseny már elkezdődött.',
  err_registration_closed: 'A nevezés lezárult.', err_already_registered: 'Már neveztél.', err_not_registered: 'Nem neveztél.',
  offer_region: 'Versenyajánlat', offer_rebuy_title: 'Rebuy', offer_addon_title: 'Add-on',
  offer_rebuy: '{name}: kiestél, de visszavásárolhatsz: {chips} zseton {price} áron.',
  offer_addon: '{name}: véget ért a rebuy-időszak. Add-on: további {chips} zseton {price} áron.',
  offer_ends_in: 'lejár: {time} múlva', offer_buy: 'Megveszem ({price})', offer_dismiss: 'Elvetés',
  t_bought_rebuy: 'Rebuy megvéve: {chips} zseton {fee} áron. Egyenleged: {balance}.',
  t_bought_addon: 'Add-on megvéve: {chips} zseton {fee} áron. Egyenleged: {balance}.',
  tournament_seat_rebuy: 'Újra játszol a(z) {table}. asztalnál, {seat}. hely.',
  t_rebuys_h: 'Rebuy és add-on', t_rebuy_terms: 'Rebuy: {chips} zseton {fee} áron, a(z) {level}. szint végéig',
  t_rebuy_max: 'játékosonként legfeljebb {n}', t_rebuy_no_max: 'játékosonként korlátlan',
  t_addon_terms: 'Add-on: {chips} zseton {fee} áron, egyszer, a rebuy-időszak végén', t_no_addon: 'Nincs add-on',
  t_sold: 'Eddig eladva: {rebuys} rebuy, {addons} add-on', t_sold_rebuys: 'Eddig eladva: {rebuys} rebuy',
  t_rebuy_open: 'Most lehet rebuyt venni ({chips} zseton vagy kevesebb esetén).', t_addon_open: 'Az add-on megvehető: még {time}.',
  t_rebuy_over: 'A rebuy-időszak véget ért.', t_rebuy_button: 'Rebuy ({price})', t_addon_button: 'Add-on ({price})',
  t_entrant_rebuys: 'rebuy: {n}', t_entrant_addon: 'add-on', t_state_may_rebuy: 'kiesett, visszavásárolhat',
  err_not_offered: 'Ezt most nem veheted meg.', err_p_insufficient_balance: 'Az egyenleged kevés hozzá.',
  err_p_tournament_full: 'A verseny többet nem árul.', err_p_offline: 'Nincs kapcsolat: próbáld újra egy pillanat múlva.',
  np_stack: 'Rebuyt csak a kezdő zsetonnál nem több zsetonnal lehet venni.', np_max: 'Már megvetted az összes engedélyezett rebuyt.',
  np_lapsed: 'A rebuy-ajánlat lejárt: kiestél.', np_taken: 'Az add-ont már megvetted.',
  np_still_in: 'Az add-on a még játékban lévőknek szól.', np_rebuy_closed: 'A rebuy lezárult.', np_addon_closed: 'Az add-on most nem vehető meg.',
  t_breaks: '{minutes} perces szünet minden {n}. szint után', t_breaks_every: '{minutes} perces szünet minden szint után',
  t_on_break: 'Szünet: a játék {time} múlva folytatódik', break_region: 'Versenyszünet', break_title: 'Szünet',
  break_resumes: 'a játék {time} múlva folytatódik', break_said: 'Versenyszünet: a játék {time}-kor folytatódik.',
  t_fee_bounty: '{entry} + {bounty} fejpénz + {fee} díj', t_knockout: 'Knockout: {bounty} fejpénz minden játékoson', t_knockout_progressive: 'Progresszív knockout: {bounty} fejpénz minden játékoson',
  t_bounties_paid: 'kifizetett fejpénz: {paid}', t_col_bounty: 'Fejpénz', t_bounties_won: 'nyert {amount}', t_col_bounties: 'Fejpénz',
  seat_bounty: 'fejpénz {amount}', t_row_knockout: 'Knockout', t_row_knockout_progressive: 'Progresszív knockout',
  bounty_won: '{who} {amount} fejpénzt nyert {out} kiejtéséért', bounty_won_you: '{amount} fejpénzt nyertél {out} kiejtéséért',
  bounty_won_on_you: '{who} {amount} fejpénzt nyert a kiejtésedért',
  bounty_own: '{who} {amount} összeget nyert: a saját fejpénzét', bounty_own_you: '{amount} összeget nyertél: a saját fejpénzedet',
  deal_region: 'Megegyezés', deal_title_proposed: 'Megegyezési javaslat', deal_title_made: 'Megegyezés létrejött', deal_open: 'Megegyezés',
  deal_text: '{who} megegyezést javasol ({method}): {shared} felosztása, {leave} marad játékban.',
  deal_text_you: 'Megegyezést javasolsz ({method}): {shared} felosztása, {leave} marad játékban.',
  deal_made_text: 'Megegyezés ({method}): {shared} felosztva, minden rész kifizetve; {leave} marad játékban.',
  deal_made_end: 'Megegyezés ({method}): {shared} felosztva, minden rész kifizetve. A verseny itt véget ér.',
  deal_method_icm: 'ICM', deal_method_chip_chop: 'zsetonarányos', deal_ends_in: 'lejár {time} múlva',
  deal_col_chips: 'Zseton', deal_col_icm: 'ICM', deal_col_chip_chop: 'Zsetonarányos', deal_col_accepted: 'Elfogadta', deal_col_paid: 'Kifizetve',
  deal_accepted: 'elfogadta', deal_waiting: 'vár', deal_accept: 'Elfogadom', deal_decline: 'Elutasítom',
  deal_wait_hand: 'A leosztás végén fogadhatod el: az eredménye módosíthatja az összegeket.', deal_off: 'A megegyezés meghiúsult.',
  deal_propose: 'Megegyezés javaslata', deal_method: 'Módszer', deal_leave: 'Játékban marad ($)', deal_leave_bad: 'Adj meg egy dollárösszeget (0 vagy több).',
  t_deal_proposed: '{who} megegyezést javasolt ({method}) · várakozás: {names}', t_deal_made: 'Megegyezés ({method}): {paid}',
  t_col_deal: 'Megegyezés', t_deal_paid_you: 'A megegyezés {amount} összeget fizetett neked.', t_paused: 'Az üzemeltető szüneteltette',
  nd_no_deals: 'Ebben a versenyben nincs megegyezés.', nd_final: 'Megegyezni a döntőasztalnál lehet, ha a mezőny már végleges.',
  nd_made: 'A megegyezés már létrejött.', nd_proposed: 'Már van javasolt megegyezés.', nd_leave: 'Több maradna játékban, mint amennyit az első hely fizet.',
  nd_share: 'A maradék díjak nem oszthatók fel.', nd_none: 'Nincs javasolt megegyezés.', nd_hand: 'A folyamatban lévő leosztás végén fogadhatod el.',
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

/** A refused tournament registration in words: a tournament's own wording where the code
 *  means something else at a table (the balance, the invite code), else as any error. */
export const tournamentErrorText = (m) => (DICTS[lang][`err_t_${m.code}`] || EN[`err_t_${m.code}`] ? t(`err_t_${m.code}`) : errorText(m));

// A rebuy's or the add-on's refusal (`not_offered`): the server's reason (proto/schema.json's
// ErrorCode says which there are) in the page's words; a reason this page does not know yet as
// sent.
export const NOT_OFFERED = {
  'a rebuy needs a stack at or below the starting stack': 'np_stack',
  'this entry has bought every rebuy the tournament allows': 'np_max',
  'the rebuy offer has lapsed: the entry is out': 'np_lapsed',
  'this entry has taken the add-on': 'np_taken',
  'the add-on is for players still in': 'np_still_in',
  'rebuys are closed': 'np_rebuy_closed',
  'the add-on is not on offer': 'np_addon_closed',
};

// A deal's refusal (`not_now`): the server's reason in the page's words; one this page does not
// know yet as sent.
export const NO_DEAL = {
  'this tournament takes no deals': 'nd_no_deals',
  'deals are made at the final table, once the field is final': 'nd_final',
  'a deal has been made': 'nd_made',
  'a deal is already proposed': 'nd_proposed',
  'more is left to play for than first place pays': 'nd_leave',
  'the prizes left cannot be shared': 'nd_share',
  'no deal is proposed': 'nd_none',
  'no deal': 'nd_none',
  'accept once the hand in play has ended': 'nd_hand',
};

/** A refused deal proposal or answer in words: `not_now` says why (translated when known, else
 *  the server's own words), any other code as any error. */
export const noDealKey = (message) => NO_DEAL[String(message ?? '').trim().toLowerCase().replace(/\.$/, '')] ?? null;

export function dealErrorText(m) {
  if (m.code === 'not_now') {
    const key = noDealKey(m.message);
    return key ? t(key) : m.message || errorText(m);
  }
  return errorText(m);
}

/** A refused rebuy or add-on in words: `not_offered` says why (the server's reason, translated
 *  when known), a purchase's own wording where the code means something else elsewhere (the
 *  balance), else as any error. */
export function purchaseErrorText(m) {
  if (m.code === 'not_offered') {
    const key = NOT_OFFERED[String(m.message ?? '').trim().toLowerCase().replace(/\.$/, '')];
    return key ? t(key) : m.message || t('err_not_offered');
  }
  return DICTS[lang][`err_p_${m.code}`] || EN[`err_p_${m.code}`] ? t(`err_p_${m.code}`) : errorText(m);
}

// A table's notice that answers no request (an `error` with `table_id`, code `forbidden`: an
// operator removed us from the table, or its access tightened so its watchers are dropped): the
// server's reason in the page's words; one this page does not know yet as sent.
export const TABLE_NOTICE = {
  'an operator removed you from this table': 'tn_removed',
  "the table's access changed: join again": 'tn_access',
  'the table’s access changed: join again': 'tn_access',
};

/** Which of TABLE_NOTICE's words say a table's notice (by the server's message), or null. */
export const tableNoticeKey = (message) => TABLE_NOTICE[String(message ?? '').trim().toLowerCase().replace(/\.$/, '')] ?? null;

/** A table's notice in words: the page's own (naming the table when `table`, its name, is
 *  known), else the server's message, else the code's words. */
export function tableNoticeText(m, table = '') {
  const key = tableNoticeKey(m.message);
  if (!key) return m.message || errorText(m);
  return table ? t(`${key}_at`, { table }) : t(key);
}
