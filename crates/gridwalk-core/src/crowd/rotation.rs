//! [`RotationStep`]: PIBT for robots that face a direction (LoRR's `MAPF_T`), a move model of
//! the [core](super::core). Each step a robot moves one cell forward, turns 90° either way,
//! or waits ([`Action`]). [`RotationStep`] says the rule and what it guarantees.

use rand_core::Rng;

use super::NONE;
use super::StepError;
use super::core::{Board, Candidates, MAX_CANDIDATES, MoveModel, Pibt};
use crate::grid::{Connectivity, Grid};

/// A robot's action for one step. Facings are 0 east, 1 south, 2 west, 3 north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// One cell in the facing direction (`F`).
    Forward,
    /// Turn clockwise, `facing + 1 mod 4` (`R`).
    Clockwise,
    /// Turn counter-clockwise, `facing + 3 mod 4` (`C`).
    CounterClockwise,
    /// Stay as it is (`W`).
    Wait,
}

impl Action {
    /// The letter LoRR's result files use: `F`, `R`, `C` or `W`.
    pub fn letter(self) -> char {
        match self {
            Action::Forward => 'F',
            Action::Clockwise => 'R',
            Action::CounterClockwise => 'C',
            Action::Wait => 'W',
        }
    }

    /// The state after this action from `(cell, facing)` on `grid`, or `None` when it leaves
    /// the map or enters a wall (or the state is not on the grid).
    pub fn apply(self, grid: &Grid, (cell, facing): (u32, u8)) -> Option<(u32, u8)> {
        if cell as usize >= grid.len() || facing > 3 {
            return None;
        }
        match self {
            Action::Forward => ahead(grid, cell, facing)
                .filter(|&c| grid.weight(c as usize) != 0)
                .map(|c| (c, facing)),
            Action::Clockwise => Some((cell, (facing + 1) % 4)),
            Action::CounterClockwise => Some((cell, (facing + 3) % 4)),
            Action::Wait => Some((cell, facing)),
        }
    }
}

/// The cell one step from `cell` facing `facing`, `None` off the map (walls included).
#[inline]
pub(crate) fn ahead(grid: &Grid, cell: u32, facing: u8) -> Option<u32> {
    let (w, h) = (grid.width(), grid.height());
    let (x, y) = (cell % w, cell / w);
    match facing {
        0 => (x + 1 < w).then(|| cell + 1),
        1 => (y + 1 < h).then(|| cell + w),
        2 => (x > 0).then(|| cell - 1),
        _ => (y > 0).then(|| cell - w),
    }
}

/// The facing that goes from `from` to its 4-neighbour `to`.
#[inline]
fn facing_to(width: u32, from: u32, to: u32) -> u8 {
    if to == from + 1 {
        0
    } else if to == from + width {
        1
    } else if to + 1 == from {
        2
    } else {
        3
    }
}

/// A robot's guidance: its cost to its goal from a state (cell, facing), counting every
/// action as one. [`u64::MAX`] means the goal cannot be reached.
/// [`RotationTables`](crate::mapf::RotationTables) gives exact ones.
pub trait RotationGuidance {
    /// The cost for `agent` to reach its goal from `cell` (a flat index) facing `facing`.
    fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64;

    /// What one action (a turn, a wait, a move with nothing added) costs in [`cost`]'s
    /// units: 1 by default; tables that price moves in fractions say so here.
    ///
    /// [`cost`]: Self::cost
    #[inline]
    fn action(&self) -> u64 {
        1
    }

    /// What moving forward out of `cell` facing `facing` costs `agent` in [`cost`]'s units:
    /// [`action`] by default; tables with traffic rules price each move apart.
    ///
    /// [`cost`]: Self::cost
    /// [`action`]: Self::action
    #[inline]
    fn forward(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        let _ = (agent, cell, facing);
        self.action()
    }

