//! The world changed while it runs: settings applied in place (agents keep their planners
//! and entities), crowd agents that enter late, despawns (of agents on the map, waiting to
//! enter, or not yet joined), and arrivals on the agent's own cell.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridwalk::core::sim::{AgentId, Budget, SimConfig};
use bevy_gridwalk::core::{Algorithm, Grid, Pos};
use bevy_gridwalk::prelude::*;

/// An app on an open `w`×`h` map, one tick per update.
fn app(w: u32, h: u32, settings: GridwalkSettings) -> App {
    let mut app = App::new();
    let plugin = GridwalkPlugin::on_grid(Grid::new(w, h).unwrap()).with_settings(settings);
    app.add_plugins(MinimalPlugins)
        .add_plugins(plugin)
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(TickClock::DEFAULT_RATE));
    app
}

fn ids(app: &mut App) -> Vec<(Entity, AgentId)> {
    let mut q = app.world_mut().query::<(Entity, &GridAgent)>();
    let mut v: Vec<_> = q.iter(app.world()).map(|(e, a)| (e, a.id)).collect();
    v.sort();
    v
}

fn arrivals(app: &App) -> Vec<Arrived> {
    let m = app.world().resource::<Messages<Arrived>>();
    m.iter_current_update_messages().copied().collect()
}

#[test]
fn budgets_destinations_and_the_planner_change_in_place() {
    let mut app = app(24, 24, GridwalkSettings::default());
    for i in 0..8 {
        let goal = Goal(Pos::new(23, 3 * i));
        app.world_mut().spawn((GridPos(Pos::new(0, 3 * i)), goal));
    }
    for _ in 0..3 {
        app.update();
    }
    let before = ids(&mut app);
    assert_eq!(before.len(), 8);
    let (epoch, tick, planners) = {
        let w = app.world().resource::<GridSim>();
        (w.epoch(), w.sim().tick_count(), w.sim().planner_count())
    };
    assert!(planners > 0);
    let mut w = app.world_mut().resource_mut::<GridSim>();
    w.set_budget(Budget {
        plan_expansions: Some(5_000),
        ..Budget::default()
    });
    w.set_crowd_budget(16);
    w.set_destinations(3);
    let config = w.sim().config();
    let baseline = SimConfig {
        measure_baseline: !config.measure_baseline,
        ..config
    };
    assert!(w.set_config(baseline, "baseline").is_empty());
    app.update();
    let w = app.world().resource::<GridSim>();
    assert_eq!(w.epoch(), epoch, "no rebuild");
    assert_eq!(
        w.sim().tick_count(),
        tick + 1,
        "the same simulation ticked on"
    );
    assert_eq!(w.sim().planner_count(), planners);
    assert_eq!(
        w.sim().last_stats().search.expanded,
        0,
        "the kept planners had nothing to repair"
    );
    assert_eq!((w.crowd_budget(), w.sim().destinations()), (16, 3));
    assert_eq!(ids(&mut app), before, "every agent keeps its entity and id");
    // Another planner: the plans go, the agents and their entities stay.
    let mut w = app.world_mut().resource_mut::<GridSim>();
    let astar = SimConfig {
        algorithm: Algorithm::AStar,
        ..w.sim().config()
    };
    assert!(w.set_config(astar, "planner").is_empty());
    app.update();
    let w = app.world().resource::<GridSim>();
    assert_eq!(
        (w.epoch(), w.sim().config().algorithm),
        (epoch, Algorithm::AStar)
    );
    assert_eq!(ids(&mut app), before);
}

#[test]
fn a_crowd_agent_that_enters_late_gets_its_components() {
    let crowd = GridwalkSettings {
        crowd: true,
        ..Default::default()
    };
    let mut app = app(10, 3, crowd);
    // Two entities on one cell: the second waits to enter, and a third, spawned after it,
    // gets its entity first.
    let first = (app.world_mut())
        .spawn((GridPos(Pos::new(0, 0)), Goal(Pos::new(9, 0))))
        .id();
    let late = (app.world_mut())
        .spawn((GridPos(Pos::new(0, 0)), Goal(Pos::new(9, 1))))
        .id();
    let other = (app.world_mut())
        .spawn((GridPos(Pos::new(0, 2)), Goal(Pos::new(9, 2))))
        .id();
    app.update();
    app.update();
    let w = app.world().resource::<GridSim>();
    assert!(w.sim().entering().count() <= 1);
    for _ in 0..30 {
        app.update();
    }
    for e in [first, late, other] {
        assert!(
            app.world().get::<GridAgent>(e).is_some(),
            "{e} has no GridAgent"
        );
    }
    assert_eq!(app.world().get::<GridPos>(late).unwrap().0, Pos::new(9, 1));
    assert_eq!(
        app.world().get::<AgentState>(late).unwrap().0,
        AgentStatus::Arrived
    );
}

