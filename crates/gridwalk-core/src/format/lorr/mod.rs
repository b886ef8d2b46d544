//! League of Robot Runners (LoRR) problems, 2023 and 2024 editions: the problem JSON and the
//! map, agents and tasks files it names ([`Problem::load`]), and the result JSON that a run
//! writes ([`result`]). The rules are those of the competition's start-kit.
//!
//! Every error names the file and, where there is one, the line: a start on a wall or off the
//! map, two robots on one cell, fewer starts than `teamSize`, a task off the map or on a wall,
//! a missing, unknown or mistyped key, a strategy the start-kit does not know.

mod json;
pub mod result;
mod scenario;

pub use scenario::MAX_ROUTE;

use std::path::{Path, PathBuf};

use json::{Entry, Value};

use crate::format::{FormatError, display_name, read_text, strip_bom};
use crate::grid::{Grid, Pos, Terrain};

/// Which edition's rules and formats a problem follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edition {
    /// 2023: one location a task, tasks dealt to robots by a [`Strategy`].
    Lorr2023,
    /// 2024 (`"version": "2024 LoRR"`): a task is a list of errands, and the entry schedules
    /// tasks from an open pool.
    Lorr2024,
}

/// How the 2023 edition deals tasks to robots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// `roundrobin`: robot k's j-th task is `tasks[(j × N + k) mod M]`, an endless stream.
    RoundRobin,
    /// `greedy`: tasks in file order to whichever robot needs one, robots scanned by index;
    /// the run ends when all are done.
    Greedy,
    /// `roundrobin_fixed`: task i goes to robot `i mod N`; the run ends when all are done.
    RoundRobinFixed,
}

/// The tasks of a problem: task i visits `errands(i)` in order (one cell in 2023).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tasks {
    /// Task i's errands are `cells[first[i]..first[i + 1]]`.
    first: Vec<u32>,
    cells: Vec<u32>,
}

impl Tasks {
    /// The number of tasks in the file.
    pub fn len(&self) -> usize {
        self.first.len() - 1
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Task `i`'s cells, in the order they are to be visited.
    pub fn errands(&self, i: usize) -> &[u32] {
        &self.cells[self.first[i] as usize..self.first[i + 1] as usize]
    }
}

/// A LoRR problem, read and checked.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The edition whose rules apply.
    pub edition: Edition,
    /// The map: `@` and `T` are walls, every other character is free ground.
    pub grid: Grid,
    /// Robot i's start cell (`row × width + col`), facing East; `teamSize` of them.
    pub starts: Vec<u32>,
    /// The tasks file's tasks.
    pub tasks: Tasks,
    /// 2023: how many tasks each robot sees ahead. 2024: the open pool's size as a multiple
    /// of the team size.
    pub num_tasks_reveal: f64,
    /// 2023's dealing strategy (2024 problems have none; this is then `RoundRobin`).
    pub strategy: Strategy,
    /// The map file, as the problem names it.
    pub map_file: String,
}

impl Problem {
    /// The number of robots.
    pub fn team_size(&self) -> usize {
        self.starts.len()
    }

    /// The 2024 open pool's size: `numTasksReveal × teamSize`, at least one.
    pub fn pool_size(&self) -> usize {
        ((self.num_tasks_reveal * self.team_size() as f64) as usize).max(1)
    }

    /// Reads the problem JSON at `path` and the files it names (relative to its folder).
    pub fn load(path: &Path) -> Result<Problem, FormatError> {
        let name = display_name(path);
        let text = read_text(path)?;
        let keys = Keys::parse(&text, &name)?;
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let file = |k: &str| -> Result<PathBuf, FormatError> { Ok(dir.join(keys.string(k)?)) };
        let map_path = file("mapFile")?;
        let grid = parse_map(&read_text(&map_path)?, &display_name(&map_path))?;
        let team = keys.count("teamSize")?;
        let agents_path = file("agentFile")?;
        let starts = parse_agents(
            &read_text(&agents_path)?,
            &display_name(&agents_path),
            &grid,
            team,
        )?;
        let edition = keys.edition()?;
        let tasks_path = file("taskFile")?;
        let tasks = parse_tasks(
            &read_text(&tasks_path)?,
            &display_name(&tasks_path),
            &grid,
            edition,
        )?;
        let num_tasks_reveal = keys.reveal(edition)?;
        let strategy = keys.strategy(edition)?;
        Ok(Problem {
            edition,
            grid,
            starts,
            tasks,
            num_tasks_reveal,
            strategy,
            map_file: keys.string("mapFile")?.to_owned(),
        })
    }
}

