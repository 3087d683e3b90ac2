//! The lobby's views of a tournament (`GET /api/tournaments`, `GET /api/tournaments/{id}`),
//! rendered from the core's state.

use stud_engine::Variant;
use stud_proto::{
    DealPlayer, DealState, EntrantState, RotationChange, RotationGame, TournamentDeal, TournamentDetail,
    TournamentEntrant, TournamentGame, TournamentKind, TournamentLevel, TournamentRebuys, TournamentResult,
    TournamentStatus, TournamentSummary, TournamentTable,
};
use stud_tournament::{DealMethod, EntryState, Games, Kind, LevelLength, Status, Tournament};

fn method(m: DealMethod) -> stud_proto::DealMethod {
    match m {
        DealMethod::Icm => stud_proto::DealMethod::Icm,
        DealMethod::ChipChop => stud_proto::DealMethod::ChipChop,
    }
}

/// The wire's deal method as the core's.
pub fn deal_method(m: stud_proto::DealMethod) -> DealMethod {
    match m {
        stud_proto::DealMethod::Icm => DealMethod::Icm,
        stud_proto::DealMethod::ChipChop => DealMethod::ChipChop,
    }
}

/// A deal as it was last shown, now off (declined, lapsed, or a player went out).
pub fn deal_off(last: TournamentDeal) -> TournamentDeal {
    TournamentDeal { state: DealState::Off, until_ms: None, ..last }
}

/// The deal open at the final table (with every player's figures by both methods as the
/// chips stand), or the one made; none otherwise.
pub fn deal(t: &Tournament) -> Option<TournamentDeal> {
    let entry = |no: u32| t.entries().iter().find(|e| e.no == no);
    if let Some(d) = t.deal() {
        let players = d
            .shares
            .iter()
            .filter_map(|&(no, cents)| {
                let e = entry(no)?;
                let (icm, chip_chop) = match d.method {
                    DealMethod::Icm => (cents, 0),
                    DealMethod::ChipChop => (0, cents),
                };
                Some(DealPlayer {
                    player_id: e.player,
                    name: e.name.clone(),
                    chips: e.chips,
                    icm,
                    chip_chop,
                    accepted: true,
                    paid: Some(cents),
                })
            })
            .collect();
        let by = entry(d.by).map(|e| e.player).unwrap_or_default();
        let shared = d.shares.iter().map(|(_, c)| c).sum();
        return Some(TournamentDeal {
            state: DealState::Made,
            by,
            method: method(d.method),
            leave: d.leave,
            shared,
            until_ms: None,
            players,
        });
    }
    let p = t.proposal()?;
    let icm = t.deal_figures(DealMethod::Icm, p.leave).unwrap_or_default();
    let chop = t.deal_figures(DealMethod::ChipChop, p.leave).unwrap_or_default();
    let figure = |list: &[(u32, u64)], no: u32| list.iter().find(|(n, _)| *n == no).map_or(0, |(_, c)| *c);
    let players = t
        .entries()
        .iter()
        .filter(|e| e.state == EntryState::Playing)
        .map(|e| DealPlayer {
            player_id: e.player,
            name: e.name.clone(),
            chips: e.chips,
            icm: figure(&icm, e.no),
            chip_chop: figure(&chop, e.no),
            accepted: p.accepted.contains(&e.no),
            paid: None,
        })
        .collect();
    Some(TournamentDeal {
        state: DealState::Proposed,
        by: entry(p.by).map(|e| e.player).unwrap_or_default(),
        method: method(p.method),
        leave: p.leave,
        shared: icm.iter().map(|(_, c)| c).sum(),
        until_ms: Some(p.until),
        players,
    })
}

fn status(s: Status) -> TournamentStatus {
    match s {
        Status::Registering => TournamentStatus::Registering,
        Status::Running => TournamentStatus::Running,
        Status::Finished => TournamentStatus::Finished,
        Status::Cancelled => TournamentStatus::Cancelled,
    }
}

