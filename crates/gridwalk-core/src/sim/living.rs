//! The living part of a [`Simulation`](super::Simulation): what keeps it alive without input. What
//! agents do on arrival ([`OnArrival`]), and a dynamic world ([`DynamicWorld`]) whose doors close
//! on agents' paths and open again ([`Doors`]). Both draw from seeded generators of their own.
//!
//! **Destinations.** With K destinations ([`Simulation::set_destinations`]), a wandering
//! agent draws its next goal from K cells chosen once instead of from every cell it can
//! reach, so agents keep sharing goals, and so planners: at most K of them serve wanderers.
//! The K cells ([`choose_destinations`]) are drawn with the seed among the cells of the map's
//! largest connected component (the one holding the first such cell in index order on a
//! tie), as the map stands when K or the seed is set: the component most agents live in, and
//! one where every destination reaches every other. At each draw, the destinations that are
//! walls now, that the agent cannot reach now or that it stands on are skipped (in order,
//! deterministically); when none is left, the agent waits on its goal and draws again on the
//! next tick. K = 0 (the default) draws from every reachable cell, as always.
//!
//! Invariants: the generators are exactly `SplitMix64::seed_from_u64(seed ^ stream)` advanced by
//! the draws of this run, one stream for wander and one for the dynamic world, so that neither
//! disturbs the other and a run replays exactly from its scenario; `destinations` is exactly
//! [`choose_destinations`] of the map, seed and K as of the last `set_destinations` or
//! `set_seed`; `doors` lists only walls the dynamic world dropped that still stand and that
//! no edit took away.
//!
//! This module holds the types; the phase of a tick that acts on them is `living_phase.rs`.
//!
//! [`Simulation::set_destinations`]: super::Simulation::set_destinations

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::grid::{Components, Connectivity, Grid, Pos, Terrain};
use crate::rng::{Draw, SeedableRng, SplitMix64};

/// The most destinations a simulation (or a scenario) may ask for.
pub const MAX_DESTINATIONS: usize = 1000;

/// What an agent does once it stands on its goal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OnArrival {
    /// It stays there.
    #[default]
    Stay,
    /// It walks to a new random goal it can reach.
    Wander,
    /// It walks back to its start, then to its goal again, and so on.
    Patrol,
}

impl OnArrival {
    /// Every policy, in menu order.
    pub const ALL: [OnArrival; 3] = [OnArrival::Stay, OnArrival::Wander, OnArrival::Patrol];

    /// `stay`, `wander` or `patrol`.
    pub fn name(self) -> &'static str {
        match self {
            OnArrival::Stay => "stay",
            OnArrival::Wander => "wander",
            OnArrival::Patrol => "patrol",
        }
    }
}

named_enum!(OnArrival, name, "arrival policy");

/// The dynamic world's setting: every `every` ticks a wall drops on a random free cell of a
/// walking agent's path ahead of it, and once more than `walls` such walls stand, the oldest
/// is lifted (doors closing and opening).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DynamicWorld {
    /// Ticks between two dropped walls, at least 1.
    pub every: u32,
    /// How many dropped walls may stand at once, at least 1.
    pub walls: u32,
}

impl DynamicWorld {
    /// The gentle setting the game starts with: a wall every 4 ticks, at most 6 standing.
    pub const GENTLE: DynamicWorld = DynamicWorld { every: 4, walls: 6 };

    /// How far ahead of an agent, in cells of its path, a wall may drop.
    pub const AHEAD: usize = 12;

    /// The setting with both numbers at least 1.
    pub fn clamped(self) -> DynamicWorld {
        DynamicWorld {
            every: self.every.max(1),
            walls: self.walls.max(1),
        }
    }
}

/// The walls the dynamic world dropped and has not lifted yet, oldest first, each with the
/// terrain it replaced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Doors {
    /// (cell, terrain before the wall), oldest first.
    pub standing: VecDeque<(Pos, Terrain)>,
}

/// Streams of the simulation's generators, so that wander and the dynamic world do not
/// disturb each other.
const WANDER_STREAM: u64 = 0x5741_4E44;
const DYNAMIC_STREAM: u64 = 0x4459_4E41;
/// The stream the destinations are chosen with.
const DESTINATIONS_STREAM: u64 = 0x4445_5354;
/// Draws a destination may take before it scans forward to the next eligible cell.
const DESTINATION_TRIES: usize = 64;

