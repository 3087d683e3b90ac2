//! The tournament floor: which entry sits at which table and seat, and the moves that keep the
//! tables balanced (TDA rules as the reference).
//!
//! Decisions:
//! - **Start**: as few tables as the field needs (`ceil(entries / seats_per_table)`), sizes
//!   differing by at most one; each table's occupied seats are drawn at random and the
//!   shuffled entries fill them (TDA: random seating). Tables are numbered 1, 2, ...
//! - **Late entries and re-entries** sit at the table with the fewest players (lowest number
//!   on a tie), in a random empty seat; when every table is full a new table opens (the next
//!   number never used: a closed table's number is never reused) and balancing fills it.
//! - **When**: moves are worked out after every hand, for the tables that are between hands
//!   (a table in a hand is never touched; it is looked at again when its hand ends). A player
//!   moved to a table that is in a hand waits for its next one.
//! - **Breaking**: whenever there are more tables than `ceil(players / seats_per_table)`, a
//!   table between hands breaks: the one with the fewest players (the highest number on a
//!   tie). Its players, in a random order, each go to
//!   the table with the fewest players (lowest number on a tie), in a random empty seat (TDA:
//!   players from a broken table are seated by random draw).
//! - **Balancing** (TDA): with 2 tables they are kept within 1 player of each other, with 3
//!   or more within 2. While a table between hands has more players than that over the
//!   smallest table, one player moves from it (the largest such table; lowest number on a tie)
//!   to the smallest table (lowest number on a tie). Stud has no button, so no seat is better placed
//!   for the blinds; TDA's stud-only guidance is "players move by position: the last seat
//!   open at the short table is the seat filled". So the player moved is the one sitting, at
//!   the big table, in the seat number of the short table's highest empty seat, or the first
//!   occupied seat after it going round; they take that seat. It needs no draw, anyone can
//!   check it, and nobody can choose to dodge it. ("Last seat open" could also be read as the
//!   seat that emptied last; we read it as the highest-numbered one, which needs no history.)

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::draw::Drawer;

/// A table number (1, 2, ...).
pub type TableNo = u32;

/// An entry number (1, 2, ... in the order entries were bought).
pub type EntryNo = u32;

/// A place at the tournament: table and seat (1..=seats_per_table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Spot {
    /// the table
    pub table: TableNo,
    /// the seat
    pub seat: u8,
}

/// Why a player moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveReason {
    /// tables differed by more than [`Floor::spread`]
    Balance,
    /// their table broke
    Break,
}

/// One move for the server to carry out between hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// who (the entry)
    pub entry: EntryNo,
    /// from
    pub from: Spot,
    /// to
    pub to: Spot,
    /// why
    pub reason: MoveReason,
}

/// One table of the tournament.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// seat -> entry
    pub seats: BTreeMap<u8, EntryNo>,
    /// the entries dealt into the hand in play and their chips at its start (`None`: between
    /// hands)
    pub hand: Option<Vec<(EntryNo, u64)>>,
    /// hands this table has dealt
    pub hands: u64,
}

impl Table {
    /// Players seated.
    pub fn count(&self) -> usize {
        self.seats.len()
    }

    /// In a hand.
    pub fn in_hand(&self) -> bool {
        self.hand.is_some()
    }

    fn empty_seats(&self, seats_per_table: u8) -> Vec<u8> {
        (1..=seats_per_table).filter(|s| !self.seats.contains_key(s)).collect()
    }
}

/// What happened to the floor after a hand: moves and broken tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rebalance {
    /// moves, in the order to make them
    pub moves: Vec<Move>,
    /// tables that broke (empty now, closed)
    pub closed: Vec<TableNo>,
}

/// Every table and who sits where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Floor {
    seats_per_table: u8,
    tables: BTreeMap<TableNo, Table>,
    /// tables ever opened: a new table takes the next number, never a closed table's
    opened: TableNo,
}

impl Floor {
    /// No tables yet.
    pub fn new(seats_per_table: u8) -> Floor {
        Floor { seats_per_table: seats_per_table.max(2), tables: BTreeMap::new(), opened: 0 }
    }

