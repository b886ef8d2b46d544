//! Per-cell state of a planner, in one of two stores chosen when the planner is made
//! ([`Storage`]): [`Flat`], one id per map cell (the cell's own index), for a planner whose
//! whole-map state is cheap; or [`Tiles`], the map cut into 4×4 tiles, each given a block of 16
//! dense *ids* the first time a search writes one of its cells, so the state grows with the
//! tiles its searches wrote, not with the map. D\* Lite ([`crate::search::dstar_lite`]) and
//! MPGAA\* ([`crate::search::mpgaa`]) are generic over the store, monomorphised: no branch
//! per access. Any planner whose cells start in one known state (infinite cost, not queued)
//! can use them.
//!
//! # The invariant
//! - The tile table maps each tile to the first id of its block; a tile never written maps to
//!   0. Block 0 (ids `0..BLOCK`) belongs to no tile: it holds the untouched state, and nothing
//!   ever writes to it. So a read is `table[tile] | offset` with no branch, and an untouched
//!   cell reads as untouched.
//! - Every write goes to an id returned by [`Store::claim`], which gives the tile a block if it
//!   has none. After a claim that added a block ([`Store::ids`] grew) the owner grows each of
//!   its per-id arrays to `ids()`, filled with the untouched state (see [`grow`](crate::queue::grow)).
//! - Ids are stable until the owner starts over (a new store); an id maps back to its cell
//!   without a division ([`Store::xy`]).
//! - [`Flat`] keeps the same contract trivially: every id is owned from the start (its
//!   `ids()` is the map's cell count, fixed), a claim is the cell's index, and it never grows.
//!
//! # Using it
//! Hold `tiles: S` and per-id arrays (`g: Vec<Cost>` ... of length `tiles.ids()`, block 0
//! untouched). Read a cell's state at `tiles.id(x, y)`; its neighbours' at
//! `tiles.around(x, y).near(dir)`, a lookup each. Before writing, `let id = tiles.claim(x, y)`,
//! and if `tiles.ids()` grew, [`grow`](crate::queue::grow) every array and the queue (`queue.grow(tiles.ids())`).
//! A queue over ids uses [`crate::queue::CellQueue`]'s `*_as` calls: the id for its slots, the
//! cell for ties, so pop order is the flat layout's whatever the store. State only queued
//! cells need can ride in their keys as a payload outside the order, as D\* Lite's `rhs` does
//! (`dstar_lite::Key::rhs`). Memory is the arrays' capacities times their item sizes plus
//! [`Store::memory_bytes`]: O(1) to count.
//! [`Store::owned`] lists every owned id with its cell (for counting touched cells).
//!
//! # Why 4×4
//! On the searches of the compare bench (one start, octile heuristic; walls never written),
//! the share of a claimed tile's cells that a search wrote was: default map 0.77 at 4×4,
//! 0.64 at 8×8, 0.48 at 16×16; 1024² with 25 % walls 0.73, 0.71, 0.68; 64room_000 0.94, 0.89,
//! 0.81. The table costs 4 bytes per tile, 1/4 byte per map cell: 256 KiB at 1024².
//! Reading neighbours through [`Around`] costs the same whatever the tile's size, and 8×8
//! tiles, measured with it, made the 110×100 repairs no faster (0.7 % fewer instructions,
//! equal times) for more bytes per touched cell.
//!
//! # Why flat at all
//! Tiles pay a few table loads per expanded cell and a claim check per write; on one planner
//! crossing a large map, or a handful of them, the whole-map arrays cost little of the memory
//! budget and those loads are pure overhead. [`Storage::by_size`] is the rule that picks.

use crate::grid::Grid;

/// log2 of a tile's side.
const SIDE_BITS: u32 = 2;
/// A tile's side, in cells.
const SIDE: u32 = 1 << SIDE_BITS;
/// log2 of the ids in a block.
pub(crate) const BLOCK_BITS: u32 = 2 * SIDE_BITS;
/// The ids in a block: the cells of a tile.
pub(crate) const BLOCK: usize = 1 << BLOCK_BITS;

