//! [`StepRule`]: the step rule with its reusable state (occupancy arrays, the decision stack,
//! the last step's report), and [`StepRule::step`], PIBT walked with an explicit stack.

use std::fmt;

use rand_core::Rng;

use super::traps::{can_retreat, neighbours, would_trap};
use super::{Guidance, NONE, StepOptions, hint_ahead};
use crate::grid::{Connectivity, Grid, Pos};
use crate::prefetch::prefetch;

/// Why a step was refused. Nothing moves when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The agents, the order or the constraints do not fit together or with the grid.
    BadInput(String),
    /// The constraints cannot all hold: two fixed cells collide, or an agent must leave a cell
    /// a constraint takes and cannot. LaCAM expects this and tries other constraints.
    Infeasible,
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::BadInput(why) => write!(f, "bad crowd step input: {why}"),
            StepError::Infeasible => write!(f, "the constraints cannot all hold"),
        }
    }
}

impl std::error::Error for StepError {}

/// The largest distance the candidate order tells apart: 63 bits of its u128 sort key, below
/// the trap bit.
const DIST_CAP: u64 = u64::MAX >> 1;

/// Some agents' next cells, fixed in advance: one entry per agent, `None` for a free one.
type Constraints<'a> = Option<&'a [Option<u32>]>;

/// What an agent's next candidate cell turned out to be.
#[derive(Clone, Copy, Debug)]
enum Choice {
    /// Free now or being vacated: the agent moved, and so did every agent that pushed it.
    Free,
    /// Held by this undecided agent, which must now move out of it.
    Push(u32),
    /// No candidate is left: the agent stays.
    Stuck,
}

/// One agent being decided: its place on the stack of pushes.
#[derive(Clone, Copy, Debug)]
struct Frame {
    agent: u32,
    /// The agent that pushed this one (moving into its cell), or [`NONE`] at the top.
    parent: u32,
    /// The next candidate to try.
    next_try: u8,
}

/// What the last step did, for a panel and for explain. Agents are indices into the step's
/// `cur`.
#[derive(Clone, Debug, Default)]
pub struct StepReport {
    /// Agents that stayed on their cells.
    pub waited: Vec<u32>,
    /// Agents that moved because another pushed them (priority inheritance).
    pub pushed: Vec<u32>,
    /// Agents pulled into a retreating agent's cell by the pass operation.
    pub pulled: Vec<u32>,
    /// Pass operations begun (agents that retreated to let another by).
    pub passes: usize,
}

/// The step rule and its state: sized to a grid and reused from step to step, so a step
/// allocates nothing once the agent count is steady. See the [module doc](super).
#[derive(Clone, Debug)]
pub struct StepRule {
    width: u32,
    conn: Connectivity,
    options: StepOptions,
    /// Per cell: the agent on it now, or [`NONE`].
    occ_now: Vec<u32>,
    /// Per cell: the agent that will be on it after the step, or [`NONE`].
    occ_next: Vec<u32>,
    /// Per agent: its cell after the step, [`NONE`] while undecided.
    next: Vec<u32>,
    /// Per agent: its candidate cells in the order tried, and how many.
    cands: Vec<[u32; 9]>,
    ncand: Vec<u8>,
    /// Per agent: who pushed (or pulled) it this step, or [`NONE`].
    parent: Vec<u32>,
    stack: Vec<Frame>,
    report: StepReport,
}

impl StepRule {
    /// A step rule for agents on `grid` moving under `conn`, with `options`' additions.
    pub fn new(grid: &Grid, conn: Connectivity, options: StepOptions) -> StepRule {
        StepRule {
            width: grid.width(),
            conn,
            options,
            occ_now: vec![NONE; grid.len()],
            occ_next: vec![NONE; grid.len()],
            next: Vec::new(),
            cands: Vec::new(),
            ncand: Vec::new(),
            parent: Vec::new(),
            stack: Vec::new(),
            report: StepReport::default(),
        }
    }

    /// Whether this step rule was made for a grid of `grid`'s size.
    pub fn fits(&self, grid: &Grid) -> bool {
        grid.len() == self.occ_now.len() && grid.width() == self.width
    }

    /// Bytes held: per cell, two occupancy arrays; per agent, its candidates and links.
    pub fn memory_bytes(&self) -> usize {
        (self.occ_now.capacity() + self.occ_next.capacity()) * 4
            + self.cands.capacity() * 36
            + (self.next.capacity() + self.parent.capacity()) * 4
            + self.ncand.capacity()
    }

