//! [`Near`]: each robot's guidance on its own cell and the four beside it, read from the
//! tables once a decision and then answered from one small array, for a decision that tries
//! several PIBT steps over the same guidance.
//!
//! A PIBT step over cells asks a robot's costs only on its cell and the cells beside it, and
//! each robot's table is its own: on warehouse_large a try read 10,000 tables, each in a few
//! places, one cache miss apiece, and a decision of ten tries read them ten times. Gathered
//! first (on every core), the tries read 160 bytes a robot that stay in the cache. The
//! answers are the tables' own, so the decision is the same.

use crate::crowd::{RotationGuidance, par};
use crate::grid::Grid;

/// Costs kept a robot: four facings on each of its cell and the four beside it.
const KEPT: usize = 5 * 4;

/// Robots below which gathering keeps to one thread.
const MIN_PER_THREAD: usize = 2_000;

/// A robot's costs as gathered: facing `f` on its cell at `f`, on the cell east, south, west
/// and north of it (flat indices `+1`, `+width`, `-1`, `-width`) at `4 + f`, `8 + f`, and on.
pub(super) type Gathered = [u64; KEPT];

/// `base` with each robot's costs near its cell answered from what was gathered.
pub(super) struct Near<'a, G> {
    base: &'a G,
    states: &'a [(u32, u8)],
    width: u32,
    kept: &'a [Gathered],
}

impl<'a, G: RotationGuidance + Sync> Near<'a, G> {
    /// Gathers, into `kept` (resized), every robot's costs near its cell in `states` on
    /// `grid` from `base`, and answers from them.
    pub(super) fn gather(
        base: &'a G,
        grid: &Grid,
        states: &'a [(u32, u8)],
        kept: &'a mut Vec<Gathered>,
    ) -> Near<'a, G> {
        let (width, cells) = (grid.width(), grid.len() as u32);
        kept.resize(states.len(), [u64::MAX; KEPT]);
        let jobs = (states.len() / MIN_PER_THREAD).clamp(1, par::threads());
        let size = states.len().div_ceil(jobs).max(1);
        let parts = kept.chunks_mut(size).enumerate();
        par::each(parts, |(j, part)| {
            for (i, out) in part.iter_mut().enumerate() {
                let agent = j * size + i;
                let here = states[agent].0;
                for (slot, cell) in near(here, width).into_iter().enumerate() {
                    let cell = cell.filter(|&c| c < cells);
                    for f in 0..4u8 {
                        out[slot * 4 + f as usize] =
                            cell.map_or(u64::MAX, |c| base.cost(agent, c, f));
                    }
                }
            }
        });
        Near {
            base,
            states,
            width,
            kept,
        }
    }
}

/// A cell and the cells east, south, west and north of it by flat index (`None` off the
/// index range; a row's last cell's east is the next row's first, as the tables would say).
fn near(here: u32, width: u32) -> [Option<u32>; 5] {
    [
        Some(here),
        here.checked_add(1),
        here.checked_add(width),
        here.checked_sub(1),
        here.checked_sub(width),
    ]
}

impl<G: RotationGuidance> RotationGuidance for Near<'_, G> {
    #[inline]
    fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        let step = cell.wrapping_sub(self.states[agent].0);
        let slot = match step {
            0 => 0,
            1 => 1,
            u32::MAX => 3,
            s if s == self.width => 2,
            s if s == self.width.wrapping_neg() => 4,
            _ => return self.base.cost(agent, cell, facing),
        };
        match self.kept[agent].get(slot * 4 + facing as usize) {
            Some(&c) if facing < 4 => c,
            _ => self.base.cost(agent, cell, facing),
        }
    }

    #[inline]
    fn action(&self) -> u64 {
        self.base.action()
    }

    #[inline]
    fn forward(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        self.base.forward(agent, cell, facing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Guidance that answers a made-up cost for every (agent, cell, facing).
    struct Made;

    impl RotationGuidance for Made {
        fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64 {
            (agent as u64 * 1_000_003) ^ (u64::from(cell) * 7 + u64::from(facing))
        }
    }

    #[test]
    fn every_answer_is_the_base_s_near_a_robot_and_beyond() {
        let grid = Grid::new(5, 4).unwrap();
        let cells = grid.len() as u32;
        // Robots in the corners, on the edges and inside; enough of them for two threads.
        let states: Vec<(u32, u8)> = (0..4_100u32).map(|a| (a % cells, (a % 4) as u8)).collect();
        let mut kept = Vec::new();
        let near = Near::gather(&Made, &grid, &states, &mut kept);
        for (a, &(here, _)) in states.iter().enumerate() {
            for cell in (0..cells).filter(|c| c.abs_diff(here) <= 6) {
                for f in 0..4 {
                    assert_eq!(
                        near.cost(a, cell, f),
                        Made.cost(a, cell, f),
                        "{a} {cell} {f}"
                    );
                }
            }
        }
    }
}
