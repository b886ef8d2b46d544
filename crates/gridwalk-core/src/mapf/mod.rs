//! One-shot multi-agent path finding (MAPF), the benchmark of Stern et al. (SoCS 2019): every
//! agent from its start to its goal, finished when all stand on their goals at once, no two on
//! one cell, no swaps, and with eight moves no crossing diagonals. `gridwalk-cli mapf` is a
//! thin wrapper around [`solve`] and [`Solution::result_text`].
//!
//! **The method** is LaCAM (Okumura, AAAI 2023), first solution: a depth-first search over
//! configurations (one cell per agent), where a configuration's successors are generated one
//! at a time by the crowd's PIBT step ([`crate::crowd`]) under *constraints*. Each
//! configuration keeps a queue of constraint sets, grown breadth first: the empty set, then for
//! the agents in priority order one after another, each of its moves (stay or a neighbour).
//! Every try pops one set, pushes its children, and asks PIBT for a successor that obeys it;
//! a new configuration goes on top of the stack, a known one is searched on again from the top.
//! Guidance is exact: a breadth-first distance table per goal ([`DistanceTables`]), and before
//! the search each agent gets a path that avoids the others' paths where it can, lacam3's
//! "scatter" ([`Options::scatter_margin`]): PIBT tries the path's next cell first.
//!
//! **Dense instances** (agents on at least 90 % of the passable cells, 4 moves,
//! [`Options::dense_from`]) are where the crowd's rule stalls: two agents that face each other
//! in a corridor cannot pass. There the successors come from PIBT with lacam3's swap operation
//! (`swap.rs`), the best of ten draws by the sum of distances, and without the scatter.
//!
//! **Completeness.** A set that fixes all n agents is met by at most one configuration, the one
//! it names, and PIBT returns it whenever it is a legal successor (every agent fixed, so PIBT
//! only checks it). The queue of a configuration holds every such full set once it is drained,
//! so every legal successor of every kept configuration is generated before that configuration
//! leaves the stack. A configuration is kept once (by hash and equality), and the set of
//! configurations is finite. So the search visits every configuration reachable from the start,
//! and it finds a solution whenever one exists; it reports [`Unsolved::Exhausted`] only when none
//! does (within `max_ticks` moves, if given). The limits make it stop early instead: the time
//! limit, and a memory cap on the kept configurations and constraint sets
//! ([`Options::memory_cap`]), so no input can exhaust memory.
//!
//! ```
//! use gridwalk_core::grid::{Connectivity, Grid, Pos};
//! use gridwalk_core::mapf::{Options, Problem, solve};
//!
//! // Two agents swap ends of a corridor with one side pocket.
//! let grid = gridwalk_core::format::grid_from_rows(&["#####", "#...#", "##.##"]).unwrap();
//! let (a, b) = (Pos::new(1, 1), Pos::new(3, 1));
//! let problem = Problem::new(grid, Connectivity::Four, vec![a, b], vec![b, a]).unwrap();
//! let solution = solve(&problem, &Options::default()).unwrap();
//! assert!(solution.solved());
//! assert_eq!(solution.soc_lb, 4);
//! assert!(solution.soc >= 4);
//! ```

mod dist;
mod lacam;
mod pibt;
mod realtime;
mod refine;
mod result;
mod rooting;
mod rotation;
mod scatter;
mod swap;

use std::fmt;
use std::time::Duration;
use web_time::Instant;

pub use dist::{DistanceTables, UNREACHABLE};
pub use lacam::{Progress, Search, Unsolved};
pub use realtime::{
    DEFAULT_BUDGET, DEFAULT_RT_MEMORY_CAP, DEFAULT_SCATTER_WORK, Phase, RealTime, RealTimeOptions,
    Rooted, Tick,
};
pub use rooting::Rooting;
pub(crate) use rotation::tables_of;
pub use rotation::{ROTATION_CAP, ROTATION_UNREACHABLE, RotationTables, ToGoal, ToGoals};

use crate::crowd::StepOptions;
use crate::grid::{Connectivity, Grid, Pos};

/// The default memory cap of a search, in bytes ([`Options::memory_cap`]): 4 GiB.
pub const DEFAULT_MEMORY_CAP: usize = 4 << 30;

/// A MAPF instance: a grid, the move rule, and each agent's start and goal.
#[derive(Clone, Debug)]
pub struct Problem {
    grid: Grid,
    conn: Connectivity,
    starts: Vec<u32>,
    goals: Vec<u32>,
}

