//! Distance estimates for the searches, and which of them are admissible for which moves.
//!
//! | heuristic | admissible with `Four` | admissible with `Eight` |
//! |---|---|---|
//! | `Octile` | yes | yes (exact on open ground) |
//! | `Manhattan` | yes (exact on open ground) | **no**: it overestimates diagonals |
//! | `Euclidean` | yes | yes |
//! | `Chebyshev` | yes | yes |
//! | `Zero` | yes (this is Dijkstra) | yes |
//!
//! Every admissible pick here is also consistent, because each is a norm scaled to the plain
//! ground cost and weights are at least 1. An inadmissible pick is allowed, for teaching, but
//! the searches then lose their optimality guarantee; [`Heuristic::is_admissible`] says so.

use serde::{Deserialize, Serialize};

use crate::cost::{COST_ONE, Cost, DIAGONAL, STRAIGHT};
use crate::grid::{Connectivity, Pos};

/// A distance estimate between two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Heuristic {
    /// Straight moves plus diagonal moves: the exact open-ground distance with 8 neighbours.
    Octile,
    /// |dx| + |dy|: the exact open-ground distance with 4 neighbours.
    Manhattan,
    /// The straight-line distance.
    Euclidean,
    /// max(|dx|, |dy|).
    Chebyshev,
    /// Always 0: turns A* into Dijkstra.
    Zero,
}

impl Heuristic {
    /// Every heuristic, in menu order.
    pub const ALL: [Heuristic; 5] = [
        Heuristic::Octile,
        Heuristic::Manhattan,
        Heuristic::Euclidean,
        Heuristic::Chebyshev,
        Heuristic::Zero,
    ];

    /// Octile for `Eight`, Manhattan for `Four`.
    pub fn default_for(conn: Connectivity) -> Heuristic {
        match conn {
            Connectivity::Eight => Heuristic::Octile,
            Connectivity::Four => Heuristic::Manhattan,
        }
    }

    /// Whether this heuristic never overestimates with `conn`, so searches stay optimal.
    pub fn is_admissible(self, conn: Connectivity) -> bool {
        !(self == Heuristic::Manhattan && conn == Connectivity::Eight)
    }

    /// A short lowercase name: `octile`, `manhattan`, ...
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Octile => "octile",
            Heuristic::Manhattan => "manhattan",
            Heuristic::Euclidean => "euclidean",
            Heuristic::Chebyshev => "chebyshev",
            Heuristic::Zero => "zero",
        }
    }

    /// Whether [`estimate`](Self::estimate) rounds down (Euclidean): then a sum of two
    /// estimates can fall one unit short of the triangle inequality. The others are exact
    /// integer norms, subadditive to the unit.
    pub fn floors(self) -> bool {
        self == Heuristic::Euclidean
    }

    /// The estimate for a displacement of `dx` columns and `dy` rows, in [`Cost`] units.
    /// It grows with `dx` and with `dy`.
    #[inline]
    pub fn estimate(self, dx: u32, dy: u32) -> Cost {
        let (dx, dy) = (dx as Cost, dy as Cost);
        let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
        match self {
            Heuristic::Octile => COST_ONE * (hi - lo) + 2 * DIAGONAL * lo,
            Heuristic::Manhattan => COST_ONE * (dx + dy),
            Heuristic::Chebyshev => COST_ONE * hi,
            Heuristic::Euclidean => {
                // Scaled down by 2⁻³⁰ so that float rounding can never make it inconsistent.
                let d = ((dx * dx + dy * dy) as f64).sqrt();
                (d * COST_ONE as f64 * (1.0 - 1.0 / (1u64 << 30) as f64)).floor() as Cost
            }
            Heuristic::Zero => 0,
        }
    }

    /// The estimate between two cells.
    #[inline]
    pub fn between(self, a: Pos, b: Pos) -> Cost {
        self.estimate(a.x.abs_diff(b.x), a.y.abs_diff(b.y))
    }
}

// STRAIGHT is used in the docs' cost model; keep the import honest.
const _: () = assert!(COST_ONE == 2 * STRAIGHT);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::step_cost;

    #[test]
    fn octile_matches_a_plain_path() {
        // 3 right, 1 down: two straight moves and one diagonal.
        let h = Heuristic::Octile.estimate(3, 1);
        assert_eq!(h, 2 * step_cost(false, 1, 1) + step_cost(true, 1, 1));
    }

    #[test]
    fn admissible_ones_never_exceed_the_plain_distance() {
        for conn in [Connectivity::Four, Connectivity::Eight] {
            for dx in 0..20u32 {
                for dy in 0..20u32 {
                    let exact = match conn {
                        Connectivity::Eight => Heuristic::Octile.estimate(dx, dy),
                        Connectivity::Four => Heuristic::Manhattan.estimate(dx, dy),
                    };
                    for h in Heuristic::ALL {
                        if h.is_admissible(conn) {
                            assert!(h.estimate(dx, dy) <= exact, "{h:?} {conn:?} {dx} {dy}");
                        }
                    }
                }
            }
        }
        assert!(Heuristic::Manhattan.estimate(1, 1) > Heuristic::Octile.estimate(1, 1));
    }

    #[test]
    fn euclidean_is_consistent_on_unit_steps() {
        for dx in 0..60u32 {
            for dy in 0..60u32 {
                let h = Heuristic::Euclidean.estimate(dx, dy);
                assert!(h <= Heuristic::Euclidean.estimate(dx + 1, dy) + COST_ONE);
                assert!(h <= Heuristic::Euclidean.estimate(dx + 1, dy + 1) + 2 * DIAGONAL);
                assert!(Heuristic::Euclidean.estimate(dx + 1, dy) <= h + COST_ONE);
                assert!(Heuristic::Euclidean.estimate(dx + 1, dy + 1) <= h + 2 * DIAGONAL);
            }
        }
    }
}
