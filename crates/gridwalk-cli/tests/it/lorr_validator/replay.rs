//! An independent LoRR validator, written from the rules of `FORMATS.md` and sharing no code
//! with the core's runner: it reads a problem with its own parser, replays a result file's
//! `actualPaths` step by step, checks every action against the rules, checks that the steps
//! the planner lost are all waits, and recounts the tasks finished (2023: by dealing tasks as
//! the strategy does; 2024: by following `actualSchedule`, each assignment checked against the
//! open pool).

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use serde_json::Value;

/// A problem as the validator reads it.
pub struct Problem {
    pub width: usize,
    pub height: usize,
    pub walls: Vec<bool>,
    pub starts: Vec<usize>,
    /// Each task's cells in order (one in 2023).
    pub tasks: Vec<Vec<usize>>,
    pub reveal: f64,
    pub strategy: String,
    pub y2024: bool,
}

/// What a replay found.
#[derive(Debug)]
pub struct Report {
    /// Tasks finished by the replay's own count, `None` when the file lacks what it needs (a
    /// 2024 file without `actualSchedule`).
    pub finished: Option<u64>,
    pub timesteps: usize,
}

fn lines_of(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The data lines' first comma fields (or all fields), `#` lines skipped, after the count.
fn listed(path: &Path, all_fields: bool) -> Vec<Vec<usize>> {
    let lines: Vec<String> = lines_of(path)
        .into_iter()
        .filter(|l| !l.starts_with('#'))
        .collect();
    let n: usize = lines[0].trim().parse().unwrap();
    lines[1..=n]
        .iter()
        .map(|l| {
            let fields = l
                .trim()
                .split(',')
                .map(|f| f.trim().parse::<usize>().unwrap());
            if all_fields {
                fields.collect()
            } else {
                fields.take(1).collect()
            }
        })
        .collect()
}

/// Reads the problem JSON at `path` and its files.
pub fn load_problem(path: &Path) -> Problem {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let dir = path.parent().unwrap();
    let y2024 = v.get("version").and_then(Value::as_str) == Some("2024 LoRR");
    let map = lines_of(&dir.join(v["mapFile"].as_str().unwrap()));
    let num = |k: &str| -> usize {
        map.iter()
            .find_map(|l| l.strip_prefix(k))
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    let (height, width) = (num("height "), num("width "));
    let first_row = map.iter().position(|l| l == "map").unwrap() + 1;
    let mut walls = Vec::with_capacity(width * height);
    for row in &map[first_row..first_row + height] {
        walls.extend(row.bytes().take(width).map(|b| b == b'@' || b == b'T'));
    }
    let team = v["teamSize"].as_u64().unwrap() as usize;
    let starts: Vec<usize> = listed(&dir.join(v["agentFile"].as_str().unwrap()), false)
        .into_iter()
        .take(team)
        .map(|f| f[0])
        .collect();
    Problem {
        width,
        height,
        walls,
        starts,
        tasks: listed(&dir.join(v["taskFile"].as_str().unwrap()), y2024),
        reveal: v
            .get("numTasksReveal")
            .and_then(Value::as_f64)
            .unwrap_or(1.0),
        strategy: v
            .get("taskAssignmentStrategy")
            .and_then(Value::as_str)
            .unwrap_or("roundrobin")
            .to_owned(),
        y2024,
    }
}

/// A robot: cell and facing (0 E, 1 S, 2 W, 3 N).
type Robot = (usize, usize);

/// The rule check of one joint step, robots in index order; `Err` names the first fault.
fn check(p: &Problem, prev: &[Robot], acts: &[u8], t: usize) -> Result<Vec<Robot>, String> {
    let (w, cells) = (p.width as i64, (p.width * p.height) as i64);
    let mut next: Vec<Robot> = Vec::with_capacity(prev.len());
    let mut at: HashMap<usize, usize> = HashMap::new();
    let stood: HashMap<usize, usize> = prev.iter().enumerate().map(|(i, r)| (r.0, i)).collect();
    for (i, (&(loc, o), &a)) in prev.iter().zip(acts).enumerate() {
        let (nloc, no) = match a {
            b'F' => (loc as i64 + [1, w, -1, -w][o], o),
            b'R' => (loc as i64, (o + 1) % 4),
            b'C' => (loc as i64, (o + 3) % 4),
            b'W' => (loc as i64, o),
            _ => return Err(format!("step {t}: robot {i} has action '{}'", a as char)),
        };
        let manhattan = (nloc / w - loc as i64 / w).abs() + (nloc % w - loc as i64 % w).abs();
        if nloc < 0 || nloc >= cells || manhattan > 1 || p.walls[nloc as usize] {
            return Err(format!(
                "step {t}: robot {i} makes an unallowed move (into a wall or off the map)"
            ));
        }
        let nloc = nloc as usize;
        if let Some(&j) = at.get(&nloc) {
            return Err(format!("step {t}: vertex conflict of robots {j} and {i}"));
        }
        // A swap: the earlier robot j that stood on `nloc` now moves onto `loc`.
        if let Some(&j) = stood.get(&nloc)
            && j < i
            && nloc != loc
            && next[j].0 == loc
        {
            return Err(format!(
                "step {t}: edge conflict (swap) of robots {j} and {i}"
            ));
        }
        at.insert(nloc, i);
        next.push((nloc, no));
    }
    Ok(next)
}

/// The actions of every robot, one row a robot, letters only.
fn paths(v: &Value, key: &str, n: usize) -> Result<Vec<Vec<u8>>, String> {
    let list = v[key].as_array().ok_or(format!("{key} is missing"))?;
    if list.len() != n {
        return Err(format!("{key} has {} robots, teamSize is {n}", list.len()));
    }
    Ok(list
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or("")
                .bytes()
                .filter(|&b| b != b',')
                .collect()
        })
        .collect())
}