/// Why an instance was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemError {
    /// The agent concerned, when there is one (its row in a `.scen` file is its index).
    pub agent: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.agent {
            Some(a) => write!(f, "agent {a}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ProblemError {}

impl Problem {
    /// An instance with agent i going from `starts[i]` to `goals[i]`. Starts must be distinct
    /// passable cells, goals too, and each goal reachable from its start; at least one agent.
    pub fn new(
        grid: Grid,
        conn: Connectivity,
        starts: Vec<Pos>,
        goals: Vec<Pos>,
    ) -> Result<Problem, ProblemError> {
        let err = |agent: Option<usize>, message: String| ProblemError { agent, message };
        if starts.is_empty() || starts.len() != goals.len() {
            return Err(err(
                None,
                format!(
                    "{} starts and {} goals: need one of each per agent, and an agent",
                    starts.len(),
                    goals.len()
                ),
            ));
        }
        let mut flat = [Vec::new(), Vec::new()];
        for (k, (what, cells)) in [("start", &starts), ("goal", &goals)].iter().enumerate() {
            let mut owner = std::collections::HashMap::with_capacity(cells.len());
            for (a, &p) in cells.iter().enumerate() {
                if !grid.is_passable(p) {
                    return Err(err(Some(a), format!("{what} {p} is not a passable cell")));
                }
                if let Some(b) = owner.insert(p, a) {
                    return Err(err(
                        Some(a),
                        format!("{what} {p} is also agent {b}'s {what}"),
                    ));
                }
                flat[k].push(grid.index(p).expect("passable cells are on the grid") as u32);
            }
        }
        let [starts, goals] = flat;
        Ok(Problem {
            grid,
            conn,
            starts,
            goals,
        })
    }

    /// The number of agents.
    pub fn agents(&self) -> usize {
        self.starts.len()
    }

    /// The grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The move rule.
    pub fn connectivity(&self) -> Connectivity {
        self.conn
    }

    /// The agents' starts.
    pub fn starts(&self) -> Vec<Pos> {
        self.starts
            .iter()
            .map(|&c| self.grid.pos(c as usize))
            .collect()
    }

    /// Whether LaCAM treats the instance as dense under `options` ([`Options::dense_from`]).
    pub fn dense(&self, options: &Options) -> bool {
        let free = (0..self.grid.len())
            .filter(|&c| self.grid.weight(c) != 0)
            .count();
        self.conn == Connectivity::Four && self.agents() as f64 >= options.dense_from * free as f64
    }

    /// The agents' goals.
    pub fn goals(&self) -> Vec<Pos> {
        self.goals
            .iter()
            .map(|&c| self.grid.pos(c as usize))
            .collect()
    }
}

/// A search's limits and seed.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Stop unsolved after this long (60 s by default).
    pub time_limit: Duration,
    /// Solutions longer than this many timesteps are not searched for (no limit by default).
    pub max_ticks: Option<u32>,
    /// Seeds the tie-breaks and the constraints' order (0 by default).
    pub seed: u64,
    /// The most bytes the distance tables and the kept configurations may take
    /// ([`DEFAULT_MEMORY_CAP`] by default); reaching it stops the search unsolved.
    pub memory_cap: usize,
    /// LaCAM's initial paths (lacam3's scatter, see `scatter.rs`): each agent's path may be
    /// this many moves longer than its shortest; `None` turns them off. 10 by default, as in
    /// lacam3.
    pub scatter_margin: Option<u32>,
    /// The density (agents over passable cells) from which an instance with 4 moves counts as
    /// dense: LaCAM then generates configurations by PIBT with swaps (lacam3's, `swap.rs`)
    /// and without the scatter, instead of the crowd's step rule. 0.9 by default; above 1,
    /// never.
    pub dense_from: f64,
    /// After the first solution, go on improving it until the time limit (LaCAM\*); off by
    /// default (`gridwalk-cli mapf` turns it on unless `--first`).
    pub anytime: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            time_limit: Duration::from_secs(60),
            max_ticks: None,
            seed: 0,
            memory_cap: DEFAULT_MEMORY_CAP,
            scatter_margin: Some(10),
            dense_from: 0.9,
            anytime: false,
        }
    }
}

/// A search's result: the plan (one configuration per timestep, from the starts) and its
/// figures, in the units of lacam3's result file.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The configurations from timestep 0, each agent's cell (flat index); or why there is no
    /// plan.
    pub plan: Result<Vec<Vec<u32>>, Unsolved>,
    /// Sum of costs: per agent, the first timestep from which it stays on its goal (0 unsolved).
    pub soc: u64,
    /// The sum of the agents' own shortest distances.
    pub soc_lb: u64,
    /// The last timestep an agent comes to stay on its goal (0 unsolved).
    pub makespan: u64,
    /// The largest of the agents' own shortest distances.
    pub makespan_lb: u64,
    /// The steps that are not from goal to goal, summed over agents (0 unsolved).
    pub sum_of_loss: u64,
    /// Milliseconds from the call to the answer, distance tables included.
    pub millis: u64,
    /// Configurations kept by the search.
    pub configurations: usize,
    /// With [`Options::anytime`]: each better plan as it was found, (milliseconds from the call,
    /// its soc), the first solution first; `None` for a run to the first solution.
    pub history: Option<Vec<(u64, u64)>>,
}

