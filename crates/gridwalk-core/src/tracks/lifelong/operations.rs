//! [`OperationPibt`]: PIBT over multi-step *operations*, short action sequences checked
//! against a reservation over a window of [`DEPTH`] timesteps; only each robot's first
//! action is executed, and the next timestep plans again.
//!
//! **Operations.** Every sequence of [`DEPTH`] actions (forward, a quarter turn, a wait),
//! less those that undo a turn at once and those whose cells over time and final facing
//! repeat an earlier one's. A robot ranks its operations by the exact cost to its goal
//! through them: the timestep it stands on its goal if the operation gets there, else
//! [`DEPTH`] plus the (cell, facing) table's cost from the state it ends in; ties go to the
//! operation that gets nearer sooner (the sum of the costs along it), then to a draw.
//!
//! **The search.** Robots decide highest priority first: the longest on their goal, ties by
//! a draw each step. A robot takes its best operation whose cells at timesteps 1 to
//! [`DEPTH`] no decided robot holds and that swaps with no decided robot. Undecided robots on
//! those cells are pushed: each must take an operation clear of the pusher's cells. When a
//! pushed robot finds none, everything decided since the pusher took that operation is
//! undone and the pusher tries its next one. A top-level decision and its pushes try at most
//! [`TOP_WORK`] operations, a step [`DEFAULT_STEP_WORK`] (then [`LATE_WORK`] a decision);
//! chains reach at most [`MAX_PUSH_DEPTH`]. A robot whose search fails stays on its cell.
//!
//! **Dense crowds.** From [`COMMIT_DENSITY`] robots a free cell, a robot first tries the
//! operations that go on with the one it started last step (same goal), waits included:
//! replanning from scratch each step there undoes every plan before it bears fruit.
//!
//! **Validity.** Each robot's cells over the window are checked against every decided
//! robot's. A decision that counts on another robot's is undone with it (the log is undone
//! from the back). No decided robot's window holds the cell of an undecided robot (it would
//! have pushed it), so staying is open to a robot that decides by itself, at least for the
//! first timestep. The first timestep of the window therefore puts no two robots on one cell
//! and makes no two swap: it is valid by LoRR's rules.

use crate::crowd::{NONE, RotationGuidance};
use crate::grid::Grid;
use crate::mapf::RotationTables;
use crate::rng::{Rng, SeedableRng, SplitMix64};

use super::planner::Planner;
use super::{Action, State};

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

/// An operation: [`DEPTH`] actions.
type Op = [Action; DEPTH];

/// A robot's states over the window: index 0 is now.
type Path = [(u32, u8); DEPTH + 1];

