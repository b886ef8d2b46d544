//! Pockets proven closed: a new wall that cuts its neighbours apart starts a bounded flood,
//! and an agent in a pocket without its goal (or the other way round) has no path at once,
//! left out of its group's starts so the group's search stays focused on the others.

use super::*;

/// [`Simulation::pocket`] of a cell in no proven pocket.
pub(super) const NO_POCKET: u32 = u32::MAX;

/// The largest pocket a flood proves closed, in cells: a room or a walled-in corner, while a
/// flood that runs past it costs at most this much.
pub(super) const POCKET_MAX: usize = 512;

impl Simulation {
    /// Brings the pocket marks up to date with the edits since the last replan. A pocket is a
    /// set of cells no legal move leaves, proven by a flood of at most [`POCKET_MAX`] cells;
    /// an agent and its goal marked differently have no path. Each mark holds until a wall
    /// next to its cells opens: then that pocket is forgotten and flooded again.
    pub(super) fn update_pockets(&mut self) {
        let (grid, conn) = (&self.grid, self.config.connectivity);
        if !self.pockets_ready {
            // Every component small enough, once: the component sizes say which.
            self.pockets_ready = true;
            self.opened.clear();
            self.walled.clear();
            self.pocket.clear();
            self.pocket.resize(grid.len(), NO_POCKET);
            for c in 0..grid.len() {
                if self.pocket[c] == NO_POCKET
                    && grid.weight(c) != 0
                    && self.components.size_at(grid, c, conn) <= POCKET_MAX
                    && let Some(cells) = self.flood.within(grid, c, conn, POCKET_MAX)
                {
                    mark_pocket(&mut self.pocket, &mut self.next_pocket, cells);
                }
            }
            return;
        }
        // An opened cell joins the cells of its 3×3 block (every move it opens starts there):
        // their pockets are forgotten, then what they became is flooded again.
        for c in std::mem::take(&mut self.opened) {
            if grid.weight(c) == 0 {
                continue;
            }
            let mut released = false;
            for v in grid.affected_by(c) {
                let id = self.pocket[v];
                if id == NO_POCKET {
                    continue;
                }
                released = true;
                self.scratch.push(v);
                self.pocket[v] = NO_POCKET;
                while let Some(u) = self.scratch.pop() {
                    grid.for_each_neighbor(u, conn, |n, _| {
                        if self.pocket[n] == id {
                            self.pocket[n] = NO_POCKET;
                            self.scratch.push(n);
                        }
                    });
                }
            }
            if released && let Some(cells) = self.flood.within(grid, c, conn, POCKET_MAX) {
                mark_pocket(&mut self.pocket, &mut self.next_pocket, cells);
            }
        }
        // A new wall can only close pockets when the cells around it no longer reach each
        // other next to it; then each side is flooded, up to the bound.
        let first = self.next_pocket.wrapping_add(1);
        for c in std::mem::take(&mut self.walled) {
            if grid.weight(c) != 0 {
                continue;
            }
            self.pocket[c] = NO_POCKET;
            if ring_connected(grid, c, conn, |_| true) {
                continue;
            }
            let ring: Vec<usize> = grid
                .affected_by(c)
                .filter(|&v| v != c && grid.weight(v) != 0)
                .collect();
            let mut done = vec![false; ring.len()];
            for (k, &v) in ring.iter().enumerate() {
                let id = self.pocket[v];
                if done[k] || (id != NO_POCKET && id >= first) {
                    continue;
                }
                match self.flood.within(grid, v, conn, POCKET_MAX) {
                    Some(cells) => {
                        mark_pocket(&mut self.pocket, &mut self.next_pocket, cells);
                    }
                    // Too large to prove anything; its other cells around `c` need no flood.
                    None => {
                        for (j, &u) in ring.iter().enumerate() {
                            done[j] |= self.flood.reached(u);
                        }
                    }
                }
            }
        }
    }
}

/// Marks `cells`, a pocket a flood proved closed, with the next pocket number.
fn mark_pocket(pocket: &mut [u32], next: &mut u32, cells: &[usize]) {
    *next = next.wrapping_add(1) % NO_POCKET;
    for &u in cells {
        pocket[u] = *next;
    }
}