    /// Moves every agent one step.
    ///
    /// - `cur[a]` is agent a's cell (a flat index of `grid`, `y × width + x`); the cells must
    ///   be passable and distinct.
    /// - `order` lists agents by priority, highest first; agents it leaves out decide last, by
    ///   index.
    /// - `fixed`, when given, has one entry per agent: `Some` of its next cell (itself or a
    ///   neighbour), or `None` for a free agent.
    /// - `guidance` orders each agent's candidates; `rng` breaks ties among equal costs.
    ///
    /// Returns each agent's next cell, indexed like `cur`. Constraints that cannot hold give
    /// [`StepError::Infeasible`]; input that does not fit gives [`StepError::BadInput`].
    ///
    /// Two agents meet head-on in a corridor with a side pocket: the one with priority keeps
    /// its way, and the other steps aside into the pocket rather than back down the corridor.
    ///
    /// ```
    /// use gridwalk_core::crowd::{StepOptions, StepRule};
    /// use gridwalk_core::rng::{SeedableRng, SplitMix64};
    /// use gridwalk_core::{Connectivity, Grid, Pos, Terrain};
    ///
    /// // A corridor along row 1 of a 5 × 2 map, with a pocket at (2, 0): walls elsewhere.
    /// let mut grid = Grid::new(5, 2).unwrap();
    /// for x in [0, 1, 3, 4] {
    ///     grid.set(Pos::new(x, 0), Terrain::Wall).unwrap();
    /// }
    /// let cell = |x: u32, y: u32| y * 5 + x;
    /// // Agent 0 at (1, 1) heads east to (4, 1); agent 1 at (2, 1) heads west to (0, 1).
    /// let goal_x = [4, 0];
    /// let guidance = |a: usize, c: usize| {
    ///     let (x, y) = (c as u64 % 5, c as u64 / 5);
    ///     x.abs_diff(goal_x[a]) + (1 - y) // along the corridor, and one out of the pocket
    /// };
    /// let mut rule = StepRule::new(&grid, Connectivity::Four, StepOptions::default());
    /// let mut rng = SplitMix64::seed_from_u64(1);
    /// let cur = [cell(1, 1), cell(2, 1)];
    /// let next = rule.step(&grid, &cur, &[0, 1], None, &guidance, &mut rng).unwrap();
    /// assert_eq!(next, [cell(2, 1), cell(2, 0)], "1 steps aside, 0 goes on");
    /// assert_eq!(rule.report().pushed, [1]);
    /// ```
    pub fn step<G: Guidance, R: Rng + ?Sized>(
        &mut self,
        grid: &Grid,
        cur: &[u32],
        order: &[u32],
        fixed: Option<&[Option<u32>]>,
        guidance: &G,
        rng: &mut R,
    ) -> Result<&[u32], StepError> {
        let n = cur.len();
        if grid.len() != self.occ_now.len() || grid.width() != self.width {
            return Err(StepError::BadInput(
                "the grid is not the size the crowd was made for".into(),
            ));
        }
        self.next.clear();
        self.next.resize(n, NONE);
        self.cands.resize(n, [NONE; 9]);
        self.ncand.clear();
        self.ncand.resize(n, 0);
        self.parent.clear();
        self.parent.resize(n, NONE);
        self.report.waited.clear();
        self.report.pushed.clear();
        self.report.pulled.clear();
        self.report.passes = 0;
        let result = self.place((grid, cur, order, fixed), guidance, rng);
        // Clear exactly what was set, whatever happened.
        for (a, &c) in cur.iter().enumerate() {
            if (c as usize) < self.occ_now.len() && self.occ_now[c as usize] == a as u32 {
                self.occ_now[c as usize] = NONE;
            }
            let to = self.next[a];
            if to != NONE {
                self.occ_next[to as usize] = NONE;
            }
        }
        result?;
        for (a, &here) in cur.iter().enumerate() {
            if self.next[a] == here {
                self.report.waited.push(a as u32);
            } else if self.parent[a] != NONE {
                let list = if self.stack_pulled(a) {
                    &mut self.report.pulled
                } else {
                    &mut self.report.pushed
                };
                list.push(a as u32);
            }
        }
        Ok(&self.next)
    }

    /// Whether agent `a` was pulled rather than pushed: its mover's cell is where it went.
    fn stack_pulled(&self, a: usize) -> bool {
        self.ncand[a] == 0
    }

    /// What the last successful step did.
    pub fn report(&self) -> &StepReport {
        &self.report
    }

