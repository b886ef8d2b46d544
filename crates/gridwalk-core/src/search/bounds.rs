//! The bounding box of a D\* Lite planner's starts: its heuristic is the distance to the box,
//! and `km` grows by how far the box moves (see [`crate::search::dstar_lite`]).

use crate::grid::Grid;

/// The bounding box of the starts, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

impl Bounds {
    /// A box holding every cell: nothing lies outside it.
    pub(crate) const EVERYWHERE: Bounds = Bounds {
        x0: 0,
        y0: 0,
        x1: u32::MAX,
        y1: u32::MAX,
    };

    pub(crate) fn of(grid: &Grid, starts: &[usize]) -> Option<Bounds> {
        let mut it = starts.iter().map(|&s| grid.pos(s));
        let p = it.next()?;
        let mut b = Bounds {
            x0: p.x,
            y0: p.y,
            x1: p.x,
            y1: p.y,
        };
        for p in it {
            b.x0 = b.x0.min(p.x);
            b.y0 = b.y0.min(p.y);
            b.x1 = b.x1.max(p.x);
            b.y1 = b.y1.max(p.y);
        }
        Some(b)
    }

    /// How far (x, y) lies outside the box, per axis.
    #[inline]
    pub(crate) fn outside(&self, x: u32, y: u32) -> (u32, u32) {
        // x0 ≤ x1, so at most one term is not 0; no branch on which side the cell lies.
        let dx = self.x0.saturating_sub(x) + x.saturating_sub(self.x1);
        let dy = self.y0.saturating_sub(y) + y.saturating_sub(self.y1);
        (dx, dy)
    }

    /// The per-axis overshoot of `new` beyond `self`: the farthest point of `new` from `self`.
    pub(crate) fn overshoot(&self, new: &Bounds) -> (u32, u32) {
        let dx = self
            .x0
            .saturating_sub(new.x0)
            .max(new.x1.saturating_sub(self.x1));
        let dy = self
            .y0
            .saturating_sub(new.y0)
            .max(new.y1.saturating_sub(self.y1));
        (dx, dy)
    }
}