/// Per position in a tile (row-major) and direction of [`Grid::for_each_neighbor_dir`] (N, E,
/// S, W, NE, SE, SW, NW): where the neighbour's id is, as `k << BLOCK_BITS | offset`, with `k`
/// the index into [`Around`]'s blocks (its own tile's, the one beside, the one above or
/// below, the diagonal one) and `offset` its place in that block.
const NEAR: [[u8; 8]; BLOCK] = {
    const DX: [i32; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
    const DY: [i32; 8] = [-1, 0, 1, 0, -1, 1, 1, -1];
    let s = SIDE as i32;
    let mut near = [[0u8; 8]; BLOCK];
    let mut p = 0;
    while p < BLOCK {
        let mut d = 0;
        while d < 8 {
            let (x, y) = ((p as i32 % s) + DX[d], (p as i32 / s) + DY[d]);
            let k = (x < 0 || x >= s) as i32 | (((y < 0 || y >= s) as i32) << 1);
            let offset = ((y + s) % s) * s + (x + s) % s;
            near[p][d] = ((k << BLOCK_BITS) | offset) as u8;
            d += 1;
        }
        p += 1;
    }
    near
};

/// The tiles of one planner's map, and which block of ids each one owns: the store of a
/// planner whose state follows its searches. See the module docs.
#[derive(Clone, Debug)]
pub struct Tiles {
    rows: Rows,
    /// log2 of the table's row length (tiles per row, rounded up to a power of two).
    row_bits: u32,
    /// Per tile, the first id of its block; 0 for a tile not yet touched.
    table: Vec<u32>,
    /// Per block, the column and row of its tile's first cell; block 0 belongs to no tile.
    origin: Vec<(u32, u32)>,
}

impl Tiles {
    /// The tiles of `grid`, none touched.
    pub(crate) fn new(grid: &Grid) -> Tiles {
        let (width, height) = (grid.width(), grid.height());
        let across = width.div_ceil(SIDE).next_power_of_two();
        let row_bits = across.trailing_zeros();
        let rows = height.div_ceil(SIDE) as usize;
        Tiles {
            rows: Rows::new(grid),
            row_bits,
            table: vec![0; rows << row_bits],
            origin: vec![(0, 0)],
        }
    }

    /// How many ids the blocks hold, the untouched block 0 included: the length a planner's
    /// per-id arrays must have.
    #[inline]
    pub(crate) fn ids(&self) -> usize {
        self.origin.len() << BLOCK_BITS
    }

    #[inline(always)]
    fn tile(&self, x: u32, y: u32) -> usize {
        (((y >> SIDE_BITS) << self.row_bits) | (x >> SIDE_BITS)) as usize
    }

    #[inline(always)]
    fn offset(x: u32, y: u32) -> u32 {
        ((y & (SIDE - 1)) << SIDE_BITS) | (x & (SIDE - 1))
    }

    /// The id of the cell at (x, y), to read: in block 0 when its tile is untouched.
    #[inline(always)]
    pub(crate) fn id(&self, x: u32, y: u32) -> u32 {
        self.table[self.tile(x, y)] | Self::offset(x, y)
    }

    /// The id of the cell at (x, y), to write: its tile gets a block if it has none. The
    /// caller then grows its arrays to [`ids`](Self::ids).
    #[inline]
    pub(crate) fn claim(&mut self, x: u32, y: u32) -> u32 {
        let t = self.tile(x, y);
        if self.table[t] == 0 {
            self.table[t] = (self.origin.len() as u32) << BLOCK_BITS;
            self.origin.push((x & !(SIDE - 1), y & !(SIDE - 1)));
        }
        self.table[t] | Self::offset(x, y)
    }

    /// The blocks of the tiles that the cell at (x, y) and its 8 neighbours lie in, read once
    /// for all of them: a few table loads and no branch, then each neighbour's id is a
    /// lookup ([`Around::near`]), where reading the table per neighbour costs an index, a
    /// load and a bounds check for each of the 8.
    #[inline(always)]
    pub(crate) fn around(&self, x: u32, y: u32) -> Around {
        // The side (−1, 0 or +1) on which a neighbour may leave the tile, per axis: a tile
        // is at least 3 cells wide, so a cell touches at most one of its two edges.
        const SIDE_OF: [isize; SIDE as usize] = {
            let mut side = [0; SIDE as usize];
            side[0] = -1;
            side[SIDE as usize - 1] = 1;
            side
        };
        let side = |o: u32| SIDE_OF[o as usize];
        let (sx, sy) = (side(x & (SIDE - 1)), side(y & (SIDE - 1)) << self.row_bits);
        let t = self.tile(x, y) as isize;
        // Off the map (x = 0, say) the index wraps or runs past the end: clamped, since no
        // neighbour lies there its block is never read.
        let last = self.table.len() - 1;
        let at = |d: isize| self.table[((t + d) as usize).min(last)];
        Around {
            block: [self.table[t as usize], at(sx), at(sy), at(sx + sy)],
            near: &NEAR[Self::offset(x, y) as usize],
        }
    }

    /// The column and row of the cell of `id` (an id of an owned block).
    #[inline(always)]
    pub(crate) fn xy(&self, id: u32) -> (u32, u32) {
        let (x0, y0) = self.origin[(id >> BLOCK_BITS) as usize];
        (
            x0 | (id & (SIDE - 1)),
            y0 | ((id >> SIDE_BITS) & (SIDE - 1)),
        )
    }

    /// The column and row of flat cell `cell`.
    #[inline]
    pub(crate) fn cell_xy(&self, cell: usize) -> (u32, u32) {
        self.rows.xy(cell)
    }

    /// The flat index of the cell at (x, y).
    #[inline(always)]
    pub(crate) fn cell(&self, x: u32, y: u32) -> usize {
        self.rows.cell(x, y)
    }

    /// Every owned id with its cell, block by block (cells off the map are skipped).
    pub(crate) fn owned(&self) -> impl Iterator<Item = (u32, usize)> + '_ {
        (1..self.origin.len()).flat_map(move |b| {
            (0..BLOCK as u32).filter_map(move |o| {
                let id = ((b as u32) << BLOCK_BITS) | o;
                let (x, y) = self.xy(id);
                (x < self.rows.width && y < self.rows.height).then(|| (id, self.cell(x, y)))
            })
        })
    }

    /// Bytes held by the table and the origins.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.table.capacity() * 4 + self.origin.capacity() * 8
    }
}

