//! The replan of the from-scratch algorithms (A*, Dijkstra, greedy): a search per agent off
//! its goal, keeping its path in [`FromScratch`](super::from_scratch::FromScratch).

use super::agents::{AgentId, settle, wait};
use super::from_scratch::Paths;
use super::history::RunSource;
use super::{Simulation, TickStats, keep_expanded};
use crate::grid::{Connectivity, Grid, Pos};
use crate::path::Path;
use crate::planner::Progress;
use crate::search::best_first::Mode;
use crate::trace::Trace;

/// `path`, or when it holds more than `room` bytes its first cells that fit (at least its
/// first move), with their cost: an agent searches again every tick, so its next move is all
/// it needs of its path.
fn fit(mut path: Path, room: usize, grid: &Grid, conn: Connectivity) -> Path {
    if Paths::bytes_of(&path) <= room {
        return path;
    }
    let fits = room.saturating_sub(Paths::ENTRY) / std::mem::size_of::<Pos>();
    path.cells.truncate(fits.max(2));
    path.cells.shrink_to_fit();
    let cell = |p: &Pos| grid.index(*p).ok();
    path.cost = (path.cells.windows(2))
        .filter_map(|w| grid.move_cost(cell(&w[0])?, cell(&w[1])?, conn))
        .sum();
    path
}

impl Simulation {
    /// The replan of A* and Dijkstra: a search per agent off its goal. With a planning
    /// budget, the agents are served in turn from where the last replan stopped, until the
    /// tick's expansions are spent (the search that reaches the budget stops, and goes on
    /// next tick unless the map changed); the others wait.
    pub(super) fn replan_from_scratch(&mut self, stats: &mut TickStats) {
        // Pockets are the incremental planners' business; they are found afresh if one comes.
        self.pockets.invalidate();
        let mode = self.config.algorithm.fresh_mode();
        self.from_scratch.paths.clear();
        if !self.changed.is_empty() {
            self.from_scratch.space.forget_paused();
        }
        let mut trace = Trace::default();
        let mut ids: Vec<AgentId> = self.agents.slab.keys().collect();
        let Some(budget) = self.rationing.budget.plan_expansions else {
            self.rationing.backlog = 0;
            for id in ids {
                self.search_one(id, mode, &mut trace, stats, u64::MAX);
            }
            return;
        };
        // From the agent the last replan stopped at, round the ids.
        let first = ids.partition_point(|&id| id < self.rationing.scratch_cursor);
        ids.rotate_left(first);
        let (mut spent, mut backlog) = (0, 0);
        self.rationing.scratch_cursor = 0;
        for &id in &ids {
            if spent < budget {
                let (work, done) = self.search_one(id, mode, &mut trace, stats, budget - spent);
                spent += work;
                if done {
                    continue;
                }
            }
            if let Some(a) = self.agents.slab.get_mut(&id)
                && a.pos != a.goal
            {
                if backlog == 0 {
                    self.rationing.scratch_cursor = id;
                }
                backlog += 1;
                wait(a);
            }
        }
        self.rationing.backlog = backlog;
    }

