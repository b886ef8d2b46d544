//! The Moving AI benchmark formats: `.map` grids and `.scen` problem lists.
//!
//! A `.map` file is a header, then the rows:
//!
//! ```text
//! type octile
//! height 3
//! width 4
//! map
//! ..@.
//! .T..
//! ....
//! ```
//!
//! The header lines may come in any order before `map`; `type` must be `octile`. Then come
//! exactly `height` rows of exactly `width` characters; blank lines after them are ignored.
//! `.` and `G` are passable plain ground (weight 1). `@`, `O` and `T` are walls, and so are
//! `S` (swamp) and `W` (water): gridwalk has no terrain that is passable only from some other
//! terrain, so these become walls. Any other character is an error naming its line and column.
//!
//! A `.scen` file starts with `version 1` (or `version 1.0`); each further non-blank line is
//! `bucket map width height start_x start_y goal_x goal_y optimal_length`, separated by tabs or
//! spaces. Positions are `(x, y)` with (0, 0) the top-left cell. The optimal lengths assume
//! octile moves (1 and √2) without corner cutting, which is gridwalk's
//! [`Connectivity::Eight`] on plain ground.

use std::path::Path;

use super::scenario::{AgentSpec, Scenario};
use super::{FormatError, display_name, read_text, strip_bom};
use crate::grid::{Connectivity, Grid, GridError, Pos, Terrain};
use crate::mapf::Problem;

/// One problem of a `.scen` file.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenProblem {
    /// The bucket: problems of similar length share one.
    pub bucket: u32,
    /// The map file named by the line, e.g. `maps/dao/arena.map`.
    pub map: String,
    /// The map width the line claims.
    pub map_width: u32,
    /// The map height the line claims.
    pub map_height: u32,
    /// The start cell.
    pub start: Pos,
    /// The goal cell.
    pub goal: Pos,
    /// The optimal octile path length, 1 per straight move and √2 per diagonal.
    pub optimal: f64,
    /// The 1-based line of the problem in its file.
    pub line: usize,
}

/// Whether `ours` equals `optimal`, a [`ScenProblem::optimal`], to the 6 significant digits
/// the benchmark prints.
///
/// The files do not always round: lak304d prints 265.764 for 265.76450198…, a truncation
/// (or a generator that summed a slightly short √2). So `ours` matches when `optimal` is
/// either its rounding or its truncation to 6 significant digits: `ours - optimal` lies in
/// [-½, 1) units of the sixth digit. Any other path differs by more on these maps.
pub fn matches_printed(ours: f64, optimal: f64) -> bool {
    if optimal == 0.0 {
        return ours == 0.0;
    }
    let unit = 10f64.powi(optimal.abs().log10().floor() as i32 - 5);
    let diff = ours - optimal;
    diff >= -0.5 * unit * (1.0 + 1e-9) && diff < unit
}

/// The terrain of a map character, or `None` when it is not one of the format's.
fn terrain_of(c: char) -> Option<Terrain> {
    match c {
        '.' | 'G' => Some(Terrain::FREE),
        '@' | 'O' | 'T' | 'S' | 'W' => Some(Terrain::Wall),
        _ => None,
    }
}

/// Parses a `.map` text; `file_name` only names the file in errors.
pub fn parse_map(text: &str, file_name: &str) -> Result<Grid, FormatError> {
    let mut lines = strip_bom(text).lines().enumerate().map(|(i, l)| (i + 1, l));
    let header = map_header(&mut lines, file_name)?;
    let (w, h) = (header.width, header.height);
    // Refuse absurd sizes before allocating anything for them; after this both fit in u32.
    let bad_size = |e: GridError| {
        FormatError::at(
            file_name,
            header.size_line,
            format!("bad map size in the header: {e}"),
        )
    };
    Grid::check_size(w, h).map_err(bad_size)?;
    let mut grid = Grid::new(w as u32, h as u32).map_err(bad_size)?;
    map_rows(&mut lines, header, &mut grid, file_name)?;
    Ok(grid)
}

