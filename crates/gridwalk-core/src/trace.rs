//! Recorded search work: one format for every search, read by `gridwalk-cli simulate --trace`
//! and replayed step by step by the game's explain mode.
//!
//! A [`Trace`] holds the cells queued when a search (or a repair) began and every step it
//! took, in order: a cell entering the queue or changing its key there ([`Step::Open`]),
//! leaving it unexpanded ([`Step::Drop`]), or being expanded ([`Step::Expand`]). Each
//! expansion says what it did to the cell:
//!
//! - D\* Lite: [`ExpansionKind::Lower`] when an over-consistent cell's g is set to its rhs
//!   (the cost is that g), [`ExpansionKind::Raise`] when an under-consistent cell's g is set to
//!   infinity (the cost is [`INFINITY`]).
//! - D\*: `Lower` or `Raise` by the cell's state when PROCESS-STATE removes it, with its h
//!   after processing.
//! - A\*, Dijkstra and greedy best-first: [`ExpansionKind::Close`], with the cell's cost from
//!   the search's start.
//!
//! Recording is off by default and costs a branch per queue operation when off.

use serde::{Deserialize, Serialize};

use crate::cost::{Cost, INFINITY};

/// What an expansion did to its cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ExpansionKind {
    /// Its cost went down to its final value (D\* Lite: g := rhs; D\*: a LOWER state).
    Lower,
    /// Its cost went up (D\* Lite: g := ∞; D\*: a RAISE state).
    Raise,
    /// A one-shot search closed it.
    Close,
}

impl ExpansionKind {
    /// `lower`, `raise` or `close`, as `--trace` prints it.
    pub fn name(self) -> &'static str {
        match self {
            ExpansionKind::Lower => "lower",
            ExpansionKind::Raise => "raise",
            ExpansionKind::Close => "close",
        }
    }
}

/// One expansion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Expansion {
    /// The cell's flat index.
    pub cell: u32,
    /// What happened to it.
    pub kind: ExpansionKind,
    /// The cost it was given; [`INFINITY`] when infinite (printed as `null`).
    pub cost: Cost,
}

impl Expansion {
    /// The cost, or `None` when infinite.
    pub fn finite_cost(&self) -> Option<Cost> {
        (self.cost != INFINITY).then_some(self.cost)
    }
}

/// One step of a search, in the order it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The cell entered the queue, or its key changed while queued.
    Open(u32),
    /// The cell left the queue without being expanded.
    Drop(u32),
    /// The cell was expanded; it is no longer queued unless a later `Open` says so.
    Expand(Expansion),
}

/// The most steps one recording holds: 2^24, a quarter of a GiB at 16 bytes a step. A search of every cell of a large map
/// takes more; its recording keeps the first ones and says it was cut ([`Trace::truncated`]).
pub const MAX_TRACE_STEPS: usize = 1 << 24;

/// The recording of one search or repair. See the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The cells queued when the search began. The incremental planners record it only once
    /// their compute takes a step, so it is empty for a compute that changed nothing.
    pub initial_open: Vec<u32>,
    /// Every step, in order (the first [`MAX_TRACE_STEPS`] when `truncated`).
    pub steps: Vec<Step>,
    /// Whether steps past [`MAX_TRACE_STEPS`] were left out.
    pub truncated: bool,
}

impl Trace {
    /// Forgets everything recorded, keeping the memory.
    pub fn clear(&mut self) {
        self.initial_open.clear();
        self.steps.clear();
        self.truncated = false;
    }

    /// Records `step`, unless [`MAX_TRACE_STEPS`] are held already: then it is marked
    /// [`truncated`](Self::truncated).
    #[inline]
    pub fn push(&mut self, step: Step) {
        if self.steps.len() < MAX_TRACE_STEPS {
            self.steps.push(step);
        } else {
            self.truncated = true;
        }
    }