/// The operations (see the module doc). Of equals the one kept has the fewest actions that
/// are not waits, then comes first action by action, forward before turns before a wait.
pub fn operations() -> Vec<Op> {
    use Action::*;
    let letters = [Forward, Clockwise, CounterClockwise, Wait];
    let mut all: Vec<Op> = (0..4usize.pow(DEPTH as u32))
        .map(|code| {
            let mut op = [Wait; DEPTH];
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
    let mut out: Vec<Op> = Vec::new();
    let mut seen: Vec<([(i32, i32); DEPTH], u8)> = Vec::new();
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
        // Its cells over time and final facing, from (0, 0) facing east on open ground.
        let (mut x, mut y, mut f) = (0i32, 0i32, 0u8);
        let mut cells = [(0, 0); DEPTH];
        for (t, a) in op.iter().enumerate() {
            match a {
                Forward => {
                    let (dx, dy) = [(1, 0), (0, 1), (-1, 0), (0, -1)][f as usize];
                    (x, y) = (x + dx, y + dy);
                }
                Clockwise => f = (f + 1) % 4,
                CounterClockwise => f = (f + 3) % 4,
                Wait => {}
            }
            cells[t] = (x, y);
        }
        if !seen.contains(&(cells, f)) {
            seen.push((cells, f));
            out.push(op);
        }
    }
    out
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

/// PIBT over operations (see the module doc), its buffers kept from step to step.
pub struct OperationPibt {
    grid: Grid,
    tables: RotationTables,
    budget: usize,
    ops: Vec<Op>,
    rng: SplitMix64,
    waited: Vec<u32>,
    last_goal: Vec<Option<u32>>,
    order: Vec<u32>,
    goal_cells: Vec<u32>,
    /// Per robot: its ranked operations, `cand[start[a]..start[a + 1]]`, as indices of `ops`.
    cand: Vec<u16>,
    start: Vec<u32>,
    search: Search,
    /// Operations one step may try, all decisions together.
    work: usize,
    /// Whether robots keep to the operation they started (dense crowds).
    commit: bool,
    /// Per robot: the rest of the operation it started last step, if its goal is the same.
    tail: Vec<Option<[Action; DEPTH - 1]>>,
}

/// What one step's search reads and writes.
struct Search {
    /// Per robot: its states over the window once decided.
    path: Vec<Path>,
    decided: Vec<bool>,
    chosen: Vec<Action>,
    /// Per robot: its operation, once decided.
    op: Vec<Op>,
    /// Per cell: the robot on it now, or [`NONE`].
    occ_now: Vec<u32>,
    /// Per cell: the robot on it at timesteps 1 to [`DEPTH`], or [`NONE`].
    held: Vec<[u32; DEPTH]>,
}

impl OperationPibt {
    /// A planner for robots on `grid`, its tables held to about `budget` bytes (never below
    /// one step's).
    pub fn new(grid: &Grid, budget: usize, seed: u64) -> OperationPibt {
        OperationPibt {
            grid: grid.clone(),
            tables: RotationTables::new(grid),
            budget,
            ops: operations(),
            rng: SplitMix64::seed_from_u64(seed),
            waited: Vec::new(),
            last_goal: Vec::new(),
            order: Vec::new(),
            goal_cells: Vec::new(),
            cand: Vec::new(),
            start: Vec::new(),
            search: Search {
                path: Vec::new(),
                decided: Vec::new(),
                chosen: Vec::new(),
                op: Vec::new(),
                occ_now: vec![NONE; grid.len()],
                held: vec![[NONE; DEPTH]; grid.len()],
            },
            commit: false,
            tail: Vec::new(),
            work: DEFAULT_STEP_WORK,
        }
    }

    /// Priorities for this step, and the tables' memory held to the budget.
    fn prepare(&mut self, states: &[State], goals: &[Option<u32>]) {
        let n = states.len();
        if self.waited.len() != n {
            self.waited = vec![0; n];
            self.last_goal = vec![None; n];
            let free = (0..self.grid.len())
                .filter(|&c| self.grid.weight(c) != 0)
                .count();
            self.commit = n as f64 >= COMMIT_DENSITY * free as f64;
        }
        for (a, &goal) in goals.iter().enumerate() {
            if goal != self.last_goal[a] {
                if let Some(t) = self.tail.get_mut(a) {
                    *t = None;
                }
                self.waited[a] = 0;
                self.last_goal[a] = goal;
            } else {
                self.waited[a] = self.waited[a].saturating_add(1);
            }
        }
        let draws: Vec<u32> = (0..n).map(|_| self.rng.next_u32()).collect();
        self.order.clear();
        self.order.extend(0..n as u32);
        let waited = &self.waited;
        self.order
            .sort_unstable_by_key(|&a| std::cmp::Reverse((waited[a as usize], draws[a as usize])));
        self.goal_cells.clear();
        self.goal_cells
            .extend(states.iter().zip(goals).map(|(s, g)| g.unwrap_or(s.cell)));
        if self.tables.memory_bytes() > self.budget {
            let mut keep = self.goal_cells.clone();
            keep.sort_unstable();
            keep.dedup();
            self.tables.retain(|g| keep.binary_search(&g).is_ok());
        }
    }

    /// Every robot's operations, ranked; `false` if a goal is off the map or a wall.
    fn rank(&mut self, states: &[State], goals: &[Option<u32>]) -> bool {
        let Ok(guidance) = self.tables.guidance(&self.goal_cells) else {
            return false;
        };
        let (grid, ops, rng, commit) = (&self.grid, &self.ops, &mut self.rng, self.commit);
        if self.tail.len() != states.len() {
            self.tail = vec![None; states.len()];
        }
        self.cand.clear();
        self.start.clear();
        let mut keyed: Vec<(Key, u16)> = Vec::with_capacity(ops.len());
        for (a, s) in states.iter().enumerate() {
            self.start.push(self.cand.len() as u32);
            keyed.clear();
            for (k, op) in ops.iter().enumerate() {
                let Some(path) = trace(grid, (s.cell, s.facing), op) else {
                    continue;
                };
                let key = match goals[a] {
                    Some(g) => cost_along(&guidance, a, g, &path),
                    None => Key {
                        fresh: true,
                        cost: 0,
                        along: op.iter().filter(|&&x| x != Action::Wait).count() as u64,
                        draw: 0,
                    },
                };
                if key.cost == u64::MAX {
                    continue;
                }
                let kept = commit && self.tail[a].is_some_and(|t| op[..DEPTH - 1] == t[..]);
                keyed.push((
                    Key {
                        draw: rng.next_u32(),
                        fresh: !kept,
                        ..key
                    },
                    k as u16,
                ));
            }
            keyed.sort_unstable();
            self.cand.extend(keyed.iter().map(|&(_, k)| k));
        }
        self.start.push(self.cand.len() as u32);
        true
    }
}

/// The states `op` leads through from `s`, or `None` if it walks off the map or into a wall.
fn trace(grid: &Grid, s: (u32, u8), op: &Op) -> Option<Path> {
    let mut path = [s; DEPTH + 1];
    for (t, a) in op.iter().enumerate() {
        path[t + 1] = a.apply(grid, path[t])?;
    }
    Some(path)
}

/// The rank of robot `a`'s operation through `path` toward `goal` (see the module doc).
fn cost_along<G: RotationGuidance>(g: &G, a: usize, goal: u32, path: &Path) -> Key {
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
    fn begin(&mut self, states: &[State]) {
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
            self.occ_now[s.cell as usize] = a as u32;
        }
    }

    /// Clears the per-cell marks this step left.
    fn end(&mut self, states: &[State]) {
        for (a, s) in states.iter().enumerate() {
            self.occ_now[s.cell as usize] = NONE;
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

/// One step's decisions: the search and what it reads.
struct Decider<'a> {
    grid: &'a Grid,
    ops: &'a [Op],
    cand: &'a [u16],
    start: &'a [u32],
    states: &'a [State],
    s: &'a mut Search,
    /// The robots decided, in order: a failed operation undoes the ones after it.
    log: Vec<u32>,
    /// Operations a top-level decision may still try, its pushes' included.
    budget: usize,
}

impl Decider<'_> {
    /// Decides robot `a`, which heads a chain of pushes, and every robot its pushes reach;
    /// when nothing works it stays, the best way it can (always open to it, see the module
    /// doc).
    fn decide_top(&mut self, a: u32, budget: usize) {
        self.budget = budget;
        if self.decide(a, 0) {
            return;
        }
        let st = self.states[a as usize];
        let range = self.start[a as usize] as usize..self.start[a as usize + 1] as usize;
        let stays = range
            .map(|k| &self.ops[self.cand[k] as usize])
            .filter(|op| !op.contains(&Action::Forward))
            .chain([&[Action::Wait; DEPTH]]);
        for op in stays {
            if let Some(path) = trace(self.grid, (st.cell, st.facing), op)
                && self.s.clear(a, &path)
            {
                self.s.hold(a, &path, op[0]);
                self.s.op[a as usize] = *op;
                self.log.push(a);
                return;
            }
        }
        // Only a later timestep of the window is taken: waiting keeps the first one valid.
        self.s
            .hold(a, &[(st.cell, st.facing); DEPTH + 1], Action::Wait);
        self.s.op[a as usize] = [Action::Wait; DEPTH];
        self.log.push(a);
    }

    /// Tries robot `a`'s operations best first; with a pusher (`depth` > 0) the pusher's
    /// cells are held, so it must clear them. Returns whether one worked with every push it
    /// made; if not, everything it decided is undone and `a` is undecided again.
    fn decide(&mut self, a: u32, depth: usize) -> bool {
        let st = self.states[a as usize];
        let range = self.start[a as usize] as usize..self.start[a as usize + 1] as usize;
        for k in range {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            let op = &self.ops[self.cand[k] as usize];
            let Some(path) = trace(self.grid, (st.cell, st.facing), op) else {
                continue;
            };
            if !self.s.clear(a, &path) {
                continue;
            }
            let mark = self.log.len();
            self.s.hold(a, &path, op[0]);
            self.s.op[a as usize] = *op;
            self.log.push(a);
            if self.push_along(a, &path, depth) {
                return true;
            }
            while self.log.len() > mark {
                let b = self.log.pop().unwrap_or(a);
                let p = self.s.path[b as usize];
                self.s.release(b, &p);
            }
        }
        false
    }

    /// Pushes the undecided robots on `path`'s cells; whether all got out of the way.
    fn push_along(&mut self, a: u32, path: &Path, depth: usize) -> bool {
        for &(c, _) in &path[1..] {
            let j = self.s.occ_now[c as usize];
            if j == NONE || j == a || self.s.decided[j as usize] {
                continue;
            }
            if depth >= MAX_PUSH_DEPTH || !self.decide(j, depth + 1) {
                return false;
            }
        }
        true
    }
}

impl Planner for OperationPibt {
    fn preprocess(&mut self, _states: &[State], goals: &[Option<u32>]) {
        for g in goals.iter().flatten() {
            // A goal off the map or on a wall is refused again when planned.
            let _ = self.tables.ensure(*g);
        }
    }

    fn plan(&mut self, states: &[State], goals: &[Option<u32>], actions: &mut Vec<Action>) {
        actions.clear();
        self.prepare(states, goals);
        if !self.rank(states, goals) {
            actions.resize(states.len(), Action::Wait);
            return;
        }
        self.search.begin(states);
        let mut d = Decider {
            grid: &self.grid,
            ops: &self.ops,
            cand: &self.cand,
            start: &self.start,
            states,
            s: &mut self.search,
            log: Vec::with_capacity(states.len()),
            budget: 0,
        };
        let mut left = self.work;
        for &a in &self.order {
            if !d.s.decided[a as usize] {
                let budget = if left > 0 {
                    TOP_WORK.min(left)
                } else {
                    LATE_WORK
                };
                d.decide_top(a, budget);
                left = left.saturating_sub(budget - d.budget);
            }
        }
        actions.extend_from_slice(&self.search.chosen);
        for (t, op) in self.tail.iter_mut().zip(&self.search.op) {
            let mut rest = [Action::Wait; DEPTH - 1];
            rest.copy_from_slice(&op[1..]);
            *t = Some(rest);
        }
        self.search.end(states);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Robots on a 10 × 10 grid with walls, each given a new random goal when it reaches one,
    /// stepped `steps` times: every joint step must pass the rules ([`super::super::check_step`],
    /// which knows nothing of the planner). Returns the goals reached.
    fn play_random(robots: usize, seed: u64, steps: usize) -> usize {
        use crate::grid::{Pos, Terrain};
        use crate::rng::Draw;
        let mut rng = SplitMix64::seed_from_u64(seed);
        let mut grid = Grid::new(10, 10).unwrap();
        for _ in 0..12 {
            let (x, y) = (rng.below(10) as u32, rng.below(10) as u32);
            grid.set(Pos::new(x, y), Terrain::Wall).unwrap();
        }
        // The largest connected part only, so that every goal can be reached.
        let free: Vec<u32> = (0..100).filter(|&c| grid.weight(c as usize) != 0).collect();
        let mut bfs = super::super::dist::Bfs::new(&grid);
        let mut d = vec![0u16; 100];
        let part: Vec<u32> = free
            .iter()
            .map(|&c| {
                bfs.fill(c, &mut d);
                free.iter().filter(|&&o| d[o as usize] != u16::MAX).count() as u32
            })
            .collect();
        let big = *part.iter().max().unwrap();
        let seedc = free[part.iter().position(|&p| p == big).unwrap()];
        bfs.fill(seedc, &mut d);
        let mut cells: Vec<u32> = free
            .into_iter()
            .filter(|&c| d[c as usize] != u16::MAX)
            .collect();
        assert!(cells.len() >= robots);
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.below(i + 1));
        }
        let pick = |rng: &mut SplitMix64| cells[rng.below(cells.len())];
        let mut states: Vec<State> = cells[..robots]
            .iter()
            .map(|&cell| State {
                cell,
                facing: rng.below(4) as u8,
            })
            .collect();
        let mut goals: Vec<Option<u32>> = (0..robots).map(|_| Some(pick(&mut rng))).collect();
        let mut p = OperationPibt::new(&grid, 1 << 24, seed);
        let mut actions = Vec::new();
        let mut scratch = vec![[NONE; 2]; grid.len()];
        let mut reached = 0;
        for t in 0..steps {
            p.plan(&states, &goals, &mut actions);
            let ok = super::super::check_step(&grid, &states, &actions, &mut scratch);
            assert_eq!(ok, Ok(()), "seed {seed}, {robots} robots, step {t}");
            for (a, s) in states.iter_mut().enumerate() {
                *s = super::super::after(actions[a], *s, 10, 100).unwrap();
                if goals[a] == Some(s.cell) {
                    reached += 1;
                    goals[a] = Some(pick(&mut rng));
                }
            }
        }
        reached
    }

    #[test]
    fn every_step_is_valid_from_sparse_to_packed() {
        for seed in 0..6 {
            for robots in [5, 30, 60, 80] {
                play_random(robots, seed, 120);
            }
        }
    }

    #[test]
    fn robots_reach_goals_on_open_ground() {
        // Five robots on a 10 × 10 grid hardly meet: each should reach a goal about every
        // dozen steps (mean distance about 7 moves, plus turns).
        for seed in 0..4 {
            let reached = play_random(5, seed, 200);
            assert!(reached >= 40, "seed {seed}: {reached} goals");
        }
    }

    #[test]
    fn a_train_moves_and_head_on_robots_never_swap() {
        let grid = Grid::new(5, 1).unwrap();
        let mut p = OperationPibt::new(&grid, 1 << 20, 1);
        let s = |cell, facing| State { cell, facing };
        let mut actions = Vec::new();
        p.plan(&[s(0, 0), s(1, 0)], &[Some(4), Some(4)], &mut actions);
        assert_eq!(actions, [Action::Forward, Action::Forward]);
        p.plan(&[s(1, 0), s(2, 2)], &[Some(4), Some(0)], &mut actions);
        assert!(!(actions[0] == Action::Forward && actions[1] == Action::Forward));
    }
}
