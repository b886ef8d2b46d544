//! [`DynamicSpec`]: a scenario's timed change of the dynamic world (`dynamic: [...]`).

use serde::{Deserialize, Serialize};

use crate::sim::DynamicWorld;

/// A timed change of the dynamic world: from `tick` on, a wall every `every` ticks with at
/// most `walls` standing; `every: 0` turns it off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DynamicSpec {
    /// The tick from which it holds; 0 by default.
    #[serde(default)]
    pub tick: u64,
    /// Ticks between two walls; 0 is off.
    pub every: u32,
    /// Walls standing at most; 6 by default.
    #[serde(default = "default_walls")]
    pub walls: u32,
}

fn default_walls() -> u32 {
    DynamicWorld::GENTLE.walls
}

impl DynamicSpec {
    /// The dynamic world's setting this change makes, `None` for off.
    pub fn setting(&self) -> Option<DynamicWorld> {
        (self.every > 0).then_some(DynamicWorld {
            every: self.every,
            walls: self.walls,
        })
    }

    /// The change that makes `setting` from `tick` on.
    pub fn new(tick: u64, setting: Option<DynamicWorld>) -> DynamicSpec {
        match setting {
            Some(d) => DynamicSpec {
                tick,
                every: d.every,
                walls: d.walls,
            },
            None => DynamicSpec {
                tick,
                every: 0,
                walls: default_walls(),
            },
        }
    }
}