/// The part of the world that draws from the seed, so that it replays: the seed, the
/// generators of wander and the dynamic world, the dynamic world's setting and its doors, and
/// the destinations.
#[derive(Clone, Debug)]
pub(super) struct SeededWorld {
    pub(super) seed: u64,
    /// Draws wander's goals.
    pub(super) wander: SplitMix64,
    /// The dynamic world's setting, `None` when off.
    pub(super) dynamic: Option<DynamicWorld>,
    /// Draws the dynamic world's walls.
    pub(super) dynamic_rng: SplitMix64,
    pub(super) doors: Doors,
    /// Destinations asked for (K); 0 draws wander's goals among all reachable cells.
    pub(super) k: usize,
    /// The destination cells (flat indices), in the order they were chosen.
    pub(super) destinations: Vec<usize>,
}

impl Default for SeededWorld {
    fn default() -> Self {
        SeededWorld {
            seed: 0,
            wander: SplitMix64::seed_from_u64(WANDER_STREAM),
            dynamic: None,
            dynamic_rng: SplitMix64::seed_from_u64(DYNAMIC_STREAM),
            doors: Doors::default(),
            k: 0,
            destinations: Vec::new(),
        }
    }
}

impl SeededWorld {
    /// Restarts both generators from `seed`.
    pub(super) fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.wander = SplitMix64::seed_from_u64(seed ^ WANDER_STREAM);
        self.dynamic_rng = SplitMix64::seed_from_u64(seed ^ DYNAMIC_STREAM);
    }

    /// Chooses the `k` destinations again on `grid`, with the seed.
    pub(super) fn choose(
        &mut self,
        grid: &Grid,
        conn: Connectivity,
        comps: &mut Components,
        k: usize,
    ) {
        self.k = k.min(MAX_DESTINATIONS);
        self.destinations = choose_cells(grid, conn, self.seed, self.k, comps);
    }

    /// The `n`th of wander's next goals for an agent on `here`: the destinations, skipping
    /// walls, cells it cannot reach and its own, are counted, one is drawn, then found.
    /// `None` (and no draw) when none is eligible.
    pub(super) fn draw_destination(
        &mut self,
        grid: &Grid,
        conn: Connectivity,
        comps: &mut Components,
        here: usize,
    ) -> Option<usize> {
        let mut eligible =
            |d: usize| d != here && grid.weight(d) != 0 && comps.connected(grid, here, d, conn);
        let n = self.destinations.iter().filter(|&&d| eligible(d)).count();
        if n == 0 {
            return None;
        }
        let i = self.wander.below(n);
        self.destinations
            .iter()
            .copied()
            .filter(|&d| eligible(d))
            .nth(i)
    }

    /// A cell edited from a wall to `pos`'s new terrain: no longer the dynamic world's to lift.
    #[inline]
    pub(super) fn forget_door(&mut self, pos: Pos) {
        self.doors.standing.retain(|&(p, _)| p != pos);
    }
}

/// The `k` destinations of `grid` with `seed` (at most [`MAX_DESTINATIONS`], and at most the
/// size of the largest component): what
/// [`Simulation::set_destinations`](super::Simulation::set_destinations) chooses on that map
/// with that seed, for callers that want starting goals among them. Each is one draw of a
/// uniform cell, drawn again (up to 64 times) while it is a wall, outside the largest
/// component or already chosen, then moved forward to the next cell that is none of those.
pub fn choose_destinations(grid: &Grid, conn: Connectivity, seed: u64, k: usize) -> Vec<Pos> {
    let cells = choose_cells(grid, conn, seed, k, &mut Components::default());
    cells.into_iter().map(|c| grid.pos(c)).collect()
}

/// In crowd mode, wanderers get at least one destination for this many agents, so that a
/// crowd does not queue for a few cells (one agent at a time can stand on a goal).
pub const AGENTS_PER_DESTINATION: usize = 25;

/// The most cells the first searches of crowd mode's extra destinations may cover together:
/// each destination's planner first settles the costs around all of its agents, about the
/// whole map, so 5,000 agents' 200 destinations on a 512×512 map would keep a planning budget
/// of 30,000 expansions a tick busy for minutes before every agent moves. This many cells take
/// it about 28 s at 10 ticks a second.
pub const CROWD_PLAN_CELLS: usize = 1 << 23;

