//! The formats of the GPPC dynamic track (the Grid-based Path Planning Competition's
//! `startkit-dynamic`): a version-2 `.scen` of patch and query commands, and the `.patch` file
//! of small grids that the patch commands paste onto the map.
//!
//! A `.scen` file is a header, one line each and in this order, then its commands:
//!
//! ```text
//! version 2
//! height 1024
//! width 1024
//! cost 1 octile
//! patch aurora.patch
//! commands
//! P 0 0 0 0
//! Q 0 312 790 834 301 1124.5260453828
//! ```
//!
//! - `cost N name…` names the N lengths each query gives; one must be `octile`, the only one
//!   checked.
//! - `patch FILE` names the patch file, relative to the `.scen`'s folder unless absolute.
//! - `P bucket patch x y` pastes patch number `patch` with its top-left cell at (x, y). It
//!   overwrites every cell it covers, passable or not, as the start kit's `apply_patch` does.
//! - `Q bucket sx sy gx gy length…` asks for a shortest path from (sx, sy) to (gx, gy) on the
//!   map as it stands. A length of `-1` means that no path exists.
//!
//! A `.patch` file is `type patch`, `patches N`, then N patches, each `patch i` (numbered from
//! 0 in order), `height h`, `width w`, `map` and h rows of w characters. `.`, `G` and `S` are
//! passable; `@`, `O`, `T` and `W` are blocked. (The Moving AI importer, [`super::movingai`],
//! reads `S` and `W` as walls; GPPC does not.) [`parse_map`] reads a Moving AI `.map` file with
//! the same characters, for an instance that does not start with a patch covering its map.
//!
//! Positions are (x, y) with (0, 0) the top-left cell. Moves cost 1 straight and √2 diagonal,
//! with no corner cutting: [`Connectivity::Eight`](crate::grid::Connectivity::Eight) on plain
//! ground. Blank lines are ignored everywhere.
//!
//! Every parser is total, like the others of [`crate::format`]: any input gives a value or a
//! [`FormatError`] naming the file and line, and every size is checked with
//! [`Grid::check_size`] before anything is allocated for it.

use std::path::Path;

use super::{FormatError, display_name, read_text, strip_bom};
use crate::grid::{Grid, GridError, Pos, Terrain};

/// A parsed version-2 `.scen` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Scen {
    /// Map width in cells.
    pub width: u32,
    /// Map height in cells.
    pub height: u32,
    /// The line of the header's `width`, for errors about the map's size.
    pub size_line: usize,
    /// The patch file as the header names it.
    pub patch_file: String,
    /// The line of the header's `patch`.
    pub patch_line: usize,
    /// The commands, in file order.
    pub commands: Vec<Command>,
}

/// One command of a `.scen` file.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `P`: paste a patch onto the map.
    Patch(PatchAt),
    /// `Q`: a shortest-path query.
    Query(Query),
}

/// A `P bucket patch x y` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatchAt {
    /// The bucket the file gives.
    pub bucket: u32,
    /// The patch number, an index into the patch file.
    pub patch: usize,
    /// Where the patch's top-left cell goes.
    pub at: Pos,
    /// The 1-based line of the command.
    pub line: usize,
}

/// A `Q bucket sx sy gx gy length` command.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Query {
    /// The bucket the file gives.
    pub bucket: u32,
    /// Where the path starts.
    pub start: Pos,
    /// Where it ends.
    pub goal: Pos,
    /// The optimal octile length, or `None` when the file says there is no path (`-1`).
    pub length: Option<f64>,
    /// How far a length may be from [`length`](Self::length) and still match: one unit of its
    /// last printed decimal, or nearly 0 for a length printed without decimals (a path of
    /// straight moves only, whose length is a whole number).
    pub tolerance: f64,
    /// The 1-based line of the command.
    pub line: usize,
}

/// One grid of a `.patch` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patch {
    width: u32,
    height: u32,
    /// Per cell, row after row: 1 passable, 0 blocked (a [`Grid`] weight).
    cells: Vec<u8>,
    /// The 1-based line of the patch's `patch i` header.
    pub line: usize,
}

impl Patch {
    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether the patch's cell (x, y) is passable; false off the patch.
    pub fn is_passable(&self, x: u32, y: u32) -> bool {
        x < self.width && y < self.height && self.cells[(y * self.width + x) as usize] != 0
    }

