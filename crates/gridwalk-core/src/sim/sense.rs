//! The sensing phase of a replan, and the settings of unknown terrain: every agent senses
//! around it and the known map learns what it saw (see [`knowledge`](super::knowledge)).

use super::Simulation;
use super::agents::AgentId;
use super::error::SimError;
use super::knowledge::{Discoveries, MAX_SENSOR_RANGE, Sensing};
use super::pockets::Pockets;
use crate::grid::{Grid, Pos, Terrain};

/// Unknown terrain: the sensor range, the known map, and what each sensing discovered.
impl Simulation {
    /// Turns sensing on with range `range` (clamped to 1..=[`MAX_SENSOR_RANGE`]), or off
    /// with `None` (the agents know the whole map again). Turning it on starts a known map of
    /// plain ground; on or off, every planner is dropped and plans again at the next replan.
    /// A new range while on keeps the known map. See the module docs.
    pub fn set_sensor_range(&mut self, range: Option<u32>) {
        let range = range.map(|r| r.clamp(1, MAX_SENSOR_RANGE));
        match (&mut self.knowledge.sensing, range) {
            (Some(s), Some(r)) => s.range = r,
            (None, None) => {}
            (None, Some(range)) => {
                let Ok(plain) = Grid::new(self.grid.width(), self.grid.height()) else {
                    return;
                };
                let seen = vec![false; plain.len()];
                let truth = std::mem::replace(&mut self.grid, plain);
                // The pockets' components labelled the true map: they go with it.
                let components = std::mem::take(&mut self.pockets.components);
                self.knowledge.sensing = Some(Sensing {
                    range,
                    truth,
                    components,
                    seen,
                });
                self.forget_plans();
            }
            (Some(_), None) => {
                if let Some(s) = self.knowledge.sensing.take() {
                    self.grid = s.truth;
                    self.pockets.components = s.components;
                }
                self.knowledge.discovered.clear();
                self.forget_plans();
            }
        }
    }

    /// The sensor range, `None` while the agents know the whole map.
    pub fn sensor_range(&self) -> Option<u32> {
        self.knowledge.sensing.as_ref().map(|s| s.range)
    }

    /// The map the planners plan on: the known map while sensing is on, else the true map
    /// ([`grid`](Self::grid)).
    pub fn known(&self) -> &Grid {
        &self.grid
    }

    /// Per cell (flat index), whether an agent sensed it since sensing was turned on;
    /// `None` while off. Cells never sensed are plain ground on the known map (the fog).
    pub fn sensed_cells(&self) -> Option<&[bool]> {
        self.knowledge.sensing.as_ref().map(|s| &s.seen[..])
    }

    /// The cells of agent `id`'s sensed square, as `(min corner, max corner)` inclusive,
    /// clipped to the map; `None` while off or with no such agent.
    pub fn sensor_square(&self, id: AgentId) -> Option<(Pos, Pos)> {
        let r = self.sensor_range()?;
        let a = self.agents.slab.get(&id)?;
        let (w, h) = (self.grid.width(), self.grid.height());
        Some((
            Pos::new(a.pos.x.saturating_sub(r), a.pos.y.saturating_sub(r)),
            Pos::new((a.pos.x + r).min(w - 1), (a.pos.y + r).min(h - 1)),
        ))
    }

