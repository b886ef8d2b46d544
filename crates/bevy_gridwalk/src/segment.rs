//! The session's current segment: the map it started from and its [`Timeline`], which is
//! both what the game plays and what `--record` writes.
//!
//! A segment starts from a scenario ([`Segment::start`]): its map, moves, seed, destinations
//! and budgets are the segment's base, and its timed events begin the timeline. The timeline
//! holds, by the tick number `gridwalk-cli simulate` gives each tick, the agents present at
//! tick 0 and the settings then, a loaded scenario's timed events, and the user's spawns,
//! edits and dynamic-world changes, pushed at the tick they take effect. Every tick plays its
//! share through [`Timeline::apply`], then forgets what had no effect (agents refused, edits
//! refused or changing nothing), so the ticks played so far, written as a [`Scenario`], are
//! exactly what happened and replay the same run.

use gridwalk_core::format::{Scenario, SensingSpec};
use gridwalk_core::scenario::Start;
use gridwalk_core::scenario::timeline::{Applied, Timeline};
use gridwalk_core::sim::{SimConfig, SimError, Simulation};

use crate::messages::Asked;
use gridwalk_core::{Grid, Pos, Terrain};

/// One segment of the session. See the module docs.
#[derive(Clone, Debug)]
pub struct Segment {
    /// The map, moves and seed the segment started from; no timed events.
    base: Scenario,
    timeline: Timeline,
    /// The last tick played.
    played: u64,
    reason: String,
}

impl Segment {
    /// A segment that plays `scenario` from its tick 0 with `config`, and the simulation it
    /// starts: [`Scenario::start`], the one route from a scenario to its world, so a segment
    /// replays as it played. The segment records `scenario` in the form recordings have
    /// always had: `config`'s moves, the budgets as
    /// [`Budget::in_scenario`](gridwalk_core::sim::Budget::in_scenario) writes them, and
    /// the starting sensor range as a change of tick 0.
    pub(super) fn start(
        mut scenario: Scenario,
        config: SimConfig,
        reason: &str,
    ) -> (Segment, Simulation) {
        (scenario.connectivity, scenario.heuristic) = (config.connectivity, Some(config.heuristic));
        scenario.crowd = config.crowd;
        (scenario.planner_memory, scenario.plan_budget) = scenario.budget().in_scenario();
        if let Some(range) = scenario.sensor_range.take() {
            scenario.sensing.insert(0, SensingSpec::new(0, Some(range)));
        }
        let Start { sim, timeline } = scenario.start(config);
        let base = Scenario {
            agents: Vec::new(),
            edits: Vec::new(),
            dynamic: Vec::new(),
            sensing: Vec::new(),
            ..scenario
        };
        let segment = Segment {
            base,
            timeline,
            played: 0,
            reason: reason.to_owned(),
        };
        (segment, sim)
    }

    /// The map the segment started from.
    pub fn base(&self) -> &Grid {
        &self.base.grid
    }

    /// Why the segment began: `start`, `new random map`, `planner changed`, ...
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The whole timeline: what was played and what is still to come.
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// Agents and edit entries recorded so far (in the ticks played).
    pub fn recorded(&self) -> (usize, usize) {
        let t = &self.timeline;
        let agents = t.agents().iter().filter(|a| a.tick <= self.played);
        let edits = t.edits().iter().filter(|e| e.tick <= self.played);
        (agents.count(), edits.count())
    }

    /// Whether nothing happened on the map: no agent and no edit.
    pub fn is_empty(&self) -> bool {
        self.recorded() == (0, 0)
    }

    /// The ticks played, as a scenario that replays them.
    pub fn to_scenario(&self) -> Scenario {
        self.timeline.through(self.played).to_scenario(&self.base)
    }

    /// Plays tick `tick`'s share on `sim` and forgets what had no effect. Returns what
    /// happened, and each agent refused: its place in the timeline as it was, what it asked
    /// for and why.
    pub(super) fn play(
        &mut self,
        tick: u64,
        sim: &mut Simulation,
    ) -> (Applied, Vec<(usize, Asked, SimError)>) {
        let applied = self.timeline.apply(tick, sim);
        let agents = self.timeline.agents();
        let refused = (applied.rejected.iter())
            .map(|(i, e)| {
                let (start, goal) = (agents[*i].start, agents[*i].goal);
                (*i, Asked::Agent { start, goal }, e.clone())
            })
            .collect();
        self.timeline.forget_ineffective(&applied);
        self.played = tick;
        (applied, refused)
    }

    /// Forgets the ticks played up to `tick`: what a session that is not recorded does after
    /// each tick, so its timeline holds only what is still to come.
    pub(super) fn forget_played(&mut self, tick: u64) {
        self.timeline = self.timeline.split_off(tick + 1);
    }

    /// The timeline, to push the user's input at the tick it takes effect.
    pub(super) fn timeline_mut(&mut self) -> &mut Timeline {
        &mut self.timeline
    }

    /// Takes out what is still to come from `tick` on, renumbered so that `tick` is tick 1:
    /// the script a new segment that starts now plays on.
    pub(super) fn take_future(&mut self, tick: u64) -> Timeline {
        let mut later = self.timeline.split_off(tick);
        later.shift_earlier(tick.saturating_sub(1));
        later
    }

