//! The ranking of [`OperationStep`](super::OperationStep): every robot's operations in the order
//! it tries them, with the states each leads through, its guidance read over the machine's
//! cores ([`crate::crowd::par`]).
//!
//! The robots are cut into consecutive ranges, one a thread. Each thread keys its robots'
//! operations (a [`Key`] without its draw). Then the tie-breaking draws are taken from the
//! caller's generator on this thread, in robot order, one per kept operation, as a ranking on
//! one thread takes them. Last, each thread sorts its robots' operations and writes them into
//! its own part of the output. The output is therefore the same for any number of threads.
//!
//! A robot's first reads of its goal's table miss the caches and the TLB (10,000 robots may
//! head for as many tables), so while keying one robot a thread asks the guidance to start
//! loading what the robot [`PREFETCH_AHEAD`] places on will read
//! ([`RotationGuidance::prefetch`]).

use rand_core::Rng;

use super::{Action, DEPTH, Key, Operation, Path, Tail, cost_along};
use crate::crowd::{NONE, RotationGuidance, par};
use crate::grid::Grid;

/// Whether each cell of `grid` is passable.
fn passable(grid: &Grid) -> Vec<bool> {
    (0..grid.len()).map(|c| grid.weight(c) != 0).collect()
}

/// Per state `cell × 4 + facing`: the cell ahead if it is passable, else [`NONE`]; the one
/// read of a forward action.
#[derive(Clone, Debug)]
pub(super) struct Moves {
    ahead: Vec<u32>,
    width: u32,
    /// The passable cells the table was made for: a map edited since needs a new table.
    free: Vec<bool>,
}

impl Moves {
    /// The forward moves of `grid`.
    pub(super) fn new(grid: &Grid) -> Moves {
        let forward = |c: u32, f: u8| Action::Forward.apply(grid, (c, f)).map_or(NONE, |s| s.0);
        let ahead = (0..grid.len() as u32)
            .flat_map(|c| (0..4).map(move |f| forward(c, f)))
            .collect();
        Moves {
            ahead,
            width: grid.width(),
            free: passable(grid),
        }
    }

    /// Makes the table anew if `grid`'s passable cells are not the ones it was made for (a
    /// wall drawn or lifted since).
    pub(super) fn refresh(&mut self, grid: &Grid) {
        let now = passable(grid);
        if now != self.free || grid.width() != self.width {
            *self = Moves::new(grid);
        }
    }

    /// The states `op` leads through from `s` (a passable cell, a facing below 4), or `None`
    /// if it walks off the map or into a wall.
    #[inline]
    pub(super) fn trace(&self, s: (u32, u8), op: &Operation) -> Option<Path> {
        let mut path = [s; DEPTH + 1];
        for (t, a) in op.iter().enumerate() {
            let (c, f) = path[t];
            path[t + 1] = match a {
                Action::Forward => match self.ahead[c as usize * 4 + f as usize] {
                    NONE => return None,
                    next => (next, f),
                },
                Action::Clockwise => (c, (f + 1) % 4),
                Action::CounterClockwise => (c, (f + 3) % 4),
                Action::Wait => (c, f),
            };
        }
        Some(path)
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.ahead.capacity() * 4
    }
}

/// What the ranking reads of one step.
pub(super) struct Robots<'a, G: ?Sized> {
    /// Per robot: its cell and facing.
    pub states: &'a [(u32, u8)],
    /// Per robot: its goal, `None` without one.
    pub goals: &'a [Option<u32>],
    /// Per robot: the rest of the operation it started last step.
    pub tails: &'a [Option<Tail>],
    /// Whether a robot tries first the operations that go on with its tail.
    pub commit: bool,
    pub guidance: &'a G,
}

/// Every robot's operations, best first: robot a's are `cand[start[a]..start[a + 1]]`, as
/// indices of the operations, and `paths` at the same places holds the states each leads
/// through.
#[derive(Clone, Debug, Default)]
pub(super) struct Ranked {
    pub cand: Vec<u16>,
    pub paths: Vec<Path>,
    pub start: Vec<u32>,
}

impl Ranked {
    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.cand.capacity() * 2
            + self.paths.capacity() * std::mem::size_of::<Path>()
            + self.start.capacity() * 4
    }
}

/// One thread's range of robots: their kept operations in operation order, keyed, and how
/// many each robot kept.
#[derive(Clone, Debug, Default)]
struct Part {
    keyed: Vec<(Key, u16)>,
    counts: Vec<u32>,
}

/// The ranking's buffers and the threads it may use, kept from step to step.
#[derive(Clone, Debug)]
pub(super) struct Ranker {
    pub moves: Moves,
    parts: Vec<Part>,
    draws: Vec<u32>,
    pub threads: usize,
}

impl Ranker {
    /// A ranking on `grid`, over the machine's cores.
    pub(super) fn new(grid: &Grid) -> Ranker {
        Ranker {
            moves: Moves::new(grid),
            parts: Vec::new(),
            draws: Vec::new(),
            threads: par::threads(),
        }
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        let parts = self.parts.iter().map(|p| {
            p.keyed.capacity() * std::mem::size_of::<(Key, u16)>() + p.counts.capacity() * 4
        });
        self.moves.bytes() + parts.sum::<usize>() + self.draws.capacity() * 4
    }

