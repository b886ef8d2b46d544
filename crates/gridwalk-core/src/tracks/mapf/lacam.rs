//! LaCAM (Okumura, AAAI 2023): a depth-first search over configurations whose successors are
//! generated lazily, one at a time, by PIBT under constraints. See the [module doc](super) for
//! why it is complete.

use std::collections::VecDeque;
use std::time::Duration;
use web_time::Instant;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;

use super::dist::DistanceTables;
use super::scatter::{self, Guide, Scatter};
use crate::crowd::{Crowd, NONE, Rule, StepError};
use crate::grid::{Connectivity, Grid};

/// How a search ended without a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsolved {
    /// The time limit passed.
    TimeLimit,
    /// The memory cap was reached: too many configurations kept.
    MemoryCap,
    /// Every configuration within the tick limit was explored (with no tick limit: the
    /// instance has no solution).
    Exhausted,
}

/// A search's limits and seed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    pub time: Duration,
    pub max_ticks: Option<u32>,
    pub memory: usize,
    pub seed: u64,
    /// The scatter's margin over each agent's shortest path; `None` for no scatter.
    pub scatter: Option<u32>,
}

/// A high-level node: a configuration, how it was reached, the PIBT priorities there, and the
/// queue of constraint nodes still to try from it.
struct Node {
    parent: u32,
    depth: u32,
    /// Agents on their goals.
    at_goal: u32,
    low: VecDeque<u32>,
}

/// A low-level (constraint) node: agent `who` must move to `cell`, on top of its parent's
/// constraints; `depth` constraints in all.
#[derive(Clone, Copy)]
struct Low {
    parent: u32,
    who: u32,
    cell: u32,
    depth: u32,
}

/// The search's outcome: the configurations from start to goal, or why there are none; and the
/// number of configurations kept.
pub(super) struct Outcome {
    pub plan: Result<Vec<Vec<u32>>, Unsolved>,
    pub configurations: usize,
}

/// The chance, as a fraction of 2⁶⁴, that a successor already kept is searched on again from
/// the top of the stack (lacam2 and lacam3 always do; the original LaCAM never does). On
/// random-32-32-20 one time in ten was both faster than either and as good as always (see
/// docs/benchmarks-mapf.md).
const REVISIT: u64 = u64::MAX / 10;

/// Bytes a kept configuration costs beside its agents' entries (node, hash slot, queue).
const NODE_OVERHEAD: usize = 96;

