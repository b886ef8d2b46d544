//! The simulation as a Bevy feature: the core's
//! [`Simulation`](gridwalk_core::sim::Simulation) in a resource, the messages that change it,
//! and its tick in `FixedUpdate`.
//!
//! Input systems write [`TileEdit`], [`SpawnAgent`] and [`ClearWalls`] messages in `Update`.
//! Each `FixedUpdate` run first gathers them ([`SimSystems::Gather`]); when the run is a tick
//! (not paused, or a step was asked for) the chained sets do exactly what
//! `gridwalk-cli simulate` does for one tick:
//!
//! 1. [`SimSystems::ApplyEdits`]: agents and edits asked for since the last tick join the
//!    current [`Segment`]'s timeline at this tick, which plays the tick's share through
//!    [`Timeline::apply`](gridwalk_core::scenario::timeline::Timeline::apply) (dynamic world, agents,
//!    edits, a loaded scenario's first); refusals go to [`Notices`];
//! 2. [`SimSystems::Step`]: the planners repair, then every agent with a path moves one cell
//!    ([`Simulation::step`](gridwalk_core::sim::Simulation::step));
//! 3. [`SimSystems::Sync`]: agent entities follow the simulation.
//!
//! Whole-world changes (a new map, another planner, removing every agent) arrive as
//! [`SimCommand`]s in `Update`. Each rebuilds the simulation from the current state and starts
//! a new [`Segment`], because a scenario file cannot express them; each segment, written out,
//! replays exactly with `gridwalk-cli simulate`.

mod clock;
mod commands;
pub(crate) mod crowd;
mod messages;
mod segment;
mod state;
mod sync;
mod tick;

use bevy::prelude::*;

pub use clock::{SimClock, clamp_rate, ticking};
pub use commands::{SimRng, default_goals};
pub use messages::{ClearWalls, EXPLAIN_HISTORY, SimCommand, SpawnAgent, TileEdit};
pub use segment::Segment;
pub use state::{GAME_PLAN_BUDGET, PendingInput, SimSetup, SimState, game_budget};
pub use sync::{AgentEntities, AgentMarker, Glide};

use clock::apply_rate;
use commands::apply_commands;
use sync::{sync_after_rebuild, sync_agents};
use tick::{apply_edits, gather_input, step};

use crate::maps;
use crate::notices::{NoticeKind, Notices};
use crate::schedule::{self, FrameSystems, SimSystems};

/// The headless simulation feature. See the module docs.
pub struct SimPlugin {
    /// The world to start with.
    pub setup: SimSetup,
}

impl Plugin for SimPlugin {
    fn build(&self, app: &mut App) {
        let (state, refused) = SimState::new(&self.setup);
        let mut notices = Notices::default();
        for r in refused {
            notices.push(NoticeKind::Refused, r);
        }
        schedule::ensure(app);
        messages::register(app);
        let mut clock = SimClock::new(self.setup.rate_hz);
        clock.paused = self.setup.paused;
        app.insert_resource(state)
            .insert_resource(notices)
            .insert_resource(Time::<Fixed>::from_hz(clock.rate_hz))
            .insert_resource(clock)
            .insert_resource(SimRng(maps::rng(
                self.setup.spawn_seed ^ 0x9e37_79b9_7f4a_7c15,
            )))
            .init_resource::<PendingInput>()
            .init_resource::<AgentEntities>()
            .add_systems(
                FixedUpdate,
                (
                    gather_input.in_set(SimSystems::Gather),
                    apply_edits.in_set(SimSystems::ApplyEdits).run_if(ticking),
                    step.in_set(SimSystems::Step).run_if(ticking),
                    sync_agents.in_set(SimSystems::Sync).run_if(ticking),
                ),
            )
            .add_systems(
                Update,
                (apply_commands, sync_after_rebuild, apply_rate)
                    .chain()
                    .in_set(FrameSystems::Commands),
            );
    }
}

#[cfg(test)]
mod tests {
    use gridwalk_core::Pos;
    use gridwalk_core::sim::SimError;

    use super::*;
    use crate::notices::report_refusals;

    #[test]
    fn rates_are_clamped() {
        assert_eq!(clamp_rate(0.0), 1.0);
        assert_eq!(clamp_rate(1000.0), 60.0);
        assert_eq!(clamp_rate(f64::NAN), 10.0);
        assert_eq!(clamp_rate(25.0), 25.0);
    }

    #[test]
    fn refusals_are_summarised() {
        let mut n = Notices::default();
        report_refusals(&[], &mut n);
        assert!(n.last().is_none());
        let e = SimError::OnWall(Pos::new(1, 1));
        report_refusals(&[(Pos::new(1, 1), e.clone()), (Pos::new(2, 1), e)], &mut n);
        assert!(n.last().unwrap().text.starts_with("2 edits refused"));
    }
}
