//! The scenario's unknown-terrain fields (see [`crate::sim::knowledge`]), kept here so that
//! `scenario.rs` stays small:
//!
//! ```ron
//!     sensor_range: 3,
//!     sensing: [(tick: 40, range: 0), (tick: 60, range: 7)],
//! ```
//!
//! - `sensor_range` (absent by default, else 1 to [`MAX_SENSOR_RANGE`]): from tick 0, the
//!   agents know only the cells they sense within this Chebyshev distance; absent, they know
//!   the whole map.
//! - `sensing`: from `tick` on (default 0), the range becomes `range`; `range: 0` turns sensing
//!   off (back to full knowledge). The game records its sensor-range changes here.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::sim::MAX_SENSOR_RANGE;

/// A timed change of the sensor range: from `tick` on, the agents sense within `range`;
/// `range: 0` turns sensing off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SensingSpec {
    /// The tick from which it holds; 0 by default.
    #[serde(default)]
    pub tick: u64,
    /// The sensor range, 1 to [`MAX_SENSOR_RANGE`]; 0 is off.
    pub range: u32,
}

impl SensingSpec {
    /// The change that sets `range` (`None`: off) from `tick` on.
    pub fn new(tick: u64, range: Option<u32>) -> SensingSpec {
        SensingSpec {
            tick,
            range: range.unwrap_or(0),
        }
    }

    /// The range this change sets, `None` for off.
    pub fn setting(&self) -> Option<u32> {
        (self.range > 0).then_some(self.range)
    }
}

/// Checks the ranges: `Err((None, why))` for `sensor_range`, `Err((Some(i), why))` for
/// `sensing[i]`.
pub(super) fn check(
    sensor_range: Option<u32>,
    sensing: &[SensingSpec],
) -> Result<(), (Option<usize>, String)> {
    if let Some(r) = sensor_range
        && !(1..=MAX_SENSOR_RANGE).contains(&r)
    {
        let why = format!("sensor_range: {r} is not in 1-{MAX_SENSOR_RANGE}");
        return Err((None, why));
    }
    for (i, s) in sensing.iter().enumerate() {
        if s.range > MAX_SENSOR_RANGE {
            let why = format!(
                "sensing[{i}]: range {} is not in 0-{MAX_SENSOR_RANGE} (0 is off)",
                s.range
            );
            return Err((Some(i), why));
        }
    }
    Ok(())
}

/// Writes the fields as [`Scenario::to_ron`](super::Scenario::to_ron) does: nothing for the
/// defaults.
pub(super) fn write(out: &mut String, sensor_range: Option<u32>, sensing: &[SensingSpec]) {
    if let Some(r) = sensor_range {
        let _ = writeln!(out, "    sensor_range: {r},");
    }
    if !sensing.is_empty() {
        out.push_str("    sensing: [\n");
        for s in sensing {
            let _ = writeln!(out, "        (tick: {}, range: {}),", s.tick, s.range);
        }
        out.push_str("    ],\n");
    }
}
