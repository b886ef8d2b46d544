//! Distance tables over (cell, facing) for robots that turn (LoRR's `MAPF_T`): for a goal, the
//! fewest actions (forward, a 90° turn) from every state to any state on the goal's cell, by a
//! breadth-first search backwards on the state graph. Tables are made when a goal is first
//! asked for and kept until [`forget`](RotationTables::forget), two bytes a state, so a
//! lifelong run pays only for the goals it meets.

use std::collections::HashMap;

use crate::crowd::{RotationGuidance, ahead};
use crate::grid::Grid;

/// A table's value for a state from which the goal cannot be reached.
pub const ROTATION_UNREACHABLE: u16 = u16::MAX;

/// The largest cost a table holds: farther states read this (exact below it).
pub const ROTATION_CAP: u16 = u16::MAX - 1;

/// Exact (cell, facing) distance tables, one per goal, made on demand.
#[derive(Clone, Debug)]
pub struct RotationTables {
    grid: Grid,
    /// Per goal cell, its table: state `cell × 4 + facing`.
    tables: HashMap<u32, Box<[u16]>>,
    queue: Vec<u32>,
}

impl RotationTables {
    /// No tables yet, for robots on `grid` (copied: the tables hold for this grid only).
    pub fn new(grid: &Grid) -> RotationTables {
        RotationTables {
            grid: grid.clone(),
            tables: HashMap::new(),
            queue: Vec::new(),
        }
    }

    /// The grid the tables are searched on.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Makes `goal`'s table if it is not there yet. `goal` must be a passable cell.
    pub fn ensure(&mut self, goal: u32) -> Result<(), String> {
        let ok = (goal as usize) < self.grid.len() && self.grid.weight(goal as usize) != 0;
        if !ok {
            return Err(format!("goal {goal} is off the grid or a wall"));
        }
        if !self.tables.contains_key(&goal) {
            let table = self.search(goal);
            self.tables.insert(goal, table);
        }
        Ok(())
    }

    /// `goal`'s table, made if need be: the state `cell × 4 + facing`'s number of actions.
    pub fn table(&mut self, goal: u32) -> Result<&[u16], String> {
        self.ensure(goal)?;
        Ok(&self.tables[&goal])
    }

    /// The actions from `(cell, facing)` to `goal`, if its table is made:
    /// [`ROTATION_UNREACHABLE`] when there is no way.
    pub fn get(&self, goal: u32, cell: u32, facing: u8) -> Option<u16> {
        let t = self.tables.get(&goal)?;
        t.get(cell as usize * 4 + facing as usize).copied()
    }

    /// Drops `goal`'s table, if made.
    pub fn forget(&mut self, goal: u32) {
        self.tables.remove(&goal);
    }

    /// Keeps only the tables of goals for which `keep` says true.
    pub fn retain(&mut self, mut keep: impl FnMut(u32) -> bool) {
        self.tables.retain(|&g, _| keep(g));
    }

    /// The number of tables made and kept.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether no table is kept.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Bytes the tables hold.
    pub fn memory_bytes(&self) -> usize {
        self.tables.len() * (self.grid.len() * 4 * 2 + 16) + self.queue.capacity() * 4
    }

    /// Guidance for robots heading for `goals` (one per robot), making the missing tables.
    pub fn guidance<'a>(&'a mut self, goals: &[u32]) -> Result<ToGoals<'a>, String> {
        for &g in goals {
            self.ensure(g)?;
        }
        let tables = &self.tables;
        Ok(ToGoals {
            per_agent: goals.iter().map(|g| &tables[g][..]).collect(),
        })
    }

    /// The backward breadth-first search from every facing on `goal`: a state's predecessors
    /// are its two turns (each one action from them) and the state one cell behind it with
    /// the same facing, when that cell is passable.
    fn search(&mut self, goal: u32) -> Box<[u16]> {
        let grid = &self.grid;
        let mut dist = vec![ROTATION_UNREACHABLE; grid.len() * 4].into_boxed_slice();
        let queue = &mut self.queue;
        queue.clear();
        for f in 0..4 {
            dist[goal as usize * 4 + f] = 0;
            queue.push(goal * 4 + f as u32);
        }
        let mut head = 0;
        while let Some(&s) = queue.get(head) {
            head += 1;
            let d = dist[s as usize].saturating_add(1).min(ROTATION_CAP);
            let (c, o) = (s / 4, (s % 4) as u8);
            let behind = ahead(grid, c, (o + 2) % 4).filter(|&b| grid.weight(b as usize) != 0);
            let turns = [c * 4 + (o as u32 + 3) % 4, c * 4 + (o as u32 + 1) % 4];
            for p in turns.into_iter().chain(behind.map(|b| b * 4 + o as u32)) {
                let slot = &mut dist[p as usize];
                if *slot == ROTATION_UNREACHABLE {
                    *slot = d;
                    queue.push(p);
                }
            }
        }
        dist
    }
}

/// Robots' guidance from [`RotationTables`]: each robot's goal table.
#[derive(Clone, Debug)]
pub struct ToGoals<'a> {
    per_agent: Vec<&'a [u16]>,
}

impl RotationGuidance for ToGoals<'_> {
    #[inline]
    fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        match self.per_agent[agent][cell as usize * 4 + facing as usize] {
            ROTATION_UNREACHABLE => u64::MAX,
            d => d as u64,
        }
    }
}