    /// The open tables.
    pub fn tables(&self) -> &BTreeMap<TableNo, Table> {
        &self.tables
    }

    pub(crate) fn table_mut(&mut self, table: TableNo) -> Option<&mut Table> {
        self.tables.get_mut(&table)
    }

    /// Seats used at each table.
    pub fn seats_per_table(&self) -> u8 {
        self.seats_per_table
    }

    /// Players seated anywhere.
    pub fn players(&self) -> usize {
        self.tables.values().map(Table::count).sum()
    }

    /// The fewest tables that seat `players`.
    pub fn tables_needed(&self, players: usize) -> usize {
        players.div_ceil(usize::from(self.seats_per_table))
    }

    /// Where an entry sits.
    pub fn spot_of(&self, entry: EntryNo) -> Option<Spot> {
        self.tables
            .iter()
            .find_map(|(&table, t)| t.seats.iter().find(|&(_, &e)| e == entry).map(|(&seat, _)| Spot { table, seat }))
    }

    /// Seats `entries` at the start (see the module documentation). Returns each entry's spot.
    pub(crate) fn seat_start(&mut self, entries: &[EntryNo], drawer: &mut Drawer) -> Vec<(EntryNo, Spot)> {
        self.tables.clear();
        let spt = usize::from(self.seats_per_table);
        let count = self.tables_needed(entries.len()).max(1);
        let mut spots = Vec::with_capacity(entries.len());
        for t in 0..count {
            // Sizes differ by at most one; the bigger tables are the lower numbers.
            let size = entries.len() / count + usize::from(t < entries.len() % count);
            let mut seats: Vec<u8> = (1..=self.seats_per_table).collect();
            drawer.shuffle(&mut seats);
            seats.truncate(size.min(spt));
            seats.sort_unstable();
            self.tables.insert(t as TableNo + 1, Table::default());
            self.opened = t as TableNo + 1;
            spots.extend(seats.into_iter().map(|seat| Spot { table: t as TableNo + 1, seat }));
        }
        let mut order = entries.to_vec();
        drawer.shuffle(&mut order);
        let mut out = Vec::with_capacity(order.len());
        for (entry, spot) in order.into_iter().zip(spots) {
            if let Some(t) = self.tables.get_mut(&spot.table) {
                t.seats.insert(spot.seat, entry);
            }
            out.push((entry, spot));
        }
        out.sort_unstable();
        out
    }

    /// Seats a late entry or a re-entry (see the module documentation).
    pub(crate) fn seat_new(&mut self, entry: EntryNo, drawer: &mut Drawer) -> Spot {
        let spt = self.seats_per_table;
        let open = self
            .tables
            .iter()
            .filter(|(_, t)| t.count() < usize::from(spt))
            .min_by_key(|&(&n, t)| (t.count(), n))
            .map(|(&n, _)| n);
        let table = match open {
            Some(n) => n,
            None => {
                self.opened += 1;
                self.tables.insert(self.opened, Table::default());
                self.opened
            }
        };
        let t = self.tables.entry(table).or_default();
        let empty = t.empty_seats(spt);
        let seat = drawer.pick(&empty).unwrap_or(1);
        t.seats.insert(seat, entry);
        Spot { table, seat }
    }

    /// Takes an entry off its seat (eliminated).
    pub(crate) fn remove(&mut self, entry: EntryNo) {
        for t in self.tables.values_mut() {
            t.seats.retain(|_, &mut e| e != entry);
        }
    }

    fn smallest(&self) -> Option<(TableNo, usize)> {
        self.tables.iter().map(|(&n, t)| (n, t.count())).min_by_key(|&(n, c)| (c, n))
    }

    /// How many players more than the smallest table a table may have (TDA): 1 with two
    /// tables (or one), 2 with three or more.
    pub fn spread(&self) -> usize {
        if self.tables.len() <= 2 { 1 } else { 2 }
    }