    /// The cells whose known terrain the last replan's sensing changed, row by row, with the
    /// terrain they are now known to have; `None` when that replan did not sense (sensing
    /// off).
    pub fn last_discovered(&self) -> Option<impl ExactSizeIterator<Item = (Pos, Terrain)> + '_> {
        self.knowledge.sensed.then(|| {
            let grid = &self.grid;
            (self.knowledge.discovered.iter()).map(|&(c, _)| (grid.pos(c), terrain(grid.weight(c))))
        })
    }

    /// What the last replan's sensing discovered, counted by kind (all zero when it did not
    /// sense). A cell is opened when it was known as a wall and is passable now, which only a
    /// wall taken away since it was sensed gives.
    pub fn last_discoveries(&self) -> Discoveries {
        let mut d = Discoveries::default();
        for &(c, before) in &self.knowledge.discovered {
            match (before, self.grid.weight(c)) {
                (_, 0) => d.walls += 1,
                (0, _) => d.opened += 1,
                _ => d.reweighted += 1,
            }
        }
        d
    }

    /// An edit while sensing is on: it changes the true map only. Returns `None` while off.
    /// `i` is `pos`'s index, already checked by [`check_edit`](Self::check_edit).
    pub(super) fn edit_truth(
        &mut self,
        pos: Pos,
        i: usize,
        terrain: Terrain,
    ) -> Option<Result<bool, SimError>> {
        let s = self.knowledge.sensing.as_mut()?;
        let old = match s.truth.set(pos, terrain) {
            Ok(old) => old,
            Err(e) => return Some(Err(e.into())),
        };
        if old == terrain {
            return Some(Ok(false));
        }
        s.components.changed(&s.truth, i, old != Terrain::Wall);
        if old == Terrain::Wall {
            self.seeded.forget_door(pos);
        }
        // Pending until the next sensing replaces it: a move before then is checked.
        self.changed.push(i);
        Some(Ok(true))
    }

    /// Every agent senses its square and its goal cell; the known map takes their true
    /// terrain, the pockets follow, and the planners are told exactly the cells that changed.
    /// Does nothing (and records no sensing) while off.
    pub(super) fn sense(&mut self) {
        let k = &mut self.knowledge;
        k.discovered.clear();
        k.sensed = k.sensing.is_some();
        let Some(s) = k.sensing.as_mut() else {
            return;
        };
        // The true map's edits were pending; the planners learn only what is sensed.
        self.changed.clear();
        let (w, h) = (self.grid.width() as usize, self.grid.height() as usize);
        let r = s.range as usize;
        let mut last = usize::MAX;
        for p in self.agents.slab.hot() {
            let (cell, goal) = (p.cell as usize, p.goal as usize);
            // Agents of a goal walk in clumps: a square just sensed needs no second look.
            if cell != last {
                last = cell;
                let (x, y) = (cell % w, cell / w);
                let (x0, x1) = (x.saturating_sub(r), (x + r).min(w - 1));
                for row in y.saturating_sub(r)..=(y + r).min(h - 1) {
                    let (a, b) = (row * w + x0, row * w + x1 + 1);
                    s.seen[a..b].fill(true);
                    // One slice comparison per row; cell by cell only where a row differs.
                    if self.grid.weights()[a..b] != s.truth.weights()[a..b] {
                        for c in a..b {
                            learn(
                                &mut self.grid,
                                &s.truth,
                                &mut self.pockets,
                                &mut k.discovered,
                                c,
                            );
                        }
                    }
                }
            }
            s.seen[goal] = true;
            learn(
                &mut self.grid,
                &s.truth,
                &mut self.pockets,
                &mut k.discovered,
                goal,
            );
        }
        k.discovered.sort_unstable();
        self.changed.extend(k.discovered.iter().map(|&(c, _)| c));
    }
}

/// Cell `c` of the `known` map takes its terrain on `truth` if it differs: the pockets follow
/// and `discovered` lists it with its weight before.
#[inline]
fn learn(
    known: &mut Grid,
    truth: &Grid,
    pockets: &mut Pockets,
    discovered: &mut Vec<(usize, u8)>,
    c: usize,
) {
    let (old, now) = (known.weight(c), truth.weight(c));
    if old == now {
        return;
    }
    // The same cell of a map of the same size: the set cannot fail.
    let _ = known.set(known.pos(c), terrain(now));
    pockets.edited(known, c, old == 0, now == 0);
    discovered.push((c, old));
}

