//! [`Parking`]: on the densest maps, only some robots work; the others are *parked*: they
//! have no goal as far as the planner knows, so they stay where they stand unless a working
//! robot pushes them, and then stay where they are pushed to.
//!
//! At 0.98 robots a free cell (random-32-32-20 with 800 robots) every robot heading for its
//! goal blocks every other; with fewer robots trying to get somewhere, the others make way.
//! The working robots are the `active` nearest their first goals (a fixed set for the run).

use super::planner::Planner;
use super::{Action, State};

/// A planner whose robots work only if chosen (see the module doc).
pub struct Parking {
    inner: Box<dyn Planner>,
    /// How many robots work.
    active: usize,
    /// Per robot: whether it works; chosen at the first call.
    works: Vec<bool>,
    goals: Vec<Option<u32>>,
}

impl Parking {
    /// `inner` plans; `active` robots work.
    pub fn new(inner: Box<dyn Planner>, active: usize) -> Parking {
        Parking {
            inner,
            active,
            works: Vec::new(),
            goals: Vec::new(),
        }
    }

    fn choose(&mut self, states: &[State], goals: &[Option<u32>], width: u32) {
        let n = states.len();
        let far = |a: usize| match goals[a] {
            Some(g) => {
                let (c, w) = (states[a].cell, width);
                (c % w).abs_diff(g % w) + (c / w).abs_diff(g / w)
            }
            None => u32::MAX,
        };
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&a| (far(a), a));
        self.works = vec![false; n];
        for &a in order.iter().take(self.active) {
            self.works[a] = true;
        }
    }
}

/// The width the parking wrapper measures distances with (set by the caller).
pub static PARKING_WIDTH: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(32);

impl Planner for Parking {
    fn preprocess(&mut self, states: &[State], goals: &[Option<u32>]) {
        self.inner.preprocess(states, goals);
    }

    fn plan(&mut self, states: &[State], goals: &[Option<u32>], actions: &mut Vec<Action>) {
        if self.works.len() != states.len() {
            let w = PARKING_WIDTH.load(std::sync::atomic::Ordering::Relaxed);
            self.choose(states, goals, w);
        }
        self.goals.clear();
        self.goals.extend(
            goals
                .iter()
                .zip(&self.works)
                .map(|(&g, &w)| if w { g } else { None }),
        );
        self.inner.plan(states, &self.goals, actions);
    }

    fn summary(&self) -> Option<String> {
        self.inner.summary()
    }
}
