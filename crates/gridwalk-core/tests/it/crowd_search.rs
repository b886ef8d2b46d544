//! Crowd mode's real-time search, through the simulation: on the MAPF benchmark's dense
//! instances (4 or 8 moves, agents staying on arrival), where PIBT alone leaves agents stuck
//! for ever, every agent arrives, every tick passes the MAPF validator's step check, and the
//! sum of costs is within 1.3× of `mapf`'s first solution; on small random instances with
//! either move rule, every one that `mapf` solves arrives.

use std::path::PathBuf;

use crate::mapf::instances::{place_agents, walled_grid};
use crate::mapf::validate::check_step;
use gridwalk_core::format::movingai::{load_map, load_scen};
use gridwalk_core::mapf::{Options, Problem, solve};
use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};
use gridwalk_core::sim::{AgentId, SearchStep, SimConfig, Simulation, Went};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/mapf")
        .join(name)
}

/// The sum of costs of a plan (configurations by tick, agents in one order): per agent, the
/// first tick from which it stays on its goal.
fn soc<T: PartialEq>(plan: &[Vec<T>], goals: &[T]) -> u64 {
    (0..goals.len())
        .map(|a| {
            let last_off = plan.iter().rposition(|c| c[a] != goals[a]);
            last_off.map_or(0, |t| t as u64 + 1)
        })
        .sum()
}

/// What a crowd run did: its configurations by tick (agents in id order), whether every agent
/// stood on its goal at the end, and the most configurations the search kept.
struct Run {
    plan: Vec<Vec<(i64, i64)>>,
    arrived: bool,
    most_kept: u64,
    searched_ticks: u64,
    /// The explanation of the last tick's step for the first agent, when it was searched.
    last_explained: Option<SearchStep>,
}

/// Checks explain's view of a tick against the cells the agents had before it and have now:
/// a searched tick explains every sampled agent's move from the search (and none from the
/// step rule), another tick the reverse. Returns the first agent's explanation.
fn check_explain(
    sim: &Simulation,
    before: &[(i64, i64)],
    now: &[(i64, i64)],
    searched: bool,
    goals: &[(i64, i64)],
) -> Option<SearchStep> {
    let ids: Vec<AgentId> = sim.agents().map(|a| a.id).collect();
    let on_goal = now.iter().zip(goals).filter(|(c, g)| c == g).count();
    let xy = |p: gridwalk_core::Pos| (p.x as i64, p.y as i64);
    let sample = [0, ids.len() / 2, ids.len() - 1];
    for &k in &sample {
        let step = sim.crowd_search_step(ids[k]);
        assert_eq!(step.is_some(), searched, "agent {k}: {step:?}");
        assert_eq!(sim.crowd_step_of(ids[k]).is_some(), !searched, "agent {k}");
        let Some(step) = step else {
            continue;
        };
        assert_eq!(
            (xy(step.from), xy(step.to)),
            (before[k], now[k]),
            "agent {k}"
        );
        assert_eq!((step.agents, step.on_goal), (ids.len(), on_goal));
        let stayed = matches!(step.went, Went::Stayed | Went::Waited);
        assert_eq!(stayed, before == now, "{step:?}");
        let waited = step.went == Went::Waited;
        assert_eq!(waited, sim.crowd_search_preparing(), "{step:?}");
        assert!(
            step.tries <= step.budget && (step.configurations >= 1 || waited),
            "{step:?}"
        );
    }
    searched.then(|| sim.crowd_search_step(ids[0]).unwrap())
}

/// Plays `problem` in crowd mode (D* Lite guidance, its moves, `Stay`) for at most `limit`
/// ticks, checking every tick's step with the validator.
fn play(problem: &Problem, limit: u64) -> Run {
    play_in(problem, false, limit)
}

