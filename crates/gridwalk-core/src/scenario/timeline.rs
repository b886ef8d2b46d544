//! What a scenario makes happen by tick: agents that appear, edits and dynamic-world
//! settings, and the one order in which a tick's share of them applies to a [`Simulation`].
//!
//! A [`Timeline`] is the timed part of a [`Scenario`] (its `agents`, `edits`, `dynamic` and
//! `sensing` lists, in file order), read with [`Timeline::of`] and written back with
//! [`Timeline::to_scenario`]. `gridwalk-cli simulate` plays one through
//! [`Replay`](crate::scenario::replay::Replay); the game plays a loaded scenario through one, pushes the
//! user's spawns, edits and dynamic-world changes into it at their tick, and records the
//! session by writing it out, so a recording replays through the same code that made it.
//!
//! [`Timeline::apply`] applies tick `t`'s share in this order:
//! 1. the dynamic-world settings of tick `t` ([`Simulation::set_dynamic`]), in list order, so
//!    the last one of the tick holds; then the sensor ranges of tick `t`
//!    ([`Simulation::set_sensor_range`]) likewise;
//! 2. the agents of tick `t` ([`Simulation::add_agent_with`]), in list order; one whose start
//!    or goal is a wall by then is refused;
//! 3. the edits of tick `t` ([`Simulation::edit`]), in list order, each edit's cells in order;
//!    an edit of a cell that holds an agent or is a goal is refused.
//!
//! A tick's agents and edits are found by binary search while their lists are in tick order
//! (the game pushes its input at the tick being played, so they stay so), and by a walk of
//! the whole list otherwise: a tick costs what happens at it, not the session's length.
//!
//! The caller then runs the tick itself: [`Simulation::replan`] at tick 0 (the first plan,
//! before anyone moves), [`Simulation::step`] at every later tick.
//!
//! ```
//! use gridwalk_core::format::Scenario;
//! use gridwalk_core::sim::{SimConfig, Simulation};
//! use gridwalk_core::scenario::timeline::Timeline;
//! use gridwalk_core::{Pos, Terrain};
//!
//! let text = r#"(
//!     rows: ["....", "...."],
//!     agents: [(start: (0, 0), goal: (3, 0)), (start: (0, 1), goal: (3, 1), tick: 1)],
//!     edits: [(tick: 1, set: Wall, cells: [(0, 1), (2, 1)])],
//! )"#;
//! let scenario = Scenario::parse(text, "example.ron").unwrap();
//! let timeline = Timeline::of(&scenario);
//! let mut sim = Simulation::new(scenario.grid.clone(), SimConfig::default());
//! let first = timeline.apply(0, &mut sim);
//! assert_eq!(first.appeared, vec![(0, 0)]);
//! sim.replan();
//! // At tick 1 the second agent appears first, so walling its start is refused.
//! let second = timeline.apply(1, &mut sim);
//! assert_eq!(second.appeared, vec![(1, 1)]);
//! assert_eq!(second.refused.len(), 1);
//! assert_eq!(second.refused[0].0, Pos::new(0, 1));
//! assert_eq!(sim.grid().terrain(Pos::new(2, 1)), Ok(Terrain::Wall));
//! sim.step();
//! assert_eq!(timeline.to_scenario(&scenario), scenario);
//! ```

use std::ops::Range;

use crate::format::{AgentSpec, CellSet, DynamicSpec, EditSpec, Scenario, SensingSpec};
use crate::grid::{Pos, Terrain};
use crate::sim::{AgentId, DynamicWorld, SimError, Simulation};

/// The timed events of a scenario, by tick. See the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    agents: Vec<AgentSpec>,
    edits: Vec<EditSpec>,
    dynamic: Vec<DynamicSpec>,
    sensing: Vec<SensingSpec>,
    /// Whether `agents`, and `edits`, are out of tick order: always exactly what the lists
    /// hold, so equal timelines have equal flags.
    agents_unordered: bool,
    edits_unordered: bool,
}

