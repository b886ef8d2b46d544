//! [`OperationStep`]: PIBT over multi-step *operations* for robots that face a direction and
//! turn (LoRR's `MAPF_T`): short action sequences checked against a reservation over a window
//! of [`DEPTH`] timesteps; only each robot's first action is executed, and the next step
//! plans again.
//!
//! **Operations.** Every sequence of [`DEPTH`] actions (forward, a quarter turn, a wait),
//! less those that undo a turn at once and those whose cells over time and final facing
//! repeat an earlier one's ([`operations`]). A robot with a goal ranks its operations by the
//! cost to its goal through them, from its [`RotationGuidance`]: the timestep it stands on
//! its goal if the operation gets there, else [`DEPTH`] plus the guidance's cost from the
//! state it ends in; ties go to the operation that gets nearer sooner (the sum of the costs
//! along it), then to a draw. A robot without a goal ranks them by how few actions are not
//! waits: it prefers to stay, and can be pushed.
//!
//! **The search.** Robots decide in the caller's order, highest priority first. A robot
//! takes its best operation whose cells at timesteps 1 to [`DEPTH`] no decided robot holds
//! and that swaps with no decided robot. Undecided robots on those cells are pushed: each
//! must take an operation clear of the pusher's cells. When a pushed robot finds none,
//! everything decided since the pusher took that operation is undone and the pusher tries
//! its next one. A top-level decision and its pushes try at most [`TOP_WORK`] operations, a
//! step [`DEFAULT_STEP_WORK`] (then [`LATE_WORK`] a decision); chains reach at most
//! [`MAX_PUSH_DEPTH`]. A robot whose search fails stays on its cell.
//!
//! **Yielding.** A top-level robot that would not move forward while an undecided robot,
//! whose own best operation moves forward, stands on a cell of its best operation lets that
//! robot decide first, free to push it, then decides itself if still undecided. If the robot
//! yielded to would not move forward either, both decide as without yielding. A robot yielded
//! to goes first for the next [`YIELD_STEPS`] steps while its goal stays the same, so that the
//! robot that yielded, higher in the order, does not push it straight back. Without yielding,
//! a robot whose way runs through a dead end's only exit, where another stands that can leave
//! only through its cell, waits for it for ever; the highest priority stays stuck, and the
//! crowd knots around the two. Yielding is off by default
//! ([`set_yielding`](OperationStep::set_yielding)): the lifelong track's planners turn it on,
//! while crowd mode's order already lifts an agent that has not come closer for a while, and
//! both together knotted the game's 400 robots on random-32-32-20 (docs/benchmarks.md).
//!
//! **Dense crowds.** From [`COMMIT_DENSITY`] robots a free cell, a robot first tries the
//! operations that go on with the one it started last step (same goal, and it stands where
//! that operation's first action took it), waits included: replanning from scratch each step
//! there undoes every plan before it bears fruit.
//!
//! **Validity.** Each robot's cells over the window are checked against every decided
//! robot's. A decision that counts on another robot's is undone with it (the log is undone
//! from the back). No decided robot's window holds the cell of an undecided robot (it would
//! have pushed it), so staying is open to a robot that decides by itself, at least for the
//! first timestep. The first timestep of the window therefore puts no two robots on one cell
//! and makes no two swap: it is valid by LoRR's rules.
//!
//! **Cost.** Ranking costs O(robots × operations × [`DEPTH`]) reads of the guidance, spread
//! over the machine's cores ([`set_threads`](OperationStep::set_threads); the actions are the
//! same for any number of threads); it keeps the states each operation leads through. The
//! search tries at most the step's work plus [`LATE_WORK`] a robot (three decisions' worth for
//! a robot that yields), each try O([`DEPTH`]) on those states.

mod decide;
mod rank;

use rand_core::Rng;

use super::{Action, NONE, RotationGuidance, StepError};
use crate::grid::Grid;
use decide::{Decider, best_moves};
use rank::{Ranked, Ranker, Robots};