/// The keys of a problem JSON, with their lines, and the checks on each.
struct Keys<'a> {
    entries: Vec<Entry>,
    file: &'a str,
}

const KNOWN_KEYS: [&str; 7] = [
    "mapFile",
    "agentFile",
    "teamSize",
    "taskFile",
    "numTasksReveal",
    "taskAssignmentStrategy",
    "version",
];

impl<'a> Keys<'a> {
    fn parse(text: &str, file: &'a str) -> Result<Keys<'a>, FormatError> {
        let entries = json::parse_flat_object(strip_bom(text), file)?;
        if let Some(e) = entries
            .iter()
            .find(|e| !KNOWN_KEYS.contains(&e.key.as_str()))
        {
            return Err(FormatError::at(
                file,
                e.line,
                format!(
                    "unknown key \"{}\": a LoRR problem has {}",
                    e.key,
                    KNOWN_KEYS.join(", ")
                ),
            ));
        }
        Ok(Keys { entries, file })
    }

    fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    fn missing(&self, key: &str) -> FormatError {
        FormatError::whole(self.file, format!("the key \"{key}\" is missing"))
    }

    fn string(&self, key: &str) -> Result<&str, FormatError> {
        let e = self.get(key).ok_or_else(|| self.missing(key))?;
        match &e.value {
            Value::Str(s) if !s.is_empty() => Ok(s),
            _ => Err(FormatError::at(
                self.file,
                e.line,
                format!("\"{key}\" must be a non-empty string"),
            )),
        }
    }

    fn count(&self, key: &str) -> Result<usize, FormatError> {
        let e = self.get(key).ok_or_else(|| self.missing(key))?;
        match e.value {
            Value::Num(x) if x >= 1.0 && x.fract() == 0.0 && x <= 1e7 => Ok(x as usize),
            _ => Err(FormatError::at(
                self.file,
                e.line,
                format!("\"{key}\" must be a whole number from 1 to 10,000,000"),
            )),
        }
    }

    fn edition(&self) -> Result<Edition, FormatError> {
        let Some(e) = self.get("version") else {
            return Ok(Edition::Lorr2023);
        };
        match &e.value {
            Value::Str(s) if s == "2024 LoRR" => Ok(Edition::Lorr2024),
            _ => Err(FormatError::at(
                self.file,
                e.line,
                "\"version\" must be \"2024 LoRR\" (or absent, for a 2023 problem)",
            )),
        }
    }

    fn reveal(&self, edition: Edition) -> Result<f64, FormatError> {
        let Some(e) = self.get("numTasksReveal") else {
            return Ok(1.0);
        };
        let ok = match (e.value.clone(), edition) {
            (Value::Num(x), Edition::Lorr2023) if x >= 1.0 && x.fract() == 0.0 && x <= 1e4 => {
                Some(x)
            }
            (Value::Num(x), Edition::Lorr2024) if x > 0.0 && x <= 1e4 => Some(x),
            _ => None,
        };
        ok.ok_or_else(|| {
            let want = match edition {
                Edition::Lorr2023 => "a whole number from 1 to 10,000",
                Edition::Lorr2024 => "a number above 0, at most 10,000",
            };
            FormatError::at(
                self.file,
                e.line,
                format!("\"numTasksReveal\" must be {want}"),
            )
        })
    }

    fn strategy(&self, edition: Edition) -> Result<Strategy, FormatError> {
        let Some(e) = self.get("taskAssignmentStrategy") else {
            return Ok(Strategy::RoundRobin);
        };
        if edition == Edition::Lorr2024 {
            return Err(FormatError::at(
                self.file,
                e.line,
                "a 2024 problem has no \"taskAssignmentStrategy\": its entry schedules tasks",
            ));
        }
        match &e.value {
            Value::Str(s) if s == "roundrobin" => Ok(Strategy::RoundRobin),
            Value::Str(s) if s == "greedy" => Ok(Strategy::Greedy),
            Value::Str(s) if s == "roundrobin_fixed" => Ok(Strategy::RoundRobinFixed),
            _ => Err(FormatError::at(
                self.file,
                e.line,
                "\"taskAssignmentStrategy\" must be \"roundrobin\", \"greedy\" or \"roundrobin_fixed\"",
            )),
        }
    }
}

/// Parses a LoRR `.map`: the octile header, then `height` lines of at least `width`
/// characters, `@` and `T` walls and anything else free.
pub fn parse_map(text: &str, file: &str) -> Result<Grid, FormatError> {
    let mut lines = strip_bom(text).lines().enumerate().map(|(i, l)| (i + 1, l));
    let (mut width, mut height, mut last) = (None, None, 0);
    for (no, line) in lines.by_ref() {
        last = no;
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("type"), _) => {}
            (Some("map"), None) => break,
            (Some(k @ ("height" | "width")), Some(v)) => {
                let n: u32 = v.parse().map_err(|_| {
                    FormatError::at(file, no, format!("bad {k} '{v}': expected a whole number"))
                })?;
                *(if k == "height" {
                    &mut height
                } else {
                    &mut width
                }) = Some((n, no));
            }
            _ => {
                return Err(FormatError::at(
                    file,
                    no,
                    format!("unexpected header line '{line}'"),
                ));
            }
        }
    }
    let (Some((w, _)), Some((h, hl))) = (width, height) else {
        return Err(FormatError::at(
            file,
            last.max(1),
            "the header needs height, width and map",
        ));
    };
    let mut grid =
        Grid::new(w, h).map_err(|e| FormatError::at(file, hl, format!("bad map size: {e}")))?;
    for y in 0..h {
        let Some((no, line)) = lines.next() else {
            return Err(FormatError::at(
                file,
                last + y as usize,
                format!("the map has {y} rows, the header says {h}"),
            ));
        };
        let row = line.as_bytes();
        if row.len() < w as usize {
            return Err(FormatError::at(
                file,
                no,
                format!("row {y} has {} cells, expected {w}", row.len()),
            ));
        }
        for (x, &c) in row[..w as usize].iter().enumerate() {
            if c == b'@' || c == b'T' {
                // In range: x < w and y < h.
                let _ = grid.set(Pos::new(x as u32, y), Terrain::Wall);
            }
        }
    }
    Ok(grid)
}

