//! Lifelong MAPF on the League of Robot Runners (LoRR): robots with a facing, tasks dealt or
//! scheduled as each edition's start-kit does, and a planner given a time limit a step.
//!
//! [`run`] plays a [`Problem`] for a number of timesteps. The
//! entry (the [`Planner`], and in 2024 the [`Scheduler`]: the start-kit's [`GreedyScheduler`]
//! or the [`MatchingScheduler`], as [`Settings::scheduler`] says) runs on one worker thread that
//! lives as long as the run. Each timestep the simulator hands it the robots' states and goals
//! and waits at most the step's time limit:
//! - a reply in time: its schedule (2024) and actions are checked by the rules
//!   ([`check_step`]) and applied; a refused step makes every robot wait;
//! - no reply: the step is lost, every robot waits (`T` in the planner's paths; 2023 records
//!   `incorrect vector size`, 2024 counts an entry timeout). The worker is not restarted or
//!   duplicated: the next step waits again for the same call, whose answer, planned for the
//!   unchanged state, applies when it comes.
//!
//! Robots reach a goal by standing on it after a step, whatever their facing.
//!
//! The planners: [`WindowLns`] (a window refined by LNS, on small maps and open ground),
//! [`Epibt`] (Enhanced PIBT over 3-step operations with plans kept and refined, on the denser
//! small maps), [`OperationPibt`] (PIBT over 3-step operations), [`RotationPlanner`] (one PIBT
//! step over cells turned into rotations; committed, on the warehouses, to carrying each step
//! out before the next), and two kept for comparison ([`RotationPibt`], [`CrowdPlanner`]). The first two
//! may be guided by traffic rules ([`EdgeCosts`]), priced again from the robots' own moves
//! ([`Traffic`]). [`Settings::parking`] lets only some robots
//! work; the others park ([`Parking`]).

mod clear;
mod committed;
mod dist;
mod epibt;
mod guided;
mod matching;
mod near;
mod operations;
mod park;
mod planner;
mod priority;
mod queue;
mod rotation;
mod schedule;
mod spacetime;
mod tables;
mod tasks;
mod traffic;
mod trunk;
mod weighted;
mod window;

use std::sync::mpsc;
use std::time::{Duration, Instant};

pub use clear::KeepClear;
pub use committed::{Redecide, SAMPLE_WORK, SHUFFLE_SWAPS};
pub use dist::{DEFAULT_BUDGET, DistCache};
pub use epibt::{DEFAULT_POWER, Epibt, EpibtConfig, MAX_CHAIN, STALL_STEPS};
pub use guided::RotationPlanner;
pub use matching::MatchingScheduler;
pub use operations::OperationPibt;
pub use park::Parking;
pub use planner::{CrowdPlanner, Planner, ahead};
pub use rotation::RotationPibt;
pub use schedule::{GreedyScheduler, Scheduler};
pub use traffic::{Traffic, TrafficConfig};
pub use weighted::{EdgeCosts, WEIGHTED_CAP, WEIGHTED_UNREACHABLE, WeightedGoals, WeightedTables};
pub use window::{DEFAULT_PLAN_SHARE, DEFAULT_WINDOW_WORK, WindowConfig, WindowLns, WindowStats};

use crate::crowd::NONE;
use crate::format::lorr::result::{Record, RuleError};
use crate::format::lorr::{Edition, Problem};
use tasks::{Deal2023, Pool2024};

/// A robot's state: its cell and its facing (0 East, 1 South, 2 West, 3 North).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Flat cell, `row × width + col`.
    pub cell: u32,
    /// 0 East, 1 South, 2 West, 3 North.
    pub facing: u8,
}

/// One timestep's action of a robot: the crowd's rotation step's own ([`crate::crowd::Action`]).
pub use crate::crowd::Action;

