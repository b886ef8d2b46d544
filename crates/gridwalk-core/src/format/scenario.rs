//! The RON scenario format: the game's maps, its saves and its session recordings.
//!
//! A scenario is a map, its connectivity, an optional heuristic, the agents with the tick at
//! which each appears, and timed edits. Only `rows` is required:
//!
//! ```ron
//! (
//!     rows: [
//!         "..........",
//!         "..#####...",
//!         "....3.....",
//!     ],
//!     connectivity: Eight,
//!     heuristic: Octile,
//!     seed: 7,
//!     agents: [
//!         (start: (0, 0), goal: (9, 2)),
//!         (start: (1, 2), goal: (9, 2), tick: 4, on_arrival: Wander),
//!     ],
//!     edits: [
//!         (tick: 3, set: Wall, cells: [(5, 0), (5, 1)]),
//!         (tick: 7, set: Free, cells: [(5, 1)]),
//!         (tick: 8, set: Weight(4), cells: [(6, 2)]),
//!     ],
//!     dynamic: [
//!         (tick: 0, every: 4, walls: 6),
//!         (tick: 50, every: 0),
//!     ],
//!     destinations: 4,
//!     planner_memory: "512M",
//!     plan_budget: 20000,
//! )
//! ```
//!
//! - `rows`: one string per row, top row first, all the same length. `.` (or `1`) is plain
//!   ground, `#` a wall, `2`–`9` ground of that weight.
//! - `connectivity`: `Eight` (default) or `Four`.
//! - `heuristic`: `Octile`, `Manhattan`, `Euclidean`, `Chebyshev` or `Zero`; absent means the
//!   connectivity's default ([`Heuristic::default_for`]).
//! - `agents`: `start` and `goal` as `(x, y)`, with (0, 0) the top-left cell and y growing
//!   downward; `tick` (default 0) is when the agent appears. Start and goal must be on the map
//!   and passable.
//! - `edits`: at `tick` (default 0), `set` each of `cells` to exactly `Wall`, `Free` (plain
//!   ground) or `Weight(w)` with w in 1–9.
//! - `on_arrival` (per agent): `Stay` (default), `Wander` (a new random reachable goal) or
//!   `Patrol` (back to its start, then to its goal again).
//! - `facing` (per agent): `East` (default), `South`, `West` or `North`, where it first faces;
//!   `route` (per agent, for `Patrol`): cells visited after its goal, in turn, round again.
//! - `seed` (default 0): seeds wander's goals and the dynamic world's walls.
//! - `dynamic`: from `tick` on (default 0), every `every` ticks a wall drops on a walking
//!   agent's path ahead of it, and the oldest is lifted once more than `walls` (default 6)
//!   stand; `every: 0` turns the dynamic world off. See [`crate::sim::living`].
//! - `destinations` (default 0, at most [`MAX_DESTINATIONS`]): wandering agents draw their
//!   next goal from this many cells, chosen once with `seed` among the cells of the starting
//!   map's largest connected component, so that they keep sharing goals and planners; 0 draws
//!   from every reachable cell. See [`crate::sim::living`].
//!
//! - `sensor_range`, `sensing`: unknown terrain, see [`super::sensing`].
//! - `planner_memory` (default `"2G"`), `plan_budget` (default none) and `crowd_budget`
//!   (default [`DEFAULT_BUDGET`](crate::mapf::DEFAULT_BUDGET) tries): the budgets,
//!   see [`super::budgets`].
//!
//! - `crowd` (default false): no two agents on one cell; `rotation` (default false): agents
//!   turn ([`SimConfig::rotation`](crate::sim::SimConfig::rotation)), with `crowd` and `Four`.
//!
//! A file without the last six fields means what it always meant: agents stay, the world
//! only changes by `edits`.
//!
//! The text is read with RON's `implicit_some` extension, so `heuristic: Octile` and
//! `heuristic: Some(Octile)` are the same. Unknown fields are errors, so a misspelt field is
//! reported instead of silently ignored.
//!
//! Errors found after the RON syntax is accepted (a short row, an agent on a wall, ...) are
//! located in the text by re-lexing it (serde keeps no positions), so they name a line too.

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::atomic::write_atomically;
use super::budgets::{check_budgets, read_memory, write_budgets};
pub use super::dynamic_spec::DynamicSpec;
use super::locate::Locator;
use super::rows::{cell_char, parse_rows};
use super::sensing::{self, SensingSpec};
use super::{FormatError, display_name, read_text, strip_bom};
use crate::grid::{Connectivity, Facing, Grid, Pos, Terrain};
use crate::heuristic::Heuristic;
use crate::sim::{Budget, MAX_DESTINATIONS, OnArrival, Setup};