    /// Edits `pos` of `sim` now, during tick `tick` after its share, recorded if it changed.
    pub(super) fn edit_now(
        &mut self,
        tick: u64,
        pos: Pos,
        terrain: Terrain,
        sim: &mut Simulation,
    ) -> bool {
        self.timeline.edit_now(tick, pos, terrain, sim) == Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use gridwalk_core::format::{AgentSpec, CellSet};
    use gridwalk_core::sim::{Budget, OnArrival};
    use gridwalk_core::{Connectivity, Heuristic};

    use super::*;

    #[test]
    fn a_segment_starts_its_scenario_and_records_it_in_the_game_s_form() {
        let grid = gridwalk_core::format::grid_from_rows(&["....", "...."]).unwrap();
        let mut scenario = Scenario::from_grid(grid);
        scenario.seed = 3;
        scenario.sensor_range = Some(2);
        scenario.sensing = vec![SensingSpec::new(4, None)];
        scenario.planner_memory = Some(Budget::default().planner_memory);
        scenario.plan_budget = Some(50);
        scenario.agents = vec![AgentSpec::new(Pos::new(0, 0), Pos::new(3, 1))];
        let config = SimConfig {
            connectivity: Connectivity::Four,
            heuristic: Heuristic::Manhattan,
            ..SimConfig::default()
        };
        let (mut seg, mut sim) = Segment::start(scenario, config, "start");
        assert_eq!((sim.config(), sim.seed()), (config, 3));
        assert_eq!(sim.budget().plan_expansions, Some(50));
        assert_eq!(sim.sensor_range(), None, "the range comes with tick 0");
        let (applied, _) = seg.play(0, &mut sim);
        assert_eq!(applied.appeared.len(), 1);
        assert_eq!(sim.sensor_range(), Some(2));
        let s = seg.to_scenario();
        assert_eq!(s.sensor_range, None);
        // Only the ticks played are recorded: the change of tick 4 is still to come.
        assert_eq!(s.sensing, vec![SensingSpec::new(0, Some(2))]);
        let later = seg.timeline().sensing();
        assert_eq!(
            later,
            [SensingSpec::new(0, Some(2)), SensingSpec::new(4, None)]
        );
        assert_eq!(s.connectivity, Connectivity::Four);
        assert_eq!(s.heuristic, Some(Heuristic::Manhattan));
        assert_eq!((s.planner_memory, s.plan_budget), (None, Some(50)));
        assert_eq!(s.agents.len(), 1);
    }

    #[test]
    fn only_what_took_effect_in_the_ticks_played_is_recorded() {
        let grid = gridwalk_core::format::grid_from_rows(&["....", "...."]).unwrap();
        let mut scenario = Scenario::from_grid(grid);
        scenario.seed = 7;
        scenario.agents = vec![
            AgentSpec::new(Pos::new(0, 0), Pos::new(3, 0)),
            AgentSpec {
                tick: 5,
                on_arrival: OnArrival::Wander,
                ..AgentSpec::new(Pos::new(0, 1), Pos::new(3, 1))
            },
        ];
        let (mut seg, mut sim) = Segment::start(scenario, SimConfig::default(), "start");
        let (applied, refused) = seg.play(0, &mut sim);
        assert_eq!(applied.appeared.len(), 1);
        assert!(refused.is_empty());
        sim.replan();
        let t = seg.timeline_mut();
        t.push_edit(1, Pos::new(0, 0), Terrain::Wall); // holds the agent
        t.push_edit(1, Pos::new(2, 0), Terrain::Wall);
        let (applied, refused) = seg.play(1, &mut sim);
        assert_eq!(applied.refused.len(), 1);
        assert!(refused.is_empty());
        assert!(seg.edit_now(1, Pos::new(1, 1), Terrain::Wall, &mut sim));
        sim.step();
        seg.timeline_mut().push_agent(AgentSpec {
            tick: 2,
            ..AgentSpec::new(Pos::new(2, 0), Pos::new(2, 1))
        });
        let (_, refused) = seg.play(2, &mut sim);
        assert_eq!(refused.len(), 1, "the agent on the new wall");
        assert_eq!(refused[0].2, SimError::OnWall(Pos::new(2, 0)));
        assert!(seg.edit_now(2, Pos::new(1, 1), Terrain::FREE, &mut sim));
        let s = seg.to_scenario();
        assert_eq!(s.seed, 7);
        assert_eq!(s.agents.len(), 1, "tick 5's agent is still to come");
        assert_eq!(s.edits.len(), 2);
        assert_eq!(s.edits[0].cells, vec![Pos::new(2, 0), Pos::new(1, 1)]);
        assert_eq!(s.edits[1].set, CellSet::Free);
        assert_eq!(seg.recorded(), (1, 2));
        assert!(s.validate("segment").is_ok());
        let later = seg.take_future(2);
        assert_eq!(later.agents()[0].tick, 4);
        assert_eq!(seg.timeline().agents().len(), 1);
    }
}
