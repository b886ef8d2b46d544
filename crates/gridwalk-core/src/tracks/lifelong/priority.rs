//! [`GoalAge`]: robots ordered by how long each has had its goal, as PIBT's priorities.

use crate::rng::Rng;

/// Per robot, the steps since its goal last changed; the order they give, longest first.
#[derive(Clone, Debug, Default)]
pub(super) struct GoalAge {
    waited: Vec<u32>,
    last_goal: Vec<Option<u32>>,
}

impl GoalAge {
    /// Counts a step for each robot whose goal in `goals` is last step's, and starts again at
    /// 0 for the others (a new team size starts every robot afresh). Returns the counts.
    pub(super) fn count(&mut self, goals: &[Option<u32>]) -> &[u32] {
        let n = goals.len();
        if self.waited.len() != n {
            self.waited = vec![0; n];
            self.last_goal = vec![None; n];
        }
        for (a, &goal) in goals.iter().enumerate() {
            if goal != self.last_goal[a] {
                self.waited[a] = 0;
                self.last_goal[a] = goal;
            } else {
                self.waited[a] = self.waited[a].saturating_add(1);
            }
        }
        &self.waited
    }

    /// [`count`](Self::count)s the step, then fills `order` with every robot: those with a
    /// goal first, the longest on it first, ties broken by one draw a robot from `rng`. A
    /// robot without a goal prefers to stay: deciding early it would hold its cell against
    /// every robot after it, where deciding last it is pushed aside.
    pub(super) fn order<R: Rng + ?Sized>(
        &mut self,
        goals: &[Option<u32>],
        rng: &mut R,
        order: &mut Vec<u32>,
    ) {
        let n = goals.len();
        self.count(goals);
        let draws: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
        order.clear();
        order.extend(0..n as u32);
        let waited = &self.waited;
        order.sort_unstable_by_key(|&a| {
            let a = a as usize;
            std::cmp::Reverse((goals[a].is_some(), waited[a], draws[a]))
        });
    }
}
