//! Zoom and pan: the wheel zooms around the cursor, a drag with Shift held pans (whatever the
//! button), the arrow keys pan while explain is closed, and F fits the whole map. They change
//! the [`MapView`]; the view feature puts the camera there. The arithmetic is the pure
//! functions of [`crate::map_frame`].

use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;

use crate::explain::ExplainState;
use crate::map_frame::{Frame, MapView, pan_by, panel_left, zoom_at};
use crate::sim::GridSim;
use crate::ui_state::{CursorTile, UiRects};

/// Pixels of a touchpad's smooth scroll that count as one wheel notch.
const PIXELS_PER_NOTCH: f32 = 40.0;
/// How fast the arrow keys pan, in logical pixels per second.
const KEY_PAN_SPEED: f32 = 700.0;

/// The window point where a Shift drag last was, while one pans.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct PanDrag {
    button: Option<MouseButton>,
    last: Vec2,
}

/// The frame of the view: the map's, the window's and the panel's sizes.
fn frame_of(window: &Window, state: &GridSim, ui: &UiRects) -> Frame {
    let grid = state.sim().grid();
    Frame {
        map: Vec2::new(grid.width() as f32, grid.height() as f32),
        window: Vec2::new(window.width(), window.height()),
        left: panel_left(&ui.0),
    }
}

/// The wheel zooms around the cursor, unless the cursor is over the panel or egui wants the
/// pointer (the panel scrolls then).
pub fn wheel_zoom(
    scroll: Option<Res<AccumulatedMouseScroll>>,
    window: Single<&Window, With<PrimaryWindow>>,
    state: Res<GridSim>,
    ui: Res<UiRects>,
    cursor: Res<CursorTile>,
    wants: Option<Res<EguiWantsInput>>,
    mut view: ResMut<MapView>,
) {
    let Some(scroll) = scroll else {
        return;
    };
    if scroll.delta.y == 0.0 || cursor.over_ui || wants.is_some_and(|w| w.wants_any_pointer_input())
    {
        return;
    }
    let Some(at) = window.cursor_position() else {
        return;
    };
    let notches = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / PIXELS_PER_NOTCH,
    };
    let frame = frame_of(&window, &state, &ui);
    let next = zoom_at(*view, &frame, at, notches);
    if next != *view {
        *view = next;
    }
}

/// A press with Shift held starts a pan instead of the button's own action (the press is
/// consumed, so clicks and strokes never see it); the map then follows the pointer until
/// the button is released.
#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource read
pub fn drag_pan(
    mut buttons: ResMut<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    window: Single<&Window, With<PrimaryWindow>>,
    state: Res<GridSim>,
    ui: Res<UiRects>,
    cursor: Res<CursorTile>,
    mut drag: ResMut<PanDrag>,
    mut view: ResMut<MapView>,
) {
    let at = window.cursor_position();
    if let Some(button) = drag.button {
        if !buttons.pressed(button) {
            drag.button = None;
        } else if let Some(at) = at
            && at != drag.last
        {
            let frame = frame_of(&window, &state, &ui);
            *view = pan_by(*view, &frame, at - drag.last);
            drag.last = at;
        }
        return;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if !shift || cursor.over_ui {
        return;
    }
    let Some(at) = at else {
        return;
    };
    for button in [MouseButton::Left, MouseButton::Middle, MouseButton::Right] {
        if buttons.clear_just_pressed(button) {
            *drag = PanDrag {
                button: Some(button),
                last: at,
            };
            return;
        }
    }
}

/// The arrow keys pan while explain is closed (they step it when it is open); F fits the
/// whole map.
pub fn camera_keys(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time<Real>>,
    window: Single<&Window, With<PrimaryWindow>>,
    state: Res<GridSim>,
    ui: Res<UiRects>,
    explain: Option<Res<ExplainState>>,
    mut view: ResMut<MapView>,
) {
    if keys.just_pressed(KeyCode::KeyF) {
        view.fitted = true;
        return;
    }
    if explain.is_some_and(|e| e.active()) {
        return;
    }
    let mut dir = Vec2::ZERO;
    for (key, d) in [
        (KeyCode::ArrowLeft, Vec2::X),
        (KeyCode::ArrowRight, Vec2::NEG_X),
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
    ] {
        if keys.pressed(key) {
            dir += d;
        }
    }
    // A quick tap moves a little even within one short frame.
    let secs = time.delta_secs().clamp(1.0 / 60.0, 0.1);
    if dir != Vec2::ZERO {
        let frame = frame_of(&window, &state, &ui);
        *view = pan_by(*view, &frame, dir * KEY_PAN_SPEED * secs);
    }
}