/// The terrain of a stored cell byte.
fn terrain(weight: u8) -> Terrain {
    match weight {
        0 => Terrain::Wall,
        w => Terrain::Weight(w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{AgentStatus, SimConfig};

    /// A 9×5 map with a wall down column 4 but for a gap at (4, 4), and a weight at (2, 2).
    fn map() -> Grid {
        let mut grid = Grid::new(9, 5).unwrap();
        for y in 0..4 {
            grid.set(Pos::new(4, y), Terrain::Wall).unwrap();
        }
        grid.set(Pos::new(2, 2), Terrain::Weight(5)).unwrap();
        grid
    }

    #[test]
    fn agents_sense_their_square_and_goal_and_nothing_else() {
        let mut sim = Simulation::new(map(), SimConfig::default());
        sim.set_sensor_range(Some(1));
        let id = sim.add_agent(Pos::new(3, 1), Pos::new(8, 0)).unwrap();
        assert_eq!(
            sim.known().wall_count(),
            0,
            "plain ground before any sensing"
        );
        sim.replan();
        let found: Vec<_> = sim.last_discovered().unwrap().collect();
        assert_eq!(
            found,
            [
                (Pos::new(4, 0), Terrain::Wall),
                (Pos::new(4, 1), Terrain::Wall),
                (Pos::new(2, 2), Terrain::Weight(5)),
                (Pos::new(4, 2), Terrain::Wall),
            ],
            "row by row"
        );
        let d = sim.last_discoveries();
        assert_eq!((d.walls, d.opened, d.reweighted, d.total()), (3, 0, 1, 4));
        assert_eq!(
            sim.known().terrain(Pos::new(4, 3)),
            Ok(Terrain::FREE),
            "not sensed"
        );
        let seen = sim.sensed_cells().unwrap();
        assert_eq!(
            seen.iter().filter(|&&s| s).count(),
            9 + 1,
            "the square and the goal"
        );
        assert_eq!(
            sim.sensor_square(id),
            Some((Pos::new(2, 0), Pos::new(4, 2)))
        );
        assert_eq!(sim.grid(), &map(), "the true map is untouched");
        // It believes the wall ends at (4, 2): down, to pass at (4, 3).
        assert_eq!(sim.agent(id).unwrap().next, Some(Pos::new(3, 2)));
    }

    #[test]
    fn an_edit_reaches_the_planners_only_by_sensing_and_moves_check_the_true_map() {
        let mut sim = Simulation::new(Grid::new(8, 3).unwrap(), SimConfig::default());
        sim.set_sensor_range(Some(1));
        let id = sim.add_agent(Pos::new(0, 1), Pos::new(7, 1)).unwrap();
        sim.replan();
        assert_eq!(sim.agent(id).unwrap().next, Some(Pos::new(1, 1)));
        // A wall far off: the true map changes, the known one does not.
        assert_eq!(sim.edit(Pos::new(6, 1), Terrain::Wall), Ok(true));
        assert!(sim.changes_pending());
        assert_eq!(sim.known().wall_count(), 0);
        // A wall on the next cell after the plan: the move is checked on the true map.
        sim.edit(Pos::new(1, 1), Terrain::Wall).unwrap();
        sim.advance();
        assert_eq!(sim.agent(id).unwrap().pos, Pos::new(0, 1), "it waits");
        sim.step();
        assert_eq!(
            sim.last_discoveries().walls,
            1,
            "(1, 1) is sensed, (6, 1) is not"
        );
        let a = sim.agent(id).unwrap();
        assert!(a.pos != Pos::new(1, 1) && a.status == AgentStatus::Walking);
        assert_eq!(sim.known().terrain(Pos::new(6, 1)), Ok(Terrain::FREE));
    }

    #[test]
    fn turning_sensing_off_and_on_swaps_the_maps_and_drops_the_planners() {
        let mut sim = Simulation::new(map(), SimConfig::default());
        sim.add_agent(Pos::new(0, 0), Pos::new(8, 0)).unwrap();
        sim.replan();
        assert!(sim.last_discovered().is_none() && sim.sensed_cells().is_none());
        sim.set_sensor_range(Some(200));
        assert_eq!(sim.sensor_range(), Some(MAX_SENSOR_RANGE), "clamped");
        assert_eq!((sim.planner_count(), sim.known().wall_count()), (0, 0));
        sim.replan();
        assert_eq!(
            sim.known(),
            &map(),
            "a range that covers the map senses it all"
        );
        sim.set_sensor_range(Some(1));
        assert_eq!(sim.known(), &map(), "a new range keeps the known map");
        sim.set_sensor_range(None);
        assert_eq!((sim.sensor_range(), sim.planner_count()), (None, 0));
        assert_eq!(sim.known(), sim.grid());
        sim.edit(Pos::new(6, 4), Terrain::Wall).unwrap();
        sim.set_sensor_range(Some(2));
        assert_eq!(sim.known().wall_count(), 0, "on again: plain ground");
        assert_eq!(sim.grid().terrain(Pos::new(6, 4)), Ok(Terrain::Wall));
    }
}
