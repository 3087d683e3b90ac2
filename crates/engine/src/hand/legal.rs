//! What the player to act may do: [`Legal`], worked out once per turn, and its listing
//! [`ActionList`].

use crate::action::{Action, Declaration};
use crate::config::Chips;

/// A small list of actions (at most 4 are ever legal at once).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ActionList {
    items: [Action; 4],
    // a full word: a byte here, stored and then read back as part of a wider copy, stalls
    len: usize,
}

impl ActionList {
    const EMPTY: ActionList = ActionList { items: [Action::Fold; 4], len: 0 };
}

impl std::ops::Deref for ActionList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        self.items.get(..self.len).unwrap_or(&[])
    }
}

/// One legal action as the API lists it. In big-bet stud (RULES.md 10.5) a bet, raise or
/// opening entry carries `min_to` and `max_to`, the smallest and largest street totals (capped
/// by the stack), and its `action` is the wager at `min_to`; any total in between is legal.
/// Fixed-limit entries have neither: their `action` carries its exact `to`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct LegalEntry {
    /// the action (a wager at its smallest total in big-bet stud)
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub action: Action,
    /// big-bet stud: the smallest street total allowed
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub min_to: Option<Chips>,
    /// big-bet stud: the largest street total allowed
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub max_to: Option<Chips>,
}

/// The legal actions of the player to act, kept compact (24 bytes, `Copy`): the hand works it
/// out once per turn ([`crate::Hand::legal`]); [`Legal::list`] lists the actions, in the order
/// [`crate::Hand::legal_actions`] gives them, and [`Legal::allows`] checks one.
///
/// Callers that pick an action in a tight loop (bots, simulations) read it directly with
/// [`Legal::passive`], [`Legal::wagers`] and friends instead of building a list.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Legal {
    /// [`Legal::FOLD`] and friends
    flags: u16,
    /// the wager totals offered (`0`: not offered); the kind is in `flags`
    to: [Chips; 2],
}

impl Legal {
    /// Nothing is legal (not this seat's turn, or the hand is over).
    pub const NONE: Legal = Legal { flags: 0, to: [0; 2] };
    pub(super) const SHOW: u16 = 1;
    pub(super) const MUCK: u16 = 2;
    pub(super) const BRING_IN: u16 = 4;
    pub(super) const FOLD: u16 = 8;
    pub(super) const CALL: u16 = 16;
    pub(super) const CHECK: u16 = 32;
    pub(super) const COMPLETE: u16 = 64;
    pub(super) const BET: u16 = 128;
    pub(super) const RAISE: u16 = 256;
    /// Big-bet stud (RULES.md 10.5): the wager may go to any total from `to[0]` to `to[1]`.
    pub(super) const RANGE: u16 = 512;
    /// The declare game (RULES.md 12.2): high, low or both.
    pub(super) const DECLARE: u16 = 1024;
    const WAGERS: u16 = Legal::COMPLETE | Legal::BET | Legal::RAISE;

    /// The showdown choice: show or muck.
    pub(super) const SHOW_OR_MUCK: Legal = Legal { flags: Legal::SHOW | Legal::MUCK, to: [0; 2] };

    /// The declaration: high, low or both.
    pub(super) const DECLARE_ANY: Legal = Legal { flags: Legal::DECLARE, to: [0; 2] };

    /// Flags plus offered wager totals (`0`: none); the hand builds these.
    pub(super) fn new(flags: u16, to: [Chips; 2]) -> Legal {
        Legal { flags, to }
    }

    pub(super) fn add(&mut self, flag: u16) {
        self.flags |= flag;
    }

    pub(super) fn set_to(&mut self, k: usize, to: Chips) {
        if let Some(slot) = self.to.get_mut(k) {
            *slot = to;
        }
    }

    fn has(self, flag: u16) -> bool {
        self.flags & flag != 0
    }

    /// True when nothing is legal.
    pub fn is_empty(self) -> bool {
        self.flags == 0
    }

    /// True when `action` is legal now.
    pub fn allows(self, action: Action) -> bool {
        let (flag, to) = Legal::flag_of(action);
        let sized = flag & Legal::WAGERS == 0
            || if self.has(Legal::RANGE) {
                (to >= self.to[0]) & (to <= self.range_max())
            } else {
                (to != 0) & ((to == self.to[0]) | (to == self.to[1]))
            };
        self.flags & flag != 0 && sized
    }

    /// The wager (complete, bet or raise) to the street total `to`, if one is legal now: how a
    /// history's "bet to X" line becomes an action.
    pub fn wager_at(self, to: Chips) -> Option<Action> {
        let action = self.wager_to(to);
        (self.has(Legal::WAGERS) && self.allows(action)).then_some(action)
    }

    /// In big-bet stud (RULES.md 10.5), the wager offered as a range: the action at its
    /// smallest total, and the smallest and largest totals (`min_to`, `max_to`). `None` in
    /// fixed limit, or when no wager is offered.
    pub fn range(self) -> Option<(Action, Chips, Chips)> {
        (self.has(Legal::RANGE) && self.has(Legal::WAGERS))
            .then(|| (self.wager_to(self.to[0]), self.to[0], self.range_max()))
    }

    /// A range's largest total: `to[1]`, kept 0 when it equals `to[0]` so that the listing
    /// names one size.
    fn range_max(self) -> Chips {
        self.to[0].max(self.to[1])
    }