    /// Whether the patch lies wholly on a `width`×`height` map with its top-left cell at `at`.
    pub fn fits(&self, at: Pos, width: u32, height: u32) -> bool {
        at.x as u64 + self.width as u64 <= width as u64
            && at.y as u64 + self.height as u64 <= height as u64
    }

    /// Whether, placed at `at`, the patch covers every cell of a `width`×`height` map.
    pub fn covers(&self, at: Pos, width: u32, height: u32) -> bool {
        at == Pos::new(0, 0) && (self.width, self.height) == (width, height)
    }

    /// Pastes the patch onto `grid` with its top-left cell at `at`: every cell it covers
    /// becomes plain ground or a wall. Appends to `changed` the flat index of every cell whose
    /// terrain changed, in row order. When the patch does not fit, nothing changes and the
    /// error names the cell of the patch's far corner.
    pub fn apply(
        &self,
        grid: &mut Grid,
        at: Pos,
        changed: &mut Vec<usize>,
    ) -> Result<(), GridError> {
        if !self.fits(at, grid.width(), grid.height()) {
            let far = Pos::new(
                at.x.saturating_add(self.width - 1),
                at.y.saturating_add(self.height - 1),
            );
            return Err(grid.out_of_range(far));
        }
        let w = self.width as usize;
        for (dy, row) in self.cells.chunks_exact(w).enumerate() {
            let y = at.y + dy as u32;
            for (dx, &want) in row.iter().enumerate() {
                let pos = Pos::new(at.x + dx as u32, y);
                let i = grid.index(pos)?;
                if grid.weight(i) != want {
                    let terrain = if want == 0 {
                        Terrain::Wall
                    } else {
                        Terrain::FREE
                    };
                    grid.set(pos, terrain)?;
                    changed.push(i);
                }
            }
        }
        Ok(())
    }
}

/// A whole instance: a `.scen`, the patches it names, checked against each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// The scenario.
    pub scen: Scen,
    /// The patches, by number.
    pub patches: Vec<Patch>,
    /// The `.scen` file's name, for errors and reports.
    pub scen_file: String,
    /// The patch file's name (its path as opened).
    pub patch_file: String,
}

impl Instance {
    /// Whether the first command pastes a patch over the whole map, so that the instance
    /// needs no map of its own.
    pub fn starts_with_whole_map(&self) -> bool {
        let (w, h) = (self.scen.width, self.scen.height);
        match self.scen.commands.first() {
            Some(Command::Patch(p)) => self
                .patches
                .get(p.patch)
                .is_some_and(|patch| patch.covers(p.at, w, h)),
            _ => false,
        }
    }
}

/// The passability of a GPPC map character: `Some(1)` passable, `Some(0)` blocked, `None`
/// not one of the format's.
fn cell_of(c: char) -> Option<u8> {
    match c {
        '.' | 'G' | 'S' => Some(1),
        '@' | 'O' | 'T' | 'W' => Some(0),
        _ => None,
    }
}

/// Appends the cells of one map row of exactly `width` characters to `cells`.
fn read_row(row: &str, width: u64, cells: &mut Vec<u8>) -> Result<(), String> {
    let row = row.trim_end();
    let mut count = 0u64;
    for c in row.chars() {
        count += 1;
        if count > width {
            return Err(format!("more than the width's {width} cells"));
        }
        let Some(cell) = cell_of(c) else {
            return Err(format!(
                "column {count}: {c:?} is not a map character (passable . G S, blocked @ O T W)"
            ));
        };
        cells.push(cell);
    }
    if count != width {
        return Err(format!("{count} cells, the width is {width}"));
    }
    Ok(())
}

