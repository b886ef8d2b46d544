//! The one home of the planner choice: the interface shared by the incremental planners
//! ([`GoalPlanner`]), the algorithm menu ([`Algorithm`], which says what each algorithm can
//! do, so callers ask it instead of matching on variants), and the only factory
//! (`PlannerPool` for the simulation, [`new_planner`] for one-off planners).
//!
//! A planner serves one goal and every agent heading to it. It keeps its own arrays and never
//! borrows the grid: each call receives the grid, and [`GoalPlanner::cells_changed`] tells it
//! which cells changed since the last call, so it can repair only what they affect.
//!
//! The one-shot searches keep their own knob, [`crate::search::Mode`] (which also has greedy
//! best-first, no menu entry): [`Algorithm::fresh_mode`] is the one mapping from the menu to it.
//!
//! Cells here are flat indices (`usize`, `u32` in expansion lists), not [`crate::Pos`]: the
//! protocol is called per planner and per tick with thousands of cells (see [`crate::grid`]).

mod algorithm;
mod factory;

pub use algorithm::{Algorithm, ExpansionNames};
pub use factory::{DEFAULT_PLANNER_MEMORY, PlannerError, new_planner, new_planner_in};
pub(crate) use factory::{Planner, PlannerPool};
// Defined beside the searches that implement it, so that the searches never import from
// the factory above them.
pub use crate::search::goal_planner::{CellInfo, GoalPlanner, Progress};
