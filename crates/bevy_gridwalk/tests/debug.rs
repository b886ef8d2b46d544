//! The `debug` feature's `GridwalkDebugPlugin`, headless: on `MinimalPlugins` with Bevy's
//! gizmo storage (no rendering), each frame's gizmos of its group are every agent's path
//! and a square on every cell the last repair expanded, where the plugin's layout puts them.

#![cfg(feature = "debug")]

use std::any::TypeId;
use std::collections::HashSet;

use bevy::asset::AssetPlugin;
use bevy::gizmos::{GizmoAsset, GizmoHandles};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridwalk::prelude::*;
use bevy_gridwalk::{GridwalkDebug, GridwalkDebugPlugin, RepairGizmos};
use gridwalk_core::{Grid, Pos, Terrain};

const TILE: f32 = 10.0;
const ORIGIN: Vec2 = Vec2::new(-50.0, 20.0);

/// Where the plugin's docs put the centre of cell `p`: cell (x, y) is the square whose
/// top-left corner is `origin + (x, -y) * tile_size`.
fn centre(p: Pos) -> Vec2 {
    ORIGIN + Vec2::new((p.x as f32 + 0.5) * TILE, -(p.y as f32 + 0.5) * TILE)
}

fn app() -> App {
    let mut app = App::new();
    // Of Bevy's gizmos, only the asset each frame's gizmos of a group end in.
    app.add_plugins((MinimalPlugins, AssetPlugin::default()))
        .init_asset::<GizmoAsset>()
        .add_plugins(GridwalkPlugin::on_grid(Grid::new(12, 6).unwrap()))
        .add_plugins(GridwalkDebugPlugin {
            tile_size: TILE,
            origin: ORIGIN,
        })
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        // One fixed run is one tick: `Time<Fixed>` at the plugin's rate.
        .insert_resource(Time::<Fixed>::from_hz(TickClock::DEFAULT_RATE));
    app
}

/// The line strips of the group drawn in the last frame, each as its points.
fn strips(app: &App) -> Vec<Vec<Vec2>> {
    let handles = app.world().resource::<GizmoHandles>();
    let Some(Some(handle)) = handles.handles().get(&TypeId::of::<RepairGizmos>()) else {
        return Vec::new();
    };
    let asset = app.world().resource::<Assets<GizmoAsset>>();
    let buffer = asset.get(handle).expect("the group's gizmos").buffer();
    (buffer.strip_positions.split(|p| p.is_nan()))
        .filter(|s| !s.is_empty())
        .map(|s| s.iter().map(|p| p.truncate()).collect())
        .collect()
}

fn near(a: Vec2, b: Vec2) -> bool {
    a.distance(b) < 1e-3
}

/// The strips split into paths (open: a path never comes back to a cell) and squares
/// (closed loops: their first corner comes again).
fn drawn(app: &App) -> (Vec<Vec<Vec2>>, Vec<Vec<Vec2>>) {
    strips(app)
        .into_iter()
        .partition(|s| !s[1..].iter().any(|&p| near(p, s[0])))
}

#[test]
fn paths_and_repaired_cells_are_drawn_where_the_layout_puts_them() {
    let mut app = app();
    let starts = [
        (Pos::new(0, 1), Pos::new(11, 1)),
        (Pos::new(0, 4), Pos::new(11, 3)),
    ];
    for (start, goal) in starts {
        app.world_mut().spawn((GridPos(start), Goal(goal)));
    }
    app.update();
    app.update();
    app.update();
    // A wall lands on the first agent's way: the next tick repairs around it.
    let wall = Pos::new(6, 1);
    app.world_mut().write_message(TileEdit {
        pos: wall,
        terrain: Terrain::Wall,
    });
    app.update();
    let sim = app.world().resource::<GridSim>().sim();
    assert_eq!(sim.agent_count(), 2);
    let (paths, squares) = drawn(&app);

    let want_paths: Vec<Vec<Vec2>> = (sim.agents())
        .filter_map(|a| sim.path(a.id))
        .map(|p| p.cells.iter().map(|&c| centre(c)).collect())
        .collect();
    assert_eq!(want_paths.len(), 2, "both agents walk");
    assert_eq!(paths.len(), want_paths.len());
    for (got, want) in paths.iter().zip(&want_paths) {
        assert_eq!(got.len(), want.len());
        assert!(
            got.iter().zip(want).all(|(&g, &w)| near(g, w)),
            "{got:?} != {want:?}"
        );
    }
    let wall_at = centre(wall);
    assert!(
        paths.iter().flatten().all(|&p| !near(p, wall_at)),
        "no path through the wall"
    );

    let grid = sim.grid();
    let expanded: HashSet<Pos> = (sim.last_expanded().iter())
        .map(|&c| grid.pos(c as usize))
        .collect();
    assert!(!expanded.is_empty(), "the wall made the planner repair");
    assert_eq!(squares.len(), sim.last_expanded().len());
    for square in &squares {
        let mid = square[..4].iter().sum::<Vec2>() / 4.0;
        let side = square[0].distance(square[1]);
        assert!((side - 0.6 * TILE).abs() < 1e-3, "a square of side {side}");
        assert!(
            expanded.iter().any(|&c| near(centre(c), mid)),
            "a square at {mid} on no expanded cell"
        );
    }
}

#[test]
fn switched_off_it_draws_nothing() {
    let mut app = app();
    app.world_mut()
        .spawn((GridPos(Pos::new(0, 1)), Goal(Pos::new(11, 1))));
    for _ in 0..3 {
        app.update();
    }
    app.world_mut().write_message(TileEdit {
        pos: Pos::new(6, 1),
        terrain: Terrain::Wall,
    });
    app.update();
    let (paths, squares) = drawn(&app);
    assert!(
        !paths.is_empty() && !squares.is_empty(),
        "on, it draws both"
    );
    *app.world_mut().resource_mut::<GridwalkDebug>() = GridwalkDebug {
        paths: false,
        repairs: false,
    };
    // A wall on its way again, so there is a repair to draw.
    let sim = app.world().resource::<GridSim>().sim();
    let a = sim.agents().next().unwrap();
    let on_way = sim.path(a.id).unwrap().cells[3];
    app.world_mut().write_message(TileEdit {
        pos: on_way,
        terrain: Terrain::Wall,
    });
    app.update();
    assert!(
        !app.world()
            .resource::<GridSim>()
            .sim()
            .last_expanded()
            .is_empty(),
        "there was a repair to draw"
    );
    assert!(strips(&app).is_empty(), "off, it draws nothing");
}
