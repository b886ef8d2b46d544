//! D\* Lite's `g` per id, in 4 bytes a cost where that is exact and 8 elsewhere.
//!
//! Under four-connected moves every move costs `STRAIGHT × (w1 + w2)` (weights 1–9,
//! `crate::cost`), so every finite `g` is a whole number of [`STRAIGHT`] units, at most
//! 18 per move and so below 18 × 2²⁶ < 2³¹ on the largest map: it is stored as that number
//! in a `u32`, exactly. Diagonal moves cost a multiple of `DIAGONAL`, which is no multiple of
//! a unit that large, so eight-connected planners keep 8 bytes. The 4-byte store halves the
//! lines and pages that readers of many planners' costs touch (the crowd's step rule).
//!
//! Saturation: [`INFINITY`] is stored as `u32::MAX` and reads back as `INFINITY`; a finite
//! cost of `u32::MAX` units or more, which no map allows, would read as `INFINITY` too.

use crate::cost::{Cost, INFINITY, STRAIGHT};
use crate::grid::Connectivity;
use crate::huge::HugeVec;

/// The `g` of each id: see the module docs.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Costs {
    /// Eight-connected: the costs themselves.
    Wide(HugeVec<Cost>),
    /// Four-connected: each cost in [`STRAIGHT`] units, `u32::MAX` for [`INFINITY`].
    Narrow(HugeVec<u32>),
}

/// `STRAIGHT` is 2³², so a cost's units are its high half.
const UNIT_BITS: u32 = STRAIGHT.trailing_zeros();
const _: () = assert!(STRAIGHT == 1 << UNIT_BITS);

/// A four-connected cost in 4 bytes.
#[inline(always)]
fn narrow(cost: Cost) -> u32 {
    debug_assert!(
        cost == INFINITY || cost.is_multiple_of(STRAIGHT),
        "a four-connected cost is whole straight units: {cost}"
    );
    (cost >> UNIT_BITS).min(u32::MAX as Cost) as u32
}

/// The cost of a 4-byte value.
#[inline(always)]
fn widen(units: u32) -> Cost {
    if units == u32::MAX {
        INFINITY
    } else {
        (units as Cost) << UNIT_BITS
    }
}

impl Costs {
    /// `n` ids of [`INFINITY`], in the store `conn`'s costs allow.
    pub(super) fn new(conn: Connectivity, n: usize) -> Costs {
        match conn {
            Connectivity::Four => Costs::Narrow(HugeVec::from_elem(u32::MAX, n)),
            Connectivity::Eight => Costs::Wide(HugeVec::from_elem(INFINITY, n)),
        }
    }

    /// `g` of `id`.
    #[inline(always)]
    pub(super) fn get(&self, id: usize) -> Cost {
        match self {
            Costs::Wide(g) => g[id],
            Costs::Narrow(g) => widen(g[id]),
        }
    }

    /// Sets `g` of `id`.
    #[inline(always)]
    pub(super) fn set(&mut self, id: usize, cost: Cost) {
        match self {
            Costs::Wide(g) => g[id] = cost,
            Costs::Narrow(g) => g[id] = narrow(cost),
        }
    }

    /// Grows to `n` ids, the new ones [`INFINITY`].
    pub(super) fn grow(&mut self, n: usize) {
        match self {
            Costs::Wide(g) => g.grow(n, INFINITY),
            Costs::Narrow(g) => g.grow(n, u32::MAX),
        }
    }

    /// Starts loading `g` of `id`.
    #[inline(always)]
    pub(super) fn prefetch(&self, id: usize) {
        match self {
            Costs::Wide(g) => crate::prefetch::prefetch(g, id),
            Costs::Narrow(g) => crate::prefetch::prefetch(g, id),
        }
    }

    /// Bytes of room held.
    pub(super) fn memory_bytes(&self) -> usize {
        match self {
            Costs::Wide(g) => g.capacity() * std::mem::size_of::<Cost>(),
            Costs::Narrow(g) => g.capacity() * 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::{DIAGONAL, step_cost};

    #[test]
    fn four_connected_costs_round_trip_exactly() {
        let mut g = Costs::new(Connectivity::Four, 4);
        assert!(matches!(g, Costs::Narrow(_)));
        // The longest four-connected path on the largest map, every cell of weight 9.
        let longest = (crate::grid::MAX_CELLS as Cost - 1) * step_cost(false, 9, 9);
        for (id, cost) in [0, step_cost(false, 1, 9), 7 * STRAIGHT, longest]
            .into_iter()
            .enumerate()
        {
            assert_eq!(g.get(id), INFINITY);
            g.set(id, cost);
            assert_eq!(g.get(id), cost);
        }
        g.grow(6);
        assert_eq!((g.get(3), g.get(5)), (longest, INFINITY));
        g.set(5, INFINITY);
        assert_eq!(g.get(5), INFINITY);
    }

    #[test]
    fn eight_connected_costs_keep_eight_bytes() {
        let mut g = Costs::new(Connectivity::Eight, 2);
        assert!(matches!(g, Costs::Wide(_)));
        g.set(1, 3 * DIAGONAL + STRAIGHT);
        assert_eq!((g.get(0), g.get(1)), (INFINITY, 3 * DIAGONAL + STRAIGHT));
        assert_eq!(g.memory_bytes(), 2 * 8);
    }
}
