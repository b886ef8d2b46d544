//! Guidance with traffic rules: distance tables over (cell, facing) where each forward move
//! has its own cost ([`EdgeCosts`]), so that robots prefer some directions on some cells.
//!
//! [`EdgeCosts::highways`] sets the rule the congestion-aware planners use on small maps:
//! every row and every column is a one-way street in preference, the rows alternating east
//! and west, the columns south and north, and going against a street's way costs more. Two
//! robots that follow the rule never meet head-on in a row or a column, so corridors do not
//! knot; they may still go against it where that saves more than it costs.
//!
//! [`WeightedTables`] holds one table a goal, made on demand by Dijkstra backwards from the
//! goal's four states (a turn costs [`EdgeCosts::turn`]), two bytes a state of a passable
//! cell (costs above [`WEIGHTED_CAP`] read as it), held to a memory budget like
//! [`RotationTables`](crate::mapf::RotationTables).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use crate::crowd::RotationGuidance;
use crate::grid::Grid;

/// A table's value for a state from which the goal cannot be reached.
pub const WEIGHTED_UNREACHABLE: u16 = u16::MAX;

/// The largest cost a table holds: dearer states read this (exact below it).
pub const WEIGHTED_CAP: u16 = u16::MAX - 1;

/// What each action costs on a grid: a forward move by its cell and facing, a turn alike
/// everywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeCosts {
    /// Per cell and facing (`cell × 4 + facing`): the cost of moving forward from it.
    pub forward: Vec<u16>,
    /// The cost of a quarter turn.
    pub turn: u16,
}

impl EdgeCosts {
    /// Every action costs one: the plain tables.
    pub fn uniform(grid: &Grid) -> EdgeCosts {
        EdgeCosts {
            forward: vec![1; grid.len() * 4],
            turn: 1,
        }
    }

    /// One-way streets in preference (see the module doc): a move with its row's or
    /// column's way costs `with`, one against it `against`. Even rows go east, odd rows west;
    /// even columns go south, odd columns north.
    pub fn highways(grid: &Grid, with: u16, against: u16) -> EdgeCosts {
        let w = grid.width() as usize;
        let mut forward = vec![with; grid.len() * 4];
        for c in 0..grid.len() {
            let (x, y) = (c % w, c / w);
            let east = y % 2 == 0;
            let south = x % 2 == 0;
            for f in 0..4 {
                let follows = match f {
                    0 => east,
                    2 => !east,
                    1 => south,
                    _ => !south,
                };
                forward[c * 4 + f] = if follows { with } else { against };
            }
        }
        EdgeCosts {
            forward,
            turn: with,
        }
    }
}

/// Weighted (cell, facing) tables, one a goal, made on demand (see the module doc).
#[derive(Clone, Debug)]
pub struct WeightedTables {
    grid: Grid,
    costs: EdgeCosts,
    /// Per cell: its rank among the passable cells, or `u32::MAX` for a wall.
    rank: Vec<u32>,
    free: usize,
    /// Per goal: its table, `rank × 4 + facing`.
    tables: HashMap<u32, Box<[u16]>>,
    /// The search's buffers: costs by `cell × 4 + facing`, and its queue.
    dist: Vec<u32>,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
}

impl WeightedTables {
    /// No tables yet, for `grid` with action costs `costs`.
    pub fn new(grid: &Grid, costs: EdgeCosts) -> WeightedTables {
        let mut free = 0;
        let rank = (0..grid.len())
            .map(|c| {
                if grid.weight(c) == 0 {
                    return u32::MAX;
                }
                free += 1;
                free as u32 - 1
            })
            .collect();
        WeightedTables {
            grid: grid.clone(),
            costs,
            rank,
            free,
            tables: HashMap::new(),
            dist: Vec::new(),
            heap: BinaryHeap::new(),
        }
    }

    /// The action costs the tables are made with.
    pub fn costs(&self) -> &EdgeCosts {
        &self.costs
    }

    /// Replaces the action costs; every table is dropped.
    pub fn set_costs(&mut self, costs: EdgeCosts) {
        self.costs = costs;
        self.tables.clear();
    }

    /// Makes `goal`'s table if it is not there yet. `goal` must be a passable cell.
    pub fn ensure(&mut self, goal: u32) -> Result<(), String> {
        let ok = (goal as usize) < self.grid.len() && self.grid.weight(goal as usize) != 0;
        if !ok {
            return Err(format!("goal {goal} is off the grid or a wall"));
        }
        if !self.tables.contains_key(&goal) {
            let t = self.search(goal);
            self.tables.insert(goal, t);
        }
        Ok(())
    }