/// `problem`'s grid, and with `stranded` two more columns on its right: one of walls, and one
/// whose top cell (the stranded agent's start) a wall parts from the cell two below (its goal).
fn with_strand(problem: &Problem, stranded: bool) -> (Grid, Option<(Pos, Pos)>) {
    let grid = problem.grid();
    if !stranded {
        return (grid.clone(), None);
    }
    let (w, h) = (grid.width(), grid.height().max(3));
    let mut wide = Grid::new(w + 2, h).unwrap();
    for y in 0..h {
        for x in 0..w + 2 {
            let outside = x >= w || y >= grid.height();
            let wall = if outside {
                x == w || (x == w + 1 && (y == 1 || y > 2))
            } else {
                !grid.is_passable(Pos::new(x, y))
            };
            if wall {
                wide.set(Pos::new(x, y), Terrain::Wall).unwrap();
            }
        }
    }
    (wide, Some((Pos::new(w + 1, 0), Pos::new(w + 1, 2))))
}

/// As [`play`]; with `stranded`, one more agent, last, walled off from its goal beside the
/// map: it never arrives, and the others must arrive regardless.
fn play_in(problem: &Problem, stranded: bool, limit: u64) -> Run {
    let conn = problem.connectivity();
    let (grid, strand) = with_strand(problem, stranded);
    let config = SimConfig {
        algorithm: Algorithm::DStarLite,
        connectivity: conn,
        heuristic: match conn {
            Connectivity::Four => Heuristic::Manhattan,
            Connectivity::Eight => Heuristic::Octile,
        },
        measure_baseline: false,
        crowd: true,
        rotation: false,
    };
    let mut sim = Simulation::new(grid.clone(), config);
    let goals: Vec<Pos> = problem.goals();
    for (&s, &g) in problem.starts().iter().zip(&goals) {
        sim.add_agent(s, g).unwrap();
    }
    let xy = |p: Pos| (p.x as i64, p.y as i64);
    let now = |sim: &Simulation| sim.agents().map(|a| xy(a.pos)).collect::<Vec<_>>();
    // Where each agent must end: its goal, or for the stranded agent its start.
    let mut goal_xy: Vec<(i64, i64)> = goals.iter().map(|&g| xy(g)).collect();
    if let Some((start, goal)) = strand {
        sim.add_agent(start, goal).unwrap();
        goal_xy.push(xy(start));
    }
    let mut run = Run {
        plan: vec![now(&sim)],
        arrived: false,
        most_kept: 0,
        searched_ticks: 0,
        last_explained: None,
    };
    for _ in 0..limit {
        sim.step();
        let cells = now(&sim);
        let last = run.plan.last().unwrap();
        if let Err(why) = check_step(&grid, conn, last, &cells) {
            panic!("tick {}: {why}", run.plan.len());
        }
        let stats = sim.crowd_stats().unwrap();
        assert!(stats.tries <= sim.crowd_budget() as u64, "{stats:?}");
        let explained = check_explain(&sim, last, &cells, stats.searched, &goal_xy);
        // Consecutive searched ticks of one root: the depth follows the way they went.
        if let (Some(now), Some(before)) = (explained, run.last_explained)
            && now.configurations >= before.configurations
        {
            let depth = match now.went {
                Went::Down => before.depth + 1,
                Went::Up => before.depth - 1,
                Went::Stayed => before.depth,
                Went::Waited => 0,
            };
            assert_eq!(now.depth, depth, "tick {}: {now:?}", run.plan.len());
        }
        run.last_explained = explained;
        run.most_kept = run.most_kept.max(stats.configurations);
        run.searched_ticks += u64::from(stats.searched);
        run.plan.push(cells);
        if run.plan.last().unwrap() == &goal_xy {
            run.arrived = true;
            break;
        }
    }
    run
}

/// One benchmark instance against `mapf`'s first solution.
fn arrives_within_the_soc_goal(map: &str, scen: &str, agents: usize, limit: u64) {
    arrives_within_the_soc_goal_with(map, scen, (agents, Connectivity::Four), limit);
}

