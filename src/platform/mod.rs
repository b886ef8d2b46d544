//! What differs between the desktop and the browser, in one place: the timings' clock as the
//! panel shows it ([`clock`]), the browser's files, query string and page ([`browser`], wasm32
//! only), and the game's state published for the tests that drive it ([`status_json`]): to the
//! page in a browser, to the file named by `GRIDWALK_STATUS` ([`STATUS_ENV`]) on the desktop.
//!
//! Everything else is the same code on both: the browser build is the desktop game with these
//! few `cfg`s.

#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod clock;

use std::fmt::Write;

use bevy::prelude::*;
use gridwalk_core::sim::AgentStatus;
use gridwalk_core::{Pos, Terrain};

use crate::map_frame::{MapView, tile_center, world_to_screen};
use crate::notices::{NoticeKind, Notices};
use crate::sim::GridSim;

/// Whether this build runs in a browser.
pub const IN_BROWSER: bool = cfg!(target_arch = "wasm32");

/// Agents whose cells and paths the status lists.
pub const STATUS_AGENTS: usize = 16;
/// The largest map whose rows the status includes, in cells.
pub const STATUS_MAX_CELLS: usize = 1 << 16;
/// The longest path the status lists, in cells.
pub const STATUS_MAX_PATH: usize = 4096;

/// On the desktop, the environment variable naming the file the status is written to (every
/// few frames, replaced whole), for the end-to-end test (`scripts/e2e.sh`): it reads where
/// cells are on the window from it. Unset, nothing is written.
pub const STATUS_ENV: &str = "GRIDWALK_STATUS";

/// Where the desktop game writes its status ([`STATUS_ENV`]).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Resource)]
struct StatusFile(std::path::PathBuf);

#[cfg(not(target_arch = "wasm32"))]
impl StatusFile {
    /// Writes `status` to a temporary file first, then renames it, so a reader never sees
    /// half of it.
    fn write(&self, status: &str) {
        let tmp = self.0.with_extension("tmp");
        if let Err(e) = std::fs::write(&tmp, status).and_then(|()| std::fs::rename(&tmp, &self.0)) {
            warn!("status file {}: {e}", self.0.display());
        }
    }
}

/// The platform's systems: in a browser, picked files loaded and the status published; on the
/// desktop, the status written when [`STATUS_ENV`] names a file.
pub fn plugin(app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, load_picked)
        .add_systems(Last, publish_status);
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(path) = std::env::var_os(STATUS_ENV).filter(|p| !p.is_empty()) {
        app.insert_resource(StatusFile(path.into()))
            .add_systems(Last, publish_status);
    }
}

/// Files read by the browser's picker become load commands, or errors in the panel.
#[cfg(target_arch = "wasm32")]
fn load_picked(
    mut maps: ResMut<crate::panel::MapsUi>,
    mut commands: MessageWriter<crate::sim::SimCommand>,
    mut notices: ResMut<Notices>,
) {
    for picked in browser::take_picked() {
        let loaded = picked.file.and_then(|(name, text)| {
            if picked.purpose == "import" && !name.ends_with(".map") {
                return Err(format!("{name}: expected a Moving AI .map file"));
            }
            crate::maps::parse_map_text(&name, &text).map(|s| (name, s))
        });
        match loaded {
            Ok((name, scenario)) => {
                maps.error = None;
                commands.write(crate::sim::SimCommand::Load {
                    scenario: Box::new(scenario),
                    name,
                });
            }
            Err(e) => {
                notices.push(NoticeKind::Error, e.clone());
                maps.error = Some(e);
            }
        }
    }
}

/// Every fifth frame, the status: set on the page in a browser, written to the
/// [`STATUS_ENV`] file on the desktop.
fn publish_status(
    mut frames: Local<u64>,
    state: Res<GridSim>,
    view: Res<MapView>,
    notices: Res<Notices>,
    explain: Option<Res<crate::explain::ExplainState>>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    #[cfg(not(target_arch = "wasm32"))] file: Res<StatusFile>,
) {
    *frames += 1;
    if *frames % 5 == 1 {
        let size = Vec2::new(window.width(), window.height());
        let explain = explain
            .filter(|e| e.0.active())
            .map(|e| (e.0.position(), e.0.len()));
        let s = status_json(&state, &view, size, &notices, explain, *frames);
        #[cfg(target_arch = "wasm32")]
        browser::publish_status(&s);
        #[cfg(not(target_arch = "wasm32"))]
        file.write(&s);
    }
}

/// In a browser, the options that write files or exit are not run: each one given gets a
/// notice in the panel saying what to use instead.
pub fn refuse_desktop_only(app: &mut App, args: &crate::cli::Args) {
    let mut refused = Vec::new();
    if args.record.is_some() {
        refused
            .push("--record writes a file: the panel's \"Download recording\" saves the session");
    }
    if args.screenshot.is_some() || args.exit_after_frames.is_some() {
        refused.push("--screenshot and --exit-after-frames are desktop only: a page does not exit");
    }
    if args.timings {
        refused.push("--timings prints on exit, which a page never does: desktop only");
    }
    if refused.is_empty() {
        return;
    }
    app.add_systems(Startup, move |mut notices: ResMut<Notices>| {
        for r in &refused {
            notices.push(NoticeKind::Refused, format!("in a browser, {r}"));
        }
    });
}

fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The game's state as JSON, for a test driving the page: the tick, the map's rows (`#` wall,
/// `.` ground, `2`–`9` weights; empty past [`STATUS_MAX_CELLS`]), where cells are on the page
/// (`view`: the centre of cell (0, 0) and the step between cells, in CSS pixels), how many
/// agents stand arrived on their goal (`arrived`), the first [`STATUS_AGENTS`] agents with
/// their paths (while robots turn, with their facing, and the tasks finished: `tasks`), the
/// notices, and explain's replay (`explain`: its step and number of steps
/// while it is open, else `null`).
pub fn status_json(
    state: &GridSim,
    view: &MapView,
    window: Vec2,
    notices: &Notices,
    explain: Option<(usize, usize)>,
    frame: u64,
) -> String {
    let sim = state.sim();
    let grid = sim.grid();
    let (w, h) = (grid.width(), grid.height());
    let at = |x, y| world_to_screen(view, window, tile_center(Pos::new(x, y), w, h));
    let (o, right, down) = (at(0, 0), at(1.min(w - 1), 0), at(0, 1.min(h - 1)));
    let mut s = String::with_capacity(1024);
    let _ = write!(
        s,
        "{{\"frame\":{frame},\"tick\":{},\"epoch\":{},\"width\":{w},\"height\":{h},\
         \"agents\":{},\"arrived\":{},\"walls\":{},\"connectivity\":\"{:?}\",\"clock_step_us\":{},\
         \"view\":{{\"x0\":{},\"y0\":{},\"dx\":{},\"dy\":{}}},\"map\":",
        state.ticks(),
        state.epoch(),
        sim.agent_count(),
        (sim.agents())
            .filter(|a| a.status == AgentStatus::Arrived)
            .count(),
        grid.wall_count(),
        sim.config().connectivity,
        clock::resolution_micros(),
        o.x,
        o.y,
        right.x - o.x,
        down.y - o.y,
    );
    json_str(&mut s, state.map_name());
    let turns = sim.config().turns();
    if let Some(c) = sim.crowd_stats().filter(|_| turns) {
        let _ = write!(s, ",\"tasks\":{}", c.arrivals_total);
    }
    match explain {
        Some((step, steps)) => {
            let _ = write!(s, ",\"explain\":{{\"step\":{step},\"steps\":{steps}}}");
        }
        None => s.push_str(",\"explain\":null"),
    }
    s.push_str(",\"rows\":[");
    if grid.len() <= STATUS_MAX_CELLS {
        for y in 0..h {
            if y > 0 {
                s.push(',');
            }
            s.push('"');
            for x in 0..w {
                s.push(match grid.terrain(Pos::new(x, y)) {
                    Ok(Terrain::Wall) => '#',
                    Ok(Terrain::Weight(n)) if n > 1 => char::from(b'0' + n.min(9)),
                    _ => '.',
                });
            }
            s.push('"');
        }
    }
    s.push_str("],\"list\":[");
    for (i, a) in sim.agents().take(STATUS_AGENTS).enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"id\":{},\"pos\":[{},{}],\"goal\":[{},{}],\"status\":\"{}\",",
            state.label(a.id),
            a.pos.x,
            a.pos.y,
            a.goal.x,
            a.goal.y,
            a.status.name()
        );
        if turns {
            let _ = write!(s, "\"facing\":\"{}\",", a.facing.name());
        }
        s.push_str("\"path\":[");
        if let Some(p) = sim.path(a.id) {
            for (j, c) in p.cells.iter().take(STATUS_MAX_PATH).enumerate() {
                let sep = if j > 0 { "," } else { "" };
                let _ = write!(s, "{sep}[{},{}]", c.x, c.y);
            }
        }
        s.push_str("]}");
    }
    s.push_str("],\"notices\":[");
    for (i, n) in notices.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let kind = match n.kind {
            NoticeKind::Info => "info",
            NoticeKind::Refused => "refused",
            NoticeKind::Error => "error",
        };
        let _ = write!(s, "[\"{kind}\",");
        json_str(&mut s, &n.text);
        s.push(']');
    }
    s.push_str("]}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::SimSetup;
    use gridwalk_core::Grid;
    use gridwalk_core::format::AgentSpec;

    #[test]
    fn the_status_lists_the_map_agents_and_where_cells_are() {
        let mut grid = Grid::new(4, 3).unwrap();
        grid.set(Pos::new(2, 1), Terrain::Wall).unwrap();
        grid.set(Pos::new(1, 2), Terrain::Weight(5)).unwrap();
        let mut setup = SimSetup::on_grid(grid);
        setup.scenario.agents = vec![AgentSpec::new(Pos::new(0, 0), Pos::new(3, 2))];
        let (state, _) = setup.start();
        let view = MapView {
            scale: 0.1,
            center: Vec2::ZERO,
            fitted: true,
        };
        let mut notices = Notices::default();
        notices.push(NoticeKind::Error, "a \"quoted\" name");
        let s = status_json(&state, &view, Vec2::new(200.0, 100.0), &notices, None, 7);
        assert!(s.contains("\"rows\":[\"....\",\"..#.\",\".5..\"]"), "{s}");
        // Cell (0, 0) is 1.5 cells left of and 1 cell above the centre, 10 pixels a cell.
        assert!(
            s.contains("\"view\":{\"x0\":85,\"y0\":40,\"dx\":10,\"dy\":10}"),
            "{s}"
        );
        assert!(s.contains("\"pos\":[0,0],\"goal\":[3,2]"), "{s}");
        assert!(s.contains("\"agents\":1,\"arrived\":0,"), "{s}");
        assert!(s.contains("[\"error\",\"a \\\"quoted\\\" name\"]"), "{s}");
        assert!(s.starts_with("{\"frame\":7,\"tick\":0"), "{s}");
        assert!(s.contains("\"explain\":null"), "{s}");
        let s = status_json(&state, &view, Vec2::ZERO, &notices, Some((3, 40)), 8);
        assert!(s.contains("\"explain\":{\"step\":3,\"steps\":40}"), "{s}");
    }
}
