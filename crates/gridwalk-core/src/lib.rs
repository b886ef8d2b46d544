//! gridwalk-core: engine-free grid pathfinding for the gridwalk demo.
//!
//! - [`grid`]: cells, weights, connectivity and the move rule; [`cost`]: fixed-point costs.
//! - [`rng`]: the seeded generator every random draw comes from.
//! - [`planner`]: the planner menu, the incremental planners' interface, and their factory.
//! - [`heuristic`]: distance estimates and their admissibility.
//! - [`queue`]: the indexed heap and the bucket queue (two slower ones behind `bench-queues`).
//! - [`search`]: A*, Dijkstra, greedy best-first, D* Lite and D*.
//! - [`trace`]: recorded search steps, for `--trace` and the game's explain mode.
//! - [`sim`]: agents, goals shared by groups, edits and ticks: the semantics of the game and
//!   of `gridwalk-cli simulate`.
//! - [`format`](mod@format): RON maps and scenarios, and Moving AI `.map` / `.scen` files.
//! - [`navigate`]: one agent navigating in unknown terrain, the D* Lite papers' experiment.
#![warn(missing_docs)]

#[macro_use]
mod named;

pub mod cost;
pub mod format;
pub mod gppc;
pub mod grid;
pub mod heuristic;
pub mod navigate;
pub mod path;
pub mod planner;
pub mod queue;
pub mod replay;
pub mod rng;
pub mod search;
pub mod sim;
mod slab;
pub mod stats;
pub mod timeline;
pub mod trace;

pub use cost::Cost;
pub use grid::{Connectivity, Grid, GridError, Pos, Terrain};
pub use heuristic::Heuristic;
pub use path::Path;
pub use planner::new_planner;
pub use planner::{Algorithm, CellInfo, GoalPlanner, Progress};
pub use stats::SearchStats;