    /// Breaks and balances the tables that are between hands (see the module documentation).
    pub(crate) fn rebalance(&mut self, drawer: &mut Drawer) -> Rebalance {
        let mut out = Rebalance::default();
        while self.tables.len() > self.tables_needed(self.players()).max(1) {
            let Some(victim) = self
                .tables
                .iter()
                .filter(|(_, t)| !t.in_hand())
                .min_by_key(|&(&n, t)| (t.count(), std::cmp::Reverse(n)))
                .map(|(&n, _)| n)
            else {
                break;
            };
            self.break_table(victim, drawer, &mut out);
        }
        while let Some((small, small_count)) = self.smallest() {
            let spread = self.spread();
            let big = self
                .tables
                .iter()
                .filter(|(_, t)| !t.in_hand() && t.count() > small_count + spread)
                .min_by_key(|&(&n, t)| (std::cmp::Reverse(t.count()), n))
                .map(|(&n, _)| n);
            let Some(big) = big else { break };
            match self.move_by_position(big, small) {
                Some(m) => out.moves.push(m),
                None => break,
            }
        }
        out
    }

    fn break_table(&mut self, victim: TableNo, drawer: &mut Drawer, out: &mut Rebalance) {
        let Some(table) = self.tables.remove(&victim) else { return };
        let mut leaving: Vec<(u8, EntryNo)> = table.seats.into_iter().collect();
        drawer.shuffle(&mut leaving);
        let spt = self.seats_per_table;
        for (seat, entry) in leaving {
            let target = self
                .tables
                .iter()
                .filter(|(_, t)| t.count() < usize::from(spt))
                .min_by_key(|&(&n, t)| (t.count(), n))
                .map(|(&n, _)| n);
            // There is always room: more tables than needed means the others have seats.
            let Some(to) = target else { continue };
            let t = self.tables.entry(to).or_default();
            let empty = t.empty_seats(spt);
            let Some(to_seat) = drawer.pick(&empty) else { continue };
            t.seats.insert(to_seat, entry);
            out.moves.push(Move {
                entry,
                from: Spot { table: victim, seat },
                to: Spot { table: to, seat: to_seat },
                reason: MoveReason::Break,
            });
        }
        out.closed.push(victim);
    }