/// The non-blank lines of a text, numbered from 1, with errors that name the file.
struct Lines<'a> {
    file: &'a str,
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    /// The number of the last line read, 0 before any.
    last: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str, file: &'a str) -> Self {
        Lines {
            file,
            lines: strip_bom(text).lines().enumerate(),
            last: 0,
        }
    }

    fn err(&self, line: usize, message: impl Into<String>) -> FormatError {
        FormatError::at(self.file, line, message)
    }

    /// The next line that is not blank, with its number.
    fn next(&mut self) -> Option<(usize, &'a str)> {
        for (i, line) in self.lines.by_ref() {
            self.last = i + 1;
            if !line.trim().is_empty() {
                return Some((i + 1, line));
            }
        }
        None
    }

    /// The next non-blank line, or an error saying the file ends where `what` should be.
    fn expect(&mut self, what: &str) -> Result<(usize, &'a str), FormatError> {
        let last = self.last;
        self.next().ok_or_else(|| {
            if last == 0 {
                FormatError::whole(self.file, format!("empty file: expected {what}"))
            } else {
                self.err(
                    last,
                    format!("the file ends where {what} should be (truncated?)"),
                )
            }
        })
    }

    /// The next line as `key value…`, with its number and the words after the key.
    fn keyed(&mut self, key: &str, what: &str) -> Result<(usize, Vec<&'a str>), FormatError> {
        let (n, line) = self.expect(&format!("'{key} {what}'"))?;
        self.split(n, line, key, what)
    }

    /// Line `n`, `line`, as `key value…`: the words after the key.
    fn split(
        &self,
        n: usize,
        line: &'a str,
        key: &str,
        what: &str,
    ) -> Result<(usize, Vec<&'a str>), FormatError> {
        let mut words = line.split_whitespace();
        if words.next() != Some(key) {
            return Err(self.err(n, format!("expected '{key} {what}', found {line:?}")));
        }
        Ok((n, words.collect()))
    }

    /// The next line as `key N` with N a whole number from `min` to `max`.
    fn number(&mut self, key: &str, min: u64, max: u64) -> Result<(usize, u64), FormatError> {
        let (n, words) = self.keyed(key, "N")?;
        match words.as_slice() {
            [v] => match v.parse::<u64>() {
                Ok(v) if (min..=max).contains(&v) => Ok((n, v)),
                _ => Err(self.err(
                    n,
                    format!("{key} {v:?} is not a whole number from {min} to {max}"),
                )),
            },
            _ => Err(self.err(n, format!("expected '{key} N', one number"))),
        }
    }

    /// The `height`, `width` and `map` lines and the rows of one grid. Returns the width,
    /// height and cells (1 passable, 0 blocked).
    fn grid(&mut self) -> Result<(u32, u32, Vec<u8>), FormatError> {
        let (h_line, h) = self.number("height", 1, u32::MAX as u64)?;
        let (w_line, w) = self.number("width", 1, u32::MAX as u64)?;
        Grid::check_size(w, h)
            .map_err(|e| self.err(h_line.max(w_line), format!("bad size: {e}")))?;
        let (n, line) = self.expect("'map'")?;
        if line.trim() != "map" {
            return Err(self.err(n, format!("expected 'map', found {line:?}")));
        }
        // Grown row by row, so that memory follows the text actually read.
        let mut cells = Vec::new();
        for y in 0..h {
            let (n, row) = self.next().ok_or_else(|| {
                self.err(
                    self.last,
                    format!("the file ends after {y} of {h} rows (truncated?)"),
                )
            })?;
            read_row(row, w, &mut cells).map_err(|e| self.err(n, format!("row y = {y}: {e}")))?;
        }
        Ok((w as u32, h as u32, cells))
    }
}

/// Parses a `.patch` text; `file_name` only names the file in errors.
pub fn parse_patches(text: &str, file_name: &str) -> Result<Vec<Patch>, FormatError> {
    let mut lines = Lines::new(text, file_name);
    let (n, words) = lines.keyed("type", "patch")?;
    if words != ["patch"] {
        return Err(lines.err(n, "expected 'type patch'"));
    }
    let (count_line, count) = lines.number("patches", 0, u32::MAX as u64)?;
    let mut patches = Vec::new();
    for i in 0..count {
        let Some((n, line)) = lines.next() else {
            return Err(lines.err(
                lines.last,
                format!(
                    "the file ends after {i} of the {count} patches line {count_line} declares (truncated?)"
                ),
            ));
        };
        let (n, words) = lines.split(n, line, "patch", "i")?;
        if words != [i.to_string().as_str()] {
            return Err(lines.err(
                n,
                format!(
                    "expected 'patch {i}' (patches are numbered in order), found {:?}",
                    words.join(" ")
                ),
            ));
        }
        let (width, height, cells) = lines.grid()?;
        patches.push(Patch {
            width,
            height,
            cells,
            line: n,
        });
    }
    if let Some((n, _)) = lines.next() {
        return Err(lines.err(
            n,
            format!("more than the {count} patches line {count_line} declares"),
        ));
    }
    Ok(patches)
}

