//! LaCAM as a resumable search: driven a budget at a time, it finds the plan the one-shot
//! `solve` finds.

use gridwalk_core::tracks::mapf::{DistanceTables, Progress, Search};

use super::{Options, benchmark, solution_checked};
use gridwalk_core::Connectivity;

/// Runs `search` with `budget` tries a call to its end; the plan, and how many calls it took.
fn drive(
    search: &mut Search,
    problem: &gridwalk_core::tracks::mapf::Problem,
    dist: &DistanceTables,
    budget: usize,
) -> (Vec<Vec<u32>>, usize) {
    for calls in 1.. {
        match search.expand(problem.grid(), dist, budget) {
            Progress::Open => {}
            Progress::Solved(goal) => return (search.plan(goal), calls),
            Progress::Failed(why) => panic!("budget {budget}: {why:?}"),
        }
    }
    unreachable!()
}

#[test]
fn a_search_resumed_a_budget_at_a_time_finds_the_one_shot_plan() {
    for (map, scen, n) in [
        ("random-32-32-20.map", "random-32-32-20-gen-1.scen", 200),
        ("room-32-32-4.map", "room-32-32-4-gen-1.scen", 100),
    ] {
        let problem = benchmark(map, scen, n, Connectivity::Four);
        let options = Options::default();
        let one_shot = solution_checked(&problem, &options);
        let want = one_shot.plan.as_ref().expect("solved");
        let dist = DistanceTables::of(&problem);
        for budget in [1, 7, 1000] {
            let mut search = Search::new(&problem, &dist, &options);
            assert_eq!(search.expand(problem.grid(), &dist, 0), Progress::Open);
            let (plan, calls) = drive(&mut search, &problem, &dist, budget);
            assert_eq!(&plan, want, "{map} {n}, budget {budget}");
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