/// Timesteps an operation spans.
pub const DEPTH: usize = 3;

/// The deepest chain of pushes one decision may start; a deeper push fails.
pub const MAX_PUSH_DEPTH: usize = 256;

/// Operations one top-level decision may try, its pushes' included.
pub const TOP_WORK: usize = 100_000;

/// Operations one step may try by default, all decisions together; once they are spent,
/// each top-level decision may try [`LATE_WORK`].
pub const DEFAULT_STEP_WORK: usize = 5_000_000;

/// Operations a top-level decision may try once the step's work is spent.
pub const LATE_WORK: usize = 200;

/// Robots per free cell from which a robot keeps to the operation it started (see the
/// module doc).
pub const COMMIT_DENSITY: f64 = 0.6;

/// Steps a robot yielded to goes first (see the module doc).
pub const YIELD_STEPS: u64 = 8;

/// An operation: [`DEPTH`] actions, or `D` for a planner that looks further ahead.
pub type Operation<const D: usize = DEPTH> = [Action; D];

/// A robot's states over the window: index 0 is now.
type Path = [(u32, u8); DEPTH + 1];

/// The operations (see the module doc). Of equals the one kept has the fewest actions that
/// are not waits, then comes first action by action, forward before turns before a wait.
pub fn operations<const D: usize>() -> Vec<Operation<D>> {
    use Action::*;
    let letters = [Forward, Clockwise, CounterClockwise, Wait];
    let mut all: Vec<Operation<D>> = (0..4usize.pow(D as u32))
        .map(|code| {
            let mut op = [Wait; D];
            let mut c = code;
            for slot in op.iter_mut().rev() {
                *slot = letters[c % 4];
                c /= 4;
            }
            op
        })
        .collect();
    // The fewest actions first, so that the one kept of equals does no more than it needs.
    all.sort_by_key(|op| op.iter().filter(|&&a| a != Wait).count());
    let mut out: Vec<Operation<D>> = Vec::new();
    let mut seen: Vec<Shape<D>> = Vec::new();
    for op in all {
        let undoes = op.windows(2).any(|w| {
            matches!(
                (w[0], w[1]),
                (Clockwise, CounterClockwise) | (CounterClockwise, Clockwise)
            )
        });
        if undoes {
            continue;
        }
        let (cells, f) = shape(&op);
        if !seen.contains(&(cells, f)) {
            seen.push((cells, f));
            out.push(op);
        }
    }
    out
}

/// An operation's cells over time and its final facing, from (0, 0) facing east on open
/// ground.
pub type Shape<const D: usize = DEPTH> = ([(i32, i32); D], u8);

/// The [`Shape`] of `op`: operations with equal shapes cross the same cells at the same
/// timesteps and end facing the same way.
pub fn shape<const D: usize>(op: &Operation<D>) -> Shape<D> {
    let (mut x, mut y, mut f) = (0i32, 0i32, 0u8);
    let mut cells = [(0, 0); D];
    for (t, a) in op.iter().enumerate() {
        match a {
            Action::Forward => {
                let (dx, dy) = [(1, 0), (0, 1), (-1, 0), (0, -1)][f as usize];
                (x, y) = (x + dx, y + dy);
            }
            Action::Clockwise => f = (f + 1) % 4,
            Action::CounterClockwise => f = (f + 3) % 4,
            Action::Wait => {}
        }
        cells[t] = (x, y);
    }
    (cells, f)
}

/// A candidate's rank: lower is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    /// Not the rest of the operation the robot started last step.
    fresh: bool,
    cost: u64,
    along: u64,
    draw: u32,
}

/// The rest of the operation a robot started: for the goal it had, from the state its first
/// action led to.
#[derive(Clone, Copy, Debug)]
struct Tail {
    goal: Option<u32>,
    at: (u32, u8),
    rest: [Action; DEPTH - 1],
}

