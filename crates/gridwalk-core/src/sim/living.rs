//! The living part of a [`Simulation`]: what keeps it alive without input. What agents do on
//! arrival ([`OnArrival`]), and a dynamic world ([`DynamicWorld`]) whose doors close on
//! agents' paths and open again ([`Doors`]). Both draw from seeded generators of their own.
//!
//! Invariants: the generators are exactly `Rng::new(seed ^ stream)` advanced by the draws of
//! this run, one stream for wander and one for the dynamic world, so that neither disturbs
//! the other and a run replays exactly from its scenario; `doors` lists only walls the
//! dynamic world dropped that still stand and that no edit took away.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::{AgentId, AgentStatus, Simulation};
use crate::grid::{Pos, Terrain};
use crate::rng::Rng;

/// What an agent does once it stands on its goal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OnArrival {
    /// It stays there.
    #[default]
    Stay,
    /// It walks to a new random goal it can reach.
    Wander,
    /// It walks back to its start, then to its goal again, and so on.
    Patrol,
}

impl OnArrival {
    /// Every policy, in menu order.
    pub const ALL: [OnArrival; 3] = [OnArrival::Stay, OnArrival::Wander, OnArrival::Patrol];

    /// `stay`, `wander` or `patrol`.
    pub fn name(self) -> &'static str {
        match self {
            OnArrival::Stay => "stay",
            OnArrival::Wander => "wander",
            OnArrival::Patrol => "patrol",
        }
    }
}

named_enum!(OnArrival, name, "arrival policy");

/// The dynamic world's setting: every `every` ticks a wall drops on a random free cell of a
/// walking agent's path ahead of it, and once more than `walls` such walls stand, the oldest
/// is lifted (doors closing and opening).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DynamicWorld {
    /// Ticks between two dropped walls, at least 1.
    pub every: u32,
    /// How many dropped walls may stand at once, at least 1.
    pub walls: u32,
}

impl DynamicWorld {
    /// The gentle setting the game starts with: a wall every 4 ticks, at most 6 standing.
    pub const GENTLE: DynamicWorld = DynamicWorld { every: 4, walls: 6 };

    /// How far ahead of an agent, in cells of its path, a wall may drop.
    pub const AHEAD: usize = 12;

    /// The setting with both numbers at least 1.
    pub fn clamped(self) -> DynamicWorld {
        DynamicWorld {
            every: self.every.max(1),
            walls: self.walls.max(1),
        }
    }
}

/// The walls the dynamic world dropped and has not lifted yet, oldest first, each with the
/// terrain it replaced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Doors {
    /// (cell, terrain before the wall), oldest first.
    pub standing: VecDeque<(Pos, Terrain)>,
}

/// Streams of the simulation's generators, so that wander and the dynamic world do not
/// disturb each other.
const WANDER_STREAM: u64 = 0x5741_4E44;
const DYNAMIC_STREAM: u64 = 0x4459_4E41;

/// The seed, the generators, the dynamic world's setting and its doors.
#[derive(Clone, Debug)]
pub(super) struct Living {
    pub(super) seed: u64,
    /// Draws wander's goals.
    pub(super) wander: Rng,
    /// The dynamic world's setting, `None` when off.
    pub(super) dynamic: Option<DynamicWorld>,
    /// Draws the dynamic world's walls.
    pub(super) dynamic_rng: Rng,
    pub(super) doors: Doors,
}

impl Default for Living {
    fn default() -> Self {
        Living {
            seed: 0,
            wander: Rng::new(WANDER_STREAM),
            dynamic: None,
            dynamic_rng: Rng::new(DYNAMIC_STREAM),
            doors: Doors::default(),
        }
    }
}

impl Living {
    /// Restarts both generators from `seed`.
    pub(super) fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.wander = Rng::new(seed ^ WANDER_STREAM);
        self.dynamic_rng = Rng::new(seed ^ DYNAMIC_STREAM);
    }

    /// A cell edited from a wall to `pos`'s new terrain: no longer the dynamic world's to lift.
    #[inline]
    pub(super) fn forget_door(&mut self, pos: Pos) {
        self.doors.standing.retain(|&(p, _)| p != pos);
    }
}

/// The living world's phases of a tick and its settings.
impl Simulation {
    /// Restarts the generators of wander and the dynamic world from `seed`.
    pub fn set_seed(&mut self, seed: u64) {
        self.living.reseed(seed);
    }

    /// The seed of the generators.
    pub fn seed(&self) -> u64 {
        self.living.seed
    }

    /// Turns the dynamic world on (with its setting) or off. Walls it dropped stay until it
    /// lifts them; turned off, it lifts no more.
    pub fn set_dynamic(&mut self, dynamic: Option<DynamicWorld>) {
        self.living.dynamic = dynamic.map(DynamicWorld::clamped);
    }

