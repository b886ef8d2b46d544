//! [`KeepClear`]: the cells a robot without a goal walks out of, near the goals whose queue
//! is full.
//!
//! Under a queue bound (`queue.rs` in 2023, the matching scheduler's in 2024) only the
//! bound's nearest robots head for a goal cell that many want; the others wait without a
//! goal, decide last and are pushed aside. On warehouse_large those goals are the 352
//! emitters, most of them two to a pocket of twelve cells off the map's long edges, and the
//! waiting robots were pushed into the pockets and the rows beside them, where they shut the
//! emitters in (docs/benchmarks.md, "Keeping the emitters clear").
//!
//! Each step every cell within the radius (in moves) of a *full* goal (one that as many
//! robots head for as the bound lets through) gets a *heat*: the radius plus one, less its
//! distance from the nearest full goal; other cells have none. A robot without a goal prices
//! a cell at [`HEAT_ACTIONS`] actions a unit of heat, plus one action if it must move there
//! (`guided.rs`): it walks down the heat and out, and when pushed it steps away from the
//! goals. Outside the heat it stays unless pushed, as before.
//!
//! Cost: a count per robot and a breadth-first search from the full goals out to the radius,
//! O(robots + cells) a step.

use crate::grid::Grid;

use super::planner::ahead;

/// Actions a unit of heat costs a robot without a goal: on I-10's first 2,000 steps once
/// finished 49,671 tasks, twice 51,056 and four times 49,876 (docs/benchmarks.md).
pub(super) const HEAT_ACTIONS: u64 = 2;

/// The heat near full goals (see the module doc), made again each step.
#[derive(Clone, Debug)]
pub struct KeepClear {
    bound: u32,
    radius: u16,
    /// Per cell: its heat, and the robots heading for it.
    heat: Vec<u16>,
    heading: Vec<u32>,
    /// Scratch: one ring of the search and the next.
    ring: Vec<u32>,
    next: Vec<u32>,
}

impl KeepClear {
    /// Heat out to `radius` moves from every goal that `bound` robots (at least one) head
    /// for.
    pub fn new(bound: u32, radius: u16) -> KeepClear {
        KeepClear {
            bound: bound.max(1),
            radius,
            heat: Vec::new(),
            heading: Vec::new(),
            ring: Vec::new(),
            next: Vec::new(),
        }
    }

    /// Makes the heat again for robots heading for `goals` on `grid`.
    pub(super) fn update(&mut self, grid: &Grid, goals: &[Option<u32>]) {
        let len = grid.len();
        self.heat.clear();
        self.heat.resize(len, 0);
        self.heading.clear();
        self.heading.resize(len, 0);
        self.ring.clear();
        for &g in goals.iter().flatten() {
            let Some(count) = self.heading.get_mut(g as usize) else {
                continue;
            };
            *count += 1;
            if *count == self.bound && grid.weight(g as usize) != 0 {
                self.ring.push(g);
            }
        }
        let top = self.radius + 1;
        for &g in &self.ring {
            self.heat[g as usize] = top;
        }
        let (width, cells) = (grid.width(), len as u32);
        for d in 1..=self.radius {
            self.next.clear();
            for &c in &self.ring {
                for facing in 0..4 {
                    let Some(n) = ahead(c, facing, width, cells) else {
                        continue;
                    };
                    if grid.weight(n as usize) != 0 && self.heat[n as usize] == 0 {
                        self.heat[n as usize] = top - d;
                        self.next.push(n);
                    }
                }
            }
            std::mem::swap(&mut self.ring, &mut self.next);
        }
    }

    /// Cell `cell`'s heat this step: 0 beyond the radius.
    #[inline]
    pub(super) fn heat(&self, cell: u32) -> u16 {
        self.heat.get(cell as usize).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Pos, Terrain};

    /// A 7 × 1 corridor with a wall at cell 5.
    fn corridor() -> Grid {
        let mut grid = Grid::new(7, 1).unwrap();
        grid.set(Pos::new(5, 0), Terrain::Wall).unwrap();
        grid
    }

    #[test]
    fn heat_falls_with_the_distance_from_a_full_goal_and_stops_at_walls() {
        let grid = corridor();
        let mut clear = KeepClear::new(2, 2);
        // Two robots head for cell 3 (full), one for cell 0 (not full), one has no goal.
        clear.update(&grid, &[Some(3), Some(0), Some(3), None]);
        let heat: Vec<u16> = (0..7).map(|c| clear.heat(c)).collect();
        // Cell 3 itself 3, its neighbours 2, then 1; the wall at 5 keeps 6 out.
        assert_eq!(heat, [0, 1, 2, 3, 2, 0, 0]);
    }

    #[test]
    fn no_goal_is_full_below_the_bound() {
        let grid = corridor();
        let mut clear = KeepClear::new(3, 4);
        clear.update(&grid, &[Some(3), Some(3), Some(0), Some(0)]);
        assert!((0..7).all(|c| clear.heat(c) == 0));
        // A step later a third robot heads for 3: the heat comes, and goes again after.
        clear.update(&grid, &[Some(3), Some(3), Some(3), Some(0)]);
        assert_eq!(clear.heat(3), 5);
        clear.update(&grid, &[Some(3), Some(3), None, Some(0)]);
        assert_eq!(clear.heat(3), 0);
    }

    #[test]
    fn goals_off_the_map_or_on_walls_make_no_heat() {
        let grid = corridor();
        let mut clear = KeepClear::new(1, 3);
        clear.update(&grid, &[Some(5), Some(99)]);
        assert!((0..7).all(|c| clear.heat(c) == 0));
        assert_eq!(clear.heat(1000), 0, "a cell off the map has none");
    }
}
