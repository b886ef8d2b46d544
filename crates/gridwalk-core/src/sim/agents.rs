//! The agents part of a [`Simulation`](super::Simulation): every agent in a slab by id, with
//! the per-cell counts that make an edit's check O(1), the arrivals found while moving, and in
//! crowd mode the agents waiting to enter (their start was taken).
//!
//! Invariants, after every public call of the simulation:
//! - ids only grow ([`Agents::next_id`] is above every id held), so the slab stays in id order;
//! - each agent's [`AgentCells`] holds the flat indices of its `pos` and `goal`;
//! - `occupied[c]` is the number of agents on cell `c` (written only here: a move goes
//!   through [`Occupancy::shift`]), and `goals[c]` the number heading to it;
//! - an agent waiting to enter ([`Entering`]) holds an id but is not in the slab, and counts
//!   on no cell;
//! - `new_goals` lists (with repeats) every goal cell whose count rose from 0 since the last
//!   replan, unless `rescan_goals` asks the replan to look at every agent's goal.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use super::id::AgentId;

use super::error::SimError;
use super::living::OnArrival;
use super::separate::separate;
use crate::cost::Cost;
use crate::grid::{Connectivity, Facing, Grid, Pos};
use crate::slab::{HasId, Slab};

/// What an agent is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AgentStatus {
    /// It has a path and moves along it.
    Walking,
    /// It stands on its goal.
    Arrived,
    /// Its goal is unreachable; it waits until a path opens.
    NoPath,
    /// Its plan is not ready: the tick's planning budget ran out before its planner's search
    /// ended (see [`Budget`](super::budget::Budget)). It waits on its cell.
    Planning,
    /// Crowd mode: another agent stands on its goal, and it waits near it.
    Waiting,
    /// Crowd mode: it has not come closer to its goal for
    /// [`STUCK_TICKS`](super::STUCK_TICKS) ticks.
    Stuck,
}

impl AgentStatus {
    /// `walking`, `arrived`, `no_path`, `planning`, `waiting` or `stuck`, as the CLI prints
    /// it.
    pub fn name(self) -> &'static str {
        match self {
            AgentStatus::Walking => "walking",
            AgentStatus::Arrived => "arrived",
            AgentStatus::NoPath => "no_path",
            AgentStatus::Planning => "planning",
            AgentStatus::Waiting => "waiting",
            AgentStatus::Stuck => "stuck",
        }
    }
}

/// How an agent behaves beyond its start and goal
/// ([`Simulation::add_agent_setup`](super::Simulation::add_agent_setup)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// What it does on arrival.
    pub on_arrival: OnArrival,
    /// Where it faces at first; it turns only while agents turn.
    pub facing: Facing,
    /// The cells a patrol visits after its goal, in turn, before its goal again; empty: it
    /// patrols between its start and its goal. Cells that are walls when their turn comes are
    /// passed over.
    pub route: Arc<[Pos]>,
}

/// One agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agent {
    /// Its identifier.
    pub id: AgentId,
    /// The cell it stands on.
    pub pos: Pos,
    /// The cell it walks to.
    pub goal: Pos,
    /// What it is doing.
    pub status: AgentStatus,
    /// Cost of its current path from `pos` to `goal`; `None` when it has none.
    pub remaining: Option<Cost>,
    /// The cell it moves to next, if it has a path and has not arrived: set by a replan and
    /// cleared by the move, so `None` between ticks
    /// ([`Simulation::next_cell`](super::Simulation::next_cell) holds the plan's next cell then).
    pub next: Option<Pos>,
    /// The cost of the move to `next`, as planned: the move takes it unless the map changed.
    pub(super) step_cost: Cost,
    /// What it does on arrival.
    pub on_arrival: OnArrival,
    /// Where it appeared: a patrol's other end.
    pub home: Pos,
    /// The goal it was given first: a patrol's far end.
    pub away: Pos,
    /// A patrol's cells after `away` ([`Setup::route`]).
    pub route: Arc<[Pos]>,
    /// Which of `away` (0) and the route's cells (1 on) it heads to, on a route.
    pub(super) leg: u32,
    /// The direction it faces. It turns only while agents turn
    /// ([`SimConfig::turns`](super::SimConfig::turns)).
    pub facing: Facing,
    /// Flat index of `next`, while it is set.
    pub(super) next_cell: u32,
    /// `remaining` is its planner's `g` of its cell as of the last replan: it took the
    /// planned step, whose cost is the difference of the two cells' `g`.
    pub(super) carried: bool,
}

