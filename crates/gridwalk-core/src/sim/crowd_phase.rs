//! Crowd mode's data beside a [`Simulation`](super::Simulation): the step rule, its figures,
//! each agent as the crowd sees it (`crowd_members.rs`), and crowd mode's own planners.
//! [`CrowdPhase`] owns them; its parts, which plan and move, are in `crowd_step.rs`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::agents::AgentId;
use super::crowd_members::Member;
use super::crowd_search::CrowdSearch;
use super::crowd_turns::Turns;
use crate::crowd::{StepOptions, StepRule};
use crate::planner::GoalPlanner;
use crate::rng::{SeedableRng, SplitMix64};

/// Ticks without coming closer to its goal after which an agent is stuck.
pub const STUCK_TICKS: u32 = 100;

/// The crowd's own generator stream, apart from wander's and the dynamic world's.
pub(super) const CROWD_STREAM: u64 = 0x4352_4F57;

/// What crowd mode's move phase did: the last tick's figures and the run's totals, in
/// timesteps (every move, straight or diagonal, and every wait takes one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrowdStats {
    /// Agents off their goal that stayed on their cell this tick.
    pub waited: u32,
    /// Agents that moved because another pushed them (priority inheritance) this tick.
    pub pushed: u32,
    /// Agents stuck now ([`STUCK_TICKS`]).
    pub stuck: u32,
    /// Arrivals this tick.
    pub arrivals: u32,
    /// Arrivals since crowd mode came on.
    pub arrivals_total: u64,
    /// Timesteps agents spent on finished legs (appearing or a new goal, to arrival).
    pub soc: u64,
    /// The lower bound of `soc`: each finished leg's fewest moves on an empty map (Chebyshev
    /// distance with 8 moves, Manhattan with 4).
    pub soc_lb: u64,
    /// Wall-clock time of this tick's step rule, in nanoseconds: each agent's planner looked
    /// up, the priorities sorted and [`StepRule::step`](crate::crowd::StepRule::step). Not serialized.
    #[serde(skip)]
    pub step_nanos: u64,
    /// Whether the real-time search, not the step rule, moved the agents this tick, or held
    /// them still while it prepared its root (`crowd_search.rs`). Serialized only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub searched: bool,
    /// Configurations the real-time search keeps, while it moves the agents. Serialized only
    /// when not 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub configurations: u64,
    /// Tries the real-time search made this tick, at most the crowd's budget
    /// ([`Simulation::crowd_budget`](super::Simulation::crowd_budget)). Serialized only when
    /// not 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tries: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Crowd mode's phase: its data, which only its parts (the plan of its planners and the
/// move phase, in `crowd_step.rs`) touch.
pub(super) struct CrowdPhase {
    /// The step rule, sized to the map, and the options it was made with: trap handling for
    /// a one-shot crowd, plain PIBT for a lifelong one (see `crowd_step.rs`).
    pub(super) rule: Option<(StepRule, StepOptions)>,
    /// Tie-breaks: its own stream of the simulation's seed.
    pub(super) rng: SplitMix64,
    /// Each agent as the crowd sees it, by id, in id order (the agents' order at the last step).
    pub(super) members: Vec<(AgentId, Member)>,
    /// Crowd mode's own D\* Lite planners, by goal cell, for the algorithms whose planners
    /// do not make exact the cells around their agents
    /// ([`Algorithm::honours_exact`](crate::planner::Algorithm::honours_exact)).
    pub(super) own_planners: BTreeMap<usize, Box<dyn GoalPlanner>>,
    pub(super) stats: CrowdStats,
    /// The agents of the last step, in the step rule's order (by id), for explain.
    pub(super) last_ids: Vec<AgentId>,
    /// The real-time search that takes over from the step rule when the crowd stalls.
    pub(super) search: CrowdSearch,
    /// The rotation rule and its tables, while agents turn ([`SimConfig::rotation`](super::SimConfig)).
    pub(super) turns: Option<Turns>,
    /// The last step turned agents (the rotation rule moved them; explain has no candidates).
    pub(super) last_turned: bool,
}

impl CrowdPhase {
    pub(super) fn new(seed: u64) -> CrowdPhase {
        CrowdPhase {
            rule: None,
            rng: SplitMix64::seed_from_u64(seed ^ CROWD_STREAM),
            members: Vec::new(),
            own_planners: BTreeMap::new(),
            stats: CrowdStats::default(),
            last_ids: Vec::new(),
            search: CrowdSearch::new(seed),
            turns: None,
            last_turned: false,
        }
    }

    /// Bytes held: its own planners, and the step rule's per-cell arrays.
    pub(super) fn bytes(&self) -> usize {
        let planners: usize = self.own_planners.values().map(|g| g.memory_bytes()).sum();
        let cells = self.rule.as_ref().map_or(0, |(r, _)| r.memory_bytes());
        let search = self.search.bytes() + self.turns.as_ref().map_or(0, Turns::bytes);
        planners + cells + search + self.members.len() * std::mem::size_of::<(AgentId, Member)>()
    }
}