/// What an edit makes its cells: exactly a wall, plain ground, or ground of a weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CellSet {
    /// Impassable.
    Wall,
    /// Plain ground, weight 1.
    Free,
    /// Ground of this weight, 1–9 (checked when a scenario is parsed or validated).
    Weight(u8),
}

impl CellSet {
    /// The terrain the cells become. A weight outside 1–9 is passed through unchanged, for
    /// [`Grid::set`] to refuse; a parsed or validated scenario has none.
    pub fn terrain(self) -> Terrain {
        match self {
            CellSet::Wall => Terrain::Wall,
            CellSet::Free => Terrain::FREE,
            CellSet::Weight(w) => Terrain::Weight(w),
        }
    }

    /// The `CellSet` that makes a cell `terrain`: plain ground is [`CellSet::Free`].
    pub fn from_terrain(terrain: Terrain) -> CellSet {
        match terrain {
            Terrain::Wall => CellSet::Wall,
            Terrain::Weight(1) => CellSet::Free,
            Terrain::Weight(w) => CellSet::Weight(w),
        }
    }
}

/// An agent: where it starts, where it goes, and the tick at which it appears.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentSpec {
    /// Its first cell.
    pub start: Pos,
    /// Its goal cell.
    pub goal: Pos,
    /// The tick at which it appears; 0 (the default) is at the start.
    #[serde(default)]
    pub tick: u64,
    /// What it does on arrival; [`OnArrival::Stay`] by default.
    #[serde(default)]
    pub on_arrival: OnArrival,
    /// The direction it faces at first, [`Facing::East`] by default; it turns only under
    /// `rotation`.
    #[serde(default)]
    pub facing: Facing,
    /// A patrol's cells after its goal, visited in turn before its goal again; empty (the
    /// default): it patrols between its start and its goal.
    #[serde(default)]
    pub route: Vec<Pos>,
}

impl AgentSpec {
    /// Its setup in a simulation: its policy, facing and route.
    pub fn setup(&self) -> Setup {
        Setup {
            on_arrival: self.on_arrival,
            facing: self.facing,
            route: self.route.as_slice().into(),
        }
    }
}

impl AgentSpec {
    /// An agent of tick 0 that stays on arrival.
    pub fn new(start: Pos, goal: Pos) -> AgentSpec {
        AgentSpec {
            start,
            goal,
            tick: 0,
            on_arrival: OnArrival::Stay,
            facing: Facing::East,
            route: Vec::new(),
        }
    }
}

/// A timed edit: at `tick`, every cell in `cells` becomes `set`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditSpec {
    /// The tick at which it applies; 0 by default.
    #[serde(default)]
    pub tick: u64,
    /// What the cells become.
    pub set: CellSet,
    /// The cells, as `(x, y)`.
    pub cells: Vec<Pos>,
}

/// A validated scenario: a map and what happens on it.
///
/// [`Scenario::parse`] and [`Scenario::load`] return either a whole valid scenario or an
/// error, never a partial one: every agent's start and goal is on the map and passable, every
/// edit cell is on the map and every edit weight is in 1–9. A scenario built or changed in code
/// can be checked with [`Scenario::validate`]; [`Scenario::save`] does so before writing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// The map.
    pub grid: Grid,
    /// Which moves are allowed.
    pub connectivity: Connectivity,
    /// The heuristic, or `None` for the connectivity's default; see
    /// [`Scenario::effective_heuristic`].
    pub heuristic: Option<Heuristic>,
    /// The agents, in file order.
    pub agents: Vec<AgentSpec>,
    /// The timed edits, in file order.
    pub edits: Vec<EditSpec>,
    /// The seed of wander's goals and the dynamic world.
    pub seed: u64,
    /// The dynamic world's timed changes, in file order.
    pub dynamic: Vec<DynamicSpec>,
    /// How many destinations wander draws from (0: every reachable cell); at most
    /// [`MAX_DESTINATIONS`].
    pub destinations: usize,
    /// The sensor range from tick 0; `None`: the agents know the whole map.
    pub sensor_range: Option<u32>,
    /// The sensor range's timed changes, in file order.
    pub sensing: Vec<SensingSpec>,
    /// The planner-memory budget in bytes, or `None` for the default.
    pub planner_memory: Option<usize>,
    /// The expansions a tick's planning may make, or `None` for no limit.
    pub plan_budget: Option<u64>,
    /// Crowd mode ([`SimConfig::crowd`](crate::sim::SimConfig::crowd)): no two agents share a
    /// cell. Two agents due at tick 0 on one cell are then an error.
    pub crowd: bool,
    /// The tries a tick of crowd mode's real-time search makes, or `None` for the default.
    pub crowd_budget: Option<usize>,
    /// Agents face a direction and turn ([`SimConfig::rotation`](crate::sim::SimConfig::rotation));
    /// only with `crowd` and four moves.
    pub rotation: bool,
}