impl Solution {
    /// Whether a plan was found.
    pub fn solved(&self) -> bool {
        self.plan.is_ok()
    }
}

/// Solves `problem` within `options`' limits.
///
/// Fails only when an agent's goal cannot be reached from its start (the error names it).
pub fn solve(problem: &Problem, options: &Options) -> Result<Solution, ProblemError> {
    let began = Instant::now();
    let (grid, conn) = (&problem.grid, problem.conn);
    let unsolved = |why, soc_lb, makespan_lb, configurations| Solution {
        plan: Err(why),
        soc: 0,
        soc_lb,
        makespan: 0,
        makespan_lb,
        sum_of_loss: 0,
        millis: began.elapsed().as_millis() as u64,
        configurations,
        history: None,
    };
    let table_bytes = DistanceTables::bytes_needed(grid.len(), &problem.goals);
    if table_bytes > options.memory_cap {
        return Ok(unsolved(Unsolved::MemoryCap, 0, 0, 0));
    }
    let dist = DistanceTables::new(grid, conn, &problem.goals);
    let (soc_lb, makespan_lb) = lower_bounds(problem, &dist)?;
    let limits = lacam::Limits {
        time: options.time_limit,
        max_ticks: options.max_ticks,
        memory: options.memory_cap - table_bytes,
        seed: options.seed,
        scatter: options.scatter_margin,
        swap: problem.dense(options),
        first: !options.anytime,
        scatter_work: None,
    };
    let ends = (&problem.starts[..], &problem.goals[..]);
    let out = lacam::search((grid, conn), ends, &dist, limits, began);
    let history = options.anytime.then_some(out.history);
    let plan = match out.plan {
        Ok(plan) => plan,
        Err(why) => {
            let mut s = unsolved(why, soc_lb, makespan_lb, out.configurations);
            s.history = history;
            return Ok(s);
        }
    };
    let m = result::Metrics::of(&plan, &problem.goals);
    Ok(Solution {
        plan: Ok(plan),
        soc: m.soc,
        soc_lb,
        makespan: m.makespan,
        makespan_lb,
        sum_of_loss: m.sum_of_loss,
        millis: began.elapsed().as_millis() as u64,
        configurations: out.configurations,
        history,
    })
}

/// PIBT alone ([`crate::crowd`]'s step rule with `options`, PIBT's priorities), step after step
/// until every agent stands on its goal or `max_ticks` steps pass: the baseline LaCAM is
/// compared with. Unsolved means it did not settle in time ([`Unsolved::Exhausted`]).
pub fn solve_pibt(
    problem: &Problem,
    options: StepOptions,
    max_ticks: u32,
    seed: u64,
) -> Result<Solution, ProblemError> {
    let began = Instant::now();
    let (grid, conn) = (&problem.grid, problem.conn);
    let dist = DistanceTables::new(grid, conn, &problem.goals);
    let (soc_lb, makespan_lb) = lower_bounds(problem, &dist)?;
    let (plan, done) = pibt::run(problem, &dist, options, max_ticks, seed);
    let m = result::Metrics::of(&plan, &problem.goals);
    Ok(Solution {
        plan: if done {
            Ok(plan)
        } else {
            Err(Unsolved::Exhausted)
        },
        soc: if done { m.soc } else { 0 },
        soc_lb,
        makespan: if done { m.makespan } else { 0 },
        makespan_lb,
        sum_of_loss: if done { m.sum_of_loss } else { 0 },
        millis: began.elapsed().as_millis() as u64,
        configurations: 0,
        history: None,
    })
}

/// The sum and the largest of the agents' own distances; an error names an agent that cannot
/// reach its goal.
fn lower_bounds(problem: &Problem, dist: &DistanceTables) -> Result<(u64, u64), ProblemError> {
    let grid = &problem.grid;
    let (mut soc_lb, mut makespan_lb) = (0u64, 0u64);
    for a in 0..problem.agents() {
        let d = dist.get(a, problem.starts[a] as usize);
        if d == UNREACHABLE {
            return Err(ProblemError {
                agent: Some(a),
                message: format!(
                    "goal {} cannot be reached from start {}",
                    grid.pos(problem.goals[a] as usize),
                    grid.pos(problem.starts[a] as usize)
                ),
            });
        }
        soc_lb += d as u64;
        makespan_lb = makespan_lb.max(d as u64);
    }
    Ok((soc_lb, makespan_lb))
}

impl Solution {
    /// The result in lacam3's format: the keys, then `starts=`, `goals=` and
    /// `solution=` with one line per timestep. `map_file` is the name written for the map,
    /// `solver` the solver's.
    pub fn result_text(
        &self,
        problem: &Problem,
        map_file: &str,
        solver: &str,
        seed: u64,
    ) -> String {
        result::write(self, problem, map_file, solver, seed)
    }
}