    /// The expansions, in order.
    pub fn expansions(&self) -> impl Iterator<Item = &Expansion> + '_ {
        self.steps.iter().filter_map(|s| match s {
            Step::Expand(e) => Some(e),
            _ => None,
        })
    }

    /// How many cells were expanded.
    pub fn expansion_count(&self) -> usize {
        self.expansions().count()
    }

    /// Whether each of `cells` cells is queued after the first `steps` steps (all of them when
    /// `steps` is larger). Cells outside `0..cells` are ignored.
    pub fn frontier(&self, steps: usize, cells: usize) -> Vec<bool> {
        let mut queued = vec![false; cells];
        let mut set = |c: u32, on: bool| {
            if let Some(q) = queued.get_mut(c as usize) {
                *q = on;
            }
        };
        for &c in &self.initial_open {
            set(c, true);
        }
        for step in self.steps.iter().take(steps) {
            match *step {
                Step::Open(c) => set(c, true),
                Step::Drop(c) => set(c, false),
                Step::Expand(e) => set(e.cell, false),
            }
        }
        queued
    }
}

/// Where a planner records, when asked to.
#[derive(Clone, Debug, Default)]
pub(crate) struct Recorder {
    on: bool,
    /// The recording begun last still wants its queue.
    due: bool,
    trace: Trace,
}

impl Recorder {
    /// Turns recording on or off; off also forgets the last recording.
    pub(crate) fn set(&mut self, on: bool) {
        self.on = on;
        if !on {
            self.due = false;
            self.trace = Trace::default();
        }
    }

    /// Starts a new recording, whose queue [`snapshot`](Self::snapshot) takes before the first
    /// step: an incremental planner's compute often takes none, and copying its whole queue
    /// each time would be most of what recording costs a busy world.
    pub(crate) fn begin(&mut self) {
        self.trace.clear();
        self.due = self.on;
    }

    /// Records `initial_open` as the queue, if the recording begun last has none yet (nothing
    /// when off).
    #[inline]
    pub(crate) fn snapshot(&mut self, initial_open: impl FnOnce(&mut Vec<u32>)) {
        if self.due {
            self.due = false;
            initial_open(&mut self.trace.initial_open);
        }
    }

    /// Records a step if on.
    #[inline]
    pub(crate) fn step(&mut self, step: Step) {
        if self.on {
            self.trace.push(step);
        }
    }

    /// Where the next step will go, to [`patch_cost`](Self::patch_cost) it later.
    #[inline]
    pub(crate) fn mark(&self) -> usize {
        self.trace.steps.len()
    }

    /// Sets the cost of the expansion recorded at `at` (no-op when not recording).
    #[inline]
    pub(crate) fn patch_cost(&mut self, at: usize, cost: Cost) {
        if let Some(Step::Expand(e)) = self.trace.steps.get_mut(at) {
            e.cost = cost;
        }
    }

    /// The last recording.
    pub(crate) fn trace(&self) -> &Trace {
        &self.trace
    }

    /// The last recording, moved out; the recorder starts the next one from empty.
    pub(crate) fn take(&mut self) -> Trace {
        std::mem::take(&mut self.trace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recording_keeps_the_first_steps_and_says_it_was_cut() {
        assert_eq!(
            std::mem::size_of::<Step>(),
            16,
            "the limits' docs count 16 bytes a step"
        );
        let mut t = Trace::default();
        for c in 0..MAX_TRACE_STEPS as u32 {
            t.push(Step::Open(c));
        }
        assert!(!t.truncated);
        t.push(Step::Drop(7));
        assert!(t.truncated);
        assert_eq!(t.steps.len(), MAX_TRACE_STEPS);
        assert_eq!(
            t.steps.last(),
            Some(&Step::Open(MAX_TRACE_STEPS as u32 - 1))
        );
        t.clear();
        assert!(!t.truncated && t.steps.is_empty());
    }

    #[test]
    fn the_frontier_follows_the_steps() {
        let t = Trace {
            initial_open: vec![0, 1],
            steps: vec![
                Step::Expand(Expansion {
                    cell: 0,
                    kind: ExpansionKind::Lower,
                    cost: 0,
                }),
                Step::Open(2),
                Step::Drop(1),
                Step::Open(0),
            ],
            ..Trace::default()
        };
        assert_eq!(t.frontier(0, 3), vec![true, true, false]);
        assert_eq!(t.frontier(1, 3), vec![false, true, false]);
        assert_eq!(t.frontier(2, 3), vec![false, true, true]);
        assert_eq!(t.frontier(3, 3), vec![false, false, true]);
        assert_eq!(t.frontier(99, 3), vec![true, false, true]);
        assert_eq!(t.expansion_count(), 1);
    }
}