/// Parses a Moving AI `.map` text (`type octile`, `height`, `width`, `map`, rows) with GPPC's
/// characters: `S` and `W` are passable and blocked, as in a patch. Every passable cell is
/// plain ground.
pub fn parse_map(text: &str, file_name: &str) -> Result<Grid, FormatError> {
    let mut lines = Lines::new(text, file_name);
    let (n, words) = lines.keyed("type", "octile")?;
    if words != ["octile"] {
        return Err(lines.err(n, "expected 'type octile'"));
    }
    let (width, height, cells) = lines.grid()?;
    let mut grid = Grid::new(width, height).map_err(|e| lines.err(n, e.to_string()))?;
    let blocked = Patch {
        width,
        height,
        cells,
        line: n,
    };
    blocked
        .apply(&mut grid, Pos::new(0, 0), &mut Vec::new())
        .map_err(|e| lines.err(n, e.to_string()))?;
    if let Some((n, _)) = lines.next() {
        return Err(lines.err(n, format!("more rows than the height {height}")));
    }
    Ok(grid)
}

/// Reads and parses the `.map` file at `path` (see [`parse_map`]).
pub fn load_map(path: &Path) -> Result<Grid, FormatError> {
    parse_map(&read_text(path)?, &display_name(path))
}

/// A query's length and its tolerance (see [`Query::tolerance`]); `None` for a bad one.
fn parse_length(s: &str) -> Option<(Option<f64>, f64)> {
    if s.starts_with('-') {
        return (s.parse::<f64>() == Ok(-1.0)).then_some((None, 0.0));
    }
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(frac) || frac.len() > 300 {
        return None;
    }
    let value: f64 = s.parse().ok().filter(|v: &f64| v.is_finite())?;
    let tolerance = if frac.is_empty() {
        1e-9 * value.max(1.0)
    } else {
        10f64.powi(-(frac.len() as i32))
    };
    Some((Some(value), tolerance))
}

/// Parses a version-2 `.scen` text; `file_name` only names the file in errors. Starts and
/// goals are checked against the header's size; [`check`] checks the patch commands against
/// the patches.
pub fn parse_scen(text: &str, file_name: &str) -> Result<Scen, FormatError> {
    let mut lines = Lines::new(text, file_name);
    let (n, words) = lines.keyed("version", "2")?;
    if words != ["2"] {
        return Err(lines.err(
            n,
            format!("expected 'version 2', found version {:?}", words.join(" ")),
        ));
    }
    let (h_line, height) = lines.number("height", 1, u32::MAX as u64)?;
    let (size_line, width) = lines.number("width", 1, u32::MAX as u64)?;
    Grid::check_size(width, height)
        .map_err(|e| lines.err(h_line.max(size_line), format!("bad map size: {e}")))?;
    let (width, height) = (width as u32, height as u32);

    let (n, words) = lines.keyed("cost", "1 octile")?;
    let Some((count, names)) = words.split_first() else {
        return Err(lines.err(n, "expected 'cost N' and N cost names"));
    };
    if count.parse::<usize>() != Ok(names.len()) {
        return Err(lines.err(
            n,
            format!("'cost {count}' is followed by {} names", names.len()),
        ));
    }
    let costs = names.len();
    let octile = match names.iter().position(|&c| c == "octile") {
        Some(i) if names.iter().filter(|&&c| c == "octile").count() == 1 => i,
        Some(_) => return Err(lines.err(n, "'octile' is named twice")),
        None => return Err(lines.err(n, "no 'octile' cost: gridwalk checks octile lengths only")),
    };

    let (patch_line, words) = lines.keyed("patch", "FILE")?;
    let [patch_file] = words.as_slice() else {
        return Err(lines.err(patch_line, "expected 'patch FILE', one file name"));
    };
    let patch_file = patch_file.to_string();
    let (n, line) = lines.expect("'commands'")?;
    if line.trim() != "commands" {
        return Err(lines.err(n, format!("expected 'commands', found {line:?}")));
    }

    let shape = CommandShape {
        width,
        height,
        costs,
        octile,
    };
    let mut commands = Vec::new();
    while let Some((n, line)) = lines.next() {
        commands.push(command(&lines, n, line, &shape)?);
    }
    Ok(Scen {
        width,
        height,
        size_line,
        patch_file,
        patch_line,
        commands,
    })
}

/// What reading a command needs: the map's size, and how many lengths a `Q` line has and
/// which of them is octile.
struct CommandShape {
    width: u32,
    height: u32,
    costs: usize,
    octile: usize,
}