/// The blocks of the up to four tiles around one cell ([`Tiles::around`]), so that each of its
/// neighbours' ids is a lookup and an or.
#[derive(Clone, Copy, Debug)]
pub struct Around {
    /// Its own tile's block, then the one beside it, the one above or below, the diagonal one.
    block: [u32; 4],
    /// [`NEAR`] for the cell's place in its tile.
    near: &'static [u8; 8],
}

impl Around {
    /// Whether all of the tiles are untouched (block 0): then so are the cell and its
    /// neighbours.
    #[inline(always)]
    pub(crate) fn untouched(&self) -> bool {
        self.block == [0; 4]
    }

    /// The id of the neighbour in direction `dir` (as in [`Grid::for_each_neighbor_dir`]), to
    /// read: in block 0 when its tile is untouched, or was when this was made (a tile claimed
    /// since reads as untouched, which its new block still is).
    #[inline(always)]
    pub(crate) fn near(&self, dir: u8) -> u32 {
        let e = self.near[dir as usize & 7] as u32;
        self.block[(e >> BLOCK_BITS) as usize & 3] | (e & (BLOCK as u32 - 1))
    }
}

/// A map's width and height, and a row found by multiplication: what both stores need to turn
/// flat cells into columns and rows.
#[derive(Clone, Copy, Debug)]
struct Rows {
    width: u32,
    height: u32,
    /// `ceil(2^shift / width)`: a cell's row is `cell * magic >> shift`, exact for every cell
    /// of a map (below 2^26 cells), where a division would cost several times more.
    magic: u64,
    shift: u32,
}

