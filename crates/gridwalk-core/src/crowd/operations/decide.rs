//! The search of [`OperationStep`](super::OperationStep): robots decide in order, each
//! taking its best operation clear of the decided robots' and pushing the undecided ones on
//! its cells, and a robot held up yields to the robot in its way (see the module doc).

use super::rank::{Moves, Ranked};
use super::{Action, DEPTH, MAX_PUSH_DEPTH, Operation, Path, Search};
use crate::crowd::NONE;

/// Whether robot `a`'s best operation in `ranked` (of `ops`) moves forward.
pub(super) fn best_moves(ranked: &Ranked, ops: &[Operation], a: u32) -> bool {
    let k = ranked.start[a as usize] as usize;
    k < ranked.start[a as usize + 1] as usize
        && ops[ranked.cand[k] as usize].contains(&Action::Forward)
}

/// One step's decisions: the search and what it reads.
pub(super) struct Decider<'a> {
    pub(super) moves: &'a Moves,
    pub(super) ops: &'a [Operation],
    pub(super) ranked: &'a Ranked,
    pub(super) states: &'a [(u32, u8)],
    pub(super) s: &'a mut Search,
    /// The robots decided, in order: a failed operation undoes the ones after it.
    pub(super) log: Vec<u32>,
    /// Operations a top-level decision may still try, its pushes' included.
    pub(super) budget: usize,
    /// The robots yielded to this step.
    pub(super) yielded: Vec<u32>,
}

impl Decider<'_> {
    /// Decides robot `a`, which heads a chain of pushes, and every robot its pushes reach,
    /// trying at most `budget` operations; returns those it tried.
    pub(super) fn decide_top(&mut self, a: u32, budget: usize) -> usize {
        self.budget = budget;
        self.decide_or_stay(a);
        budget - self.budget
    }

    /// Decides robot `a` and the robots its pushes reach within the budget left; when
    /// nothing works it stays, the best way it can (always open to it, see the module
    /// doc).
    fn decide_or_stay(&mut self, a: u32) {
        if self.decide(a, 0) {
            return;
        }
        let st = self.states[a as usize];
        let r = self.ranked;
        let range = r.start[a as usize] as usize..r.start[a as usize + 1] as usize;
        let stays = range
            .map(|k| &self.ops[r.cand[k] as usize])
            .filter(|op| !op.contains(&Action::Forward))
            .chain([&[Action::Wait; DEPTH]]);
        for op in stays {
            if let Some(path) = self.moves.trace(st, op)
                && self.s.clear(a, &path)
            {
                self.s.hold(a, &path, op[0]);
                self.s.op[a as usize] = *op;
                self.log.push(a);
                return;
            }
        }
        // Only a later timestep of the window is taken: waiting keeps the first one valid.
        self.s.hold(a, &[st; DEPTH + 1], Action::Wait);
        self.s.op[a as usize] = [Action::Wait; DEPTH];
        self.log.push(a);
    }

    /// Decides robot `a` as [`decide_top`](Self::decide_top) does, but yields (see the module
    /// doc): if `a` would not move forward while an undecided robot stands on a cell of its
    /// best operation, that robot decides first, free to push `a`, then `a` if still
    /// undecided. Returns the operations tried.
    pub(super) fn decide_yielding(&mut self, a: u32, budget: usize) -> usize {
        let mark = self.log.len();
        let mut used = self.decide_top(a, budget);
        if self.s.op[a as usize].contains(&Action::Forward) || !self.best_moves(a) {
            return used;
        }
        let Some(b) = self.blocker(a) else {
            return used;
        };
        self.undo_to(mark);
        used += self.decide_top(b, budget);
        if self.s.op[b as usize].contains(&Action::Forward) {
            self.yielded.push(b);
        } else {
            // Going first, `b` would not move either: the robots decide as without yielding.
            self.undo_to(mark);
        }
        if !self.s.decided[a as usize] {
            used += self.decide_top(a, budget);
        }
        used
    }

    /// Undoes every decision logged after the first `mark`.
    fn undo_to(&mut self, mark: usize) {
        while self.log.len() > mark {
            let Some(b) = self.log.pop() else { break };
            let p = self.s.path[b as usize];
            self.s.release(b, &p);
        }
    }

    /// Robot `a`'s best operation, with the states it leads through, if it has any.
    fn best(&self, a: u32) -> Option<(&Operation, &Path)> {
        let r = self.ranked;
        let k = r.start[a as usize] as usize;
        (k < r.start[a as usize + 1] as usize).then(|| (&self.ops[r.cand[k] as usize], &r.paths[k]))
    }

    /// Whether robot `a`'s best operation moves forward.
    fn best_moves(&self, a: u32) -> bool {
        best_moves(self.ranked, self.ops, a)
    }

    /// The first undecided robot other than `a` on a cell of `a`'s best operation, if its own
    /// best operation moves forward (one that would stay is in nobody's way by going first).
    fn blocker(&self, a: u32) -> Option<u32> {
        let (_, path) = self.best(a)?;
        let j = path[1..].iter().find_map(|&(c, _)| {
            let j = self.s.occ_now[c as usize];
            (j != NONE && j != a && !self.s.decided[j as usize]).then_some(j)
        })?;
        self.best_moves(j).then_some(j)
    }

    /// Tries robot `a`'s operations best first; with a pusher (`depth` > 0) the pusher's
    /// cells are held, so it must clear them. Returns whether one worked with every push it
    /// made; if not, everything it decided is undone and `a` is undecided again.
    fn decide(&mut self, a: u32, depth: usize) -> bool {
        let r = self.ranked;
        let range = r.start[a as usize] as usize..r.start[a as usize + 1] as usize;
        for k in range {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            let (op, path) = (&self.ops[r.cand[k] as usize], r.paths[k]);
            if !self.s.clear(a, &path) {
                continue;
            }
            let mark = self.log.len();
            self.s.hold(a, &path, op[0]);
            self.s.op[a as usize] = *op;
            self.log.push(a);
            if self.push_along(a, &path, depth) {
                return true;
            }
            self.undo_to(mark);
        }
        false
    }

    /// Pushes the undecided robots on `path`'s cells; whether all got out of the way.
    fn push_along(&mut self, a: u32, path: &Path, depth: usize) -> bool {
        for &(c, _) in &path[1..] {
            let j = self.s.occ_now[c as usize];
            if j == NONE || j == a || self.s.decided[j as usize] {
                continue;
            }
            if depth >= MAX_PUSH_DEPTH || !self.decide(j, depth + 1) {
                return false;
            }
        }
        true
    }
}