impl Agent {
    /// Where a patrol heads once it reaches its goal: the next cell of its route that is
    /// passable on `grid`, or its other end on a patrol without a route. `None` for an agent
    /// that does not patrol, or whose route has no other passable cell.
    pub fn goal_after(&self, grid: &Grid) -> Option<Pos> {
        match self.on_arrival {
            OnArrival::Patrol if self.route.is_empty() => Some(if self.goal == self.away {
                self.home
            } else {
                self.away
            }),
            OnArrival::Patrol => self.leg_after(grid).map(|(_, cell)| cell),
            OnArrival::Stay | OnArrival::Wander => None,
        }
    }

    /// The leg after the current one on its route, and its cell: the route's cells after
    /// `away` in turn, round again, passing over cells that are walls on `grid`.
    pub(super) fn leg_after(&self, grid: &Grid) -> Option<(u32, Pos)> {
        let n = self.route.len() as u32 + 1;
        let cell = |leg: u32| {
            if leg == 0 {
                self.away
            } else {
                self.route[leg as usize - 1]
            }
        };
        (1..n)
            .map(|k| (self.leg + k) % n)
            .map(|leg| (leg, cell(leg)))
            .find(|&(_, p)| grid.is_passable(p))
    }
}

impl HasId for Agent {
    fn id(&self) -> u32 {
        self.id
    }
}

/// Flat indices of an agent's `pos` and `goal`, kept beside it in the [`Slab`]: what the
/// per-tick loops read for every agent, 8 bytes each, without a multiply or a bounds check.
#[derive(Clone, Copy, Debug)]
pub(super) struct AgentCells {
    pub(super) cell: u32,
    pub(super) goal: u32,
}

/// Agents standing on each cell: read as a slice; written by the agents' own methods and
/// by [`shift`](Self::shift), the one way a move changes it.
#[derive(Default)]
pub(super) struct Occupancy(Vec<u32>);

impl std::ops::Deref for Occupancy {
    type Target = [u32];

    #[inline(always)]
    fn deref(&self) -> &[u32] {
        &self.0
    }
}

impl Occupancy {
    /// `n` agents move from cell `from` to cell `to`.
    #[inline(always)]
    pub(super) fn shift(&mut self, from: usize, to: usize, n: u32) {
        self.0[from] -= n;
        self.0[to] += n;
    }
}

/// An agent waiting to enter (crowd mode: its start was taken when it was added): it enters
/// under its id as soon as its start is free.
#[derive(Clone, Debug)]
pub(super) struct Entering {
    pub(super) id: AgentId,
    /// Its start, and the start's cell.
    pub(super) start: (Pos, usize),
    /// Its goal, and the goal's cell.
    pub(super) goal: (Pos, usize),
    pub(super) setup: Setup,
}

/// Every agent, and per cell how many stand there and how many head there.
#[derive(Default)]
pub(super) struct Agents {
    /// The agents by id, each with its [`AgentCells`].
    pub(super) slab: Slab<Agent, AgentCells>,
    /// The id the next agent gets.
    pub(super) next_id: AgentId,
    /// Agents standing on each cell.
    pub(super) occupied: Occupancy,
    /// Agents heading to each cell.
    pub(super) goals: Vec<u32>,
    /// Goal cells whose count of agents rose from 0 since the last replan: the goals that may
    /// need a planner, so a replan need not look at every agent for new goals.
    pub(super) new_goals: Vec<usize>,
    /// Every agent's goal needs a planner again (the planners were dropped).
    pub(super) rescan_goals: bool,
    /// Agents on their goal with a wander or patrol policy, found while moving them.
    pub(super) arrived: Vec<AgentId>,
    /// Crowd mode: the agents waiting to enter, in id order.
    pub(super) entering: Vec<Entering>,
}