/// The state after `act`, ignoring the map (a forward move off the map or into a wall is for
/// [`check_step`] to refuse); `None` if it would leave the cell range.
pub fn after(act: Action, s: State, width: u32, len: u32) -> Option<State> {
    Some(match act {
        Action::Forward => State {
            cell: ahead(s.cell, s.facing, width, len)?,
            facing: s.facing,
        },
        Action::Clockwise => State {
            cell: s.cell,
            facing: (s.facing + 1) % 4,
        },
        Action::CounterClockwise => State {
            cell: s.cell,
            facing: (s.facing + 3) % 4,
        },
        Action::Wait => s,
    })
}

/// Checks one joint step by LoRR's rules, robots in index order, and returns the first
/// broken rule as `(robot, other robot or -1, text)`. `scratch` holds one entry a cell, all
/// [`NONE`], and is left so.
pub fn check_step(
    grid: &crate::grid::Grid,
    prev: &[State],
    actions: &[Action],
    scratch: &mut [[u32; 2]],
) -> Result<(), (i64, i64, &'static str)> {
    let (w, len) = (grid.width(), grid.len() as u32);
    for (i, s) in prev.iter().enumerate() {
        scratch[s.cell as usize][0] = i as u32;
    }
    let mut result = Ok(());
    let mut entered = Vec::with_capacity(prev.len());
    for (i, (s, a)) in prev.iter().zip(actions).enumerate() {
        let next = after(*a, *s, w, len).filter(|n| grid.weight(n.cell as usize) != 0);
        let Some(next) = next else {
            result = Err((i as i64, -1, "unallowed move"));
            break;
        };
        let there = &mut scratch[next.cell as usize];
        if there[1] != NONE {
            result = Err((i as i64, there[1] as i64, "vertex conflict"));
            break;
        }
        there[1] = i as u32;
        entered.push(next.cell);
        let j = there[0];
        if next.cell != s.cell && j != NONE && (j as usize) < i {
            let back = after(actions[j as usize], prev[j as usize], w, len);
            if back.is_some_and(|b| b.cell == s.cell) {
                result = Err((i as i64, j as i64, "edge conflict"));
                break;
            }
        }
    }
    for s in prev {
        scratch[s.cell as usize][0] = NONE;
    }
    for c in entered {
        scratch[c as usize][1] = NONE;
    }
    result
}

/// How a run is played.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Timesteps to play (fewer if a finite 2023 strategy runs out of tasks).
    pub steps: u64,
    /// How long the simulator waits for the entry each timestep.
    pub step_time_limit: Duration,
    /// 2024: the scheduler ([`SchedulerKind`]).
    pub scheduler: SchedulerKind,
    /// Robots that work, the others parked ([`Parking`]); `None`: all work.
    pub parking: Option<Parking>,
    /// Robots that may head for one goal at once: in 2024 the matching scheduler's bound on
    /// first errands ([`MatchingScheduler::with_queue`]), in 2023 the nearest robots keep a
    /// shared goal and the others wait without one (`queue.rs`). `None`: no bound.
    pub queue: Option<u32>,
    /// 2024, the matching scheduler: how many times a move to a task's first errand counts
    /// against a move between its errands ([`MatchingScheduler::with_approach`]); 1 prices
    /// both alike, as the start-kit does.
    pub approach: u64,
}

/// Which 2024 scheduler the entry runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SchedulerKind {
    /// The start-kit's greedy default ([`GreedyScheduler`]).
    #[default]
    Greedy,
    /// The matching redone each timestep ([`MatchingScheduler`]).
    Matching,
}

/// What a run did: the result file's record, and each planning call's own time.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Everything the result JSON reports.
    pub record: Record,
    /// Seconds each call of the entry (schedule and plan) took, in order.
    pub plan_seconds: Vec<f64>,
    /// Seconds the planner's preprocessing took, before timestep 0.
    pub preprocess_seconds: f64,
    /// What the planner says of its run ([`Planner::summary`]), if anything.
    pub planner_summary: Option<String>,
}