fn kind(k: Kind) -> TournamentKind {
    match k {
        Kind::SitAndGo => TournamentKind::SitAndGo,
        Kind::Scheduled => TournamentKind::Scheduled,
    }
}

fn game(g: Games) -> TournamentGame {
    match g {
        Games::Fixed(Variant::Stud) => TournamentGame::Stud,
        Games::Fixed(Variant::Stud8) => TournamentGame::Stud8,
        Games::Fixed(Variant::Razz) => TournamentGame::Razz,
        Games::Fixed(Variant::London) => TournamentGame::London,
        Games::Fixed(Variant::Stud8Declare) => TournamentGame::Stud8Declare,
        Games::Fixed(Variant::Chicago) => TournamentGame::Chicago,
        Games::Fixed(Variant::Mississippi) => TournamentGame::Mississippi,
        Games::PerLevel | Games::PerHands(_) => TournamentGame::Rotation,
    }
}

/// A rotation's games, each with its betting structure (none for a single game).
fn rotation_games(spec: &stud_tournament::TournamentSpec) -> Option<Vec<RotationGame>> {
    matches!(spec.games, Games::PerLevel | Games::PerHands(_)).then(|| {
        spec.game_list().into_iter().map(|g| RotationGame { variant: g.variant, betting: Some(g.betting) }).collect()
    })
}

/// Entries that count (withdrawn ones do not).
fn entrants(t: &Tournament) -> impl Iterator<Item = &stud_tournament::Entry> {
    t.entries().iter().filter(|e| e.state != EntryState::Withdrawn)
}

/// One lobby line.
pub fn summary(t: &Tournament) -> TournamentSummary {
    let spec = t.spec();
    TournamentSummary {
        id: t.id(),
        name: spec.name.clone(),
        status: status(t.status()),
        kind: kind(spec.kind),
        variant: game(spec.games),
        betting: spec.betting,
        rotation_games: rotation_games(spec),
        start_at: spec.start_at,
        entrants: u32::try_from(entrants(t).count()).unwrap_or(u32::MAX),
        min_entrants: spec.min_entrants,
        max_entrants: spec.max_entrants,
        entry_fee: spec.entry_fee,
        house_fee: spec.house_fee,
        private: spec.invite_code.is_some(),
        seats_per_table: spec.seats_per_table,
        starting_chips: spec.starting_chips,
        level: t.level(),
        registration_open: t.registration_open(),
        players_left: u32::try_from(
            entrants(t).filter(|e| matches!(e.state, EntryState::Registered | EntryState::Playing)).count(),
        )
        .unwrap_or(u32::MAX),
        bounty: spec.bounty.map(|b| b.cents),
        satellite_for: spec.satellite.map(|s| s.target),
    }
}

/// Where an entry is, as the lobby says it: the winner of a finished tournament has won.
fn entrant_state(t: &Tournament, e: &stud_tournament::Entry) -> EntrantState {
    match e.state {
        EntryState::Registered | EntryState::Withdrawn => EntrantState::Registered,
        EntryState::Playing if t.status() == Status::Finished => EntrantState::Won,
        EntryState::Playing => EntrantState::Playing,
        EntryState::Out => EntrantState::Out,
    }
}

