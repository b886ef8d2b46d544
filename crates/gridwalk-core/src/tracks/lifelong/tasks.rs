//! Tasks on the simulator's side, as the start-kit keeps them: the 2023 edition's dealing
//! strategies ([`Deal2023`]) and the 2024 edition's open pool with its schedule checks
//! ([`Pool2024`]). Both record their events in the run's [`Record`].

use std::collections::{HashMap, VecDeque};

use crate::format::lorr::result::Record;
use crate::format::lorr::{Problem, Strategy, Tasks};

use super::State;

/// 2023: each robot's queue of revealed tasks, refilled by the problem's strategy.
pub(super) struct Deal2023 {
    strategy: Strategy,
    reveal: usize,
    /// Per robot: `(task id, cell)`, the front one its goal.
    queues: Vec<VecDeque<(u64, u32)>>,
    /// Per robot: tasks dealt to it so far (round robin and fixed).
    counter: Vec<u64>,
    next_id: u64,
}

impl Deal2023 {
    pub(super) fn new(problem: &Problem) -> Deal2023 {
        let n = problem.team_size();
        Deal2023 {
            strategy: problem.strategy,
            reveal: problem.num_tasks_reveal as usize,
            queues: vec![VecDeque::new(); n],
            counter: vec![0; n],
            next_id: 0,
        }
    }

    /// Robot `a`'s goal: its front task's cell.
    pub(super) fn goal(&self, a: usize) -> Option<u32> {
        self.queues[a].front().map(|&(_, c)| c)
    }

    /// Whether robot `a` has a task (and so counts toward the cost).
    pub(super) fn busy(&self, a: usize) -> bool {
        !self.queues[a].is_empty()
    }

    /// Whether every queue is empty (only a finite strategy gets there).
    pub(super) fn all_done(&self) -> bool {
        self.queues.iter().all(VecDeque::is_empty)
    }

    /// Tops every queue up to `numTasksReveal`, robots in index order, at timestep `t`.
    pub(super) fn update(&mut self, tasks: &Tasks, t: u64, rec: &mut Record) {
        let (n, m) = (self.queues.len() as u64, tasks.len() as u64);
        for k in 0..self.queues.len() {
            while self.queues[k].len() < self.reveal {
                let (id, index) = match self.strategy {
                    Strategy::RoundRobin => {
                        let i = (self.counter[k] * n + k as u64) % m;
                        (self.next_id, i)
                    }
                    Strategy::Greedy if self.next_id < m => (self.next_id, self.next_id),
                    Strategy::RoundRobinFixed if self.counter[k] * n + (k as u64) < m => {
                        let i = self.counter[k] * n + k as u64;
                        (i, i)
                    }
                    _ => break,
                };
                self.counter[k] += 1;
                self.next_id += 1;
                let cell = tasks.errands(index as usize)[0];
                self.queues[k].push_back((id, cell));
                rec.events_2023[k].push((id, t, "assigned"));
                rec.tasks_2023.push((id, cell));
            }
        }
    }

    /// Pops the front task of every robot that stands on it after the step to `t`.
    pub(super) fn check_finished(&mut self, states: &[State], t: u64, rec: &mut Record) {
        for (k, s) in states.iter().enumerate() {
            if let Some(&(id, cell)) = self.queues[k].front()
                && cell == s.cell
            {
                self.queues[k].pop_front();
                rec.events_2023[k].push((id, t, "finished"));
                rec.finished += 1;
            }
        }
    }
}

/// A task of the 2024 pool that is not finished.
struct Open {
    /// Its index in the tasks file.
    index: usize,
    /// Errands visited so far.
    done: u32,
}

/// 2024: the open pool of `numTasksReveal × teamSize` tasks, revealed in file order, and
/// each robot's accepted task.
pub(super) struct Pool2024 {
    size: usize,
    open: HashMap<u64, Open>,
    next_id: u64,
    assignment: Vec<Option<u64>>,
    proposed: Vec<Option<u64>>,
    /// Tasks revealed and not yet sent to the entry: `(id, errands)`.
    pub(super) fresh: Vec<(u64, Vec<u32>)>,
}

