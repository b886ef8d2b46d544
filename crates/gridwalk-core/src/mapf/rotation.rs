//! Distance tables over (cell, facing) for robots that turn (LoRR's `MAPF_T`): for a goal, the
//! fewest actions (forward, a 90° turn) from every state to any state on the goal's cell, by a
//! breadth-first search backwards on the state graph. Tables are made when a goal is first
//! asked for and kept until [`forget`](RotationTables::forget), two bytes a state of a
//! passable cell (walls take no room), so a lifelong run pays only for the goals it meets.

use std::collections::HashMap;

use crate::crowd::{NONE, RotationGuidance, ahead};
use crate::grid::Grid;

/// A table's value for a state from which the goal cannot be reached.
pub const ROTATION_UNREACHABLE: u16 = u16::MAX;

/// The largest cost a table holds: farther states read this (exact below it).
pub const ROTATION_CAP: u16 = u16::MAX - 1;

/// Exact (cell, facing) distance tables, one per goal, made on demand.
#[derive(Clone, Debug)]
pub struct RotationTables {
    grid: Grid,
    /// Per cell: its rank among the passable cells, or [`NONE`] for a wall.
    rank: Vec<u32>,
    /// Per goal cell, its table: state `rank × 4 + facing`.
    tables: HashMap<u32, Box<[u16]>>,
    queue: Vec<u32>,
}

impl RotationTables {
    /// No tables yet, for robots on `grid` (copied: the tables hold for this grid only).
    pub fn new(grid: &Grid) -> RotationTables {
        let mut free = 0;
        let rank = (0..grid.len())
            .map(|c| {
                if grid.weight(c) == 0 {
                    return NONE;
                }
                free += 1;
                free - 1
            })
            .collect();
        RotationTables {
            grid: grid.clone(),
            rank,
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

    /// The actions from `(cell, facing)` to `goal`, making its table if need be:
    /// [`ROTATION_UNREACHABLE`] when there is no way (from a wall too).
    pub fn distance(&mut self, goal: u32, cell: u32, facing: u8) -> Result<u16, String> {
        self.ensure(goal)?;
        Ok(self.get(goal, cell, facing).unwrap_or(ROTATION_UNREACHABLE))
    }

    /// The actions from `(cell, facing)` to `goal`, if its table is made and the state is on
    /// the grid: [`ROTATION_UNREACHABLE`] when there is no way (from a wall too).
    pub fn get(&self, goal: u32, cell: u32, facing: u8) -> Option<u16> {
        let t = self.tables.get(&goal)?;
        let r = *self.rank.get(cell as usize)?;
        if facing > 3 {
            return None;
        }
        Some(match r {
            NONE => ROTATION_UNREACHABLE,
            r => t[r as usize * 4 + facing as usize],
        })
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

    /// The bytes one table takes: two a state, four states a passable cell.
    pub fn table_bytes(&self) -> usize {
        self.free() * 4 * 2
    }

    /// Bytes the tables hold, with the cell ranks and the search's queue.
    pub fn memory_bytes(&self) -> usize {
        self.tables.len() * (self.table_bytes() + 16)
            + (self.rank.capacity() + self.queue.capacity()) * 4
    }

    /// The number of passable cells.
    fn free(&self) -> usize {
        self.rank.iter().filter(|&&r| r != NONE).count()
    }

    /// `goal`'s table, if made: one robot's guidance read without a lookup by goal.
    pub fn to_goal(&self, goal: u32) -> Option<ToGoal<'_>> {
        Some(ToGoal {
            rank: &self.rank,
            table: self.tables.get(&goal)?,
        })
    }

    /// Guidance for robots heading for `goals` (one per robot), making the missing tables.
    pub fn guidance<'a>(&'a mut self, goals: &[u32]) -> Result<ToGoals<'a>, String> {
        for &g in goals {
            self.ensure(g)?;
        }
        let tables = &self.tables;
        Ok(ToGoals {
            rank: &self.rank,
            per_agent: goals.iter().map(|g| &tables[g][..]).collect(),
        })
    }

