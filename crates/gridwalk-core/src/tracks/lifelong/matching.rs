//! The 2024 entry's better scheduler: [`MatchingScheduler`], a greedy matching redone every
//! timestep over the robots that have not begun their task and the tasks nobody has begun.
//!
//! The start-kit's greedy ([`GreedyScheduler`](super::GreedyScheduler)) gives a robot a task
//! once, when it has none, and never takes it back: a robot may walk across the map to a
//! task's first errand while a task revealed later lies next to it, and the open pool fills
//! with the tasks nobody wanted. LoRR allows a task to change hands until its first errand is
//! visited, so this scheduler, each timestep:
//! - counts as *free* every robot without a task or whose task has no errand visited yet
//!   (it has not stood on the first errand since it was given the task), and as *open* every
//!   task nobody has begun;
//! - prices a free robot with an open task as the moves from the robot to the task's first
//!   errand plus the moves from errand to errand (the task's *makespan*, the start-kit's
//!   cost), less [`STICK`] moves if the robot holds that task already, so that a robot
//!   changes its task only for a clearly better one; with an approach weight
//!   ([`with_approach`](MatchingScheduler::with_approach)) each move to the first errand
//!   counts that many times;
//! - matches cheapest pair first, each robot once and each task once, and, with a queue
//!   bound ([`with_queue`](MatchingScheduler::with_queue)), at most that many robots heading
//!   for one first errand at once.
//!
//! A robot left without a task (more free robots than open tasks, or every task it could take
//! at a first errand whose queue is full) gets none: its goal is `None`.
//!
//! **The approach weight.** In a dense crowd a robot crosses each cell slowly, and its way to
//! a far first errand is long and often given up for a task revealed later. Weighing the
//! approach more, robots take tasks that begin near them and change them less. EPIBT's
//! authors' scheduler counts each move to the first errand five times (docs/benchmarks.md,
//! "The approach weighed in a dense crowd").
//!
//! **The queue bound.** Where every task begins at one of a few cells (sortation_large's 620
//! emitters on the map's edges, for 10,000 robots), the cheapest pairs send a dozen robots or
//! more to each at once: they queue in the aisles beside it, and robots that have been there
//! cannot get out. Bounding the robots that head for one first errand keeps the others where
//! they are, out of the way, until a place comes free.
//!
//! Every schedule it proposes passes the simulator's checks: a robot that has begun its task
//! keeps it, a task goes to one robot, and only open tasks are given.
//!
//! **Cost.** Distances come from breadth-first tables from each first errand, kept in a
//! cache bounded in bytes; a step considers only as many open tasks as the cache holds tables
//! for, the newest (the oldest are those nobody wanted). On the LoRR maps the whole pool fits
//! the default budget: brc202d's 9,750 tables, one a task, take 840 MB. A step
//! prices every free robot with every open task considered: O(free × open) reads, at most
//! [`MAX_PAIRS`] a step: beyond that only robots without a task are matched, as the greedy
//! does, and as many of them as the bound allows, by index (the others wait a step).

use std::collections::HashMap;

use super::State;
use super::dist::{DistCache, FAR};
use crate::grid::Grid;

/// Moves of makespan a robot's own task is cheaper by, against a task it would change to.
pub const STICK: u64 = 4;

/// Pairs of free robot and open task a step prices at most.
pub const MAX_PAIRS: usize = 4_000_000;

/// A distance as a cost, unreachable counting as very far.
fn cost(d: u16) -> u64 {
    if d == FAR { 1 << 32 } else { u64::from(d) }
}

/// A task the scheduler knows of: revealed and not finished.
struct Known {
    errands: Vec<u32>,
    /// Moves from the first errand through the others.
    length: u64,
    /// The robot it is given to, if any.
    holder: Option<u32>,
}

/// The matching scheduler (see the module doc).
pub struct MatchingScheduler {
    dist: DistCache,
    tasks: HashMap<u64, Known>,
    /// Per robot: its task, and whether it has begun it.
    assigned: Vec<Option<u64>>,
    begun: Vec<bool>,
    /// Scratch: the pairs of one step, `(cost, robot, task)`.
    pairs: Vec<(u64, u32, u64)>,
    /// Robots that may head for one first errand at once; `None`: no bound.
    queue: Option<u32>,
    /// How many times a move to a task's first errand counts against one between errands.
    approach: u64,
    /// Scratch, under a bound: per cell, the robots heading for it as a first errand.
    heading: Vec<u32>,
    /// The grid's cells: `heading`'s length.
    cells: usize,
}

