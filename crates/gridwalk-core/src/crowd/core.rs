//! The one PIBT: priority inheritance with backtracking over cells, walked with an explicit
//! stack, behind a [`MoveModel`] that says which cells an agent may take next and in which
//! order. Crowd mode's [`StepRule`](super::StepRule) (4 and 8 moves, trap handling) and the
//! rotation step ([`RotationStep`](super::RotationStep)) are move models of it. PIBT over
//! 3-step operations ([`OperationStep`](super::OperationStep)) is not: it reserves cells over
//! a window of timesteps and undoes decisions from a log, which one step's [`Board`] cannot
//! hold, so it keeps its own search.
//!
//! The core keeps who stands where now and next ([`Board`]); a model fills an agent's
//! candidates, best first, and may forbid a move the board allows (a crossing diagonal). The
//! decision of one agent and every agent its pushes reach is pypibt's `funcPIBT`:
//!
//! ```text
//! funcPIBT(i):
//!     for each candidate u of i, best first:
//!         if u is taken next, or moving there swaps with its occupant: skip it
//!         claim u for i
//!         if u's occupant k is undecided: if funcPIBT(k) succeeds, return success, else go on
//!         return success
//!     i stays; return failure
//! ```
//!
//! with the recursion replaced by a stack of frames, so a chain of 10,000 pushes needs no
//! thread stack.

use super::NONE;

/// The most candidates an agent has: its cell and eight neighbours.
pub(crate) const MAX_CANDIDATES: usize = 9;

/// How an agent's next cell was decided in the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Outcome {
    /// Not decided (yet).
    #[default]
    Undecided,
    /// By its own candidates, at the top of a chain.
    Chose,
    /// By its candidates after another agent pushed it (priority inheritance).
    Pushed,
    /// Pulled into the cell of an agent that retreated to let it by.
    Pulled,
    /// By a constraint given in advance.
    Fixed,
}

/// The constraints cannot all hold: two fixed cells collide, or an agent must leave a cell a
/// constraint takes and cannot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Infeasible;

/// Who stands where now and after the step: what a move model reads while the core decides.
#[derive(Clone, Debug)]
pub struct Board {
    /// Per cell: the agent on it now, or [`NONE`].
    pub(crate) occ_now: Vec<u32>,
    /// Per cell: the agent that will be on it after the step, or [`NONE`].
    pub(crate) occ_next: Vec<u32>,
    /// Per agent: its cell after the step, [`NONE`] while undecided.
    pub(crate) next: Vec<u32>,
    /// Per agent: who pushed (or pulled) it this step, or [`NONE`].
    pub(crate) parent: Vec<u32>,
}

impl Board {
    /// Whether agent `i`, the board aside, may go from `from` to `to`: not a swap with the
    /// agent on `to`.
    #[inline]
    pub(crate) fn no_swap(&self, i: u32, from: u32, to: u32) -> bool {
        let k = self.occ_now[to as usize];
        k == NONE || k == i || self.next[k as usize] != from
    }
}

/// An agent's candidate cells, best first.
pub(crate) type Candidates = ([u32; MAX_CANDIDATES], u8);

/// A move model: the agents' candidate cells and the moves it allows beyond the board's.
pub(crate) trait MoveModel {
    /// Agent `i`'s candidate cells, best first (its own among them), when `pusher` (or
    /// [`NONE`]) pushes it; `cur` is every agent's cell.
    fn candidates(&mut self, board: &Board, cur: &[u32], i: u32, pusher: u32) -> Candidates;

    /// Whether agent `i` may go from `from` to `to` given the moves decided so far; the core
    /// has already checked that `to` is free next and that the move is no swap.
    #[inline]
    fn may_move(&self, board: &Board, i: u32, from: u32, to: u32) -> bool {
        let _ = (board, i, from, to);
        true
    }

    /// After agent `i`'s candidates `cands` are filled (pushed by `pusher`, or [`NONE`] at the
    /// top of a chain): may reorder them, and names an agent to pull into `i`'s cell once `i`
    /// has moved ([`NONE`] for none).
    #[inline]
    fn pass(&mut self, board: &Board, cur: &[u32], i: u32, pusher: u32, cands: &mut [u32]) -> u32 {
        let _ = (board, cur, i, pusher, cands);
        NONE
    }

    /// Whether an agent that named an agent to pull pulls it, having taken its candidate
    /// number `chosen` (0 the first tried).
    #[inline]
    fn pulls_after(&self, chosen: usize) -> bool {
        let _ = chosen;
        true
    }
}

