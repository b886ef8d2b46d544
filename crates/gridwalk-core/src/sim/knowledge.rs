//! Knowledge and sensing: agents that know only what they have seen (Koenig & Likhachev's
//! navigation in unknown terrain, with the freespace assumption).
//!
//! Off (the default), every agent knows the whole map the instant it changes, as always. On
//! ([`Simulation::set_sensor_range`]), the agents share one **known map**. It starts as plain
//! ground everywhere. At the start of every replan, every agent senses the cells within
//! Chebyshev distance R of its cell (no occlusion), and its own goal cell; the known map takes
//! their true terrain. So at tick 0 the agents sense from their starts before the first plan,
//! and at every later tick after the tick's settings, new agents and edits, before the repair.
//!
//! Which map each part of the simulation sees, so that they all decide consistently:
//! - **the known map**: every planner (its searches, its repairs, `remaining`, [`path`],
//!   [`cost_field`], [`explain`], [`inspect`]), the A\* from scratch of the baseline and of
//!   explain, the pockets that settle an agent with no path at once (an agent gives up when
//!   what it knows walls it in, as its planner would), and the move memos;
//! - **the true map** ([`Simulation::grid`]): edits (the user's, a scenario's, the dynamic
//!   world's) and their refusals, the moves themselves (a planned step is checked against it
//!   when the map changed since the replan), the starts and goals of new agents, wander's
//!   goal draws and their reachability, the destinations, and where the dynamic world drops
//!   its walls. The world chooses those; the agents only plan.
//!
//! Planners learn of known cells that changed, and only of those: the simulation's list of
//! changed cells is replaced by the sensing's discoveries before every repair (until then it
//! lists the true map's edits, so that [`changes_pending`] and the move check still see them).
//! An agent's next cell is within its sensed square (R ≥ 1) and nothing changes the true map
//! between a sensing and the moves after it, so no agent ever steps onto a wall.
//!
//! While sensing is on, the simulation's own grid holds the known map and `Sensing` holds
//! the true one: the planners and their helpers read the grid they always read. Turning it on
//! or off (or on again) drops every planner, as a new algorithm does: they plan again on the
//! map they now see. Changing the range while on keeps the known map.
//!
//! Invariants, while on: every known cell holds the true terrain it had when an agent last
//! sensed it, and plain ground if no agent has since sensing was turned on; `seen` marks
//! exactly the cells sensed since then; `components` label the true map; after a replan,
//! `discovered` lists, in index order (row by row), the cells whose known terrain that
//! replan's sensing changed. A sensing costs the cells of the agents' squares (each row of a
//! square is compared with the true map as one slice), never the whole map.
//!
//! [`path`]: super::Simulation::path
//! [`cost_field`]: super::Simulation::cost_field
//! [`explain`]: super::Simulation::explain
//! [`inspect`]: super::Simulation::inspect
//! [`changes_pending`]: super::Simulation::changes_pending
//! [`Simulation::set_sensor_range`]: super::Simulation::set_sensor_range
//! [`Simulation::grid`]: super::Simulation::grid

use crate::grid::{Components, Grid};

/// The largest sensor range.
pub const MAX_SENSOR_RANGE: u32 = 64;

/// The true map and what the agents sensed of it, while sensing is on.
pub(super) struct Sensing {
    /// Chebyshev radius of every agent's sensed square, 1 to [`MAX_SENSOR_RANGE`].
    pub(super) range: u32,
    /// The true map (the simulation's grid holds the known map meanwhile).
    pub(super) truth: Grid,
    /// The components of the true map, for wander and the destinations.
    pub(super) components: Components,
    /// Per cell, whether an agent sensed it since sensing was turned on.
    pub(super) seen: Vec<bool>,
}

/// Sensing's part of a [`Simulation`](super::Simulation): off, or on with the true map.
#[derive(Default)]
pub(super) struct Knowledge {
    pub(super) sensing: Option<Sensing>,
    /// The cells whose known terrain the last replan's sensing changed, in index order, each
    /// with its known weight before (0 for a wall).
    pub(super) discovered: Vec<(usize, u8)>,
    /// Whether the last replan sensed.
    pub(super) sensed: bool,
}

impl Knowledge {
    /// The true map: `grid` (the simulation's) unless sensing is on.
    #[inline]
    pub(super) fn truth<'a>(&'a self, grid: &'a Grid) -> &'a Grid {
        self.sensing.as_ref().map_or(grid, |s| &s.truth)
    }

    /// The true map and its components: `grid` and `comps` (the pockets', which follow the
    /// simulation's grid) unless sensing is on.
    #[inline]
    pub(super) fn world<'a>(
        &'a mut self,
        grid: &'a Grid,
        comps: &'a mut Components,
    ) -> (&'a Grid, &'a mut Components) {
        match &mut self.sensing {
            Some(s) => (&s.truth, &mut s.components),
            None => (grid, comps),
        }
    }
}

/// How many cells of each kind the last sensing discovered, for a panel's sentence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Discoveries {
    /// Cells now known as walls.
    pub walls: usize,
    /// Cells known as walls before, now known as passable.
    pub opened: usize,
    /// Passable cells whose known weight changed.
    pub reweighted: usize,
}

impl Discoveries {
    /// All the cells discovered.
    pub fn total(&self) -> usize {
        self.walls + self.opened + self.reweighted
    }
}