/// The whole tournament as the lobby shows it at `now` (ms since the Unix epoch).
pub fn detail(t: &Tournament, now: u64) -> TournamentDetail {
    let spec = t.spec();
    let players: std::collections::HashMap<u32, uuid::Uuid> = t.entries().iter().map(|e| (e.no, e.player)).collect();
    let next_level_at = t.next_level_at();
    TournamentDetail {
        id: t.id(),
        name: spec.name.clone(),
        status: status(t.status()),
        kind: kind(spec.kind),
        variant: game(spec.games),
        betting: spec.betting,
        rotation_games: rotation_games(spec),
        rotation_hands: spec.games.hands(),
        rotation_pending: t.rotation_pending().map(|(rotation_hands, games)| RotationChange {
            rotation_hands,
            rotation_games: games
                .into_iter()
                .map(|g| RotationGame { variant: g.variant, betting: Some(g.betting) })
                .collect(),
        }),
        start_at: spec.start_at,
        min_entrants: spec.min_entrants,
        max_entrants: spec.max_entrants,
        seats_per_table: spec.seats_per_table,
        entry_fee: spec.entry_fee,
        house_fee: spec.house_fee,
        starting_chips: spec.starting_chips,
        private: spec.invite_code.is_some(),
        levels: spec
            .levels
            .iter()
            .map(|l| TournamentLevel {
                ante: l.ante,
                bring_in: l.bring_in,
                small_bet: l.small_bet,
                big_bet: l.big_bet,
                minutes: match l.length {
                    LevelLength::Minutes(m) => Some(m),
                    LevelLength::Hands(_) => None,
                },
                hands: match l.length {
                    LevelLength::Hands(h) => Some(h),
                    LevelLength::Minutes(_) => None,
                },
            })
            .collect(),
        level: t.level(),
        game: t.game_now().variant,
        game_betting: t.game_now().betting,
        next_level_at,
        // While paused the clock stands: what was left when it stopped (the end moves on by
        // the pause when it is resumed).
        ms_to_next_level: next_level_at.map(|at| at.saturating_sub(t.paused_since().unwrap_or(now))),
        hands_to_next_level: t.hands_to_next_level(),
        registration_open: t.registration_open(),
        hand_for_hand: t.hand_for_hand().is_some(),
        entrants: entrants(t)
            .map(|e| {
                let spot = (e.state == EntryState::Playing).then(|| t.floor().spot_of(e.no)).flatten();
                TournamentEntrant {
                    entry: e.no,
                    player_id: e.player,
                    name: e.name.clone(),
                    state: entrant_state(t, e),
                    chips: e.chips,
                    table: spot.map(|s| s.table),
                    seat: spot.map(|s| s.seat),
                    place: e.place,
                    prize: e.prize,
                    rebuys: e.rebuys,
                    addon: e.addon,
                    rebuy_offer_until: e.rebuy_offer_until,
                    bounty: spec.bounty.map(|_| e.head),
                    bounties_won: e.bounties,
                }
            })
            .collect(),
        tables: t
            .floor()
            .tables()
            .iter()
            .map(|(no, table)| TournamentTable {
                table: *no,
                players: table.seats.values().filter_map(|e| players.get(e).copied()).collect(),
                hands: table.hands,
            })
            .collect(),
        pool: t.pool(),
        payouts: t.payout_table().iter().map(|bp| f64::from(*bp) / 100.0).collect(),
        prizes: t.prizes(),
        results: t
            .results()
            .into_iter()
            .map(|p| TournamentResult {
                place: p.place,
                player_id: p.player_id,
                name: p.name,
                prize: p.prize,
                bounties_won: p.bounties,
                deal: p.deal,
                ticket_for: p.ticket,
            })
            .collect(),
        rebuys: spec.rebuys.map(|r| TournamentRebuys {
            rebuy_until_level: r.until_level,
            rebuy_chips: r.chips,
            rebuy_fee: r.fee,
            max_rebuys: r.max,
            addon_chips: r.addon.map(|a| a.chips),
            addon_fee: r.addon.map(|a| a.fee),
            rebuy_open: t.rebuy_open(),
            addon_until: t.addon_until(),
            rebuys: t.rebuys(),
            addons: t.addons(),
        }),
        break_every_levels: spec.breaks.map(|b| b.0),
        break_minutes: spec.breaks.map(|b| b.1),
        on_break_until: t.break_until(),
        paused_since: t.paused_since(),
        bounty: spec.bounty.map(|b| b.cents),
        progressive_bounty: spec.bounty.is_some_and(|b| b.progressive),
        bounties_paid: t.bounties_paid(),
        satellite_for: spec.satellite.map(|s| s.target),
        tickets: spec.satellite.map(|_| t.tickets()),
        ticket: spec.satellite.map(|s| s.ticket),
        repeat_minutes: spec.repeat_minutes,
        recurring: spec.recurring,
        deals: spec.deals,
        deal: deal(t),
        next_id: None,
    }
}
