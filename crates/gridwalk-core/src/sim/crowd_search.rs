//! Crowd mode's real-time search: when PIBT leaves a one-shot crowd stalled, a real-time LaCAM
//! search kept across ticks ([`RealTime`]) moves the agents instead, until they all arrive.
//!
//! **When it engages.** Some agent has not come closer to its goal for [`ENGAGE_TICKS`] ticks,
//! and the crowd qualifies: every agent stays on arrival (a lifelong crowd steps by plain
//! PIBT instead, whose priorities keep it flowing: `crowd_step.rs`), the targets are distinct, nobody
//! waits to enter, not everyone stands on its target, and BFS distance tables measure what the
//! search minimises (every passable cell of one weight: a move, straight or diagonal, is one
//! timestep, as the crowd's statistics count it) and fit [`DEFAULT_RT_MEMORY_CAP`]. The search
//! is built over every agent, in the agents' order, from their cells to their targets, with
//! the tables (so a root starts from the one-shot search's initial paths, the scatter).
//!
//! **Targets.** A guided agent's target is its goal. An agent without guidance (walled off
//! from its goal, or its plan not ready under a budget) is held where it stood when the search
//! took it in, so that one agent that cannot arrive does not leave the rest of the crowd
//! stalled.
//!
//! **Preparing a root** takes the tables and the scatter, up to about a second of work on a
//! large crowd, so it is spread over ticks ([`Rooting`], [`ROOT_WORK_PER_TICK`] a tick), and
//! the crowd holds still meanwhile ([`Went::Waited`]): the search then starts where the
//! scatter's paths do, exactly the search that preparing it at once would give. (Letting the
//! step rule move the crowd meanwhile made the warehouse's sum of costs worse; see
//! docs/benchmarks.md.) A change that drops the search drops a root in preparation too.
//!
//! **While engaged**, each tick spends at most the crowd's budget of tries
//! ([`Simulation::set_crowd_budget`](super::Simulation::set_crowd_budget)) and its cells replace
//! the step rule's. Every move is one edge of the search's tree, a step PIBT generated, so
//! crowd mode's invariants hold.
//!
//! **Roots and endings.** The search is dropped, and a new root prepared while the crowd still
//! qualifies and stalls, when the world changes (an edit or the dynamic world), an agent enters or leaves,
//! a goal changes, or an agent stands elsewhere than the search put it. It ends when every
//! agent has arrived, when the crowd stops qualifying, and when it has exhausted its root (then
//! PIBT steps again, and the search waits for the world to change before it tries again).
//!
//! **Explain.** A searched tick's decision, for one agent, is [`SearchStep`]
//! ([`Simulation::crowd_search_step`](super::Simulation::crowd_search_step)): the
//! configuration the agents moved to, its depth in the search's tree, which way they went, and
//! the agent's cells.

use std::borrow::Cow;

use super::agents::AgentId;
use crate::grid::{Connectivity, Grid, Pos};
use crate::mapf::{
    DEFAULT_BUDGET, DEFAULT_RT_MEMORY_CAP, DistanceTables, Phase, RealTime, RealTimeOptions,
    Rooting, Tick,
};

/// Ticks without coming closer to its goal after which an agent makes the search engage.
pub const ENGAGE_TICKS: u32 = 20;

/// The most work a root's initial paths (the scatter) may take, in expansions (about 1 s on
/// the machine of docs/benchmarks.md, spread over ticks). It usually ends on its own well before (then the search
/// is the one-shot `mapf`'s); cut short at the engine's default, the crowd's sum of costs on
/// warehouse-10-20-10-2-1 with 400 agents went from 1.14× to 1.38× `mapf`'s first. Counted,
/// not timed, so runs replay exactly either way.
const SCATTER_WORK: u64 = 5_000_000;

/// The work a tick spends preparing a root ([`Rooting::work`]'s units): about 25 ms on the
/// machine of docs/benchmarks.md, so that no tick stops for the tables and the scatter.
pub const ROOT_WORK_PER_TICK: u64 = 100_000;

/// A root in preparation (it holds the goals), and the agents it is for.
struct Preparing {
    rooting: Rooting,
    /// The tick it began at.
    since: u64,
    ids: Vec<AgentId>,
    /// The bytes of its tables, allocated when it began.
    table_bytes: usize,
}

