//! Destinations: wanderers that draw their goals from K cells keep sharing planners, replay
//! exactly, skip destinations that were walled, and K = 0 is the same run as no field.

use std::collections::BTreeSet;

use crate::common::play;
use gridwalk_core::format::{AgentSpec, DynamicSpec, Scenario};
use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};
use gridwalk_core::scenario::replay::Replay;
use gridwalk_core::sim::{DynamicWorld, OnArrival, SimConfig, Simulation, choose_destinations};
use gridwalk_core::{Algorithm, Connectivity, Grid, Pos, Terrain};

/// A 40×30 map with 20 % walls and `agents` wanderers between random reachable cells.
fn scenario(agents: usize, k: usize, dynamic: Option<DynamicWorld>) -> Scenario {
    let grid = Grid::random(40, 30, 0.2, &mut SplitMix64::seed_from_u64(3)).unwrap();
    let mut s = Scenario::from_grid(grid);
    let d = choose_destinations(&s.grid, s.connectivity, 1, 1);
    let mut comps = gridwalk_core::grid::Components::default();
    let root = s.grid.index(d[0]).unwrap();
    let open: Vec<usize> = (0..s.grid.len())
        .filter(|&c| comps.connected(&s.grid, c, root, s.connectivity))
        .collect();
    let mut rng = SplitMix64::seed_from_u64(9);
    for _ in 0..agents {
        let start = s.grid.pos(open[rng.below(open.len())]);
        let goal = s.grid.pos(open[rng.below(open.len())]);
        s.agents.push(AgentSpec {
            on_arrival: OnArrival::Wander,
            ..AgentSpec::new(start, goal)
        });
    }
    s.seed = 5;
    s.destinations = k;
    s.dynamic = vec![DynamicSpec::new(0, dynamic)];
    s
}

#[test]
fn wanderers_keep_at_most_k_planners_besides_the_goals_in_flight() {
    let k = 4;
    for dynamic in [None, Some(DynamicWorld { every: 2, walls: 5 })] {
        let s = scenario(30, k, dynamic);
        let mut r = Replay::new(s.clone(), Algorithm::DStarLite);
        let dests: BTreeSet<Pos> = r.sim().destination_cells().collect();
        assert_eq!(dests.len(), k);
        assert_eq!(r.sim().destinations(), k);
        let mut max = 0;
        for tick in 0..600 {
            r.step();
            let sim = r.sim();
            // Goals in flight: agents still heading to a goal that is no destination.
            let in_flight: BTreeSet<Pos> = (sim.agents())
                .map(|a| a.goal)
                .filter(|g| !dests.contains(g))
                .collect();
            assert!(
                sim.planner_count() <= k + in_flight.len(),
                "tick {tick}: {} planners, {} goals in flight",
                sim.planner_count(),
                in_flight.len()
            );
            if tick > 300 {
                max = max.max(sim.planner_count());
            }
        }
        assert!(
            max <= k,
            "{dynamic:?}: {max} planners once the first goals were reached"
        );
        assert!(r.sim().agents().all(|a| dests.contains(&a.goal)));
    }
}

#[test]
fn runs_with_destinations_replay_exactly_and_survive_a_save() {
    for algo in Algorithm::ALL {
        let s = scenario(8, 3, Some(DynamicWorld::GENTLE));
        let (a, r) = play(&s, algo, 150, |_| {});
        assert_eq!(play(&s, algo, 150, |_| {}).0, a, "{algo}");
        let text = s.to_ron();
        assert!(text.contains("destinations: 3"), "{text}");
        let loaded = Scenario::parse(&text, "saved.ron").unwrap();
        assert_eq!(loaded, s);
        assert_eq!(play(&loaded, algo, 150, |_| {}).0, a, "{algo}");
        // Another K, another run.
        let mut other = s.clone();
        other.destinations = 2;
        assert_ne!(play(&other, algo, 150, |_| {}).0, a, "{algo}");
        // The running world saved as a scenario keeps its K.
        assert_eq!(r.sim().to_scenario().destinations, 3);
    }
}

#[test]
fn zero_destinations_is_the_same_run_as_no_field() {
    let s = scenario(8, 0, Some(DynamicWorld::GENTLE));
    let text = s.to_ron();
    assert!(!text.contains("destinations"));
    let with_zero = text.replace("    seed:", "    destinations: 0,\n    seed:");
    let zero = Scenario::parse(&with_zero, "zero.ron").unwrap();
    assert_eq!(zero, s);
    assert_eq!(
        play(&zero, Algorithm::DStarLite, 200, |_| {}).0,
        play(&s, Algorithm::DStarLite, 200, |_| {}).0
    );
    let too_many = text.replace("    seed:", "    destinations: 1001,\n    seed:");
    let e = Scenario::parse(&too_many, "many.ron").unwrap_err();
    assert!(e.to_string().contains("destinations"), "{e}");
    assert!(e.line.is_some(), "{e}");
}

#[test]
fn a_walled_destination_is_skipped() {
    // A corridor: the destinations are cells of it; wall all but one that no agent needs.
    let mut sim = Simulation::new(Grid::new(12, 1).unwrap(), SimConfig::default());
    sim.set_seed(2);
    sim.set_destinations(3);
    let dests: Vec<Pos> = sim.destination_cells().collect();
    assert_eq!(dests.len(), 3);
    // One agent wanders from the leftmost destination; the rightmost is walled off behind
    // a wall, so only the middle one is eligible.
    let mut sorted = dests.clone();
    sorted.sort();
    let (left, mid, right) = (sorted[0], sorted[1], sorted[2]);
    sim.edit(right, Terrain::Wall).unwrap();
    let id = sim.add_agent_with(left, left, OnArrival::Wander).unwrap();
    for _ in 0..40 {
        sim.tick(&[]);
        let a = sim.agent(id).unwrap();
        assert!(a.goal == left || a.goal == mid, "goal {}", a.goal);
    }
    assert_eq!(
        sim.destination_cells().collect::<Vec<_>>(),
        dests,
        "chosen once"
    );
    // Setting the seed again chooses again, on the map as it stands.
    sim.set_seed(2);
    assert!(sim.destination_cells().all(|p| p != right));
    let conn = Connectivity::Eight;
    assert_eq!(
        sim.destination_cells().collect::<Vec<_>>(),
        choose_destinations(sim.grid(), conn, 2, 3)
    );
}

#[test]
fn the_default_map_starts_with_its_goals_among_its_four_destinations() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/default.ron");
    let s = Scenario::load(std::path::Path::new(path)).unwrap();
    assert_eq!(s.destinations, 4);
    let d = choose_destinations(&s.grid, s.connectivity, s.seed, s.destinations);
    let goals: BTreeSet<Pos> = s.agents.iter().map(|a| a.goal).collect();
    assert_eq!(goals, d.iter().copied().collect(), "destinations {d:?}");
    // So the start holds 4 planners, and still does after a minute of wandering (600 ticks).
    let mut r = Replay::new(s, Algorithm::DStarLite);
    for _ in 0..600 {
        r.step();
        assert!(r.sim().planner_count() <= 4);
    }
}
