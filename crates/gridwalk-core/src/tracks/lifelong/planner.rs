//! The lifelong runner's planners: the [`Planner`] trait (robots' states and goals in, one
//! rotation action each out) and [`CrowdPlanner`], the crowd's cell-space step rule turned
//! into rotation actions.
//!
//! [`CrowdPlanner`] asks [`StepRule`] (PIBT with trap handling, four moves) for every robot's
//! next cell, guided by breadth-first distances with the turns a move needs priced in. Then:
//! - a robot whose next cell is ahead moves forward, if that cell is free or its occupant
//!   moves forward too (checked along the chain, from the robots that stay back up);
//! - a robot whose next cell is not ahead turns toward it, and one that stays turns toward
//!   its best neighbour, so that it is ready next step;
//! - everyone else waits.
//!
//! The step is valid by LoRR's rules: the movers' targets are distinct (the step rule's
//! cells are), no mover enters the cell of a robot that stays, and the step rule never swaps.

use crate::crowd::{NONE, StepOptions, StepRule};
use crate::grid::{Connectivity, Grid};
use crate::rng::{Rng, SeedableRng, SplitMix64};

use super::dist::{DistCache, FAR};
use super::priority::GoalAge;
use super::{Action, State};

/// How much cheaper (in quarter moves) the cell a robot last turned toward stays.
const STICKY: u64 = 3;
/// Whether a robot that stays turns toward its best neighbour.
const PRE_TURN: bool = true;

/// A planner for lifelong robots with rotation.
pub trait Planner: Send {
    /// Writes one action per robot into `actions` (cleared first): robot i stands in
    /// `states[i]` and heads for `goals[i]` (`None`: it has no task).
    fn plan(&mut self, states: &[State], goals: &[Option<u32>], actions: &mut Vec<Action>);

    /// Work before timestep 0, untimed by the step limit (LoRR's preprocessing): robots
    /// stand in `states` with their first `goals`. Does nothing by default.
    fn preprocess(&mut self, states: &[State], goals: &[Option<u32>]) {
        let _ = (states, goals);
    }

    /// A line on what the planner did over the run, for the caller to show. None by default.
    fn summary(&self) -> Option<String> {
        None
    }
}

/// The cell one step from `cell` facing `facing` (0 E, 1 S, 2 W, 3 N), if it is on the map.
pub fn ahead(cell: u32, facing: u8, width: u32, len: u32) -> Option<u32> {
    let (x, y) = (cell % width, cell / width);
    match facing {
        0 if x + 1 < width => Some(cell + 1),
        1 if cell + width < len => Some(cell + width),
        2 if x > 0 => Some(cell - 1),
        3 if y > 0 => Some(cell - width),
        _ => None,
    }
}

