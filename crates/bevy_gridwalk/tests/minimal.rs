//! The minimal example's setup, headless: `MinimalPlugins`, one fixed tick per update. Every
//! agent arrives, a wall added on the agents' way is never stood on again, and no path
//! crosses it; the entities follow the simulation, marked changed only when a value changed,
//! and `NextCell` where asked; despawning and retargeting work.

use std::collections::HashSet;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridwalk::core::grid::Flood;
use bevy_gridwalk::core::sim::{OnArrival, SimError};
use bevy_gridwalk::core::{Pos, Terrain};
use bevy_gridwalk::prelude::*;

#[allow(dead_code)]
#[path = "../examples/minimal.rs"]
mod minimal;

/// The example's world and agents on `MinimalPlugins`.
fn headless() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(minimal::plugin())
        .add_systems(Startup, minimal::setup)
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        // One fixed run is one tick: `Time<Fixed>` at the plugin's rate.
        .insert_resource(Time::<Fixed>::from_hz(TickClock::DEFAULT_RATE));
    app
}

fn agents(app: &mut App) -> Vec<(Entity, Pos, Pos, AgentStatus)> {
    let mut q = app
        .world_mut()
        .query::<(Entity, &GridPos, &Goal, &AgentState)>();
    q.iter(app.world())
        .map(|(e, p, g, s)| (e, p.0, g.0, s.0))
        .collect()
}

#[test]
fn every_agent_arrives_around_a_new_wall() {
    let mut app = headless();
    app.update();
    app.update();
    assert_eq!(agents(&mut app).len(), 50);
    assert_eq!(app.world().resource::<GridSim>().sim().agent_count(), 50);
    // The wall goes on a gap of the middle wall that some agent's path passes through.
    let through = |app: &App, gap: Pos| {
        let sim = app.world().resource::<GridSim>().sim();
        (sim.agents()).any(|a| sim.path(a.id).is_some_and(|p| p.cells.contains(&gap)))
    };
    let gaps = [3, 10, 16].map(|y| Pos::new(minimal::SIZE.0 / 2, y));
    let gap = *gaps
        .iter()
        .find(|&&g| through(&app, g))
        .expect("a path through a gap");
    let goals: HashSet<Pos> = agents(&mut app).iter().map(|a| a.2).collect();
    assert!(!goals.contains(&gap));
    let through = |app: &App| through(app, gap);
    app.world_mut().write_message(TileEdit {
        pos: gap,
        terrain: Terrain::Wall,
    });
    app.update();
    let sim = app.world().resource::<GridSim>().sim();
    assert!(!sim.grid().is_passable(gap), "the wall was refused");
    assert!(!through(&app), "a path still crosses the new wall");
    let mut arrived = HashSet::new();
    for _ in 0..400 {
        app.update();
        for (e, at, goal, status) in agents(&mut app) {
            assert_ne!(at, gap, "an agent stands on the new wall");
            if status == AgentStatus::Arrived {
                assert_eq!(at, goal);
                arrived.insert(e);
            }
        }
        assert!(!through(&app), "a path crosses the new wall");
        let reads = app.world().resource::<Messages<Arrived>>();
        arrived.extend(reads.iter_current_update_messages().map(|a| a.entity));
        if arrived.len() == 50 {
            break;
        }
    }
    assert_eq!(arrived.len(), 50, "every agent arrives");
    // The entities agree with the simulation, agent by agent.
    let mut q = app.world_mut().query::<(&GridAgent, &GridPos, &Goal)>();
    let sim = app.world().resource::<GridSim>().sim();
    for (agent, pos, goal) in q.iter(app.world()) {
        let a = sim.agent(agent.id).unwrap();
        assert_eq!((pos.0, goal.0), (a.pos, a.goal));
    }
}

#[test]
fn next_cell_is_written_where_asked_and_is_the_plans_next_step() {
    let mut app = headless();
    app.update();
    app.update();
    // Every other agent asks for its next cell.
    for (e, ..) in agents(&mut app).iter().step_by(2) {
        app.world_mut().entity_mut(*e).insert(NextCell(None));
    }
    let mut steps = 0;
    for _ in 0..40 {
        app.update();
        let mut q = (app.world_mut()).query::<(&GridAgent, &GridPos, Option<&NextCell>)>();
        let sim = app.world().resource::<GridSim>().sim();
        let asked: Vec<_> = q
            .iter(app.world())
            .filter_map(|(a, p, n)| Some((a, p, n?)))
            .collect();
        assert_eq!(asked.len(), 25, "only the entities that carry one");
        for (agent, pos, next) in asked {
            let second = sim.path(agent.id).and_then(|p| p.cells.get(1).copied());
            assert_eq!(next.0, second, "agent {}'s next cell", agent.label);
            if let Some(n) = next.0 {
                let (dx, dy) = (n.x.abs_diff(pos.0.x), n.y.abs_diff(pos.0.y));
                assert!(dx.max(dy) == 1, "{n} is no move from {}", pos.0);
                steps += 1;
            }
        }
    }
    assert!(steps > 0, "some agent walked");
}

