//! [`StepRule`]: crowd mode's step rule, 4 or 8 moves with trap handling, as a move model
//! ([`Moves`]) of the PIBT [core](super::core), with its reusable state and the last step's
//! report.

use std::fmt;

use rand_core::Rng;

use super::core::{Board, Candidates, MAX_CANDIDATES, MoveModel, Outcome, Pibt};
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

/// Some agents' next cells, fixed in advance: one entry per agent, `None` for a free one.
type Constraints<'a> = Option<&'a [Option<u32>]>;

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

/// The order of an agent's candidate cells, compared field by field: first the cells ahead of
/// a pusher where the agent would be trapped (last of all, with trap handling), then the cost
/// to goal; among equal costs, cells not ahead of the pusher (nearer its goal), then free
/// ones, then the generator's draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct CandidateKey {
    dead_ahead: bool,
    cost: u64,
    ahead: bool,
    taken: bool,
    draw: u32,
}

/// The step rule and its state: sized to a grid and reused from step to step, so a step
/// allocates nothing once the agent count is steady. See the [module doc](super).
#[derive(Clone, Debug)]
pub struct StepRule {
    width: u32,
    conn: Connectivity,
    options: StepOptions,
    pibt: Pibt,
    report: StepReport,
}

/// Crowd mode's move model for one step: 4 or 8 moves on `grid`, candidates ranked by
/// `guidance`, ties drawn from `rng`, with or without trap handling.
struct Moves<'a, G, R: ?Sized> {
    grid: &'a Grid,
    conn: Connectivity,
    traps: bool,
    guidance: &'a G,
    rng: &'a mut R,
    /// Pass operations begun this step.
    passes: usize,
}

impl StepRule {
    /// A step rule for agents on `grid` moving under `conn`, with `options`' additions.
    pub fn new(grid: &Grid, conn: Connectivity, options: StepOptions) -> StepRule {
        StepRule {
            width: grid.width(),
            conn,
            options,
            pibt: Pibt::new(grid.len()),
            report: StepReport::default(),
        }
    }

    /// Whether this step rule was made for a grid of `grid`'s size.
    pub fn fits(&self, grid: &Grid) -> bool {
        grid.len() == self.pibt.cells() && grid.width() == self.width
    }

    /// Bytes held: per cell, two occupancy arrays; per agent, its candidates and links.
    pub fn memory_bytes(&self) -> usize {
        self.pibt.memory_bytes()
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
        if !self.fits(grid) {
            return Err(StepError::BadInput(
                "the grid is not the size the crowd was made for".into(),
            ));
        }
        self.pibt.reset(cur.len());
        self.report.waited.clear();
        self.report.pushed.clear();
        self.report.pulled.clear();
        self.report.passes = 0;
        let mut model = Moves {
            grid,
            conn: self.conn,
            traps: self.options.traps,
            guidance,
            rng,
            passes: 0,
        };
        let result = self.place((grid, cur, order, fixed), &mut model);
        self.report.passes = model.passes;
        self.pibt.clear(cur);
        result?;
        let board = &self.pibt.board;
        for (a, &here) in cur.iter().enumerate() {
            if board.next[a] == here {
                self.report.waited.push(a as u32);
            } else if board.parent[a] != NONE {
                let list = if self.pibt.outcome[a] == Outcome::Pulled {
                    &mut self.report.pulled
                } else {
                    &mut self.report.pushed
                };
                list.push(a as u32);
            }
        }
        Ok(&self.pibt.board.next)
    }

    /// What the last successful step did.
    pub fn report(&self) -> &StepReport {
        &self.report
    }

    /// How agent `a`'s next cell was decided in the last step.
    pub fn outcome(&self, a: usize) -> Outcome {
        self.pibt.outcome.get(a).copied().unwrap_or_default()
    }

    /// Agent `a`'s candidate cells in the last step, in the order it tried them (empty when it
    /// did not choose: fixed by a constraint, or pulled).
    pub fn candidates(&self, a: usize) -> &[u32] {
        match self.pibt.cands.get(a) {
            Some(c) => &c[..self.pibt.ncand[a] as usize],
            None => &[],
        }
    }

