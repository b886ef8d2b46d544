//! The seeded world's phase of a tick and its settings: what arrived agents do
//! ([`OnArrival`]), and the dynamic world's walls (see [`living`](super::living)).

use super::living::{DynamicWorld, OnArrival};
use super::{AgentId, AgentStatus, Simulation};
use crate::grid::{Pos, Terrain};
use crate::rng::Draw;

/// The living world's phases of a tick and its settings.
impl Simulation {
    /// Restarts the generators of wander and the dynamic world from `seed`.
    /// With destinations, they are chosen again with the new seed on the map as it stands.
    pub fn set_seed(&mut self, seed: u64) {
        self.seeded.reseed(seed);
        if self.seeded.k > 0 {
            self.set_destinations(self.seeded.k);
        }
    }

    /// Wandering agents draw their next goal from `k` destinations (at most
    /// [`MAX_DESTINATIONS`](super::MAX_DESTINATIONS)), chosen now with the seed on the map as
    /// it stands (see [`choose_destinations`](super::choose_destinations) and the module
    /// docs); 0 draws from every reachable cell.
    pub fn set_destinations(&mut self, k: usize) {
        let conn = self.config.connectivity;
        let (grid, comps) = (self.knowledge).world(&self.grid, &mut self.pockets.components);
        (self.seeded).choose(grid, conn, comps, k);
    }

    /// The number of destinations asked for (K); 0 when wander draws among every reachable
    /// cell. There may be fewer cells than K on a small map: see
    /// [`destination_cells`](Self::destination_cells).
    pub fn destinations(&self) -> usize {
        self.seeded.k
    }

    /// The destination cells, in the order they were chosen.
    pub fn destination_cells(&self) -> impl ExactSizeIterator<Item = Pos> + '_ {
        self.seeded.destinations.iter().map(|&c| self.grid.pos(c))
    }

    /// The seed of the generators.
    pub fn seed(&self) -> u64 {
        self.seeded.seed
    }

    /// Turns the dynamic world on (with its setting) or off. Walls it dropped stay until it
    /// lifts them; turned off, it lifts no more.
    pub fn set_dynamic(&mut self, dynamic: Option<DynamicWorld>) {
        self.seeded.dynamic = dynamic.map(DynamicWorld::clamped);
    }

    /// The dynamic world's setting, `None` when off.
    pub fn dynamic(&self) -> Option<DynamicWorld> {
        self.seeded.dynamic
    }

    /// The walls the dynamic world dropped and has not lifted, oldest first.
    pub fn doors(&self) -> impl Iterator<Item = Pos> + '_ {
        self.seeded.doors.standing.iter().map(|&(p, _)| p)
    }

    /// Gives every arrived agent with a wander or patrol policy (listed by
    /// [`advance`](Self::advance)) its next goal, in id order.
    pub(super) fn arrivals(&mut self) {
        let conn = self.config.connectivity;
        let ids = std::mem::take(&mut self.agents.arrived);
        for &id in &ids {
            let routed = (self.agents.slab.get(&id))
                .is_some_and(|a| a.on_arrival == OnArrival::Patrol && !a.route.is_empty());
            let on_route = routed.then(|| self.next_on_route(id));
            let Some((a, p)) = self.agents.slab.get_both(&id) else {
                continue;
            };
            let goal = match a.on_arrival {
                OnArrival::Stay => continue,
                OnArrival::Patrol if routed => match on_route.flatten() {
                    Some(goal) => goal,
                    None => continue,
                },
                OnArrival::Patrol => {
                    if a.goal == a.away {
                        a.home
                    } else {
                        a.away
                    }
                }
                OnArrival::Wander if !self.seeded.destinations.is_empty() => {
                    let (grid, comps) =
                        (self.knowledge).world(&self.grid, &mut self.pockets.components);
                    let cell = p.cell as usize;
                    match (self.seeded).draw_destination(grid, conn, comps, cell) {
                        Some(c) => self.grid.pos(c),
                        None => continue,
                    }
                }
                OnArrival::Wander => {
                    // Any reachable cell but its own (the flood's first), in the order of
                    // `grid::reachable`: the flood stops at the cell drawn.
                    let cell = p.cell as usize;
                    let (grid, comps) =
                        (self.knowledge).world(&self.grid, &mut self.pockets.components);
                    let len = comps.size_at(grid, cell, conn);
                    if len < 2 {
                        continue;
                    }
                    let i = 1 + self.seeded.wander.below(len - 1);
                    match self.pockets.flood.nth(grid, cell, conn, i) {
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

    /// Agent `id`'s next cell on its route (its goal first, then the route's cells, round
    /// again), passing over cells that are walls on the map it knows; `None` when every other
    /// one is. Moves it along.
    fn next_on_route(&mut self, id: AgentId) -> Option<Pos> {
        let a = self.agents.slab.get_mut(&id)?;
        let (leg, cell) = a.leg_after(&self.grid)?;
        a.leg = leg;
        Some(cell)
    }

    /// Drops a wall on a walking agent's path ahead of it every `every` ticks, and lifts the
    /// oldest such wall once more than `walls` stand.
    pub(super) fn dynamic_world(&mut self) {
        let Some(dw) = self.seeded.dynamic else {
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
        let id = walking[self.seeded.dynamic_rng.below(walking.len())];
        let Some(path) = self.path(id) else {
            return;
        };
        let ahead: Vec<Pos> = path
            .cells
            .iter()
            .skip(1)
            .take(DynamicWorld::AHEAD)
            .copied()
            .filter(|&p| self.grid().is_passable(p) && self.check_edit(p).is_ok())
            .collect();
        if ahead.is_empty() {
            return;
        }
        let pos = ahead[self.seeded.dynamic_rng.below(ahead.len())];
        let Ok(old) = self.grid().terrain(pos) else {
            return;
        };
        if self.edit(pos, Terrain::Wall).is_ok() {
            self.seeded.doors.standing.push_back((pos, old));
        }
        while self.seeded.doors.standing.len() > dw.walls as usize {
            let Some((p, was)) = self.seeded.doors.standing.pop_front() else {
                break;
            };
            // Someone may have changed the cell since; lift only a wall still standing.
            if self.grid().terrain(p) == Ok(Terrain::Wall) {
                let _ = self.edit(p, was);
            }
        }
    }
}