/// What the simulator sends the entry.
struct Request {
    states: Vec<State>,
    goals: Vec<Option<u32>>,
    revealed: Vec<(u64, Vec<u32>)>,
}

/// What the entry answers.
struct Reply {
    actions: Vec<Action>,
    schedule: Option<Vec<Option<u64>>>,
    seconds: f64,
}

/// The simulator's state between timesteps.
struct Sim<'a> {
    problem: &'a Problem,
    states: Vec<State>,
    record: Record,
    deal: Option<Deal2023>,
    pool: Option<Pool2024>,
    scratch: Vec<[u32; 2]>,
}

impl<'a> Sim<'a> {
    fn new(problem: &'a Problem) -> Sim<'a> {
        let mut record = Record::new(problem.edition, problem.grid.width(), &problem.starts);
        let (mut deal, mut pool) = (None, None);
        match problem.edition {
            Edition::Lorr2023 => {
                let mut d = Deal2023::new(problem);
                d.update(&problem.tasks, 0, &mut record);
                deal = Some(d);
            }
            Edition::Lorr2024 => {
                let mut p = Pool2024::new(problem);
                p.reveal(&problem.tasks, 0, &mut record);
                pool = Some(p);
            }
        }
        Sim {
            problem,
            states: problem
                .starts
                .iter()
                .map(|&cell| State { cell, facing: 0 })
                .collect(),
            record,
            deal,
            pool,
            scratch: vec![[NONE; 2]; problem.grid.len()],
        }
    }

    fn request(&mut self) -> Request {
        let tasks = &self.problem.tasks;
        let n = self.states.len();
        let (goals, revealed) = match (&self.deal, &mut self.pool) {
            (Some(d), _) => ((0..n).map(|a| d.goal(a)).collect(), Vec::new()),
            (_, Some(p)) => (
                (0..n).map(|a| p.goal(a, tasks)).collect(),
                std::mem::take(&mut p.fresh),
            ),
            _ => (vec![None; n], Vec::new()),
        };
        Request {
            states: self.states.clone(),
            goals,
            revealed,
        }
    }

    fn finished_all(&self) -> bool {
        self.deal.as_ref().is_some_and(Deal2023::all_done)
    }

    /// Plays one timestep with the entry's reply, or without one (a lost step).
    fn step(&mut self, reply: Option<Reply>) {
        let rec = &mut self.record;
        rec.timesteps += 1;
        let t = rec.timesteps;
        if let Some(d) = &self.deal {
            for a in 0..self.states.len() {
                rec.cost[a] += u64::from(d.busy(a));
            }
        }
        let n = self.states.len();
        let mut actions = vec![Action::Wait; n];
        match &reply {
            Some(r) if r.actions.len() == n => {
                for a in 0..n {
                    rec.planned[a].push(r.actions[a].letter() as u8);
                }
                match check_step(
                    &self.problem.grid,
                    &self.states,
                    &r.actions,
                    &mut self.scratch,
                ) {
                    Ok(()) => actions.copy_from_slice(&r.actions),
                    Err((agent, other, text)) => rec.errors.push(RuleError {
                        agent,
                        other,
                        timestep: t,
                        text,
                    }),
                }
            }
            _ => {
                for p in &mut rec.planned {
                    p.push(b'T');
                }
                match (self.problem.edition, reply.is_some()) {
                    (Edition::Lorr2024, false) => rec.entry_timeouts += 1,
                    _ => rec.errors.push(RuleError {
                        agent: -1,
                        other: -1,
                        timestep: t,
                        text: "incorrect vector size",
                    }),
                }
            }
        }
        let (w, len) = (self.problem.grid.width(), self.problem.grid.len() as u32);
        for ((s, act), letters) in self.states.iter_mut().zip(&actions).zip(&mut rec.actual) {
            *s = after(*act, *s, w, len).unwrap_or(*s);
            letters.push(act.letter() as u8);
        }
        let tasks = &self.problem.tasks;
        if let Some(d) = &mut self.deal {
            d.check_finished(&self.states, t, rec);
            d.update(tasks, t, rec);
        }
        if let Some(p) = &mut self.pool {
            if let Some(schedule) = reply.as_ref().and_then(|r| r.schedule.as_ref()) {
                p.apply_schedule(schedule, t, rec);
            }
            p.check_finished(&self.states, tasks, t, rec);
            p.reveal(tasks, t, rec);
        }
    }
}

/// The entry's thread: it answers requests until the simulator hangs up.
fn entry_loop(
    mut planner: Box<dyn Planner>,
    mut scheduler: Option<Box<dyn Scheduler>>,
    mut parked: Option<park::Parked>,
    mut queue: Option<queue::GoalQueue>,
    requests: mpsc::Receiver<Request>,
    replies: mpsc::Sender<Reply>,
) -> Option<String> {
    let mut actions = Vec::new();
    for mut req in requests {
        let start = Instant::now();
        let schedule = scheduler.as_mut().map(|s| {
            for (id, errands) in &req.revealed {
                s.reveal(*id, errands);
            }
            match &mut parked {
                Some(p) => p.schedule(s.as_mut(), &req.states, &mut req.goals),
                None => s.schedule(&req.states, &mut req.goals),
            }
        });
        if let Some(p) = &parked {
            p.hide_goals(&mut req.goals);
        }
        if let Some(q) = &mut queue {
            q.hide_goals(&req.states, &mut req.goals);
        }
        planner.plan(&req.states, &req.goals, &mut actions);
        let reply = Reply {
            actions: actions.clone(),
            schedule,
            seconds: start.elapsed().as_secs_f64(),
        };
        if replies.send(reply).is_err() {
            break;
        }
    }
    planner.summary()
}

/// Plays `problem` with `planner` under `settings`. `progress(timestep, finished)` is called
/// after every timestep. Fails only if the planner's thread dies.
pub fn run(
    problem: &Problem,
    planner: Box<dyn Planner>,
    settings: Settings,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Outcome, String> {
    let mut sim = Sim::new(problem);
    let mut planner = planner;
    let started = Instant::now();
    let mut first = sim.request();
    let grid = &problem.grid;
    let (w, len) = (grid.width(), grid.len() as u32);
    let open = |cell: u32| {
        (0..4).all(|f| ahead(cell, f, w, len).is_some_and(|n| grid.weight(n as usize) != 0))
    };
    let trunk = (settings.parking)
        .filter(|p| p.off_trunk)
        .map(|p| trunk::trunk(grid, p.seed));
    let may_park = |a: usize| {
        let cell = first.states[a].cell;
        open(cell) && trunk.as_ref().is_none_or(|t| !t[cell as usize])
    };
    let parked =
        (settings.parking).and_then(|p| park::Parked::new(first.states.len(), p, may_park));
    if let Some(p) = &parked {
        p.hide_goals(&mut first.goals);
    }
    planner.preprocess(&first.states, &first.goals);
    if let Some(pool) = &mut sim.pool {
        // The entry is still to be told of the tasks revealed at timestep 0.
        pool.fresh = first.revealed;
    }
    let preprocess_seconds = started.elapsed().as_secs_f64();
    let (req_tx, req_rx) = mpsc::channel::<Request>();
    let (rep_tx, rep_rx) = mpsc::channel::<Reply>();
    // In 2023 the entry bounds the robots a goal; in 2024 the matching scheduler does.
    let queue = (settings.queue)
        .filter(|_| problem.edition == Edition::Lorr2023)
        .map(|q| queue::GoalQueue::new(q, problem.grid.width()));
    let scheduler = (problem.edition == Edition::Lorr2024).then(|| -> Box<dyn Scheduler> {
        match settings.scheduler {
            SchedulerKind::Greedy => Box::new(GreedyScheduler::new(&problem.grid)),
            SchedulerKind::Matching => {
                let matching = MatchingScheduler::new(&problem.grid, DEFAULT_BUDGET)
                    .with_approach(settings.approach);
                Box::new(match settings.queue {
                    Some(q) => matching.with_queue(q),
                    None => matching,
                })
            }
        }
    });
    let worker = std::thread::Builder::new()
        .name("lorr-entry".into())
        // Pushes recurse along a chain of robots, at most one frame a robot.
        .stack_size(256 << 20)
        .spawn(move || entry_loop(planner, scheduler, parked, queue, req_rx, rep_tx))
        .map_err(|e| format!("cannot start the planner's thread: {e}"))?;
    let mut plan_seconds = Vec::new();
    let mut in_flight = false;
    for _ in 0..settings.steps {
        if sim.finished_all() {
            break;
        }
        if !in_flight {
            req_tx
                .send(sim.request())
                .map_err(|_| "the planner's thread stopped".to_string())?;
            in_flight = true;
        }
        let waited = Instant::now();
        let reply = match rep_rx.recv_timeout(settings.step_time_limit) {
            Ok(r) => {
                in_flight = false;
                plan_seconds.push(r.seconds);
                Some(r)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err("the planner's thread stopped".into());
            }
        };
        sim.record
            .planner_times
            .push(waited.elapsed().as_secs_f64());
        sim.step(reply);
        progress(sim.record.timesteps, sim.record.finished);
    }
    drop(req_tx);
    let planner_summary = worker
        .join()
        .map_err(|_| "the planner's thread panicked".to_string())?;
    Ok(Outcome {
        record: sim.record,
        plan_seconds,
        preprocess_seconds,
        planner_summary,
    })
}

/// Plays `planner` for `steps` steps from `states` toward `goals` on `grid`, every joint step
/// checked by the rules ([`check_step`], which knows nothing of the planner); a robot that
/// stands on its goal is given the next from `next_goal`; `seed` names the run in a failure.
/// Returns the goals reached.
#[cfg(test)]
pub(crate) fn play_checked(
    planner: &mut dyn Planner,
    grid: &crate::grid::Grid,
    (states, goals): (&mut [State], &mut [Option<u32>]),
    (steps, seed): (usize, u64),
    mut next_goal: impl FnMut() -> u32,
) -> usize {
    let mut actions = Vec::new();
    let mut scratch = vec![[NONE; 2]; grid.len()];
    let mut reached = 0;
    for t in 0..steps {
        planner.plan(states, goals, &mut actions);
        let ok = check_step(grid, states, &actions, &mut scratch);
        assert_eq!(ok, Ok(()), "seed {seed}, {} robots, step {t}", states.len());
        for (a, s) in states.iter_mut().enumerate() {
            *s = after(actions[a], *s, grid.width(), grid.len() as u32).unwrap();
            if goals[a] == Some(s.cell) {
                reached += 1;
                goals[a] = Some(next_goal());
            }
        }
    }
    reached
}

/// `robots` robots on a 10 × 10 grid with walls drawn by `seed`, each given a new random goal
/// when it reaches one, stepped `steps` times by the planner `make` gives for the grid: every
/// joint step must pass the rules ([`check_step`], which knows nothing of the planner).
/// Returns the goals reached.
#[cfg(test)]
pub(crate) fn play_random(
    (robots, seed, steps): (usize, u64, usize),
    make: impl FnOnce(&crate::grid::Grid) -> Box<dyn Planner>,
) -> usize {
    use crate::grid::{Grid, Pos, Terrain};
    use crate::rng::{Draw, SeedableRng, SplitMix64};
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut grid = Grid::new(10, 10).unwrap();
    for _ in 0..12 {
        let (x, y) = (rng.below(10) as u32, rng.below(10) as u32);
        grid.set(Pos::new(x, y), Terrain::Wall).unwrap();
    }
    // The largest connected part only, so that every goal can be reached.
    let free: Vec<u32> = (0..100).filter(|&c| grid.weight(c as usize) != 0).collect();
    let mut bfs = dist::Bfs::new(&grid);
    let mut d = vec![0u16; 100];
    let part: Vec<u32> = free
        .iter()
        .map(|&c| {
            bfs.fill(c, &mut d);
            free.iter().filter(|&&o| d[o as usize] != u16::MAX).count() as u32
        })
        .collect();
    let big = *part.iter().max().unwrap();
    let seedc = free[part.iter().position(|&p| p == big).unwrap()];
    bfs.fill(seedc, &mut d);
    let mut cells: Vec<u32> = free
        .into_iter()
        .filter(|&c| d[c as usize] != u16::MAX)
        .collect();
    assert!(cells.len() >= robots);
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i + 1));
    }
    let pick = |rng: &mut SplitMix64| cells[rng.below(cells.len())];
    let (mut states, mut goals) = random_robots(&cells, &cells, robots, &mut rng);
    let mut p = make(&grid);
    play_checked(
        &mut *p,
        &grid,
        (&mut states, &mut goals),
        (steps, seed),
        || pick(&mut rng),
    )
}