    /// Agent `a`'s candidate cells in the last step, in the order it tried them (empty when it
    /// did not choose: fixed by a constraint, or pulled).
    pub fn candidates(&self, a: usize) -> &[u32] {
        match self.cands.get(a) {
            Some(c) => &c[..self.ncand[a] as usize],
            None => &[],
        }
    }

    /// The agents whose pushes moved agent `a` in the last step, from the one that chose
    /// freely down to `a`'s own pusher; empty when nobody moved it.
    pub fn push_chain(&self, a: usize) -> Vec<u32> {
        let mut chain = Vec::new();
        let mut at = self.parent.get(a).copied().unwrap_or(NONE);
        while at != NONE && chain.len() < self.parent.len() {
            chain.push(at);
            at = self.parent[at as usize];
        }
        chain.reverse();
        chain
    }

    /// The cells of `cells` (flat indices) as positions, for reports.
    pub fn positions(&self, cells: &[u32]) -> Vec<Pos> {
        let w = self.width;
        cells.iter().map(|&c| Pos::new(c % w, c / w)).collect()
    }

    /// Checks the input, applies the constraints, then decides every agent.
    fn place<G: Guidance, R: Rng + ?Sized>(
        &mut self,
        (grid, cur, order, fixed): (&Grid, &[u32], &[u32], Constraints),
        guidance: &G,
        rng: &mut R,
    ) -> Result<(), StepError> {
        let n = cur.len();
        for (a, &c) in cur.iter().enumerate() {
            let ok = (c as usize) < grid.len() && grid.weight(c as usize) != 0;
            if !ok {
                return Err(StepError::BadInput(format!(
                    "agent {a}'s cell {c} is off the grid or a wall"
                )));
            }
            let other = self.occ_now[c as usize];
            if other != NONE {
                return Err(StepError::BadInput(format!(
                    "agents {other} and {a} share cell {}",
                    grid.pos(c as usize)
                )));
            }
            self.occ_now[c as usize] = a as u32;
        }
        if let Some(fixed) = fixed {
            if fixed.len() != n {
                return Err(StepError::BadInput(format!(
                    "{} constraints for {n} agents",
                    fixed.len()
                )));
            }
            self.apply_fixed(grid, cur, fixed)?;
        }
        for (k, &a) in order.iter().enumerate() {
            if a as usize >= n {
                return Err(StepError::BadInput(format!(
                    "the order names agent {a} of {n}"
                )));
            }
            hint_ahead(k, order.len(), |j, stage| {
                self.hint(grid, cur, order[j], guidance, stage)
            });
            if self.next[a as usize] == NONE {
                self.decide(grid, cur, a, guidance, rng)?;
            }
        }
        for a in 0..n as u32 {
            if self.next[a as usize] == NONE {
                self.decide(grid, cur, a, guidance, rng)?;
            }
        }
        Ok(())
    }

    /// Asks `guidance` to start loading what deciding agent `a` reads first: its values at its
    /// cell and the cells beside it (`stage` 0: the rows above, through and below; 1: each
    /// cell of its block), and at stage 1 the occupancy of its cell. Agents already decided,
    /// or out of range, are skipped.
    #[inline]
    fn hint<G: Guidance>(&self, grid: &Grid, cur: &[u32], a: u32, guidance: &G, stage: u8) {
        let a = a as usize;
        if a >= cur.len() || self.next[a] != NONE {
            return;
        }
        let here = cur[a] as usize;
        if here >= self.occ_now.len() {
            return;
        }
        let (w, h) = (self.width as usize, grid.height() as usize);
        let (x, y) = (here % w, here / w);
        let (up, down) = (y > 0, y + 1 < h);
        guidance.prefetch(a, here, stage);
        if up {
            guidance.prefetch(a, here - w, stage);
        }
        if down {
            guidance.prefetch(a, here + w, stage);
        }
        if stage == 0 {
            return;
        }
        prefetch(&self.occ_now, here);
        prefetch(&self.occ_next, here);
        if x > 0 {
            guidance.prefetch(a, here - 1, stage);
        }
        if x + 1 < w {
            guidance.prefetch(a, here + 1, stage);
        }
        if self.conn == Connectivity::Eight {
            for (ok, c) in [
                (up && x > 0, here.wrapping_sub(w + 1)),
                (up && x + 1 < w, here.wrapping_sub(w - 1)),
                (down && x > 0, here + w - 1),
                (down && x + 1 < w, here + w + 1),
            ] {
                if ok {
                    guidance.prefetch(a, c, stage);
                }
            }
        }
    }