    /// Every legal action with its range: fixed-limit entries (and every non-wager) have no
    /// range; a big-bet wager is one entry at its smallest total with `min_to` and `max_to`.
    pub fn entries(self) -> Vec<LegalEntry> {
        let mut out: Vec<LegalEntry> = Vec::with_capacity(4);
        let range = self.range();
        for action in self.list().iter().copied() {
            match (range, action.to()) {
                (Some((at_min, min_to, max_to)), Some(_)) => {
                    if !out.iter().any(|e| e.min_to.is_some()) {
                        out.push(LegalEntry { action: at_min, min_to: Some(min_to), max_to: Some(max_to) });
                    }
                }
                _ => out.push(LegalEntry { action, min_to: None, max_to: None }),
            }
        }
        out
    }

    /// The set of `actions`, for a caller that has only their list (from the wire, say).
    /// [`Legal::list`] gives the list back for any list the engine makes; of anything else,
    /// wager sizes past the second are dropped.
    pub fn from_list(actions: &[Action]) -> Legal {
        let mut out = Legal::NONE;
        let mut sizes = 0;
        for &action in actions {
            let (flag, to) = Legal::flag_of(action);
            out.flags |= flag;
            if flag & Legal::WAGERS != 0 {
                out.set_to(sizes, to);
                sizes += 1;
            }
        }
        out
    }

    /// An action's flag, and its wager total (0 for other kinds). A flag and an amount per
    /// kind, then one test, in `allows`: no jump on the kind (it is random in simulations,
    /// and a table of jumps mispredicts).
    fn flag_of(action: Action) -> (u16, Chips) {
        match action {
            Action::Show => (Legal::SHOW, 0),
            Action::Muck => (Legal::MUCK, 0),
            Action::BringIn => (Legal::BRING_IN, 0),
            Action::Fold => (Legal::FOLD, 0),
            Action::Call => (Legal::CALL, 0),
            Action::Check => (Legal::CHECK, 0),
            Action::Complete { to } => (Legal::COMPLETE, to),
            Action::Bet { to } => (Legal::BET, to),
            Action::Raise { to } => (Legal::RAISE, to),
            Action::Declare { .. } => (Legal::DECLARE, 0),
        }
    }

    /// True when the choice is a declaration (RULES.md 12.2).
    pub fn is_declare(self) -> bool {
        self.has(Legal::DECLARE)
    }

    /// True at showdown, when the choice is to show or muck.
    pub fn is_show_or_muck(self) -> bool {
        self.has(Legal::SHOW)
    }

    /// True when folding is legal (only when facing a bet).
    pub fn can_fold(self) -> bool {
        self.has(Legal::FOLD)
    }

    /// The action that adds nothing voluntary: bring in, call or check (whichever is legal).
    pub fn passive(self) -> Option<Action> {
        if self.has(Legal::BRING_IN) {
            Some(Action::BringIn)
        } else if self.has(Legal::FOLD) {
            Some(Action::Call)
        } else if self.has(Legal::CHECK) {
            Some(Action::Check)
        } else {
            None
        }
    }

    /// How many wager sizes are offered (0, 1, or 2 on a 4th street with an open pair; in
    /// big-bet stud the ends of the range, 1 when they are equal).
    pub fn wager_count(self) -> usize {
        if self.has(Legal::WAGERS) { usize::from(self.to[0] != 0) + usize::from(self.to[1] != 0) } else { 0 }
    }

    /// The `k`-th wager offered (complete, bet or raise), smallest first.
    pub fn wager(self, k: usize) -> Option<Action> {
        if !self.has(Legal::WAGERS) {
            return None;
        }
        let to = self.to.into_iter().filter(|&to| to != 0).nth(k)?;
        Some(self.wager_to(to))
    }

    /// The wagers offered, smallest first.
    pub fn wagers(self) -> impl Iterator<Item = Action> {
        (0..self.wager_count()).filter_map(move |k| self.wager(k))
    }

    fn wager_to(self, to: Chips) -> Action {
        if self.has(Legal::COMPLETE) {
            Action::Complete { to }
        } else if self.has(Legal::BET) {
            Action::Bet { to }
        } else {
            Action::Raise { to }
        }
    }

    /// The actions, in the order the API has always listed them: declare high, low, both; show, muck; bring-in; fold,
    /// call or check; then the wager sizes, smallest first. In big-bet stud the wagers listed
    /// are the two ends of the range ([`Legal::range`], [`Legal::entries`] give all of it).
    pub fn list(self) -> ActionList {
        // Built in place in the returned list: assembling an array and then moving it into the
        // list costs a store-forwarding stall per call on x86.
        let f = self.flags;
        let mut out = ActionList::EMPTY;
        if f & Legal::DECLARE != 0 {
            for (slot, declaration) in out.items.iter_mut().zip(Declaration::ALL) {
                *slot = Action::Declare { declaration };
            }
            out.len = Declaration::ALL.len();
            return out;
        }
        if f & (Legal::SHOW | Legal::MUCK) != 0 {
            out.items[0] = Action::Show;
            out.items[1] = Action::Muck;
            out.len = 2;
            return out;
        }
        if f & Legal::BRING_IN != 0 {
            out.items[0] = Action::BringIn;
            out.len = 1;
        } else if f & Legal::FOLD != 0 {
            out.items[1] = Action::Call;
            out.len = 2;
        } else if f & Legal::CHECK != 0 {
            out.items[0] = Action::Check;
            out.len = 1;
        }
        if f & Legal::WAGERS != 0 {
            for to in self.to {
                if to != 0 {
                    if let Some(slot) = out.items.get_mut(out.len) {
                        *slot = self.wager_to(to);
                        out.len += 1;
                    }
                }
            }
        }
        out
    }
}
