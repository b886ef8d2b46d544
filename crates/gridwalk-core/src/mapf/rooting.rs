//! A real-time search's first root prepared a budget of work at a time ([`Rooting`]): the
//! distance tables and the scatter's initial paths that [`RealTime::with_tables`] computes at
//! once, spread over as many calls as the caller likes, so that no tick of a game stops for
//! them. Crowd mode prepares its search this way, and holds the crowd still meanwhile.
//!
//! The scatter plans from the cells the agents stood on when the preparation began; the
//! search is rooted where they stand when it ends ([`Rooting::finish`]). The paths are only
//! preferences (an agent off its path falls back to its table), so paths planned a few steps
//! earlier still spread the crowd out. Rooted at the same cells, the engine is exactly
//! [`RealTime::with_tables`]'s, however the work was cut.
//!
//! ```
//! use gridwalk_core::grid::Connectivity;
//! use gridwalk_core::mapf::{RealTimeOptions, Rooting};
//!
//! let grid = gridwalk_core::format::grid_from_rows(&["#####", "#...#", "##.##"]).unwrap();
//! let (a, b) = (6, 8); // flat cells (1, 1) and (3, 1)
//! let options = RealTimeOptions::default();
//! let mut rooting = Rooting::new(&grid, Connectivity::Four, &[a, b], &[b, a], options).unwrap();
//! while !rooting.work(10) {}
//! let (mut rt, tables) = rooting.finish(&grid, &[a, b]).unwrap();
//! while !rt.arrived() {
//!     rt.tick(&grid, &tables).unwrap();
//! }
//! assert_eq!(rt.cells(), &[b, a]);
//! ```

use super::dist::Filling;
use super::lacam::{Search, scatter_bytes};
use super::realtime::{check_lists, check_reachable, whole};
use super::scatter::{Rounds, Stop};
use super::{DistanceTables, ProblemError, RealTime, RealTimeOptions, UNREACHABLE};
use crate::grid::{Connectivity, Grid};
use crate::rng::{SeedableRng, SplitMix64};

/// Cells of a breadth-first search that count as one unit of work, about the time of one
/// expansion of the scatter's path searches.
const CELLS_PER_WORK: u64 = 16;

/// A real-time search's root in preparation: [`work`](Self::work) until it returns true, then
/// [`finish`](Self::finish) for the engine and its tables, rooted where the agents stand then.
pub struct Rooting {
    conn: Connectivity,
    options: RealTimeOptions,
    /// The grid's size it was made for (width, cells).
    size: (u32, usize),
    starts: Vec<u32>,
    goals: Vec<u32>,
    /// Taken out only while [`work`](Self::work) runs.
    stage: Option<Stage>,
    /// Whether the last [`work`](Self::work) said the root is ready.
    ready: bool,
    /// The search's generator: the scatter draws from it first, as in `solve`.
    rng: SplitMix64,
    /// Bytes the search may take, less the scatter's.
    memory: usize,
    /// Work done so far, in units.
    done: u64,
}

/// How far a preparation has come.
enum Stage {
    /// Filling the distance tables.
    Tables(Filling),
    /// Planning the scatter's paths (none when they are off or would not fit).
    Paths(DistanceTables, Option<Box<Rounds>>),
}

impl Rooting {
    /// Begins a root for agents on `cells` going to `goals` (flat cells of `grid`, one per
    /// agent), with `options` as [`RealTime::with_tables`]. Errors name what is wrong, as
    /// [`RealTime::new`]'s do; a goal that cannot be reached is found by
    /// [`finish`](Self::finish), once the tables say so.
    pub fn new(
        grid: &Grid,
        conn: Connectivity,
        cells: &[u32],
        goals: &[u32],
        options: RealTimeOptions,
    ) -> Result<Rooting, ProblemError> {
        check_lists(grid, cells, goals)?;
        Ok(Rooting {
            conn,
            options,
            size: (grid.width(), grid.len()),
            starts: cells.to_vec(),
            goals: goals.to_vec(),
            stage: Some(Stage::Tables(Filling::new(grid, conn, goals))),
            ready: false,
            rng: SplitMix64::seed_from_u64(options.seed),
            memory: options.memory_cap,
            done: 0,
        })
    }