/// The search while it is engaged: the engine, its tables and the agents it was built for.
struct Engaged {
    rt: RealTime,
    tables: DistanceTables,
    table_bytes: usize,
    ids: Vec<AgentId>,
    /// The tick it was rooted at.
    since: u64,
}

/// Crowd mode's real-time search and its settings.
pub(super) struct CrowdSearch {
    /// The most tries a tick's search makes.
    pub(super) budget: usize,
    /// Seeds the search.
    seed: u64,
    engaged: Option<Engaged>,
    preparing: Option<Preparing>,
    /// The world changed since the last tick.
    pub(super) changed: bool,
    /// The agents and goals of a crowd whose root exhausted (or that the engine refused): no
    /// new root until the world or the crowd changes.
    gave_up: Option<(Vec<AgentId>, Vec<u32>)>,
    /// The last tick's figures when the search moved the agents, and their cells before it
    /// (a buffer kept across ticks).
    last: Option<Tick>,
    before: Vec<u32>,
    /// Whether the last tick's crowd waited for a root in preparation.
    waited: bool,
}

/// Which way a searched tick moved the agents along the search's tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Went {
    /// Down: one step towards the configuration the search is extending, or towards the goal
    /// configuration once it is known.
    Down,
    /// Up: one step back towards the root, to reach another branch.
    Up,
    /// Nowhere: the agents already stood on the target configuration.
    Stayed,
    /// Nowhere: the search was preparing its root (its tables and initial paths), and every
    /// agent waited; the configuration's number and depth are then 0.
    Waited,
}

/// How crowd mode's real-time search moved one agent on the last tick (explain's view of a
/// searched tick): every agent moved one edge of the search's tree, from one kept
/// configuration to another, or waited while the search prepared its root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchStep {
    /// The search's number of the configuration the agents moved to (the same number on two
    /// ticks means the same configuration, while the search is kept).
    pub node: u32,
    /// Its depth in the tree: configurations between it and the search's root.
    pub depth: usize,
    /// Which way the agents went.
    pub went: Went,
    /// Whether the search knew a configuration with every agent on its goal (the agents
    /// follow the tree's path to it), rather than still looking (they follow its frontier).
    pub following: bool,
    /// Tries the tick made, and the budget it had.
    pub tries: usize,
    /// The crowd's budget of tries a tick.
    pub budget: usize,
    /// Configurations the search keeps.
    pub configurations: usize,
    /// The agent's cell in the configuration before the tick, and in the one it moved to.
    pub from: Pos,
    /// See `from`.
    pub to: Pos,
    /// Agents in the configuration, and how many of them stand on their goal in it.
    pub agents: usize,
    /// See `agents`.
    pub on_goal: usize,
}

/// What the crowd looks like this tick, for the search to decide.
pub(super) struct CrowdView<'a> {
    pub(super) truth: &'a Grid,
    pub(super) conn: Connectivity,
    pub(super) ids: &'a [AgentId],
    /// Whether every agent stays on arrival.
    pub(super) one_shot: bool,
    pub(super) cur: &'a [u32],
    pub(super) goals: &'a [u32],
    /// Whether each agent has guidance.
    pub(super) guided: &'a [bool],
    /// Whether some agent has not come closer for [`ENGAGE_TICKS`] ticks.
    pub(super) stalled: bool,
    /// Whether agents wait to enter.
    pub(super) entering: bool,
    /// The tick being played.
    pub(super) tick: u64,
}

impl CrowdSearch {
    pub(super) fn new(seed: u64) -> CrowdSearch {
        CrowdSearch {
            budget: DEFAULT_BUDGET,
            seed,
            engaged: None,
            preparing: None,
            changed: false,
            gave_up: None,
            last: None,
            before: Vec::new(),
            waited: false,
        }
    }

    /// Tries the last tick's search made (0 when it did not move the agents).
    pub(super) fn tries(&self) -> usize {
        self.last.map_or(0, |t| t.tries)
    }

    /// Configurations the engaged search keeps (0 when it is not engaged).
    pub(super) fn configurations(&self) -> usize {
        self.engaged.as_ref().map_or(0, |e| e.rt.configurations())
    }

    /// Bytes the engaged search and its tables take, or the tables of a root in preparation.
    pub(super) fn bytes(&self) -> usize {
        let e = self.engaged.as_ref();
        let p = self.preparing.as_ref();
        e.map_or(0, |e| e.rt.bytes() + e.table_bytes) + p.map_or(0, |p| p.table_bytes)
    }