/// The data lines of a LoRR agents or tasks file: `(line number, text)`, `#` lines skipped.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    strip_bom(text)
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.starts_with('#'))
}

/// The count on a file's first data line, and that line.
fn count_line<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    file: &str,
) -> Result<(usize, usize), FormatError> {
    let Some((no, line)) = lines.next() else {
        return Err(FormatError::whole(
            file,
            "the file is empty: expected a count",
        ));
    };
    let first = line.split(',').next().unwrap_or("").trim();
    let n = first
        .parse::<usize>()
        .map_err(|_| FormatError::at(file, no, format!("expected a count, found '{line}'")))?;
    Ok((n, no))
}

/// `text` as a cell of `grid`, checked to be on the map and not a wall.
fn cell(text: &str, grid: &Grid, file: &str, no: usize, what: &str) -> Result<u32, FormatError> {
    let loc: i64 = text
        .trim()
        .parse()
        .map_err(|_| FormatError::at(file, no, format!("{what}: '{text}' is not a cell number")))?;
    if loc < 0 || loc as u64 >= grid.len() as u64 {
        return Err(FormatError::at(
            file,
            no,
            format!(
                "{what} {loc} is off the map (cells 0 to {})",
                grid.len() - 1
            ),
        ));
    }
    let w = grid.width() as i64;
    if grid.weight(loc as usize) == 0 {
        return Err(FormatError::at(
            file,
            no,
            format!("{what} {loc} (row {}, col {}) is a wall", loc / w, loc % w),
        ));
    }
    Ok(loc as u32)
}

