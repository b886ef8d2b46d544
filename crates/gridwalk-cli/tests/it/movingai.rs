//! Real data: every optimal algorithm reproduces every optimal length of the Moving AI
//! reference scenarios (arena, lak304d, 64room_000) to the 6 significant digits printed.

use std::path::PathBuf;

use gridwalk_cli::check::solve;
use gridwalk_core::Algorithm;
use gridwalk_core::cost::to_f64;
use gridwalk_core::format::movingai::{load_map, load_scen, matches_printed};
use gridwalk_core::search::best_first::SearchSpace;

fn data(name: &str) -> PathBuf {
    PathBuf::from(crate::MOVINGAI).join(name)
}

/// Solves every problem of `map` with `algorithm`; returns the mismatches as messages.
fn check(map: &str, algorithm: Algorithm, every: usize) -> (usize, Vec<String>) {
    let grid = load_map(&data(&format!("{map}.map"))).expect("reference map parses");
    let problems = load_scen(&data(&format!("{map}.map.scen"))).expect("reference scen parses");
    let mut space = SearchSpace::new();
    let mut bad = Vec::new();
    let mut n = 0;
    for p in problems.iter().step_by(every) {
        n += 1;
        let got = solve(&grid, p.start, p.goal, algorithm, &mut space).map(to_f64);
        if !got.is_some_and(|c| matches_printed(c, p.optimal)) {
            bad.push(format!(
                "{map} line {}: optimal {}, got {got:?}",
                p.line, p.optimal
            ));
        }
    }
    (n, bad)
}

fn all_reference_maps(algorithm: Algorithm) {
    for (map, count) in [("arena", 160), ("lak304d", 773), ("64room_000", 2030)] {
        let (n, bad) = check(map, algorithm, 1);
        assert_eq!(n, count, "{map}: wrong number of problems");
        assert!(
            bad.is_empty(),
            "{algorithm}: {} mismatches, first: {:?}",
            bad.len(),
            &bad[..bad.len().min(5)]
        );
    }
}

tests_of!(
    all_reference_maps;
    astar_reproduces_every_optimal_length: Algorithm::AStar,
    dijkstra_reproduces_every_optimal_length: Algorithm::Dijkstra,
    dstar_lite_reproduces_every_optimal_length: Algorithm::DStarLite,
    dstar_reproduces_every_optimal_length: Algorithm::DStar,
);

#[test]
fn losttemple_scales_and_mostly_agrees() {
    // Older lengths and swamp/water read as walls: a scale check, not an exactness one.
    let (n, bad) = check("losttemple", Algorithm::AStar, 1);
    assert_eq!(n, 1238);
    assert!(
        bad.len() < n,
        "every losttemple problem disagrees: the parser is wrong"
    );
}
