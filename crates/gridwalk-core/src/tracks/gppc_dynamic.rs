//! Runs an instance of the GPPC dynamic track (see [`crate::format::gppc`]): applies its
//! patches in order and answers each query with one [`Algorithm`], checking every length
//! against the file's.
//!
//! A\* and Dijkstra search from scratch for each query, in one reused
//! [`SearchSpace`]. D\* Lite and D\* keep a planner per goal, up to [`KEPT_PLANNERS`] of them,
//! least recently used dropped first (a D\* Lite planner holds about 22 bytes per map cell).
//! Every patch tells each kept planner which cells it changed, so a goal asked again repairs
//! its search instead of starting over.
//!
//! A 3×3 open map, then a wall over (1, 0) and (1, 1): with no corner cutting, the way from
//! (0, 0) to (2, 0) goes round by the bottom row, 6 straight moves.
//! ```
//! use gridwalk_core::Algorithm;
//! use gridwalk_core::format::gppc::{Instance, check, parse_patches, parse_scen};
//! use gridwalk_core::tracks::gppc_dynamic::run;
//!
//! let patches = "type patch\npatches 2\npatch 0\nheight 3\nwidth 3\nmap\n...\n...\n...\n\
//!                patch 1\nheight 2\nwidth 1\nmap\n@\n@\n";
//! let scen = "version 2\nheight 3\nwidth 3\ncost 1 octile\npatch p\ncommands\n\
//!             P 0 0 0 0\nQ 0 0 0 2 0 2\nP 0 1 1 0\nQ 0 0 0 2 0 6\n";
//! let instance = Instance {
//!     scen: parse_scen(scen, "t.scen").unwrap(),
//!     patches: parse_patches(patches, "p").unwrap(),
//!     scen_file: "t.scen".into(),
//!     patch_file: "p".into(),
//! };
//! check(&instance.scen, &instance.patches, "t.scen", "p").unwrap();
//! for algorithm in Algorithm::ALL {
//!     let report = run(&instance, None, algorithm).unwrap();
//!     assert!(report.mismatches.is_empty(), "{algorithm}: {:?}", report.mismatches);
//!     assert_eq!((report.queries, report.patches), (2, 2));
//! }
//! ```

use std::fmt;
use std::time::Duration;
use web_time::Instant;

use crate::format::FormatError;
use crate::format::gppc::{Command, Instance, Query};
use crate::grid::{Connectivity, Grid, Pos};
use crate::heuristic::Heuristic;
use crate::path::Path;
use crate::planner::new_planner;
use crate::planner::{Algorithm, GoalPlanner};
use crate::search::best_first::{SearchRequest, SearchSpace};

/// How many incremental planners [`run`] keeps, by goal: about 90 MB of D\* Lite state on a
/// 1024×1024 map.
pub const KEPT_PLANNERS: usize = 4;

/// GPPC's move rule: octile moves without corner cutting.
const CONN: Connectivity = Connectivity::Eight;

/// A query whose answer differs from the file's.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The query's line in the `.scen` file.
    pub line: usize,
    /// Where it starts.
    pub start: Pos,
    /// Where it ends.
    pub goal: Pos,
    /// The file's length; `None` for no path.
    pub expected: Option<f64>,
    /// The length found; `None` for no path.
    pub found: Option<f64>,
    /// Why the path found is not a legal path, when it is not.
    pub illegal: Option<String>,
}

impl fmt::Display for Mismatch {
    /// `from (x, y) to (x, y): expected E, found F (off by D)`; the caller names the line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |l: Option<f64>| l.map_or("no path".to_string(), |v| v.to_string());
        write!(
            f,
            "from {} to {}: expected {}, found {}",
            self.start,
            self.goal,
            show(self.expected),
            show(self.found)
        )?;
        if let (Some(e), Some(o)) = (self.expected, self.found) {
            write!(f, " (off by {:.3e})", (o - e).abs())?;
        }
        if let Some(why) = &self.illegal {
            write!(f, ", an illegal path: {why}")?;
        }
        Ok(())
    }
}