    /// A hint that [`cost`](Self::cost) of `agent` at `cell` (a cell of the grid, maybe a
    /// wall), any facing, will be asked soon. Does nothing by default; it must not change any
    /// answer.
    #[inline]
    fn prefetch(&self, agent: usize, cell: u32) {
        let _ = (agent, cell);
    }
}

impl<F: Fn(usize, u32, u8) -> u64> RotationGuidance for F {
    fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        self(agent, cell, facing)
    }
}

/// The order of a robot's candidate cells: cheapest plan first; among equals a move before
/// staying, then a free cell before a held one, then the generator's draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RotationKey {
    cost: u64,
    stays: bool,
    taken: bool,
    draw: u32,
}

/// The rotation model for one step: the robots' states, their guidance and the tie-breaker.
struct Turning<'a, G: ?Sized, R: ?Sized> {
    grid: &'a Grid,
    states: &'a [(u32, u8)],
    guidance: &'a G,
    rng: &'a mut R,
}

impl<G: RotationGuidance + ?Sized, R: Rng + ?Sized> Turning<'_, G, R> {
    /// The cost of robot `i` staying one step: one action, then the best of its facings
    /// reachable by waiting or one turn.
    fn stay_cost(&self, i: usize) -> u64 {
        let (c, o) = self.states[i];
        let g = |f: u8| self.guidance.cost(i, c, f);
        g(o).min(g((o + 1) % 4))
            .min(g((o + 3) % 4))
            .saturating_add(self.guidance.action())
    }

    /// The action of robot `i` that stays on its cell: waiting, or the turn whose facing costs
    /// strictly less.
    fn stay_action(&self, i: usize) -> Action {
        let (c, o) = self.states[i];
        let g = |f: u8| self.guidance.cost(i, c, f);
        let (wait, cw, ccw) = (g(o), g((o + 1) % 4), g((o + 3) % 4));
        if cw < wait && cw <= ccw {
            Action::Clockwise
        } else if ccw < wait {
            Action::CounterClockwise
        } else {
            Action::Wait
        }
    }

    /// The action of robot `i`, whose next cell is `to`, if it can take it.
    fn action_to(&self, i: usize, to: u32) -> Action {
        let (c, o) = self.states[i];
        if to == c {
            return self.stay_action(i);
        }
        let d = facing_to(self.grid.width(), c, to);
        match (d + 4 - o) % 4 {
            0 => Action::Forward,
            1 => Action::Clockwise,
            3 => Action::CounterClockwise,
            _ => {
                let g = |f: u8| self.guidance.cost(i, c, f);
                if g((o + 3) % 4) < g((o + 1) % 4) {
                    Action::CounterClockwise
                } else {
                    Action::Clockwise
                }
            }
        }
    }
}

impl<G: RotationGuidance + ?Sized, R: Rng + ?Sized> MoveModel for Turning<'_, G, R> {
    fn candidates(&mut self, board: &Board, _cur: &[u32], i: u32, _pusher: u32) -> Candidates {
        let iu = i as usize;
        let (here, o) = self.states[iu];
        let mut keys = [RotationKey {
            cost: u64::MAX,
            stays: true,
            taken: false,
            draw: 0,
        }; MAX_CANDIDATES];
        let mut cells = [NONE; MAX_CANDIDATES];
        keys[0].cost = self.stay_cost(iu);
        keys[0].draw = self.rng.next_u32();
        cells[0] = here;
        let mut m = 1;
        let w = self.grid.width();
        self.grid
            .for_each_neighbor(here as usize, Connectivity::Four, |c, _| {
                let c = c as u32;
                let d = facing_to(w, here, c);
                let turns = match (d + 4 - o) % 4 {
                    0 => 0,
                    2 => 2,
                    _ => 1,
                };
                let other = board.occ_now[c as usize];
                keys[m] = RotationKey {
                    cost: (self.guidance.cost(iu, c, d))
                        .saturating_add(self.guidance.forward(iu, here, d))
                        .saturating_add(turns * self.guidance.action()),
                    stays: false,
                    taken: other != NONE && other != i,
                    draw: self.rng.next_u32(),
                };
                cells[m] = c;
                m += 1;
            });
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
}