impl Rows {
    fn new(grid: &Grid) -> Rows {
        let width = grid.width();
        // n·magic/2^shift = n/width + n·e/(width·2^shift) with e < width ≤ 2^(shift − 26) and
        // n < 2^26, so the error stays below 1/width and the floor is the quotient.
        let shift = 26 + width.next_power_of_two().trailing_zeros();
        Rows {
            width,
            height: grid.height(),
            magic: (1u64 << shift).div_ceil(width as u64),
            shift,
        }
    }

    #[inline(always)]
    fn xy(&self, cell: usize) -> (u32, u32) {
        let y = ((cell as u64 * self.magic) >> self.shift) as u32;
        (cell as u32 - y * self.width, y)
    }

    #[inline(always)]
    fn cell(&self, x: u32, y: u32) -> usize {
        y as usize * self.width as usize + x as usize
    }
}

/// One id per map cell, the cell's own index: the store of a planner whose whole-map state is
/// cheap ([`Storage::by_size`]). Its arrays are made at full size once, with the planner.
#[derive(Clone, Debug)]
pub struct Flat {
    rows: Rows,
}

/// The neighbours of one cell in a [`Flat`] store: each is the cell's id plus a fixed offset.
#[derive(Clone, Copy, Debug)]
pub struct FlatAround {
    id: u32,
    width: u32,
    /// The last id, for [`Near::near_or_any`].
    last: u32,
}

/// Column and row steps of the directions of [`Grid::for_each_neighbor_dir`].
const DX: [i32; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
const DY: [i32; 8] = [-1, 0, 1, 0, -1, 1, 1, -1];

impl Near for FlatAround {
    #[inline(always)]
    fn untouched(&self) -> bool {
        false
    }

    #[inline(always)]
    fn near(&self, dir: u8) -> u32 {
        let d = dir as usize & 7;
        (self.id)
            .wrapping_add((DY[d] as u32).wrapping_mul(self.width))
            .wrapping_add(DX[d] as u32)
    }

    #[inline]
    fn near_or_any(&self, dir: u8) -> u32 {
        // Off the map the id wraps to another row or out of range: clamped to an id that
        // exists, any cell will do.
        self.near(dir).min(self.last)
    }
}

impl Near for Around {
    #[inline(always)]
    fn untouched(&self) -> bool {
        Around::untouched(self)
    }

    #[inline(always)]
    fn near(&self, dir: u8) -> u32 {
        Around::near(self, dir)
    }

    #[inline]
    fn near_or_any(&self, dir: u8) -> u32 {
        Around::near(self, dir)
    }
}

/// The ids of a cell's neighbours, read once per cell ([`Store::around`]).
#[doc(hidden)]
pub trait Near: Copy {
    /// Whether the cell and its neighbours are surely untouched (never written); `false`
    /// when that is not known.
    fn untouched(&self) -> bool;
    /// The id of the neighbour in direction `dir`, which must be on the map.
    fn near(&self, dir: u8) -> u32;
    /// The id of the neighbour in direction `dir`, or of some other cell when it is off the
    /// map: always a valid id.
    fn near_or_any(&self, dir: u8) -> u32;
}

/// Where a planner keeps its per-cell state: [`Flat`] or [`Tiles`]. A planner is generic over
/// it and monomorphised, so no access branches on it. The methods are the crate's own.
pub trait Store: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// The ids of a cell's neighbours.
    #[doc(hidden)]
    type Around: Near;
    /// Which of the two this is.
    const STORAGE: Storage;
    /// The store of `grid`, none of its cells written.
    #[doc(hidden)]
    fn new(grid: &Grid) -> Self;
    /// How many ids there are: the length a planner's per-id arrays must have.
    #[doc(hidden)]
    fn ids(&self) -> usize;
    /// The id of the cell at (x, y), to read.
    #[doc(hidden)]
    fn id(&self, x: u32, y: u32) -> u32;
    /// Starts loading what [`id`](Self::id) of (x, y) reads, if anything.
    #[doc(hidden)]
    #[inline(always)]
    fn prefetch_id(&self, x: u32, y: u32) {
        let _ = (x, y);
    }
    /// Whether `id` may be written (it is not shared untouched state).
    #[doc(hidden)]
    fn owns(id: u32) -> bool;
    /// The id of the cell at (x, y), to write; [`ids`](Self::ids) may grow.
    #[doc(hidden)]
    fn claim(&mut self, x: u32, y: u32) -> u32;
    /// The ids around the cell at (x, y).
    #[doc(hidden)]
    fn around(&self, x: u32, y: u32) -> Self::Around;
    /// The column and row of the cell of an owned id.
    #[doc(hidden)]
    fn xy(&self, id: u32) -> (u32, u32);
    /// The column and row of flat cell `cell`.
    #[doc(hidden)]
    fn cell_xy(&self, cell: usize) -> (u32, u32);
    /// Every owned id with its flat cell.
    #[doc(hidden)]
    fn owned(&self) -> impl Iterator<Item = (u32, usize)> + '_;
    /// Bytes the store itself holds (not the owner's arrays).
    #[doc(hidden)]
    fn memory_bytes(&self) -> usize;
}