/// PIBT over operations (see the module doc), sized to a grid, its buffers kept from step to
/// step.
#[derive(Clone, Debug)]
pub struct OperationStep {
    width: u32,
    /// Passable cells of the grid it was made for: the density that turns commitment on.
    free: usize,
    ops: Vec<Operation>,
    /// Per robot: its operations, ranked.
    ranked: Ranked,
    ranker: Ranker,
    search: Search,
    /// Operations one step may try, all decisions together.
    work: usize,
    /// Per robot: the rest of the operation it started last step.
    tail: Vec<Option<Tail>>,
    /// Whether a robot held up yields to the robot in its way (see the module doc).
    yielding: bool,
    /// Steps taken, and per robot how long it goes first for having been yielded to.
    steps: u64,
    way: Vec<Way>,
}

/// How long a robot yielded to goes first: until step `until`, while its goal is `goal`.
#[derive(Clone, Copy, Debug, Default)]
struct Way {
    until: u64,
    goal: Option<u32>,
}

/// What one step's search reads and writes.
#[derive(Clone, Debug)]
struct Search {
    /// Per robot: its states over the window once decided.
    path: Vec<Path>,
    decided: Vec<bool>,
    chosen: Vec<Action>,
    /// Per robot: its operation, once decided.
    op: Vec<Operation>,
    /// Per cell: the robot on it now, or [`NONE`].
    occ_now: Vec<u32>,
    /// Per cell: the robot on it at timesteps 1 to [`DEPTH`], or [`NONE`].
    held: Vec<[u32; DEPTH]>,
}

impl OperationStep {
    /// A step for robots on `grid`.
    pub fn new(grid: &Grid) -> OperationStep {
        OperationStep {
            width: grid.width(),
            free: (0..grid.len()).filter(|&c| grid.weight(c) != 0).count(),
            ops: operations(),
            ranked: Ranked::default(),
            ranker: Ranker::new(grid),
            search: Search {
                path: Vec::new(),
                decided: Vec::new(),
                chosen: Vec::new(),
                op: Vec::new(),
                occ_now: vec![NONE; grid.len()],
                held: vec![[NONE; DEPTH]; grid.len()],
            },
            work: DEFAULT_STEP_WORK,
            tail: Vec::new(),
            yielding: false,
            steps: 0,
            way: Vec::new(),
        }
    }

    /// Whether this step was made for a grid of `grid`'s size.
    pub fn fits(&self, grid: &Grid) -> bool {
        grid.len() == self.search.occ_now.len() && grid.width() == self.width
    }

    /// The threads the ranking may use (at least 1; by default the machine's cores, 1 on
    /// wasm32). The actions are the same for any number.
    pub fn set_threads(&mut self, threads: usize) {
        self.ranker.threads = threads.max(1);
    }

    /// Whether a robot held up yields to the robot in its way (off by default; see the module
    /// doc).
    pub fn set_yielding(&mut self, on: bool) {
        self.yielding = on;
    }

