//! The grid: cells, terrain weights, connectivity and the neighbour rule shared by every search.
//!
//! Cells are addressed as (x, y) with (0, 0) the top-left cell and y growing downward, the
//! Moving AI convention. Internally a cell is the flat index `y * width + x`.
//!
//! **One cell type in the public API: [`Pos`].** What a caller names (an agent's cell, a goal,
//! an edit, a path) is a `Pos`, checked against the grid once ([`Grid::index`]). Flat indices
//! (`usize`, or `u32` where a cell is stored by the million: queues, expansion lists, the
//! simulation's agent records) live inside the searches and the simulation, where a multiply
//! and a bounds check per neighbour would cost. The few public faces that still take or give
//! flat indices are the planner's own protocol ([`crate::GoalPlanner`]: `set_starts`,
//! `cells_changed`, `last_expanded`, called per planner and per tick with thousands of cells),
//! the simulation's list of expanded cells (`Simulation::last_expanded`, drawn by the game
//! every frame) and the grid's index arithmetic ([`Grid::index`], [`Grid::pos`],
//! [`Grid::weight`]); they stay flat on purpose: turning each into a `Pos` would cost a
//! division per cell, or a copy, on the hottest paths. The grid's connectivity ([`Flood`],
//! [`Components`], [`ring_connected`], in `reach.rs`) works over flat indices too.

mod facing;
mod random;
mod reach;

pub use facing::Facing;
pub use reach::{Components, Flood, reachable, ring_connected};

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cost::{Cost, step_cost};

/// The largest grid accepted, in cells: 2²⁶ (8192 × 8192). Larger requests are an error.
pub const MAX_CELLS: usize = 1 << 26;

/// A cell position. Serialised as the tuple `(x, y)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "(u32, u32)", into = "(u32, u32)")]
pub struct Pos {
    /// Column, from 0 at the left.
    pub x: u32,
    /// Row, from 0 at the top.
    pub y: u32,
}

impl Pos {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: u32, y: u32) -> Self {
        Self { x, y }
    }
}

impl From<(u32, u32)> for Pos {
    fn from((x, y): (u32, u32)) -> Self {
        Self { x, y }
    }
}

impl From<Pos> for (u32, u32) {
    fn from(p: Pos) -> Self {
        (p.x, p.y)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// What a cell is: a wall, or passable ground of weight 1–9 (1 = plain).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    /// Impassable.
    Wall,
    /// Passable, entering or leaving costs in proportion to this weight (1–9).
    Weight(u8),
}

impl Terrain {
    /// Plain ground, weight 1.
    pub const FREE: Terrain = Terrain::Weight(1);

    /// The stored byte: 0 for a wall, else the weight.
    #[inline]
    fn to_byte(self) -> u8 {
        match self {
            Terrain::Wall => 0,
            Terrain::Weight(w) => w,
        }
    }

    #[inline]
    fn from_byte(b: u8) -> Terrain {
        if b == 0 {
            Terrain::Wall
        } else {
            Terrain::Weight(b)
        }
    }
}

/// Which moves are allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Connectivity {
    /// Up, down, left, right.
    Four,
    /// Also the diagonals, but only when both orthogonal neighbours are passable, so a path
    /// never cuts a wall corner.
    #[default]
    Eight,
}

/// Why a grid operation was refused. The grid is unchanged when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// The position lies outside the grid.
    OutOfRange {
        /// The offending position.
        pos: Pos,
        /// Grid width.
        width: u32,
        /// Grid height.
        height: u32,
    },
    /// A weight outside 1–9.
    BadWeight(u8),
    /// A width or height of zero, or more than [`MAX_CELLS`] cells.
    BadSize {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::OutOfRange { pos, width, height } => {
                write!(f, "cell {pos} is outside the {width}×{height} map")
            }
            GridError::BadWeight(w) => write!(f, "terrain weight {w} is not in 1–9"),
            GridError::BadSize { width, height } => write!(
                f,
                "a {width}×{height} map is not allowed: each side must be at least 1 and the map at most {MAX_CELLS} cells"
            ),
        }
    }
}

impl std::error::Error for GridError {}