/// The file's shape, as serde reads it, before validation.
#[derive(Deserialize)]
#[serde(rename = "Scenario", deny_unknown_fields)]
struct RawScenario {
    rows: Vec<String>,
    #[serde(default)]
    connectivity: Connectivity,
    #[serde(default)]
    heuristic: Option<Heuristic>,
    #[serde(default)]
    agents: Vec<AgentSpec>,
    #[serde(default)]
    edits: Vec<EditSpec>,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    dynamic: Vec<DynamicSpec>,
    #[serde(default)]
    destinations: usize,
    #[serde(default)]
    sensor_range: Option<u32>,
    #[serde(default)]
    sensing: Vec<SensingSpec>,
    planner_memory: Option<String>,
    #[serde(default)]
    plan_budget: Option<u64>,
    #[serde(default)]
    crowd: bool,
    #[serde(default)]
    crowd_budget: Option<usize>,
    #[serde(default)]
    rotation: bool,
}

/// Where in the file a semantic error is, to be turned into a line by a [`Locator`].
#[derive(Clone, Copy, Debug)]
enum Site {
    Rows,
    Row(usize),
    AgentField(usize, &'static str),
    EditSet(usize),
    EditCell(usize, usize),
    Dynamic(usize),
    Destinations,
    /// `sensor_range` (`None`) or `sensing[i]`.
    Sensing(Option<usize>),
    Field(&'static str),
}

/// A semantic error: where, and what.
type SiteError = (Site, String);

/// Edits with more cells than this are written over several lines by [`Scenario::to_ron`].
const CELLS_PER_LINE: usize = 12;

/// Writes `    name: [` and one `item` per line, or nothing when `items` is empty.
fn write_list<T>(out: &mut String, name: &str, items: &[T], item: impl Fn(&mut String, &T)) {
    if items.is_empty() {
        return;
    }
    let _ = writeln!(out, "    {name}: [");
    for it in items {
        out.push_str("        ");
        item(out, it);
        out.push_str(",\n");
    }
    out.push_str("    ],\n");
}

impl Scenario {
    /// The budgets the scenario sets, the defaults where it sets none.
    pub fn budget(&self) -> Budget {
        Budget {
            planner_memory: (self.planner_memory).unwrap_or(Budget::default().planner_memory),
            plan_expansions: self.plan_budget,
        }
    }
}

impl Scenario {
    /// A scenario of `grid` alone: eight-connected, default heuristic, no agents, no edits.
    pub fn from_grid(grid: Grid) -> Scenario {
        Scenario {
            grid,
            connectivity: Connectivity::default(),
            heuristic: None,
            agents: Vec::new(),
            edits: Vec::new(),
            seed: 0,
            dynamic: Vec::new(),
            destinations: 0,
            sensor_range: None,
            sensing: Vec::new(),
            planner_memory: None,
            plan_budget: None,
            crowd: false,
            crowd_budget: None,
            rotation: false,
        }
    }

    /// A scenario of `grid` with these moves and heuristic (`None`: the connectivity's
    /// default), no agents and no edits.
    pub fn with_moves(
        grid: Grid,
        connectivity: Connectivity,
        heuristic: Option<Heuristic>,
    ) -> Scenario {
        Scenario {
            connectivity,
            heuristic,
            ..Scenario::from_grid(grid)
        }
    }

    /// The heuristic to search with: the chosen one, or the connectivity's default.
    pub fn effective_heuristic(&self) -> Heuristic {
        self.heuristic
            .unwrap_or_else(|| Heuristic::default_for(self.connectivity))
    }

    /// Parses and validates RON `text`; `file_name` is only used to name the file in errors.
    pub fn parse(text: &str, file_name: &str) -> Result<Scenario, FormatError> {
        Self::parse_as(text, file_name, false)
    }

    /// [`Scenario::parse`], in crowd mode if the file says so or `crowd`.
    fn parse_as(text: &str, file_name: &str, crowd: bool) -> Result<Scenario, FormatError> {
        let text = strip_bom(text);
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let raw: RawScenario = options
            .from_str(text)
            .map_err(|e| ron_error(&e, text, file_name))?;
        Self::from_raw(raw, crowd).map_err(|(site, message)| FormatError {
            file: file_name.to_owned(),
            line: locate(text, site),
            message,
        })
    }

    /// Reads and parses the file at `path`. Errors, I/O ones included, name the file.
    pub fn load(path: &Path) -> Result<Scenario, FormatError> {
        let text = read_text(path)?;
        Self::parse(&text, &display_name(path))
    }

    /// [`Scenario::load`] in crowd mode whatever the file says ([`Scenario::parse_crowd`]).
    pub fn load_crowd(path: &Path) -> Result<Scenario, FormatError> {
        let text = read_text(path)?;
        Self::parse_crowd(&text, &display_name(path))
    }

    /// Checks what [`Scenario::parse`] guarantees: agents' starts and goals on the map and
    /// passable, edit cells on the map, edit weights in 1–9. The error names `file_name` and
    /// no line.
    pub fn validate(&self, file_name: &str) -> Result<(), FormatError> {
        self.check()
            .map_err(|(_, message)| FormatError::whole(file_name, message))
    }

    /// The scenario as pretty RON, in the format [`Scenario::parse`] reads: one row string per
    /// line, one agent or edit per line (long cell lists wrap). Fields at their defaults (no
    /// heuristic, no agents, no edits, tick 0) are left out. For a valid scenario,
    /// `parse(&s.to_ron())` gives `s` back.
    pub fn to_ron(&self) -> String {
        let mut out = String::from("(\n    rows: [\n");
        let w = self.grid.width() as usize;
        let mut row = String::with_capacity(w);
        for y in 0..self.grid.height() as usize {
            row.clear();
            for x in 0..w {
                row.push(cell_char(self.grid.weight(y * w + x)));
            }
            let _ = writeln!(out, "        \"{row}\",");
        }
        out.push_str("    ],\n");
        let _ = writeln!(out, "    connectivity: {:?},", self.connectivity);
        if let Some(h) = self.heuristic {
            let _ = writeln!(out, "    heuristic: {h:?},");
        }
        write_list(&mut out, "agents", &self.agents, |out, a| {
            let _ = write!(
                out,
                "(start: ({}, {}), goal: ({}, {})",
                a.start.x, a.start.y, a.goal.x, a.goal.y
            );
            if a.tick != 0 {
                let _ = write!(out, ", tick: {}", a.tick);
            }
            if a.on_arrival != OnArrival::Stay {
                let _ = write!(out, ", on_arrival: {:?}", a.on_arrival);
            }
            if a.facing != Facing::East {
                let _ = write!(out, ", facing: {:?}", a.facing);
            }
            if !a.route.is_empty() {
                let cells: Vec<String> = (a.route.iter())
                    .map(|p| format!("({}, {})", p.x, p.y))
                    .collect();
                let _ = write!(out, ", route: [{}]", cells.join(", "));
            }
            out.push(')');
        });
        write_list(&mut out, "edits", &self.edits, |out, e| {
            let _ = write!(out, "(tick: {}, set: {:?}, cells: [", e.tick, e.set);
            let cell = |p: &Pos| format!("({}, {})", p.x, p.y);
            if e.cells.len() <= CELLS_PER_LINE {
                let cells: Vec<String> = e.cells.iter().map(cell).collect();
                out.push_str(&cells.join(", "));
                out.push_str("])");
            } else {
                out.push('\n');
                for chunk in e.cells.chunks(CELLS_PER_LINE) {
                    let cells: Vec<String> = chunk.iter().map(cell).collect();
                    let _ = writeln!(out, "            {},", cells.join(", "));
                }
                out.push_str("        ])");
            }
        });
        if self.seed != 0 {
            let _ = writeln!(out, "    seed: {},", self.seed);
        }
        write_list(&mut out, "dynamic", &self.dynamic, |out, d| {
            let _ = write!(
                out,
                "(tick: {}, every: {}, walls: {})",
                d.tick, d.every, d.walls
            );
        });
        if self.destinations != 0 {
            let _ = writeln!(out, "    destinations: {},", self.destinations);
        }
        sensing::write(&mut out, self.sensor_range, &self.sensing);
        write_budgets(
            &mut out,
            self.planner_memory,
            self.plan_budget,
            self.crowd_budget,
        );
        if self.crowd {
            out.push_str("    crowd: true,\n");
        }
        if self.rotation {
            out.push_str("    rotation: true,\n");
        }
        out.push_str(")\n");
        out
    }

    /// Validates, then writes [`Scenario::to_ron`] to `path` without ever leaving a partly
    /// written file there: the text goes to a new temporary file in the same directory, which
    /// is flushed to disk and then renamed over `path`. On error `path` is untouched and the
    /// temporary file is removed.
    pub fn save(&self, path: &Path) -> Result<(), FormatError> {
        let name = display_name(path);
        self.validate(&name)?;
        write_atomically(path, self.to_ron().as_bytes())
            .map_err(|e| FormatError::whole(&name, format!("cannot write the file: {e}")))
    }

    /// [`Scenario::parse`], in crowd mode whatever the file says (`gridwalk-cli simulate
    /// --crowd`): two agents due at tick 0 on one cell are an error at the second one's line.
    pub fn parse_crowd(text: &str, file_name: &str) -> Result<Scenario, FormatError> {
        Self::parse_as(text, file_name, true)
    }

    /// In crowd mode, no two agents due at tick 0 start on one cell (later ones wait).
    fn check_crowd_starts(&self) -> Result<(), SiteError> {
        let mut first = std::collections::HashMap::new();
        for (i, a) in self.agents.iter().enumerate().filter(|(_, a)| a.tick == 0) {
            if let Some(j) = first.insert(a.start, i) {
                let message = format!(
                    "agents[{i}]: start {} is agents[{j}]'s too, and in crowd mode no two agents due at tick 0 may share a cell",
                    a.start
                );
                return Err((Site::AgentField(i, "start"), message));
            }
        }
        Ok(())
    }

    /// The scenario `raw` describes, in crowd mode if it says so or `crowd`, checked.
    fn from_raw(raw: RawScenario, crowd: bool) -> Result<Scenario, SiteError> {
        let grid =
            parse_rows(&raw.rows).map_err(|(row, e)| (row.map_or(Site::Rows, Site::Row), e))?;
        let scenario = Scenario {
            grid,
            connectivity: raw.connectivity,
            heuristic: raw.heuristic,
            agents: raw.agents,
            edits: raw.edits,
            seed: raw.seed,
            dynamic: raw.dynamic,
            destinations: raw.destinations,
            sensor_range: raw.sensor_range,
            sensing: raw.sensing,
            planner_memory: read_memory(raw.planner_memory.as_deref())
                .map_err(|e| (Site::Field("planner_memory"), e))?,
            plan_budget: raw.plan_budget,
            crowd: raw.crowd || crowd,
            crowd_budget: raw.crowd_budget,
            rotation: raw.rotation,
        };
        scenario.check()?;
        Ok(scenario)
    }

    fn check(&self) -> Result<(), SiteError> {
        let g = &self.grid;
        let size = format!("{}×{}", g.width(), g.height());
        for (i, a) in self.agents.iter().enumerate() {
            for (field, pos) in [("start", a.start), ("goal", a.goal)] {
                let site = Site::AgentField(i, field);
                if !g.contains(pos) {
                    return Err((
                        site,
                        format!("agents[{i}]: {field} {pos} is outside the {size} map"),
                    ));
                }
                if !g.is_passable(pos) {
                    return Err((site, format!("agents[{i}]: {field} {pos} is on a wall")));
                }
            }
            if let Some((j, p)) = a.route.iter().enumerate().find(|(_, p)| !g.contains(**p)) {
                let message = format!("agents[{i}].route[{j}]: {p} is outside the {size} map");
                return Err((Site::AgentField(i, "route"), message));
            }
        }
        for (i, e) in self.edits.iter().enumerate() {
            if let CellSet::Weight(w) = e.set
                && !(1..=9).contains(&w)
            {
                return Err((
                    Site::EditSet(i),
                    format!("edits[{i}]: weight {w} is not in 1-9"),
                ));
            }
            for (j, &pos) in e.cells.iter().enumerate() {
                if !g.contains(pos) {
                    return Err((
                        Site::EditCell(i, j),
                        format!("edits[{i}].cells[{j}]: {pos} is outside the {size} map"),
                    ));
                }
            }
        }
        for (i, d) in self.dynamic.iter().enumerate() {
            if d.every > 0 && d.walls == 0 {
                return Err((
                    Site::Dynamic(i),
                    format!("dynamic[{i}]: walls must be at least 1"),
                ));
            }
        }
        check_budgets(self.plan_budget, self.crowd_budget).map_err(|(f, e)| (Site::Field(f), e))?;
        if self.crowd {
            self.check_crowd_starts()?;
        }
        if self.rotation && !(self.crowd && self.connectivity == Connectivity::Four) {
            let message = "rotation: agents turn only in crowd mode with four moves; \
                 set `crowd: true` and `connectivity: Four` (or run `simulate --crowd`)";
            return Err((Site::Field("rotation"), message.to_owned()));
        }
        if self.destinations > MAX_DESTINATIONS {
            return Err((
                Site::Destinations,
                format!(
                    "destinations: {} is more than {MAX_DESTINATIONS}",
                    self.destinations
                ),
            ));
        }
        sensing::check(self.sensor_range, &self.sensing).map_err(|(i, why)| (Site::Sensing(i), why))
    }
}

/// The line of `site` in `text`, as well as it can be found.
fn locate(text: &str, site: Site) -> Option<usize> {
    let l = Locator::new(text);
    let root = l.root()?;
    let at = match site {
        Site::Rows => l.field(root, "rows"),
        Site::Row(y) => l.field(root, "rows").and_then(|rows| l.element(rows, y)),
        Site::AgentField(i, field) => l
            .field(root, "agents")
            .and_then(|agents| l.element(agents, i))
            .map(|agent| l.field(agent, field).unwrap_or(agent)),
        Site::Destinations => l.field(root, "destinations"),
        Site::Sensing(None) => l.field(root, "sensor_range"),
        Site::Sensing(Some(i)) => l.field(root, "sensing").and_then(|s| l.element(s, i)),
        Site::Field(name) => l.field(root, name),
        Site::Dynamic(i) => l
            .field(root, "dynamic")
            .and_then(|dynamic| l.element(dynamic, i)),
        Site::EditSet(i) => l
            .field(root, "edits")
            .and_then(|edits| l.element(edits, i))
            .map(|edit| l.field(edit, "set").unwrap_or(edit)),
        Site::EditCell(i, j) => l
            .field(root, "edits")
            .and_then(|edits| l.element(edits, i))
            .map(|edit| {
                l.field(edit, "cells")
                    .and_then(|cells| l.element(cells, j))
                    .unwrap_or(edit)
            }),
    };
    l.line(at?)
}

/// A RON error as a [`FormatError`] on the line ron reports. An error that reaches the end of
/// the text says so, since that is what a truncated file looks like.
fn ron_error(e: &ron::error::SpannedError, text: &str, file: &str) -> FormatError {
    use ron::error::Error as E;
    if text.trim().is_empty() {
        return FormatError::at(file, 1, "the file is empty: expected ( rows: [ ... ] )");
    }
    let what = match &e.code {
        E::ExpectedStringEnd => "a string is not closed".to_owned(),
        E::UnclosedBlockComment => "a /* comment */ is not closed".to_owned(),
        code => code.to_string(),
    };
    // Where the text's last non-whitespace character ends, as ron counts (1-based columns).
    let content = text.trim_end();
    let end_line = 1 + content.matches('\n').count();
    let end_col = 1 + content.rsplit('\n').next().map_or(0, |l| l.chars().count());
    let at_end =
        matches!(e.code, E::Eof) || (e.span.end.line, e.span.end.col) >= (end_line, end_col);
    let truncated = if at_end {
        "; the file ends here: is it truncated?"
    } else {
        ""
    };
    // ron often reports the place just before the whitespace that precedes the offending
    // token (the end of the previous line); name the token's line and column instead.
    let (line, col) = next_token(text, e.span.start.line, e.span.start.col)
        .unwrap_or((e.span.start.line.clamp(1, end_line), e.span.start.col));
    FormatError::at(file, line, format!("column {col}: {what}{truncated}"))
}

/// The 1-based line and column of the first non-whitespace character at or after the 1-based
/// `line` and `col` of `text`, if there is one.
fn next_token(text: &str, line: usize, col: usize) -> Option<(usize, usize)> {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n').nth(line - 2)?.0 + 1
    };
    let rest = text.get(line_start..)?;
    let offset = line_start
        + rest
            .char_indices()
            .nth(col.saturating_sub(1))
            .map_or(rest.len(), |(i, _)| i);
    let found = offset + text.get(offset..)?.find(|c: char| !c.is_whitespace())?;
    let before = text.get(..found)?;
    let line = 1 + before.matches('\n').count();
    let col = 1 + before.rsplit('\n').next().map_or(0, |l| l.chars().count());
    Some((line, col))
}