    /// Bytes held: per cell its robot now and over the window and its forward moves, per robot
    /// its ranked operations, window, the rest of its operation and how long it goes first.
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let s = &self.search;
        s.occ_now.capacity() * 4
            + s.held.capacity() * size_of::<[u32; DEPTH]>()
            + self.ranked.bytes()
            + self.ranker.bytes()
            + s.path.capacity() * size_of::<Path>()
            + s.op.capacity() * size_of::<Operation>()
            + s.decided.capacity()
            + s.chosen.capacity() * size_of::<Action>()
            + self.tail.capacity() * size_of::<Option<Tail>>()
            + self.way.capacity() * size_of::<Way>()
    }

    /// Every robot's action for one step.
    ///
    /// - `states[a]` is robot a's cell (a flat index of `grid`) and facing (0 east, 1 south,
    ///   2 west, 3 north); the cells must be passable and distinct.
    /// - `goals[a]` is its goal cell, `None` for a robot without one (it prefers to stay).
    /// - `order` lists robots by priority, highest first; robots it leaves out decide last,
    ///   by index.
    /// - `guidance` gives each robot with a goal its cost to it from a state, every action
    ///   counting one; it is read from several threads. `rng` breaks ties.
    ///
    /// Returns each robot's action, indexed like `states`, valid by LoRR's rules (one robot a
    /// cell, no swap, following allowed); input that does not fit gives
    /// [`StepError::BadInput`].
    ///
    /// A robot facing west, away from its goal three cells east, turns first:
    ///
    /// ```
    /// use gridwalk_core::Grid;
    /// use gridwalk_core::crowd::OperationStep;
    /// use gridwalk_core::mapf::RotationTables;
    /// use gridwalk_core::rng::{SeedableRng, SplitMix64};
    ///
    /// let grid = Grid::new(4, 1).unwrap();
    /// let mut tables = RotationTables::new(&grid);
    /// let goals = [3];
    /// let mut rule = OperationStep::new(&grid);
    /// let mut rng = SplitMix64::seed_from_u64(1);
    /// let mut state = [(0, 2)]; // cell 0, facing west
    /// let mut taken = String::new();
    /// while state[0].0 != goals[0] {
    ///     let guidance = tables.guidance(&goals).unwrap();
    ///     let act = rule.step(&grid, &state, &[Some(3)], &[0], &guidance, &mut rng).unwrap()[0];
    ///     state[0] = act.apply(&grid, state[0]).unwrap();
    ///     taken.push(act.letter());
    /// }
    /// assert!(taken == "RRFFF" || taken == "CCFFF", "{taken}");
    /// ```
    pub fn step<G: RotationGuidance + Sync + ?Sized, R: Rng + ?Sized>(
        &mut self,
        grid: &Grid,
        states: &[(u32, u8)],
        goals: &[Option<u32>],
        order: &[u32],
        guidance: &G,
        rng: &mut R,
    ) -> Result<&[Action], StepError> {
        self.check(grid, states, goals, order)?;
        self.ranker.moves.refresh(grid);
        self.rank(states, goals, guidance, rng);
        self.search.begin(states);
        self.decide_all(states, goals, order);
        for (a, t) in self.tail.iter_mut().enumerate() {
            let op = &self.search.op[a];
            let mut rest = [Action::Wait; DEPTH - 1];
            rest.copy_from_slice(&op[1..]);
            *t = Some(Tail {
                goal: goals[a],
                at: self.search.path[a][1],
                rest,
            });
        }
        self.search.end(states);
        Ok(&self.search.chosen)
    }

    /// Decides every robot: those yielded to lately first, then by `order`, then the rest by
    /// index.
    fn decide_all(&mut self, states: &[(u32, u8)], goals: &[Option<u32>], order: &[u32]) {
        let now = self.steps;
        self.steps += 1;
        if self.way.len() != states.len() {
            self.way = vec![Way::default(); states.len()];
        }
        let (way, ranked, ops) = (&self.way, &self.ranked, &self.ops);
        // Only while it still means to move: one that would stay, going first, blocks.
        let first = order.iter().copied().filter(|&a| {
            let w = way[a as usize];
            w.until > now && w.goal == goals[a as usize] && best_moves(ranked, ops, a)
        });
        let mut d = Decider {
            moves: &self.ranker.moves,
            ops: &self.ops,
            ranked: &self.ranked,
            states,
            s: &mut self.search,
            log: Vec::with_capacity(states.len()),
            budget: 0,
            yielded: Vec::new(),
        };
        let mut left = self.work;
        for a in first
            .chain(order.iter().copied())
            .chain(0..states.len() as u32)
        {
            if !d.s.decided[a as usize] {
                let budget = if left > 0 {
                    TOP_WORK.min(left)
                } else {
                    LATE_WORK
                };
                let used = if self.yielding {
                    d.decide_yielding(a, budget)
                } else {
                    d.decide_top(a, budget)
                };
                left = left.saturating_sub(used);
            }
        }
        for b in d.yielded {
            self.way[b as usize] = Way {
                until: now + YIELD_STEPS,
                goal: goals[b as usize],
            };
        }
    }

    /// Refuses input that does not fit: another grid, lengths that differ, a robot off the
    /// grid, on a wall, on another's cell or with a facing past 3, an order naming no robot.
    fn check(
        &mut self,
        grid: &Grid,
        states: &[(u32, u8)],
        goals: &[Option<u32>],
        order: &[u32],
    ) -> Result<(), StepError> {
        let bad = |s: String| Err(StepError::BadInput(s));
        if !self.fits(grid) {
            return bad("the grid is not the size the operation step was made for".into());
        }
        let n = states.len();
        if goals.len() != n {
            return bad(format!("{} goals for {n} robots", goals.len()));
        }
        if let Some(&a) = order.iter().find(|&&a| a as usize >= n) {
            return bad(format!("the order names robot {a} of {n}"));
        }
        let occ = &mut self.search.occ_now;
        let mut why = None;
        for (a, &(c, f)) in states.iter().enumerate() {
            why = if c as usize >= grid.len() || grid.weight(c as usize) == 0 {
                Some(format!("robot {a}'s cell {c} is off the grid or a wall"))
            } else if f > 3 {
                Some(format!("robot {a}'s facing {f} is not 0 to 3"))
            } else if occ[c as usize] != NONE {
                Some(format!("robots {} and {a} share cell {c}", occ[c as usize]))
            } else {
                occ[c as usize] = a as u32;
                None
            };
            if why.is_some() {
                break;
            }
        }
        for &(c, _) in states {
            if let Some(o) = occ.get_mut(c as usize) {
                *o = NONE;
            }
        }
        why.map_or(Ok(()), bad)
    }

    /// Every robot's operations, ranked (see [`rank`]).
    fn rank<G: RotationGuidance + Sync + ?Sized, R: Rng + ?Sized>(
        &mut self,
        states: &[(u32, u8)],
        goals: &[Option<u32>],
        guidance: &G,
        rng: &mut R,
    ) {
        if self.tail.len() != states.len() {
            self.tail = vec![None; states.len()];
        }
        let robots = Robots {
            states,
            goals,
            tails: &self.tail,
            commit: states.len() as f64 >= COMMIT_DENSITY * self.free as f64,
            guidance,
        };
        (self.ranker).rank(&self.ops, &robots, rng, &mut self.ranked);
    }
}