/// The facing that points from `from` to its neighbour `to`.
fn facing_to(from: u32, to: u32, width: u32) -> u8 {
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

/// Quarter turns from facing `a` to facing `b`: 0, 1 or 2.
fn turns(a: u8, b: u8) -> u64 {
    match (b + 4 - a) % 4 {
        0 => 0,
        2 => 2,
        _ => 1,
    }
}

/// The turn that brings facing `from` closer to `to` (clockwise for a half turn).
fn turn_toward(from: u8, to: u8) -> Action {
    if (from + 3) % 4 == to {
        Action::CounterClockwise
    } else {
        Action::Clockwise
    }
}

/// PIBT over cells, its moves turned into rotation actions (see the module doc).
pub struct CrowdPlanner {
    grid: Grid,
    rule: StepRule,
    dist: DistCache,
    rng: SplitMix64,
    /// Per robot: steps since its goal last changed, and a fixed random tie-break.
    age: GoalAge,
    tie: Vec<u32>,
    slot: Vec<u32>,
    cur: Vec<u32>,
    order: Vec<u32>,
    /// Per cell: the robot that means to move forward into it, or [`NONE`].
    entering: Vec<u32>,
    /// Per robot: the cell it turned toward last step, or [`NONE`]: it is kept preferred,
    /// so that a robot does not turn back and forth between two cells.
    intent: Vec<u32>,
}

impl CrowdPlanner {
    /// A planner for robots on `grid`, its distance tables held to `budget` bytes.
    pub fn new(grid: &Grid, budget: usize, seed: u64) -> CrowdPlanner {
        CrowdPlanner {
            grid: grid.clone(),
            rule: StepRule::new(grid, Connectivity::Four, StepOptions::default()),
            dist: DistCache::new(grid, budget),
            rng: SplitMix64::seed_from_u64(seed),
            age: GoalAge::default(),
            tie: Vec::new(),
            slot: Vec::new(),
            cur: Vec::new(),
            order: Vec::new(),
            entering: vec![NONE; grid.len()],
            intent: Vec::new(),
        }
    }

    /// Updates priorities and distance slots for this step's goals.
    fn prepare(&mut self, states: &[State], goals: &[Option<u32>]) {
        let n = states.len();
        if self.tie.len() != n {
            self.tie = (0..n).map(|_| self.rng.next_u32()).collect();
            self.slot = vec![NONE; n];
            self.intent = vec![NONE; n];
        }
        self.dist.begin_step();
        for (a, &goal) in goals.iter().enumerate() {
            self.slot[a] = goal.map_or(NONE, |g| self.dist.slot(g));
        }
        self.cur.clear();
        self.cur.extend(states.iter().map(|s| s.cell));
        self.order.clear();
        self.order.extend(0..n as u32);
        let (waited, tie) = (self.age.count(goals), &self.tie);
        self.order
            .sort_unstable_by_key(|&a| std::cmp::Reverse((waited[a as usize], tie[a as usize])));
    }

    /// A robot's distance to its goal from `cell` (`FAR` when it has none or cannot reach).
    fn d(&self, agent: usize, cell: u32) -> u16 {
        match self.slot[agent] {
            NONE => FAR,
            s => self.dist.get(s, cell),
        }
    }

    /// The facing toward `agent`'s best neighbouring cell, when that cell is nearer its goal.
    fn best_facing(&self, agent: usize, s: State) -> Option<u8> {
        let (w, len) = (self.grid.width(), self.grid.len() as u32);
        let here = self.d(agent, s.cell);
        (0..4u8)
            .filter_map(|f| {
                ahead(s.cell, f, w, len).map(|c| (self.d(agent, c), turns(s.facing, f), f))
            })
            .filter(|&(d, _, _)| d < here)
            .min()
            .map(|(_, _, f)| f)
    }

    /// Turns the step rule's next cells into actions; forward moves into a cell whose robot
    /// does not leave are cancelled, back along the chain.
    fn actions_from(&mut self, states: &[State], next: &[u32], actions: &mut Vec<Action>) {
        let w = self.grid.width();
        actions.clear();
        for (a, (&s, &to)) in states.iter().zip(next).enumerate() {
            self.intent[a] = NONE;
            let act = if to == s.cell {
                match self.best_facing(a, s).filter(|_| PRE_TURN) {
                    Some(f) if f != s.facing => turn_toward(s.facing, f),
                    _ => Action::Wait,
                }
            } else {
                let f = facing_to(s.cell, to, w);
                if f == s.facing {
                    self.entering[to as usize] = a as u32;
                    Action::Forward
                } else {
                    self.intent[a] = to;
                    turn_toward(s.facing, f)
                }
            };
            actions.push(act);
        }
        // Robots that stay: whoever meant to enter their cell stays too, and so on back.
        let mut stack: Vec<u32> = (0..states.len() as u32)
            .filter(|&a| actions[a as usize] != Action::Forward)
            .collect();
        while let Some(b) = stack.pop() {
            let cell = states[b as usize].cell as usize;
            let a = self.entering[cell];
            if a != NONE && actions[a as usize] == Action::Forward {
                actions[a as usize] = Action::Wait;
                stack.push(a);
            }
        }
        for (&s, &to) in states.iter().zip(next) {
            if to != s.cell {
                self.entering[to as usize] = NONE;
            }
        }
    }
}

impl Planner for CrowdPlanner {
    fn plan(&mut self, states: &[State], goals: &[Option<u32>], actions: &mut Vec<Action>) {
        self.prepare(states, goals);
        let (w, len) = (self.grid.width(), self.grid.len() as u32);
        let (slot, dist, intent) = (&self.slot, &self.dist, &self.intent);
        let guidance = |a: usize, c: usize| -> u64 {
            let s = states[a];
            if slot[a] == NONE {
                return u64::from(c as u32 != s.cell);
            }
            let d = dist.get(slot[a], c as u32);
            let c = c as u32;
            if d == FAR {
                return u64::MAX;
            }
            let base = 4 * u64::from(d);
            if c == s.cell {
                return base + 1;
            }
            let f = facing_to(s.cell, c, w);
            if intent[a] == c {
                base.saturating_sub(STICKY)
            } else if ahead(s.cell, f, w, len) == Some(c) {
                base + 2 * turns(s.facing, f)
            } else {
                base
            }
        };
        let next = self
            .rule
            .step(
                &self.grid,
                &self.cur,
                &self.order,
                None,
                &guidance,
                &mut self.rng,
            )
            .map(<[u32]>::to_vec);
        match next {
            Ok(next) => self.actions_from(states, &next, actions),
            Err(_) => {
                actions.clear();
                actions.resize(states.len(), Action::Wait);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_train_follows_and_a_blocked_chain_waits() {
        // A 4 × 1 corridor: robots at 0 and 1 face East, goal of both at the far end.
        let grid = Grid::new(4, 1).unwrap();
        let mut p = CrowdPlanner::new(&grid, 1 << 20, 1);
        let states = [State { cell: 0, facing: 0 }, State { cell: 1, facing: 0 }];
        let mut actions = Vec::new();
        p.plan(&states, &[Some(3), Some(3)], &mut actions);
        assert_eq!(actions, [Action::Forward, Action::Forward]);
        // The front robot faces West: it turns, so the one behind cannot follow.
        let states = [State { cell: 0, facing: 0 }, State { cell: 1, facing: 2 }];
        p.plan(&states, &[Some(3), Some(3)], &mut actions);
        assert_eq!(actions[0], Action::Wait);
        assert!(matches!(
            actions[1],
            Action::Clockwise | Action::CounterClockwise
        ));
    }
}
