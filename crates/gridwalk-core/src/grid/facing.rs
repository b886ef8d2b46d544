//! [`Facing`]: the direction a robot faces, for moves that turn (LoRR's `MAPF_T`).

use serde::{Deserialize, Serialize};

/// The direction an agent faces. Its [`index`](Facing::index) is LoRR's orientation: 0 east,
/// 1 south, 2 west, 3 north; a clockwise turn adds one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Facing {
    /// Toward growing x.
    #[default]
    East,
    /// Toward growing y (down the map).
    South,
    /// Toward x = 0.
    West,
    /// Toward y = 0 (up the map).
    North,
}

impl Facing {
    /// Every facing, by index.
    pub const ALL: [Facing; 4] = [Facing::East, Facing::South, Facing::West, Facing::North];

    /// 0 east, 1 south, 2 west, 3 north.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The facing of index `i` mod 4.
    pub fn from_index(i: u8) -> Facing {
        Facing::ALL[(i % 4) as usize]
    }

    /// `east`, `south`, `west` or `north`.
    pub fn name(self) -> &'static str {
        match self {
            Facing::East => "east",
            Facing::South => "south",
            Facing::West => "west",
            Facing::North => "north",
        }
    }

    /// The step one cell ahead, as (dx, dy) with y growing down.
    pub fn step(self) -> (i32, i32) {
        match self {
            Facing::East => (1, 0),
            Facing::South => (0, 1),
            Facing::West => (-1, 0),
            Facing::North => (0, -1),
        }
    }
}

named_enum!(Facing, name, "facing");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips_and_turns_wrap() {
        for f in Facing::ALL {
            assert_eq!(Facing::from_index(f.index()), f);
            assert_eq!(f.name().parse::<Facing>(), Ok(f));
        }
        assert_eq!(Facing::from_index(Facing::North.index() + 1), Facing::East);
        assert!(
            "up".parse::<Facing>()
                .unwrap_err()
                .contains("east, south, west or north")
        );
    }
}