/// What [`run`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Queries answered.
    pub queries: usize,
    /// Queries whose answer differs from the file's, in file order.
    pub mismatches: Vec<Mismatch>,
    /// Patches applied.
    pub patches: usize,
    /// The largest difference between a length found and the file's, over the queries where
    /// both have a path.
    pub max_error: f64,
    /// Time spent applying patches and answering queries (not reading the files, nor making
    /// the first map).
    pub elapsed: Duration,
    /// Cells expanded by all the searches.
    pub expanded: u64,
    /// Incremental planners made; fewer than the queries when goals repeat.
    pub planners_made: usize,
}

impl fmt::Display for Report {
    /// `queries: N, mismatches: M, patches: P, max_error: E, millis: T`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "queries: {}, mismatches: {}, patches: {}, max_error: {:.3e}, millis: {}",
            self.queries,
            self.mismatches.len(),
            self.patches,
            self.max_error,
            self.elapsed.as_millis()
        )
    }
}

/// The octile length of `path` counted move by move (1 straight, √2 diagonal), exact to
/// f64 rounding, unlike its fixed-point cost (see [`crate::cost`]), whose √2 is off by about
/// 10⁻¹⁰ per diagonal: too much for the 14 digits GPPC prints.
pub fn octile_length(path: &Path) -> f64 {
    let diagonals = path
        .cells
        .windows(2)
        .filter(|m| m[0].x != m[1].x && m[0].y != m[1].y)
        .count();
    let straights = path.moves() - diagonals;
    straights as f64 + diagonals as f64 * std::f64::consts::SQRT_2
}

/// A planner kept for its goal, and the cells changed since it last ran.
struct Kept {
    planner: Box<dyn GoalPlanner>,
    pending: Vec<usize>,
}

/// Incremental planners by goal, least recently used first, at most [`KEPT_PLANNERS`].
#[derive(Default)]
struct Planners {
    kept: Vec<Kept>,
    made: usize,
}

impl Planners {
    /// Tells every kept planner (on its next use) that `cells` changed.
    fn changed(&mut self, cells: &[usize]) {
        for k in &mut self.kept {
            k.pending.extend_from_slice(cells);
            k.pending.sort_unstable();
            k.pending.dedup();
        }
    }

    /// A path from `start` to `goal` on `grid`, by the planner kept for `goal` (repaired) or
    /// a new one; and the cells expanded.
    fn path(
        &mut self,
        algorithm: Algorithm,
        grid: &Grid,
        start: Pos,
        goal: Pos,
    ) -> Result<(Option<Path>, u64), String> {
        let g = grid.index(goal).map_err(|e| e.to_string())?;
        let s = grid.index(start).map_err(|e| e.to_string())?;
        match self.kept.iter().position(|k| k.planner.goal() == g) {
            Some(i) => {
                let k = self.kept.remove(i);
                self.kept.push(k);
            }
            None => {
                let planner = new_planner(algorithm, grid, goal, CONN, Heuristic::Octile)
                    .map_err(|e| e.to_string())?;
                if self.kept.len() == KEPT_PLANNERS {
                    self.kept.remove(0);
                }
                self.kept.push(Kept {
                    planner,
                    pending: Vec::new(),
                });
                self.made += 1;
            }
        }
        let k = self.kept.last_mut().expect("a planner was just kept");
        k.planner.set_starts(grid, &[s]);
        if !k.pending.is_empty() {
            k.planner.cells_changed(grid, &k.pending);
            k.pending.clear();
        }
        let stats = k.planner.compute(grid);
        Ok((k.planner.path(grid, s), stats.expanded))
    }
}

