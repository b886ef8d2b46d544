//! The scenario fields of the simulation's budgets ([`Budget`](crate::sim::Budget)), read and written beside
//! [`super::scenario`]:
//! - `planner_memory` (default `"2G"`): the most memory the planners may hold, as `"512M"` or
//!   `"2G"` (see [`parse_memory`]); past it the least recently used are dropped and built
//!   again when needed.
//! - `plan_budget` (default none): the expansions a tick's planning may make, at least 1;
//!   agents whose plan is not ready wait as `planning`.
//! - `crowd_budget` (default [`DEFAULT_BUDGET`]): the most tries a tick of crowd mode's
//!   real-time search makes when it takes over from the step rule, at least 1.
//!
//! ```
//! use gridwalk_core::format::Scenario;
//! let text = r#"(rows: ["...."], planner_memory: "512M", plan_budget: 100)"#;
//! let s = Scenario::parse(text, "b.ron").unwrap();
//! assert_eq!((s.budget().planner_memory, s.budget().plan_expansions), (512 << 20, Some(100)));
//! assert!(s.to_ron().contains("planner_memory: \"512M\""));
//! let bad = Scenario::parse("(\n rows: [\"..\"],\n planner_memory: \"lots\",\n)", "b.ron");
//! assert!(bad.unwrap_err().to_string().starts_with("b.ron:3:"));
//! ```

use std::fmt::Write as _;

use crate::mapf::DEFAULT_BUDGET;
use crate::sim::{format_memory, parse_memory};

/// The `planner_memory` field's bytes, if given.
pub(super) fn read_memory(text: Option<&str>) -> Result<Option<usize>, String> {
    text.map(|m| parse_memory(m).map_err(|e| format!("planner_memory: {e}")))
        .transpose()
}

/// Checks the `plan_budget` field.
fn check_plan_budget(n: Option<u64>) -> Result<(), String> {
    match n {
        Some(0) => Err("plan_budget: 0 expansions would never plan; give at least 1".into()),
        _ => Ok(()),
    }
}

/// Checks the `plan_budget` and `crowd_budget` fields: the field that is wrong, and why.
pub(super) fn check_budgets(
    plan: Option<u64>,
    crowd: Option<usize>,
) -> Result<(), (&'static str, String)> {
    check_plan_budget(plan).map_err(|e| ("plan_budget", e))?;
    match crowd {
        Some(0) => Err((
            "crowd_budget",
            format!(
                "crowd_budget: 0 tries would never search; give at least 1 (default {DEFAULT_BUDGET})"
            ),
        )),
        _ => Ok(()),
    }
}

/// Writes the budget fields that are set.
pub(super) fn write_budgets(
    out: &mut String,
    planner_memory: Option<usize>,
    plan_budget: Option<u64>,
    crowd_budget: Option<usize>,
) {
    if let Some(bytes) = planner_memory {
        let _ = writeln!(out, "    planner_memory: \"{}\",", format_memory(bytes));
    }
    if let Some(n) = plan_budget {
        let _ = writeln!(out, "    plan_budget: {n},");
    }
    if let Some(n) = crowd_budget {
        let _ = writeln!(out, "    crowd_budget: {n},");
    }
}
