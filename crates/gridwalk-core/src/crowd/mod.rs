//! The crowd's step rule, [`StepRule`]: PIBT (priority inheritance with backtracking, Okumura
//! et al., IJCAI 2019 and AIJ 2022) with trap handling for corridors and dead ends, shared by the
//! MAPF solver ([`crate::mapf`], as LaCAM's successor generator) and by a simulation's
//! crowd mode. Its options are [`StepOptions`]; an agent's cost-to-goal that ranks its cells is
//! its *guidance* ([`Guidance`]).
//!
//! One call of [`StepRule::step`] moves every agent to a neighbour or keeps it where it is, so that
//! after the step:
//! - no two agents stand on one cell;
//! - no two agents swap cells;
//! - with eight moves, no two agents make crossing diagonal moves in one 2×2 block (and no
//!   diagonal cuts a wall corner, the grid's own move rule).
//!
//! The caller gives the priorities (an order of agents, highest first), the guidance (a
//! [`Guidance`]: each agent's cost-to-goal from a cell), a random generator for ties, and
//! optionally constraints (some agents' next cells fixed in advance, as LaCAM asks).
//!
//! **The rule.** Agents decide in priority order. An agent tries its candidate cells (its own
//! and its neighbours) best first by its guidance; a cell another agent now stands on is taken
//! only if that agent, inheriting the priority, can move away first, and a failed chain
//! backtracks to the next candidate. Among cells of equal cost, a pushed agent prefers those not
//! ahead of its pusher (closer to the pusher's goal), then free ones, then the generator's
//! draw. The chain is walked with an explicit stack, not by recursion, so 10,000 agents in one
//! chain cannot overflow a thread's stack; each agent is decided once per step, and tries at
//! most nine cells, so a step costs O(agents × 9) beyond the guidance and the trap checks.
//!
//! **Trap handling** ([`StepOptions::traps`]). Plain PIBT can leave two agents oscillating for
//! ever where one must pass the other in a 1-wide corridor: the one in front is pushed on by
//! the one behind, then comes back and pushes it back. Being pushed on *traps* an agent when the
//! walk along its pusher's way finds no cell to step aside before a dead end, or before the
//! pusher stops on its goal with the pushed agent beyond it and its own goal behind. Trap
//! handling makes two moves:
//! - *the pass* (the idea of lacam3's swap, our own rule): when an agent's best cell holds an
//!   agent that pushing would trap, and it can retreat to a branching cell, the agent retreats
//!   instead, taking its candidates worst first, and pulls the other into its cell;
//! - *the step aside*: a pushed agent puts last the cells ahead of its pusher where it would be
//!   trapped, so at a branching cell it leaves the way free instead of running in front.
//!
//! The walks stop after a fixed number of cells, so they keep a step's cost per agent bounded.
//!
//! **Memory.** Guidance lives in large tables (a planner or a distance table per goal), and an
//! agent's first read of its own misses the caches and the TLB. While one agent decides, the
//! step asks the guidance ([`Guidance::prefetch`]) to start loading the values of the agents a
//! few places on in the order, so their misses overlap the decisions before them.
//!
//! [`StepRule::report`] tells what the step did: who waited, who was pushed or pulled, and for
//! each agent its candidates in the order tried and the chain of pushes that moved it.
//!
//! **One PIBT.** The decision itself (occupancy now and next, the stack of pushes, staying and
//! pulling, each agent's [`Outcome`]) is the core's (`crowd/core.rs`); the step rule is a move model of
//! it, as are LaCAM's swap generator for dense instances and [`RotationStep`], PIBT for robots
//! that face a direction and turn (LoRR's `MAPF_T`, actions [`Action`], guidance over
//! (cell, facing) by [`RotationGuidance`], exact tables in
//! [`RotationTables`](crate::mapf::RotationTables)).
//!
//! **Operations.** For the same robots, [`OperationStep`] is PIBT over 3-step *operations*
//! with a reservation over the window and undoable pushes (`crowd/operations.rs`), its own
//! search beside the core: the lifelong track's best planner and a simulation's step under
//! rotation.

pub(crate) mod core;
mod operations;
pub(crate) mod par;
mod pibt;
mod rotation;
mod traps;

pub use core::Outcome;
pub use operations::{
    COMMIT_DENSITY, DEFAULT_STEP_WORK, DEPTH, LATE_WORK, MAX_PUSH_DEPTH, Operation, OperationStep,
    Shape, TOP_WORK, operations, shape,
};
pub use pibt::{StepError, StepReport, StepRule};
pub(crate) use rotation::ahead;
pub use rotation::{Action, RotationGuidance, RotationStep};

/// No agent or no cell: the "none" value of the step rule's flat arrays, and of the MAPF
/// solver's.
pub const NONE: u32 = u32::MAX;

/// An agent's guidance: its cost to its goal from a cell.
///
/// The step rule orders an agent's candidate cells by these values, so they should be the
/// true cost-to-goal ignoring agents, in any unit as long as one agent's values compare: moves
/// for the MAPF track, the planners' fixed-point costs for a simulation. [`u64::MAX`] means the goal cannot be
/// reached from the cell.
pub trait Guidance {
    /// The cost for `agent` to reach its goal from the cell with flat index `cell`.
    fn distance(&self, agent: usize, cell: usize) -> u64;

    /// A hint that [`distance`](Self::distance) of `agent` at `cell` (a cell of the grid, maybe
    /// a wall) will be asked soon, in two stages: 0 well ahead, 1 nearer the read (for values
    /// behind an index: read the index then, and start loading the value). Does nothing by
    /// default; it must not change any answer.
    #[inline]
    fn prefetch(&self, agent: usize, cell: usize, stage: u8) {
        let _ = (agent, cell, stage);
    }
}

/// How many places ahead a pass over agents asks for stage 1 of their loads
/// ([`Guidance::prefetch`]); stage 0 goes twice as far.
pub(crate) const PREFETCH_AHEAD: usize = 16;

/// At place `k` of a pass over `len` agents, `hint(j, stage)` for the places whose loads start
/// now: `k + 2 × PREFETCH_AHEAD` at stage 0, then `k + PREFETCH_AHEAD` at stage 1.
#[inline(always)]
pub(crate) fn hint_ahead(k: usize, len: usize, mut hint: impl FnMut(usize, u8)) {
    if k + 2 * PREFETCH_AHEAD < len {
        hint(k + 2 * PREFETCH_AHEAD, 0);
    }
    if k + PREFETCH_AHEAD < len {
        hint(k + PREFETCH_AHEAD, 1);
    }
}

impl<F: Fn(usize, usize) -> u64> Guidance for F {
    fn distance(&self, agent: usize, cell: usize) -> u64 {
        self(agent, cell)
    }
}

/// The step rule's options: which additions to plain PIBT a step uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepOptions {
    /// Trap handling: the pass and the step aside (see the module doc). Off, the step is
    /// plain PIBT (with its cheap tie-breaks).
    pub traps: bool,
}

impl Default for StepOptions {
    /// The full rule, traps handled.
    fn default() -> Self {
        StepOptions { traps: true }
    }
}

impl StepOptions {
    /// Plain PIBT, as published: no trap handling.
    pub const PLAIN: StepOptions = StepOptions { traps: false };
}
