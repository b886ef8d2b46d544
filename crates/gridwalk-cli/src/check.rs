//! Solving Moving AI scenario problems with any algorithm, for `gridwalk-cli movingai` and the
//! real-data tests; the lengths are compared by the core's
//! [`matches_printed`](gridwalk_core::format::movingai::matches_printed).

use gridwalk_core::cost::INFINITY;
use gridwalk_core::search::best_first::{SearchRequest, SearchSpace};
use gridwalk_core::{Algorithm, Connectivity, Cost, Grid, Heuristic, Pos, new_planner};

/// The optimal cost from `start` to `goal` on `grid` (8-connected, octile, the Moving AI
/// model) found by `algorithm`, or `None` when unreachable or off the map. `space` is reused
/// by the one-shot searches.
///
/// Checking a Moving AI scenario, as `gridwalk-cli movingai` does (no corner is cut, so the
/// way around the wall costs 5):
/// ```
/// use gridwalk_cli::check::solve;
/// use gridwalk_core::Algorithm;
/// use gridwalk_core::cost::to_f64;
/// use gridwalk_core::format::movingai::{matches_printed, parse_map, parse_scen};
/// use gridwalk_core::search::SearchSpace;
///
/// let map = parse_map("type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n", "t.map").unwrap();
/// let scen = parse_scen(
///     "version 1\n0\tt.map\t4\t3\t0\t1\t3\t1\t5.00000000\n",
///     "t.map.scen",
/// )
/// .unwrap();
/// let mut space = SearchSpace::new();
/// for p in &scen {
///     for algo in Algorithm::ALL {
///         let cost = solve(&map, p.start, p.goal, algo, &mut space).unwrap();
///         assert!(matches_printed(to_f64(cost), p.optimal), "{algo}");
///     }
/// }
/// ```
pub fn solve(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    algorithm: Algorithm,
    space: &mut SearchSpace,
) -> Option<Cost> {
    let conn = Connectivity::Eight;
    let s = grid.index(start).ok()?;
    if !algorithm.is_incremental() {
        let req = SearchRequest::astar(start, goal, conn, Heuristic::Octile)
            .with_mode(algorithm.fresh_mode());
        return space.search(grid, &req, None).ok()?.path.map(|p| p.cost);
    }
    let mut planner = new_planner(algorithm, grid, goal, conn, Heuristic::Octile).ok()?;
    planner.set_starts(grid, &[s]);
    planner.compute(grid);
    let c = planner.cost_to_goal(s);
    (c != INFINITY).then_some(c)
}
