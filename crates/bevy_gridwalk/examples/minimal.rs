//! The smallest game on bevy_gridwalk: a map drawn as sprites, 50 agents with goals, and a
//! left click that adds a wall; the agents repair their paths around it.
use bevy::prelude::*;
use bevy_gridwalk::prelude::*;
use gridwalk_core::{Grid, Pos, Terrain};

/// The map's size in cells, and a cell's size in pixels.
pub const SIZE: (u32, u32) = (32, 20);
const TILE: f32 = 30.0;

fn main() {
    let window = Window {
        title: "bevy_gridwalk: minimal".into(),
        ..default()
    };
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(window),
            ..default()
        }))
        .add_plugins(GridwalkPlugin::on_grid(map()).with_settings(settings()))
        .add_systems(Startup, (spawn_camera_and_tiles, spawn_agents))
        .add_systems(Update, (add_wall_on_click, paint_tiles, place_agents))
        .run();
}

/// Open ground with a wall down the middle, pierced by three gaps.
pub fn map() -> Grid {
    let mut grid = Grid::new(SIZE.0, SIZE.1).unwrap();
    for y in (0..SIZE.1).filter(|y| ![3, 10, 16].contains(y)) {
        grid.set(Pos::new(SIZE.0 / 2, y), Terrain::Wall).unwrap();
    }
    grid
}

/// Crowd mode: agents never share a cell, and step aside for each other.
pub fn settings() -> GridwalkSettings {
    GridwalkSettings {
        crowd: true,
        ticks_per_second: 6.0,
        ..default()
    }
}

/// 50 agents in five columns on the left, each heading to its mirror cell on the right.
pub fn spawn_agents(mut commands: Commands) {
    for i in 0..50 {
        let (x, y) = (1 + i % 5, i / 5 * 2);
        let goal = Goal(Pos::new(SIZE.0 - 1 - x, SIZE.1 - 1 - y));
        let color = Color::hsl(i as f32 * 137.5 % 360.0, 0.8, 0.5);
        let sprite = Sprite::from_color(color, Vec2::splat(TILE * 0.7));
        commands.spawn((GridPos(Pos::new(x, y)), goal, sprite));
    }
}

/// Where a cell's centre is: the map centred on the origin, row 0 at the top.
fn at(p: Pos) -> Vec2 {
    let (x, y) = (
        p.x as f32 - SIZE.0 as f32 / 2.0,
        SIZE.1 as f32 / 2.0 - p.y as f32,
    );
    Vec2::new(x + 0.5, y - 0.5) * TILE
}

#[derive(Component)]
struct Tile(Pos);

fn spawn_camera_and_tiles(mut commands: Commands) {
    commands.spawn(Camera2d);
    for p in (0..SIZE.1).flat_map(|y| (0..SIZE.0).map(move |x| Pos::new(x, y))) {
        let sprite = Sprite::from_color(Color::WHITE, Vec2::splat(TILE - 1.0));
        commands.spawn((
            Tile(p),
            sprite,
            Transform::from_translation(at(p).extend(0.0)),
        ));
    }
}

fn add_wall_on_click(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut edits: MessageWriter<TileEdit>,
) {
    let Some(cursor) = window.cursor_position() else {
        return;
    };
    let Ok(w) = camera.0.viewport_to_world_2d(camera.1, cursor) else {
        return;
    };
    let (x, y) = (
        w.x / TILE + SIZE.0 as f32 / 2.0,
        SIZE.1 as f32 / 2.0 - w.y / TILE,
    );
    if buttons.just_pressed(MouseButton::Left) && x >= 0.0 && y >= 0.0 {
        let pos = Pos::new(x as u32, y as u32); // off the map: refused
        edits.write(TileEdit {
            pos,
            terrain: Terrain::Wall,
        });
    }
}

fn paint_tiles(world: Res<GridSim>, mut tiles: Query<(&Tile, &mut Sprite)>) {
    for (tile, mut sprite) in &mut tiles {
        let wall = !world.sim().grid().is_passable(tile.0);
        let v = if wall { 45 } else { 215 };
        sprite.color = Color::srgb_u8(v, v, v + 10);
    }
}

/// Each agent glides from its last cell to its current one over a tick.
fn place_agents(time: Res<Time<Fixed>>, mut agents: Query<(&LastCell, &GridPos, &mut Transform)>) {
    let t = time.overstep_fraction();
    for (last, now, mut transform) in &mut agents {
        transform.translation = at(last.0).lerp(at(now.0), t).extend(1.0);
    }
}
