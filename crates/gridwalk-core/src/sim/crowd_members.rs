//! Each agent as crowd mode sees it ([`Member`]), and the order in which the crowd's step
//! takes the agents ([`ordered_by`]).

use super::agents::{AgentCells, AgentId};
use crate::cost::Cost;
use crate::planner::GoalPlanner;

/// One agent as the crowd sees it: the tick its current leg began (it appeared, or drew this
/// goal), the leg's lower bound in moves, its goal when the leg began, its tie-break among
/// equal priorities, whether it arrived on this leg already (a stay agent pushed off its goal
/// and back counts once), its best cost to the goal this leg, and the ticks since that last
/// improved.
#[derive(Clone, Copy, Debug)]
#[rustfmt::skip]
pub(super) struct Member {
    pub(super) leg_start: u64, pub(super) leg_lb: u64, pub(super) goal: u32, pub(super) tie: u64,
    pub(super) arrived: bool, pub(super) best: Cost, pub(super) since_better: u32,
}

impl Member {
    /// A member whose leg to `goal` begins at `tick`, `lb` moves at the fewest; its tie-break
    /// not drawn yet (0).
    pub(super) fn new(goal: u32, tick: u64, lb: u64) -> Member {
        Member {
            leg_start: tick,
            leg_lb: lb,
            goal,
            tie: 0,
            arrived: false,
            best: crate::cost::INFINITY,
            since_better: 0,
        }
    }
}

/// An agent's place in the step's order: guided agents first, then those waiting for a plan,
/// then arrived ones; within a class, most ticks since the leg began first, then the tie-break.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Priority {
    class: u8,
    /// `u64::MAX` less how long the agent has waited: the longest waiting sort first.
    fresh: u64,
    tie: u64,
    agent: u32,
}

/// The agents in priority order, highest first ([`Priority`]), `urgency` telling how long
/// each has waited.
pub(super) fn ordered_by(
    members: &[(AgentId, Member)],
    planners: &[Option<&dyn GoalPlanner>],
    places: &[AgentCells],
    urgency: impl Fn(&Member) -> u64,
) -> Vec<u32> {
    let mut order: Vec<Priority> = (members.iter().zip(planners).zip(places))
        .enumerate()
        .map(|(i, (((_, m), planner), p))| Priority {
            class: match (planner.is_some(), p.cell == p.goal) {
                (_, true) => 2,
                (true, false) => 0,
                (false, false) => 1,
            },
            fresh: u64::MAX - urgency(m),
            tie: m.tie,
            agent: i as u32,
        })
        .collect();
    order.sort_unstable();
    order.into_iter().map(|o| o.agent).collect()
}