/// One agent being decided: its place on the stack of pushes.
#[derive(Clone, Copy, Debug)]
struct Frame {
    agent: u32,
    /// The agent that pushed this one (moving into its cell), or [`NONE`] at the top.
    parent: u32,
    /// The next candidate to try.
    next_try: u8,
    /// The agent to pull into this one's cell once it moved, or [`NONE`].
    pull: u32,
}

/// What an agent's next candidate cell turned out to be.
enum Choice {
    /// Free now or being vacated: the agent moved, and so did every agent that pushed it.
    Free,
    /// Held by this undecided agent, which must now move out of it.
    Push(u32),
    /// No candidate is left: the agent stays.
    Stuck,
}

/// The core's state, sized to a grid and reused from step to step.
#[derive(Clone, Debug)]
pub(crate) struct Pibt {
    pub(crate) board: Board,
    /// Per agent: its candidate cells in the order tried, and how many.
    pub(crate) cands: Vec<[u32; MAX_CANDIDATES]>,
    pub(crate) ncand: Vec<u8>,
    pub(crate) outcome: Vec<Outcome>,
    stack: Vec<Frame>,
}

impl Pibt {
    /// The core for a grid of `cells` cells.
    pub(crate) fn new(cells: usize) -> Pibt {
        Pibt {
            board: Board {
                occ_now: vec![NONE; cells],
                occ_next: vec![NONE; cells],
                next: Vec::new(),
                parent: Vec::new(),
            },
            cands: Vec::new(),
            ncand: Vec::new(),
            outcome: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// The number of cells it was made for.
    pub(crate) fn cells(&self) -> usize {
        self.board.occ_now.len()
    }

    /// Bytes held: per cell, two occupancy arrays; per agent, its candidates and links.
    pub(crate) fn memory_bytes(&self) -> usize {
        let b = &self.board;
        (b.occ_now.capacity() + b.occ_next.capacity()) * 4
            + self.cands.capacity() * 4 * MAX_CANDIDATES
            + (b.next.capacity() + b.parent.capacity()) * 4
            + self.ncand.capacity()
    }

    /// Readies the per-agent arrays for `n` agents, every one undecided.
    pub(crate) fn reset(&mut self, n: usize) {
        let b = &mut self.board;
        b.next.clear();
        b.next.resize(n, NONE);
        b.parent.clear();
        b.parent.resize(n, NONE);
        self.cands.resize(n, [NONE; MAX_CANDIDATES]);
        self.ncand.clear();
        self.ncand.resize(n, 0);
        self.outcome.clear();
        self.outcome.resize(n, Outcome::Undecided);
    }

    /// Clears exactly the occupancy the step set, whatever happened, for agents on `cur`.
    pub(crate) fn clear(&mut self, cur: &[u32]) {
        let b = &mut self.board;
        for (a, &c) in cur.iter().enumerate() {
            if (c as usize) < b.occ_now.len() && b.occ_now[c as usize] == a as u32 {
                b.occ_now[c as usize] = NONE;
            }
            let to = b.next[a];
            if to != NONE {
                b.occ_next[to as usize] = NONE;
            }
        }
    }

    /// Fixes agent `a`'s next cell to `to` (a legal move of it), or finds it already taken.
    pub(crate) fn fix(&mut self, a: u32, to: u32) -> Result<(), Infeasible> {
        let b = &mut self.board;
        if b.occ_next[to as usize] != NONE {
            return Err(Infeasible);
        }
        b.occ_next[to as usize] = a;
        b.next[a as usize] = to;
        self.ncand[a as usize] = 0;
        self.outcome[a as usize] = Outcome::Fixed;
        Ok(())
    }

    /// Whether agent `i` may go from `from` to `to` given the moves decided so far.
    #[inline]
    pub(crate) fn free_move<M: MoveModel>(&self, model: &M, i: u32, from: u32, to: u32) -> bool {
        self.board.no_swap(i, from, to) && model.may_move(&self.board, i, from, to)
    }

    /// Fills agent `i`'s candidates from `model`, as pushed by `pusher` (or [`NONE`]), and
    /// puts its frame on the stack with the agent it will pull.
    #[inline]
    fn push_frame<M: MoveModel>(&mut self, model: &mut M, cur: &[u32], i: u32, pusher: u32) {
        let (cells, n) = model.candidates(&self.board, cur, i, pusher);
        let cands = &mut self.cands[i as usize];
        *cands = cells;
        self.ncand[i as usize] = n;
        let pull = model.pass(&self.board, cur, i, pusher, &mut cands[..n as usize]);
        self.stack.push(Frame {
            agent: i,
            parent: pusher,
            next_try: 0,
            pull,
        });
    }

    /// Decides agent `top` and every agent its pushes reach: `funcPIBT` on an explicit stack.
    ///
    /// The top frame is the agent being decided. It tries its next candidate cell: a free
    /// cell ends the chain with success, which every frame below shares (each one moved into
    /// the cell of the agent above it), so the stack unwinds at once. An undecided occupant
    /// is pushed: its frame goes on top, like the recursive call. An agent out of candidates
    /// stays and its frame is popped, and the agent below resumes with its next candidate.
    pub(crate) fn decide<M: MoveModel>(
        &mut self,
        model: &mut M,
        cur: &[u32],
        top: u32,
    ) -> Result<(), Infeasible> {
        self.stack.clear();
        self.push_frame(model, cur, top, NONE);
        while let Some(&frame) = self.stack.last() {
            match self.try_candidates(model, cur, frame.agent) {
                Choice::Free => {
                    self.succeed(model, cur);
                    return Ok(());
                }
                Choice::Push(k) => {
                    self.board.parent[k as usize] = frame.agent;
                    self.push_frame(model, cur, k, frame.agent);
                }
                Choice::Stuck => {
                    self.stay(cur, frame)?;
                    self.stack.pop();
                }
            }
        }
        Ok(())
    }

    /// The chain on the stack moved: records each agent's outcome, then makes its pulls, the
    /// deepest first (as the recursion returns).
    fn succeed<M: MoveModel>(&mut self, model: &M, cur: &[u32]) {
        let mut stack = std::mem::take(&mut self.stack);
        for f in stack.iter().rev() {
            self.outcome[f.agent as usize] = if f.parent == NONE {
                Outcome::Chose
            } else {
                Outcome::Pushed
            };
            if f.pull != NONE && model.pulls_after(f.next_try as usize - 1) {
                self.pull(model, cur, f.agent, f.pull);
            }
        }
        stack.clear();
        self.stack = stack;
    }

    /// The body of `funcPIBT`'s loop for the top frame's agent `i`: takes its next candidate
    /// cell that is free next and reachable without a swap or a move the model forbids, and
    /// says what taking it means. The frame remembers where the scan stopped, so a failed push
    /// resumes with the following candidate.
    fn try_candidates<M: MoveModel>(&mut self, model: &M, cur: &[u32], i: u32) -> Choice {
        let iu = i as usize;
        let top = self.stack.len() - 1;
        while (self.stack[top].next_try as usize) < self.ncand[iu] as usize {
            let u = self.cands[iu][self.stack[top].next_try as usize];
            self.stack[top].next_try += 1;
            if self.board.occ_next[u as usize] != NONE || !self.free_move(model, i, cur[iu], u) {
                continue;
            }
            let b = &mut self.board;
            b.occ_next[u as usize] = i;
            b.next[iu] = u;
            let k = b.occ_now[u as usize];
            if k != NONE && k != i && b.next[k as usize] == NONE {
                return Choice::Push(k);
            }
            return Choice::Free;
        }
        Choice::Stuck
    }

    /// Agent `frame.agent` failed every candidate and stays. Its cell is free next or claimed
    /// by its pusher, whose claim it takes back; anything else is infeasible.
    fn stay(&mut self, cur: &[u32], frame: Frame) -> Result<(), Infeasible> {
        let here = cur[frame.agent as usize];
        let b = &mut self.board;
        let holder = b.occ_next[here as usize];
        if holder != NONE && holder != frame.parent {
            return Err(Infeasible);
        }
        b.occ_next[here as usize] = frame.agent;
        b.next[frame.agent as usize] = here;
        self.outcome[frame.agent as usize] = if frame.parent == NONE {
            Outcome::Chose
        } else {
            Outcome::Pushed
        };
        Ok(())
    }

    /// After agent `i` moved, pulls agent `j` (if any, and still undecided) into `i`'s cell.
    fn pull<M: MoveModel>(&mut self, model: &M, cur: &[u32], i: u32, j: u32) {
        if j == NONE || self.board.next[j as usize] != NONE {
            return;
        }
        let to = cur[i as usize];
        let from = cur[j as usize];
        if self.board.next[i as usize] == to
            || self.board.occ_next[to as usize] != NONE
            || !self.free_move(model, j, from, to)
        {
            return;
        }
        let b = &mut self.board;
        b.occ_next[to as usize] = j;
        b.next[j as usize] = to;
        b.parent[j as usize] = i;
        self.ncand[j as usize] = 0;
        self.outcome[j as usize] = Outcome::Pulled;
    }
}