impl Pool2024 {
    pub(super) fn new(problem: &Problem) -> Pool2024 {
        let n = problem.team_size();
        Pool2024 {
            size: problem.pool_size(),
            open: HashMap::new(),
            next_id: 0,
            assignment: vec![None; n],
            proposed: vec![None; n],
            fresh: Vec::new(),
        }
    }

    /// Robot `a`'s goal: the next errand of its task.
    pub(super) fn goal(&self, a: usize, tasks: &Tasks) -> Option<u32> {
        let id = self.assignment[a]?;
        let open = &self.open[&id];
        Some(tasks.errands(open.index)[open.done as usize])
    }

    /// Reveals tasks at timestep `t` until the pool is full.
    pub(super) fn reveal(&mut self, tasks: &Tasks, t: u64, rec: &mut Record) {
        while self.open.len() < self.size {
            let id = self.next_id;
            self.next_id += 1;
            let index = (id % tasks.len() as u64) as usize;
            self.open.insert(id, Open { index, done: 0 });
            let errands = tasks.errands(index).to_vec();
            rec.tasks_2024.push((id, t, errands.clone()));
            self.fresh.push((id, errands));
        }
    }

    /// The start-kit's check of a proposed schedule: every task open, none given twice, and
    /// no robot taken off a task it has begun. The first failure is returned.
    fn invalid(&self, proposed: &[Option<u64>]) -> Option<(&'static str, i64, i64, i64)> {
        if proposed.len() != self.assignment.len() {
            return Some(("Invalid schedule size", -1, -1, -1));
        }
        let mut given: HashMap<u64, usize> = HashMap::new();
        for (a, &p) in proposed.iter().enumerate() {
            if let Some(k) = p
                && !self.open.contains_key(&k)
            {
                return Some(("task already finished", k as i64, a as i64, -1));
            }
            if let Some(cur) = self.assignment[a]
                && self.open.get(&cur).is_some_and(|o| o.done > 0)
                && p != Some(cur)
            {
                return Some((
                    "task is already opened by another agent",
                    cur as i64,
                    a as i64,
                    -1,
                ));
            }
            if let Some(k) = p
                && let Some(b) = given.insert(k, a)
            {
                return Some((
                    "task is already assigned by a second agent",
                    k as i64,
                    b as i64,
                    a as i64,
                ));
            }
        }
        None
    }

    /// Records `proposed` at timestep `t` and, if it passes the checks, makes it the
    /// robots' assignment; otherwise the assignment stays as it was.
    pub(super) fn apply_schedule(&mut self, proposed: &[Option<u64>], t: u64, rec: &mut Record) {
        let id = |p: Option<u64>| p.map_or(-1, |k| k as i64);
        for (a, &p) in proposed.iter().enumerate().take(self.proposed.len()) {
            if rec.planner_schedule[a].last().map(|e| e.1) != Some(id(p))
                && (p.is_some() || self.proposed[a].is_some())
            {
                rec.planner_schedule[a].push((t, id(p)));
            }
            self.proposed[a] = p;
        }
        if let Some((text, task, a, b)) = self.invalid(proposed) {
            rec.schedule_errors.push((text, task, a, b, t));
            return;
        }
        for (a, &p) in proposed.iter().enumerate() {
            if p != self.assignment[a] && p.is_some() {
                rec.actual_schedule[a].push((t, id(p)));
            }
            self.assignment[a] = p;
        }
    }

    /// Marks the errands reached after the step to `t`; a task whose last errand is reached
    /// is finished and leaves the pool.
    pub(super) fn check_finished(
        &mut self,
        states: &[State],
        tasks: &Tasks,
        t: u64,
        rec: &mut Record,
    ) {
        for (k, s) in states.iter().enumerate() {
            let Some(id) = self.assignment[k] else {
                continue;
            };
            let open = self.open.get_mut(&id).expect("an assigned task is open");
            let errands = tasks.errands(open.index);
            if errands[open.done as usize] != s.cell {
                continue;
            }
            open.done += 1;
            rec.events_2024.push((t, k as u32, id, open.done));
            if open.done as usize == errands.len() {
                self.open.remove(&id);
                self.assignment[k] = None;
                rec.finished += 1;
            }
        }
    }
}
