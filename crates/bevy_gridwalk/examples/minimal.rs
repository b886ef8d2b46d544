//! The smallest game on bevy_gridwalk: a map drawn as sprites, 50 agents with goals, and a
//! left click that adds a wall; the agents repair their paths around it.
use bevy::prelude::*;
use bevy_gridwalk::core::{Grid, Pos, Terrain};
use bevy_gridwalk::prelude::*;
/// The map's width and height in cells, half of it, and a cell's side in pixels.
pub const SIZE: (u32, u32) = (32, 20);
const HALF: Vec2 = Vec2::new(SIZE.0 as f32 / 2.0, SIZE.1 as f32 / 2.0);
const TILE: f32 = 30.0;
fn main() {
    App::new()
        .add_plugins((DefaultPlugins, plugin()))
        .add_systems(Startup, setup)
        .add_systems(Update, (add_wall_on_click, draw))
        .run();
}
/// Open ground with a wall down the middle, pierced by three gaps.
pub fn plugin() -> GridwalkPlugin {
    let mut grid = Grid::new(SIZE.0, SIZE.1).unwrap();
    for y in (0..SIZE.1).filter(|y| ![3, 10, 16].contains(y)) {
        grid.set(Pos::new(SIZE.0 / 2, y), Terrain::Wall).unwrap();
    }
    let mut plugin = GridwalkPlugin::on_grid(grid);
    plugin.settings.crowd = true; // agents never share a cell, and step aside for each other
    plugin
}
#[derive(Component)]
struct Tile(Pos);
/// A camera, a sprite per cell, and 50 agents on the left heading to mirror cells on the right.
pub fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    for p in (0..SIZE.1).flat_map(|y| (0..SIZE.0).map(move |x| Pos::new(x, y))) {
        let sprite = Sprite::from_color(Color::WHITE, Vec2::splat(TILE - 1.0));
        let place = Transform::from_translation(at(p).extend(0.0));
        commands.spawn((Tile(p), sprite, place));
    }
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
    Vec2::new(p.x as f32 + 0.5 - HALF.x, HALF.y - p.y as f32 - 0.5) * TILE
}
fn add_wall_on_click(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut edits: MessageWriter<TileEdit>,
) {
    if buttons.just_pressed(MouseButton::Left)
        && let Some(cursor) = window.cursor_position()
        && let Ok(w) = camera.0.viewport_to_world_2d(camera.1, cursor)
        && let c = Vec2::new(w.x / TILE + HALF.x, HALF.y - w.y / TILE)
        && c.min_element() >= 0.0
    {
        let (pos, terrain) = (Pos::new(c.x as u32, c.y as u32), Terrain::Wall);
        edits.write(TileEdit { pos, terrain }); // off the map: refused
    }
}
fn draw(
    world: Res<GridSim>,
    (clock, time): (Res<TickClock>, Res<Time<Fixed>>),
    mut tiles: Query<(&Tile, &mut Sprite)>,
    mut agents: Query<(&LastCell, &GridPos, &mut Transform)>,
) {
    for (tile, mut sprite) in &mut tiles {
        let v = [45, 215][world.sim().grid().is_passable(tile.0) as usize];
        sprite.color = Color::srgb_u8(v, v, v + 10);
    }
    let t = clock.fraction(&time); // how far from the last tick to the next
    for (last, now, mut transform) in &mut agents {
        transform.translation = at(last.0).lerp(at(now.0), t).extend(1.0);
    }
}