    /// This tick's cells from the search, or `None` for the step rule to move the agents.
    pub(super) fn next(&mut self, v: &CrowdView) -> Option<Vec<u32>> {
        self.last = None;
        self.waited = false;
        let targets = self.targets(v);
        let v = &CrowdView {
            goals: &targets,
            ..*v
        };
        self.forget_stale(v);
        if !qualifies(v) {
            self.engaged = None;
            self.preparing = None;
            return None;
        }
        if self.engaged.is_none() {
            let asked = v.stalled || self.preparing.is_some();
            if !asked || self.gave_up.is_some() {
                return None;
            }
            if !self.prepare(v) {
                // The crowd holds still while the root is prepared, so that the search starts
                // where the scatter's paths do.
                self.waited = self.preparing.is_some();
                self.before.clear();
                self.before.extend_from_slice(v.cur);
                return self.waited.then(|| v.cur.to_vec());
            }
        }
        let e = self.engaged.as_mut()?;
        match e.rt.tick(v.truth, &e.tables) {
            Ok(t) if t.phase != Phase::Exhausted => {
                self.last = Some(t);
                self.before.clear();
                self.before.extend_from_slice(v.cur);
                Some(e.rt.cells().to_vec())
            }
            _ => {
                self.engaged = None;
                self.give_up(v);
                None
            }
        }
    }

    /// Drops the engaged search, the root in preparation and a give-up that the world or the
    /// crowd has outdated.
    fn forget_stale(&mut self, v: &CrowdView) {
        let changed = std::mem::take(&mut self.changed);
        let moved_on = |ids: &[AgentId], cells: &[u32], goals: &[u32]| {
            ids != v.ids || cells != v.cur || goals != v.goals
        };
        if changed
            || (self.engaged.as_ref()).is_some_and(|e| moved_on(&e.ids, e.rt.cells(), e.rt.goals()))
        {
            self.engaged = None;
        }
        let other = |ids: &[AgentId], goals: &[u32]| ids != v.ids || goals != v.goals;
        if changed || (self.preparing.as_ref()).is_some_and(|p| other(&p.ids, p.rooting.goals())) {
            self.preparing = None;
        }
        if changed || (self.gave_up.as_ref()).is_some_and(|(ids, goals)| other(ids, goals)) {
            self.gave_up = None;
        }
    }

    /// Where the search takes each agent: a guided agent to its goal; one without guidance
    /// (no path to its goal, or its plan not ready) stays where it stood when the search (or
    /// the root it gave up on) took it in, or where it stands now.
    fn targets<'a>(&self, v: &CrowdView<'a>) -> Cow<'a, [u32]> {
        if v.guided.iter().all(|&g| g) {
            return Cow::Borrowed(v.goals);
        }
        let e = (self.engaged.as_ref()).map(|e| (&e.ids[..], e.rt.goals()));
        let p = (self.preparing.as_ref()).map(|p| (&p.ids[..], p.rooting.goals()));
        let g = (self.gave_up.as_ref()).map(|(ids, goals)| (&ids[..], &goals[..]));
        let kept = [e, p, g]
            .into_iter()
            .flatten()
            .find(|&(ids, _)| ids == v.ids);
        let kept = kept.map(|(_, goals)| goals);
        (0..v.ids.len())
            .map(|i| match (v.guided[i], kept) {
                (true, _) => v.goals[i],
                // Held where it stood then; a target that was its goal holds no longer.
                (false, Some(k)) if k[i] != v.goals[i] => k[i],
                (false, _) => v.cur[i],
            })
            .collect()
    }

    /// No new root for this crowd until the world or the crowd changes.
    fn give_up(&mut self, v: &CrowdView) {
        self.gave_up = Some((v.ids.to_vec(), v.goals.to_vec()));
    }

    /// Spends this tick's work on a root for the crowd as it stands (begun on an earlier tick,
    /// or now); once it is ready, engages the search rooted where the agents stand and returns
    /// true. A crowd the engine refuses waits for the world to change.
    fn prepare(&mut self, v: &CrowdView) -> bool {
        if self.preparing.is_none() {
            let options = RealTimeOptions {
                budget: self.budget,
                seed: self.seed,
                scatter_work: SCATTER_WORK,
                ..RealTimeOptions::default()
            };
            match Rooting::new(v.truth, v.conn, v.cur, v.goals, options) {
                Ok(rooting) => {
                    self.preparing = Some(Preparing {
                        rooting,
                        since: v.tick,
                        ids: v.ids.to_vec(),
                        table_bytes: DistanceTables::bytes_needed(v.truth.len(), v.goals),
                    })
                }
                Err(_) => {
                    self.give_up(v);
                    return false;
                }
            }
        }
        let p = self.preparing.as_mut().expect("a root in preparation");
        if !p.rooting.work(ROOT_WORK_PER_TICK) {
            return false;
        }
        let p = self.preparing.take().expect("a root in preparation");
        match p.rooting.finish(v.truth, v.cur) {
            Ok((rt, tables)) => {
                self.engaged = Some(Engaged {
                    rt,
                    tables,
                    table_bytes: p.table_bytes,
                    ids: p.ids,
                    since: p.since,
                });
                true
            }
            Err(_) => {
                self.give_up(v);
                false
            }
        }
    }
}