#[test]
fn grid_path_is_written_where_asked_and_agrees_with_next_cell() {
    let mut app = headless();
    app.update();
    app.update();
    // A third of the agents carry both, a third only a path.
    for (i, (e, ..)) in agents(&mut app).iter().enumerate() {
        let mut entity = app.world_mut().entity_mut(*e);
        match i % 3 {
            0 => entity.insert((NextCell(None), GridPath::default())),
            1 => entity.insert(GridPath::default()),
            _ => &mut entity,
        };
    }
    let mut compared = 0;
    for _ in 0..40 {
        app.update();
        let mut q =
            (app.world_mut()).query::<(&GridAgent, &GridPos, &GridPath, Option<&NextCell>)>();
        let sim = app.world().resource::<GridSim>().sim();
        assert_eq!(
            q.iter(app.world()).count(),
            34,
            "only the entities that carry one"
        );
        for (agent, pos, path, next) in q.iter(app.world()) {
            let plan = sim.path(agent.id).map(|p| p.cells).unwrap_or_default();
            assert_eq!(path.0, plan, "agent {}'s path", agent.label);
            if let Some(first) = path.0.first() {
                assert_eq!(*first, pos.0, "a path starts where its agent stands");
            }
            if let Some(next) = next {
                assert_eq!(next.0, path.0.get(1).copied(), "agent {}", agent.label);
                compared += 1;
            }
        }
    }
    assert!(compared > 0);
}

/// The example's map.
fn app_grid() -> gridwalk_core::Grid {
    let app = headless();
    app.world().resource::<GridSim>().sim().grid().clone()
}

#[test]
fn every_goal_is_reachable_and_every_start_apart() {
    // The example's setup is well posed: starts apart, goals apart, each goal reachable.
    let grid = app_grid();
    let mut app = headless();
    app.update(); // the first update starts the clocks: no tick yet
    app.update();
    let list = agents(&mut app);
    let starts: HashSet<Pos> = list.iter().map(|a| a.1).collect();
    let goals: HashSet<Pos> = list.iter().map(|a| a.2).collect();
    assert_eq!((starts.len(), goals.len()), (50, 50));
    let mut flood = Flood::default();
    let start = grid.index(list[0].1).unwrap();
    for (_, _, goal, _) in list {
        let g = grid.index(goal).unwrap();
        let found = flood.nearest(&grid, start, gridwalk_core::Connectivity::Eight, |c| c == g);
        assert_eq!(found, Some(g), "{goal} unreachable");
    }
}

#[test]
fn despawning_removes_and_a_new_goal_retargets() {
    let mut app = headless();
    app.update();
    app.update();
    let list = agents(&mut app);
    let (gone, moved) = (list[0].0, list[1].0);
    app.world_mut().despawn(gone);
    let target = list[0].1; // the despawned agent's cell, free next tick
    app.world_mut().get_mut::<Goal>(moved).unwrap().0 = target;
    app.update();
    let sim = app.world().resource::<GridSim>().sim();
    assert_eq!(sim.agent_count(), 49);
    let id = app.world().get::<GridAgent>(moved).unwrap().id;
    assert_eq!(sim.agent(id).unwrap().goal, target);
    assert_eq!(app.world().get::<Goal>(moved).unwrap().0, target);
}

#[test]
fn an_agent_on_a_wall_is_refused_with_its_entity() {
    let mut app = headless();
    app.update();
    app.update();
    let wall = Pos::new(minimal::SIZE.0 / 2, 0);
    let e = app
        .world_mut()
        .spawn((GridPos(wall), Goal(Pos::new(0, 0))))
        .id();
    app.update();
    let refused = app.world().resource::<Messages<Refused>>();
    let r: Vec<_> = refused.iter_current_update_messages().collect();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].entity, Some(e));
    let (start, goal) = (wall, Pos::new(0, 0));
    assert_eq!(r[0].asked, Asked::Agent { start, goal });
    assert_eq!(r[0].error, SimError::OnWall(wall));
    assert!(app.world().get::<GridAgent>(e).is_none());
}