/// Replays `result` against `problem`: every step checked, the count recounted.
pub fn replay(p: &Problem, result: &Value) -> Result<Report, String> {
    let n = p.starts.len();
    if result["teamSize"].as_u64() != Some(n as u64) {
        return Err("teamSize differs from the problem's".into());
    }
    for (i, s) in result["start"]
        .as_array()
        .ok_or("start is missing")?
        .iter()
        .enumerate()
    {
        let want = serde_json::json!([p.starts[i] / p.width, p.starts[i] % p.width, "E"]);
        if *s != want {
            return Err(format!(
                "start of robot {i} is {s}, the problem says {want}"
            ));
        }
    }
    let actual = paths(result, "actualPaths", n)?;
    let steps = actual[0].len();
    if actual.iter().any(|a| a.len() != steps) {
        return Err("actualPaths differ in length".into());
    }
    let planned = result
        .get("plannerPaths")
        .map(|_| paths(result, "plannerPaths", n))
        .transpose()?;
    let mut robots: Vec<Robot> = p.starts.iter().map(|&c| (c, 0)).collect();
    let mut counter = Counter::new(p, result)?;
    let mut lost = 0;
    for t in 0..steps {
        let acts: Vec<u8> = actual.iter().map(|a| a[t]).collect();
        if let Some(planned) = &planned
            && (0..n).any(|i| planned[i].get(t) != Some(&acts[i]))
        {
            if acts.iter().any(|&a| a != b'W') {
                return Err(format!(
                    "step {}: the plan was not executed, yet robots moved",
                    t + 1
                ));
            }
            lost += 1;
        }
        robots = check(p, &robots, &acts, t + 1)?;
        counter.after_moves(p, &robots, t + 1)?;
    }
    let refused = if p.y2024 {
        result["numPlannerErrors"].as_u64().unwrap_or(0)
            + result["numEntryTimeouts"].as_u64().unwrap_or(0)
    } else {
        result["errors"].as_array().map_or(0, |e| e.len() as u64)
    };
    if planned.is_some() && lost > refused {
        return Err(format!(
            "{lost} steps were not executed as planned, the file reports {refused}"
        ));
    }
    Ok(Report {
        finished: counter.finished(),
        timesteps: steps,
    })
}

/// Counts tasks finished as the edition's rules deal or schedule them.
enum Counter {
    Y2023 {
        queues: Vec<VecDeque<usize>>,
        dealt: Vec<usize>,
        next: usize,
        finished: u64,
    },
    Y2024 {
        schedule: HashMap<usize, Vec<(usize, i64)>>,
        pool: Pool,
        finished: u64,
    },
    Unknown,
}

/// The 2024 open pool as the validator follows it.
struct Pool {
    size: usize,
    next_id: usize,
    /// Open task id → errands done.
    open: HashMap<usize, usize>,
    /// Robot → its task.
    holds: Vec<Option<usize>>,
}

impl Pool {
    fn refill(&mut self) {
        while self.open.len() < self.size {
            self.open.insert(self.next_id, 0);
            self.next_id += 1;
        }
    }
}

