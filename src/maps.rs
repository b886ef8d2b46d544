//! Maps: seeded random maps, random agents, the `maps/` folder and reading map files.
//!
//! In a browser there is no file system: `maps/` is then the files built into the game
//! ([`EMBEDDED_MAPS`]), so the default start is the desktop's, and other files come through
//! the panel's file picker as text ([`parse_map_text`]).
//!
//! Everything here is plain Rust with no Bevy types, so the command line, the panel and the
//! tests share it. Random maps and agents come from the core's one seeded generator
//! ([`gridwalk_core::rng::SplitMix64`], maps by [`Grid::random`]), so `--seed N` gives the same map on
//! every machine, as in the benches and the core's tests.

use std::path::{Path, PathBuf};

use gridwalk_core::format::lorr::Problem;
use gridwalk_core::format::{Scenario, movingai};
use gridwalk_core::grid::Components;
use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};
use gridwalk_core::{Connectivity, Grid, Pos};

/// Width of the game's maps.
pub const DEFAULT_WIDTH: u32 = 110;
/// Height of the game's maps.
pub const DEFAULT_HEIGHT: u32 = 100;
/// Share of walls in a random map unless `--density` says otherwise.
pub const DEFAULT_DENSITY: f64 = 0.2;
/// The seed of the random map unless `--seed` says otherwise.
pub const DEFAULT_SEED: u64 = 1;
/// The destinations of a random map and of an imported Moving AI map, whose files say none:
/// wanderers keep sharing a few searches, so thousands of agents on a big map stay walking
/// (`--destinations 0` gives each arrival a goal of its own).
pub const DEFAULT_DESTINATIONS: usize = 4;

/// The random-number generator of maps and spawned agents.
pub type MapRng = SplitMix64;

/// A seeded generator.
pub fn rng(seed: u64) -> MapRng {
    SplitMix64::seed_from_u64(seed)
}