    /// Goes on with the preparation for about `work` units (an expansion of the scatter's
    /// searches, or 16 cells of a table's; one table or one agent's path may run past it);
    /// true once the root is ready to [`finish`](Self::finish).
    pub fn work(&mut self, work: u64) -> bool {
        let end = self.done.saturating_add(work);
        let stage = self.stage.take().expect("a stage between calls");
        let (stage, ready) = self.advance(stage, end);
        self.stage = Some(stage);
        self.ready = ready;
        ready
    }

    /// Works on `stage` until `end` units are done in all, or it is ready.
    fn advance(&mut self, stage: Stage, end: u64) -> (Stage, bool) {
        match stage {
            Stage::Tables(mut filling) => {
                let cells = (end.saturating_sub(self.done)).saturating_mul(CELLS_PER_WORK);
                let before = filling.visited();
                let filled = filling.fill(usize::try_from(cells).unwrap_or(usize::MAX));
                self.done += (filling.visited() - before).div_ceil(CELLS_PER_WORK);
                if !filled {
                    return (Stage::Tables(filling), false);
                }
                let tables = filling.finish();
                let rounds = self.rounds(&tables);
                self.advance(Stage::Paths(tables, rounds), end)
            }
            Stage::Paths(tables, Some(mut rounds)) => {
                let before = rounds.expansions();
                let stop = Stop::Work(self.options.scatter_work);
                let pause = before + end.saturating_sub(self.done);
                let ended = rounds.advance(&tables, stop, pause, &mut self.rng);
                self.done += rounds.expansions() - before;
                (Stage::Paths(tables, Some(rounds)), ended)
            }
            Stage::Paths(tables, None) => (Stage::Paths(tables, None), true),
        }
    }

    /// The scatter's rounds, when the options ask for them and their memory fits in half the
    /// cap (as `solve`'s), with that memory taken from the search's.
    fn rounds(&mut self, tables: &DistanceTables) -> Option<Box<Rounds>> {
        let margin = self.options.scatter_margin?;
        // A goal that cannot be reached leaves no paths to plan; `finish` reports it.
        let mut starts = self.starts.iter().enumerate();
        if starts.any(|(a, &c)| tables.get(a, c as usize) == UNREACHABLE) {
            return None;
        }
        let cells = tables.cells();
        let need = scatter_bytes(cells, &self.starts, tables, margin);
        (need < self.memory / 2).then(|| {
            self.memory -= need;
            Box::new(Rounds::new(cells, (&self.starts, &self.goals), margin))
        })
    }

    /// The agents' goals (flat cells), as given to [`new`](Self::new).
    pub fn goals(&self) -> &[u32] {
        &self.goals
    }

    /// The work done so far, in [`work`](Self::work)'s units.
    pub fn done(&self) -> u64 {
        self.done
    }

    /// The engine, its search rooted at `cells` (where the same agents stand now, in the same
    /// order), and the tables to tick it with. Errors name what is wrong: the root is not
    /// ready, the grid is not the one it began on, `cells` are not a configuration, a goal
    /// cannot be reached.
    pub fn finish(
        self,
        grid: &Grid,
        cells: &[u32],
    ) -> Result<(RealTime, DistanceTables), ProblemError> {
        if (grid.width(), grid.len()) != self.size {
            return Err(whole("the grid is not the size the root began on"));
        }
        let (tables, rounds) = match self.stage {
            Some(Stage::Paths(tables, rounds)) if self.ready => (tables, rounds),
            _ => return Err(whole("the root is not ready: work on it until it says so")),
        };
        check_lists(grid, cells, &self.goals)?;
        check_reachable(grid, cells, &self.goals, &tables)?;
        let paths = rounds.map(|r| r.finish());
        let at = (grid, self.conn);
        let ends = (cells, &self.goals[..]);
        let search = Search::from_scatter(at, ends, &tables, (paths, self.rng), self.memory);
        let rt = RealTime::from_search(grid, self.conn, (cells, &self.goals), search, self.options);
        Ok((rt, tables))
    }
}
