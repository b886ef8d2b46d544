//! MPGAA\*'s per-cell state (learned h, g, search stamp, verification epoch, `next` and parent
//! directions), kept in a store of [`crate::search::cells`] as D\* Lite keeps its own: flat,
//! one id per map cell, or in 4×4 tiles, where a tile gets a block of 16 ids the first time a
//! search writes one of its cells, so the state costs memory in proportion to the cells the
//! searches touched, not to the map.
//!
//! Block 0 holds the untouched state and is never written: stamp 0 (never seen, so h reads as
//! the heuristic), `verified` 0 (no epoch is 0), `next` and parent [`NO_DIR`]. A cell is
//! addressed by an [`At`]: its flat index, its column and row, and its id (in block 0 while its
//! tile is untouched); the planner claims it ([`Cells::claim`]) before any write. The moves
//! between cells ([`link`]) are here too, as directions are what `next` and parent hold.

use crate::cost::{Cost, step_cost};
use crate::grid::{Connectivity, Grid};
use crate::queue::grow;
use crate::search::cells::Store;

/// No direction: no `next` pointer, no parent.
pub(super) const NO_DIR: u8 = u8::MAX;

// The moves in the grid's direction order: N, E, S, W, NE, SE, SW, NW (`dir ^ 2` is the
// opposite move).
pub(super) const DX: [i64; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
pub(super) const DY: [i64; 8] = [-1, 0, 1, 0, -1, 1, 1, -1];

/// The cell one move in direction `dir` from `cell` with its cost, if that move is legal.
#[inline]
pub(super) fn link(grid: &Grid, conn: Connectivity, cell: usize, dir: u8) -> Option<(usize, Cost)> {
    let d = dir as usize;
    if d >= 8 || (d >= 4 && conn == Connectivity::Four) {
        return None;
    }
    let w = grid.width() as i64;
    let (x, y) = (cell as i64 % w, cell as i64 / w);
    let (nx, ny) = (x + DX[d], y + DY[d]);
    if nx < 0 || ny < 0 || nx >= w || ny >= grid.height() as i64 {
        return None;
    }
    let n = (ny * w + nx) as usize;
    let (a, b) = (grid.weight(cell), grid.weight(n));
    if a == 0 || b == 0 {
        return None;
    }
    let diagonal = d >= 4;
    if diagonal
        && (grid.weight((y * w + nx) as usize) == 0 || grid.weight((ny * w + x) as usize) == 0)
    {
        return None;
    }
    Some((n, step_cost(diagonal, a, b)))
}

/// A cell: its flat index, column, row and id in the tiles (block 0 while untouched).
#[derive(Clone, Copy, Debug)]
pub(super) struct At {
    pub(super) cell: usize,
    pub(super) x: u32,
    pub(super) y: u32,
    pub(super) id: u32,
}

/// The per-cell state as a struct of arrays indexed by id; 26 bytes per id.
#[derive(Clone, Debug)]
pub(super) struct Cells<S: Store> {
    /// The ids of the cells: the map's own indices, or blocks claimed per tile.
    tiles: S,
    /// Learned h; meaningful once the cell is seen (stamp ≠ 0).
    pub(super) h: Vec<Cost>,
    /// g of the search named by the stamp.
    pub(super) g: Vec<Cost>,
    /// `search << 1 | closed`; 0 while never seen.
    pub(super) stamp: Vec<u32>,
    /// The epoch in which the cell's chain was walked and found tight.
    pub(super) verified: Vec<u32>,
    /// Direction of `next`, or [`NO_DIR`].
    pub(super) next: Vec<u8>,
    /// Direction back to the search-tree parent.
    pub(super) parent: Vec<u8>,
}

impl<S: Store> Cells<S> {
    /// The state of `grid`'s cells, none touched: the tile table and block 0.
    pub(super) fn new(grid: &Grid) -> Cells<S> {
        let tiles = S::new(grid);
        let n = tiles.ids();
        Cells {
            tiles,
            h: vec![0; n],
            g: vec![0; n],
            stamp: vec![0; n],
            verified: vec![0; n],
            next: vec![NO_DIR; n],
            parent: vec![NO_DIR; n],
        }
    }

    /// The flat cell `cell` (on the map), to read.
    #[inline]
    pub(super) fn at(&self, cell: usize) -> At {
        let (x, y) = self.tiles.cell_xy(cell);
        At {
            cell,
            x,
            y,
            id: self.tiles.id(x, y),
        }
    }

    /// The cell of an owned id (one that is queued or was written).
    #[inline]
    pub(super) fn owned(&self, cell: usize, id: u32) -> At {
        let (x, y) = self.tiles.xy(id);
        At { cell, x, y, id }
    }

    /// The blocks around the cell at (x, y), for its neighbours' ids.
    #[inline]
    pub(super) fn around(&self, x: u32, y: u32) -> S::Around {
        self.tiles.around(x, y)
    }

    /// `at`, to write: its tile gets a block if it has none, and the arrays grow to hold it.
    /// Returns it with its id and whether the ids grew (the queue must then grow to
    /// [`ids`](Self::ids)).
    #[inline]
    pub(super) fn claim(&mut self, at: At) -> (At, bool) {
        if S::owns(at.id) {
            return (at, false);
        }
        let before = self.tiles.ids();
        let id = self.tiles.claim(at.x, at.y);
        let grew = self.tiles.ids() != before;
        if grew {
            self.grow_to(self.tiles.ids());
        }
        (At { id, ..at }, grew)
    }

    /// Grows every array to `n` ids, filled with the untouched state.
    #[cold]
    #[inline(never)]
    fn grow_to(&mut self, n: usize) {
        grow(&mut self.h, n, 0);
        grow(&mut self.g, n, 0);
        grow(&mut self.stamp, n, 0);
        grow(&mut self.verified, n, 0);
        grow(&mut self.next, n, NO_DIR);
        grow(&mut self.parent, n, NO_DIR);
    }

    /// How many ids the blocks hold, block 0 included.
    #[inline]
    pub(super) fn ids(&self) -> usize {
        self.tiles.ids()
    }

    /// How many cells hold state: seen by a search, verified, or with a `next` pointer.
    pub(super) fn touched(&self) -> usize {
        self.tiles
            .owned()
            .filter(|&(id, _)| {
                let i = id as usize;
                self.stamp[i] != 0 || self.verified[i] != 0 || self.next[i] != NO_DIR
            })
            .count()
    }

    /// Bytes held: the arrays' capacities and the tile table.
    pub(super) fn bytes(&self) -> usize {
        self.h.capacity() * 8
            + self.g.capacity() * 8
            + self.stamp.capacity() * 4
            + self.verified.capacity() * 4
            + self.next.capacity()
            + self.parent.capacity()
            + self.tiles.memory_bytes()
    }
}