/// A `width`×`height` map where each cell is a wall with probability `density` (clamped to
/// 0–1), and ground otherwise: [`Grid::random`] from `seed`, of the default size when this
/// one is refused. The same arguments always give the same map.
pub fn random_grid(width: u32, height: u32, density: f64, seed: u64) -> Grid {
    let density = if density.is_finite() {
        density.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (w, h) = (width.max(1), height.max(1));
    let size = if Grid::check_size(w as u64, h as u64).is_ok() {
        (w, h)
    } else {
        (DEFAULT_WIDTH, DEFAULT_HEIGHT)
    };
    Grid::random(size.0, size.1, density, &mut rng(seed)).expect("the size was checked")
}

/// A random passable cell, or `None` after many misses (a map of walls).
pub fn random_free_cell(grid: &Grid, r: &mut MapRng) -> Option<Pos> {
    for _ in 0..10_000 {
        let p = Pos::new(
            r.below(grid.width() as usize) as u32,
            r.below(grid.height() as usize) as u32,
        );
        if grid.is_passable(p) {
            return Some(p);
        }
    }
    (0..grid.len())
        .map(|i| grid.pos(i))
        .find(|&p| grid.is_passable(p))
}

/// `agents` random (start, goal) pairs heading to `goals` random goal cells (at least one),
/// the agents spread evenly over the goals. With `reachable`, each start is drawn again (up to
/// a limit) until the core's A* finds a path to its goal, so the demo starts walking at once.
pub fn random_agents(
    grid: &Grid,
    agents: usize,
    goals: usize,
    conn: Connectivity,
    reachable: bool,
    r: &mut MapRng,
) -> Vec<(Pos, Pos)> {
    let goal_cells: Vec<Pos> = (0..goals.clamp(1, agents.max(1)))
        .filter_map(|_| random_free_cell(grid, r))
        .collect();
    random_agents_to(grid, agents, &goal_cells, conn, reachable, r)
}

/// `agents` random (start, goal) pairs heading to `goal_cells` in turn (for example the
/// simulation's destinations), drawn as [`random_agents`] draws them; none without goals.
pub fn random_agents_to(
    grid: &Grid,
    agents: usize,
    goal_cells: &[Pos],
    conn: Connectivity,
    reachable: bool,
    r: &mut MapRng,
) -> Vec<(Pos, Pos)> {
    if goal_cells.is_empty() {
        return Vec::new();
    }
    // One labelling of the map answers every reachability check in O(1): an A* per agent
    // took seconds for 5,000 agents on 512×512, before the window opened.
    let mut components = Components::default();
    let mut out = Vec::with_capacity(agents);
    for i in 0..agents {
        let goal = goal_cells[i % goal_cells.len()];
        let mut start = None;
        for _ in 0..50 {
            let Some(s) = random_free_cell(grid, r) else {
                break;
            };
            if !reachable {
                start = Some(s);
                break;
            }
            let found = match (grid.index(s), grid.index(goal)) {
                (Ok(a), Ok(b)) => components.connected(grid, a, b, conn),
                _ => false,
            };
            if found && s != goal {
                start = Some(s);
                break;
            }
        }
        if let Some(s) = start {
            out.push((s, goal));
        }
    }
    out
}

/// The files of `maps/`, built in: the browser build's `maps/` (a test checks the list is the
/// whole folder).
pub const EMBEDDED_MAPS: &[(&str, &str)] = &[("default.ron", include_str!("../maps/default.ron"))];

/// The `maps/` folder: `./maps` when it exists, else the one next to the game's sources.
pub fn maps_dir() -> PathBuf {
    let here = PathBuf::from("maps");
    if here.is_dir() {
        return here;
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps");
    if source.is_dir() { source } else { here }
}

/// The default map, `maps/default.ron`, if it exists.
pub fn default_map() -> Option<PathBuf> {
    let p = maps_dir().join("default.ron");
    if cfg!(target_arch = "wasm32") {
        return embedded(&p).map(|_| p);
    }
    p.is_file().then_some(p)
}

/// The text of `path` when it names a built-in map (`maps/NAME` or `NAME`).
fn embedded(path: &Path) -> Option<&'static str> {
    let in_maps = path
        .parent()
        .is_none_or(|d| d.as_os_str().is_empty() || d == Path::new("maps"));
    let name = path.file_name()?.to_str()?;
    in_maps
        .then(|| EMBEDDED_MAPS.iter().find(|(n, _)| *n == name))
        .flatten()
        .map(|(_, text)| *text)
}

/// The `.ron` and `.map` files in `maps/` and the LoRR problems (`.json`) in `maps/lorr/`,
/// sorted by path (in a browser, the built-in ones).
pub fn list_maps() -> Vec<PathBuf> {
    if cfg!(target_arch = "wasm32") {
        return EMBEDDED_MAPS
            .iter()
            .map(|(n, _)| maps_dir().join(n))
            .collect();
    }
    let listed = |dir: PathBuf, exts: &[&str]| -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let ext = |p: &Path| p.extension().and_then(|e| e.to_str()).map(str::to_owned);
        (entries.filter_map(|e| e.ok().map(|e| e.path())))
            .filter(|p| p.is_file() && ext(p).is_some_and(|e| exts.contains(&e.as_str())))
            .collect()
    };
    let mut files = listed(maps_dir(), &["ron", "map"]);
    files.extend(listed(maps_dir().join("lorr"), &["json"]));
    files.sort();
    files
}

/// Reads a map file: a RON scenario (`.ron`), or a Moving AI map (`.map`, imported as an
/// eight-connected scenario with no agents). Errors name the file and, when known, the line.
/// In a browser, only the built-in maps can be read this way.
pub fn load_map_file(path: &Path) -> Result<Scenario, String> {
    if cfg!(target_arch = "wasm32") {
        let name = path.display().to_string();
        return match embedded(path) {
            Some(text) => parse_map_text(&name, text),
            None => Err(format!(
                "{name}: a browser page reads no files by path; maps/ holds only the built-in \
                 maps here, and the panel's \"Open file…\" reads your own"
            )),
        };
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("map") => movingai::load_map(path)
            .map(imported)
            .map_err(|e| e.to_string()),
        Some("ron") => Scenario::load(path).map_err(|e| e.to_string()),
        Some("json") => load_lorr(path),
        _ => Err(format!(
            "{}: unknown map format: expected a .ron scenario, a Moving AI .map or a LoRR problem .json",
            path.display()
        )),
    }
}

