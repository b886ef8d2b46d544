//! [`GoalQueue`]: a bound on the robots that head for one goal cell at once in 2023, where
//! tasks are dealt: the nearest keep their goal, the others wait without one until a place
//! comes free. (In 2024 the matching scheduler bounds first errands as it gives tasks.)
//!
//! On sortation_large every other task is at one of 620 emitters along the map's edges, and
//! with 10,000 robots about eight head for each at once; they queue in the rows along the
//! edges and shut in the robots that have been there. A robot that waits without a goal
//! decides last and is pushed aside, so it stays out of the way where it is.

use super::State;

/// The bound and its scratch (see the module doc).
#[derive(Clone, Debug)]
pub(super) struct GoalQueue {
    bound: u32,
    width: u32,
    /// Scratch: `(goal, distance, robot)` of every robot with a goal.
    heading: Vec<(u32, u32, u32)>,
}

impl GoalQueue {
    /// At most `bound` robots (at least one) a goal, on a map `width` cells wide.
    pub(super) fn new(bound: u32, width: u32) -> GoalQueue {
        GoalQueue {
            bound: bound.max(1),
            width: width.max(1),
            heading: Vec::new(),
        }
    }

    /// Hides the goal of every robot beyond the `bound` nearest its goal cell (by Manhattan
    /// distance, then by index).
    pub(super) fn hide_goals(&mut self, states: &[State], goals: &mut [Option<u32>]) {
        let w = self.width;
        self.heading.clear();
        for (a, (s, g)) in states.iter().zip(goals.iter()).enumerate() {
            if let Some(g) = *g {
                let d = (s.cell % w).abs_diff(g % w) + (s.cell / w).abs_diff(g / w);
                self.heading.push((g, d, a as u32));
            }
        }
        self.heading.sort_unstable();
        let mut run = (u32::MAX, 0);
        for &(g, _, a) in &self.heading {
            run = if run.0 == g { (g, run.1 + 1) } else { (g, 1) };
            if run.1 > self.bound {
                goals[a as usize] = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_nearest_keep_a_shared_goal() {
        // A row of ten cells: five robots head for cell 0, two for cell 9, one has no goal.
        let states: Vec<State> = [5, 1, 3, 2, 8, 6, 7, 4]
            .map(|cell| State { cell, facing: 0 })
            .to_vec();
        let mut goals = [
            Some(0),
            Some(0),
            Some(0),
            Some(0),
            Some(0),
            Some(9),
            Some(9),
            None,
        ];
        GoalQueue::new(2, 10).hide_goals(&states, &mut goals);
        // Cell 0: the robots at 1 and 2 keep it; cell 9: both keep it.
        assert_eq!(
            goals,
            [None, Some(0), None, Some(0), None, Some(9), Some(9), None]
        );
        // A tie in distance goes to the lower index; a bound of 0 still lets one through.
        let states = [State { cell: 3, facing: 0 }, State { cell: 3, facing: 2 }];
        let mut goals = [Some(0), Some(0)];
        GoalQueue::new(0, 10).hide_goals(&states, &mut goals);
        assert_eq!(goals, [Some(0), None]);
    }
}
