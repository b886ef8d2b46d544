//! gridwalk-core: engine-free grid pathfinding for the gridwalk demo.
//!
//! Building blocks:
//! - [`grid`]: cells, weights, connectivity, the move rule and random maps; [`cost`]:
//!   fixed-point costs; [`path`]: paths and their check; [`stats`]: work counters.
//! - [`rng`]: every random draw, through rand's traits over a seeded SplitMix64.
//! - [`planner`]: the planner menu, the incremental planners' interface, and their factory.
//! - [`heuristic`]: distance estimates and their admissibility.
//! - [`queue`]: the indexed heap and the bucket queue (three slower ones behind `bench-queues`).
//! - [`search`]: A*, Dijkstra, greedy best-first, D* Lite, D* and MPGAA*.
//! - [`crowd`]: the crowd's step rule (PIBT with trap handling), which moves many agents at
//!   once with no two on a cell: crowd mode's moves and the MAPF solver's successors.
//! - [`mapf`]: multi-agent path finding, LaCAM over the crowd's step rule: the one-shot and
//!   anytime solver of `gridwalk-cli mapf`, and the real-time search that crowd mode keeps
//!   across ticks when a crowd stalls.
//! - [`trace`]: recorded search steps, for `--trace` and the game's explain mode.
//! - [`sim`]: agents, goals shared by groups, edits and ticks: the semantics of the game and
//!   of `gridwalk-cli simulate`.
//! - [`format`](mod@format): RON maps and scenarios, and Moving AI `.map` / `.scen` files.
//!
//! Programs that drive a simulation:
//! - [`scenario`]: a scenario's starting world, its timeline by tick, and its replay (the engine
//!   of `gridwalk-cli simulate` and of recordings).
//! - [`tracks`]: the benchmark tracks: the GPPC dynamic track and navigation in unknown terrain
//!   (the D* Lite papers' experiment).
#![warn(missing_docs)]

#[macro_use]
mod macros;

pub mod cost;
pub mod crowd;
pub mod format;
pub mod grid;
pub mod heuristic;
mod huge;
pub mod mapf;
pub mod path;
pub mod planner;
mod prefetch;
pub mod queue;
pub mod rng;
pub mod scenario;
pub mod search;
pub mod sim;
mod slab;
pub mod stats;
pub mod trace;
pub mod tracks;

pub use cost::Cost;
pub use grid::{Connectivity, Facing, Grid, GridError, Pos, Terrain};
pub use heuristic::Heuristic;
pub use path::Path;
pub use planner::{Algorithm, CellInfo, GoalPlanner, Progress};
pub use planner::{new_planner, new_planner_in};
pub use stats::SearchStats;