// Neighbour offsets: the four orthogonals first, then the diagonals. This order is the
// tie-break order of every search, so the same input always gives the same path.
const DX: [i32; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
const DY: [i32; 8] = [-1, 0, 1, 0, -1, 1, 1, -1];

/// A W×H grid of cells, each a wall or ground of weight 1–9.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    width: u32,
    height: u32,
    cells: Vec<u8>,
    /// How many cells weigh more than 1: none on a plain map, whose every step costs its unit.
    heavy: usize,
}

impl Grid {
    /// A grid of plain ground. Fails when a side is 0 or the grid exceeds [`MAX_CELLS`].
    pub fn new(width: u32, height: u32) -> Result<Grid, GridError> {
        Self::check_size(width as u64, height as u64)?;
        Ok(Grid {
            width,
            height,
            cells: vec![1; width as usize * height as usize],
            heavy: 0,
        })
    }

    /// Checks a requested size before anything is allocated for it.
    pub fn check_size(width: u64, height: u64) -> Result<(), GridError> {
        if width == 0
            || height == 0
            || width > u32::MAX as u64
            || height > u32::MAX as u64
            || width.saturating_mul(height) > MAX_CELLS as u64
        {
            return Err(GridError::BadSize { width, height });
        }
        Ok(())
    }

