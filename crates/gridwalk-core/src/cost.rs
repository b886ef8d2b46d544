//! Fixed-point move costs: exact integer sums, so searches compare costs without float drift.
//!
//! A straight move between two cells of weights `a` and `b` costs `STRAIGHT * (a + b)` and a
//! diagonal one `DIAGONAL * (a + b)`. [`COST_ONE`], a straight move on plain ground, is 1.0.
//! `DIAGONAL` is √2 × `STRAIGHT` rounded up, so a diagonal is never cheaper than its real length
//! and the relative error is below 10⁻¹⁰, so a path of a thousand diagonals is off by under
//! 10⁻⁶ of a step: inside the 6 significant digits of Moving AI lengths even next to a rounding
//! boundary. The largest path on the largest grid still fits a `u64`.

/// A path cost in fixed-point units; see the module docs.
pub type Cost = u64;

/// "No path": larger than any real cost. Sums saturate at it.
pub const INFINITY: Cost = u64::MAX;

/// Half the cost of a straight move on plain ground, per unit of summed weight.
pub const STRAIGHT: Cost = 1 << 32;

/// √2 × [`STRAIGHT`], rounded up.
pub const DIAGONAL: Cost = 6_074_001_000;

/// The cost of one straight step on plain ground: 1.0.
pub const COST_ONE: Cost = 2 * STRAIGHT;

/// The cost of a move between neighbours of weights `from` and `to` (each 1–9).
#[inline]
pub fn step_cost(diagonal: bool, from: u8, to: u8) -> Cost {
    let unit = if diagonal { DIAGONAL } else { STRAIGHT };
    unit * (from as Cost + to as Cost)
}

/// A cost in the units people read: 1.0 per straight step on plain ground.
#[inline]
pub fn to_f64(cost: Cost) -> f64 {
    cost as f64 / COST_ONE as f64
}

/// `a + b`, staying at [`INFINITY`] instead of overflowing.
#[inline]
pub fn add(a: Cost, b: Cost) -> Cost {
    a.saturating_add(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonal_is_root_two_rounded_up() {
        let exact = std::f64::consts::SQRT_2 * STRAIGHT as f64;
        assert!(DIAGONAL as f64 >= exact);
        assert!((DIAGONAL as f64) - exact < 1.0);
    }

    #[test]
    fn plain_moves_read_as_one_and_root_two() {
        assert_eq!(to_f64(step_cost(false, 1, 1)), 1.0);
        let d = to_f64(step_cost(true, 1, 1));
        assert!((d - std::f64::consts::SQRT_2).abs() < 1e-6);
        // weight(from) + weight(to) over two
        assert_eq!(to_f64(step_cost(false, 1, 4)), 2.5);
    }
}