/// Reads a League of Robot Runners problem (`.json`, the 2023 edition dealt round robin) as
/// the scenario the game plays: robots that turn, each patrolling its tasks
/// ([`Problem::to_scenario`]). Errors name the file.
pub fn load_lorr(path: &Path) -> Result<Scenario, String> {
    let problem = Problem::load(path).map_err(|e| e.to_string())?;
    (problem.to_scenario()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the text of a map file named `name` (its extension says the format), as
/// [`load_map_file`] reads one: a RON scenario or a Moving AI map.
pub fn parse_map_text(name: &str, text: &str) -> Result<Scenario, String> {
    match Path::new(name).extension().and_then(|e| e.to_str()) {
        Some("map") => movingai::parse_map(text, name)
            .map(imported)
            .map_err(|e| e.to_string()),
        Some("ron") => Scenario::parse(text, name).map_err(|e| e.to_string()),
        _ => Err(format!(
            "{name}: unknown map format: expected a .ron scenario or a Moving AI .map"
        )),
    }
}

/// A Moving AI map as a scenario: no agents, and [`DEFAULT_DESTINATIONS`].
fn imported(grid: Grid) -> Scenario {
    let mut s = Scenario::from_grid(grid);
    s.destinations = DEFAULT_DESTINATIONS;
    s
}

/// Whether `name` is a safe map name: 1–64 letters, digits, `-` or `_`.
pub fn valid_map_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridwalk_core::sim::OnArrival;

    #[test]
    fn random_maps_are_seeded_and_dense_as_asked() {
        let a = random_grid(110, 100, 0.2, 7);
        assert_eq!(a, random_grid(110, 100, 0.2, 7));
        assert_ne!(a, random_grid(110, 100, 0.2, 8));
        let share = a.wall_count() as f64 / a.len() as f64;
        assert!((0.17..0.23).contains(&share), "{share}");
        assert_eq!(random_grid(10, 10, f64::NAN, 1).wall_count(), 0);
        assert_eq!(random_grid(10, 10, 5.0, 1).wall_count(), 100);
    }

    #[test]
    fn random_agents_share_goals_and_can_walk() {
        let g = random_grid(110, 100, 0.2, 3);
        let mut r = rng(1);
        let pairs = random_agents(&g, 12, 3, Connectivity::Eight, true, &mut r);
        assert_eq!(pairs.len(), 12);
        let mut goals: Vec<Pos> = pairs.iter().map(|p| p.1).collect();
        goals.sort();
        goals.dedup();
        assert_eq!(goals.len(), 3);
        assert!(
            pairs
                .iter()
                .all(|&(s, t)| g.is_passable(s) && g.is_passable(t))
        );
    }

    /// The LoRR problem of `maps/lorr/` is listed and loads as robots that turn, each
    /// patrolling its tasks; a file that is not one says so.
    #[test]
    fn the_lorr_problem_loads_as_turning_robots() {
        let lorr = maps_dir().join("lorr").join("random_400.json");
        assert!(list_maps().contains(&lorr));
        let s = load_map_file(&lorr).unwrap();
        assert!(s.rotation && s.crowd && s.agents.len() == 400);
        assert!(
            s.agents
                .iter()
                .all(|a| a.on_arrival == OnArrival::Patrol && !a.route.is_empty())
        );
        let e = load_map_file(&maps_dir().join("lorr").join("none.json")).unwrap_err();
        assert!(e.contains("none.json"), "{e}");
    }

    #[test]
    fn the_built_in_maps_are_the_maps_folder() {
        let names: Vec<String> = (list_maps().iter())
            .filter(|p| p.parent() == Some(maps_dir().as_path()))
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        let built_in: Vec<&str> = EMBEDDED_MAPS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, built_in);
        for (name, text) in EMBEDDED_MAPS {
            let from_file = load_map_file(&maps_dir().join(name)).unwrap();
            assert_eq!(parse_map_text(name, text).unwrap(), from_file);
            assert_eq!(embedded(Path::new(name)), Some(*text));
        }
        assert_eq!(embedded(Path::new("elsewhere/default.ron")), None);
        assert!(
            parse_map_text("x.txt", "")
                .unwrap_err()
                .contains("unknown map format")
        );
        let e = parse_map_text("bad.map", "type octile\nheight 2\nwidth 3\nmap\n...\n");
        assert!(e.unwrap_err().contains("bad.map"));
    }

    #[test]
    fn map_names_are_checked() {
        assert!(valid_map_name("my_map-2"));
        assert!(!valid_map_name(""));
        assert!(!valid_map_name("../etc"));
        assert!(!valid_map_name("a b"));
    }
}