/// The places of `list` that may hold tick `tick`'s entries (`tick_of` gives an entry's):
/// the run of that tick when the list is in tick order, else the whole list.
fn share_of<T>(
    list: &[T],
    is_unordered: bool,
    tick: u64,
    tick_of: impl Fn(&T) -> u64,
) -> Range<usize> {
    if is_unordered {
        return 0..list.len();
    }
    let start = list.partition_point(|x| tick_of(x) < tick);
    start..start + list[start..].partition_point(|x| tick_of(x) == tick)
}

/// What [`Timeline::apply`] did with one tick's share.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The agents that appeared, in list order: each one's index in [`Timeline::agents`] and
    /// its simulation id.
    pub appeared: Vec<(usize, AgentId)>,
    /// The agents that could not appear, in list order: index and why.
    pub rejected: Vec<(usize, SimError)>,
    /// The edited cells that were refused, in order, with why.
    pub refused: Vec<(Pos, SimError)>,
    /// How many cells changed.
    pub changed: usize,
    /// `(edit, cell)` places of the cells refused or already so, for
    /// [`Timeline::forget_ineffective`].
    idle: Vec<(usize, usize)>,
}

impl Timeline {
    /// The timed events of `scenario`, in its order.
    pub fn of(scenario: &Scenario) -> Timeline {
        Timeline::from_parts(
            scenario.agents.clone(),
            scenario.edits.clone(),
            scenario.dynamic.clone(),
        )
        .with_sensing(scenario.sensing.clone())
    }

    /// A timeline of these agents, edits and dynamic-world settings, in this order.
    pub fn from_parts(
        agents: Vec<AgentSpec>,
        edits: Vec<EditSpec>,
        dynamic: Vec<DynamicSpec>,
    ) -> Timeline {
        Timeline {
            agents,
            edits,
            dynamic,
            ..Timeline::default()
        }
        .with_order_checked()
    }

    /// This timeline with its order flags set from its lists.
    fn with_order_checked(mut self) -> Timeline {
        self.check_order();
        self
    }

    /// Sets the order flags from the lists.
    fn check_order(&mut self) {
        self.agents_unordered = !self.agents.is_sorted_by_key(|a| a.tick);
        self.edits_unordered = !self.edits.is_sorted_by_key(|e| e.tick);
    }

    /// The places of [`Self::agents`] that may hold tick `tick`'s.
    fn agents_share(&self, tick: u64) -> Range<usize> {
        share_of(&self.agents, self.agents_unordered, tick, |a| a.tick)
    }

    /// The places of [`Self::edits`] that may hold tick `tick`'s.
    fn edits_share(&self, tick: u64) -> Range<usize> {
        share_of(&self.edits, self.edits_unordered, tick, |e| e.tick)
    }

    /// This timeline with `sensing` as its sensor-range changes, in this order.
    pub fn with_sensing(mut self, sensing: Vec<SensingSpec>) -> Timeline {
        self.sensing = sensing;
        self
    }

    /// `base` (its map, moves and seed) with this timeline as its agents, edits and dynamic
    /// world: the inverse of [`Timeline::of`].
    pub fn to_scenario(&self, base: &Scenario) -> Scenario {
        self.clone().into_scenario(base.clone())
    }

    /// [`Timeline::to_scenario`], taking both: the map is not copied.
    pub fn into_scenario(self, base: Scenario) -> Scenario {
        Scenario {
            agents: self.agents,
            edits: self.edits,
            dynamic: self.dynamic,
            sensing: self.sensing,
            ..base
        }
    }

    /// The agents, in order.
    pub fn agents(&self) -> &[AgentSpec] {
        &self.agents
    }

    /// The edits, in order.
    pub fn edits(&self) -> &[EditSpec] {
        &self.edits
    }

    /// The dynamic world's settings, in order.
    pub fn dynamic(&self) -> &[DynamicSpec] {
        &self.dynamic
    }

    /// The sensor range's changes, in order.
    pub fn sensing(&self) -> &[SensingSpec] {
        &self.sensing
    }