    /// Plans agent `id` from scratch with at most `max` expansions (settles it if it is on its
    /// goal): its path, its status, its work added to `stats`. A search that stops at `max`
    /// leaves the agent unsettled and goes on at its next call, if nothing changed. Returns
    /// the expansions and whether the search ended.
    fn search_one(
        &mut self,
        id: AgentId,
        mode: Mode,
        trace: &mut Trace,
        stats: &mut TickStats,
        max: u64,
    ) -> (u64, bool) {
        let Some(a) = self.agents.slab.get(&id) else {
            return (0, true);
        };
        if a.pos == a.goal {
            if let Some(a) = self.agents.slab.get_mut(&id) {
                settle(a, || None);
            }
            return (0, true);
        }
        let req = self.request(a, mode);
        let r = self
            .from_scratch
            .space
            .search_within(&self.grid, &req, Some(trace), max);
        let Some(a) = self.agents.slab.get_mut(&id) else {
            return (0, true);
        };
        let Ok((r, progress)) = r else {
            settle(a, || None);
            return (0, true);
        };
        stats.search += r.stats;
        keep_expanded(&mut self.expanded, trace.expansions().map(|e| e.cell));
        if self.history.tracing {
            self.history.push_run(RunSource::Agent(id), trace);
        }
        if progress == Progress::Pending {
            return (r.stats.expanded, false);
        }
        let path = r.path;
        let (grid, conn) = (&self.grid, self.config.connectivity);
        settle(a, || {
            let p = path.as_ref()?;
            let (from, to) = (grid.index(p.cells[0]).ok()?, *p.cells.get(1)?);
            let next = grid.index(to).ok()?;
            let step = grid.move_cost(from, next, conn)?;
            Some((p.cost, to, next as u32, step))
        });
        self.from_scratch.paths.remove(&id);
        if let Some(p) = path {
            // The from-scratch algorithms hold no planners: their paths have the memory budget.
            let room = (self.rationing.budget.planner_memory)
                .saturating_sub(self.from_scratch.paths.bytes());
            self.from_scratch.paths.insert(id, fit(p, room, grid, conn));
        }
        (r.stats.expanded, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Pos, Terrain};
    use crate::planner::Algorithm;
    use crate::sim::SimConfig;

    /// A* on an empty `width`×`height` map.
    fn astar_on(width: u32, height: u32) -> Simulation {
        let config = SimConfig {
            algorithm: Algorithm::AStar,
            ..SimConfig::default()
        };
        Simulation::new(Grid::new(width, height).unwrap(), config)
    }

    #[test]
    fn a_from_scratch_path_shortens_as_its_agent_walks_and_goes_with_it() {
        let mut sim = astar_on(6, 3);
        let id = sim.add_agent(Pos::new(0, 1), Pos::new(5, 1)).unwrap();
        sim.replan();
        let before = sim.from_scratch.paths.get(&id).unwrap().clone();
        assert_eq!((before.cells.len(), before.cells[0]), (6, Pos::new(0, 1)));
        sim.advance();
        let after = sim.from_scratch.paths.get(&id).unwrap();
        assert_eq!(
            after.cells[..],
            before.cells[1..],
            "one cell shorter, from the new cell"
        );
        assert_eq!(sim.path(id).as_ref(), Some(after));
        // A wall ahead: the next replan plans around it.
        sim.edit(Pos::new(3, 1), Terrain::Wall).unwrap();
        sim.replan();
        assert!(
            !sim.from_scratch
                .paths
                .get(&id)
                .unwrap()
                .cells
                .contains(&Pos::new(3, 1))
        );
        sim.remove_agent(id).unwrap();
        assert!(
            sim.from_scratch.paths.is_empty(),
            "the path goes with its agent"
        );
    }

    #[test]
    fn from_scratch_paths_past_the_budget_keep_their_first_cells_and_agents_walk_on() {
        let mut sim = astar_on(2000, 2);
        let budget = crate::sim::MIN_PLANNER_MEMORY;
        sim.set_budget(crate::sim::Budget {
            planner_memory: budget,
            plan_expansions: None,
        });
        let goal = Pos::new(1999, 1);
        let ids: Vec<_> = (0..300)
            .map(|x| sim.add_agent(Pos::new(x, 0), goal).unwrap())
            .collect();
        sim.replan();
        // 300 paths of about 1,800 cells would hold 4 MiB.
        let least = Paths::ENTRY + 2 * std::mem::size_of::<Pos>();
        assert!(sim.from_scratch.paths.bytes() <= budget + ids.len() * least);
        let mut cut = 0;
        for &id in &ids {
            let a = sim.agent(id).unwrap().clone();
            let want = crate::search::dijkstra(sim.grid(), a.pos, goal, sim.config().connectivity)
                .unwrap()
                .path
                .unwrap();
            assert_eq!(a.remaining, Some(want.cost));
            let p = sim.path(id).unwrap();
            assert_eq!(p.cells[0], a.pos);
            assert!(p.cells.len() >= 2);
            if p.cells.last() != Some(&goal) {
                cut += 1;
                assert!(p.cost < want.cost);
            }
        }
        assert!(cut > 0, "some paths were cut");
        for _ in 0..5 {
            sim.tick(&[]);
        }
        for &id in &ids {
            let a = sim.agent(id).unwrap();
            let want = crate::search::dijkstra(sim.grid(), a.pos, goal, sim.config().connectivity)
                .unwrap()
                .path
                .unwrap();
            assert_eq!(a.remaining, Some(want.cost), "walked on optimally");
        }
    }
}
