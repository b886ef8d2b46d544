//! Navigation in unknown terrain on a real map: every algorithm, sensing within 1 and 7 cells,
//! takes every problem of Moving AI's arena to its goal, never along a path cheaper than the
//! optimum (Dijkstra here, on the true map); with a range that covers the map, exactly along
//! an optimal one.

use std::path::PathBuf;

use gridwalk_core::Algorithm;
use gridwalk_core::format::movingai::{load_map, load_scen};
use gridwalk_core::sim::MAX_SENSOR_RANGE;
use gridwalk_core::tracks::navigate::{Navigate, navigate};

use crate::common::reference_costs;

fn data(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/movingai")).join(name)
}

fn arena_in_unknown_terrain(algorithm: Algorithm) {
    let grid = load_map(&data("arena.map")).unwrap();
    let problems = load_scen(&data("arena.map.scen")).unwrap();
    assert!(
        grid.width() as u32 <= MAX_SENSOR_RANGE,
        "range 64 covers the map"
    );
    for p in &problems {
        let conn = Navigate::new(algorithm, 1).connectivity;
        let dist = reference_costs(&grid, grid.index(p.goal).unwrap(), conn);
        let best = dist[grid.index(p.start).unwrap()];
        for range in [1, 7, MAX_SENSOR_RANGE] {
            let nav = navigate(&grid, p.start, p.goal, &Navigate::new(algorithm, range)).unwrap();
            let at = format!("{algorithm}, range {range}, line {}", p.line);
            assert!(nav.arrived, "{at}: did not arrive");
            assert!(nav.travelled >= best, "{at}: travelled below the optimum");
            assert!(nav.searches >= 1 && nav.expanded >= 1, "{at}");
            if range == MAX_SENSOR_RANGE {
                assert_eq!(
                    nav.travelled, best,
                    "{at}: knowing the map, it walks an optimum"
                );
            }
        }
    }
}

tests_of!(arena_in_unknown_terrain;
    arena_dstar_lite: Algorithm::DStarLite,
    arena_dstar: Algorithm::DStar,
    arena_astar: Algorithm::AStar,
    arena_dijkstra: Algorithm::Dijkstra,
    arena_mpgaa: Algorithm::Mpgaa,
);

/// Every algorithm of the menu, those added later included, navigates.
#[test]
fn every_algorithm_of_the_menu_navigates() {
    let grid = load_map(&data("arena.map")).unwrap();
    let p = &load_scen(&data("arena.map.scen")).unwrap()[100];
    for algorithm in Algorithm::ALL {
        let nav = navigate(&grid, p.start, p.goal, &Navigate::new(algorithm, 3)).unwrap();
        assert!(nav.arrived, "{algorithm}");
    }
}

/// A start on a wall is refused, and a tick bound stops a navigation.
#[test]
fn bad_starts_are_refused_and_the_bound_holds() {
    let grid = load_map(&data("arena.map")).unwrap();
    let wall = (0..grid.len()).find(|&c| grid.weight(c) == 0).unwrap();
    let free = (0..grid.len()).find(|&c| grid.weight(c) != 0).unwrap();
    let run = Navigate::new(Algorithm::DStarLite, 2);
    assert!(navigate(&grid, grid.pos(wall), grid.pos(free), &run).is_err());
    let p = &load_scen(&data("arena.map.scen")).unwrap()[150];
    let short = Navigate {
        max_ticks: Some(3),
        ..run
    };
    let nav = navigate(&grid, p.start, p.goal, &short).unwrap();
    assert!(!nav.arrived && nav.ticks == 3 && nav.moves == 3);
}