impl Agents {
    /// No agents on a map of `cells` cells.
    pub(super) fn new(cells: usize) -> Agents {
        Agents {
            occupied: Occupancy(vec![0; cells]),
            goals: vec![0; cells],
            ..Agents::default()
        }
    }

    /// Adds an agent on `start` (cell `s`) heading to `goal` (cell `g`); returns its id.
    pub(super) fn insert(
        &mut self,
        (start, s): (Pos, usize),
        (goal, g): (Pos, usize),
        setup: Setup,
    ) -> AgentId {
        let id = self.next_id;
        self.next_id += 1;
        self.insert_as(id, (start, s), (goal, g), setup);
        id
    }

    /// Adds an agent under `id`, an id taken earlier from `next_id` (crowd mode lets an agent
    /// whose start is taken enter later under the id it was given).
    pub(super) fn insert_as(
        &mut self,
        id: AgentId,
        (start, s): (Pos, usize),
        (goal, g): (Pos, usize),
        setup: Setup,
    ) {
        self.occupied.0[s] += 1;
        self.count_goal(g);
        let arrived = start == goal;
        let agent = Agent {
            id,
            pos: start,
            goal,
            status: match arrived {
                true => AgentStatus::Arrived,
                false => AgentStatus::Walking,
            },
            remaining: arrived.then_some(0),
            next: None,
            step_cost: 0,
            on_arrival: setup.on_arrival,
            home: start,
            away: goal,
            route: setup.route,
            leg: 0,
            next_cell: 0,
            carried: false,
            facing: setup.facing,
        };
        let place = AgentCells {
            cell: s as u32,
            goal: g as u32,
        };
        self.slab.insert(agent, place);
    }

    /// Removes agent `id` and its counts.
    pub(super) fn remove(&mut self, id: AgentId) -> Result<(Agent, AgentCells), SimError> {
        let (agent, place) = self.slab.remove(&id).ok_or(SimError::NoSuchAgent(id))?;
        self.occupied.0[place.cell as usize] -= 1;
        self.goals[place.goal as usize] -= 1;
        Ok((agent, place))
    }

    /// Removes every agent, those waiting to enter too.
    pub(super) fn clear(&mut self) {
        self.slab.clear();
        self.entering.clear();
        self.occupied.0.fill(0);
        self.goals.fill(0);
        self.new_goals.clear();
    }

    /// Every agent drops its planned step: the plans it came from are gone, and a step planned
    /// before an edit or a new connectivity may no longer be legal. They wait for the next
    /// replan.
    pub(super) fn forget_steps(&mut self) {
        for a in self.slab.as_mut_slices().0 {
            a.next = None;
            a.carried = false;
        }
    }

    /// Sends agent `id` to `goal` (cell `g`), unplanned. Returns its old goal, the old goal's
    /// cell and its own cell.
    #[inline]
    pub(super) fn retarget(
        &mut self,
        id: AgentId,
        (goal, g): (Pos, usize),
    ) -> Result<(Pos, usize, usize), SimError> {
        let (agent, place) = self
            .slab
            .get_both_mut(&id)
            .ok_or(SimError::NoSuchAgent(id))?;
        let old = std::mem::replace(&mut agent.goal, goal);
        let old_cell = std::mem::replace(&mut place.goal, g as u32) as usize;
        let cell = place.cell as usize;
        agent.status = match agent.pos == goal {
            true => AgentStatus::Arrived,
            false => AgentStatus::Walking,
        };
        agent.remaining = (agent.pos == goal).then_some(0);
        agent.next = None;
        agent.carried = false;
        self.goals[old_cell] -= 1;
        self.count_goal(g);
        Ok((old, old_cell, cell))
    }

    /// One more agent heads to goal cell `g`; a goal new to the agents is listed for a planner.
    fn count_goal(&mut self, g: usize) {
        if self.goals[g] == 0 {
            self.new_goals.push(g);
        }
        self.goals[g] += 1;
    }

