//! LaCAM as a resumable search: driven a budget at a time, it finds the plan the one-shot
//! `solve` finds.

use gridwalk_core::mapf::{DistanceTables, Problem, Progress, Search};

use super::{Options, benchmark, solution_checked};
use gridwalk_core::Connectivity;

/// Runs `search` with `budget` tries a call to its end; the plan, and how many calls it took.
fn drive(
    search: &mut Search,
    problem: &Problem,
    dist: &DistanceTables,
    budget: usize,
) -> (Vec<Vec<u32>>, usize) {
    for calls in 1.. {
        match search.expand(problem.grid(), dist, budget) {
            Progress::Open => {}
            Progress::Solved(goal) => return (search.plan(goal), calls),
            other => panic!("budget {budget}: {other:?} before a solution"),
        }
    }
    unreachable!()
}

/// The benchmark's 4-move instances of `n` agents (`(map, scen, n)`), each named for messages.
fn four_moves(instances: &[(&str, &str, usize)]) -> Vec<(String, Problem)> {
    let name = |map: &str, n| format!("{map} {n}");
    instances
        .iter()
        .map(|&(map, scen, n)| (name(map, n), benchmark(map, scen, n, Connectivity::Four)))
        .collect()
}

/// Mid-sized instances: 200 and 100 agents on 32×32 maps.
const MID_SIZED: [(&str, &str, usize); 2] = [
    ("random-32-32-20.map", "random-32-32-20-gen-1.scen", 200),
    ("room-32-32-4.map", "room-32-32-4-gen-1.scen", 100),
];

/// The densest instances: 98 % of the free cells taken.
const DENSEST: [(&str, &str, usize); 2] = [
    ("random-32-32-20.map", "random-32-32-20-gen-1.scen", 800),
    ("empty-32-32.map", "empty-32-32-gen-1.scen", 1000),
];

#[test]
fn a_search_resumed_a_budget_at_a_time_finds_the_one_shot_plan() {
    let options = Options::default();
    for (name, problem) in four_moves(&MID_SIZED) {
        let one_shot = solution_checked(&problem, &options);
        let want = one_shot.plan.as_ref().expect("solved");
        let dist = DistanceTables::of(&problem);
        for budget in [1, 7, 1000] {
            let mut search = Search::new(&problem, &dist, &options);
            assert_eq!(search.expand(problem.grid(), &dist, 0), Progress::Open);
            let (plan, calls) = drive(&mut search, &problem, &dist, budget);
            assert_eq!(&plan, want, "{name}, budget {budget}");
            assert!(search.configurations() >= plan.len());
            assert!(search.bytes() > 0);
            if budget == 1 {
                // Every try is a call of its own: at least one a configuration of the plan.
                assert!(
                    calls >= plan.len(),
                    "{calls} calls for {} steps",
                    plan.len()
                );
            }
        }
    }
}

/// The densest instances: LaCAM with PIBT's swaps solves them, and the validator passes the
/// plans.
#[test]
fn the_densest_instances_are_solved() {
    let options = Options::default();
    for (name, problem) in four_moves(&DENSEST) {
        assert!(problem.dense(&options), "{name}");
        let s = solution_checked(&problem, &options);
        assert!(s.solved(), "{name}: {:?}", s.plan.err());
    }
}

/// Density decides the generator: today's instances (up to 85 % of the free cells) keep the
/// crowd's step rule and the scatter; with 8 moves the swap is never used.
#[test]
fn only_dense_instances_with_four_moves_use_the_swap() {
    let options = Options::default();
    let at = |n, conn| benchmark("random-32-32-20.map", "random-32-32-20-gen-1.scen", n, conn);
    assert!(!at(700, Connectivity::Four).dense(&options));
    assert!(at(740, Connectivity::Four).dense(&options));
    assert!(!at(800, Connectivity::Eight).dense(&options));
}

/// Anytime runs: the plan passes the validator, its soc is the last of a falling history whose
/// first entry is the first solution's soc, and that first solution is the one-shot run's.
#[test]
fn anytime_runs_improve_on_the_first_solution() {
    for (map, scen, n, moves) in [
        (
            "random-32-32-20.map",
            "random-32-32-20-random-1.scen",
            300,
            Connectivity::Four,
        ),
        (
            "room-32-32-4.map",
            "room-32-32-4-gen-1.scen",
            200,
            Connectivity::Four,
        ),
        (
            "random-32-32-20.map",
            "random-32-32-20-gen-1.scen",
            200,
            Connectivity::Eight,
        ),
    ] {
        let problem = benchmark(map, scen, n, moves);
        let first = solution_checked(&problem, &Options::default());
        let options = Options {
            anytime: true,
            time_limit: std::time::Duration::from_millis(1500),
            ..Options::default()
        };
        let best = solution_checked(&problem, &options);
        let history = best.history.expect("an anytime run keeps its history");
        let socs: Vec<u64> = history.iter().map(|h| h.1).collect();
        assert_eq!(socs.first(), Some(&first.soc), "{map} {n}");
        assert_eq!(socs.last(), Some(&best.soc), "{map} {n}");
        assert!(socs.windows(2).all(|w| w[1] < w[0]), "{map} {n}: {socs:?}");
        assert!(history.windows(2).all(|w| w[0].0 <= w[1].0));
        if moves == Connectivity::Four {
            // 4 moves refine: 1.5 s finds some better plan on these instances.
            assert!(best.soc < first.soc, "{map} {n}: {socs:?}");
        }
    }
}

/// The cells of a real-time crowd over `ticks` ticks, its root's scatter bounded by `work`.
fn real_time_walk(problem: &gridwalk_core::mapf::Problem, work: u64, ticks: usize) -> Vec<u32> {
    use gridwalk_core::mapf::{RealTime, RealTimeOptions};
    let grid = problem.grid();
    let flat = |ps: Vec<gridwalk_core::Pos>| -> Vec<u32> {
        ps.iter().map(|&p| grid.index(p).unwrap() as u32).collect()
    };
    let (starts, goals) = (flat(problem.starts()), flat(problem.goals()));
    let dist = DistanceTables::of(problem);
    let options = RealTimeOptions {
        scatter_work: work,
        ..RealTimeOptions::default()
    };
    let conn = problem.connectivity();
    let mut rt = RealTime::with_tables(grid, conn, &starts, &goals, &dist, options).unwrap();
    let mut walk = rt.cells().to_vec();
    for _ in 0..ticks {
        rt.tick(grid, &dist).unwrap();
        walk.extend_from_slice(rt.cells());
    }
    walk
}

/// A root's scatter is bounded by work, not time: cut short (its paths need about 650,000
/// expansions here), the crowd's walk replays exactly, and it is not the uncut root's walk,
/// so the bound did cut.
#[test]
fn a_real_time_root_cut_short_by_its_scatter_work_replays() {
    let problem = benchmark(
        "random-32-32-20.map",
        "random-32-32-20-random-1.scen",
        409,
        Connectivity::Four,
    );
    let cut = real_time_walk(&problem, 20_000, 30);
    assert_eq!(cut, real_time_walk(&problem, 20_000, 30));
    assert_ne!(cut, real_time_walk(&problem, 50_000_000, 30));
}