impl Store for Tiles {
    type Around = Around;
    const STORAGE: Storage = Storage::Tiles;

    fn new(grid: &Grid) -> Self {
        Tiles::new(grid)
    }

    #[inline(always)]
    fn ids(&self) -> usize {
        Tiles::ids(self)
    }

    #[inline(always)]
    fn id(&self, x: u32, y: u32) -> u32 {
        Tiles::id(self, x, y)
    }

    #[inline(always)]
    fn prefetch_id(&self, x: u32, y: u32) {
        crate::prefetch::prefetch(&self.table, self.tile(x, y));
    }

    #[inline(always)]
    fn owns(id: u32) -> bool {
        id as usize >= BLOCK
    }

    #[inline(always)]
    fn claim(&mut self, x: u32, y: u32) -> u32 {
        Tiles::claim(self, x, y)
    }

    #[inline(always)]
    fn around(&self, x: u32, y: u32) -> Around {
        Tiles::around(self, x, y)
    }

    #[inline(always)]
    fn xy(&self, id: u32) -> (u32, u32) {
        Tiles::xy(self, id)
    }

    #[inline(always)]
    fn cell_xy(&self, cell: usize) -> (u32, u32) {
        Tiles::cell_xy(self, cell)
    }

    fn owned(&self) -> impl Iterator<Item = (u32, usize)> + '_ {
        Tiles::owned(self)
    }

    fn memory_bytes(&self) -> usize {
        Tiles::memory_bytes(self)
    }
}

impl Store for Flat {
    type Around = FlatAround;
    const STORAGE: Storage = Storage::Flat;

    fn new(grid: &Grid) -> Self {
        Flat {
            rows: Rows::new(grid),
        }
    }

    #[inline(always)]
    fn ids(&self) -> usize {
        self.rows.width as usize * self.rows.height as usize
    }

    #[inline(always)]
    fn id(&self, x: u32, y: u32) -> u32 {
        self.rows.cell(x, y) as u32
    }

    #[inline(always)]
    fn owns(_: u32) -> bool {
        true
    }

    #[inline(always)]
    fn claim(&mut self, x: u32, y: u32) -> u32 {
        self.rows.cell(x, y) as u32
    }

    #[inline(always)]
    fn around(&self, x: u32, y: u32) -> FlatAround {
        FlatAround {
            id: self.rows.cell(x, y) as u32,
            width: self.rows.width,
            last: self.ids() as u32 - 1,
        }
    }

    #[inline(always)]
    fn xy(&self, id: u32) -> (u32, u32) {
        self.rows.xy(id as usize)
    }

    #[inline(always)]
    fn cell_xy(&self, cell: usize) -> (u32, u32) {
        self.rows.xy(cell)
    }

    fn owned(&self) -> impl Iterator<Item = (u32, usize)> + '_ {
        (0..self.ids()).map(|c| (c as u32, c))
    }

    fn memory_bytes(&self) -> usize {
        0
    }
}