    /// Fixes the constrained agents' next cells, checking each is a move and no two collide,
    /// swap or cross.
    fn apply_fixed(
        &mut self,
        grid: &Grid,
        cur: &[u32],
        fixed: &[Option<u32>],
    ) -> Result<(), StepError> {
        for (a, &to) in fixed.iter().enumerate() {
            let Some(to) = to else {
                continue;
            };
            let legal = to == cur[a] || {
                let (ns, k) = neighbours(grid, self.conn, cur[a]);
                ns[..k].contains(&to)
            };
            if !legal {
                return Err(StepError::BadInput(format!(
                    "agent {a} is constrained to {to}, which is not a move from {}",
                    cur[a]
                )));
            }
            if self.occ_next[to as usize] != NONE {
                return Err(StepError::Infeasible);
            }
            self.occ_next[to as usize] = a as u32;
            self.next[a] = to;
            self.ncand[a] = 0;
        }
        for (a, &to) in fixed.iter().enumerate() {
            if let Some(to) = to
                && to != cur[a]
                && !self.free_move(a as u32, cur[a], to)
            {
                return Err(StepError::Infeasible);
            }
        }
        Ok(())
    }

    /// Whether agent `i` may move from `from` to `to` given the moves decided so far: no swap
    /// with the agent on `to`, and no crossing diagonal in the 2×2 block of a diagonal move.
    #[inline]
    fn free_move(&self, i: u32, from: u32, to: u32) -> bool {
        let k = self.occ_now[to as usize];
        if k != NONE && k != i && self.next[k as usize] == from {
            return false;
        }
        if self.conn == Connectivity::Eight {
            let w = self.width;
            let (fx, tx) = (from % w, to % w);
            if fx != tx && from / w != to / w {
                // The block's other two cells: (to.x, from.y) and (from.x, to.y).
                let side_x = from - fx + tx;
                let side_y = to - tx + fx;
                let crosses = |a: u32, b: u32| {
                    let k = self.occ_now[a as usize];
                    k != NONE && k != i && self.next[k as usize] == b
                };
                if crosses(side_x, side_y) || crosses(side_y, side_x) {
                    return false;
                }
            }
        }
        true
    }

    /// Fills agent `i`'s candidates, best first: its cell and its neighbours by `guidance`; among
    /// equals, cells not ahead of the pusher (closer to its goal), then free cells, then `rng`.
    /// With trap handling, a pushed agent puts last of all the cells ahead of its pusher where
    /// it would be trapped (it steps aside).
    fn fill_candidates<G: Guidance, R: Rng + ?Sized>(
        &mut self,
        grid: &Grid,
        cur: &[u32],
        i: u32,
        parent: u32,
        guidance: &G,
        rng: &mut R,
    ) {
        let here = cur[i as usize];
        let (ns, k) = neighbours(grid, self.conn, here);
        let pushed = parent != NONE;
        let parent_here = if pushed {
            guidance.distance(parent as usize, here as usize)
        } else {
            0
        };
        let mut keys = [0u128; 9];
        let mut cells = [NONE; 9];
        let mut m = 0;
        for c in std::iter::once(here).chain(ns[..k].iter().copied()) {
            let d = guidance.distance(i as usize, c as usize).min(DIST_CAP) as u128;
            let ahead =
                pushed && c != here && guidance.distance(parent as usize, c as usize) < parent_here;
            let dead_ahead = ahead
                && self.options.traps
                && would_trap(
                    grid,
                    self.conn,
                    guidance,
                    parent as usize,
                    i as usize,
                    here,
                    c,
                );
            let other = self.occ_now[c as usize];
            let taken = other != NONE && other != i;
            keys[m] = ((dead_ahead as u128) << 127)
                | (d << 64)
                | ((ahead as u128) << 63)
                | ((taken as u128) << 62)
                | rng.next_u32() as u128;
            cells[m] = c;
            m += 1;
        }
        // Insertion sort of at most nine keys.
        for a in 1..m {
            let mut b = a;
            while b > 0 && keys[b - 1] > keys[b] {
                keys.swap(b - 1, b);
                cells.swap(b - 1, b);
                b -= 1;
            }
        }
        self.cands[i as usize] = cells;
        self.ncand[i as usize] = m as u8;
    }