impl MatchingScheduler {
    /// A scheduler for robots on `grid`, its distance tables held to `budget` bytes.
    pub fn new(grid: &Grid, budget: usize) -> MatchingScheduler {
        MatchingScheduler {
            dist: DistCache::new(grid, budget),
            tasks: HashMap::new(),
            assigned: Vec::new(),
            begun: Vec::new(),
            pairs: Vec::new(),
            queue: None,
            approach: 1,
            heading: Vec::new(),
            cells: grid.len(),
        }
    }

    /// The same scheduler, sending at most `queue` robots (at least one) to one first errand
    /// at once (see the module doc).
    pub fn with_queue(mut self, queue: u32) -> MatchingScheduler {
        self.queue = Some(queue.max(1));
        self
    }

    /// The same scheduler, counting each move to a task's first errand `weight` times (at
    /// least once) against a move between its errands (see the module doc).
    pub fn with_approach(mut self, weight: u64) -> MatchingScheduler {
        self.approach = weight.max(1);
        self
    }

    /// Adds a newly revealed task.
    pub fn reveal(&mut self, id: u64, errands: &[u32]) {
        let mut length = 0;
        for pair in errands.windows(2) {
            // Each table here is read once: the cache may evict it for the next, so that
            // revealing thousands of tasks at once stays within its budget.
            self.dist.begin_step();
            let slot = self.dist.slot(pair[1]);
            length += cost(self.dist.get(slot, pair[0]));
        }
        self.tasks.insert(
            id,
            Known {
                errands: errands.to_vec(),
                length,
                holder: None,
            },
        );
    }

    /// The schedule for robots in `states`. `goals[a]` is robot a's next errand as the
    /// simulator has it (`None`: its task is finished, or it has none); the goals of robots
    /// whose task changes become the new task's first errand.
    pub fn schedule(&mut self, states: &[State], goals: &mut [Option<u32>]) -> Vec<Option<u64>> {
        let n = states.len();
        self.assigned.resize(n, None);
        self.begun.resize(n, false);
        self.dist.begin_step();
        let free = self.observe(states, goals);
        let mut open = self.open_tasks();
        // Only as many as the distance cache holds, newest first (the oldest are those nobody
        // wanted): each is priced from its first errand's table, and the cache keeps every
        // table a step asks for.
        open.drain(..open.len().saturating_sub(self.dist.capacity()));
        let matchable = self.matchable(free, open.len());
        // Robots that may change keep their task only if the matching gives it back.
        let mut may_change = vec![false; n];
        for &a in &matchable {
            may_change[a as usize] = true;
        }
        self.count_heading(&may_change);
        self.price(states, &open, &matchable, &may_change);
        self.release(&matchable, goals);
        self.assign(&mut may_change, goals);
        self.assigned.clone()
    }

    /// Notes what happened since the last call (tasks finished, first errands visited);
    /// returns the free robots.
    fn observe(&mut self, states: &[State], goals: &[Option<u32>]) -> Vec<u32> {
        let mut free: Vec<u32> = Vec::new();
        for (a, s) in states.iter().enumerate() {
            match (self.assigned[a], goals[a]) {
                (Some(id), None) => {
                    self.tasks.remove(&id);
                    self.assigned[a] = None;
                    self.begun[a] = false;
                }
                (Some(id), Some(goal)) if !self.begun[a] => {
                    let first = self.tasks.get(&id).map(|k| k.errands[0]);
                    if first != Some(goal) || first == Some(s.cell) {
                        self.begun[a] = true;
                    }
                }
                _ => {}
            }
            if !self.begun[a] {
                free.push(a as u32);
            }
        }
        free
    }

    /// The open tasks, by id.
    fn open_tasks(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self
            .tasks
            .iter()
            .filter(|(_, k)| k.holder.is_none_or(|r| !self.begun[r as usize]))
            .map(|(&id, _)| id)
            .collect();
        v.sort_unstable();
        v
    }

    /// The free robots this step matches, so that they and `open` tasks make at most
    /// [`MAX_PAIRS`] pairs (see the module doc).
    fn matchable(&self, free: Vec<u32>, open: usize) -> Vec<u32> {
        let mut matchable = if free.len().saturating_mul(open) <= MAX_PAIRS {
            free
        } else {
            free.into_iter()
                .filter(|&a| self.assigned[a as usize].is_none())
                .collect()
        };
        // Still too many: the first ones by index this step, the others at the next.
        matchable.truncate(MAX_PAIRS / open.max(1));
        matchable
    }

