//! A plan's figures, and the result file of lacam3 that MAPF visualisers and validators read:
//!
//! ```text
//! agents=2
//! map_file=corridor.map
//! solver=gridwalk-lacam
//! solved=1
//! soc=6
//! soc_lb=4
//! makespan=4
//! makespan_lb=2
//! sum_of_loss=6
//! sum_of_loss_lb=4
//! comp_time=0
//! seed=0
//! starts=(1,1),(3,1),
//! goals=(3,1),(1,1),
//! solution=
//! 0:(1,1),(3,1),
//! 1:(2,1),(3,1),
//! ```
//!
//! x is the column. An unsolved run writes `solved=0`, zero soc, makespan and loss, and no
//! solution lines. An anytime run ([`Options::anytime`](super::Options::anytime)) adds, after
//! `seed=`, the first solution's time and soc and the soc over time, one `(ms,soc)` pair per
//! better plan:
//!
//! ```text
//! comp_time_initial_solution=95
//! cost_initial_solution=25772
//! soc_over_time=(95,25772),(1210,24901),
//! ```
//!
//! `comp_time` is then the whole run's, as in lacam3's file; soc and the plan are the best's.

use std::fmt::Write;

use super::{Problem, Solution};

/// The figures of a plan (configurations from timestep 0) towards `goals`.
pub(super) struct Metrics {
    pub soc: u64,
    pub makespan: u64,
    pub sum_of_loss: u64,
}

impl Metrics {
    pub fn of(plan: &[Vec<u32>], goals: &[u32]) -> Metrics {
        let (mut soc, mut makespan, mut sum_of_loss) = (0u64, 0u64, 0u64);
        for (a, &goal) in goals.iter().enumerate() {
            // The first timestep from which the agent stays on its goal.
            let mut t = plan.len().saturating_sub(1);
            while t > 0 && plan[t - 1][a] == goal {
                t -= 1;
            }
            soc += t as u64;
            makespan = makespan.max(t as u64);
            sum_of_loss += (1..plan.len())
                .filter(|&s| plan[s - 1][a] != goal || plan[s][a] != goal)
                .count() as u64;
        }
        Metrics {
            soc,
            makespan,
            sum_of_loss,
        }
    }
}

/// The text of the result file.
pub(super) fn write(
    s: &Solution,
    problem: &Problem,
    map_file: &str,
    solver: &str,
    seed: u64,
) -> String {
    let grid = &problem.grid;
    let mut out = String::new();
    let cells = |out: &mut String, config: &[u32]| {
        for &c in config {
            let p = grid.pos(c as usize);
            let _ = write!(out, "({},{}),", p.x, p.y);
        }
        out.push('\n');
    };
    let _ = writeln!(out, "agents={}", problem.agents());
    let _ = writeln!(out, "map_file={map_file}");
    let _ = writeln!(out, "solver={solver}");
    let _ = writeln!(out, "solved={}", u8::from(s.solved()));
    let _ = writeln!(out, "soc={}", s.soc);
    let _ = writeln!(out, "soc_lb={}", s.soc_lb);
    let _ = writeln!(out, "makespan={}", s.makespan);
    let _ = writeln!(out, "makespan_lb={}", s.makespan_lb);
    let _ = writeln!(out, "sum_of_loss={}", s.sum_of_loss);
    let _ = writeln!(out, "sum_of_loss_lb={}", s.soc_lb);
    let _ = writeln!(out, "comp_time={}", s.millis);
    let _ = writeln!(out, "seed={seed}");
    if let Some(history) = &s.history {
        if let Some(&(ms, soc)) = history.first() {
            let _ = writeln!(out, "comp_time_initial_solution={ms}");
            let _ = writeln!(out, "cost_initial_solution={soc}");
        }
        out.push_str("soc_over_time=");
        for (ms, soc) in history {
            let _ = write!(out, "({ms},{soc}),");
        }
        out.push('\n');
    }
    out.push_str("starts=");
    cells(&mut out, &problem.starts);
    out.push_str("goals=");
    cells(&mut out, &problem.goals);
    out.push_str("solution=\n");
    if let Ok(plan) = &s.plan {
        for (t, config) in plan.iter().enumerate() {
            let _ = write!(out, "{t}:");
            cells(&mut out, config);
        }
    }
    out
}