/// Answers `q` on `grid`: the path found and the cells expanded.
fn answer(
    algorithm: Algorithm,
    grid: &Grid,
    q: &Query,
    space: &mut SearchSpace,
    planners: &mut Planners,
) -> Result<(Option<Path>, u64), String> {
    if algorithm.is_incremental() {
        return planners.path(algorithm, grid, q.start, q.goal);
    }
    let req = SearchRequest::astar(q.start, q.goal, CONN, Heuristic::Octile)
        .with_mode(algorithm.fresh_mode());
    let r = space.search(grid, &req, None).map_err(|e| e.to_string())?;
    Ok((r.path, r.stats.expanded))
}

/// The map the commands start from (see [`Runner::new`]): `map`, or an open map that the
/// first command, a patch covering it whole, is about to fill.
fn first_map(instance: &Instance, map: Option<Grid>) -> Result<Grid, FormatError> {
    let (scen, file) = (&instance.scen, instance.scen_file.as_str());
    let (w, h) = (scen.width, scen.height);
    if let Some(map) = map {
        if (map.width(), map.height()) != (w, h) {
            return Err(FormatError::at(
                file,
                scen.size_line,
                format!(
                    "the scenario is for a {w}×{h} map, but the map given is {}×{}",
                    map.width(),
                    map.height()
                ),
            ));
        }
        return Ok(map);
    }
    if !instance.starts_with_whole_map() {
        let line = match scen.commands.first() {
            Some(Command::Patch(p)) => p.line,
            Some(Command::Query(q)) => q.line,
            None => scen.patch_line,
        };
        return Err(FormatError::at(
            file,
            line,
            format!(
                "no map was given, and the first command is not a patch covering the whole {w}×{h} map"
            ),
        ));
    }
    Grid::new(w, h).map_err(|e| FormatError::at(file, scen.size_line, e.to_string()))
}

/// Runs `instance` with `algorithm`, starting from `map` (see [`Runner::new`]): every patch
/// is applied in order and every query answered and checked. An error means the instance
/// cannot be run (it names the line); mismatches are in the report.
pub fn run(
    instance: &Instance,
    map: Option<Grid>,
    algorithm: Algorithm,
) -> Result<Report, FormatError> {
    let mut runner = Runner::new(instance, map, algorithm)?;
    while runner.step()? {}
    Ok(runner.finish())
}

/// [`run`] one query at a time, for callers that time or inspect each query.
pub struct Runner<'a> {
    instance: &'a Instance,
    algorithm: Algorithm,
    grid: Grid,
    space: SearchSpace,
    planners: Planners,
    /// Cells changed by the patches since the last query.
    changed: Vec<usize>,
    /// The next command to run.
    next: usize,
    report: Report,
}

impl<'a> Runner<'a> {
    /// A runner at the start of `instance`'s commands. The map is `map`, which must have the
    /// header's size; without one, the first command must be a patch covering the whole map.
    pub fn new(
        instance: &'a Instance,
        map: Option<Grid>,
        algorithm: Algorithm,
    ) -> Result<Self, FormatError> {
        Ok(Runner {
            instance,
            algorithm,
            grid: first_map(instance, map)?,
            space: SearchSpace::new(),
            planners: Planners::default(),
            changed: Vec::new(),
            next: 0,
            report: Report::default(),
        })
    }

    /// Applies the patches up to the next query and answers it, into the report. Returns
    /// false once no query is left (after applying any trailing patches).
    pub fn step(&mut self) -> Result<bool, FormatError> {
        let clock = Instant::now();
        let file = self.instance.scen_file.as_str();
        let mut answered = false;
        while let Some(command) = self.instance.scen.commands.get(self.next) {
            self.next += 1;
            match command {
                Command::Patch(p) => {
                    let patch = self.instance.patches.get(p.patch).ok_or_else(|| {
                        FormatError::at(file, p.line, format!("patch {} does not exist", p.patch))
                    })?;
                    patch
                        .apply(&mut self.grid, p.at, &mut self.changed)
                        .map_err(|e| FormatError::at(file, p.line, e.to_string()))?;
                    self.report.patches += 1;
                }
                Command::Query(q) => {
                    self.query(q)
                        .map_err(|e| FormatError::at(file, q.line, e))?;
                    answered = true;
                    break;
                }
            }
        }
        self.report.elapsed += clock.elapsed();
        Ok(answered)
    }

