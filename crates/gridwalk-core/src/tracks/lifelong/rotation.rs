//! [`RotationPibt`]: PIBT over (cell, facing) states, the lifelong runner's default planner.
//!
//! Each robot, highest priority first (the longest on its goal, ties by a fixed draw), picks
//! the best of its four actions by the cost to go of the state it leads to: forward into the
//! cell ahead, a quarter turn either way, or a wait. The cost to go of (cell, facing) is the
//! breadth-first distance of the cell plus the quarter turns the robot needs to face a
//! neighbour one move nearer (a lower bound on the exact rotation cost, equal to it on open
//! ground). A robot moving forward into a cell that another, undecided robot stands on pushes
//! it: the pushed robot inherits the priority and may only move forward too, out of the way;
//! if it cannot, it stays (turning if that helps it) and the pusher tries its next action.
//!
//! Every joint step is valid by LoRR's rules: each next cell is reserved by one robot, a
//! robot moves forward only onto free ground, and a pushed robot never moves into its
//! pusher's cell, so no two robots swap.

use crate::crowd::NONE;
use crate::grid::Grid;
use crate::rng::{Rng, SeedableRng, SplitMix64};

use super::dist::{DistCache, FAR};
use super::planner::{Planner, ahead};
use super::priority::GoalAge;
use super::{Action, State};

/// Steps without a forward move that add one to the cost of waiting.
const STUCK_STEPS: u32 = 2;

/// A robot's decision this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    Undecided,
    Chose(Action),
}

/// PIBT over rotation states (see the module doc), its buffers kept from step to step.
pub struct RotationPibt {
    width: u32,
    len: u32,
    free: Vec<bool>,
    dist: DistCache,
    rng: SplitMix64,
    age: GoalAge,
    /// Per robot: steps since it last moved forward; waiting costs more the longer it is,
    /// so a robot blocked for long turns to go round.
    stuck: Vec<u32>,
    tie: Vec<u32>,
    slot: Vec<u32>,
    order: Vec<u32>,
    decision: Vec<Decision>,
    /// Per cell: the robot on it now, or [`NONE`].
    occ_now: Vec<u32>,
    /// Per cell: the robot that will be on it after the step, or [`NONE`].
    occ_next: Vec<u32>,
}

/// Quarter turns between two facings: 0, 1 or 2.
fn turns(a: u8, b: u8) -> u64 {
    match (b + 4 - a) % 4 {
        0 => 0,
        2 => 2,
        _ => 1,
    }
}

impl RotationPibt {
    /// A planner for robots on `grid`, its distance tables held to `budget` bytes.
    pub fn new(grid: &Grid, budget: usize, seed: u64) -> RotationPibt {
        RotationPibt {
            width: grid.width(),
            len: grid.len() as u32,
            free: (0..grid.len()).map(|c| grid.weight(c) != 0).collect(),
            dist: DistCache::new(grid, budget),
            rng: SplitMix64::seed_from_u64(seed),
            age: GoalAge::default(),
            stuck: Vec::new(),
            tie: Vec::new(),
            slot: Vec::new(),
            order: Vec::new(),
            decision: Vec::new(),
            occ_now: vec![NONE; grid.len()],
            occ_next: vec![NONE; grid.len()],
        }
    }

    /// The cell ahead of `s` if it is free ground.
    fn forward(&self, s: State) -> Option<u32> {
        ahead(s.cell, s.facing, self.width, self.len).filter(|&c| self.free[c as usize])
    }

    /// Robot `a`'s cost to go from state `s` (see the module doc); `FAR`-based when it cannot
    /// reach its goal, 0 everywhere when it has none.
    fn cost_to_go(&self, a: usize, s: State) -> u64 {
        let slot = self.slot[a];
        if slot == NONE {
            return 0;
        }
        let dist = &self.dist;
        let d = dist.get(slot, s.cell);
        if d == FAR {
            return u64::from(FAR) * 4;
        }
        if d == 0 {
            return 0;
        }
        let need = (0..4u8)
            .filter(|&f| {
                ahead(s.cell, f, self.width, self.len).is_some_and(|c| dist.get(slot, c) < d)
            })
            .map(|f| turns(s.facing, f))
            .min()
            .unwrap_or(0);
        u64::from(d) + need
    }

    /// Robot `a`'s actions, best first: by the cost to go after them, forward first on ties,
    /// then a wait before a turn.
    fn ranked(&self, a: usize, s: State) -> [(u64, Action); 4] {
        let after = |act: Action| super::after(act, s, self.width, self.len);
        let mut ranked = [
            Action::Forward,
            Action::Wait,
            Action::Clockwise,
            Action::CounterClockwise,
        ]
        .map(|act| {
            let cost = match act {
                Action::Forward => self.forward(s).map(|cell| {
                    self.cost_to_go(
                        a,
                        State {
                            cell,
                            facing: s.facing,
                        },
                    )
                }),
                Action::Wait => {
                    Some(self.cost_to_go(a, s) + u64::from(self.stuck[a] / STUCK_STEPS))
                }
                _ => after(act).map(|n| self.cost_to_go(a, n)),
            };
            (cost.unwrap_or(u64::MAX), act)
        });
        ranked.sort_by_key(|&(c, act)| (c, act != Action::Forward, act != Action::Wait));
        ranked
    }

