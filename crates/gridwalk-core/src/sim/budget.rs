//! The simulation's two budgets ([`Budget`]): how much memory its planners may hold, and how
//! many expansions a tick's planning may make. Where planning stands against them, and how a
//! tick keeps to them, are in `rationing.rs` and `replan_budgeted.rs`.

use crate::planner::DEFAULT_PLANNER_MEMORY;

/// The smallest planner-memory budget accepted: 1 MiB.
pub const MIN_PLANNER_MEMORY: usize = 1 << 20;

/// The largest planner-memory budget accepted: 1 TiB, or the whole address space where it
/// is smaller (wasm32).
pub const MAX_PLANNER_MEMORY: usize = if usize::BITS >= 64 {
    (1u64 << 40) as usize
} else {
    usize::MAX
};

/// Bytes a goal's group may hold per cell of the map at most, the worst case of a search that
/// touches every cell (the planner's arrays and queue, its list of expansions, the memo of its
/// moves and the count of its agents per cell): how a replan tells, before building planners,
/// whether it could pass the memory budget.
pub(super) const WORST_BYTES_PER_CELL: usize = 48;

/// The simulation's budgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Bytes all planners may hold together
    /// ([`Simulation::planner_memory`](super::Simulation::planner_memory)).
    pub planner_memory: usize,
    /// Expansions a tick's planning may make, or `None` for no limit. The from-scratch
    /// algorithms (A*, Dijkstra) stop the search that reaches it and go on with it next tick.
    pub plan_expansions: Option<u64>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            planner_memory: DEFAULT_PLANNER_MEMORY,
            plan_expansions: None,
        }
    }
}

impl Budget {
    /// The scenario fields `planner_memory` and `plan_budget` of these budgets: `None` where
    /// they are the defaults, so a file without budgets still means what it meant.
    pub fn in_scenario(&self) -> (Option<usize>, Option<u64>) {
        let memory = self.planner_memory != DEFAULT_PLANNER_MEMORY;
        (memory.then_some(self.planner_memory), self.plan_expansions)
    }
}

/// Reads a memory size: a whole number of bytes, or with a suffix `K`, `M`, `G` or `T`
/// (powers of 1024; `KB`, `MiB` and lower case are accepted too), between 1 MiB and 1 TiB.
///
/// ```
/// use gridwalk_core::sim::parse_memory;
/// assert_eq!(parse_memory("512M"), Ok(512 << 20));
/// assert_eq!(parse_memory("2G"), Ok(2 << 30));
/// assert!(parse_memory("2X").unwrap_err().contains("2X"));
/// assert!(parse_memory("1K").is_err(), "below 1 MiB");
/// ```
pub fn parse_memory(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => {
            return Err(format!(
                "{text:?} is not a memory size: expected a whole number with K, M, G or T, as 512M or 2G"
            ));
        }
    };
    let n: u64 = number.parse().map_err(|_| {
        format!("{text:?} is not a memory size: expected a whole number with K, M, G or T, as 512M or 2G")
    })?;
    let bytes = n.checked_shl(shift).filter(|b| b >> shift == n);
    match bytes {
        Some(b) if (MIN_PLANNER_MEMORY as u64..=MAX_PLANNER_MEMORY as u64).contains(&b) => {
            Ok(b as usize)
        }
        _ => Err(format!(
            "memory size {text:?} is outside 1M to 1T (1 MiB to 1 TiB)"
        )),
    }
}

/// A memory size as [`parse_memory`] reads it, in the largest unit that divides it.
///
/// ```
/// use gridwalk_core::sim::{format_memory, parse_memory};
/// assert_eq!(format_memory(2 << 30), "2G");
/// assert_eq!(format_memory(1536 << 20), "1536M");
/// assert_eq!(parse_memory(&format_memory(123_456_789)), Ok(123_456_789));
/// ```
pub fn format_memory(bytes: usize) -> String {
    for (shift, unit) in [(40, "T"), (30, "G"), (20, "M"), (10, "K")] {
        if bytes > 0 && bytes.trailing_zeros() >= shift {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    bytes.to_string()
}