    /// The cost from `(cell, facing)` to `goal`, if its table is made and the state is on
    /// the grid: [`WEIGHTED_UNREACHABLE`] when there is no way (from a wall too).
    pub fn get(&self, goal: u32, cell: u32, facing: u8) -> Option<u16> {
        let t = self.tables.get(&goal)?;
        let r = *self.rank.get(cell as usize)?;
        if facing > 3 {
            return None;
        }
        Some(match r {
            u32::MAX => WEIGHTED_UNREACHABLE,
            r => t[r as usize * 4 + facing as usize],
        })
    }

    /// Bytes the tables hold, with the search's buffers and the action costs.
    pub fn memory_bytes(&self) -> usize {
        self.tables.len() * (self.free * 8 + 16)
            + (self.rank.capacity() + self.dist.capacity()) * 4
            + self.costs.forward.len() * 2
    }

    /// Keeps only the tables of goals for which `keep` says true.
    pub fn retain(&mut self, mut keep: impl FnMut(u32) -> bool) {
        self.tables.retain(|&g, _| keep(g));
    }

    /// Guidance for robots heading for `goals` (one per robot), making the missing tables.
    pub fn guidance<'a>(&'a mut self, goals: &[u32]) -> Result<WeightedGoals<'a>, String> {
        for &g in goals {
            self.ensure(g)?;
        }
        let tables = &self.tables;
        Ok(WeightedGoals {
            rank: &self.rank,
            per_agent: goals.iter().map(|g| &tables[g][..]).collect(),
            costs: &self.costs,
        })
    }

    /// As [`guidance`](Self::guidance), but a robot without a goal (`None`) gets no table:
    /// every state reads as unreachable for it, and no search is made for it.
    pub fn guidance_or_none<'a>(
        &'a mut self,
        goals: &[Option<u32>],
    ) -> Result<WeightedGoals<'a>, String> {
        for &g in goals.iter().flatten() {
            self.ensure(g)?;
        }
        Ok(WeightedGoals {
            rank: &self.rank,
            per_agent: crate::mapf::tables_of(&self.tables, goals),
            costs: &self.costs,
        })
    }

    /// Dijkstra backwards from the goal's four states.
    fn search(&mut self, goal: u32) -> Box<[u16]> {
        let grid = &self.grid;
        let n = grid.len();
        let w = grid.width();
        let dist = &mut self.dist;
        dist.clear();
        dist.resize(n * 4, u32::MAX);
        let heap = &mut self.heap;
        heap.clear();
        for f in 0..4u32 {
            dist[(goal * 4 + f) as usize] = 0;
            heap.push(Reverse((0, goal * 4 + f)));
        }
        let turn = u32::from(self.costs.turn);
        while let Some(Reverse((d, s))) = heap.pop() {
            if d != dist[s as usize] {
                continue;
            }
            let (c, o) = (s / 4, s % 4);
            // Predecessors: the two turns into (c, o), and the cell behind moving forward.
            let mut relax = |p: u32, cost: u32| {
                let nd = d + cost;
                if nd < dist[p as usize] {
                    dist[p as usize] = nd;
                    heap.push(Reverse((nd, p)));
                }
            };
            relax(c * 4 + (o + 1) % 4, turn);
            relax(c * 4 + (o + 3) % 4, turn);
            let (x, y) = (c % w, c / w);
            let behind = match o {
                0 => (x > 0).then(|| c - 1),
                1 => (y > 0).then(|| c - w),
                2 => (x + 1 < w).then(|| c + 1),
                _ => (c + w < n as u32).then(|| c + w),
            };
            if let Some(b) = behind.filter(|&b| grid.weight(b as usize) != 0) {
                relax(
                    b * 4 + o,
                    u32::from(self.costs.forward[(b * 4 + o) as usize]),
                );
            }
        }
        let mut table = vec![WEIGHTED_UNREACHABLE; self.free * 4].into_boxed_slice();
        for (c, &r) in self.rank.iter().enumerate() {
            if r == u32::MAX {
                continue;
            }
            for f in 0..4 {
                let d = dist[c * 4 + f];
                if d != u32::MAX {
                    table[r as usize * 4 + f] = d.min(u32::from(WEIGHTED_CAP)) as u16;
                }
            }
        }
        table
    }
}

