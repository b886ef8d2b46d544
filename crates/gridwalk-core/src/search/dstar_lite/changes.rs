//! D\* Lite's answer to changed cells: every cell whose moves a change touched (the 3×3 block
//! around it) has its `rhs` looked at again, except around a change that no search reached.
//!
//! # The shortcut
//! When every cell of the block around a changed cell `c` has `g = ∞` and is not queued (so
//! its `rhs` is ∞ too), the change can alter no `rhs`, and the block is skipped. A cell `u`
//! of the block with `rhs(u) = ∞` had every move lead to a cell of `g = ∞`. The moves the
//! change adds, removes or reprices are those into `c` or passing its corner, and each of them
//! ends in the block, where `g = ∞`; every other move is as it was. So `u`'s lookahead is
//! still ∞, and the update it would get finds it consistent and not queued: nothing happens.
//! The other changes of the same batch are looked at on their own (a cell near two changes is
//! skipped only if both blocks are unreached), and `g` does not change while they are.
//!
//! # Changes that come back
//! A cell changed back and forth before the next compute is listed once per change, but the
//! grid shows only where it ended, so every look at its block finds the same `rhs`: it is
//! looked at once. Since `g` does not change here, no look depends on another's order.

use super::{DStarLite, Key};
use crate::cost::INFINITY;
use crate::grid::Grid;
use crate::queue::CellQueue;
use crate::search::cells::{Near, Store};

impl<Q: CellQueue<Key>, const TOWARD_STARTS: bool, S: Store> DStarLite<Q, TOWARD_STARTS, S> {
    /// `GoalPlanner::cells_changed`: the `rhs` of every cell whose moves `cells` touch is recomputed, and the cell requeued or dropped.
    pub(super) fn update_changed(&mut self, grid: &Grid, cells: &[usize]) {
        // A cell listed more than once (changed back and forth since the last compute) is
        // looked at once, at its first place: the grid holds only its final state.
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        let mut done = vec![false; sorted.len()];
        for &c in cells {
            let at = sorted.partition_point(|&s| s < c);
            if std::mem::replace(&mut done[at], true) {
                continue;
            }
            let (x, y) = self.tiles.cell_xy(c);
            if self.unreached_around(x, y) {
                continue;
            }
            for u in grid.affected_by(c) {
                let (x, y) = self.tiles.cell_xy(u);
                let mut id = self.tiles.id(x, y);
                let mut rhs = self.rhs_at(id);
                if u != self.goal {
                    let new = self.lookahead(grid, u, x, y);
                    if new != rhs {
                        id = self.claim(x, y);
                        rhs = new;
                    }
                }
                self.update_vertex_at(u, id, x, y, rhs);
            }
        }
    }

    /// Whether the cell at (x, y) and its neighbours all have `g = ∞` and are not queued (see
    /// the module docs). Off the map, `Around::near` may name any cell: that can only make
    /// the answer `false`, which is always safe.
    #[inline]
    fn unreached_around(&self, x: u32, y: u32) -> bool {
        let around = self.tiles.around(x, y);
        if around.untouched() {
            return true;
        }
        let unreached = |id: u32| self.g_of(id) == INFINITY && !self.queue.contains(id);
        unreached(self.tiles.id(x, y)) && (0..8).all(|dir| unreached(around.near_or_any(dir)))
    }
}