    /// An agent that waits to enter (its start `start` is taken): it gets its id now and
    /// enters under it when [`admit`](Self::admit) finds its start free.
    pub(super) fn wait_to_enter(
        &mut self,
        start: (Pos, usize),
        goal: (Pos, usize),
        setup: Setup,
    ) -> AgentId {
        let id = self.next_id;
        self.next_id += 1;
        let entering = Entering {
            id,
            start,
            goal,
            setup,
        };
        self.entering.push(entering);
        id
    }

    /// Forgets agent `id` if it waits to enter; returns whether it did.
    pub(super) fn remove_entering(&mut self, id: AgentId) -> bool {
        let at = self.entering.iter().position(|e| e.id == id);
        at.map(|i| self.entering.remove(i)).is_some()
    }

    /// Lets in, in id order, the agents waiting to enter whose start is free (nobody on it
    /// and `passable`), or all of them with `all`; `entered(start, goal)` learns the cells of
    /// each.
    pub(super) fn admit(
        &mut self,
        all: bool,
        passable: impl Fn(usize) -> bool,
        mut entered: impl FnMut(usize, usize),
    ) {
        if self.entering.is_empty() {
            return;
        }
        let mut waiting = std::mem::take(&mut self.entering);
        waiting.retain(|e| {
            let free = all || (self.occupied[e.start.1] == 0 && passable(e.start.1));
            if free {
                self.insert_as(e.id, e.start, e.goal, e.setup.clone());
                entered(e.start.1, e.goal.1);
            }
            !free
        });
        self.entering = waiting;
    }

    /// Why an edit of `pos` (cell `i`) would be refused, if it would. O(1) when it is not: the
    /// per-cell counts say so; only a refusal looks up which agent. The starts and goals of
    /// the agents waiting to enter are refused too (a scan of them).
    pub(super) fn check_edit(&self, pos: Pos, i: usize) -> Result<(), SimError> {
        if self.occupied[i] > 0
            && let Some(a) = self.slab.values().find(|a| a.pos == pos)
        {
            return Err(SimError::HoldsAgent { pos, agent: a.id });
        }
        if self.goals[i] > 0
            && let Some(a) = self.slab.values().find(|a| a.goal == pos)
        {
            return Err(SimError::IsGoal { pos, agent: a.id });
        }
        for e in &self.entering {
            if e.start.1 == i {
                return Err(SimError::Entering { pos, agent: e.id });
            }
            if e.goal.1 == i {
                return Err(SimError::IsGoal { pos, agent: e.id });
            }
        }
        Ok(())
    }

    /// Agents that share a cell are spread by [`separate`] on `grid` (the true map): all
    /// but the first (by id) of a cell go to the nearest free cells, and drop their planned
    /// step. A cell that nobody shares costs a read of its count.
    pub(super) fn separate(&mut self, grid: &Grid, conn: Connectivity) {
        let occupied = &self.occupied;
        if self
            .slab
            .hot()
            .iter()
            .all(|p| occupied[p.cell as usize] <= 1)
        {
            return;
        }
        let mut cells: Vec<Pos> = self.slab.values().map(|a| a.pos).collect();
        separate(grid, conn, cells.iter_mut());
        let (agents, places) = self.slab.as_mut_slices();
        for ((a, p), &to) in agents.iter_mut().zip(places).zip(&cells) {
            if to != a.pos
                && let Ok(to_cell) = grid.index(to)
            {
                self.occupied.shift(p.cell as usize, to_cell, 1);
                p.cell = to_cell as u32;
                a.pos = to;
                a.next = None;
            }
        }
    }
}

/// Sets status, remaining and next from the planner's answer `(cost, next cell, its index,
/// step cost)`.
#[inline(always)]
pub(super) fn settle(a: &mut Agent, answer: impl FnOnce() -> Option<(Cost, Pos, u32, Cost)>) {
    if a.pos == a.goal {
        a.status = AgentStatus::Arrived;
        a.remaining = Some(0);
        a.next = None;
        return;
    }
    match answer() {
        Some((cost, next, next_cell, step)) => {
            a.status = AgentStatus::Walking;
            a.remaining = Some(cost);
            a.next = Some(next);
            a.next_cell = next_cell;
            a.step_cost = step;
        }
        None => {
            a.status = AgentStatus::NoPath;
            a.remaining = None;
            a.next = None;
        }
    }
}