/// The rotation step and its state, sized to a grid and reused from step to step.
///
/// **The rule.** The core decides every robot's next *cell* by PIBT over 4 moves, a candidate
/// cell ranked by the exact cost of the best plan through it ([`RotationGuidance`] over
/// (cell, facing)): the cell ahead costs the move into it
/// ([`forward`](RotationGuidance::forward), dearer against a traffic rule) plus its cost, a
/// cell beside or behind adds the turns toward it, and staying costs one action plus the best
/// of waiting or turning. The cells become actions:
/// - a robot whose next cell is ahead moves forward;
/// - a robot whose next cell is beside or behind turns toward it (the shorter way; for a
///   cell behind, the turn whose facing costs less), and stays;
/// - a robot whose next cell is its own waits, or turns when the turn costs less;
/// - a robot that would move into a cell whose robot does not move forward out of it waits
///   (or turns, as a robot that stays), and so in turn does the one behind it.
///
/// A robot in the way of a pusher is pushed as in PIBT: when its cell out is ahead it steps
/// out and the pusher follows; when it must turn first, it turns and the pusher waits.
///
/// **Guarantees.** For valid input (robots on distinct passable cells, facings 0 to 3), the
/// actions of one step: put no robot off the map or on a wall; put no two robots on one cell;
/// make no two robots swap cells. Following is allowed. A step costs O(robots × 5) beyond the
/// guidance, walked with an explicit stack.
#[derive(Clone, Debug)]
pub struct RotationStep {
    width: u32,
    pibt: Pibt,
    cur: Vec<u32>,
    actions: Vec<Action>,
    /// Robots found to stay, whose cells nobody may enter: the work list of the last pass.
    staying: Vec<u32>,
}

impl RotationStep {
    /// A rotation step for robots on `grid`.
    pub fn new(grid: &Grid) -> RotationStep {
        RotationStep {
            width: grid.width(),
            pibt: Pibt::new(grid.len()),
            cur: Vec::new(),
            actions: Vec::new(),
            staying: Vec::new(),
        }
    }

    /// Whether this step was made for a grid of `grid`'s size.
    pub fn fits(&self, grid: &Grid) -> bool {
        grid.len() == self.pibt.cells() && grid.width() == self.width
    }

    /// Bytes held: two occupancy arrays per cell, and per robot its candidates and links.
    pub fn memory_bytes(&self) -> usize {
        self.pibt.memory_bytes() + (self.cur.capacity() + self.staying.capacity()) * 4
    }

    /// Every robot's action for one step.
    ///
    /// - `states[a]` is robot a's cell (a flat index of `grid`, `y × width + x`, LoRR's
    ///   `loc`) and facing (0 east, 1 south, 2 west, 3 north); the cells must be passable and
    ///   distinct.
    /// - `order` lists robots by priority, highest first; robots it leaves out decide last, by
    ///   index.
    /// - `guidance` gives each robot's cost to its goal from a state; `rng` breaks ties.
    ///
    /// Returns each robot's action, indexed like `states`, with the guarantees of the
    /// [type's doc](RotationStep); input that does not fit gives [`StepError::BadInput`].
    ///
    /// A robot facing west, away from its goal three cells east, turns first:
    ///
    /// ```
    /// use gridwalk_core::Grid;
    /// use gridwalk_core::crowd::{Action, RotationStep};
    /// use gridwalk_core::mapf::RotationTables;
    /// use gridwalk_core::rng::{SeedableRng, SplitMix64};
    ///
    /// let grid = Grid::new(4, 1).unwrap();
    /// let mut tables = RotationTables::new(&grid);
    /// let goals = [3];
    /// let mut rule = RotationStep::new(&grid);
    /// let mut rng = SplitMix64::seed_from_u64(1);
    /// let mut state = [(0, 2)]; // cell 0, facing west
    /// let mut taken = String::new();
    /// while state[0].0 != goals[0] {
    ///     let guidance = tables.guidance(&goals).unwrap();
    ///     let act = rule.step(&grid, &state, &[0], &guidance, &mut rng).unwrap()[0];
    ///     state[0] = act.apply(&grid, state[0]).unwrap();
    ///     taken.push(act.letter());
    /// }
    /// assert!(taken == "RRFFF" || taken == "CCFFF", "{taken}");
    /// ```
    pub fn step<G: RotationGuidance + ?Sized, R: Rng + ?Sized>(
        &mut self,
        grid: &Grid,
        states: &[(u32, u8)],
        order: &[u32],
        guidance: &G,
        rng: &mut R,
    ) -> Result<&[Action], StepError> {
        self.run(grid, states, order, None, guidance, rng)
    }