    /// Prices every matchable robot with every open task not held by a robot that keeps
    /// its task, into `self.pairs`, cheapest first.
    fn price(&mut self, states: &[State], open: &[u64], matchable: &[u32], may_change: &[bool]) {
        self.pairs.clear();
        for &id in open {
            let k = &self.tasks[&id];
            if k.holder.is_some_and(|r| !may_change[r as usize]) || self.full(k.errands[0]) {
                continue;
            }
            let slot = self.dist.slot(k.errands[0]);
            for &a in matchable {
                let to_first = cost(self.dist.get(slot, states[a as usize].cell));
                let mut c = to_first.saturating_mul(self.approach) + k.length;
                if self.assigned[a as usize] == Some(id) {
                    c = c.saturating_sub(STICK);
                }
                self.pairs.push((c, a, id));
            }
        }
        self.pairs.sort_unstable();
    }

    /// Takes the matchable robots' tasks and goals from them.
    fn release(&mut self, matchable: &[u32], goals: &mut [Option<u32>]) {
        for &a in matchable {
            goals[a as usize] = None;
            if let Some(id) = self.assigned[a as usize].take()
                && let Some(k) = self.tasks.get_mut(&id)
            {
                k.holder = None;
            }
        }
    }

    /// Counts, under a queue bound, the robots heading for each first errand that keep their
    /// task this step (not begun, and not matched again).
    fn count_heading(&mut self, may_change: &[bool]) {
        if self.queue.is_none() {
            return;
        }
        self.heading.clear();
        self.heading.resize(self.cells, 0);
        for (a, id) in self.assigned.iter().enumerate() {
            if let Some(k) = id.and_then(|id| self.tasks.get(&id))
                && !self.begun[a]
                && !may_change[a]
            {
                self.heading[k.errands[0] as usize] += 1;
            }
        }
    }

    /// Whether the queue bound lets no more robots head for `errand`.
    fn full(&self, errand: u32) -> bool {
        self.queue
            .is_some_and(|q| self.heading[errand as usize] >= q)
    }

