//! The panel's map section: save to `maps/NAME.ron`, load a map of `maps/`, import a Moving AI
//! `.map` from any path. In a browser: save and the recording are downloads, and files open
//! with the browser's picker (read by [`crate::platform`]).
//!
//! Saving goes through the core's crash-safe [`Scenario::save`] (a temporary file, then a
//! rename). Loading reads and validates the whole file before anything changes, so a bad file
//! only shows its error here and the current map stays.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui;
use gridwalk_core::format::Scenario;

use crate::maps;
use crate::notices::{NoticeKind, Notices};
use crate::sim::{GridSim, SimCommand};
use crate::theme::text::RED;

/// What the map section remembers between frames.
#[derive(Resource, Debug)]
pub struct MapsUi {
    /// Name to save under.
    pub save_name: String,
    /// Files found in `maps/`.
    pub files: Vec<PathBuf>,
    /// Index of the file picked to load.
    pub chosen: usize,
    /// Path of a Moving AI map to import.
    pub import_path: String,
    /// The last error, shown until the next success.
    pub error: Option<String>,
    listed: bool,
}

impl Default for MapsUi {
    fn default() -> Self {
        MapsUi {
            save_name: "my_map".into(),
            files: Vec::new(),
            chosen: 0,
            import_path: String::new(),
            error: None,
            listed: false,
        }
    }
}

/// The current world as a scenario: map, moves, heuristic and every agent at its cell.
pub fn current_scenario(state: &GridSim) -> Scenario {
    state.sim().to_scenario()
}

/// Saves the current world as `maps/NAME.ron`; returns the path written (desktop only).
#[cfg(not(target_arch = "wasm32"))]
pub fn save_current(state: &GridSim, name: &str) -> Result<PathBuf, String> {
    save_current_in(state, &maps::maps_dir(), name)
}