    /// As [`step`](Self::step), but the robots that `targets` names (`targets[a]` robot a's
    /// cell or a passable cell beside it, [`NONE`] for a robot decided as in `step`) keep
    /// that next cell: they turn toward it and move in when it is free or its robot moves
    /// forward out of it. A robot with a target that would move into the cell of one that does
    /// not move forward waits facing it, where `step` lets a robot turn as one that stays.
    ///
    /// Fed back every robot's [`next_cells`](Self::next_cells) (its own cell once it stands
    /// there) until all stand on them, each decision holds until it is carried out, as WPPL's
    /// executor does, and every robot is on its target within three timesteps (two turns and
    /// a move). Robots then move in trains and cycles rather than turning back and forth as
    /// each step changes its mind. Targets that cannot hold (off the map, on a wall or not
    /// beside the robot, two robots with one target, two trading cells) give
    /// [`StepError::BadInput`]; the other guarantees are `step`'s.
    pub fn step_committed<G: RotationGuidance + ?Sized, R: Rng + ?Sized>(
        &mut self,
        grid: &Grid,
        states: &[(u32, u8)],
        order: &[u32],
        targets: &[u32],
        guidance: &G,
        rng: &mut R,
    ) -> Result<&[Action], StepError> {
        if targets.len() != states.len() {
            return Err(StepError::BadInput(format!(
                "{} targets for {} robots",
                targets.len(),
                states.len()
            )));
        }
        self.run(grid, states, order, Some(targets), guidance, rng)
    }

    /// Every robot's next cell as the last step decided it (its own when it stays): the
    /// configuration its actions head for.
    pub fn next_cells(&self) -> &[u32] {
        &self.pibt.board.next
    }

    /// Every robot's action as the last step chose it.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The step, with or without committed targets.
    fn run<G: RotationGuidance + ?Sized, R: Rng + ?Sized>(
        &mut self,
        grid: &Grid,
        states: &[(u32, u8)],
        order: &[u32],
        targets: Option<&[u32]>,
        guidance: &G,
        rng: &mut R,
    ) -> Result<&[Action], StepError> {
        if !self.fits(grid) {
            return Err(StepError::BadInput(
                "the grid is not the size the rotation step was made for".into(),
            ));
        }
        self.cur.clear();
        self.cur.extend(states.iter().map(|s| s.0));
        let n = states.len();
        self.pibt.reset(n);
        let mut model = Turning {
            grid,
            states,
            guidance,
            rng,
        };
        let cur = std::mem::take(&mut self.cur);
        let placed = self.place(grid, &cur, states, order, targets, &mut model);
        if placed.is_ok() {
            self.choose_actions(&cur, &model, targets);
        }
        self.pibt.clear(&cur);
        self.cur = cur;
        placed?;
        Ok(&self.actions)
    }