/// Runs LaCAM from `starts` to `goals` (flat cells, one per agent, distinct) on `grid`.
pub(super) fn search(
    grid: &Grid,
    conn: Connectivity,
    starts: &[u32],
    goals: &[u32],
    dist: &DistanceTables,
    limits: Limits,
) -> Outcome {
    let began = Instant::now();
    let n = starts.len();
    let mut rng = SplitMix64::seed_from_u64(limits.seed);
    let mut crowd = Crowd::new(grid, conn, Rule::default());
    // The scatter gets at most half the time, as in lacam3, and is left out when its memory
    // would not fit.
    let mut memory = limits.memory;
    let paths = limits.scatter.and_then(|margin| {
        let moves = (0..n).map(|i| (dist.get(i, starts[i] as usize) + margin + 1) as usize);
        let need = Scatter::bytes_needed(grid.len(), moves.sum());
        (need < memory / 2).then(|| {
            memory -= need;
            let deadline = began + limits.time / 2;
            scatter::build(grid, starts, goals, dist, margin, deadline, &mut rng)
        })
    });
    let mut pref = vec![NONE; n];
    // Arenas, n entries per node: configurations, priorities, orders.
    let mut configs: Vec<u32> = Vec::new();
    let mut prios: Vec<f32> = Vec::new();
    let mut orders: Vec<u32> = Vec::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut lows: Vec<Low> = vec![Low {
        parent: NONE,
        who: NONE,
        cell: NONE,
        depth: 0,
    }];
    let mut table = Table::new();
    let per_node = n * 12 + NODE_OVERHEAD;
    let mut bytes = 0usize;

    // The root: PIBT's first priorities, farthest agents first.
    configs.extend_from_slice(starts);
    prios.extend((0..n).map(|i| dist.get(i, starts[i] as usize) as f32 / n as f32));
    orders.extend(order_of(&prios[..]));
    let at_goal = (0..n).filter(|&i| starts[i] == goals[i]).count() as u32;
    nodes.push(Node {
        parent: NONE,
        depth: 0,
        at_goal,
        low: VecDeque::from([0]),
    });
    table.insert(hash(starts), 0);
    bytes += per_node;

    let mut open: Vec<u32> = vec![0];
    let mut fixed = vec![None; n];
    let mut cur = vec![0u32; n];
    let mut order = vec![0u32; n];
    let mut steps = 0u64;
    let finish = |nodes: &Vec<Node>, plan| Outcome {
        plan,
        configurations: nodes.len(),
    };
    while let Some(&h) = open.last() {
        steps += 1;
        if steps.is_multiple_of(64) && began.elapsed() >= limits.time {
            return finish(&nodes, Err(Unsolved::TimeLimit));
        }
        let hu = h as usize;
        if nodes[hu].at_goal as usize == n {
            let mut plan = Vec::new();
            let mut at = h;
            while at != NONE {
                let a = at as usize;
                plan.push(configs[a * n..(a + 1) * n].to_vec());
                at = nodes[a].parent;
            }
            plan.reverse();
            return finish(&nodes, Ok(plan));
        }
        if limits.max_ticks.is_some_and(|m| nodes[hu].depth >= m) {
            open.pop();
            continue;
        }
        let Some(c) = nodes[hu].low.pop_front() else {
            open.pop();
            continue;
        };
        cur.copy_from_slice(&configs[hu * n..(hu + 1) * n]);
        order.copy_from_slice(&orders[hu * n..(hu + 1) * n]);
        let low = lows[c as usize];
        if (low.depth as usize) < n {
            // Branch on the next agent in the order: each of its moves, shuffled.
            let who = order[low.depth as usize];
            let here = cur[who as usize];
            let mut cells = [here; 9];
            let mut k = 1;
            grid.for_each_neighbor(here as usize, conn, |m, _| {
                cells[k] = m as u32;
                k += 1;
            });
            for a in (1..k).rev() {
                let b = (rng.next_u64() % (a as u64 + 1)) as usize;
                cells.swap(a, b);
            }
            for &cell in &cells[..k] {
                nodes[hu].low.push_back(lows.len() as u32);
                lows.push(Low {
                    parent: c,
                    who,
                    cell,
                    depth: low.depth + 1,
                });
            }
            bytes += k * 20;
            if bytes > memory {
                return finish(&nodes, Err(Unsolved::MemoryCap));
            }
        }
        // The constraints of `c`, then PIBT for everyone else.
        let mut at = c;
        while lows[at as usize].depth > 0 {
            let l = lows[at as usize];
            fixed[l.who as usize] = Some(l.cell);
            at = l.parent;
        }
        let next = match &paths {
            Some(paths) => {
                for (i, p) in pref.iter_mut().enumerate() {
                    *p = paths.next(i, cur[i]);
                }
                let guide = Guide {
                    dist,
                    cur: &cur,
                    pref: &pref,
                };
                crowd.step(grid, &cur, &order, Some(&fixed), &guide, &mut rng)
            }
            None => crowd.step(grid, &cur, &order, Some(&fixed), dist, &mut rng),
        };
        let mut at = c;
        while lows[at as usize].depth > 0 {
            let l = lows[at as usize];
            fixed[l.who as usize] = None;
            at = l.parent;
        }
        let next = match next {
            Ok(next) => next,
            Err(StepError::Infeasible) => continue,
            Err(StepError::BadInput(why)) => unreachable!("LaCAM's own step input: {why}"),
        };
        let key = hash(next);
        if let Some(old) = table.find(key, next, &configs, n) {
            // Known: sometimes search on from there again (see REVISIT).
            if rng.next_u64() < REVISIT {
                if bytes.saturating_add(4) > memory {
                    return finish(&nodes, Err(Unsolved::MemoryCap));
                }
                bytes += 4;
                open.push(old);
            }
            continue;
        }
        if bytes.saturating_add(per_node) > memory {
            return finish(&nodes, Err(Unsolved::MemoryCap));
        }
        bytes += per_node;
        let id = nodes.len() as u32;
        let base = hu * n;
        let mut at_goal = 0;
        for i in 0..n {
            let p = prios[base + i];
            let on = next[i] == goals[i];
            at_goal += on as u32;
            prios.push(if on { p - p.floor() } else { p + 1.0 });
        }
        configs.extend_from_slice(next);
        let new_order = order_of(&prios[id as usize * n..]);
        orders.extend(new_order);
        nodes.push(Node {
            parent: h,
            depth: nodes[hu].depth + 1,
            at_goal,
            low: VecDeque::from([0]),
        });
        table.insert(key, id);
        open.push(id);
    }
    finish(&nodes, Err(Unsolved::Exhausted))
}

/// The agents by priority, highest first (ties by index).
fn order_of(prios: &[f32]) -> impl Iterator<Item = u32> {
    let mut order: Vec<u32> = (0..prios.len() as u32).collect();
    order.sort_by(|&a, &b| {
        prios[b as usize]
            .total_cmp(&prios[a as usize])
            .then(a.cmp(&b))
    });
    order.into_iter()
}

/// A configuration's hash: a multiply-and-rotate mix of each cell.
fn hash(config: &[u32]) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64;
    for &c in config {
        h = (h ^ c as u64)
            .wrapping_mul(0xBF58_476D_1CE4_E5B9)
            .rotate_left(27);
    }
    h ^ (h >> 31)
}

/// The kept configurations by hash: open addressing over node ids, at most half full.
struct Table {
    slots: Vec<u32>,
    hashes: Vec<u64>,
    len: usize,
}

impl Table {
    fn new() -> Table {
        Table {
            slots: vec![NONE; 1024],
            hashes: Vec::new(),
            len: 0,
        }
    }

    fn find(&self, key: u64, config: &[u32], configs: &[u32], n: usize) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut s = key as usize & mask;
        loop {
            let id = self.slots[s];
            if id == NONE {
                return None;
            }
            let i = id as usize;
            if self.hashes[i] == key && configs[i * n..(i + 1) * n] == *config {
                return Some(id);
            }
            s = (s + 1) & mask;
        }
    }

    /// Adds node `id` (the next id) under `key`.
    fn insert(&mut self, key: u64, id: u32) {
        debug_assert_eq!(id as usize, self.hashes.len());
        self.hashes.push(key);
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            let bigger = self.slots.len() * 2;
            self.slots = vec![NONE; bigger];
            for i in 0..self.hashes.len() {
                self.place(self.hashes[i], i as u32);
            }
        } else {
            self.place(key, id);
        }
    }

    /// Puts node `id` in the first free slot from its hash's.
    fn place(&mut self, key: u64, id: u32) {
        let mask = self.slots.len() - 1;
        let mut s = key as usize & mask;
        while self.slots[s] != NONE {
            s = (s + 1) & mask;
        }
        self.slots[s] = id;
    }
}