/// Parses a `.agents` file: a count, then one start cell a line; the first `team` are kept.
pub fn parse_agents(
    text: &str,
    file: &str,
    grid: &Grid,
    team: usize,
) -> Result<Vec<u32>, FormatError> {
    let mut lines = data_lines(text);
    let (n, count_no) = count_line(&mut lines, file)?;
    if n < team {
        return Err(FormatError::at(
            file,
            count_no,
            format!("the file lists {n} starts, fewer than the team size {team}"),
        ));
    }
    let mut starts = Vec::with_capacity(team);
    let mut taken = std::collections::HashMap::with_capacity(team);
    for (i, (no, line)) in lines.take(team).enumerate() {
        let loc = cell(
            line.split(',').next().unwrap_or(""),
            grid,
            file,
            no,
            &format!("start of agent {i}"),
        )?;
        if let Some(j) = taken.insert(loc, i) {
            return Err(FormatError::at(
                file,
                no,
                format!("agents {j} and {i} both start on cell {loc}"),
            ));
        }
        starts.push(loc);
    }
    if starts.len() < team {
        return Err(FormatError::whole(
            file,
            format!(
                "the file has {} start lines, fewer than the team size {team}",
                starts.len()
            ),
        ));
    }
    Ok(starts)
}

/// Parses a `.tasks` file: a count, then one task a line (2023: its first field, one cell;
/// 2024: every field, the errands in order).
pub fn parse_tasks(
    text: &str,
    file: &str,
    grid: &Grid,
    edition: Edition,
) -> Result<Tasks, FormatError> {
    let mut lines = data_lines(text);
    let (m, count_no) = count_line(&mut lines, file)?;
    if m == 0 {
        return Err(FormatError::at(file, count_no, "the file has no tasks"));
    }
    let mut tasks = Tasks {
        first: vec![0],
        cells: Vec::new(),
    };
    for (i, (no, line)) in lines.take(m).enumerate() {
        let fields = line.split(',');
        let fields: Box<dyn Iterator<Item = &str>> = match edition {
            Edition::Lorr2023 => Box::new(fields.take(1)),
            Edition::Lorr2024 => Box::new(fields),
        };
        for f in fields {
            tasks
                .cells
                .push(cell(f, grid, file, no, &format!("task {i}"))?);
        }
        tasks.first.push(tasks.cells.len() as u32);
    }
    if tasks.len() < m {
        return Err(FormatError::whole(
            file,
            format!("the count says {m} tasks, the file has {}", tasks.len()),
        ));
    }
    Ok(tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "type octile\nheight 2\nwidth 3\nmap\n.@.\nS.T\n";

    #[test]
    fn map_walls_are_at_and_t() {
        let g = parse_map(MAP, "m.map").unwrap();
        let walls: Vec<usize> = (0..6).filter(|&c| g.weight(c) == 0).collect();
        assert_eq!(walls, [1, 5]);
        let e = parse_map("type octile\nheight 3\nwidth 3\nmap\n...\n", "m.map").unwrap_err();
        assert!(e.message.contains("1 rows"), "{e}");
    }

    #[test]
    fn agents_are_checked() {
        let g = parse_map(MAP, "m.map").unwrap();
        assert_eq!(
            parse_agents("# v\n2\n0\n2,x\n", "a", &g, 2).unwrap(),
            [0, 2]
        );
        let e = parse_agents("2\n0\n1\n", "a", &g, 2).unwrap_err();
        assert_eq!((e.line, e.message.contains("wall")), (Some(3), true), "{e}");
        let e = parse_agents("1\n0\n", "a", &g, 2).unwrap_err();
        assert!(e.message.contains("fewer than the team size 2"), "{e}");
        let e = parse_agents("2\n0\n0\n", "a", &g, 2).unwrap_err();
        assert!(e.message.contains("both start"), "{e}");
        let e = parse_agents("2\n0\n9\n", "a", &g, 2).unwrap_err();
        assert!(e.message.contains("off the map"), "{e}");
    }

    #[test]
    fn tasks_of_both_editions() {
        let g = parse_map(MAP, "m.map").unwrap();
        let t = parse_tasks("2\n0,9\n2\n", "t", &g, Edition::Lorr2023).unwrap();
        assert_eq!((t.errands(0), t.errands(1)), (&[0][..], &[2][..]));
        let t = parse_tasks("# v\n1\n0,2,4\n", "t", &g, Edition::Lorr2024).unwrap();
        assert_eq!(t.errands(0), [0, 2, 4]);
        let e = parse_tasks("1\n0,7\n", "t", &g, Edition::Lorr2024).unwrap_err();
        assert_eq!(
            (e.line, e.message.contains("off the map")),
            (Some(2), true),
            "{e}"
        );
    }
}
