//! An independent MAPF plan validator, written apart from the solver: it reads lacam3's result
//! text, checks every move against its own move rule (4 or 8 moves, no corner cutting), every
//! step for vertex conflicts, swaps and crossing diagonals, and recomputes the figures with its
//! own breadth-first search. The CLI's tests include this file too.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet, VecDeque};

use gridwalk_core::{Connectivity, Grid, Pos};

/// A parsed result file: its keys, starts, goals and plan (cells as (x, y)).
#[derive(Debug)]
pub struct ResultFile {
    pub keys: HashMap<String, String>,
    pub starts: Vec<(i64, i64)>,
    pub goals: Vec<(i64, i64)>,
    pub plan: Vec<Vec<(i64, i64)>>,
}

impl ResultFile {
    /// Key `k` as a number; panics naming it when missing.
    pub fn num(&self, k: &str) -> u64 {
        self.keys
            .get(k)
            .unwrap_or_else(|| panic!("no key {k}"))
            .parse()
            .unwrap_or_else(|_| panic!("key {k} is not a number"))
    }
}

/// `(x,y),(x,y),...,` as cells.
fn cells(s: &str) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for part in s.split("),") {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let inner = part.trim_start_matches('(').trim_end_matches(')');
        let (x, y) = inner.split_once(',').expect("a cell is (x,y)");
        out.push((x.parse().unwrap(), y.parse().unwrap()));
    }
    out
}

/// Parses lacam3's result format.
pub fn parse(text: &str) -> ResultFile {
    let mut keys = HashMap::new();
    let (mut starts, mut goals, mut plan) = (Vec::new(), Vec::new(), Vec::new());
    let mut in_solution = false;
    for line in text.lines() {
        if in_solution {
            let (t, rest) = line.split_once(':').expect("a solution line is t:cells");
            assert_eq!(
                t.parse::<usize>().unwrap(),
                plan.len(),
                "timesteps in order"
            );
            plan.push(cells(rest));
            continue;
        }
        let (k, v) = line.split_once('=').expect("a key=value line");
        match k {
            "starts" => starts = cells(v),
            "goals" => goals = cells(v),
            "solution" => in_solution = true,
            _ => {
                keys.insert(k.to_owned(), v.to_owned());
            }
        }
    }
    ResultFile {
        keys,
        starts,
        goals,
        plan,
    }
}

fn passable(grid: &Grid, (x, y): (i64, i64)) -> bool {
    x >= 0 && y >= 0 && grid.is_passable(Pos::new(x as u32, y as u32))
}

/// Whether `a` to `b` is one legal move (not a wait) under `conn`.
pub fn legal_move(grid: &Grid, conn: Connectivity, a: (i64, i64), b: (i64, i64)) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if !passable(grid, a) || !passable(grid, b) || dx.abs() > 1 || dy.abs() > 1 {
        return false;
    }
    match (dx != 0, dy != 0) {
        (true, true) => {
            conn == Connectivity::Eight
                && passable(grid, (a.0 + dx, a.1))
                && passable(grid, (a.0, a.1 + dy))
        }
        (false, false) => false,
        _ => true,
    }
}

/// Each passable cell's number of moves to `goal`, by this file's own BFS.
pub fn bfs(grid: &Grid, conn: Connectivity, goal: (i64, i64)) -> HashMap<(i64, i64), u64> {
    let mut dist = HashMap::from([(goal, 0)]);
    let mut queue = VecDeque::from([goal]);
    while let Some(c) = queue.pop_front() {
        let d = dist[&c];
        for dy in -1..=1 {
            for dx in -1..=1 {
                let m = (c.0 + dx, c.1 + dy);
                if legal_move(grid, conn, c, m) && !dist.contains_key(&m) {
                    dist.insert(m, d + 1);
                    queue.push_back(m);
                }
            }
        }
    }
    dist
}

/// The figures of a valid plan.
#[derive(Debug, PartialEq, Eq)]
pub struct Figures {
    pub soc: u64,
    pub makespan: u64,
    pub sum_of_loss: u64,
}