    /// Fixes every committed robot's target, checking that it can hold.
    fn fix_targets(&mut self, grid: &Grid, cur: &[u32], targets: &[u32]) -> Result<(), StepError> {
        let w = grid.width();
        let beside = |x: u32, y: u32| (x % w).abs_diff(y % w) + (x / w).abs_diff(y / w) <= 1;
        for (a, (&c, &t)) in cur.iter().zip(targets).enumerate() {
            if t == NONE {
                continue;
            }
            if t as usize >= grid.len() || grid.weight(t as usize) == 0 || !beside(c, t) {
                return Err(StepError::BadInput(format!(
                    "robot {a}'s target {t} is not a passable cell beside its cell {c}"
                )));
            }
            let board = &self.pibt.board;
            let k = board.occ_now[t as usize];
            if t != c && k != NONE && targets[k as usize] == c {
                return Err(StepError::BadInput(format!(
                    "robots {a} and {k} would trade cells {c} and {t}"
                )));
            }
            if self.pibt.fix(a as u32, t).is_err() {
                return Err(StepError::BadInput(format!("two robots have target {t}")));
            }
        }
        Ok(())
    }

    /// Checks the input, then decides every robot's next cell.
    fn place<G: RotationGuidance + ?Sized, R: Rng + ?Sized>(
        &mut self,
        grid: &Grid,
        cur: &[u32],
        states: &[(u32, u8)],
        order: &[u32],
        targets: Option<&[u32]>,
        model: &mut Turning<'_, G, R>,
    ) -> Result<(), StepError> {
        let n = cur.len();
        let board = &mut self.pibt.board;
        for (a, &(c, f)) in states.iter().enumerate() {
            if c as usize >= grid.len() || grid.weight(c as usize) == 0 {
                return Err(StepError::BadInput(format!(
                    "robot {a}'s cell {c} is off the grid or a wall"
                )));
            }
            if f > 3 {
                return Err(StepError::BadInput(format!(
                    "robot {a}'s facing {f} is not 0 to 3"
                )));
            }
            let other = board.occ_now[c as usize];
            if other != NONE {
                return Err(StepError::BadInput(format!(
                    "robots {other} and {a} share cell {c}"
                )));
            }
            board.occ_now[c as usize] = a as u32;
        }
        if let Some(&a) = order.iter().find(|&&a| a as usize >= n) {
            return Err(StepError::BadInput(format!(
                "the order names robot {a} of {n}"
            )));
        }
        if let Some(targets) = targets {
            self.fix_targets(grid, cur, targets)?;
        }
        for a in order.iter().copied().chain(0..n as u32) {
            if self.pibt.board.next[a as usize] == NONE {
                // Without constraints, every cell a robot stays on is its own.
                self.pibt
                    .decide(model, cur, a)
                    .map_err(|_| StepError::Infeasible)?;
            }
        }
        Ok(())
    }

    /// Turns the next cells into actions: forward, turn or stay, then every robot that would
    /// move into the cell of one that does not move forward stays instead, down the line: it
    /// waits facing the cell when the cell is its committed target (`targets`), else acts as
    /// a robot that stays.
    fn choose_actions<G: RotationGuidance + ?Sized, R: Rng + ?Sized>(
        &mut self,
        cur: &[u32],
        model: &Turning<'_, G, R>,
        targets: Option<&[u32]>,
    ) {
        let board = &self.pibt.board;
        self.actions.clear();
        self.staying.clear();
        for (a, &to) in board.next.iter().enumerate() {
            let act = model.action_to(a, to);
            if act != Action::Forward {
                self.staying.push(a as u32);
            }
            self.actions.push(act);
        }
        while let Some(s) = self.staying.pop() {
            let j = board.occ_next[cur[s as usize] as usize];
            if j != NONE && j != s && self.actions[j as usize] == Action::Forward {
                let hold = targets.is_some_and(|t| t[j as usize] != NONE);
                self.actions[j as usize] = if hold {
                    Action::Wait
                } else {
                    model.stay_action(j as usize)
                };
                self.staying.push(j);
            }
        }
    }
}