/// As [`arrives_within_the_soc_goal`], with `conn`'s moves.
fn arrives_within_the_soc_goal_with(
    map: &str,
    scen: &str,
    (agents, conn): (usize, Connectivity),
    limit: u64,
) {
    let grid = load_map(&data(map)).unwrap();
    let problems = load_scen(&data(scen)).unwrap();
    let problem = Problem::from_scen(grid, conn, &problems, agents, scen).unwrap();
    let first = solve(&problem, &Options::default()).unwrap();
    let reference = first.plan.as_ref().expect("mapf solves it");
    let goal_cells: Vec<u32> = (problem.goals().iter())
        .map(|&g| problem.grid().index(g).unwrap() as u32)
        .collect();
    let reference_soc = soc(reference, &goal_cells);
    let run = play(&problem, limit);
    let goals: Vec<(i64, i64)> = (problem.goals().iter())
        .map(|g| (g.x as i64, g.y as i64))
        .collect();
    let got = soc(&run.plan, &goals);
    println!(
        "{scen} {agents}: arrived {} in {} ticks ({} searched, at most {} configurations kept), \
         soc {got} vs mapf first {reference_soc} ({:.3}x)",
        run.arrived,
        run.plan.len() - 1,
        run.searched_ticks,
        run.most_kept,
        got as f64 / reference_soc as f64,
    );
    assert!(
        run.arrived,
        "{scen}: not every agent arrived in {limit} ticks"
    );
    assert!(
        got as f64 <= 1.3 * reference_soc as f64,
        "{scen}: soc {got} vs mapf's first {reference_soc}"
    );
}

#[test]
fn a_dense_random_crowd_arrives_within_the_soc_goal() {
    arrives_within_the_soc_goal(
        "random-32-32-20.map",
        "random-32-32-20-random-1.scen",
        400,
        3_000,
    );
}

#[test]
fn a_dense_warehouse_crowd_arrives_within_the_soc_goal() {
    arrives_within_the_soc_goal(
        "warehouse-10-20-10-2-1.map",
        "warehouse-10-20-10-2-1-gen-1.scen",
        400,
        3_000,
    );
}

/// A small random instance (walls 25 %, up to 16 agents, each goal reachable from its start),
/// or `None`.
fn random_instance(seed: u64, conn: Connectivity) -> Option<Problem> {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let (w, h) = (rng.range(4..9) as u32, rng.range(4..9) as u32);
    let grid = walled_grid(&mut rng, w, h, 0.25);
    place_agents(grid, conn, &mut rng, |rng, free| {
        rng.range(2..17).min(free / 2)
    })
}

/// The small random instances that `mapf` solves, with their seeds: 4 moves below seed 100,
/// 8 from it.
fn solved_instances() -> impl Iterator<Item = (u64, Problem)> {
    (0..200).filter_map(|seed| {
        let conn = match seed < 100 {
            true => Connectivity::Four,
            false => Connectivity::Eight,
        };
        let problem = random_instance(seed, conn)?;
        let solved = solve(&problem, &Options::default()).unwrap().solved();
        solved.then_some((seed, problem))
    })
}

#[test]
fn every_small_instance_mapf_solves_arrives() {
    let (mut solved, mut searched) = (0, 0);
    for (seed, problem) in solved_instances() {
        solved += 1;
        let run = play(&problem, 5_000);
        assert!(
            run.arrived,
            "seed {seed}: mapf solves it, the crowd did not arrive"
        );
        searched += usize::from(run.searched_ticks > 0);
    }
    println!("{solved} solved instances, {searched} of them needed the search");
    assert!(solved >= 100 && searched > 0, "{solved} {searched}");
}

#[test]
fn an_agent_walled_off_from_its_goal_does_not_keep_the_others_stalled() {
    // The small instances that need the search, each with one more agent that can never reach
    // its goal: the search holds that agent where it stands and brings the others home.
    let mut stalled = 0;
    for (seed, problem) in solved_instances() {
        if play(&problem, 5_000).searched_ticks == 0 {
            continue;
        }
        stalled += 1;
        let run = play_in(&problem, true, 5_000);
        assert!(run.arrived, "seed {seed}: the crowd did not arrive");
    }
    println!("{stalled} instances that need the search, each with a stranded agent");
    assert!(stalled >= 5, "{stalled}");
}

#[test]
fn crowds_with_eight_moves_arrive_within_the_soc_goal() {
    // The benchmark's own "agents that never settle" with 8 moves: room with 100 agents, and
    // the warehouse's aisles with 200.
    for (map, scen, agents) in [
        ("room-32-32-4.map", "room-32-32-4-gen-1.scen", 100),
        (
            "warehouse-10-20-10-2-1.map",
            "warehouse-10-20-10-2-1-gen-1.scen",
            200,
        ),
    ] {
        arrives_within_the_soc_goal_with(map, scen, (agents, Connectivity::Eight), 3_000);
    }
}
