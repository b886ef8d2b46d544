//! The core's integration tests, linked as one test binary: one module per subject, and
//! `common`, the helpers they share. The Moving AI and GPPC files they read are in
//! `tests/data/`.

#[macro_use]
mod common;
mod budgets;
mod crowd;
mod crowd_rotation;
mod crowd_search;
mod crowd_speed_hints;
mod default_map;
mod destinations;
mod dstar;
mod dstar_lite;
mod exact;
mod gppc;
mod history;
mod lorr_scenario;
mod mapf;
mod movingai_format;
mod mpgaa;
mod navigate;
mod no_knots;
mod pockets;
mod realtime;
mod rotation;
mod routes;
mod scenario_format;
mod sensing;
mod sim;
mod sim_api;
mod sim_scale;
mod tick_paths;
mod trace;
mod world;
