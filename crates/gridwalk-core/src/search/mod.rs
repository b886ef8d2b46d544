//! The searches: one-shot best-first (A*, Dijkstra, greedy) and the incremental planners
//! (D\* Lite, D\*, MPGAA\*). They are made in one place, [`crate::planner`].

pub mod best_first;
mod bounds;
pub(crate) mod cells;
pub mod dstar;
pub mod dstar_lite;
pub mod goal_planner;
pub mod mpgaa;

pub use best_first::{Mode, SearchRequest, SearchResult, SearchSpace, astar, dijkstra};
pub use cells::{Flat, Storage, Store, Tiles};
pub use dstar::DStar;