    /// The agents whose pushes moved agent `a` in the last step, from the one that chose
    /// freely down to `a`'s own pusher; empty when nobody moved it.
    pub fn push_chain(&self, a: usize) -> Vec<u32> {
        let parent = &self.pibt.board.parent;
        let mut chain = Vec::new();
        let mut at = parent.get(a).copied().unwrap_or(NONE);
        while at != NONE && chain.len() < parent.len() {
            chain.push(at);
            at = parent[at as usize];
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
        model: &mut Moves<'_, G, R>,
    ) -> Result<(), StepError> {
        let n = cur.len();
        let occ_now = &mut self.pibt.board.occ_now;
        for (a, &c) in cur.iter().enumerate() {
            let ok = (c as usize) < grid.len() && grid.weight(c as usize) != 0;
            if !ok {
                return Err(StepError::BadInput(format!(
                    "agent {a}'s cell {c} is off the grid or a wall"
                )));
            }
            let other = occ_now[c as usize];
            if other != NONE {
                return Err(StepError::BadInput(format!(
                    "agents {other} and {a} share cell {}",
                    grid.pos(c as usize)
                )));
            }
            occ_now[c as usize] = a as u32;
        }
        if let Some(fixed) = fixed {
            if fixed.len() != n {
                return Err(StepError::BadInput(format!(
                    "{} constraints for {n} agents",
                    fixed.len()
                )));
            }
            self.apply_fixed(grid, cur, fixed, model)?;
        }
        for (k, &a) in order.iter().enumerate() {
            if a as usize >= n {
                return Err(StepError::BadInput(format!(
                    "the order names agent {a} of {n}"
                )));
            }
            hint_ahead(k, order.len(), |j, stage| {
                self.hint(grid, cur, order[j], model.guidance, stage)
            });
            if self.pibt.board.next[a as usize] == NONE {
                self.decide(cur, a, model)?;
            }
        }
        for a in 0..n as u32 {
            if self.pibt.board.next[a as usize] == NONE {
                self.decide(cur, a, model)?;
            }
        }
        Ok(())
    }

    /// Decides agent `a` and every agent its pushes reach.
    #[inline]
    fn decide<G: Guidance, R: Rng + ?Sized>(
        &mut self,
        cur: &[u32],
        a: u32,
        model: &mut Moves<'_, G, R>,
    ) -> Result<(), StepError> {
        self.pibt
            .decide(model, cur, a)
            .map_err(|_| StepError::Infeasible)
    }
    /// Asks `guidance` to start loading what deciding agent `a` reads first: its values at its
    /// cell and the cells beside it (`stage` 0: the rows above, through and below; 1: each
    /// cell of its block), and at stage 1 the occupancy of its cell. Agents already decided,
    /// or out of range, are skipped.
    #[inline]
    fn hint<G: Guidance>(&self, grid: &Grid, cur: &[u32], a: u32, guidance: &G, stage: u8) {
        let a = a as usize;
        if a >= cur.len() || self.pibt.board.next[a] != NONE {
            return;
        }
        let here = cur[a] as usize;
        if here >= self.pibt.cells() {
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
        prefetch(&self.pibt.board.occ_now, here);
        prefetch(&self.pibt.board.occ_next, here);
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
    fn apply_fixed<G: Guidance, R: Rng + ?Sized>(
        &mut self,
        grid: &Grid,
        cur: &[u32],
        fixed: &[Option<u32>],
        model: &Moves<'_, G, R>,
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
            self.pibt
                .fix(a as u32, to)
                .map_err(|_| StepError::Infeasible)?;
        }
        for (a, &to) in fixed.iter().enumerate() {
            if let Some(to) = to
                && to != cur[a]
                && !self.pibt.free_move(model, a as u32, cur[a], to)
            {
                return Err(StepError::Infeasible);
            }
        }
        Ok(())
    }
}

impl<G: Guidance, R: Rng + ?Sized> MoveModel for Moves<'_, G, R> {
    /// Agent `i`'s cell and its neighbours, ordered by [`CandidateKey`].
    fn candidates(&mut self, board: &Board, cur: &[u32], i: u32, parent: u32) -> Candidates {
        let here = cur[i as usize];
        let (ns, k) = neighbours(self.grid, self.conn, here);
        let guidance = self.guidance;
        let pushed = parent != NONE;
        let parent_here = if pushed {
            guidance.distance(parent as usize, here as usize)
        } else {
            0
        };
        let mut keys = [CandidateKey {
            dead_ahead: false,
            cost: 0,
            ahead: false,
            taken: false,
            draw: 0,
        }; MAX_CANDIDATES];
        let mut cells = [NONE; MAX_CANDIDATES];
        let mut m = 0;
        for c in std::iter::once(here).chain(ns[..k].iter().copied()) {
            let ahead =
                pushed && c != here && guidance.distance(parent as usize, c as usize) < parent_here;
            let other = board.occ_now[c as usize];
            keys[m] = CandidateKey {
                dead_ahead: ahead
                    && self.traps
                    && would_trap(
                        self.grid,
                        self.conn,
                        guidance,
                        parent as usize,
                        i as usize,
                        here,
                        c,
                    ),
                cost: guidance.distance(i as usize, c as usize),
                ahead,
                taken: other != NONE && other != i,
                draw: self.rng.next_u32(),
            };
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
        (cells, m as u8)
    }

    /// No swap (checked by the core), and with eight moves no crossing diagonal in the 2×2
    /// block of a diagonal move.
    #[inline]
    fn may_move(&self, board: &Board, i: u32, from: u32, to: u32) -> bool {
        if self.conn != Connectivity::Eight {
            return true;
        }
        let w = self.grid.width();
        let (fx, tx) = (from % w, to % w);
        if fx == tx || from / w == to / w {
            return true;
        }
        // The block's other two cells: (to.x, from.y) and (from.x, to.y).
        let side_x = from - fx + tx;
        let side_y = to - tx + fx;
        let crosses = |a: u32, b: u32| {
            let k = board.occ_now[a as usize];
            k != NONE && k != i && board.next[k as usize] == b
        };
        !(crosses(side_x, side_y) || crosses(side_y, side_x))
    }

    /// The pass, for the agent at the top of a chain: when its best cell holds an undecided
    /// agent that its move would trap, and it can retreat to a branching cell, it tries its
    /// candidates worst first (stepping aside), and pulls that agent into its cell once it
    /// moved.
    fn pass(
        &mut self,
        board: &Board,
        cur: &[u32],
        top: u32,
        pusher: u32,
        cands: &mut [u32],
    ) -> u32 {
        if !self.traps || pusher != NONE {
            return NONE;
        }
        let (here, best) = (cur[top as usize], cands[0]);
        let j = board.occ_now[best as usize];
        if best == here
            || j == NONE
            || board.next[j as usize] != NONE
            || !would_trap(
                self.grid,
                self.conn,
                self.guidance,
                top as usize,
                j as usize,
                here,
                best,
            )
            || !can_retreat(self.grid, self.conn, here, best)
        {
            return NONE;
        }
        cands.reverse();
        self.passes += 1;
        j
    }
}
