//! gridwalk-cli: headless runs of the gridwalk planners, one module per command.
//!
//! - [`simulate`]: plays a RON scenario and prints one JSON line per tick ([`lines`]).
//! - [`movingai`]: solves every problem of a Moving AI scenario file and checks the optimal
//!   lengths ([`check`]).
//! - [`gppc`]: runs an instance of the GPPC dynamic track and checks every query's length.
//! - [`navigate`]: runs Moving AI problems as navigations in unknown terrain.
//! - [`mapf`]: solves a one-shot MAPF benchmark instance with LaCAM.
//! - [`lifelong`]: plays a League of Robot Runners problem (lifelong MAPF with rotation).
//!
//! The binary (`src/main.rs`) holds the command line and calls these; a new command is a new
//! module here and one variant there.
#![warn(missing_docs)]

pub mod check;
pub mod gppc;
pub mod lifelong;
pub mod lines;
pub mod mapf;
pub mod movingai;
pub mod navigate;
pub mod simulate;