/// A game system after the tick's `Sync`: the first time the plugin writes a wanderer's new
/// goal, it sets a goal of its own in the same tick, and notes the plugin's.
#[derive(Resource, Default)]
struct LateGoal {
    plugin_s: Option<Pos>,
    game_s: Option<Pos>,
}

fn set_late_goal(mut late: ResMut<LateGoal>, mut goals: Query<&mut Goal>) {
    for mut goal in &mut goals {
        if late.plugin_s.is_none() && goal.is_changed() && goal.0 != Pos::new(1, 0) {
            let mine = [Pos::new(7, 0), Pos::new(6, 0)]
                .into_iter()
                .find(|&p| p != goal.0);
            late.plugin_s = Some(goal.0);
            late.game_s = mine;
            goal.0 = mine.unwrap();
        }
    }
}

#[test]
fn a_goal_set_right_after_the_plugin_wrote_one_still_retargets() {
    let mut app = App::new();
    let settings = GridwalkSettings {
        on_arrival: OnArrival::Wander,
        ..Default::default()
    };
    let grid = bevy_gridwalk::core::Grid::new(8, 1).unwrap();
    app.add_plugins(MinimalPlugins)
        .add_plugins(GridwalkPlugin::on_grid(grid).with_settings(settings))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(TickClock::DEFAULT_RATE))
        .init_resource::<LateGoal>()
        .add_systems(FixedUpdate, set_late_goal.after(GridwalkSystems::Sync));
    let e = (app.world_mut())
        .spawn((GridPos(Pos::new(0, 0)), Goal(Pos::new(1, 0))))
        .id();
    for _ in 0..40 {
        app.update();
        if app.world().resource::<LateGoal>().game_s.is_some() {
            break;
        }
    }
    let late = app.world().resource::<LateGoal>();
    let (first, second) = (
        late.plugin_s.expect("a wanderer's new goal"),
        late.game_s.unwrap(),
    );
    let id = app.world().get::<GridAgent>(e).unwrap().id;
    let sim = app.world().resource::<GridSim>().sim();
    assert_eq!(
        sim.agent(id).unwrap().goal,
        first,
        "the game's goal waits a tick"
    );
    app.update();
    let sim = app.world().resource::<GridSim>().sim();
    assert_eq!(sim.agent(id).unwrap().goal, second);
    assert_eq!(app.world().get::<Goal>(e).unwrap().0, second);
}

/// The agent entities a system after the tick's `Sync` last saw marked changed.
#[derive(Resource, Default)]
struct Marked {
    cell: Vec<Entity>,
    last: Vec<Entity>,
    state: Vec<Entity>,
}

fn record_marked(
    mut marked: ResMut<Marked>,
    cell: Query<Entity, Changed<GridPos>>,
    last: Query<Entity, Changed<LastCell>>,
    state: Query<Entity, Changed<AgentState>>,
) {
    *marked = Marked {
        cell: cell.iter().collect(),
        last: last.iter().collect(),
        state: state.iter().collect(),
    };
}

#[test]
fn only_what_a_tick_changed_is_marked_changed() {
    let mut app = App::new();
    let grid = gridwalk_core::Grid::new(8, 4).unwrap();
    app.add_plugins(MinimalPlugins)
        .add_plugins(GridwalkPlugin::on_grid(grid))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        // One fixed run is one tick: `Time<Fixed>` at the plugin's rate.
        .insert_resource(Time::<Fixed>::from_hz(TickClock::DEFAULT_RATE))
        .init_resource::<Marked>()
        .add_systems(FixedUpdate, record_marked.after(GridwalkSystems::Sync));
    // On open ground the one shortest way from (0, 0) to (7, 0) is the row itself, a cell a
    // tick; the other agent stands on its goal and never moves.
    let walker = app
        .world_mut()
        .spawn((GridPos(Pos::new(0, 0)), Goal(Pos::new(7, 0))))
        .id();
    let stayer = app
        .world_mut()
        .spawn((GridPos(Pos::new(0, 3)), Goal(Pos::new(0, 3))))
        .id();
    // Past the ticks where the entities get their components (all marked added).
    for _ in 0..4 {
        app.update();
    }
    let at = |app: &App, e: Entity| app.world().get::<GridPos>(e).unwrap().0;
    let cell = at(&app, walker);
    assert!((2..7).contains(&cell.x) && cell.y == 0, "walking: {cell:?}");
    assert_eq!(at(&app, stayer), Pos::new(0, 3));
    let marked = app.world().resource::<Marked>();
    // The walker's cell and last cell both moved on by one; its state and everything of the
    // agent that stands still are as they were.
    assert_eq!(marked.cell, [walker]);
    assert_eq!(marked.last, [walker]);
    assert!(marked.state.is_empty(), "{:?}", marked.state);
}
