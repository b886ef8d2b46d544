//! Solving Moving AI scenario problems with any algorithm and checking the optimal lengths
//! they print: shared by `gridwalk-cli movingai` and the real-data tests.

use crate::cost::{Cost, INFINITY};
use crate::grid::{Connectivity, Grid, Pos};
use crate::heuristic::Heuristic;
use crate::planner::Algorithm;
use crate::search::best_first::{Mode, SearchRequest, SearchSpace};
use crate::search::new_planner;

/// Whether `ours` equals `optimal` to the 6 significant digits the benchmark prints.
///
/// The files do not always round: lak304d prints 265.764 for 265.76450198…, a truncation
/// (or a generator that summed a slightly short √2). So `ours` matches when `optimal` is
/// either its rounding or its truncation to 6 significant digits: `ours - optimal` lies in
/// [-½, 1) units of the sixth digit. Any other path differs by more on these maps.
pub fn matches_printed(ours: f64, optimal: f64) -> bool {
    if optimal == 0.0 {
        return ours == 0.0;
    }
    let unit = 10f64.powi(optimal.abs().log10().floor() as i32 - 5);
    let diff = ours - optimal;
    diff >= -0.5 * unit * (1.0 + 1e-9) && diff < unit
}

/// The optimal cost from `start` to `goal` on `grid` (8-connected, octile, the Moving AI
/// model) found by `algorithm`, or `None` when unreachable or off the map. `space` is reused
/// by the one-shot searches.
///
/// Checking a Moving AI scenario, as `gridwalk-cli movingai` does (no corner is cut, so the
/// way around the wall costs 5):
/// ```
/// use gridwalk_core::Algorithm;
/// use gridwalk_core::check::{matches_printed, solve};
/// use gridwalk_core::cost::to_f64;
/// use gridwalk_core::format::movingai::{parse_map, parse_scen};
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
        let mode = if algorithm == Algorithm::AStar {
            Mode::AStar
        } else {
            Mode::Dijkstra
        };
        let req = SearchRequest::astar(start, goal, conn, Heuristic::Octile).with_mode(mode);
        return space.search(grid, &req, None).ok()?.path.map(|p| p.cost);
    }
    let mut planner = new_planner(algorithm, grid, goal, conn, Heuristic::Octile).ok()?;
    planner.set_starts(grid, &[s]);
    planner.compute(grid);
    let c = planner.cost_to_goal(s);
    (c != INFINITY).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::matches_printed;

    #[test]
    fn six_significant_digits() {
        assert!(matches_printed(4.242640687, 4.24264));
        assert!(!matches_printed(4.24266, 4.24264));
        assert!(!matches_printed(4.24262, 4.24264));
        assert!(matches_printed(265.5800004, 265.58));
        assert!(matches_printed(265.7645019, 265.764));
        assert!(!matches_printed(265.7652, 265.764));
        assert!(!matches_printed(265.581, 265.58));
        assert!(matches_printed(0.0, 0.0));
        assert!(!matches_printed(1.0, 0.0));
    }
}