    /// As [`guidance`](Self::guidance), but a robot without a goal (`None`) gets no table:
    /// every state reads as unreachable for it, and no search is made for it.
    pub fn guidance_or_none<'a>(
        &'a mut self,
        goals: &[Option<u32>],
    ) -> Result<ToGoals<'a>, String> {
        for &g in goals.iter().flatten() {
            self.ensure(g)?;
        }
        Ok(ToGoals {
            rank: &self.rank,
            per_agent: tables_of(&self.tables, goals),
        })
    }

    /// The backward breadth-first search from every facing on `goal`: a state's predecessors
    /// are its two turns (each one action from them) and the state one cell behind it with
    /// the same facing, when that cell is passable.
    fn search(&mut self, goal: u32) -> Box<[u16]> {
        let (grid, rank) = (&self.grid, &self.rank);
        let mut dist = vec![ROTATION_UNREACHABLE; self.free() * 4].into_boxed_slice();
        // The queue holds states as `cell × 4 + facing`; the table is indexed by rank.
        let at = |s: u32| (rank[(s / 4) as usize] * 4 + s % 4) as usize;
        let queue = &mut self.queue;
        queue.clear();
        for f in 0..4 {
            dist[at(goal * 4 + f)] = 0;
            queue.push(goal * 4 + f);
        }
        let mut head = 0;
        while let Some(&s) = queue.get(head) {
            head += 1;
            let d = dist[at(s)].saturating_add(1).min(ROTATION_CAP);
            let (c, o) = (s / 4, (s % 4) as u8);
            let behind = ahead(grid, c, (o + 2) % 4).filter(|&b| rank[b as usize] != NONE);
            let turns = [c * 4 + (o as u32 + 3) % 4, c * 4 + (o as u32 + 1) % 4];
            for p in turns.into_iter().chain(behind.map(|b| b * 4 + o as u32)) {
                let slot = &mut dist[at(p)];
                if *slot == ROTATION_UNREACHABLE {
                    *slot = d;
                    queue.push(p);
                }
            }
        }
        dist
    }
}

/// Each robot's table in `tables` (made for every goal in `goals`), an empty one for a robot
/// without a goal.
pub(crate) fn tables_of<'a>(
    tables: &'a HashMap<u32, Box<[u16]>>,
    goals: &[Option<u32>],
) -> Vec<&'a [u16]> {
    (goals.iter())
        .map(|g| g.map_or(&[][..], |g| &tables[&g][..]))
        .collect()
}

/// One goal's table from [`RotationTables::to_goal`].
#[derive(Clone, Copy, Debug)]
pub struct ToGoal<'a> {
    rank: &'a [u32],
    table: &'a [u16],
}

impl ToGoal<'_> {
    /// The actions from `(cell, facing)` to the goal: `u64::MAX` when there is no way, or
    /// the state is a wall or off the grid.
    #[inline]
    pub fn cost(&self, cell: u32, facing: u8) -> u64 {
        match self.rank.get(cell as usize) {
            Some(&r) if r != NONE && facing < 4 => {
                match self.table[r as usize * 4 + facing as usize] {
                    ROTATION_UNREACHABLE => u64::MAX,
                    d => u64::from(d),
                }
            }
            _ => u64::MAX,
        }
    }

    /// Hints the cache at `cell`'s entries.
    #[inline]
    pub fn prefetch(&self, cell: u32) {
        if let Some(&r) = self.rank.get(cell as usize)
            && r != NONE
        {
            crate::prefetch::prefetch(self.table, r as usize * 4);
        }
    }
}

/// Robots' guidance from [`RotationTables`]: each robot's goal table.
#[derive(Clone, Debug)]
pub struct ToGoals<'a> {
    rank: &'a [u32],
    per_agent: Vec<&'a [u16]>,
}

impl RotationGuidance for ToGoals<'_> {
    #[inline]
    fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        let r = self.rank[cell as usize];
        if r == NONE {
            return u64::MAX;
        }
        // A robot without a table (see `guidance_or_none`) reads nothing.
        match self.per_agent[agent].get(r as usize * 4 + facing as usize) {
            None | Some(&ROTATION_UNREACHABLE) => u64::MAX,
            Some(&d) => d as u64,
        }
    }

    #[inline]
    fn prefetch(&self, agent: usize, cell: u32) {
        if let Some(&r) = self.rank.get(cell as usize)
            && r != NONE
        {
            crate::prefetch::prefetch(self.per_agent[agent], r as usize * 4);
        }
    }
}