/// The crowd-destination rule: how many destinations the wanderers of a crowd of `agents`
/// agents (those due at tick 0) draw from on a map of `passable` passable cells, when `k` are
/// asked for. At least one for every [`AGENTS_PER_DESTINATION`] agents, as long as their first
/// searches stay within [`CROWD_PLAN_CELLS`] cells, never fewer than `k`, and at most
/// [`MAX_DESTINATIONS`] (unless `k` asks for more); `k` = 0 (any reachable cell) stays 0. The
/// game and `gridwalk-cli simulate` apply it in crowd mode.
///
/// ```
/// use gridwalk_core::sim::crowd_destinations;
///
/// assert_eq!(crowd_destinations(4, 12, 10_000), 4, "a few agents: as asked");
/// assert_eq!(crowd_destinations(4, 300, 10_000), 12, "one per 25 agents");
/// assert_eq!(crowd_destinations(4, 5_000, 250_000), 33, "within the searches' cap");
/// assert_eq!(crowd_destinations(0, 5_000, 10_000), 0, "any cell stays any cell");
/// ```
pub fn crowd_destinations(k: usize, agents: usize, passable: usize) -> usize {
    if k == 0 {
        return 0;
    }
    let affordable = CROWD_PLAN_CELLS / passable.max(1);
    let wanted = agents.div_ceil(AGENTS_PER_DESTINATION).min(affordable);
    k.max(wanted.min(MAX_DESTINATIONS))
}

/// [`choose_destinations`] as flat indices, with the caller's components.
fn choose_cells(
    grid: &Grid,
    conn: Connectivity,
    seed: u64,
    k: usize,
    comps: &mut Components,
) -> Vec<usize> {
    if k == 0 {
        return Vec::new();
    }
    // The largest component, by its first cell in index order.
    let (mut root, mut size) = (0, 0);
    for c in 0..grid.len() {
        let s = comps.size_at(grid, c, conn);
        if s > size {
            (root, size) = (c, s);
        }
    }
    let k = k.min(MAX_DESTINATIONS).min(size);
    let mut rng = SplitMix64::seed_from_u64(seed ^ DESTINATIONS_STREAM);
    let mut chosen: Vec<usize> = Vec::with_capacity(k);
    let mut fits = |c: usize, chosen: &[usize]| {
        grid.weight(c) != 0 && comps.connected(grid, c, root, conn) && !chosen.contains(&c)
    };
    while chosen.len() < k {
        let mut c = rng.below(grid.len());
        let mut tries = 1;
        while tries < DESTINATION_TRIES && !fits(c, &chosen) {
            c = rng.below(grid.len());
            tries += 1;
        }
        // The component holds more than `chosen`, so the scan ends.
        while !fits(c, &chosen) {
            c = (c + 1) % grid.len();
        }
        chosen.push(c);
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn reseeding_restarts_both_streams_apart() {
        let mut a = SeededWorld::default();
        assert_eq!(a.wander, SplitMix64::seed_from_u64(WANDER_STREAM));
        a.reseed(42);
        let (w, d) = (a.wander.next_u64(), a.dynamic_rng.next_u64());
        assert_ne!(w, d, "the two streams differ");
        let mut b = SeededWorld::default();
        b.reseed(42);
        assert_eq!((b.wander.next_u64(), b.dynamic_rng.next_u64()), (w, d));
        assert_eq!(b.seed, 42);
    }

    #[test]
    fn destinations_are_distinct_cells_of_the_largest_component() {
        let conn = Connectivity::Eight;
        // A wall splits a 3-wide pocket from the 6-wide rest.
        let g = crate::format::grid_from_rows(&["...#......"; 3]).unwrap();
        let d = choose_destinations(&g, conn, 5, 6);
        assert_eq!(d, choose_destinations(&g, conn, 5, 6), "seeded");
        assert_ne!(d, choose_destinations(&g, conn, 6, 6));
        assert!(d.iter().all(|p| p.x > 3), "{d:?}");
        let mut sorted = d.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 6);
        // K above the component's size takes all of it; K = 0 takes nothing.
        assert_eq!(choose_destinations(&g, conn, 5, 100).len(), 18);
        assert!(choose_destinations(&g, conn, 5, 0).is_empty());
        assert!(choose_destinations(&Grid::new(1, 1).unwrap(), conn, 5, 0).is_empty());
    }

    #[test]
    fn a_door_taken_away_is_forgotten() {
        let mut l = SeededWorld::default();
        l.doors.standing.push_back((Pos::new(1, 1), Terrain::FREE));
        l.doors.standing.push_back((Pos::new(2, 1), Terrain::FREE));
        l.forget_door(Pos::new(1, 1));
        assert_eq!(l.doors.standing, [(Pos::new(2, 1), Terrain::FREE)]);
        assert_eq!(
            DynamicWorld { every: 0, walls: 0 }.clamped(),
            DynamicWorld { every: 1, walls: 1 }
        );
    }
}