    /// Decides agent `top` and every agent its pushes reach: pypibt's `funcPIBT`, with the
    /// recursion on an explicit stack so that a long chain of pushes cannot overflow it.
    ///
    /// The top frame is the agent being decided. It tries its next candidate cell: a free
    /// cell ends the chain with success, which every frame below shares (each one moved into
    /// the cell of the agent above it), so the stack unwinds at once. An undecided occupant
    /// is pushed: its frame goes on top, like the recursive call. An agent out of candidates
    /// stays and its frame is popped, and the agent below resumes with its next candidate.
    fn decide<G: Guidance, R: Rng + ?Sized>(
        &mut self,
        grid: &Grid,
        cur: &[u32],
        top: u32,
        guidance: &G,
        rng: &mut R,
    ) -> Result<(), StepError> {
        self.fill_candidates(grid, cur, top, NONE, guidance, rng);
        let pull = if self.options.traps {
            self.trap_pass(grid, cur, top, guidance)
        } else {
            NONE
        };
        self.stack.clear();
        self.stack.push(Frame {
            agent: top,
            parent: NONE,
            next_try: 0,
        });
        while let Some(&frame) = self.stack.last() {
            match self.try_candidates(cur, frame.agent) {
                Choice::Free => {
                    self.stack.clear();
                    self.pull(cur, top, pull);
                    return Ok(());
                }
                Choice::Push(k) => {
                    self.parent[k as usize] = frame.agent;
                    self.fill_candidates(grid, cur, k, frame.agent, guidance, rng);
                    self.stack.push(Frame {
                        agent: k,
                        parent: frame.agent,
                        next_try: 0,
                    });
                }
                Choice::Stuck => {
                    self.stay(cur, frame)?;
                    self.stack.pop();
                }
            }
        }
        Ok(())
    }

    /// The pass: when the top agent's best cell holds an undecided agent that its move would
    /// trap, the top agent tries its candidates worst first (stepping aside), and pulls that
    /// agent into its cell once it moved. Returns the agent to pull, or [`NONE`].
    fn trap_pass<G: Guidance>(&mut self, grid: &Grid, cur: &[u32], top: u32, guidance: &G) -> u32 {
        let (here, best) = (cur[top as usize], self.cands[top as usize][0]);
        let j = self.occ_now[best as usize];
        if best == here
            || j == NONE
            || self.next[j as usize] != NONE
            || !would_trap(
                grid,
                self.conn,
                guidance,
                top as usize,
                j as usize,
                here,
                best,
            )
            || !can_retreat(grid, self.conn, here, best)
        {
            return NONE;
        }
        let m = self.ncand[top as usize] as usize;
        self.cands[top as usize][..m].reverse();
        self.report.passes += 1;
        j
    }

    /// The body of `funcPIBT`'s loop for the top frame's agent `i`: takes its next candidate
    /// cell that is free next tick and reachable without a swap or crossing, and says what
    /// taking it means. The frame remembers where the scan stopped, so a failed push resumes
    /// with the following candidate.
    fn try_candidates(&mut self, cur: &[u32], i: u32) -> Choice {
        let iu = i as usize;
        let top = self.stack.len() - 1;
        while (self.stack[top].next_try as usize) < self.ncand[iu] as usize {
            let u = self.cands[iu][self.stack[top].next_try as usize];
            self.stack[top].next_try += 1;
            if self.occ_next[u as usize] != NONE || !self.free_move(i, cur[iu], u) {
                continue;
            }
            self.occ_next[u as usize] = i;
            self.next[iu] = u;
            let k = self.occ_now[u as usize];
            if k != NONE && k != i && self.next[k as usize] == NONE {
                return Choice::Push(k);
            }
            return Choice::Free;
        }
        Choice::Stuck
    }

    /// Agent `frame.agent` failed every candidate and stays. Its cell is free next tick or
    /// claimed by its pusher, whose claim it takes back; anything else is infeasible.
    fn stay(&mut self, cur: &[u32], frame: Frame) -> Result<(), StepError> {
        let here = cur[frame.agent as usize];
        let holder = self.occ_next[here as usize];
        if holder != NONE && holder != frame.parent {
            return Err(StepError::Infeasible);
        }
        self.occ_next[here as usize] = frame.agent;
        self.next[frame.agent as usize] = here;
        Ok(())
    }

    /// After agent `i` moved, pulls agent `j` (if any, and still undecided) into `i`'s cell.
    fn pull(&mut self, cur: &[u32], i: u32, j: u32) {
        if j == NONE || self.next[j as usize] != NONE {
            return;
        }
        let to = cur[i as usize];
        let from = cur[j as usize];
        if self.next[i as usize] == to
            || self.occ_next[to as usize] != NONE
            || !self.free_move(j, from, to)
        {
            return;
        }
        self.occ_next[to as usize] = j;
        self.next[j as usize] = to;
        self.parent[j as usize] = i;
        self.ncand[j as usize] = 0;
    }
}
