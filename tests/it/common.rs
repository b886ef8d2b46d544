//! What the headless App tests share: the game's simulation, input and explain plugins on
//! `MinimalPlugins`, one fixed tick per `app.update()`.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use gridwalk::explain;
use gridwalk::input;
use gridwalk::sim::{SimPlugin, SimSetup};

/// A headless game of `setup`: one tick per update.
pub fn headless(setup: SimSetup) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(SimPlugin { setup })
        .add_plugins((input::plugin, explain::plugin))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app
}
