//! `--record FILE.ron`: the session written as scenarios that `gridwalk-cli simulate` replays.
//!
//! The simulation keeps the record: the current [`crate::sim::Segment`]'s timeline, the one it
//! plays, written out as a scenario. This feature only writes it, through the core's
//! crash-safe [`Scenario::save`](gridwalk_core::format::Scenario::save): at start, every
//! [`AUTOSAVE_SECS`] seconds when something new was recorded, and on exit (Esc, closing the
//! window, `--exit-after-frames`). A killed game loses at most those seconds.
//!
//! `FILE.ron` holds the current segment. A segment ends when the world is rebuilt (new map,
//! another planner, agents removed), which a scenario cannot express; the finished segment is
//! then written beside it as `FILE-1.ron`, `FILE-2.ron`, ...

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::app::AppExit;
use bevy::prelude::*;
use gridwalk_core::format::Scenario;

use crate::notices::{NoticeKind, Notices};
use crate::sim::GridSim;

/// Seconds between automatic saves.
pub const AUTOSAVE_SECS: f32 = 3.0;

/// The recorder's state, shown in the panel.
#[derive(Resource, Debug, Clone)]
pub struct RecordStatus {
    /// The file of the current segment.
    pub path: PathBuf,
    /// Agents in the current segment.
    pub agents: usize,
    /// Edit entries in the current segment.
    pub edits: usize,
    /// Game tick of the last save.
    pub saved_tick: u64,
    /// Segments so far (1 until the first rebuild).
    pub segments: usize,
    /// The last write error, if the last write failed.
    pub error: Option<String>,
    saved_len: (usize, usize, u64),
    timer: Timer,
}

/// The recording feature.
pub struct RecordPlugin {
    /// Where to write.
    pub path: PathBuf,
}

impl Plugin for RecordPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(RecordStatus {
            path: self.path.clone(),
            agents: 0,
            edits: 0,
            saved_tick: 0,
            segments: 1,
            error: None,
            saved_len: (usize::MAX, 0, 0),
            timer: Timer::new(Duration::from_secs_f32(AUTOSAVE_SECS), TimerMode::Repeating),
        })
        .add_systems(Startup, save_now)
        .add_systems(
            Update,
            autosave.in_set(crate::schedule::FrameSystems::Record),
        )
        .add_systems(Last, save_on_exit);
    }
}

/// `dir/name.ron` → `dir/name-N.ron`.
pub fn segment_path(path: &Path, n: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "record".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}-{n}.ron"))
}

fn write(path: &Path, scenario: &Scenario) -> Result<(), String> {
    scenario.save(path).map_err(|e| e.to_string())
}

/// Writes finished segments, then the current one if anything new was logged (or `force`).
fn save(state: &mut GridSim, status: &mut RecordStatus, notices: &mut Notices, force: bool) {
    for finished in state.take_finished() {
        let p = segment_path(&status.path, status.segments);
        status.segments += 1;
        match write(&p, &finished) {
            Ok(()) => notices.push(
                NoticeKind::Info,
                format!("recording: segment saved as {}", p.display()),
            ),
            Err(e) => notices.push(NoticeKind::Error, format!("recording: {e}")),
        }
        status.saved_len = (usize::MAX, 0, 0);
    }
    let segment = state.segment();
    let (agents, edits) = segment.recorded();
    let len = (agents, edits, state.epoch());
    status.agents = len.0;
    status.edits = len.1;
    if !force && len == status.saved_len {
        return;
    }
    match write(&status.path, &segment.to_scenario()) {
        Ok(()) => {
            status.saved_len = len;
            status.saved_tick = state.ticks();
            if status.error.take().is_some() {
                notices.push(NoticeKind::Info, "recording: writing again");
            }
        }
        Err(e) => {
            if status.error.as_deref() != Some(e.as_str()) {
                notices.push(NoticeKind::Error, format!("recording: {e}"));
            }
            status.error = Some(e);
        }
    }
}

fn save_now(
    mut state: ResMut<GridSim>,
    mut status: ResMut<RecordStatus>,
    mut notices: ResMut<Notices>,
) {
    save(&mut state, &mut status, &mut notices, true);
}

fn autosave(
    time: Res<Time<Real>>,
    mut state: ResMut<GridSim>,
    mut status: ResMut<RecordStatus>,
    mut notices: ResMut<Notices>,
) {
    status.timer.tick(time.delta());
    let rebuilt = state.epoch() != status.saved_len.2;
    if status.timer.just_finished() || rebuilt {
        save(&mut state, &mut status, &mut notices, false);
    }
}

fn save_on_exit(
    mut exits: MessageReader<AppExit>,
    mut state: ResMut<GridSim>,
    mut status: ResMut<RecordStatus>,
    mut notices: ResMut<Notices>,
) {
    if exits.read().count() > 0 {
        save(&mut state, &mut status, &mut notices, true);
        info!("recording written to {}", status.path.display());
        // The last tick and where every agent stands, so a script can check that
        // `gridwalk-cli simulate --ticks N` ends in the same place.
        eprintln!("{}", final_line(&state));
    }
}

/// `recorded: tick T agents [[x,y],...]`: the segment's last tick as `gridwalk-cli simulate`
/// numbers it, and each agent's cell in id order.
pub fn final_line(state: &GridSim) -> String {
    let cells: Vec<String> = state
        .sim()
        .agents()
        .map(|a| format!("[{},{}]", a.pos.x, a.pos.y))
        .collect();
    format!(
        "recorded: tick {} agents [{}]",
        state.next_tick() - 1,
        cells.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_sit_beside_the_file() {
        assert_eq!(
            segment_path(Path::new("out/session.ron"), 2),
            PathBuf::from("out/session-2.ron")
        );
    }
}