    /// Gives tasks cheapest pair first, each robot that may change once and each task once,
    /// and no more robots to a first errand than the queue bound.
    fn assign(&mut self, may_change: &mut [bool], goals: &mut [Option<u32>]) {
        for &(_, a, id) in &self.pairs {
            let k = self.tasks.get_mut(&id).expect("a priced task is known");
            if !may_change[a as usize] || k.holder.is_some() {
                continue;
            }
            if let Some(q) = self.queue {
                let heading = &mut self.heading[k.errands[0] as usize];
                if *heading >= q {
                    continue;
                }
                *heading += 1;
            }
            may_change[a as usize] = false;
            k.holder = Some(a);
            self.assigned[a as usize] = Some(id);
            goals[a as usize] = Some(k.errands[0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(cell: u32) -> State {
        State { cell, facing: 0 }
    }

    #[test]
    fn a_robot_gives_up_a_far_task_for_a_near_one_until_it_has_begun() {
        let grid = Grid::new(20, 1).unwrap();
        let mut s = MatchingScheduler::new(&grid, 1 << 20);
        s.reveal(0, &[19, 18]);
        let mut goals = [None];
        assert_eq!(s.schedule(&[at(0)], &mut goals), [Some(0)]);
        assert_eq!(goals, [Some(19)]);
        // A task next to the robot comes: it changes.
        s.reveal(1, &[2, 3]);
        let mut goals = [Some(19)];
        assert_eq!(s.schedule(&[at(1)], &mut goals), [Some(1)]);
        assert_eq!(goals, [Some(2)]);
        // Once it stood on the first errand, it keeps its task, however near another is.
        s.reveal(2, &[2, 2]);
        let mut goals = [Some(3)];
        assert_eq!(s.schedule(&[at(2)], &mut goals), [Some(1)]);
        assert_eq!(goals, [Some(3)]);
        // Finished: a new task, the one left.
        let mut goals = [None];
        assert_eq!(s.schedule(&[at(3)], &mut goals), [Some(2)]);
    }

    #[test]
    fn an_approach_weight_takes_the_task_that_begins_nearer() {
        // From cell 0: a long task beginning at 2 (2 + 10 moves) or a short one beginning at
        // 6 (6 + 1). Alike, the short one is cheaper; the approach weighed five times, the
        // near one (10 + 10 against 30 + 1).
        let grid = Grid::new(20, 1).unwrap();
        let chosen = |weight: u64| {
            let mut s = MatchingScheduler::new(&grid, 1 << 20).with_approach(weight);
            s.reveal(0, &[2, 12]);
            s.reveal(1, &[6, 7]);
            let mut goals = [None];
            let schedule = s.schedule(&[at(0)], &mut goals);
            (schedule[0], goals[0])
        };
        assert_eq!(chosen(1), (Some(1), Some(6)));
        assert_eq!(chosen(5), (Some(0), Some(2)));
    }

    #[test]
    fn a_queue_bound_sends_no_more_robots_to_one_first_errand() {
        // Six robots in a row, six tasks that begin at cell 0 and two that begin at cell 19:
        // with a bound of two, two robots take tasks at 0, two at 19, and two get none,
        // though tasks at 0 are left.
        let grid = Grid::new(20, 1).unwrap();
        let mut s = MatchingScheduler::new(&grid, 1 << 20).with_queue(2);
        for id in 0..6 {
            s.reveal(id, &[0, 10]);
        }
        s.reveal(6, &[19, 10]);
        s.reveal(7, &[19, 10]);
        let states: Vec<State> = (1..7).map(at).collect();
        let mut goals = [None; 6];
        let schedule = s.schedule(&states, &mut goals);
        let to = |cell| goals.iter().filter(|&&g| g == Some(cell)).count();
        assert_eq!((to(0), to(19)), (2, 2), "{goals:?}");
        // The nearest two take the tasks at 0; the farthest two those at 19.
        assert_eq!(&goals[..2], [Some(0), Some(0)]);
        assert_eq!(&goals[4..], [Some(19), Some(19)]);
        assert_eq!(schedule.iter().flatten().count(), 4);
        // Once the first two have stood on cell 0, two more may head there.
        let mut states = states;
        states[0].cell = 0;
        states[1].cell = 0;
        s.schedule(&states, &mut goals);
        assert_eq!(&goals[..4], [Some(0); 4], "{goals:?}");
        // Without a bound, all but those two take tasks at 0 at once.
        let mut s = MatchingScheduler::new(&grid, 1 << 20);
        for id in 0..6 {
            s.reveal(id, &[0, 10]);
        }
        let mut goals = [None; 6];
        s.schedule(&(1..7).map(at).collect::<Vec<_>>(), &mut goals);
        assert!(goals.iter().all(|&g| g == Some(0)), "{goals:?}");
    }

    #[test]
    fn the_cache_bounds_the_tasks_considered_newest_first() {
        // Room for three tables of 20 cells: of seven open tasks only the three newest are
        // priced, and the tables stay within the budget.
        let grid = Grid::new(20, 1).unwrap();
        let mut s = MatchingScheduler::new(&grid, 3 * 2 * 20);
        for (id, cell) in [(0u64, 19u32), (1, 18), (2, 17), (3, 1), (4, 2), (5, 3)] {
            s.reveal(id, &[cell]);
        }
        // A task of several errands needs a table for each but the first.
        s.reveal(6, &[4, 5, 6, 7, 8]);
        assert!(s.dist.bytes() <= 3 * 2 * 20, "{} bytes", s.dist.bytes());
        assert_eq!(s.tasks[&6].length, 4);
        let mut goals = [None, None];
        let schedule = s.schedule(&[at(0), at(19)], &mut goals);
        // Priced, the robot at 19 would take task 0 (no move), the one at 0 task 3 (one).
        assert_eq!(schedule, [Some(4), Some(5)]);
        assert!(s.dist.bytes() <= 3 * 2 * 20, "{} bytes", s.dist.bytes());
    }

    #[test]
    fn no_task_goes_to_two_robots_and_begun_tasks_stay() {
        use crate::rng::{Draw, SeedableRng, SplitMix64};
        let grid = Grid::new(12, 12).unwrap();
        let mut rng = SplitMix64::seed_from_u64(4);
        let mut s = MatchingScheduler::new(&grid, 1 << 22);
        let robots = 10;
        let mut next = 0u64;
        for _ in 0..15 {
            let e: Vec<u32> = (0..3).map(|_| rng.below(144) as u32).collect();
            s.reveal(next, &e);
            next += 1;
        }
        let mut states: Vec<State> = (0..robots).map(|a| at(a * 13)).collect();
        let mut goals: Vec<Option<u32>> = vec![None; robots as usize];
        let mut held: Vec<Option<u64>> = vec![None; robots as usize];
        let mut begun = vec![false; robots as usize];
        for _ in 0..60 {
            let sched = s.schedule(&states, &mut goals);
            let mut ids: Vec<u64> = sched.iter().flatten().copied().collect();
            let before = ids.len();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), before, "a task given twice: {sched:?}");
            for a in 0..robots as usize {
                if begun[a] {
                    assert_eq!(sched[a], held[a], "robot {a} lost a begun task");
                }
                held[a] = sched[a];
                // Each robot jumps to its goal: it begins (or finishes) at once.
                if let Some(g) = goals[a] {
                    states[a] = at(g);
                    begun[a] = true;
                }
            }
            // Robots on their goal after the jump: pretend the task finishes.
            for a in 0..robots as usize {
                if rng.below(3) == 0 && begun[a] {
                    goals[a] = None;
                    begun[a] = false;
                    let e: Vec<u32> = (0..3).map(|_| rng.below(144) as u32).collect();
                    s.reveal(next, &e);
                    next += 1;
                }
            }
        }
    }
}