    /// Width in cells.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    #[inline]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false: a grid has at least one cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Whether `pos` lies on the grid.
    #[inline]
    pub fn contains(&self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// The flat index of `pos`, or an error naming it when it is off the grid.
    #[inline]
    pub fn index(&self, pos: Pos) -> Result<usize, GridError> {
        if self.contains(pos) {
            Ok(pos.y as usize * self.width as usize + pos.x as usize)
        } else {
            Err(self.out_of_range(pos))
        }
    }

    /// The error for `pos` being off the grid.
    pub fn out_of_range(&self, pos: Pos) -> GridError {
        GridError::OutOfRange {
            pos,
            width: self.width,
            height: self.height,
        }
    }

    /// The position of flat index `idx` (which must be `< len()`).
    #[inline]
    pub fn pos(&self, idx: usize) -> Pos {
        let w = self.width as usize;
        Pos::new((idx % w) as u32, (idx / w) as u32)
    }

    /// The terrain at `pos`.
    pub fn terrain(&self, pos: Pos) -> Result<Terrain, GridError> {
        Ok(Terrain::from_byte(self.cells[self.index(pos)?]))
    }

    /// Whether `pos` is on the grid and passable.
    #[inline]
    pub fn is_passable(&self, pos: Pos) -> bool {
        self.index(pos).is_ok_and(|i| self.cells[i] != 0)
    }

    /// Weight of cell `idx`, 0 for a wall. `idx` must be `< len()`.
    #[inline]
    pub fn weight(&self, idx: usize) -> u8 {
        self.cells[idx]
    }

    /// Every cell's weight (0 for a wall) by flat index, row after row.
    #[inline]
    pub fn weights(&self) -> &[u8] {
        &self.cells
    }

    /// Sets `pos` to `terrain` and returns what it was. Nothing changes on error.
    pub fn set(&mut self, pos: Pos, terrain: Terrain) -> Result<Terrain, GridError> {
        if let Terrain::Weight(w) = terrain
            && !(1..=9).contains(&w)
        {
            return Err(GridError::BadWeight(w));
        }
        let i = self.index(pos)?;
        let (old, new) = (self.cells[i], terrain.to_byte());
        self.heavy = self.heavy + (new > 1) as usize - (old > 1) as usize;
        self.cells[i] = new;
        Ok(Terrain::from_byte(old))
    }

    /// Whether every passable cell weighs 1, so that a step costs its unit (straight or
    /// diagonal) alone.
    #[inline]
    pub fn unweighted(&self) -> bool {
        self.heavy == 0
    }

    /// Number of walls.
    pub fn wall_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c == 0).count()
    }

    /// Calls `f(neighbour, cost)` for every legal move out of cell `idx`, in a fixed order:
    /// N, E, S, W, then NE, SE, SW, NW. A wall has no moves. Moves are symmetric: `b` is a
    /// neighbour of `a` at cost `c` exactly when `a` is one of `b` at cost `c`.
    #[inline]
    pub fn for_each_neighbor(
        &self,
        idx: usize,
        conn: Connectivity,
        mut f: impl FnMut(usize, Cost),
    ) {
        self.for_each_neighbor_xy(idx, conn, |n, _, _, c| f(n, c));
    }

    /// [`for_each_neighbor`](Self::for_each_neighbor), also passing each neighbour's column and
    /// row: `f(neighbour, x, y, cost)`, in the same order. Saves the caller a division per
    /// neighbour when it needs positions (a heuristic, say).
    #[inline]
    pub fn for_each_neighbor_xy(
        &self,
        idx: usize,
        conn: Connectivity,
        mut f: impl FnMut(usize, u32, u32, Cost),
    ) {
        self.for_each_neighbor_dir(idx, conn, |n, x, y, c, _| f(n, x, y, c));
    }

    /// [`for_each_neighbor_xy`](Self::for_each_neighbor_xy), also passing the direction of
    /// each move: `f(neighbour, x, y, cost, dir)` with `dir` 0–7 for N, E, S, W, NE, SE, SW,
    /// NW. `dir ^ 2` is the opposite direction, the way back (see [`step`](Self::step)).
    #[inline]
    pub fn for_each_neighbor_dir(
        &self,
        idx: usize,
        conn: Connectivity,
        f: impl FnMut(usize, u32, u32, Cost, u8),
    ) {
        // 32-bit arithmetic is exact (at most MAX_CELLS cells) and its division cheaper.
        let w = self.width;
        self.for_each_neighbor_at(idx, (idx as u32 % w, idx as u32 / w), conn, f);
    }

    /// [`for_each_neighbor_dir`](Self::for_each_neighbor_dir) of the cell `idx` at column and
    /// row (x, y), for a caller that knows them: no division.
    #[inline]
    pub fn for_each_neighbor_at(
        &self,
        idx: usize,
        (x, y): (u32, u32),
        conn: Connectivity,
        mut f: impl FnMut(usize, u32, u32, Cost, u8),
    ) {
        let here = self.cells[idx];
        if here == 0 {
            return;
        }
        let (w, h) = (self.width, self.height);
        let row = w as usize;
        // Each neighbour's weight, 0 for a wall or off the grid; unrolled, so the closure is
        // inlined at each move and no loop runs over a table of offsets.
        let at = |ok: bool, n: usize| if ok { self.cells[n] } else { 0 };
        let (up, down, left, right) = (y > 0, y + 1 < h, x > 0, x + 1 < w);
        let wn = at(up, idx.wrapping_sub(row));
        let we = at(right, idx + 1);
        let ws = at(down, idx + row);
        let ww = at(left, idx.wrapping_sub(1));
        if wn != 0 {
            f(idx - row, x, y - 1, step_cost(false, here, wn), 0);
        }
        if we != 0 {
            f(idx + 1, x + 1, y, step_cost(false, here, we), 1);
        }
        if ws != 0 {
            f(idx + row, x, y + 1, step_cost(false, here, ws), 2);
        }
        if ww != 0 {
            f(idx - 1, x - 1, y, step_cost(false, here, ww), 3);
        }
        if conn == Connectivity::Four {
            return;
        }
        // A diagonal needs both orthogonals beside it open (so it is on the grid too).
        if wn != 0 && we != 0 {
            let n = idx - row + 1;
            let wd = self.cells[n];
            if wd != 0 {
                f(n, x + 1, y - 1, step_cost(true, here, wd), 4);
            }
        }
        if ws != 0 && we != 0 {
            let n = idx + row + 1;
            let wd = self.cells[n];
            if wd != 0 {
                f(n, x + 1, y + 1, step_cost(true, here, wd), 5);
            }
        }
        if ws != 0 && ww != 0 {
            let n = idx + row - 1;
            let wd = self.cells[n];
            if wd != 0 {
                f(n, x - 1, y + 1, step_cost(true, here, wd), 6);
            }
        }
        if wn != 0 && ww != 0 {
            let n = idx - row - 1;
            let wd = self.cells[n];
            if wd != 0 {
                f(n, x - 1, y - 1, step_cost(true, here, wd), 7);
            }
        }
    }

    /// The cell one step from cell `idx` in direction `dir` (0–7, as in
    /// [`for_each_neighbor_dir`](Self::for_each_neighbor_dir)). That cell must be on the grid.
    #[inline]
    pub fn step(&self, idx: usize, dir: u8) -> usize {
        let d = dir as usize;
        let delta = DY[d] as isize * self.width as isize + DX[d] as isize;
        idx.wrapping_add_signed(delta)
    }

    /// The cost of moving from `a` to `b` directly, or `None` if that is not a legal move.
    pub fn move_cost(&self, a: usize, b: usize, conn: Connectivity) -> Option<Cost> {
        let mut found = None;
        self.for_each_neighbor(a, conn, |n, c| {
            if n == b {
                found = Some(c);
            }
        });
        found
    }

    /// The flat indices of the cells whose moves depend on cell `idx`: itself and its up to
    /// eight neighbours (a diagonal between two of them passes its corner).
    pub fn affected_by(&self, idx: usize) -> impl Iterator<Item = usize> + '_ {
        let p = self.pos(idx);
        let (x0, y0) = (p.x.saturating_sub(1), p.y.saturating_sub(1));
        let (x1, y1) = (
            (p.x + 1).min(self.width - 1),
            (p.y + 1).min(self.height - 1),
        );
        let w = self.width as usize;
        (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| y as usize * w + x as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::{COST_ONE, DIAGONAL};

    fn neighbors(g: &Grid, p: Pos, conn: Connectivity) -> Vec<(Pos, Cost)> {
        let mut v = Vec::new();
        g.for_each_neighbor(g.index(p).unwrap(), conn, |n, c| v.push((g.pos(n), c)));
        v
    }

    #[test]
    fn out_of_range_is_an_error_not_a_panic() {
        let mut g = Grid::new(3, 2).unwrap();
        assert!(matches!(
            g.set(Pos::new(3, 0), Terrain::Wall),
            Err(GridError::OutOfRange { .. })
        ));
        assert!(g.terrain(Pos::new(0, 2)).is_err());
        assert_eq!(g.wall_count(), 0);
        assert_eq!(
            g.set(Pos::new(0, 0), Terrain::Weight(0)),
            Err(GridError::BadWeight(0))
        );
        assert_eq!(
            g.set(Pos::new(0, 0), Terrain::Weight(10)),
            Err(GridError::BadWeight(10))
        );
    }

    #[test]
    fn absurd_sizes_are_refused_before_allocating() {
        assert!(Grid::new(0, 5).is_err());
        assert!(Grid::check_size(1_000_000_000, 1).is_err());
        assert!(Grid::check_size(8192, 8192).is_ok());
    }

    #[test]
    fn diagonals_never_cut_corners() {
        let mut g = Grid::new(3, 3).unwrap();
        g.set(Pos::new(1, 0), Terrain::Wall).unwrap();
        let n = neighbors(&g, Pos::new(1, 1), Connectivity::Eight);
        // N is a wall, so NE and NW are gone; SE and SW stay.
        let cells: Vec<Pos> = n.iter().map(|&(p, _)| p).collect();
        assert_eq!(
            cells,
            vec![
                Pos::new(2, 1),
                Pos::new(1, 2),
                Pos::new(0, 1),
                Pos::new(2, 2),
                Pos::new(0, 2)
            ]
        );
        assert_eq!(n[3].1, 2 * DIAGONAL);
        assert_eq!(n[0].1, COST_ONE);
        assert_eq!(neighbors(&g, Pos::new(1, 1), Connectivity::Four).len(), 3);
    }

    #[test]
    fn neighbour_positions_match_their_indices() {
        let mut g = Grid::new(5, 4).unwrap();
        g.set(Pos::new(2, 1), Terrain::Wall).unwrap();
        for idx in 0..g.len() {
            let mut plain = Vec::new();
            g.for_each_neighbor(idx, Connectivity::Eight, |n, c| plain.push((n, c)));
            let mut with_xy = Vec::new();
            g.for_each_neighbor_xy(idx, Connectivity::Eight, |n, x, y, c| {
                assert_eq!(g.pos(n), Pos::new(x, y));
                with_xy.push((n, c));
            });
            assert_eq!(plain, with_xy);
        }
    }

    /// The move rule written plainly: each of the 8 directions in order, on the grid and onto
    /// ground; a diagonal also needs both orthogonal cells beside it to be ground.
    fn reference_moves(
        g: &Grid,
        idx: usize,
        conn: Connectivity,
    ) -> Vec<(usize, u32, u32, Cost, u8)> {
        let p = g.pos(idx);
        let ground = |x: i32, y: i32| {
            x >= 0
                && y >= 0
                && (x as u32) < g.width()
                && (y as u32) < g.height()
                && g.weight(g.index(Pos::new(x as u32, y as u32)).unwrap()) != 0
        };
        let (x, y) = (p.x as i32, p.y as i32);
        let mut out = Vec::new();
        if !ground(x, y) {
            return out;
        }
        let dirs = if conn == Connectivity::Four { 4 } else { 8 };
        for d in 0..dirs {
            let (nx, ny) = (x + DX[d], y + DY[d]);
            let diagonal = d >= 4;
            if !ground(nx, ny) || (diagonal && !(ground(nx, y) && ground(x, ny))) {
                continue;
            }
            let n = g.index(Pos::new(nx as u32, ny as u32)).unwrap();
            let cost = step_cost(diagonal, g.weight(idx), g.weight(n));
            out.push((n, nx as u32, ny as u32, cost, d as u8));
        }
        out
    }

    #[test]
    fn the_unrolled_walk_follows_the_move_rule() {
        let mut g = Grid::new(6, 5).unwrap();
        for (x, y) in [(2, 1), (0, 3), (4, 4), (5, 0), (3, 2)] {
            g.set(Pos::new(x, y), Terrain::Wall).unwrap();
        }
        g.set(Pos::new(1, 1), Terrain::Weight(7)).unwrap();
        for conn in [Connectivity::Four, Connectivity::Eight] {
            for idx in 0..g.len() {
                let mut directed = Vec::new();
                g.for_each_neighbor_dir(idx, conn, |n, x, y, c, d| directed.push((n, x, y, c, d)));
                assert_eq!(directed, reference_moves(&g, idx, conn), "{idx} {conn:?}");
                let mut plain = Vec::new();
                g.for_each_neighbor_xy(idx, conn, |n, x, y, c| plain.push((n, x, y, c)));
                let without_dir: Vec<_> = directed
                    .iter()
                    .map(|&(n, x, y, c, _)| (n, x, y, c))
                    .collect();
                assert_eq!(plain, without_dir, "{idx} {conn:?}");
            }
        }
    }

    #[test]
    fn directions_lead_to_the_neighbour_and_back() {
        let g = Grid::new(5, 4).unwrap();
        for idx in 0..g.len() {
            g.for_each_neighbor_dir(idx, Connectivity::Eight, |n, _, _, _, dir| {
                assert_eq!(g.step(idx, dir), n);
                assert_eq!(g.step(n, dir ^ 2), idx);
            });
        }
    }

    #[test]
    fn moves_are_symmetric_and_weighted() {
        let mut g = Grid::new(2, 1).unwrap();
        g.set(Pos::new(1, 0), Terrain::Weight(3)).unwrap();
        assert_eq!(g.move_cost(0, 1, Connectivity::Eight), Some(2 * COST_ONE));
        assert_eq!(g.move_cost(1, 0, Connectivity::Eight), Some(2 * COST_ONE));
        g.set(Pos::new(1, 0), Terrain::Wall).unwrap();
        assert_eq!(g.move_cost(0, 1, Connectivity::Eight), None);
    }

    #[test]
    fn affected_cells_clip_at_the_border() {
        let g = Grid::new(4, 3).unwrap();
        assert_eq!(g.affected_by(0).count(), 4);
        assert_eq!(g.affected_by(g.index(Pos::new(1, 1)).unwrap()).count(), 9);
    }

    #[test]
    fn unweighted_follows_every_set() {
        let mut g = Grid::new(3, 2).unwrap();
        let mut x = 12345u64;
        for _ in 0..500 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pos = g.pos((x >> 33) as usize % g.len());
            let t = match (x >> 20) % 4 {
                0 => Terrain::Wall,
                1 | 2 => Terrain::FREE,
                _ => Terrain::Weight(2 + (x >> 40) as u8 % 8),
            };
            g.set(pos, t).unwrap();
            assert_eq!(g.unweighted(), g.weights().iter().all(|&w| w <= 1));
        }
        // A refused set changes nothing.
        let before = g.clone();
        assert!(g.set(Pos::new(0, 0), Terrain::Weight(12)).is_err());
        assert_eq!(g, before);
    }
}