/// What a `.map` header says, and where.
#[derive(Clone, Copy, Debug)]
struct MapHeader {
    width: u64,
    height: u64,
    /// The later of the `height` and `width` lines: where a bad size is reported.
    size_line: usize,
    /// The `map` line.
    map_line: usize,
}

/// Reads a `.map` header up to and including its `map` line.
fn map_header<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    file_name: &str,
) -> Result<MapHeader, FormatError> {
    let err = |line: usize, msg: String| FormatError::at(file_name, line, msg);
    let mut kind: Option<usize> = None;
    let mut height: Option<(u64, usize)> = None;
    let mut width: Option<(u64, usize)> = None;
    let mut last_line = 0;
    loop {
        let Some((n, line)) = lines.next() else {
            return Err(if last_line == 0 {
                FormatError::whole(file_name, "empty file: expected a 'type octile' header")
            } else {
                err(
                    last_line,
                    "the file ends inside the header, before the 'map' line (truncated?)".into(),
                )
            });
        };
        last_line = n;
        let mut words = line.split_whitespace();
        let (Some(key), value, None) = (words.next(), words.next(), words.next()) else {
            if line.trim().is_empty() {
                continue;
            }
            return Err(err(n, format!("expected a header line, found {line:?}")));
        };
        match (key, value) {
            ("map", None) => break,
            ("type", Some(v)) => {
                if v != "octile" {
                    return Err(err(
                        n,
                        format!("map type {v:?} is not supported, only octile"),
                    ));
                }
                duplicate(kind.replace(n), "type", n, file_name)?;
            }
            ("height" | "width", Some(v)) => {
                let value: u64 = v.parse().map_err(|_| {
                    err(
                        n,
                        format!("{key} {v:?} is not a whole number that fits in 64 bits"),
                    )
                })?;
                let slot = if key == "height" {
                    &mut height
                } else {
                    &mut width
                };
                duplicate(slot.replace((value, n)).map(|(_, l)| l), key, n, file_name)?;
            }
            _ => return Err(err(n, format!("expected a header line, found {line:?}"))),
        }
    }
    let map_line = last_line;
    if kind.is_none() {
        return Err(err(map_line, "the header has no 'type octile' line".into()));
    }
    let (Some((h, h_line)), Some((w, w_line))) = (height, width) else {
        let missing = if height.is_none() { "height" } else { "width" };
        return Err(err(map_line, format!("the header has no '{missing}' line")));
    };
    Ok(MapHeader {
        width: w,
        height: h,
        size_line: h_line.max(w_line),
        map_line,
    })
}

/// Reads a `.map`'s rows into `grid` (sized by `header`), and checks that nothing but blank
/// lines follows them.
fn map_rows<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    header: MapHeader,
    grid: &mut Grid,
    file_name: &str,
) -> Result<(), FormatError> {
    let err = |line: usize, msg: String| FormatError::at(file_name, line, msg);
    let (w, h) = (header.width, header.height);
    let mut last_line = header.map_line;
    for y in 0..h as u32 {
        let Some((n, row)) = lines.next() else {
            return Err(err(
                last_line,
                format!("the file ends after {y} of {h} rows (truncated?)"),
            ));
        };
        last_line = n;
        let mut count = 0u64;
        for (x, c) in row.chars().enumerate() {
            let Some(terrain) = terrain_of(c) else {
                return Err(err(
                    n,
                    format!(
                        "column {}: unknown map character {c:?} (row y = {y}, x = {x})",
                        x + 1
                    ),
                ));
            };
            if x as u64 >= w {
                return Err(err(
                    n,
                    format!("row y = {y} is longer than the header's width {w}"),
                ));
            }
            grid.set(Pos::new(x as u32, y), terrain)
                .map_err(|e| err(n, e.to_string()))?;
            count += 1;
        }
        if count != w {
            return Err(err(
                n,
                format!("row y = {y} has {count} cells, the header's width is {w}"),
            ));
        }
    }
    if let Some((n, _)) = lines.find(|(_, l)| !l.trim().is_empty()) {
        return Err(err(n, format!("more rows than the header's height {h}")));
    }
    Ok(())
}