/// Saves the current world as `DIR/NAME.ron`; returns the path written (desktop only).
#[cfg(not(target_arch = "wasm32"))]
pub fn save_current_in(state: &GridSim, dir: &Path, name: &str) -> Result<PathBuf, String> {
    if !maps::valid_map_name(name) {
        return Err(format!(
            "'{name}' is not a map name: use 1–64 letters, digits, '-' or '_'"
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{name}.ron"));
    current_scenario(state)
        .save(&path)
        .map_err(|e| e.to_string())?;
    Ok(path)
}

/// Reads a map file into a load command, or its error.
pub fn load_command(path: &Path) -> Result<SimCommand, String> {
    let scenario = maps::load_map_file(path)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(SimCommand::Load {
        scenario: Box::new(scenario),
        name,
    })
}

impl MapsUi {
    /// Draws the section.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        state: &GridSim,
        commands: &mut MessageWriter<SimCommand>,
        notices: &mut Notices,
    ) {
        if !self.listed {
            self.files = maps::list_maps();
            self.listed = true;
        }
        ui.strong("Maps");
        self.save_ui(ui, state, notices);
        ui.horizontal(|ui| {
            let name = |p: &PathBuf| {
                p.file_name()
                    .map_or(String::new(), |n| n.to_string_lossy().into_owned())
            };
            let current = self.files.get(self.chosen).map_or("(none)".into(), name);
            egui::ComboBox::from_id_salt("map_files")
                .selected_text(current)
                .width(150.0)
                .show_ui(ui, |ui| {
                    for (i, f) in self.files.iter().enumerate() {
                        ui.selectable_value(&mut self.chosen, i, name(f));
                    }
                });
            if ui.button("⟳").on_hover_text("list maps/ again").clicked() {
                self.files = maps::list_maps();
            }
            let can = self.files.get(self.chosen).is_some();
            if ui.add_enabled(can, egui::Button::new("Load")).clicked()
                && let Some(p) = self.files.get(self.chosen).cloned()
            {
                self.load(&p, commands, notices);
            }
        });
        self.import_ui(ui, commands, notices);
        #[cfg(target_arch = "wasm32")]
        self.browser_ui(ui, state, notices);
        if let Some(e) = &self.error {
            ui.label(egui::RichText::new(e).color(RED));
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn save_ui(&mut self, ui: &mut egui::Ui, state: &GridSim, notices: &mut Notices) {
        ui.horizontal(|ui| {
            ui.label("maps/");
            ui.add(egui::TextEdit::singleline(&mut self.save_name).desired_width(110.0));
            ui.label(".ron");
            if ui.button("Save").clicked() {
                match save_current(state, &self.save_name) {
                    Ok(p) => {
                        self.error = None;
                        notices.push(NoticeKind::Info, format!("saved {}", p.display()));
                        self.files = maps::list_maps();
                    }
                    Err(e) => self.fail(e, notices),
                }
            }
        });
    }

    /// Importing a map: a path on the desktop, the file picker in a browser.
    fn import_ui(
        &mut self,
        ui: &mut egui::Ui,
        commands: &mut MessageWriter<SimCommand>,
        notices: &mut Notices,
    ) {
        #[cfg(not(target_arch = "wasm32"))]
        self.import_path_ui(ui, commands, notices);
        #[cfg(target_arch = "wasm32")]
        {
            // A picked file arrives later, through the browser's callback.
            let _ = commands;
            self.pick_file_ui(ui, notices);
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn import_path_ui(
        &mut self,
        ui: &mut egui::Ui,
        commands: &mut MessageWriter<SimCommand>,
        notices: &mut Notices,
    ) {
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.import_path)
                    .hint_text("path/to/map.map")
                    .desired_width(200.0),
            );
            if ui.button("Import .map").clicked() {
                let p = PathBuf::from(self.import_path.trim());
                if p.extension().and_then(|e| e.to_str()) != Some("map") {
                    self.fail(
                        format!("{}: expected a Moving AI .map file", p.display()),
                        notices,
                    );
                } else {
                    self.load(&p, commands, notices);
                }
            }
        });
    }

    /// In a browser, saving offers the map as a download.
    #[cfg(target_arch = "wasm32")]
    fn save_ui(&mut self, ui: &mut egui::Ui, state: &GridSim, notices: &mut Notices) {
        use crate::platform::browser;
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut self.save_name).desired_width(110.0));
            ui.label(".ron");
            if ui
                .button("Download")
                .on_hover_text("save the map and its agents as a file")
                .clicked()
            {
                let name = self.save_name.trim().to_string();
                let saved = if maps::valid_map_name(&name) {
                    let file = format!("{name}.ron");
                    browser::download(&file, &current_scenario(state).to_ron()).map(|()| file)
                } else {
                    Err(format!(
                        "'{name}' is not a map name: use 1–64 letters, digits, '-' or '_'"
                    ))
                };
                match saved {
                    Ok(file) => {
                        self.error = None;
                        notices.push(NoticeKind::Info, format!("offered {file} as a download"));
                    }
                    Err(e) => self.fail(e, notices),
                }
            }
        });
    }

    /// In a browser, files are opened with the file picker, and the recording is a download.
    #[cfg(target_arch = "wasm32")]
    fn pick_file_ui(&mut self, ui: &mut egui::Ui, notices: &mut Notices) {
        use crate::platform::browser;
        ui.horizontal(|ui| {
            let mut picked = None;
            if ui
                .button("Open file…")
                .on_hover_text("a .ron scenario or a Moving AI .map from your computer")
                .clicked()
            {
                picked = Some(browser::pick_file(".ron,.map", "open"));
            }
            if ui.button("Import .map…").clicked() {
                picked = Some(browser::pick_file(".map", "import"));
            }
            if let Some(Err(e)) = picked {
                self.fail(e, notices);
            }
        });
    }

    /// The browser's recording download, and what the page cannot do.
    #[cfg(target_arch = "wasm32")]
    fn browser_ui(&mut self, ui: &mut egui::Ui, state: &GridSim, notices: &mut Notices) {
        use crate::platform::browser;
        if ui
            .button("Download recording")
            .on_hover_text(
                "the session since the last new map or planner, for gridwalk-cli simulate",
            )
            .clicked()
        {
            let ron = state.segment().to_scenario().to_ron();
            match browser::download("gridwalk-session.ron", &ron) {
                Ok(()) => notices.push(
                    NoticeKind::Info,
                    "offered gridwalk-session.ron as a download",
                ),
                Err(e) => self.fail(e, notices),
            }
        }
        ui.label(
            egui::RichText::new(
                "In a browser: maps/ is the built-in maps; saving and the recording are \
                 downloads; your files open with the picker. Esc does not quit (close the tab).",
            )
            .weak(),
        );
    }

    fn load(&mut self, p: &Path, commands: &mut MessageWriter<SimCommand>, notices: &mut Notices) {
        match load_command(p) {
            Ok(cmd) => {
                self.error = None;
                commands.write(cmd);
            }
            Err(e) => self.fail(e, notices),
        }
    }

    fn fail(&mut self, e: String, notices: &mut Notices) {
        notices.push(NoticeKind::Error, e.clone());
        self.error = Some(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::SimSetup;
    use gridwalk_core::format::AgentSpec;
    use gridwalk_core::{Grid, Pos, Terrain};

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gridwalk-maps-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_saved_map_loads_back_with_its_agents() {
        let mut grid = Grid::new(12, 8).unwrap();
        grid.set(Pos::new(5, 5), Terrain::Wall).unwrap();
        grid.set(Pos::new(6, 5), Terrain::Weight(7)).unwrap();
        let mut setup = SimSetup::on_grid(grid.clone());
        setup.scenario.agents = vec![AgentSpec::new(Pos::new(0, 0), Pos::new(11, 7))];
        let (state, refused) = setup.start();
        assert!(refused.is_empty());
        let dir = temp_dir("save");
        let path = save_current_in(&state, &dir, "round_trip").unwrap();
        assert!(save_current_in(&state, &dir, "../escape").is_err());
        match load_command(&path).unwrap() {
            SimCommand::Load { scenario, name } => {
                assert_eq!(name, "round_trip.ron");
                assert_eq!(scenario.grid, grid);
                assert_eq!(scenario.agents.len(), 1);
                assert_eq!(scenario.agents[0].goal, Pos::new(11, 7));
            }
            other => panic!("{other:?}"),
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn bad_files_give_their_error_and_no_command() {
        let dir = temp_dir("bad");
        std::fs::create_dir_all(&dir).unwrap();
        let ron = dir.join("broken.ron");
        std::fs::write(
            &ron,
            "(\n    rows: [\n        \"..#\",\n        \"..\",\n    ],\n)\n",
        )
        .unwrap();
        let e = load_command(&ron).unwrap_err();
        assert!(e.contains("broken.ron:4"), "{e}");
        let map = dir.join("broken.map");
        std::fs::write(&map, "type octile\nheight 2\nwidth 3\nmap\n...\n").unwrap();
        let e = load_command(&map).unwrap_err();
        assert!(e.contains("broken.map"), "{e}");
        assert!(load_command(&dir.join("missing.ron")).is_err());
        let _ = std::fs::remove_dir_all(dir);
    }
}