    /// Answers `q` on the map as it stands and checks the answer.
    fn query(&mut self, q: &Query) -> Result<(), String> {
        if !self.changed.is_empty() {
            self.planners.changed(&self.changed);
            self.changed.clear();
        }
        let (path, expanded) = answer(
            self.algorithm,
            &self.grid,
            q,
            &mut self.space,
            &mut self.planners,
        )?;
        self.report.queries += 1;
        self.report.expanded += expanded;
        self.report.planners_made = self.planners.made;
        check_answer(&self.grid, q, path.as_ref(), &mut self.report);
        Ok(())
    }

    /// The map as it stands.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// What the runner found so far.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The report, once done.
    pub fn finish(self) -> Report {
        self.report
    }
}

/// Compares the answer `path` to query `q` with the file's length, into `report`.
fn check_answer(grid: &Grid, q: &Query, path: Option<&Path>, report: &mut Report) {
    let found = path.map(octile_length);
    let illegal = path
        .and_then(|p| p.validate(grid, CONN).err())
        .map(|e| format!("{e:?}"));
    let ends_right =
        path.is_none_or(|p| p.cells.first() == Some(&q.start) && p.cells.last() == Some(&q.goal));
    let matches = match (q.length, found) {
        (None, None) => true,
        (Some(e), Some(o)) => {
            let error = (o - e).abs();
            report.max_error = report.max_error.max(error);
            error <= q.tolerance
        }
        _ => false,
    };
    if !matches || illegal.is_some() || !ends_right {
        report.mismatches.push(Mismatch {
            line: q.line,
            start: q.start,
            goal: q.goal,
            expected: q.length,
            found,
            illegal: illegal.or((!ends_right).then(|| "it does not join the query's ends".into())),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::gppc::{check, parse_patches, parse_scen};

    /// An instance from `.scen` commands on a 6×4 map whose patch 0 is open ground, patch 1
    /// a wall 1 wide and 3 high, and patch 2 one open cell.
    fn instance(commands: &str) -> Instance {
        let patches = "type patch\npatches 3\npatch 0\nheight 4\nwidth 6\nmap\n\
                       ......\n......\n......\n......\n\
                       patch 1\nheight 3\nwidth 1\nmap\n@\n@\n@\n\
                       patch 2\nheight 1\nwidth 1\nmap\n.\n";
        let scen =
            format!("version 2\nheight 4\nwidth 6\ncost 1 octile\npatch p\ncommands\n{commands}");
        let instance = Instance {
            scen: parse_scen(&scen, "t.scen").unwrap(),
            patches: parse_patches(patches, "p").unwrap(),
            scen_file: "t.scen".into(),
            patch_file: "p".into(),
        };
        check(&instance.scen, &instance.patches, "t.scen", "p").unwrap();
        instance
    }

    #[test]
    fn every_algorithm_follows_the_patches() {
        // The wall at x = 2 (rows 0–2) forces a detour by row 3; opening (2, 1) again gives
        // back the straight line.
        let i = instance(
            "P 0 0 0 0\nQ 0 0 1 5 1 5\nP 0 1 2 0\nQ 0 0 1 5 1 7.2426406871\n\
             P 0 2 2 1\nQ 0 0 1 5 1 5\nQ 0 5 1 0 1 5\nP 0 1 2 1\nQ 0 0 0 0 0 0\n",
        );
        for algorithm in Algorithm::ALL {
            let r = run(&i, None, algorithm).unwrap();
            assert_eq!(r.mismatches, [], "{algorithm}");
            assert_eq!((r.queries, r.patches), (5, 4));
            assert!(r.max_error < 1e-9, "{algorithm}: {}", r.max_error);
            if algorithm.is_incremental() {
                // Goal (5, 1) is asked three times: one planner, repaired twice.
                assert_eq!(r.planners_made, 3, "{algorithm}");
            }
        }
    }

    #[test]
    fn no_path_and_wrong_lengths_are_mismatches() {
        // A full wall at x = 2 (patch 1 at rows 0–2, then again at row 1–3).
        let i = instance(
            "P 0 0 0 0\nP 0 1 2 0\nP 0 1 2 1\nQ 0 0 0 5 0 -1\nQ 0 0 0 1 0 1.5\nQ 0 0 0 5 3 -1\n\
             Q 0 0 0 1 1 1.4142135624\n",
        );
        for algorithm in Algorithm::ALL {
            let r = run(&i, None, algorithm).unwrap();
            let lines: Vec<usize> = r.mismatches.iter().map(|m| m.line).collect();
            assert_eq!(lines, [11], "{algorithm}: {:?}", r.mismatches);
            assert_eq!(
                r.mismatches[0].to_string(),
                "from (0, 0) to (1, 0): expected 1.5, found 1 (off by 5.000e-1)"
            );
        }
        let i = instance("P 0 0 0 0\nQ 0 0 0 5 0 -1\n");
        let r = run(&i, None, Algorithm::AStar).unwrap();
        assert_eq!(r.mismatches[0].found, Some(5.0));
        assert!(
            r.mismatches[0]
                .to_string()
                .contains("expected no path, found 5")
        );
    }

    #[test]
    fn the_first_map_comes_from_the_caller_or_a_covering_patch() {
        let i = instance("P 0 1 2 0\nQ 0 0 0 5 0 9.2426406871\n");
        let e = run(&i, None, Algorithm::AStar).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.scen:7: no map was given, and the first command is not a patch covering the whole 6×4 map"
        );
        let r = run(&i, Some(Grid::new(6, 4).unwrap()), Algorithm::AStar).unwrap();
        assert_eq!(r.mismatches, []);
        let e = run(&i, Some(Grid::new(4, 6).unwrap()), Algorithm::AStar).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.scen:3: the scenario is for a 6×4 map, but the map given is 4×6"
        );
        let e = run(&instance(""), None, Algorithm::AStar).unwrap_err();
        assert_eq!(e.line, Some(5));
    }

    #[test]
    fn planners_are_bounded_and_least_recent_goes_first() {
        // Five goals, then the first again: it was dropped, so a sixth planner is made; the
        // fifth goal is still kept.
        let i = instance(
            "P 0 0 0 0\nQ 0 0 0 1 3 3.4142135624\nQ 0 0 0 2 3 3.8284271247\n\
             Q 0 0 0 3 3 4.2426406871\nQ 0 0 0 4 3 5.2426406871\nQ 0 0 0 5 3 6.2426406871\n\
             Q 0 0 0 1 3 3.4142135624\nQ 0 0 0 5 3 6.2426406871\n",
        );
        let r = run(&i, None, Algorithm::DStarLite).unwrap();
        assert_eq!(r.mismatches, []);
        assert_eq!(r.planners_made, 6);
    }

    #[test]
    fn walls_at_the_ends_have_no_path_with_any_algorithm() {
        // Patch 1 walls (2, 0)–(2, 2): queries from, to and between walls.
        let i = instance("P 0 0 0 0\nP 0 1 2 0\nQ 0 2 0 5 0 -1\nQ 0 0 0 2 1 -1\nQ 0 2 1 2 1 -1\n");
        for algorithm in Algorithm::ALL {
            let r = run(&i, None, algorithm).unwrap();
            assert_eq!(r.mismatches, [], "{algorithm}");
        }
    }

    #[test]
    fn octile_length_counts_moves() {
        let p = Path {
            cells: vec![
                Pos::new(0, 0),
                Pos::new(1, 1),
                Pos::new(2, 1),
                Pos::new(3, 0),
            ],
            cost: 0,
        };
        assert!((octile_length(&p) - (1.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-15);
    }
}
