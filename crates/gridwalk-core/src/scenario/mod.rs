//! Scenarios in play: the world a scenario starts ([`start`]), what it makes happen by tick
//! ([`timeline`]), and a scenario run tick by tick ([`replay`]), which `gridwalk-cli simulate`
//! prints and recordings replay through.

pub mod replay;
pub mod start;
pub mod timeline;

pub use replay::{Replay, TickReport};
pub use start::Start;
pub use timeline::{Applied, Timeline};