impl Counter {
    fn new(p: &Problem, result: &Value) -> Result<Counter, String> {
        let n = p.starts.len();
        if !p.y2024 {
            let mut c = Counter::Y2023 {
                queues: vec![VecDeque::new(); n],
                dealt: vec![0; n],
                next: 0,
                finished: 0,
            };
            c.deal(p);
            return Ok(c);
        }
        let Some(list) = result.get("actualSchedule").and_then(Value::as_array) else {
            return Ok(Counter::Unknown);
        };
        let mut schedule: HashMap<usize, Vec<(usize, i64)>> = HashMap::new();
        for (a, s) in list.iter().enumerate() {
            for item in s
                .as_str()
                .unwrap_or("")
                .split(',')
                .filter(|x| !x.is_empty())
            {
                let (t, k) = item
                    .split_once(':')
                    .ok_or(format!("bad schedule item {item}"))?;
                let (t, k) = (
                    t.parse::<usize>().map_err(|e| e.to_string())?,
                    k.parse::<i64>().map_err(|e| e.to_string())?,
                );
                schedule.entry(t).or_default().push((a, k));
            }
        }
        let size = ((p.reveal * n as f64) as usize).max(1);
        let mut pool = Pool {
            size,
            next_id: 0,
            open: HashMap::new(),
            holds: vec![None; n],
        };
        pool.refill();
        Ok(Counter::Y2024 {
            schedule,
            pool,
            finished: 0,
        })
    }

    /// 2023: tops up every robot's queue by the strategy, robots in index order.
    fn deal(&mut self, p: &Problem) {
        let Counter::Y2023 {
            queues,
            dealt,
            next,
            ..
        } = self
        else {
            return;
        };
        let (n, m) = (queues.len(), p.tasks.len());
        for k in 0..n {
            while queues[k].len() < p.reveal as usize {
                let index = match p.strategy.as_str() {
                    "roundrobin" => (dealt[k] * n + k) % m,
                    "greedy" if *next < m => *next,
                    "roundrobin_fixed" if dealt[k] * n + k < m => dealt[k] * n + k,
                    _ => break,
                };
                dealt[k] += 1;
                *next += 1;
                queues[k].push_back(p.tasks[index][0]);
            }
        }
    }

    /// Counts the goals reached after the step to timestep `t` (2024: the schedule's changes
    /// at `t` first), then reveals or deals new tasks.
    fn after_moves(&mut self, p: &Problem, robots: &[Robot], t: usize) -> Result<(), String> {
        match self {
            Counter::Y2023 {
                queues, finished, ..
            } => {
                for (k, &(loc, _)) in robots.iter().enumerate() {
                    if queues[k].front() == Some(&loc) {
                        queues[k].pop_front();
                        *finished += 1;
                    }
                }
                self.deal(p);
            }
            Counter::Y2024 {
                schedule,
                pool,
                finished,
            } => {
                for &(a, k) in schedule.get(&t).map(Vec::as_slice).unwrap_or(&[]) {
                    if let Some(cur) = pool.holds[a]
                        && pool.open.get(&cur).is_some_and(|&d| d > 0)
                        && k != cur as i64
                    {
                        return Err(format!(
                            "timestep {t}: robot {a} leaves task {cur}, which it has begun"
                        ));
                    }
                    if k < 0 {
                        pool.holds[a] = None;
                        continue;
                    }
                    let k = k as usize;
                    if !pool.open.contains_key(&k) {
                        return Err(format!(
                            "timestep {t}: robot {a} is given task {k}, which is not open"
                        ));
                    }
                    if let Some(b) = pool
                        .holds
                        .iter()
                        .position(|&h| h == Some(k))
                        .filter(|&b| b != a)
                    {
                        if pool.open[&k] > 0 {
                            return Err(format!(
                                "timestep {t}: task {k}, begun by robot {b}, is given to robot {a}"
                            ));
                        }
                        pool.holds[b] = None;
                    }
                    pool.holds[a] = Some(k);
                }
                for (a, &(loc, _)) in robots.iter().enumerate() {
                    let Some(k) = pool.holds[a] else { continue };
                    let errands = &p.tasks[k % p.tasks.len()];
                    let done = pool.open[&k];
                    if errands[done] == loc {
                        if done + 1 == errands.len() {
                            pool.open.remove(&k);
                            pool.holds[a] = None;
                            *finished += 1;
                        } else {
                            pool.open.insert(k, done + 1);
                        }
                    }
                }
                pool.refill();
            }
            Counter::Unknown => {}
        }
        Ok(())
    }

    fn finished(&self) -> Option<u64> {
        match self {
            Counter::Y2023 { finished, .. } | Counter::Y2024 { finished, .. } => Some(*finished),
            Counter::Unknown => None,
        }
    }
}