/// `robots` robots standing on the first of `cells`, each facing a way drawn from `rng`, then
/// each heading for a goal drawn from `goals_from`.
#[cfg(test)]
pub(crate) fn random_robots(
    cells: &[u32],
    goals_from: &[u32],
    robots: usize,
    rng: &mut crate::rng::SplitMix64,
) -> (Vec<State>, Vec<Option<u32>>) {
    use crate::rng::Draw;
    let states = cells[..robots]
        .iter()
        .map(|&cell| State {
            cell,
            facing: rng.below(4) as u8,
        })
        .collect();
    let goals = (0..robots)
        .map(|_| Some(goals_from[rng.below(goals_from.len())]))
        .collect();
    (states, goals)
}

/// [`play_random`] with 5 to 80 robots on six seeds' maps, the planner `make` gives for a
/// grid and a seed: every step must pass the rules.
#[cfg(test)]
pub(crate) fn check_sparse_to_packed(make: impl Fn(&crate::grid::Grid, u64) -> Box<dyn Planner>) {
    for seed in 0..6 {
        for robots in [5, 30, 60, 80] {
            play_random((robots, seed, 120), |grid| make(grid, seed));
        }
    }
}

/// Five robots on a 10 × 10 grid hardly meet: each should reach a goal about every dozen
/// steps (mean distance about 7 moves, plus turns), so at least 40 in 200 steps on each of
/// four seeds' maps.
#[cfg(test)]
pub(crate) fn check_open_ground(make: impl Fn(&crate::grid::Grid, u64) -> Box<dyn Planner>) {
    for seed in 0..4 {
        let reached = play_random((5, seed, 200), |grid| make(grid, seed));
        assert!(reached >= 40, "seed {seed}: {reached} goals");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn the_rules_refuse_conflicts_and_allow_following() {
        let g = Grid::new(3, 1).unwrap();
        let mut scratch = vec![[NONE; 2]; 3];
        let e = |c| State { cell: c, facing: 0 };
        let w = |c| State { cell: c, facing: 2 };
        use Action::*;
        assert_eq!(
            check_step(&g, &[e(0), e(1)], &[Forward, Forward], &mut scratch),
            Ok(())
        );
        assert_eq!(
            check_step(&g, &[e(0), e(1)], &[Forward, Wait], &mut scratch),
            Err((1, 0, "vertex conflict"))
        );
        assert_eq!(
            check_step(&g, &[e(0), w(1)], &[Forward, Forward], &mut scratch),
            Err((1, 0, "edge conflict"))
        );
        assert_eq!(
            check_step(&g, &[e(2)], &[Forward], &mut scratch),
            Err((0, -1, "unallowed move"))
        );
        assert!(scratch.iter().all(|s| *s == [NONE; 2]));
    }
}