    /// Whether nothing at all happens.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
            && self.edits.is_empty()
            && self.dynamic.is_empty()
            && self.sensing.is_empty()
    }

    /// The agents that appear at `tick`, in order.
    pub fn agents_at(&self, tick: u64) -> impl Iterator<Item = &AgentSpec> + '_ {
        let share = &self.agents[self.agents_share(tick)];
        share.iter().filter(move |a| a.tick == tick)
    }

    /// Adds an agent at its tick, after every agent already listed.
    pub fn push_agent(&mut self, agent: AgentSpec) {
        self.agents_unordered |= self.agents.last().is_some_and(|a| a.tick > agent.tick);
        self.agents.push(agent);
    }

    /// Adds an edit of `pos` at `tick`, after every edit already listed. It joins the last
    /// edit when that one has the same tick and terrain.
    pub fn push_edit(&mut self, tick: u64, pos: Pos, terrain: Terrain) {
        let set = CellSet::from_terrain(terrain);
        match self.edits.last_mut() {
            Some(e) if e.tick == tick && e.set == set => e.cells.push(pos),
            last => {
                self.edits_unordered |= last.is_some_and(|e| e.tick > tick);
                self.edits.push(EditSpec {
                    tick,
                    set,
                    cells: vec![pos],
                })
            }
        }
    }

    /// Adds a dynamic-world setting from `tick` on, after every setting already listed. It
    /// replaces the last one when that one has the same tick: only the last of a tick holds.
    pub fn push_dynamic(&mut self, tick: u64, setting: Option<DynamicWorld>) {
        if self.dynamic.last().is_some_and(|d| d.tick == tick) {
            self.dynamic.pop();
        }
        self.dynamic.push(DynamicSpec::new(tick, setting));
    }

    /// Sets the dynamic world of `sim` now, between two ticks, and lists it at `tick`, the
    /// next one, so that a replay sets it before that tick's agents and edits. Being the
    /// last setting of its tick, it still holds when [`Timeline::apply`] sets that tick's.
    pub fn set_dynamic_now(
        &mut self,
        tick: u64,
        setting: Option<DynamicWorld>,
        sim: &mut Simulation,
    ) {
        sim.set_dynamic(setting);
        self.push_dynamic(tick, sim.dynamic());
    }

    /// Adds a sensor-range change (`None`: off) from `tick` on, after every change already
    /// listed. It replaces the last one when that one has the same tick: only the last of a
    /// tick holds.
    pub fn push_sensing(&mut self, tick: u64, range: Option<u32>) {
        if self.sensing.last().is_some_and(|s| s.tick == tick) {
            self.sensing.pop();
        }
        self.sensing.push(SensingSpec::new(tick, range));
    }

    /// Sets the sensor range of `sim` now (`None`: off), between two ticks, and lists it at
    /// `tick`, the next one, so that a replay sets it before that tick's agents and edits.
    pub fn set_sensing_now(&mut self, tick: u64, range: Option<u32>, sim: &mut Simulation) {
        sim.set_sensor_range(range);
        self.push_sensing(tick, sim.sensor_range());
    }

    /// Edits `pos` of `sim` now, after the tick's share was applied, and lists the edit at
    /// `tick`, the tick being played, when the cell changed. Returns what
    /// [`Simulation::edit`] returns.
    pub fn edit_now(
        &mut self,
        tick: u64,
        pos: Pos,
        terrain: Terrain,
        sim: &mut Simulation,
    ) -> Result<bool, SimError> {
        let changed = sim.edit(pos, terrain)?;
        if changed {
            self.push_edit(tick, pos, terrain);
        }
        Ok(changed)
    }

    /// Applies tick `tick`'s share to `sim`, in the order the module docs give, and says what
    /// happened. The timeline itself is unchanged.
    pub fn apply(&self, tick: u64, sim: &mut Simulation) -> Applied {
        let mut applied = Applied::default();
        for d in self.dynamic.iter().filter(|d| d.tick == tick) {
            sim.set_dynamic(d.setting());
        }
        for s in self.sensing.iter().filter(|s| s.tick == tick) {
            sim.set_sensor_range(s.setting());
        }
        for i in self.agents_share(tick) {
            let a = &self.agents[i];
            if a.tick == tick {
                match sim.add_agent_setup(a.start, a.goal, a.setup()) {
                    Ok(id) => applied.appeared.push((i, id)),
                    Err(e) => applied.rejected.push((i, e)),
                }
            }
        }
        for i in self.edits_share(tick) {
            let e = &self.edits[i];
            if e.tick != tick {
                continue;
            }
            let terrain = e.set.terrain();
            for (c, &pos) in e.cells.iter().enumerate() {
                match sim.edit(pos, terrain) {
                    Ok(true) => applied.changed += 1,
                    Ok(false) => applied.idle.push((i, c)),
                    Err(err) => {
                        applied.refused.push((pos, err));
                        applied.idle.push((i, c));
                    }
                }
            }
        }
        applied
    }

    /// Forgets what `applied` (the last [`Timeline::apply`] of this timeline) says had no
    /// effect: the agents rejected, and the edited cells refused or already so. What is left
    /// of that tick is what happened, so a record replays it without a refusal.
    pub fn forget_ineffective(&mut self, applied: &Applied) {
        let mut emptied = Vec::new();
        for &(i, c) in applied.idle.iter().rev() {
            let cells = &mut self.edits[i].cells;
            cells.remove(c);
            if cells.is_empty() {
                emptied.push(i);
            }
        }
        // `emptied` is in decreasing order, so each removal leaves the next index valid.
        for i in emptied {
            self.edits.remove(i);
        }
        for &(i, _) in applied.rejected.iter().rev() {
            self.agents.remove(i);
        }
        // Removing keeps an ordered list ordered; an unordered one may have become ordered.
        if self.agents_unordered || self.edits_unordered {
            self.check_order();
        }
    }

    /// The events up to `tick`, `tick` included, in order.
    pub fn through(&self, tick: u64) -> Timeline {
        Timeline {
            agents: self
                .agents
                .iter()
                .filter(|a| a.tick <= tick)
                .cloned()
                .collect(),
            edits: self
                .edits
                .iter()
                .filter(|e| e.tick <= tick)
                .cloned()
                .collect(),
            dynamic: self
                .dynamic
                .iter()
                .filter(|d| d.tick <= tick)
                .copied()
                .collect(),
            sensing: (self.sensing.iter())
                .filter(|s| s.tick <= tick)
                .copied()
                .collect(),
            ..Timeline::default()
        }
        .with_order_checked()
    }

    /// Takes out the events of `tick` and later, in order, and returns them.
    pub fn split_off(&mut self, tick: u64) -> Timeline {
        let later = Timeline {
            agents: self.agents.extract_if(.., |a| a.tick >= tick).collect(),
            edits: self.edits.extract_if(.., |e| e.tick >= tick).collect(),
            dynamic: self.dynamic.extract_if(.., |d| d.tick >= tick).collect(),
            sensing: self.sensing.extract_if(.., |s| s.tick >= tick).collect(),
            ..Timeline::default()
        };
        self.check_order();
        later.with_order_checked()
    }

    /// Moves every event `ticks` earlier (no earlier than tick 0).
    pub fn shift_earlier(&mut self, ticks: u64) {
        for a in &mut self.agents {
            a.tick = a.tick.saturating_sub(ticks);
        }
        for e in &mut self.edits {
            e.tick = e.tick.saturating_sub(ticks);
        }
        for d in &mut self.dynamic {
            d.tick = d.tick.saturating_sub(ticks);
        }
        for s in &mut self.sensing {
            s.tick = s.tick.saturating_sub(ticks);
        }
        self.check_order();
    }

    /// Adds every event of `later` after this timeline's, in order.
    pub fn append(&mut self, later: Timeline) {
        self.agents.extend(later.agents);
        self.edits.extend(later.edits);
        self.dynamic.extend(later.dynamic);
        self.sensing.extend(later.sensing);
        self.check_order();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::sim::{OnArrival, SimConfig};

    fn scenario(text: &str) -> Scenario {
        Scenario::parse(text, "test.ron").unwrap()
    }

    fn sim_of(s: &Scenario) -> Simulation {
        Simulation::new(s.grid.clone(), SimConfig::default())
    }

    #[test]
    fn a_tick_sets_the_dynamic_world_then_adds_agents_then_edits() {
        let s = scenario(
            r##"(
                rows: ["......", "......"],
                agents: [(start: (0, 0), goal: (5, 0), tick: 2), (start: (0, 1), goal: (5, 1))],
                edits: [
                    (tick: 2, set: Wall, cells: [(0, 0)]),
                    (tick: 2, set: Wall, cells: [(3, 1)]),
                    (tick: 3, set: Wall, cells: [(4, 0)]),
                ],
                dynamic: [(tick: 2, every: 3, walls: 2), (tick: 2, every: 5), (tick: 4, every: 0)],
            )"##,
        );
        let t = Timeline::of(&s);
        let mut sim = sim_of(&s);
        let first = t.apply(0, &mut sim);
        assert_eq!(first.appeared, vec![(1, 0)], "only tick 0's agent");
        assert_eq!(sim.dynamic(), None);
        assert_eq!(sim.grid().wall_count(), 0);
        sim.replan();
        assert_eq!(
            t.apply(1, &mut sim),
            Applied::default(),
            "nothing at tick 1"
        );
        sim.step();
        let second = t.apply(2, &mut sim);
        // The last setting of the tick holds.
        let want = DynamicWorld { every: 5, walls: 6 };
        assert_eq!(sim.dynamic(), Some(want));
        // The agent appeared before the edits: walling its start is refused.
        assert_eq!(second.appeared, vec![(0, 1)]);
        assert_eq!(second.refused.len(), 1);
        assert_eq!(second.refused[0].0, Pos::new(0, 0));
        assert!(matches!(
            second.refused[0].1,
            SimError::HoldsAgent { agent: 1, .. }
        ));
        assert_eq!(second.changed, 1);
        assert_eq!(sim.grid().terrain(Pos::new(3, 1)), Ok(Terrain::Wall));
        assert_eq!(sim.grid().terrain(Pos::new(4, 0)), Ok(Terrain::FREE));
        sim.step();
        t.apply(3, &mut sim);
        assert_eq!(sim.grid().terrain(Pos::new(4, 0)), Ok(Terrain::Wall));
        t.apply(4, &mut sim);
        assert_eq!(sim.dynamic(), None);
    }

    #[test]
    fn a_tick_finds_its_share_in_or_out_of_tick_order() {
        let grid = Grid::new(8, 3).unwrap();
        let agent = |x, tick| AgentSpec {
            tick,
            ..AgentSpec::new(Pos::new(x, 0), Pos::new(x, 2))
        };
        let edit = |x, tick| EditSpec {
            tick,
            set: CellSet::Wall,
            cells: vec![Pos::new(x, 1)],
        };
        let ordered = Timeline::from_parts(
            vec![agent(0, 0), agent(1, 1), agent(2, 1), agent(3, 3)],
            vec![edit(4, 0), edit(5, 2), edit(6, 2), edit(7, 3)],
            Vec::new(),
        );
        // The same events by tick, each tick's in the same order, the lists shuffled.
        let shuffled = Timeline::from_parts(
            vec![agent(1, 1), agent(3, 3), agent(0, 0), agent(2, 1)],
            vec![edit(5, 2), edit(7, 3), edit(4, 0), edit(6, 2)],
            Vec::new(),
        );
        assert!(!ordered.agents_unordered && !ordered.edits_unordered);
        assert!(shuffled.agents_unordered && shuffled.edits_unordered);
        let mut a = Simulation::new(grid.clone(), SimConfig::default());
        let mut b = Simulation::new(grid, SimConfig::default());
        let starts = |t: &Timeline, applied: &Applied| -> Vec<(u32, AgentId)> {
            let agents = t.agents();
            (applied.appeared.iter())
                .map(|&(i, id)| (agents[i].start.x, id))
                .collect()
        };
        let want_starts = [
            vec![(0, 0)],
            vec![(1, 1), (2, 2)],
            vec![],
            vec![(3, 3)],
            vec![],
        ];
        let want_changed = [1, 0, 2, 1, 0];
        for tick in 0..5 {
            let (x, y) = (ordered.apply(tick, &mut a), shuffled.apply(tick, &mut b));
            let at = tick as usize;
            assert_eq!(starts(&ordered, &x), want_starts[at], "tick {tick}");
            assert_eq!(starts(&shuffled, &y), want_starts[at], "tick {tick}");
            assert_eq!((x.changed, y.changed), (want_changed[at], want_changed[at]));
            assert_eq!(a.grid(), b.grid());
        }
        // An agent pushed out of order is found, and once forgotten the order is back.
        let mut t = ordered.clone();
        t.push_agent(agent(99, 0));
        assert!(t.agents_unordered);
        let mut c = Simulation::new(Grid::new(8, 3).unwrap(), SimConfig::default());
        let applied = t.apply(0, &mut c);
        assert_eq!(applied.rejected.len(), 1, "its start is off the map");
        t.forget_ineffective(&applied);
        assert_eq!(t, ordered);
        t.push_edit(0, Pos::new(4, 1), Terrain::Wall);
        assert!(t.edits_unordered, "tick 0 after tick 3");
        t.shift_earlier(5);
        assert!(!t.edits_unordered, "every tick is 0 now");
    }

    #[test]
    fn agents_on_walls_are_rejected_with_why() {
        let s = scenario(
            r##"(
                rows: ["....", "...."],
                agents: [
                    (start: (0, 0), goal: (3, 0), tick: 1),
                    (start: (0, 1), goal: (3, 1), tick: 1),
                ],
                edits: [(tick: 0, set: Wall, cells: [(3, 0)])],
            )"##,
        );
        let mut t = Timeline::of(&s);
        let mut sim = sim_of(&s);
        t.apply(0, &mut sim);
        let a = t.apply(1, &mut sim);
        assert_eq!(a.appeared, vec![(1, 0)]);
        assert_eq!(a.rejected, vec![(0, SimError::OnWall(Pos::new(3, 0)))]);
        // Forgotten, the rejected agent leaves what happened.
        t.forget_ineffective(&a);
        assert_eq!(t.agents().len(), 1);
        assert_eq!(t.agents()[0].start, Pos::new(0, 1));
    }

    #[test]
    fn refused_and_idle_edits_are_reported_then_forgotten() {
        let s = scenario(
            r##"(
                rows: ["#.....", "......"],
                agents: [(start: (1, 0), goal: (5, 1))],
                edits: [
                    (set: Wall, cells: [(0, 0), (1, 0), (2, 0)]),
                    (set: Free, cells: [(5, 1)]),
                ],
            )"##,
        );
        let mut t = Timeline::of(&s);
        // Off the map: a parsed scenario has no such edit, one built in code may.
        t.push_edit(0, Pos::new(9, 9), Terrain::Weight(3));
        let mut sim = sim_of(&s);
        let a = t.apply(0, &mut sim);
        let why: Vec<_> = a.refused.iter().map(|(p, e)| (*p, e.clone())).collect();
        assert_eq!(why.len(), 3);
        assert!(
            matches!(why[0], (p, SimError::HoldsAgent { agent: 0, .. }) if p == Pos::new(1, 0))
        );
        assert!(matches!(why[1], (p, SimError::IsGoal { agent: 0, .. }) if p == Pos::new(5, 1)));
        assert!(matches!(why[2].1, SimError::Grid(_)));
        assert_eq!(
            a.changed, 1,
            "only (2, 0) changed; (0, 0) was a wall already"
        );
        t.forget_ineffective(&a);
        assert_eq!(t.edits().len(), 1);
        assert_eq!(t.edits()[0].cells, vec![Pos::new(2, 0)]);
        // What is left replays without a refusal.
        let mut again = sim_of(&s);
        let b = t.apply(0, &mut again);
        assert!(b.refused.is_empty());
        assert_eq!(again.grid(), sim.grid());
    }

    #[test]
    fn a_scenario_round_trips_through_a_timeline() {
        let s = scenario(
            r##"(
                rows: ["......", "..#..."],
                seed: 9,
                agents: [
                    (start: (0, 0), goal: (5, 0), tick: 4, on_arrival: Patrol),
                    (start: (0, 1), goal: (5, 1)),
                ],
                edits: [(tick: 3, set: Weight(4), cells: [(3, 0)]), (set: Free, cells: [(2, 1)])],
                dynamic: [(tick: 7, every: 2, walls: 3), (every: 0)],
            )"##,
        );
        let t = Timeline::of(&s);
        let back = t.to_scenario(&Scenario::with_moves(
            s.grid.clone(),
            s.connectivity,
            s.heuristic,
        ));
        assert_eq!(back.agents, s.agents);
        assert_eq!(back.edits, s.edits);
        assert_eq!(back.dynamic, s.dynamic);
        let mut base = s.clone();
        base.agents.clear();
        base.edits.clear();
        base.dynamic.clear();
        assert_eq!(t.to_scenario(&base), s);
        assert_eq!(Timeline::of(&t.to_scenario(&base)), t);
        // Through text too.
        let text = s.to_ron();
        assert_eq!(Timeline::of(&Scenario::parse(&text, "again").unwrap()), t);
    }

    #[test]
    fn pushes_merge_like_a_record_and_split_and_shift_by_tick() {
        let mut t = Timeline::default();
        assert!(t.is_empty());
        t.push_edit(1, Pos::new(0, 0), Terrain::Wall);
        t.push_edit(1, Pos::new(1, 0), Terrain::Wall);
        t.push_edit(1, Pos::new(2, 0), Terrain::FREE);
        t.push_edit(2, Pos::new(3, 0), Terrain::FREE);
        t.push_agent(AgentSpec {
            tick: 2,
            on_arrival: OnArrival::Wander,
            ..AgentSpec::new(Pos::new(0, 3), Pos::new(3, 3))
        });
        t.push_dynamic(2, Some(DynamicWorld::GENTLE));
        t.push_dynamic(2, None);
        assert_eq!(t.edits().len(), 3);
        assert_eq!(t.edits()[0].cells.len(), 2);
        assert_eq!(t.edits()[1].set, CellSet::Free);
        assert_eq!(t.dynamic(), &[DynamicSpec::new(2, None)]);
        assert_eq!(t.agents_at(2).count(), 1);
        let s = t.to_scenario(&Scenario::from_grid(Grid::new(4, 4).unwrap()));
        assert!(s.validate("log").is_ok());

        assert_eq!(t.through(1).edits().len(), 2);
        assert!(t.through(1).agents().is_empty());
        let mut later = t.split_off(2);
        assert_eq!(t.edits().len(), 2);
        assert!(t.agents().is_empty() && t.dynamic().is_empty());
        later.shift_earlier(1);
        assert_eq!(later.agents()[0].tick, 1);
        assert_eq!(later.edits()[0].tick, 1);
        t.append(later);
        assert_eq!(t.edits().len(), 3);
        assert_eq!(t.agents().len(), 1);
    }

    #[test]
    fn changes_made_now_are_listed_at_their_tick() {
        let s = scenario("(rows: [\"###\", \"...\"])");
        let mut sim = sim_of(&s);
        let mut t = Timeline::default();
        t.set_dynamic_now(3, Some(DynamicWorld { every: 0, walls: 2 }), &mut sim);
        // Clamped as the simulation holds it.
        assert_eq!(t.dynamic()[0].setting(), sim.dynamic());
        assert!(
            t.edit_now(2, Pos::new(0, 0), Terrain::FREE, &mut sim)
                .unwrap()
        );
        assert!(
            !t.edit_now(2, Pos::new(0, 1), Terrain::FREE, &mut sim)
                .unwrap()
        );
        assert_eq!(t.edits().len(), 1, "only the change is listed");
        assert_eq!(t.edits()[0].cells, vec![Pos::new(0, 0)]);
    }
}