impl CrowdSearch {
    /// The tick at which the search took over from the step rule (its latest root), while it
    /// moves the agents or holds them still for a root; `None` otherwise.
    pub(super) fn since(&self) -> Option<u64> {
        if self.waited {
            return Some(self.preparing.as_ref()?.since);
        }
        self.last?;
        Some(self.engaged.as_ref()?.since)
    }

    /// Whether the search held the crowd still on the last tick while it prepared its root
    /// ([`Went::Waited`]).
    pub(super) fn waited(&self) -> bool {
        self.waited
    }

    /// How the search moved agent `id` on the last tick, when it did; cells are shown as
    /// `grid`'s positions. Costs the configuration's depth.
    pub(super) fn step_of(&self, id: AgentId, grid: &Grid) -> Option<SearchStep> {
        if self.waited {
            return self.wait_of(id, grid);
        }
        let (tick, e) = (self.last?, self.engaged.as_ref()?);
        let i = e.ids.binary_search(&id).ok()?;
        let (cells, goals) = (e.rt.cells(), e.rt.goals());
        let cell = |c: u32| grid.pos(c as usize);
        let went = match (tick.moved, tick.up) {
            (false, _) => Went::Stayed,
            (true, true) => Went::Up,
            (true, false) => Went::Down,
        };
        Some(SearchStep {
            node: e.rt.node(),
            depth: e.rt.depth(),
            went,
            following: matches!(tick.phase, Phase::Following | Phase::Arrived),
            tries: tick.tries,
            budget: self.budget,
            configurations: tick.configurations,
            from: cell(*self.before.get(i)?),
            to: cell(cells[i]),
            agents: cells.len(),
            on_goal: on_goal(cells, goals),
        })
    }

    /// [`step_of`](Self::step_of) on a tick the crowd waited for the root.
    fn wait_of(&self, id: AgentId, grid: &Grid) -> Option<SearchStep> {
        let p = self.preparing.as_ref()?;
        let i = p.ids.binary_search(&id).ok()?;
        let at = grid.pos(*self.before.get(i)? as usize);
        Some(SearchStep {
            node: 0,
            depth: 0,
            went: Went::Waited,
            following: false,
            tries: 0,
            budget: self.budget,
            configurations: 0,
            from: at,
            to: at,
            agents: p.ids.len(),
            on_goal: on_goal(&self.before, p.rooting.goals()),
        })
    }
}

/// How many agents of a configuration stand on their goals.
fn on_goal(cells: &[u32], goals: &[u32]) -> usize {
    cells.iter().zip(goals).filter(|(c, g)| c == g).count()
}

/// Whether the crowd may be moved by the search (see the module docs).
fn qualifies(v: &CrowdView) -> bool {
    if v.entering || v.ids.is_empty() || v.cur == v.goals {
        return false;
    }
    if !v.one_shot {
        return false;
    }
    if DistanceTables::bytes_needed(v.truth.len(), v.goals) > DEFAULT_RT_MEMORY_CAP {
        return false;
    }
    let mut goals = v.goals.to_vec();
    goals.sort_unstable();
    goals.dedup();
    goals.len() == v.goals.len() && uniform(v.truth)
}

/// Whether every passable cell of `grid` has one weight: BFS distances are then exact.
fn uniform(grid: &Grid) -> bool {
    let mut w = grid.weights().iter().filter(|&&w| w != 0);
    let first = w.next();
    w.all(|x| Some(x) == first)
}
