//! The pockets part of a [`Simulation`](super::Simulation): what it knows of who can reach
//! whom. Pockets proven closed: a new wall that cuts its neighbours apart starts a bounded
//! flood, and an agent in a pocket without its goal (or the other way round) has no path at
//! once, left out of its group's starts so the group's search stays focused on the others.
//! Beside them, the connected components' sizes and the flood buffer, which wander uses too.
//!
//! Invariants: `components` follows every edit ([`Pockets::edited`]); while `ready`, every
//! cell marked with a pocket is in a set of at most [`POCKET_MAX`] cells that no legal move
//! leaves (as of the last [`update`](Pockets::update)), and `opened` / `walled` list the cells
//! that became passable or walls since then.

use crate::grid::{Components, Connectivity, Flood, Grid, ring_connected};

/// [`Pockets::pocket`] of a cell in no proven pocket.
pub(super) const NO_POCKET: u32 = u32::MAX;

/// The largest pocket a flood proves closed, in cells: a room or a walled-in corner, while a
/// flood that runs past it costs at most this much.
pub(super) const POCKET_MAX: usize = 512;

/// Pocket marks, the components and the flood they are found with.
#[derive(Default)]
pub(super) struct Pockets {
    /// Per cell, the pocket holding it ([`NO_POCKET`] when none is proven).
    pub(super) pocket: Vec<u32>,
    /// The last pocket number handed out.
    pub(super) next: u32,
    /// Whether `pocket` was filled for the current moves.
    pub(super) ready: bool,
    /// Cells that became passable, and walls, since the last update.
    pub(super) opened: Vec<usize>,
    pub(super) walled: Vec<usize>,
    pub(super) scratch: Vec<usize>,
    /// Wander's flood (and the pockets'), and the size of every cell's component, kept
    /// across edits.
    pub(super) flood: Flood,
    pub(super) components: Components,
}

impl Pockets {
    /// Cell `i` of `grid` changed from a wall or not (`was_wall`) to a wall or not
    /// (`is_wall`).
    #[inline]
    pub(super) fn edited(&mut self, grid: &Grid, i: usize, was_wall: bool, is_wall: bool) {
        self.components.changed(grid, i, !was_wall);
        match (was_wall, is_wall) {
            (true, false) => self.opened.push(i),
            (false, true) => self.walled.push(i),
            _ => {}
        }
    }

    /// Forgets every pocket: the next update floods them all again (the moves changed).
    pub(super) fn invalidate(&mut self) {
        self.ready = false;
        self.opened.clear();
        self.walled.clear();
    }

    /// Brings the pocket marks up to date with the edits since the last replan. A pocket is a
    /// set of cells no legal move leaves, proven by a flood of at most [`POCKET_MAX`] cells;
    /// an agent and its goal marked differently have no path. Each mark holds until a wall
    /// next to its cells opens: then that pocket is forgotten and flooded again.
    pub(super) fn update(&mut self, grid: &Grid, conn: Connectivity) {
        if !self.ready {
            return self.fill(grid, conn);
        }
        self.release_opened(grid, conn);
        self.close_walled(grid, conn);
    }

    /// Every component small enough, once: the component sizes say which.
    fn fill(&mut self, grid: &Grid, conn: Connectivity) {
        self.ready = true;
        self.opened.clear();
        self.walled.clear();
        self.pocket.clear();
        self.pocket.resize(grid.len(), NO_POCKET);
        if !self.components.any_at_most(grid, POCKET_MAX, conn) {
            return;
        }
        for c in 0..grid.len() {
            if self.pocket[c] == NO_POCKET
                && grid.weight(c) != 0
                && self.components.size_at(grid, c, conn) <= POCKET_MAX
                && let Some(cells) = self.flood.within(grid, c, conn, POCKET_MAX)
            {
                mark_pocket(&mut self.pocket, &mut self.next, cells);
            }
        }
    }

    /// An opened cell joins the cells of its 3×3 block (every move it opens starts there):
    /// their pockets are forgotten, then what they became is flooded again.
    fn release_opened(&mut self, grid: &Grid, conn: Connectivity) {
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
                mark_pocket(&mut self.pocket, &mut self.next, cells);
            }
        }
    }

    /// A new wall can only close pockets when the cells around it no longer reach each other
    /// next to it; then each side is flooded, up to the bound.
    fn close_walled(&mut self, grid: &Grid, conn: Connectivity) {
        let first = self.next.wrapping_add(1);
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
                        mark_pocket(&mut self.pocket, &mut self.next, cells);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Pos, Terrain};

    /// A 9×5 map with a wall down column 4 but for a door at (4, 2).
    fn two_rooms() -> Grid {
        let mut grid = Grid::new(9, 5).unwrap();
        for y in [0, 1, 3, 4] {
            grid.set(Pos::new(4, y), Terrain::Wall).unwrap();
        }
        grid
    }

    fn wall(pockets: &mut Pockets, grid: &mut Grid, pos: Pos, terrain: Terrain) {
        let i = grid.index(pos).unwrap();
        let old = grid.set(pos, terrain).unwrap();
        pockets.edited(grid, i, old == Terrain::Wall, terrain == Terrain::Wall);
    }

    #[test]
    fn a_door_closing_proves_two_pockets_and_opening_forgets_them() {
        let conn = Connectivity::Eight;
        let mut grid = two_rooms();
        let mut p = Pockets::default();
        p.update(&grid, conn);
        let at = |p: &Pockets, x, y| p.pocket[(y * 9 + x) as usize];
        assert_eq!(
            at(&p, 0, 0),
            at(&p, 8, 4),
            "one room of 41 cells, small enough"
        );
        wall(&mut p, &mut grid, Pos::new(4, 2), Terrain::Wall);
        p.update(&grid, conn);
        assert_ne!(at(&p, 0, 0), at(&p, 8, 4), "the door closed: two pockets");
        assert_eq!(at(&p, 0, 0), at(&p, 3, 4));
        assert_eq!(at(&p, 4, 2), NO_POCKET, "a wall is in none");
        wall(&mut p, &mut grid, Pos::new(4, 2), Terrain::FREE);
        p.update(&grid, conn);
        assert_eq!(at(&p, 0, 0), at(&p, 8, 4), "opened: one pocket again");
        assert_eq!(p.components.size_at(&grid, 0, conn), 41);
    }

    #[test]
    fn a_map_too_large_proves_nothing() {
        let conn = Connectivity::Four;
        let grid = Grid::new(40, 40).unwrap();
        let mut p = Pockets::default();
        p.update(&grid, conn);
        assert!(p.ready && p.pocket.iter().all(|&id| id == NO_POCKET));
        p.invalidate();
        assert!(!p.ready);
    }
}
