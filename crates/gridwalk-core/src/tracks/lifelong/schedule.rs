//! The 2024 entry's scheduler: the start-kit's greedy default. Each robot without a task, in
//! index order, takes the unassigned open task with the least *makespan*: its distance to the
//! task's first errand plus the distances from errand to errand. A task once given is never
//! taken back, so every schedule it proposes passes the simulator's checks.

use super::State;
use super::dist::{Bfs, FAR};

/// An open task nobody has been given.
struct Unassigned {
    id: u64,
    first: u32,
    /// Moves from the first errand through the others, in order.
    length: u64,
}

/// The greedy scheduler and its buffers.
pub struct GreedyScheduler {
    bfs: Bfs,
    buffer: Vec<u16>,
    unassigned: Vec<Unassigned>,
    assigned: Vec<Option<u64>>,
}

/// A distance as a cost, unreachable counting as very far.
fn cost(d: u16) -> u64 {
    if d == FAR { 1 << 32 } else { u64::from(d) }
}

impl GreedyScheduler {
    /// A scheduler for robots on `grid`.
    pub fn new(grid: &crate::grid::Grid) -> GreedyScheduler {
        GreedyScheduler {
            buffer: vec![FAR; grid.len()],
            bfs: Bfs::new(grid),
            unassigned: Vec::new(),
            assigned: Vec::new(),
        }
    }

    /// Adds a newly revealed task.
    pub fn reveal(&mut self, id: u64, errands: &[u32]) {
        let mut length = 0;
        for pair in errands.windows(2) {
            self.bfs.fill(pair[1], &mut self.buffer);
            length += cost(self.buffer[pair[0] as usize]);
        }
        self.unassigned.push(Unassigned {
            id,
            first: errands[0],
            length,
        });
    }

    /// The schedule for robots in `states`: `goals[a]` is `None` for a robot without a task
    /// (its last one finished); those get a task, and their goal becomes its first errand.
    pub fn schedule(&mut self, states: &[State], goals: &mut [Option<u32>]) -> Vec<Option<u64>> {
        self.assigned.resize(states.len(), None);
        for (a, s) in states.iter().enumerate() {
            if goals[a].is_some() {
                continue;
            }
            self.assigned[a] = None;
            if self.unassigned.is_empty() {
                continue;
            }
            self.bfs.fill(s.cell, &mut self.buffer);
            let buffer = &self.buffer;
            let best = (0..self.unassigned.len())
                .min_by_key(|&i| {
                    let u = &self.unassigned[i];
                    cost(buffer[u.first as usize]) + u.length
                })
                .expect("not empty");
            let task = self.unassigned.swap_remove(best);
            self.assigned[a] = Some(task.id);
            goals[a] = Some(task.first);
        }
        self.assigned.clone()
    }
}

/// A 2024 entry's scheduler: told of each task revealed, it proposes each timestep a task
/// (or none) per robot, and sets the goals of robots whose task changes.
pub trait Scheduler: Send {
    /// Adds a newly revealed task.
    fn reveal(&mut self, id: u64, errands: &[u32]);

    /// The schedule for robots in `states`; `goals[a]` is robot a's next errand, `None` when
    /// it has no task, and is set for the robots given one.
    fn schedule(&mut self, states: &[State], goals: &mut [Option<u32>]) -> Vec<Option<u64>>;
}

impl Scheduler for GreedyScheduler {
    fn reveal(&mut self, id: u64, errands: &[u32]) {
        GreedyScheduler::reveal(self, id, errands);
    }

    fn schedule(&mut self, states: &[State], goals: &mut [Option<u32>]) -> Vec<Option<u64>> {
        GreedyScheduler::schedule(self, states, goals)
    }
}

impl Scheduler for super::matching::MatchingScheduler {
    fn reveal(&mut self, id: u64, errands: &[u32]) {
        super::matching::MatchingScheduler::reveal(self, id, errands);
    }

    fn schedule(&mut self, states: &[State], goals: &mut [Option<u32>]) -> Vec<Option<u64>> {
        super::matching::MatchingScheduler::schedule(self, states, goals)
    }
}