    /// TDA stud: the short table's highest empty seat is filled by the big table's player in
    /// that seat number, or the first occupied seat after it going round.
    fn move_by_position(&mut self, big: TableNo, small: TableNo) -> Option<Move> {
        let spt = self.seats_per_table;
        let to_seat = *self.tables.get(&small)?.empty_seats(spt).last()?;
        let from_table = self.tables.get_mut(&big)?;
        let from_seat = (0..spt).map(|k| (to_seat - 1 + k) % spt + 1).find(|s| from_table.seats.contains_key(s))?;
        let entry = from_table.seats.remove(&from_seat)?;
        self.tables.get_mut(&small)?.seats.insert(to_seat, entry);
        Some(Move {
            entry,
            from: Spot { table: big, seat: from_seat },
            to: Spot { table: small, seat: to_seat },
            reason: MoveReason::Balance,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::draw::Draw;

    fn drawer(n: u8) -> Drawer {
        Drawer::new(&Draw([n; 32]))
    }

    fn counts(f: &Floor) -> Vec<usize> {
        f.tables.values().map(Table::count).collect()
    }

    /// A floor with these players per table (entries numbered table * 100 + seat), seats
    /// 1..=n taken.
    fn floor_of(spt: u8, sizes: &[usize]) -> Floor {
        let mut f = Floor::new(spt);
        f.opened = sizes.len() as TableNo;
        for (i, &n) in sizes.iter().enumerate() {
            let table = i as TableNo + 1;
            let seats = (1..=n as u8).map(|s| (s, table * 100 + u32::from(s))).collect();
            f.tables.insert(table, Table { seats, hand: None, hands: 0 });
        }
        f
    }

    #[test]
    fn the_start_uses_the_fewest_tables_within_one() {
        for (players, expected) in
            [(2, vec![2]), (8, vec![8]), (9, vec![5, 4]), (24, vec![8, 8, 8]), (25, vec![7, 6, 6, 6])]
        {
            let mut f = Floor::new(8);
            let entries: Vec<EntryNo> = (1..=players).collect();
            let spots = f.seat_start(&entries, &mut drawer(3));
            assert_eq!(counts(&f), expected, "{players} players");
            let seated: BTreeSet<EntryNo> = spots.iter().map(|s| s.0).collect();
            assert_eq!(seated.len(), players as usize);
            for (entry, spot) in spots {
                assert_eq!(f.spot_of(entry), Some(spot));
            }
        }
        // Seats are drawn: two seeds seat 9 players differently.
        let entries: Vec<EntryNo> = (1..=9).collect();
        let (mut a, mut b) = (Floor::new(8), Floor::new(8));
        assert_ne!(a.seat_start(&entries, &mut drawer(1)), b.seat_start(&entries, &mut drawer(2)));
    }

    #[test]
    fn balancing_moves_by_position_from_the_biggest_to_the_smallest() {
        // 8 and 6: the short table's highest empty seat is 8; the big table's seat 8 moves.
        let mut f = floor_of(8, &[8, 6]);
        let r = f.rebalance(&mut drawer(0));
        assert_eq!(
            r.moves,
            [Move {
                entry: 108,
                from: Spot { table: 1, seat: 8 },
                to: Spot { table: 2, seat: 8 },
                reason: MoveReason::Balance
            }]
        );
        assert_eq!(counts(&f), [7, 7]);
        // When that seat is empty at the big table, the next occupied seat going round moves.
        let mut f = floor_of(8, &[7, 5]);
        f.tables.get_mut(&1).unwrap().seats.remove(&7);
        f.tables.get_mut(&1).unwrap().seats.insert(8, 999);
        let r = f.rebalance(&mut drawer(0));
        // short table 2: empty 6, 7, 8 -> seat 8; big table: seat 8 holds 999.
        assert_eq!(r.moves[0].entry, 999);
        let mut f = floor_of(8, &[7, 5]);
        let r = f.rebalance(&mut drawer(0));
        // big table seats 1..=7: seat 8 empty, going round: seat 1.
        assert_eq!((r.moves[0].from.seat, r.moves[0].to.seat), (1, 8));
        // 7 and 6 differ by one: nothing moves.
        let mut f = floor_of(8, &[7, 6]);
        assert_eq!(f.rebalance(&mut drawer(0)), Rebalance::default());
    }

    #[test]
    fn a_table_in_a_hand_is_not_touched_until_its_hand_ends() {
        let mut f = floor_of(8, &[8, 5]);
        f.tables.get_mut(&1).unwrap().hand = Some(vec![]);
        assert_eq!(f.rebalance(&mut drawer(0)), Rebalance::default());
        f.tables.get_mut(&1).unwrap().hand = None;
        assert_eq!(f.rebalance(&mut drawer(0)).moves.len(), 1);
        assert_eq!(counts(&f), [7, 6]);
    }

    #[test]
    fn tables_break_as_the_field_shrinks() {
        // 3 tables, 15 players: two tables are enough; the smallest (table 3) breaks.
        let mut f = floor_of(8, &[6, 6, 3]);
        let r = f.rebalance(&mut drawer(5));
        assert_eq!(r.closed, [3]);
        assert_eq!(r.moves.len(), 3);
        assert!(r.moves.iter().all(|m| m.reason == MoveReason::Break && m.from.table == 3));
        let mut c = counts(&f);
        c.sort_unstable();
        assert_eq!(c, [7, 8]);
        // Equal sizes: the highest number breaks; down to the final table.
        let mut f = floor_of(8, &[4, 4]);
        let r = f.rebalance(&mut drawer(5));
        assert_eq!(r.closed, [2]);
        assert_eq!(counts(&f), [8]);
        // The table to break is busy: another one between hands breaks instead.
        let mut f = floor_of(8, &[5, 5, 4]);
        f.tables.get_mut(&3).unwrap().hand = Some(vec![]);
        let r = f.rebalance(&mut drawer(5));
        assert_eq!(r.closed, [2]);
        assert_eq!(f.tables.keys().copied().collect::<Vec<_>>(), [1, 3]);
    }

    #[test]
    fn late_entries_go_to_the_smallest_table_or_a_new_one() {
        let mut f = floor_of(2, &[2, 1]);
        let spot = f.seat_new(7, &mut drawer(1));
        assert_eq!(spot, Spot { table: 2, seat: 2 });
        let spot = f.seat_new(8, &mut drawer(1));
        assert_eq!(spot.table, 3);
        // A closed table's number is not reused.
        f.tables.remove(&3);
        f.tables.get_mut(&2).unwrap().seats.insert(1, 9);
        assert_eq!(f.seat_new(10, &mut drawer(1)).table, 4);
    }

    /// Every entry sits exactly once, no table is over size, seats are in range.
    fn check(f: &Floor, expected: &BTreeSet<EntryNo>) -> Result<(), TestCaseError> {
        let mut seen = BTreeSet::new();
        for t in f.tables.values() {
            prop_assert!(t.count() <= usize::from(f.seats_per_table));
            for (&seat, &entry) in &t.seats {
                prop_assert!((1..=f.seats_per_table).contains(&seat));
                prop_assert!(seen.insert(entry), "entry {} seated twice", entry);
            }
        }
        prop_assert_eq!(&seen, expected);
        Ok(())
    }

    proptest! {
        #[test]
        fn balancing_never_loses_duplicates_or_overfills(
            spt in 2u8..=8,
            players in 2u32..200,
            busts in proptest::collection::vec((any::<u32>(), any::<bool>(), any::<u8>()), 0..200),
        ) {
            let mut f = Floor::new(spt);
            let mut live: BTreeSet<EntryNo> = (1..=players).collect();
            let entries: Vec<EntryNo> = live.iter().copied().collect();
            f.seat_start(&entries, &mut drawer(9));
            check(&f, &live)?;
            let counts0 = counts(&f);
            prop_assert!(counts0.iter().max().unwrap() - counts0.iter().min().unwrap() <= 1);
            prop_assert_eq!(f.tables.len(), f.tables_needed(live.len()));
            for (pick, busy, seed) in busts {
                if live.len() <= 1 { break; }
                let gone = *live.iter().nth(pick as usize % live.len()).unwrap();
                f.remove(gone);
                live.remove(&gone);
                // Some table is in a hand now and then.
                let busy_table = if busy { f.tables.keys().next().copied() } else { None };
                if let Some(t) = busy_table { f.tables.get_mut(&t).unwrap().hand = Some(vec![]); }
                let before: BTreeMap<EntryNo, Spot> = live.iter().map(|&e| (e, f.spot_of(e).unwrap())).collect();
                let r = f.rebalance(&mut drawer(seed));
                check(&f, &live)?;
                for m in &r.moves {
                    prop_assert_eq!(before.get(&m.entry), Some(&m.from));
                    prop_assert!(Some(m.from.table) != busy_table, "moved from a table in a hand");
                }
                let idle: Vec<usize> = f.tables.values().filter(|t| !t.in_hand()).map(Table::count).collect();
                let min = f.tables.values().map(Table::count).min().unwrap();
                prop_assert!(idle.iter().all(|&c| c <= min + f.spread()), "{:?}", counts(&f));
                if let Some(t) = busy_table {
                    if let Some(table) = f.tables.get_mut(&t) { table.hand = None; }
                }
                let mut sizes: BTreeMap<TableNo, usize> = f.tables.iter().map(|(&n, t)| (n, t.count())).collect();
                let r = f.rebalance(&mut drawer(seed));
                check(&f, &live)?;
                // Without a break, each balancing move was needed when it was made: its table
                // had more than the spread over the smallest.
                if r.closed.is_empty() {
                    for m in &r.moves {
                        let min = *sizes.values().min().unwrap();
                        let spread = if sizes.len() <= 2 { 1 } else { 2 };
                        prop_assert!(sizes[&m.from.table] > min + spread, "a move balance did not need: {:?}", sizes);
                        *sizes.get_mut(&m.from.table).unwrap() -= 1;
                        *sizes.get_mut(&m.to.table).unwrap() += 1;
                    }
                }
                // Nobody in a hand: the fewest tables, within one player of each other with
                // two tables, within two with more (and a move only where that is broken).
                prop_assert_eq!(f.tables.len(), f.tables_needed(live.len()));
                let c = counts(&f);
                prop_assert!(c.iter().max().unwrap() - c.iter().min().unwrap() <= f.spread(), "{:?}", c);
            }
        }
    }
}
