//! The benchmark tracks that drive the simulation's planners: the GPPC dynamic track
//! ([`gppc_dynamic`]) and navigation in unknown terrain ([`navigate`]).

pub mod gppc_dynamic;
pub mod lifelong;
pub mod navigate;