/// Checks one step from `a` to `b` (configurations): legal moves or waits, no vertex conflict,
/// no swap, no crossing diagonals.
pub fn check_step(
    grid: &Grid,
    conn: Connectivity,
    a: &[(i64, i64)],
    b: &[(i64, i64)],
) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} agents, then {}", a.len(), b.len()));
    }
    let mut seen = HashMap::new();
    for (i, (&p, &q)) in a.iter().zip(b).enumerate() {
        if p != q && !legal_move(grid, conn, p, q) {
            return Err(format!("agent {i}: {p:?} to {q:?} is not a move"));
        }
        if !passable(grid, q) {
            return Err(format!("agent {i} on {q:?}, not passable"));
        }
        if let Some(j) = seen.insert(q, i) {
            return Err(format!("agents {j} and {i} both on {q:?}"));
        }
    }
    let moves: HashSet<((i64, i64), (i64, i64))> = a
        .iter()
        .zip(b)
        .filter(|(p, q)| p != q)
        .map(|(&p, &q)| (p, q))
        .collect();
    for &(p, q) in &moves {
        if moves.contains(&(q, p)) {
            return Err(format!("swap between {p:?} and {q:?}"));
        }
        if p.0 != q.0 && p.1 != q.1 {
            let (c, d) = ((q.0, p.1), (p.0, q.1));
            if moves.contains(&(c, d)) || moves.contains(&(d, c)) {
                return Err(format!("crossing diagonals at {p:?}→{q:?}"));
            }
        }
    }
    Ok(())
}

/// Checks a whole plan from `starts` to `goals` and recomputes its figures.
pub fn check_plan(
    grid: &Grid,
    conn: Connectivity,
    starts: &[(i64, i64)],
    goals: &[(i64, i64)],
    plan: &[Vec<(i64, i64)>],
) -> Result<Figures, String> {
    let first = plan.first().ok_or("an empty plan")?;
    if first.as_slice() != starts {
        return Err("the plan does not begin at the starts".into());
    }
    if plan.last().unwrap().as_slice() != goals {
        return Err("the plan does not end at the goals".into());
    }
    for (t, w) in plan.windows(2).enumerate() {
        check_step(grid, conn, &w[0], &w[1]).map_err(|e| format!("step {t}→{}: {e}", t + 1))?;
    }
    let (mut soc, mut makespan, mut sum_of_loss) = (0, 0, 0);
    for (i, &g) in goals.iter().enumerate() {
        let arrive = (0..plan.len())
            .rev()
            .take_while(|&t| plan[t][i] == g)
            .last()
            .unwrap() as u64;
        soc += arrive;
        makespan = makespan.max(arrive);
        sum_of_loss += (1..plan.len())
            .filter(|&t| !(plan[t - 1][i] == g && plan[t][i] == g))
            .count() as u64;
    }
    Ok(Figures {
        soc,
        makespan,
        sum_of_loss,
    })
}

/// Checks a result file's text for the instance: agents, starts, goals, the plan, every figure
/// and lower bound. Returns the parsed file.
pub fn check_result(
    text: &str,
    grid: &Grid,
    conn: Connectivity,
    starts: &[Pos],
    goals: &[Pos],
) -> ResultFile {
    let r = parse(text);
    let xy =
        |ps: &[Pos]| -> Vec<(i64, i64)> { ps.iter().map(|p| (p.x as i64, p.y as i64)).collect() };
    let (starts, goals) = (xy(starts), xy(goals));
    assert_eq!(r.num("agents"), starts.len() as u64);
    assert_eq!(r.starts, starts, "starts");
    assert_eq!(r.goals, goals, "goals");
    let (mut lb_sum, mut lb_max) = (0, 0);
    for (s, g) in starts.iter().zip(&goals) {
        let d = bfs(grid, conn, *g)[s];
        lb_sum += d;
        lb_max = lb_max.max(d);
    }
    assert_eq!(r.num("soc_lb"), lb_sum, "soc_lb");
    assert_eq!(r.num("sum_of_loss_lb"), lb_sum, "sum_of_loss_lb");
    assert_eq!(r.num("makespan_lb"), lb_max, "makespan_lb");
    for k in ["map_file", "solver", "comp_time", "seed"] {
        assert!(r.keys.contains_key(k), "key {k}");
    }
    if r.num("solved") == 1 {
        let f = check_plan(grid, conn, &starts, &goals, &r.plan).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.num("soc"), f.soc, "soc");
        assert_eq!(r.num("makespan"), f.makespan, "makespan");
        assert_eq!(r.num("sum_of_loss"), f.sum_of_loss, "sum_of_loss");
        assert!(f.soc >= lb_sum && f.makespan >= lb_max);
    } else {
        assert_eq!(r.num("solved"), 0);
        assert!(r.plan.is_empty());
    }
    r
}
