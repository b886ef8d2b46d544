//! Robots that turn ([`GridwalkSettings::rotation`]): an entity that carries [`Heading`]
//! follows its agent's facing, and a robot facing away from its goal turns before it moves.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridwalk::core::{Connectivity, Facing, Grid, Pos};
use bevy_gridwalk::prelude::*;

#[test]
fn a_heading_follows_the_robot_as_it_turns_and_moves() {
    let settings = GridwalkSettings {
        connectivity: Connectivity::Four,
        crowd: true,
        rotation: true,
        ..Default::default()
    };
    let mut app = App::new();
    let plugin = GridwalkPlugin::on_grid(Grid::new(5, 3).unwrap()).with_settings(settings);
    app.add_plugins(MinimalPlugins)
        .add_plugins(plugin)
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(TickClock::DEFAULT_RATE));
    let e = app
        .world_mut()
        .spawn((
            GridPos(Pos::new(0, 0)),
            Goal(Pos::new(0, 2)),
            Heading::default(),
        ))
        .id();
    let mut seen = Vec::new();
    for _ in 0..12 {
        app.update();
        let w = app.world();
        let (pos, heading) = (
            w.get::<GridPos>(e).unwrap().0,
            w.get::<Heading>(e).unwrap().0,
        );
        if seen.last() != Some(&(pos, heading)) {
            seen.push((pos, heading));
        }
    }
    // Facing east with its goal two cells south: a quarter turn, then two steps.
    let south = Facing::South;
    assert_eq!(
        seen,
        [
            (Pos::new(0, 0), Facing::East),
            (Pos::new(0, 0), south),
            (Pos::new(0, 1), south),
            (Pos::new(0, 2), south)
        ]
    );
}
