//! [`SmallList`]: a list of at most `N` small `Copy` values stored inline, for the events that
//! carry a handful of seats or cards. It serialises, and describes itself in JSON Schema,
//! exactly as a `Vec` would, so the wire format does not change; it never allocates, so
//! emitting and dropping those events costs nothing on the heap.

use std::fmt;
use std::ops::Deref;

use crate::card::{Card, Rank, Suit};
use crate::config::Seat;

/// A value to fill the unused slots of a [`SmallList`] with (never observed).
pub trait Filler: Copy {
    /// The filler.
    const FILL: Self;
}

impl Filler for Seat {
    const FILL: Seat = Seat::FIRST;
}

impl Filler for Card {
    const FILL: Card = Card::new(Rank::Two, Suit::Clubs);
}

/// At most `N` values, inline. Pushing beyond `N` is ignored (callers never need more: 8 seats,
/// 7 cards).
#[derive(Clone, Copy)]
pub struct SmallList<T: Filler, const N: usize> {
    items: [T; N],
    len: u8,
}

impl<T: Filler, const N: usize> SmallList<T, N> {
    /// The empty list.
    pub const fn new() -> Self {
        SmallList { items: [T::FILL; N], len: 0 }
    }

    /// Appends `value`; returns false (and drops it) when the list is full.
    pub fn push(&mut self, value: T) -> bool {
        match self.items.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = value;
                self.len += 1;
                true
            }
            None => false,
        }
    }
}

impl<T: Filler, const N: usize> Default for SmallList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Filler, const N: usize> Deref for SmallList<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.items.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

impl<T: Filler + PartialEq, const N: usize> PartialEq for SmallList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Filler + Eq, const N: usize> Eq for SmallList<T, N> {}

impl<T: Filler + fmt::Debug, const N: usize> fmt::Debug for SmallList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Filler, const N: usize> FromIterator<T> for SmallList<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = Self::new();
        for value in iter {
            if !list.push(value) {
                break;
            }
        }
        list
    }
}

impl<T: Filler, const N: usize> From<&[T]> for SmallList<T, N> {
    fn from(values: &[T]) -> Self {
        values.iter().copied().collect()
    }
}

#[cfg(feature = "serde")]
impl<T: Filler + serde::Serialize, const N: usize> serde::Serialize for SmallList<T, N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(feature = "serde")]
impl<'de, T: Filler + serde::Deserialize<'de>, const N: usize> serde::Deserialize<'de> for SmallList<T, N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor<T, const N: usize>(std::marker::PhantomData<T>);
        impl<'de, T: Filler + serde::Deserialize<'de>, const N: usize> serde::de::Visitor<'de> for Visitor<T, N> {
            type Value = SmallList<T, N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list of at most {N} items")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut list = SmallList::new();
                while let Some(value) = seq.next_element()? {
                    if !list.push(value) {
                        return Err(serde::de::Error::invalid_length(N + 1, &self));
                    }
                }
                Ok(list)
            }
        }
        d.deserialize_seq(Visitor::<T, N>(std::marker::PhantomData))
    }
}

/// Described exactly as `Vec<T>` is, so the published schema is unchanged.
#[cfg(feature = "schemars")]
impl<T: Filler + schemars::JsonSchema, const N: usize> schemars::JsonSchema for SmallList<T, N> {
    fn inline_schema() -> bool {
        <Vec<T> as schemars::JsonSchema>::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Vec<T> as schemars::JsonSchema>::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<T> as schemars::JsonSchema>::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_up_to_n_and_reads_as_a_slice() {
        let mut list: SmallList<Seat, 2> = SmallList::new();
        assert!(list.is_empty());
        assert!(list.push(Seat::FIRST));
        assert!(list.push(Seat::FIRST));
        assert!(!list.push(Seat::FIRST), "a full list refuses more");
        assert_eq!(list.len(), 2);
        assert_eq!(list, [Seat::FIRST, Seat::FIRST][..].into());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serialises_as_a_vec_and_refuses_too_many() {
        let cards = crate::card::parse_cards("AsKd7c").unwrap();
        let list: SmallList<Card, 7> = cards.iter().copied().collect();
        let json = serde_json::to_string(&list).unwrap();
        assert_eq!(json, serde_json::to_string(&cards).unwrap());
        let back: SmallList<Card, 7> = serde_json::from_str(&json).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(&*back, &cards[..]);
        assert!(serde_json::from_str::<SmallList<Card, 2>>(&json).is_err());
    }
}