/// The rank of robot `a`'s operation through `path` toward `goal` (see the module doc).
fn cost_along<G: RotationGuidance + ?Sized>(g: &G, a: usize, goal: u32, path: &Path) -> Key {
    let mut along = 0u64;
    for (t, &(c, f)) in path.iter().enumerate().skip(1) {
        if c == goal {
            return Key {
                fresh: true,
                cost: t as u64,
                along,
                draw: 0,
            };
        }
        along = along.saturating_add(g.cost(a, c, f));
    }
    let (c, f) = path[DEPTH];
    Key {
        fresh: true,
        cost: g.cost(a, c, f).saturating_add(DEPTH as u64),
        along,
        draw: 0,
    }
}

impl Search {
    /// Sizes the per-robot buffers and marks who stands where.
    fn begin(&mut self, states: &[(u32, u8)]) {
        let n = states.len();
        self.path.clear();
        self.path.resize(n, [(0, 0); DEPTH + 1]);
        self.decided.clear();
        self.decided.resize(n, false);
        self.chosen.clear();
        self.chosen.resize(n, Action::Wait);
        self.op.clear();
        self.op.resize(n, [Action::Wait; DEPTH]);
        for (a, s) in states.iter().enumerate() {
            self.occ_now[s.0 as usize] = a as u32;
        }
    }