/// Robots' guidance from [`WeightedTables`]: each robot's goal table.
#[derive(Clone, Debug)]
pub struct WeightedGoals<'a> {
    rank: &'a [u32],
    per_agent: Vec<&'a [u16]>,
    costs: &'a EdgeCosts,
}

impl super::spacetime::WindowGuidance for WeightedGoals<'_> {
    #[inline]
    fn action_cost(&self, (c, f): (u32, u8), act: crate::crowd::Action) -> u64 {
        use crate::crowd::Action::*;
        u64::from(match act {
            Forward => self.costs.forward[c as usize * 4 + f as usize],
            // Waiting takes a timestep, as a turn does.
            Clockwise | CounterClockwise | Wait => self.costs.turn,
        })
    }
}

impl RotationGuidance for WeightedGoals<'_> {
    #[inline]
    fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        let r = self.rank[cell as usize];
        if r == u32::MAX {
            return u64::MAX;
        }
        // A robot without a table (see `guidance_or_none`) reads nothing.
        match self.per_agent[agent].get(r as usize * 4 + facing as usize) {
            None | Some(&WEIGHTED_UNREACHABLE) => u64::MAX,
            Some(&d) => u64::from(d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapf::RotationTables;

    #[test]
    fn uniform_costs_give_the_exact_tables() {
        let mut grid = Grid::new(7, 5).unwrap();
        for c in [8u32, 9, 10, 17, 24, 25] {
            grid.set(
                crate::grid::Pos::new(c % 7, c / 7),
                crate::grid::Terrain::Wall,
            )
            .unwrap();
        }
        let mut exact = RotationTables::new(&grid);
        let mut weighted = WeightedTables::new(&grid, EdgeCosts::uniform(&grid));
        for goal in [0u32, 13, 34] {
            weighted.ensure(goal).unwrap();
            for c in 0..35u32 {
                for f in 0..4u8 {
                    let e = exact.distance(goal, c, f).unwrap();
                    let w = weighted.get(goal, c, f).unwrap();
                    if grid.weight(c as usize) == 0 {
                        continue;
                    }
                    assert_eq!(e, w, "goal {goal}, cell {c}, facing {f}");
                }
            }
        }
    }

    #[test]
    fn a_robot_without_a_goal_gets_no_table_and_reads_unreachable() {
        use crate::crowd::RotationGuidance;
        let grid = Grid::new(6, 4).unwrap();
        let goals = [Some(3u32), None, Some(20)];
        let mut exact = RotationTables::new(&grid);
        let mut weighted = WeightedTables::new(&grid, EdgeCosts::uniform(&grid));
        let e = exact.guidance_or_none(&goals).unwrap();
        let w = weighted.guidance_or_none(&goals).unwrap();
        for c in 0..24u32 {
            for f in 0..4u8 {
                assert_eq!(e.cost(1, c, f), u64::MAX);
                assert_eq!(w.cost(1, c, f), u64::MAX);
                assert_eq!(e.cost(0, c, f), w.cost(0, c, f));
                assert_eq!(e.cost(2, c, f), w.cost(2, c, f));
            }
        }
        assert_eq!(e.cost(0, 3, 0), 0);
        // Only the two goals were searched.
        assert_eq!(exact.len(), 2);
        assert_eq!(weighted.tables.len(), 2);
    }

    #[test]
    fn highways_make_the_wrong_way_dearer_and_never_cheaper() {
        let grid = Grid::new(6, 6).unwrap();
        let costs = EdgeCosts::highways(&grid, 1, 3);
        // Row 0 goes east: from cell 0 to 5 facing east is 5 either way; from 5 to 0 facing
        // west, the wrong way, it is dearer than by the odd row below and back.
        let mut t = WeightedTables::new(&grid, costs);
        t.ensure(5).unwrap();
        assert_eq!(t.get(5, 0, 0), Some(5));
        t.ensure(0).unwrap();
        let back = t.get(0, 5, 2).unwrap();
        assert!(back > 5 && back < 15, "{back}");
        let mut plain = WeightedTables::new(&grid, EdgeCosts::uniform(&grid));
        for goal in 0..36u32 {
            t.ensure(goal).unwrap();
            plain.ensure(goal).unwrap();
            for s in 0..36 * 4u32 {
                let (c, f) = (s / 4, (s % 4) as u8);
                let (a, b) = (t.get(goal, c, f).unwrap(), plain.get(goal, c, f).unwrap());
                assert!(
                    a >= b && a <= 3 * b,
                    "goal {goal}, state {s}: {a} against {b}"
                );
            }
        }
    }
}