/// An error when a header field was already given (`previous` holds its line).
fn duplicate(
    previous: Option<usize>,
    key: &str,
    line: usize,
    file: &str,
) -> Result<(), FormatError> {
    match previous {
        Some(p) => Err(FormatError::at(
            file,
            line,
            format!("a second '{key}' line (the first is line {p})"),
        )),
        None => Ok(()),
    }
}

/// Reads and parses the `.map` file at `path`.
pub fn load_map(path: &Path) -> Result<Grid, FormatError> {
    parse_map(&read_text(path)?, &display_name(path))
}

/// Parses a `.scen` text; `file_name` only names the file in errors. Each problem's start and
/// goal are checked against the size on its own line; [`check_scen`] checks them against a map.
pub fn parse_scen(text: &str, file_name: &str) -> Result<Vec<ScenProblem>, FormatError> {
    let err = |line: usize, msg: String| FormatError::at(file_name, line, msg);
    let mut lines = strip_bom(text).lines().enumerate().map(|(i, l)| (i + 1, l));
    let Some((_, first)) = lines.next() else {
        return Err(FormatError::whole(
            file_name,
            "empty file: expected 'version 1'",
        ));
    };
    let version: Vec<&str> = first.split_whitespace().collect();
    if !matches!(version.as_slice(), ["version", "1" | "1.0"]) {
        return Err(err(1, format!("expected 'version 1', found {first:?}")));
    }
    let mut problems = Vec::new();
    for (n, line) in lines {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if !fields.is_empty() {
            problems.push(scen_problem(n, &fields, file_name)?);
        }
    }
    Ok(problems)
}

/// The fields of a `.scen` problem line, in order.
const SCEN_FIELDS: [&str; 9] = [
    "bucket",
    "map",
    "width",
    "height",
    "start_x",
    "start_y",
    "goal_x",
    "goal_y",
    "optimal_length",
];

/// The problem on line `n`, whose words are `fields`.
fn scen_problem(n: usize, fields: &[&str], file_name: &str) -> Result<ScenProblem, FormatError> {
    let err = |msg: String| FormatError::at(file_name, n, msg);
    if fields.len() != SCEN_FIELDS.len() {
        return Err(err(format!(
            "expected 9 fields ({}), found {}",
            SCEN_FIELDS.join(" "),
            fields.len()
        )));
    }
    let int = |i: usize| -> Result<u32, FormatError> {
        fields[i].parse().map_err(|_| {
            err(format!(
                "{} {:?} is not a whole number from 0 to 2³²-1",
                SCEN_FIELDS[i], fields[i]
            ))
        })
    };
    let optimal: f64 = fields[8]
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| {
            err(format!(
                "optimal_length {:?} is not a non-negative number",
                fields[8]
            ))
        })?;
    let p = ScenProblem {
        bucket: int(0)?,
        map: fields[1].to_owned(),
        map_width: int(2)?,
        map_height: int(3)?,
        start: Pos::new(int(4)?, int(5)?),
        goal: Pos::new(int(6)?, int(7)?),
        optimal,
        line: n,
    };
    for (what, pos) in [("start", p.start), ("goal", p.goal)] {
        if pos.x >= p.map_width || pos.y >= p.map_height {
            return Err(err(format!(
                "{what} {pos} is outside the {}×{} map named on this line",
                p.map_width, p.map_height
            )));
        }
    }
    Ok(p)
}

/// Reads and parses the `.scen` file at `path`.
pub fn load_scen(path: &Path) -> Result<Vec<ScenProblem>, FormatError> {
    parse_scen(&read_text(path)?, &display_name(path))
}