/// One command line being read: its number, for errors, and the shape its fields are checked
/// against.
struct CommandLine<'a, 'f> {
    lines: &'a Lines<'f>,
    n: usize,
    shape: &'a CommandShape,
}

impl CommandLine<'_, '_> {
    /// An error on this line.
    fn err(&self, message: impl Into<String>) -> FormatError {
        self.lines.err(self.n, message)
    }

    /// A whole number from 0 to `below - 1` (`below` = `None`: any `u32`), or an error naming
    /// it.
    fn field(&self, name: &str, value: &str, below: Option<u32>) -> Result<u32, FormatError> {
        let limit = below.map_or(u32::MAX as u64, |b| b as u64 - 1);
        match value.parse::<u32>() {
            Ok(v) if v as u64 <= limit => Ok(v),
            _ => Err(self.err(format!(
                "{name} {value:?} is not a whole number from 0 to {limit}"
            ))),
        }
    }

    /// A cell of the map from its fields `x` and `y`, named `names` in errors.
    fn cell(&self, names: [&str; 2], x: &str, y: &str) -> Result<Pos, FormatError> {
        Ok(Pos::new(
            self.field(names[0], x, Some(self.shape.width))?,
            self.field(names[1], y, Some(self.shape.height))?,
        ))
    }

    /// The error of a command with the wrong number of fields after its letter.
    fn miscounted(&self, expected: &str, rest: &[&str], letter: &str) -> FormatError {
        let found = rest.len();
        self.err(format!(
            "expected {expected}, found {found} fields after {letter}"
        ))
    }
}

/// The command on line `n`.
fn command(
    lines: &Lines,
    n: usize,
    line: &str,
    shape: &CommandShape,
) -> Result<Command, FormatError> {
    let at = CommandLine { lines, n, shape };
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["P", rest @ ..] => patch_command(&at, rest),
        ["Q", rest @ ..] => query_command(&at, rest),
        _ => Err(at.err(format!(
            "expected a command 'P …' or 'Q …', found {:?}",
            line.trim()
        ))),
    }
}

/// `P bucket patch x y`, from the fields after `P`.
fn patch_command(at: &CommandLine, rest: &[&str]) -> Result<Command, FormatError> {
    let [bucket, patch, x, y] = rest else {
        return Err(at.miscounted("'P bucket patch x y'", rest, "P"));
    };
    Ok(Command::Patch(PatchAt {
        bucket: at.field("bucket", bucket, None)?,
        patch: at.field("patch", patch, None)? as usize,
        at: at.cell(["x", "y"], x, y)?,
        line: at.n,
    }))
}

/// `Q bucket sx sy gx gy` and the lengths, from the fields after `Q`.
fn query_command(at: &CommandLine, rest: &[&str]) -> Result<Command, FormatError> {
    let (costs, octile) = (at.shape.costs, at.shape.octile);
    if rest.len() != 5 + costs {
        let expected = format!("'Q bucket sx sy gx gy' and {costs} length(s)");
        return Err(at.miscounted(&expected, rest, "Q"));
    }
    let printed = rest[5 + octile];
    let Some((length, tolerance)) = parse_length(printed) else {
        return Err(at.err(format!(
            "length {printed:?} is neither -1 (no path) nor a decimal number ≥ 0"
        )));
    };
    Ok(Command::Query(Query {
        bucket: at.field("bucket", rest[0], None)?,
        start: at.cell(["sx", "sy"], rest[1], rest[2])?,
        goal: at.cell(["gx", "gy"], rest[3], rest[4])?,
        length,
        tolerance,
        line: at.n,
    }))
}

/// Checks `scen` against `patches`: every patch lies within the map, and every `P` command
/// names a patch that exists and fits where it is pasted. Errors name the line of the patch
/// (in `patch_file`) or of the command (in `scen_file`).
pub fn check(
    scen: &Scen,
    patches: &[Patch],
    scen_file: &str,
    patch_file: &str,
) -> Result<(), FormatError> {
    let (w, h) = (scen.width, scen.height);
    for (i, p) in patches.iter().enumerate() {
        if !p.fits(Pos::new(0, 0), w, h) {
            return Err(FormatError::at(
                patch_file,
                p.line,
                format!(
                    "patch {i} is {}×{}, larger than the {w}×{h} map",
                    p.width, p.height
                ),
            ));
        }
    }
    for command in &scen.commands {
        let Command::Patch(c) = command else { continue };
        let Some(p) = patches.get(c.patch) else {
            return Err(FormatError::at(
                scen_file,
                c.line,
                format!(
                    "patch {} does not exist: {patch_file} has {} patches",
                    c.patch,
                    patches.len()
                ),
            ));
        };
        if !p.fits(c.at, w, h) {
            return Err(FormatError::at(
                scen_file,
                c.line,
                format!(
                    "patch {} ({}×{}) at {} runs off the {w}×{h} map",
                    c.patch, p.width, p.height, c.at
                ),
            ));
        }
    }
    Ok(())
}