    /// Clears the per-cell marks this step left.
    fn end(&mut self, states: &[(u32, u8)]) {
        for (a, s) in states.iter().enumerate() {
            self.occ_now[s.0 as usize] = NONE;
            for (t, &(c, _)) in self.path[a].iter().enumerate().skip(1) {
                if self.held[c as usize][t - 1] == a as u32 {
                    self.held[c as usize][t - 1] = NONE;
                }
            }
        }
    }

    /// Whether robot `a` may go along `path` as far as decided robots are concerned: no cell
    /// held by another at the same timestep, no swap with another.
    fn clear(&self, a: u32, path: &Path) -> bool {
        for t in 1..=DEPTH {
            let (c, _) = path[t];
            let h = self.held[c as usize][t - 1];
            if h != NONE && h != a {
                return false;
            }
            let (from, _) = path[t - 1];
            if from != c {
                // Whoever is on `from` at t, if it was on `c` at t - 1, swaps with `a`.
                let j = self.held[from as usize][t - 1];
                if j != NONE && j != a && self.path[j as usize][t - 1].0 == c {
                    return false;
                }
            }
        }
        true
    }

    /// Decides robot `a` on `path`, whose first action is `first`.
    fn hold(&mut self, a: u32, path: &Path, first: Action) {
        for (t, &(c, _)) in path[1..].iter().enumerate() {
            self.held[c as usize][t] = a;
        }
        self.path[a as usize] = *path;
        self.decided[a as usize] = true;
        self.chosen[a as usize] = first;
    }

    /// Undoes robot `a`'s decision on `path`.
    fn release(&mut self, a: u32, path: &Path) {
        for (t, &(c, _)) in path[1..].iter().enumerate() {
            let h = &mut self.held[c as usize][t];
            if *h == a {
                *h = NONE;
            }
        }
        self.decided[a as usize] = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SeedableRng, SplitMix64};

    #[test]
    fn operations_are_distinct_and_include_waiting() {
        let ops = operations();
        assert!(ops.contains(&[Action::Wait; DEPTH]));
        assert!(ops.contains(&[Action::Forward; DEPTH]));
        // Turning back at once is never offered, nor a second copy of the same motion.
        assert!(!ops.contains(&[Action::Clockwise, Action::CounterClockwise, Action::Wait]));
        assert!(!ops.contains(&[Action::Wait, Action::Clockwise, Action::Wait]));
        let mut sorted = ops.clone();
        sorted.sort_by_key(|op| op.map(|a| a.letter()));
        sorted.dedup();
        assert_eq!(sorted.len(), ops.len());
    }