/// Checks `problems` (read from `scen_file`) against `grid`: each must name the grid's size,
/// and have its start and goal on passable cells. The error names the problem's line.
pub fn check_scen(
    problems: &[ScenProblem],
    grid: &Grid,
    scen_file: &str,
) -> Result<(), FormatError> {
    for p in problems {
        let err = |msg: String| Err(FormatError::at(scen_file, p.line, msg));
        if (p.map_width, p.map_height) != (grid.width(), grid.height()) {
            return err(format!(
                "the problem is for a {}×{} map, but the map is {}×{}",
                p.map_width,
                p.map_height,
                grid.width(),
                grid.height()
            ));
        }
        for (what, pos) in [("start", p.start), ("goal", p.goal)] {
            if !grid.is_passable(pos) {
                return err(format!("{what} {pos} is not a passable cell of the map"));
            }
        }
    }
    Ok(())
}

/// A scenario for the game from a Moving AI map and some of its problems: eight-connected (the
/// benchmark's move rule), default heuristic, one agent per problem at tick 0, no edits. The
/// problems are checked with [`check_scen`] first, so the result is a valid scenario.
pub fn to_scenario(
    grid: Grid,
    problems: &[ScenProblem],
    scen_file: &str,
) -> Result<Scenario, FormatError> {
    check_scen(problems, &grid, scen_file)?;
    let mut scenario = Scenario::from_grid(grid);
    scenario.connectivity = Connectivity::Eight;
    scenario.agents = problems
        .iter()
        .map(|p| AgentSpec::new(p.start, p.goal))
        .collect();
    Ok(scenario)
}

/// Loads a Moving AI map and, if given, its `.scen` file, and makes a scenario with the first
/// `max_agents` problems as agents (see [`to_scenario`]).
pub fn import(map: &Path, scen: Option<&Path>, max_agents: usize) -> Result<Scenario, FormatError> {
    let grid = load_map(map)?;
    match scen {
        Some(path) => {
            let problems = load_scen(path)?;
            let take = problems.len().min(max_agents);
            to_scenario(grid, &problems[..take], &display_name(path))
        }
        None => Ok(Scenario::from_grid(grid)),
    }
}

/// A MAPF benchmark instance read from a `.scen` file: the file format's side of
/// [`Problem`], kept here so that `mapf` reads no file format.
impl Problem {
    /// The instance of the first `agents` problems of a `.scen` file (read from `scen_file`)
    /// on `grid`. Errors name the file and line.
    pub fn from_scen(
        grid: Grid,
        conn: Connectivity,
        problems: &[ScenProblem],
        agents: usize,
        scen_file: &str,
    ) -> Result<Problem, FormatError> {
        if agents == 0 || agents > problems.len() {
            return Err(FormatError::whole(
                scen_file,
                format!(
                    "{agents} agents asked, but the file has {} problems (one per agent)",
                    problems.len()
                ),
            ));
        }
        let problems = &problems[..agents];
        check_scen(problems, &grid, scen_file)?;
        let starts = problems.iter().map(|p| p.start).collect();
        let goals = problems.iter().map(|p| p.goal).collect();
        Problem::new(grid, conn, starts, goals).map_err(|e| match e.agent {
            Some(a) => FormatError::at(scen_file, problems[a].line, e.message),
            None => FormatError::whole(scen_file, e.message),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::matches_printed;

    #[test]
    fn six_significant_digits() {
        assert!(matches_printed(4.242640687, 4.24264));
        assert!(!matches_printed(4.24266, 4.24264));
        assert!(!matches_printed(4.24262, 4.24264));
        assert!(matches_printed(265.5800004, 265.58));
        assert!(matches_printed(265.7645019, 265.764));
        assert!(!matches_printed(265.7652, 265.764));
        assert!(!matches_printed(265.581, 265.58));
        assert!(matches_printed(0.0, 0.0));
        assert!(!matches_printed(1.0, 0.0));
    }
}
