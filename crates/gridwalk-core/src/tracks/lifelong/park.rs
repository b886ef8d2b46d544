//! Parking: on crowded maps only some robots work; the others park where they stand.
//!
//! A parked robot is never given a task (2024) and its dealt tasks are hidden from the
//! planner (2023): it has no goal, so it prefers to stay, decides after every robot with a
//! goal, and is pushed aside like any robot without a task. Fewer robots on the move knot
//! less; parked robots only block. Only robots on open ground (all four neighbours free) park:
//! one parked in a corridor must be pushed out of it whole. With [`Parking::off_trunk`], robots
//! on the map's trunk ([`trunk`](super::trunk)), the cells with the most through-traffic,
//! work too: parked there, they narrow the passages every robot crosses (on brc202d 3,000
//! working robots jammed in one). WPPL, the 2023 winner, parks robots uniformly at random,
//! from a count set per map, optionally off a list of cells per map.

use super::State;
use super::schedule::Scheduler;
use crate::rng::{Draw, SeedableRng, SplitMix64};

/// How many robots work, and the draw that picks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parking {
    /// Robots that work; the rest park. At least the team size parks none.
    pub active: usize,
    /// The seed of the uniform draw of the working robots.
    pub seed: u64,
    /// Whether robots on the map's trunk work rather than park (see the module doc).
    pub off_trunk: bool,
}

/// The parked robots of one run, and the buffers that show the scheduler only the others.
pub(super) struct Parked {
    /// Per robot: whether it is parked.
    parked: Vec<bool>,
    /// The working robots, in index order.
    working: Vec<u32>,
    states: Vec<State>,
    goals: Vec<Option<u32>>,
}

impl Parked {
    /// Parks all but `parking.active` robots, drawn uniformly from those that `may_park`
    /// (fewer if fewer may); `None` when none parks.
    pub(super) fn new(
        robots: usize,
        parking: Parking,
        may_park: impl Fn(usize) -> bool,
    ) -> Option<Parked> {
        let mut ids: Vec<u32> = (0..robots as u32)
            .filter(|&a| may_park(a as usize))
            .collect();
        SplitMix64::seed_from_u64(parking.seed).shuffle(&mut ids);
        ids.truncate(robots.saturating_sub(parking.active));
        if ids.is_empty() {
            return None;
        }
        let mut parked = vec![false; robots];
        for &a in &ids {
            parked[a as usize] = true;
        }
        let working = (0..robots as u32)
            .filter(|&a| !parked[a as usize])
            .collect();
        Some(Parked {
            parked,
            working,
            states: Vec::new(),
            goals: Vec::new(),
        })
    }

    /// Takes the goals of parked robots away.
    pub(super) fn hide_goals(&self, goals: &mut [Option<u32>]) {
        for (g, &p) in goals.iter_mut().zip(&self.parked) {
            if p {
                *g = None;
            }
        }
    }

    /// `scheduler`'s schedule for the working robots alone; parked robots get no task.
    pub(super) fn schedule(
        &mut self,
        scheduler: &mut dyn Scheduler,
        states: &[State],
        goals: &mut [Option<u32>],
    ) -> Vec<Option<u64>> {
        self.states.clear();
        self.goals.clear();
        for &a in &self.working {
            self.states.push(states[a as usize]);
            self.goals.push(goals[a as usize]);
        }
        let some = scheduler.schedule(&self.states, &mut self.goals);
        let mut all = vec![None; states.len()];
        for (k, &a) in self.working.iter().enumerate() {
            all[a as usize] = some[k];
            goals[a as usize] = self.goals[k];
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(active: usize, seed: u64) -> Parking {
        Parking {
            active,
            seed,
            off_trunk: false,
        }
    }

    #[test]
    fn the_draw_parks_the_rest_and_hides_their_goals() {
        let all = |_| true;
        let p = Parked::new(10, draw(4, 3), all).unwrap();
        assert_eq!(p.parked.iter().filter(|&&x| x).count(), 6);
        let mut goals: Vec<Option<u32>> = (0..10).map(Some).collect();
        p.hide_goals(&mut goals);
        let kept: Vec<u32> = goals.iter().flatten().copied().collect();
        assert_eq!(kept, p.working);
        assert_eq!(kept.len(), 4);
        // Another seed draws other robots; all working parks none.
        let q = Parked::new(10, draw(4, 4), all).unwrap();
        assert_ne!(q.working, p.working);
        assert!(Parked::new(10, draw(10, 0), all).is_none());
        // Only those that may park do: here the odd ones, five of the six asked for.
        let r = Parked::new(10, draw(4, 3), |a| a % 2 == 1).unwrap();
        assert_eq!(r.working, [0, 2, 4, 6, 8]);
    }

    #[test]
    fn parked_robots_are_never_scheduled() {
        use super::super::GreedyScheduler;
        let grid = crate::grid::Grid::new(8, 1).unwrap();
        let mut s = GreedyScheduler::new(&grid);
        for (id, cell) in [(0u64, 7u32), (1, 6), (2, 5)] {
            s.reveal(id, &[cell]);
        }
        let states: Vec<State> = (0..4).map(|cell| State { cell, facing: 0 }).collect();
        let mut goals = vec![None; 4];
        let mut p = Parked::new(4, draw(2, 1), |_| true).unwrap();
        let schedule = p.schedule(&mut s, &states, &mut goals);
        for a in 0..4 {
            let parked = !p.working.contains(&(a as u32));
            assert_eq!(schedule[a].is_none(), parked, "robot {a}");
            assert_eq!(goals[a].is_none(), parked, "robot {a}");
        }
    }
}