/// Agent `a`, off its goal, waits on its cell for its plan ([`AgentStatus::Planning`]).
#[inline]
pub(super) fn wait(a: &mut Agent) {
    a.status = AgentStatus::Planning;
    a.remaining = None;
    a.next = None;
    a.carried = false;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(on_arrival: OnArrival) -> Setup {
        Setup {
            on_arrival,
            ..Setup::default()
        }
    }

    /// The counts, recomputed from the slab.
    fn recount(agents: &Agents) -> (Vec<u32>, Vec<u32>) {
        let (mut occupied, mut goals) =
            (vec![0; agents.occupied.len()], vec![0; agents.goals.len()]);
        for p in agents.slab.hot() {
            occupied[p.cell as usize] += 1;
            goals[p.goal as usize] += 1;
        }
        (occupied, goals)
    }

    #[test]
    fn counts_follow_inserts_retargets_and_removals() {
        let mut agents = Agents::new(10);
        let at = |i: u32| (Pos::new(i, 0), i as usize);
        let a = agents.insert(at(1), at(5), setup(OnArrival::Stay));
        let b = agents.insert(at(1), at(5), setup(OnArrival::Wander));
        let c = agents.insert(at(7), at(7), setup(OnArrival::Stay));
        assert_eq!((a, b, c), (0, 1, 2), "ids in order of creation");
        assert_eq!(agents.new_goals, vec![5, 7], "a goal is new once");
        assert_eq!(agents.slab.get(&c).unwrap().status, AgentStatus::Arrived);
        assert_eq!(
            recount(&agents),
            (agents.occupied.to_vec(), agents.goals.clone())
        );
        assert_eq!(agents.retarget(b, at(9)).unwrap(), (Pos::new(5, 0), 5, 1));
        assert_eq!(agents.new_goals, vec![5, 7, 9]);
        agents.remove(a).unwrap();
        assert_eq!(agents.remove(a).unwrap_err(), SimError::NoSuchAgent(a));
        assert_eq!(
            recount(&agents),
            (agents.occupied.to_vec(), agents.goals.clone())
        );
        assert_eq!(agents.goals[5], 0);
        agents.clear();
        assert!(agents.occupied.iter().chain(&agents.goals).all(|&n| n == 0));
    }

    #[test]
    fn an_edit_under_an_agent_or_on_a_goal_is_refused() {
        let mut agents = Agents::new(10);
        let id = agents.insert(
            (Pos::new(2, 0), 2),
            (Pos::new(4, 0), 4),
            setup(OnArrival::Stay),
        );
        let holds = agents.check_edit(Pos::new(2, 0), 2);
        assert_eq!(
            holds,
            Err(SimError::HoldsAgent {
                pos: Pos::new(2, 0),
                agent: id
            })
        );
        let goal = agents.check_edit(Pos::new(4, 0), 4);
        assert_eq!(
            goal,
            Err(SimError::IsGoal {
                pos: Pos::new(4, 0),
                agent: id
            })
        );
        assert_eq!(agents.check_edit(Pos::new(3, 0), 3), Ok(()));
    }

    #[test]
    fn settling_reads_the_answer_unless_on_the_goal() {
        let mut agents = Agents::new(10);
        let id = agents.insert(
            (Pos::new(2, 0), 2),
            (Pos::new(4, 0), 4),
            setup(OnArrival::Stay),
        );
        let a = agents.slab.get_mut(&id).unwrap();
        settle(a, || Some((20, Pos::new(3, 0), 3, 10)));
        assert_eq!(
            (a.status, a.remaining, a.next),
            (AgentStatus::Walking, Some(20), Some(Pos::new(3, 0)))
        );
        settle(a, || None);
        assert_eq!(
            (a.status, a.remaining, a.next),
            (AgentStatus::NoPath, None, None)
        );
        a.pos = a.goal;
        settle(a, || unreachable!("an agent on its goal asks nothing"));
        assert_eq!((a.status, a.remaining), (AgentStatus::Arrived, Some(0)));
    }
}