#[test]
fn a_despawned_agent_s_cell_is_free_in_the_same_tick() {
    let crowd = GridwalkSettings {
        crowd: true,
        ..Default::default()
    };
    let mut app = app(6, 2, crowd);
    let cell = Pos::new(3, 0);
    let old = app.world_mut().spawn((GridPos(cell), Goal(cell))).id();
    app.update();
    app.update();
    app.world_mut().despawn(old);
    let new = (app.world_mut())
        .spawn((GridPos(cell), Goal(Pos::new(5, 1))))
        .id();
    app.update();
    let w = app.world().resource::<GridSim>();
    assert_eq!(
        w.sim().entering().count(),
        0,
        "the new agent waits for the old one's cell"
    );
    assert_eq!(w.sim().agent_count(), 1);
    assert!(app.world().get::<GridAgent>(new).is_some());
}

#[test]
fn an_agent_given_its_own_cell_arrives() {
    let mut app = app(6, 2, GridwalkSettings::default());
    let cell = Pos::new(2, 1);
    let e = app.world_mut().spawn((GridPos(cell), Goal(cell))).id();
    let mut seen = Vec::new();
    for _ in 0..3 {
        app.update();
        seen.extend(arrivals(&app));
    }
    assert_eq!(seen, [Arrived { entity: e, cell }], "spawned on its goal");
    // Its goal set again to the cell it stands on: arrived again.
    app.world_mut().get_mut::<Goal>(e).unwrap().0 = cell;
    let mut again = Vec::new();
    for _ in 0..2 {
        app.update();
        again.extend(arrivals(&app));
    }
    assert_eq!(again, [Arrived { entity: e, cell }], "given its own cell");
}

#[test]
fn a_player_who_stays_among_npcs_who_wander() {
    use bevy_gridwalk::core::sim::OnArrival;
    let wander = GridwalkSettings {
        on_arrival: OnArrival::Wander,
        ..Default::default()
    };
    let mut app = app(12, 12, wander);
    let home = Pos::new(11, 11);
    let player = (app.world_mut())
        .spawn((
            GridPos(Pos::new(0, 0)),
            Goal(home),
            ArrivalPolicy(OnArrival::Stay),
        ))
        .id();
    let npcs: Vec<Entity> = (1..6)
        .map(|i| {
            let at = GridPos(Pos::new(0, 2 * i));
            app.world_mut().spawn((at, Goal(Pos::new(1, 2 * i)))).id()
        })
        .collect();
    let first_goals: Vec<Pos> = (1..6).map(|i| Pos::new(1, 2 * i)).collect();
    let mut npc_goals = vec![Vec::new(); npcs.len()];
    for _ in 0..60 {
        app.update();
        for (i, &e) in npcs.iter().enumerate() {
            let g = app.world().get::<Goal>(e).unwrap().0;
            if npc_goals[i].last() != Some(&g) {
                npc_goals[i].push(g);
            }
        }
    }
    let at = app.world().get::<GridPos>(player).unwrap().0;
    assert_eq!(
        (at, app.world().get::<Goal>(player).unwrap().0),
        (home, home)
    );
    assert_eq!(
        app.world().get::<AgentState>(player).unwrap().0,
        AgentStatus::Arrived,
        "the player stays where it arrived"
    );
    for (goals, first) in npc_goals.iter().zip(&first_goals) {
        assert!(
            goals.len() >= 2 && goals[0] == *first,
            "an NPC wanders on from its first goal: {goals:?}"
        );
    }
}

#[test]
fn a_despawned_entity_s_agent_goes_while_it_waits_to_enter() {
    let crowd = GridwalkSettings {
        crowd: true,
        ..Default::default()
    };
    let mut app = app(10, 3, crowd);
    let start = Pos::new(0, 1);
    let first = (app.world_mut())
        .spawn((GridPos(start), Goal(Pos::new(9, 1))))
        .id();
    let waiting = (app.world_mut())
        .spawn((GridPos(start), Goal(Pos::new(9, 0))))
        .id();
    // Spawned and despawned before any tick: its agent never joins.
    let brief = (app.world_mut())
        .spawn((GridPos(Pos::new(0, 2)), Goal(Pos::new(9, 2))))
        .id();
    app.world_mut().despawn(brief);
    app.update();
    app.update();
    let w = app.world().resource::<GridSim>();
    assert_eq!(w.sim().entering().count(), 1, "the second waits to enter");
    assert!(app.world().get::<GridAgent>(waiting).is_none());
    app.world_mut().despawn(waiting);
    for _ in 0..20 {
        app.update();
    }
    let w = app.world().resource::<GridSim>();
    assert_eq!(w.sim().entering().count(), 0);
    assert_eq!(w.sim().agent_count(), 1, "only the first agent is left");
    let id = app.world().get::<GridAgent>(first).unwrap().id;
    assert_eq!(w.agent_of(first), Some(id));
    assert_eq!(ids(&mut app), [(first, id)], "no entity spawned for it");
}