    /// The dynamic world's setting, `None` when off.
    pub fn dynamic(&self) -> Option<DynamicWorld> {
        self.living.dynamic
    }

    /// The walls the dynamic world dropped and has not lifted, oldest first.
    pub fn doors(&self) -> impl Iterator<Item = Pos> + '_ {
        self.living.doors.standing.iter().map(|&(p, _)| p)
    }

    /// Gives every arrived agent with a wander or patrol policy (listed by
    /// [`advance`](Self::advance)) its next goal, in id order.
    pub(super) fn arrivals(&mut self) {
        let conn = self.config.connectivity;
        let ids = std::mem::take(&mut self.agents.arrived);
        for &id in &ids {
            let Some((a, p)) = self.agents.slab.get_both(&id) else {
                continue;
            };
            let goal = match a.on_arrival {
                OnArrival::Stay => continue,
                OnArrival::Patrol => {
                    if a.goal == a.away {
                        a.home
                    } else {
                        a.away
                    }
                }
                OnArrival::Wander => {
                    // Any reachable cell but its own (the flood's first), in the order of
                    // `grid::reachable`: the flood stops at the cell drawn.
                    let cell = p.cell as usize;
                    let len = self.pockets.components.size_at(&self.grid, cell, conn);
                    if len < 2 {
                        continue;
                    }
                    let i = 1 + self.living.wander.below(len - 1);
                    match self.pockets.flood.nth(&self.grid, cell, conn, i) {
                        Some(c) => self.grid.pos(c),
                        None => continue,
                    }
                }
            };
            if goal != a.goal {
                // The goal is passable and on the map by construction; a refusal leaves it.
                let _ = self.set_goal(id, goal);
            }
        }
        self.agents.arrived = ids;
    }

    /// Drops a wall on a walking agent's path ahead of it every `every` ticks, and lifts the
    /// oldest such wall once more than `walls` stand.
    pub(super) fn dynamic_world(&mut self) {
        let Some(dw) = self.living.dynamic else {
            return;
        };
        if !self.tick.is_multiple_of(dw.every as u64) {
            return;
        }
        let walking: Vec<AgentId> = (self.agents.slab.values())
            .filter(|a| a.status == AgentStatus::Walking && a.pos != a.goal)
            .map(|a| a.id)
            .collect();
        if walking.is_empty() {
            return;
        }
        let id = walking[self.living.dynamic_rng.below(walking.len())];
        let Some(path) = self.path(id) else {
            return;
        };
        let ahead: Vec<Pos> = path
            .cells
            .iter()
            .skip(1)
            .take(DynamicWorld::AHEAD)
            .copied()
            .filter(|&p| self.grid.is_passable(p) && self.check_edit(p).is_ok())
            .collect();
        if ahead.is_empty() {
            return;
        }
        let pos = ahead[self.living.dynamic_rng.below(ahead.len())];
        let Ok(old) = self.grid.terrain(pos) else {
            return;
        };
        if self.edit(pos, Terrain::Wall).is_ok() {
            self.living.doors.standing.push_back((pos, old));
        }
        while self.living.doors.standing.len() > dw.walls as usize {
            let Some((p, was)) = self.living.doors.standing.pop_front() else {
                break;
            };
            // Someone may have changed the cell since; lift only a wall still standing.
            if self.grid.terrain(p) == Ok(Terrain::Wall) {
                let _ = self.edit(p, was);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_parse_by_name() {
        for p in OnArrival::ALL {
            assert_eq!(p.name().parse::<OnArrival>(), Ok(p));
        }
        assert!("roam".parse::<OnArrival>().unwrap_err().contains("roam"));
    }

    #[test]
    fn reseeding_restarts_both_streams_apart() {
        let mut a = Living::default();
        assert_eq!(a.wander, Rng::new(WANDER_STREAM));
        a.reseed(42);
        let (w, d) = (a.wander.next_u64(), a.dynamic_rng.next_u64());
        assert_ne!(w, d, "the two streams differ");
        let mut b = Living::default();
        b.reseed(42);
        assert_eq!((b.wander.next_u64(), b.dynamic_rng.next_u64()), (w, d));
        assert_eq!(b.seed, 42);
    }

    #[test]
    fn a_door_taken_away_is_forgotten() {
        let mut l = Living::default();
        l.doors.standing.push_back((Pos::new(1, 1), Terrain::FREE));
        l.doors.standing.push_back((Pos::new(2, 1), Terrain::FREE));
        l.forget_door(Pos::new(1, 1));
        assert_eq!(l.doors.standing, [(Pos::new(2, 1), Terrain::FREE)]);
        assert_eq!(
            DynamicWorld { every: 0, walls: 0 }.clamped(),
            DynamicWorld { every: 1, walls: 1 }
        );
    }
}