    /// Cost to `goal` on a 1-wide row, by cells only (the facing's turns left out).
    fn row_cost(goals: &[Option<u32>]) -> impl Fn(usize, u32, u8) -> u64 + '_ {
        |a, c, _| goals[a].map_or(0, |g| u64::from(c.abs_diff(g)))
    }

    #[test]
    fn a_robot_without_a_goal_stays_until_pushed() {
        let grid = Grid::new(5, 1).unwrap();
        let mut step = OperationStep::new(&grid);
        let mut rng = SplitMix64::seed_from_u64(3);
        let goals = [None, Some(4)];
        let g = row_cost(&goals);
        let alone = step.step(&grid, &[(2, 0)], &[None], &[], &g, &mut rng);
        assert_eq!(alone.unwrap(), [Action::Wait]);
        // The robot with a goal behind it pushes it on: both move forward.
        let states = [(2, 0), (1, 0)];
        let acts = step.step(&grid, &states, &goals, &[1, 0], &g, &mut rng);
        assert_eq!(acts.unwrap(), [Action::Forward, Action::Forward]);
    }

    #[test]
    fn head_on_robots_never_swap() {
        let grid = Grid::new(5, 1).unwrap();
        let mut step = OperationStep::new(&grid);
        let mut rng = SplitMix64::seed_from_u64(1);
        let goals = [Some(4), Some(0)];
        let g = row_cost(&goals);
        let acts = step.step(&grid, &[(1, 0), (2, 2)], &goals, &[0, 1], &g, &mut rng);
        let acts = acts.unwrap();
        assert!(!(acts[0] == Action::Forward && acts[1] == Action::Forward));
    }

    /// A wall drawn after the rule was made: the robot facing it does not walk into it, and
    /// the robot behind, which would follow it, does not walk onto it (the first decision
    /// reads the map as it is now, not as it was).
    #[test]
    fn a_wall_drawn_since_is_not_walked_into() {
        let mut grid = Grid::new(6, 1).unwrap();
        let mut step = OperationStep::new(&grid);
        let mut rng = SplitMix64::seed_from_u64(2);
        let goals = [Some(5), Some(5)];
        let g = row_cost(&goals);
        let states = [(2, 0), (1, 0)];
        let acts = step.step(&grid, &states, &goals, &[0, 1], &g, &mut rng);
        assert_eq!(acts.unwrap(), [Action::Forward, Action::Forward]);
        grid.set(crate::Pos::new(3, 0), crate::Terrain::Wall)
            .unwrap();
        let acts = step
            .step(&grid, &states, &goals, &[0, 1], &g, &mut rng)
            .unwrap();
        assert_ne!(acts[0], Action::Forward, "into the new wall");
        assert_ne!(
            acts[1],
            Action::Forward,
            "onto the robot that cannot move on"
        );
    }

    /// Steps robots on `grid` from `states` toward `goals`, robot 0 first, for at most
    /// `steps` steps; a robot's goal is dropped once it stands on it. Returns the step by
    /// which every robot had arrived, if they all did.
    fn arrive_by(
        step: &mut OperationStep,
        grid: &Grid,
        mut states: Vec<(u32, u8)>,
        goals: &[u32],
        steps: usize,
    ) -> Option<usize> {
        use crate::mapf::RotationTables;
        let mut tables = RotationTables::new(grid);
        let mut rng = SplitMix64::seed_from_u64(7);
        let mut left: Vec<Option<u32>> = goals.iter().map(|&g| Some(g)).collect();
        let order: Vec<u32> = (0..states.len() as u32).collect();
        for t in 0..steps {
            if left.iter().all(Option::is_none) {
                return Some(t);
            }
            let guidance = tables.guidance(goals).unwrap();
            let acts = step.step(grid, &states, &left, &order, &guidance, &mut rng);
            for (a, act) in acts.unwrap().iter().enumerate() {
                states[a] = act.apply(grid, states[a]).unwrap();
                if left[a] == Some(states[a].0) {
                    left[a] = None;
                }
            }
        }
        None
    }

    /// A row of five cells with a siding under its second. The first robot (highest
    /// priority) stands at the row's east end but one, facing east, its goal the end cell;
    /// there the second robot faces west, its goal the row's west end, and can leave only
    /// through the first's cell. Yielding, the second goes first and pushes the first back
    /// into the siding; without it the first waits for the second for ever.
    #[test]
    fn a_robot_held_up_by_a_dead_end_yields_to_the_robot_in_it() {
        use crate::grid::{Pos, Terrain};
        let mut grid = Grid::new(5, 2).unwrap();
        for x in [0, 2, 3, 4] {
            grid.set(Pos::new(x, 1), Terrain::Wall).unwrap();
        }
        let states = vec![(3, 0), (4, 2)];
        let goals = [4, 0];
        let mut step = OperationStep::new(&grid);
        step.set_yielding(true);
        let t = arrive_by(&mut step, &grid, states.clone(), &goals, 40);
        assert!(t.is_some(), "yielding, the robots never both arrived");
        let mut stubborn = OperationStep::new(&grid);
        assert_eq!(arrive_by(&mut stubborn, &grid, states, &goals, 40), None);
    }

    /// 3,000 robots (0.65 a free cell: commitment on) on a 100 × 50 grid with walls, most
    /// heading for 12 shared goals, stepped with the ranking on one thread and on up to four:
    /// the same actions every step.
    #[test]
    fn ranking_over_threads_gives_the_actions_of_one_thread() {
        use crate::grid::{Pos, Terrain};
        use crate::mapf::RotationTables;
        use crate::rng::Draw;
        let mut rng = SplitMix64::seed_from_u64(39);
        let mut grid = Grid::new(100, 50).unwrap();
        for _ in 0..400 {
            let p = Pos::new(rng.below(100) as u32, rng.below(50) as u32);
            grid.set(p, Terrain::Wall).unwrap();
        }
        let mut cells: Vec<u32> = (0..grid.len() as u32)
            .filter(|&c| grid.weight(c as usize) != 0)
            .collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.below(i + 1));
        }
        let n = 3_000;
        let mut states: Vec<(u32, u8)> = cells[..n]
            .iter()
            .map(|&c| (c, rng.below(4) as u8))
            .collect();
        let targets = &cells[n..n + 12];
        let goals: Vec<Option<u32>> = (0..n)
            .map(|a| (a % 7 != 0).then(|| targets[rng.below(12)]))
            .collect();
        // Robots without a goal are never asked their cost: any table does.
        let table_of: Vec<u32> = goals.iter().map(|g| g.unwrap_or(targets[0])).collect();
        let mut tables = RotationTables::new(&grid);
        let order: Vec<u32> = (0..n as u32).rev().collect();
        let mut one = OperationStep::new(&grid);
        one.set_threads(1);
        let mut four = OperationStep::new(&grid);
        four.set_threads(4);
        let (mut r1, mut r4) = (SplitMix64::seed_from_u64(5), SplitMix64::seed_from_u64(5));
        let mut forward = 0;
        for t in 0..8 {
            let guidance = tables.guidance(&table_of).unwrap();
            let acts = one.step(&grid, &states, &goals, &order, &guidance, &mut r1);
            let acts = acts.unwrap().to_vec();
            let spread = four.step(&grid, &states, &goals, &order, &guidance, &mut r4);
            assert_eq!(spread.unwrap(), &acts[..], "step {t}");
            for (s, act) in states.iter_mut().zip(&acts) {
                forward += usize::from(*act == Action::Forward);
                *s = act.apply(&grid, *s).unwrap();
            }
        }
        assert!(forward > n, "only {forward} moves forward in 8 steps");
    }

    #[test]
    fn input_that_does_not_fit_is_refused_by_name() {
        let grid = Grid::new(5, 1).unwrap();
        let mut step = OperationStep::new(&grid);
        let mut rng = SplitMix64::seed_from_u64(1);
        let g = |_: usize, _: u32, _: u8| 0;
        let mut why = |states: &[(u32, u8)], goals: &[Option<u32>], order: &[u32]| match step
            .step(&grid, states, goals, order, &g, &mut rng)
        {
            Err(StepError::BadInput(s)) => s,
            other => panic!("{other:?}"),
        };
        assert!(why(&[(1, 0), (1, 2)], &[None; 2], &[]).contains("share cell 1"));
        assert!(why(&[(9, 0)], &[None], &[]).contains("off the grid"));
        assert!(why(&[(1, 4)], &[None], &[]).contains("facing 4"));
        assert!(why(&[(1, 0)], &[None], &[1]).contains("names robot 1"));
        assert!(why(&[(1, 0)], &[], &[]).contains("0 goals"));
        // A refused step leaves nothing behind: the next one sees a free row.
        let acts = step.step(&grid, &[(1, 0)], &[None], &[], &g, &mut rng);
        assert_eq!(acts.unwrap(), [Action::Wait]);
        let other = Grid::new(4, 1).unwrap();
        let refused = step.step(&other, &[(1, 0)], &[None], &[], &g, &mut rng);
        assert!(matches!(refused, Err(StepError::BadInput(_))));
    }
}