/// Reads the `.scen` file at `path` and the patch file it names (relative to the `.scen`'s
/// folder unless absolute), and [`check`]s them against each other.
pub fn load(path: &Path) -> Result<Instance, FormatError> {
    let scen_file = display_name(path);
    let scen = parse_scen(&read_text(path)?, &scen_file)?;
    let patch_path = path
        .parent()
        .unwrap_or(Path::new(""))
        .join(&scen.patch_file);
    let patch_file = display_name(&patch_path);
    let text = read_text(&patch_path).map_err(|e| match e.line {
        // An unreadable file is the `.scen`'s mistake: point at the line that names it.
        None => FormatError::at(&scen_file, scen.patch_line, format!("patch file {e}")),
        Some(_) => e,
    })?;
    let patches = parse_patches(&text, &patch_file)?;
    check(&scen, &patches, &scen_file, &patch_file)?;
    Ok(Instance {
        scen,
        patches,
        scen_file,
        patch_file,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATCHES: &str = "type patch\npatches 2\npatch 0\nheight 3\nwidth 4\nmap\n....\n.@S.\nG.WT\npatch 1\nheight 1\nwidth 2\nmap\n@@\n";
    const SCEN: &str = "version 2\nheight 3\nwidth 4\ncost 1 octile\npatch p.patch\ncommands\nP 0 0 0 0\nQ 0 0 0 3 0 3\nP 0 1 1 0\nQ 0 0 0 3 0 3.4142135624\nQ 0 0 2 3 2 -1\n";

    /// The error of parsing `text` as a patch file, as `file:line: message`.
    fn patch_err(text: &str) -> String {
        parse_patches(text, "t.patch").unwrap_err().to_string()
    }

    fn scen_err(text: &str) -> String {
        parse_scen(text, "t.scen").unwrap_err().to_string()
    }

    #[test]
    fn parses_patches_with_gppc_characters() {
        let p = parse_patches(PATCHES, "t.patch").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].width(), p[0].height(), p[0].line), (4, 3, 3));
        // S and G passable, @ W T blocked.
        let row1: Vec<bool> = (0..4).map(|x| p[0].is_passable(x, 1)).collect();
        assert_eq!(row1, [true, false, true, true]);
        let row2: Vec<bool> = (0..4).map(|x| p[0].is_passable(x, 2)).collect();
        assert_eq!(row2, [true, true, false, false]);
        assert!(!p[0].is_passable(4, 0));
        assert_eq!((p[1].width(), p[1].height(), p[1].line), (2, 1, 10));
    }

    #[test]
    fn parses_the_scen() {
        let s = parse_scen(SCEN, "t.scen").unwrap();
        assert_eq!((s.width, s.height, s.size_line), (4, 3, 3));
        assert_eq!((s.patch_file.as_str(), s.patch_line), ("p.patch", 5));
        assert_eq!(s.commands.len(), 5);
        let Command::Patch(p) = s.commands[2] else {
            panic!()
        };
        assert_eq!((p.patch, p.at, p.line), (1, Pos::new(1, 0), 9));
        let Command::Query(q) = s.commands[3] else {
            panic!()
        };
        assert_eq!(
            (q.start, q.goal, q.line),
            (Pos::new(0, 0), Pos::new(3, 0), 10)
        );
        assert_eq!(q.length, Some(3.4142135624));
        assert!((q.tolerance - 1e-10).abs() < 1e-20);
        let Command::Query(q) = s.commands[4] else {
            panic!()
        };
        assert_eq!(q.length, None);
        check(
            &s,
            &parse_patches(PATCHES, "p.patch").unwrap(),
            "t.scen",
            "p.patch",
        )
        .unwrap();
    }

    #[test]
    fn several_costs_pick_octile() {
        let s = parse_scen(
            "version 2\nheight 3\nwidth 4\ncost 2 manhattan octile\npatch p\ncommands\nQ 0 0 0 1 1 2 1.5\n",
            "t.scen",
        )
        .unwrap();
        let Command::Query(q) = s.commands[0] else {
            panic!()
        };
        assert_eq!(q.length, Some(1.5));
    }

    #[test]
    fn bad_patch_files_name_their_line() {
        let cases: [(&str, &str); 11] = [
            ("", "t.patch: empty file"),
            ("type map\n", "t.patch:1: expected 'type patch'"),
            (
                "type patch\npatches x\n",
                "t.patch:2: patches \"x\" is not a whole number",
            ),
            (
                "type patch\npatches 1\npatch 1\n",
                "t.patch:3: expected 'patch 0'",
            ),
            (
                "type patch\npatches 1\npatch 0\nheight 2\nwidth 2\nmap\n..\n",
                "t.patch:7: the file ends after 1 of 2 rows",
            ),
            (
                "type patch\npatches 1\npatch 0\nheight 1\nwidth 3\nmap\n.x.\n",
                "t.patch:7: row y = 0: column 2: 'x' is not a map character",
            ),
            (
                "type patch\npatches 1\npatch 0\nheight 1\nwidth 3\nmap\n....\n",
                "t.patch:7: row y = 0: more than the width's 3 cells",
            ),
            (
                "type patch\npatches 1\npatch 0\nheight 1\nwidth 3\nmap\n..\n",
                "t.patch:7: row y = 0: 2 cells, the width is 3",
            ),
            (
                "type patch\npatches 1\npatch 0\nheight 100000\nwidth 100000\nmap\n",
                "t.patch:5: bad size",
            ),
            (
                "type patch\npatches 2\npatch 0\nheight 1\nwidth 1\nmap\n.\n",
                "t.patch:7: the file ends after 1 of the 2 patches line 2 declares",
            ),
            (
                "type patch\npatches 1\npatch 0\nheight 1\nwidth 1\nmap\n.\n.\n",
                "t.patch:8: more than the 1 patches line 2 declares",
            ),
        ];
        for (text, want) in cases {
            let got = patch_err(text);
            assert!(got.starts_with(want), "{text:?}\n got: {got}\nwant: {want}");
        }
        assert!(
            patch_err("type patch\npatches 1\npatch 0\nheight 1\n")
                .starts_with("t.patch:4: the file ends where 'width N'")
        );
    }

    #[test]
    fn bad_scen_files_name_their_line() {
        let head = "version 2\nheight 3\nwidth 4\ncost 1 octile\npatch p.patch\ncommands\n";
        let with = |cmd: &str| format!("{head}{cmd}\n");
        let cases: Vec<(String, &str)> = vec![
            ("".into(), "t.scen: empty file"),
            ("version 1\n".into(), "t.scen:1: expected 'version 2'"),
            (
                "version 2\nheight 3\n".into(),
                "t.scen:2: the file ends where 'width N' should be",
            ),
            (
                "version 2\nheight 0\nwidth 3\n".into(),
                "t.scen:2: height \"0\" is not a whole number from 1",
            ),
            (
                "version 2\nheight 70000\nwidth 70000\n".into(),
                "t.scen:3: bad map size",
            ),
            (
                "version 2\nheight 3\nwidth 4\ncost 1 euclidean\n".into(),
                "t.scen:4: no 'octile' cost",
            ),
            (
                "version 2\nheight 3\nwidth 4\ncost 2 octile\n".into(),
                "t.scen:4: 'cost 2' is followed by 1 names",
            ),
            (
                "version 2\nheight 3\nwidth 4\ncost 1 octile\npatch\n".into(),
                "t.scen:5: expected 'patch FILE'",
            ),
            (
                head.replace("commands", "command"),
                "t.scen:6: expected 'commands'",
            ),
            (with("X 0 0 0 0"), "t.scen:7: expected a command"),
            (with("P 0 0 0"), "t.scen:7: expected 'P bucket patch x y'"),
            (
                with("P 0 0 4 0"),
                "t.scen:7: x \"4\" is not a whole number from 0 to 3",
            ),
            (
                with("P 0 -1 0 0"),
                "t.scen:7: patch \"-1\" is not a whole number",
            ),
            (
                with("Q 0 0 0 1 3 2"),
                "t.scen:7: gy \"3\" is not a whole number from 0 to 2",
            ),
            (
                with("Q 0 0 0 1 1"),
                "t.scen:7: expected 'Q bucket sx sy gx gy' and 1 length(s)",
            ),
            (
                with("Q 0 0 0 1 1 -2"),
                "t.scen:7: length \"-2\" is neither -1",
            ),
            (
                with("Q 0 0 0 1 1 1e3"),
                "t.scen:7: length \"1e3\" is neither -1",
            ),
            (
                with("Q 0 0 0 1 1 nan"),
                "t.scen:7: length \"nan\" is neither -1",
            ),
        ];
        for (text, want) in cases {
            let got = scen_err(&text);
            assert!(got.starts_with(want), "{text:?}\n got: {got}\nwant: {want}");
        }
    }

    #[test]
    fn check_names_unknown_and_overflowing_patches() {
        let patches = parse_patches(PATCHES, "p.patch").unwrap();
        let head = "version 2\nheight 3\nwidth 4\ncost 1 octile\npatch p.patch\ncommands\n";
        let run = |cmds: &str| {
            let s = parse_scen(&format!("{head}{cmds}"), "t.scen").unwrap();
            check(&s, &patches, "t.scen", "p.patch").map_err(|e| e.to_string())
        };
        assert_eq!(
            run("Q 0 0 0 1 1 -1\nP 0 2 0 0\n").unwrap_err(),
            "t.scen:8: patch 2 does not exist: p.patch has 2 patches"
        );
        assert_eq!(
            run("P 0 1 3 0\n").unwrap_err(),
            "t.scen:7: patch 1 (2×1) at (3, 0) runs off the 4×3 map"
        );
        let small = "version 2\nheight 2\nwidth 4\ncost 1 octile\npatch p.patch\ncommands\n";
        let s = parse_scen(small, "t.scen").unwrap();
        assert_eq!(
            check(&s, &patches, "t.scen", "p.patch")
                .unwrap_err()
                .to_string(),
            "p.patch:3: patch 0 is 4×3, larger than the 4×2 map"
        );
    }

    #[test]
    fn apply_overwrites_and_reports_changes() {
        let patches = parse_patches(PATCHES, "t.patch").unwrap();
        let mut grid = Grid::new(4, 3).unwrap();
        let mut changed = Vec::new();
        patches[0]
            .apply(&mut grid, Pos::new(0, 0), &mut changed)
            .unwrap();
        // (1,1) @, (2,2) W, (3,2) T.
        assert_eq!(changed, [5, 10, 11]);
        changed.clear();
        // Patch 1 (@@) at (1,0): both cells were free.
        patches[1]
            .apply(&mut grid, Pos::new(1, 0), &mut changed)
            .unwrap();
        assert_eq!(changed, [1, 2]);
        changed.clear();
        // Patch 0 again overwrites them back, blocked or not; nothing else changes.
        patches[0]
            .apply(&mut grid, Pos::new(0, 0), &mut changed)
            .unwrap();
        assert_eq!(changed, [1, 2]);
        assert_eq!(grid.wall_count(), 3);
        // Off the map: an error, and nothing changes.
        changed.clear();
        let before = grid.clone();
        assert!(
            patches[1]
                .apply(&mut grid, Pos::new(3, 2), &mut changed)
                .is_err()
        );
        assert!(changed.is_empty());
        assert_eq!(grid, before);
    }

    proptest::proptest! {
        /// Hostile input: any cut and any byte changed of valid files gives a value or an
        /// error with a line, never a panic.
        #[test]
        fn damaged_files_never_panic(cut in 0usize..200, at in 0usize..200, byte in 0u8..128) {
            for text in [SCEN, PATCHES] {
                let mut bytes = text.as_bytes()[..cut.min(text.len())].to_vec();
                if let Some(b) = bytes.get_mut(at) {
                    *b = byte;
                }
                let text = String::from_utf8(bytes).unwrap();
                for e in [parse_scen(&text, "t").err(), parse_patches(&text, "t").err()].into_iter().flatten() {
                    proptest::prop_assert!(e.line.is_some() || text.trim().is_empty(), "{e}");
                }
                let _ = parse_map(&text, "t");
            }
        }
    }

    #[test]
    fn map_uses_gppc_characters() {
        let g = parse_map("type octile\nheight 1\nwidth 4\nmap\n.SW@\n", "t.map").unwrap();
        assert_eq!(g.weights(), [1, 1, 0, 0]);
        let e =
            parse_map("type octile\nheight 1\nwidth 4\nmap\n.SW@\n....\n", "t.map").unwrap_err();
        assert_eq!(e.to_string(), "t.map:6: more rows than the height 1");
    }
}