/// Which store a planner keeps its per-cell state in; chosen when the planner is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// One id per map cell ([`Flat`]): no table to read, memory of the whole map.
    Flat,
    /// Blocks of 16 ids claimed per 4×4 tile on first write ([`Tiles`]): memory that
    /// follows the searches.
    Tiles,
}

impl Storage {
    /// Bytes per map cell that a flat planner's state is counted at in [`by_size`]: the
    /// worst case of a group's state per cell (the simulation's own bound), above D\* Lite's
    /// 13 flat bytes per cell and MPGAA\*'s 30, so that flat planners never take more than
    /// the rule allows whatever their queues hold.
    ///
    /// [`by_size`]: Storage::by_size
    pub const FLAT_BYTES_PER_CELL: usize = 48;

    /// The store for a new planner on a map of `cells` cells, when `planners` planners (this
    /// one included) share a memory budget of `budget` bytes: [`Storage::Flat`] while every
    /// one of them could hold whole-map state ([`FLAT_BYTES_PER_CELL`] per cell) in a quarter
    /// of the budget, else [`Storage::Tiles`]. So a few planners on a large map, or many on a
    /// small one, run without the tile table; thousands of planners, or a budget that is
    /// tight, get memory that follows their searches. The choice is made once, at creation;
    /// the budget counts whichever store a planner holds.
    ///
    /// [`FLAT_BYTES_PER_CELL`]: Storage::FLAT_BYTES_PER_CELL
    pub fn by_size(cells: usize, planners: usize, budget: usize) -> Storage {
        let whole = (planners.max(1))
            .saturating_mul(cells)
            .saturating_mul(Self::FLAT_BYTES_PER_CELL);
        if whole <= budget / 4 {
            Storage::Flat
        } else {
            Storage::Tiles
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_by_multiplication_are_exact() {
        for w in [1, 2, 3, 7, 100, 110, 511, 512, 1000, 1023, 1024, 8191, 8192] {
            let h = (crate::grid::MAX_CELLS as u32 / w).min(9000);
            let tiles = Tiles::new(&Grid::new(w, h).unwrap());
            let last = w as usize * h as usize - 1;
            for c in (0..=last).step_by(97).chain([last, last.saturating_sub(1)]) {
                assert_eq!(
                    tiles.cell_xy(c),
                    (c as u32 % w, c as u32 / w),
                    "w {w} cell {c}"
                );
            }
        }
        let w = 3;
        let tiles = Tiles::new(&Grid::new(w, (crate::grid::MAX_CELLS / 3) as u32).unwrap());
        let top = crate::grid::MAX_CELLS - 1;
        for c in top - 100_000..top {
            assert_eq!(tiles.cell_xy(c), (c as u32 % w, c as u32 / w));
        }
    }

    #[test]
    fn ids_map_back_to_their_cells() {
        let grid = Grid::new(37, 21).unwrap();
        let mut tiles = Tiles::new(&grid);
        assert_eq!(tiles.id(36, 20) >> BLOCK_BITS, 0, "untouched: block 0");
        let a = tiles.claim(35, 19);
        let b = tiles.claim(33, 17);
        let c = tiles.claim(0, 0);
        let d = tiles.claim(36, 20);
        assert_eq!(a >> BLOCK_BITS, b >> BLOCK_BITS, "same tile, same block");
        assert_ne!(a >> BLOCK_BITS, c >> BLOCK_BITS);
        assert_ne!(a >> BLOCK_BITS, d >> BLOCK_BITS);
        assert_eq!(
            (tiles.xy(a), tiles.xy(b), tiles.xy(c), tiles.xy(d)),
            ((35, 19), (33, 17), (0, 0), (36, 20))
        );
        assert_eq!(tiles.id(35, 19), a);
        assert_eq!(tiles.ids(), 4 * BLOCK);
        // The tile at (36, 20) is cut by the map's corner: one of its cells is on it.
        assert_eq!(tiles.owned().count(), 1 + 2 * BLOCK);
        for (id, cell) in tiles.owned() {
            let (x, y) = tiles.xy(id);
            assert_eq!(tiles.cell_xy(cell), (x, y));
        }
    }
}