    /// Decides robot `a`; with `pusher`, `a` must leave its cell (forward) or fail. Returns
    /// whether `a` leaves its cell or, without a pusher, decided at all.
    fn decide(&mut self, a: usize, pusher: Option<usize>, states: &[State]) -> bool {
        let s = states[a];
        for (cost, act) in self.ranked(a, s) {
            if cost == u64::MAX {
                continue;
            }
            if act != Action::Forward {
                if pusher.is_some() {
                    continue;
                }
                self.decision[a] = Decision::Chose(act);
                self.occ_next[s.cell as usize] = a as u32;
                return true;
            }
            let Some(q) = self.forward(s) else { continue };
            if self.occ_next[q as usize] != NONE || pusher.is_some_and(|p| states[p].cell == q) {
                continue;
            }
            let j = self.occ_now[q as usize];
            if j != NONE && self.decision[j as usize] != Decision::Undecided {
                // Decided and still here: it stays (a robot that left would not be on occ_now's
                // cell unless it moved forward, and then `q` is being vacated).
                if self.decision[j as usize] != Decision::Chose(Action::Forward) {
                    continue;
                }
            }
            self.decision[a] = Decision::Chose(Action::Forward);
            self.occ_next[q as usize] = a as u32;
            if j != NONE
                && self.decision[j as usize] == Decision::Undecided
                && !self.decide(j as usize, Some(a), states)
            {
                self.occ_next[q as usize] = NONE;
                self.decision[a] = Decision::Undecided;
                continue;
            }
            return true;
        }
        if let Some(p) = pusher {
            // It cannot get out of the way now: it stays, turning toward a way out.
            let act = self.turn_aside(a, s, states[p].cell);
            self.decision[a] = Decision::Chose(act);
            self.occ_next[s.cell as usize] = a as u32;
        }
        false
    }

    /// The turn toward the best free neighbour of `s` other than `blocked`, the pusher's
    /// cell (nearest its goal, then fewest turns), so that next step it can leave; a wait if
    /// there is none or it already faces it.
    fn turn_aside(&self, a: usize, s: State, blocked: u32) -> Action {
        let best = (0..4u8)
            .filter_map(|f| {
                let c = ahead(s.cell, f, self.width, self.len)?;
                let open =
                    self.free[c as usize] && c != blocked && self.occ_now[c as usize] == NONE;
                open.then(|| {
                    (
                        self.cost_to_go(a, State { cell: c, facing: f }),
                        turns(s.facing, f),
                        f,
                    )
                })
            })
            .min();
        match best {
            Some((_, _, f)) if f == (s.facing + 1) % 4 || f == (s.facing + 2) % 4 => {
                Action::Clockwise
            }
            Some((_, _, f)) if f == (s.facing + 3) % 4 => Action::CounterClockwise,
            _ => Action::Wait,
        }
    }

    /// Priorities and distance tables for this step's goals.
    fn prepare(&mut self, states: &[State], goals: &[Option<u32>]) {
        let n = states.len();
        if self.tie.len() != n {
            self.stuck = vec![0; n];
            self.tie = (0..n).map(|_| self.rng.next_u32()).collect();
            self.slot = vec![NONE; n];
        }
        self.dist.begin_step();
        for (a, &goal) in goals.iter().enumerate() {
            self.slot[a] = goal.map_or(NONE, |g| self.dist.slot(g));
        }
        self.order.clear();
        self.order.extend(0..n as u32);
        let (waited, tie) = (self.age.count(goals), &self.tie);
        self.order
            .sort_unstable_by_key(|&a| std::cmp::Reverse((waited[a as usize], tie[a as usize])));
        self.decision.clear();
        self.decision.resize(n, Decision::Undecided);
        for (a, s) in states.iter().enumerate() {
            self.occ_now[s.cell as usize] = a as u32;
        }
    }
}

impl Planner for RotationPibt {
    fn plan(&mut self, states: &[State], goals: &[Option<u32>], actions: &mut Vec<Action>) {
        self.prepare(states, goals);
        for k in 0..self.order.len() {
            let a = self.order[k] as usize;
            if self.decision[a] == Decision::Undecided {
                self.decide(a, None, states);
            }
        }
        actions.clear();
        for (a, s) in states.iter().enumerate() {
            let act = match self.decision[a] {
                Decision::Chose(act) => act,
                Decision::Undecided => Action::Wait,
            };
            actions.push(act);
            self.stuck[a] = if act == Action::Forward {
                0
            } else {
                self.stuck[a].saturating_add(1)
            };
            self.occ_now[s.cell as usize] = NONE;
            let next = super::after(act, *s, self.width, self.len).unwrap_or(*s);
            self.occ_next[next.cell as usize] = NONE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_moves_the_robot_ahead_and_turns_wait() {
        // A 4 × 1 corridor, both robots facing East toward a goal at the far end.
        let grid = Grid::new(4, 1).unwrap();
        let mut p = RotationPibt::new(&grid, 1 << 20, 1);
        let s = |cell, facing| State { cell, facing };
        let mut actions = Vec::new();
        p.plan(&[s(0, 0), s(1, 0)], &[Some(3), Some(3)], &mut actions);
        assert_eq!(actions, [Action::Forward, Action::Forward]);
        // The robot in front faces West, its goal behind it: it turns, the other waits.
        p.plan(&[s(0, 0), s(1, 2)], &[Some(3), Some(3)], &mut actions);
        assert_eq!(actions[0], Action::Wait);
        assert!(matches!(
            actions[1],
            Action::Clockwise | Action::CounterClockwise
        ));
        // Head on, goals past each other: no swap.
        p.plan(&[s(1, 0), s(2, 2)], &[Some(3), Some(0)], &mut actions);
        assert!(!(actions[0] == Action::Forward && actions[1] == Action::Forward));
    }
}