    /// Ranks every robot's operations `ops` into `out` (see the module doc).
    pub(super) fn rank<G, R>(
        &mut self,
        ops: &[Operation],
        robots: &Robots<G>,
        rng: &mut R,
        out: &mut Ranked,
    ) where
        G: RotationGuidance + Sync + ?Sized,
        R: Rng + ?Sized,
    {
        let n = robots.states.len();
        let jobs = par::jobs_for(n, self.threads);
        self.parts.resize_with(jobs, Part::default);
        let moves = &self.moves;
        let parts = self.parts.iter_mut().zip(par::ranges(n, jobs));
        par::each(parts, |(part, range)| part.key(moves, ops, robots, range));
        out.start.clear();
        let mut total = 0u32;
        for &count in self.parts.iter().flat_map(|p| &p.counts) {
            out.start.push(total);
            total += count;
        }
        out.start.push(total);
        self.draws.clear();
        self.draws.extend((0..total).map(|_| rng.next_u32()));
        out.cand.resize(total as usize, 0);
        out.paths.resize(total as usize, [(0, 0); DEPTH + 1]);
        let (mut cand, mut paths, mut draws) =
            (&mut out.cand[..], &mut out.paths[..], &self.draws[..]);
        let mut writes = Vec::with_capacity(jobs);
        for (part, range) in self.parts.iter_mut().zip(par::ranges(n, jobs)) {
            let len = part.keyed.len();
            let (c, c_rest) = std::mem::take(&mut cand).split_at_mut(len);
            let (p, p_rest) = std::mem::take(&mut paths).split_at_mut(len);
            let (d, d_rest) = draws.split_at(len);
            (cand, paths, draws) = (c_rest, p_rest, d_rest);
            writes.push((part, range, d, c, p));
        }
        par::each(writes, |(part, range, d, c, p)| {
            part.write(moves, ops, &robots.states[range], d, (c, p));
        });
    }
}

/// How many robots ahead the ranking asks for the guidance it will read.
const PREFETCH_AHEAD: usize = 16;

/// Asks `r`'s guidance to start loading what robot `b`'s operations will read: its column on
/// the rows an operation reaches (three either way; a row's nearby cells share lines).
#[inline]
fn hint<G: RotationGuidance + ?Sized>(width: u32, r: &Robots<G>, b: usize) {
    if r.goals[b].is_none() {
        return;
    }
    let cell = r.states[b].0;
    for dy in 1..=3 {
        r.guidance.prefetch(b, cell.wrapping_sub(dy * width));
    }
    for dy in 0..=3 {
        r.guidance.prefetch(b, cell.saturating_add(dy * width));
    }
}

impl Part {
    /// Keys the operations of the robots in `range`, in operation order, leaving out those
    /// that leave the map or enter a wall, and those from whose end the goal cannot be reached.
    fn key<G: RotationGuidance + ?Sized>(
        &mut self,
        moves: &Moves,
        ops: &[Operation],
        r: &Robots<G>,
        range: std::ops::Range<usize>,
    ) {
        self.keyed.clear();
        self.counts.clear();
        let end = range.end;
        for a in range {
            if a + PREFETCH_AHEAD < end {
                hint(moves.width, r, a + PREFETCH_AHEAD);
            }
            let s = r.states[a];
            let tail = (r.tails[a])
                .filter(|t| r.commit && t.goal == r.goals[a] && t.at == s)
                .map(|t| t.rest);
            let before = self.keyed.len();
            for (k, op) in ops.iter().enumerate() {
                let Some(path) = moves.trace(s, op) else {
                    continue;
                };
                let key = match r.goals[a] {
                    Some(g) => cost_along(r.guidance, a, g, &path),
                    None => Key {
                        fresh: true,
                        cost: 0,
                        along: op.iter().filter(|&&x| x != Action::Wait).count() as u64,
                        draw: 0,
                    },
                };
                if key.cost == u64::MAX {
                    continue;
                }
                let kept = tail.is_some_and(|t| op[..DEPTH - 1] == t[..]);
                self.keyed.push((
                    Key {
                        fresh: !kept,
                        ..key
                    },
                    k as u16,
                ));
            }
            self.counts.push((self.keyed.len() - before) as u32);
        }
    }

    /// Gives the keyed operations their `draws`, sorts each robot's (on `states`, this part's
    /// robots) and writes them with their states into `cand` and `paths`.
    fn write(
        &mut self,
        moves: &Moves,
        ops: &[Operation],
        states: &[(u32, u8)],
        draws: &[u32],
        (cand, paths): (&mut [u16], &mut [Path]),
    ) {
        let mut at = 0;
        for (&s, &count) in states.iter().zip(&self.counts) {
            let range = at..at + count as usize;
            let mine = &mut self.keyed[range.clone()];
            for (x, &d) in mine.iter_mut().zip(&draws[range.clone()]) {
                x.0.draw = d;
            }
            mine.sort_unstable();
            for (i, &(_, k)) in range.zip(mine.iter()) {
                cand[i] = k;
                // Kept operations were traced once already: this cannot fail.
                paths[i] = moves.trace(s, &ops[k as usize]).unwrap_or([s; DEPTH + 1]);
            }
            at += count as usize;
        }
    }
}
