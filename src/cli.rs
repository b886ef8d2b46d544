//! The command line, parsed by clap: `gridwalk [--map FILE] [--seed N] [--density F]
//! [--agents N] [--on-arrival stay|wander|patrol] [--destinations K] [--planner-memory SIZE]
//! [--plan-budget N] [--record FILE.ron] [--lorr PROBLEM.json]
//! [--screenshot FILE.png --exit-after-frames N] [--timings] [--preset explore|crowd]`.
//!
//! clap checks every value and range and prints help and errors; a bad argument ends the
//! program with status 2 before any window opens. [`setup`] then turns the arguments into the
//! starting world, reading `--map` or `maps/default.ron`.

use std::path::{Path, PathBuf};

use clap::Parser;
use clap::builder::RangedU64ValueParser;
use gridwalk_core::format::{AgentSpec, Scenario};
use gridwalk_core::sim::{Budget, SimConfig, parse_memory};
use gridwalk_core::sim::{MAX_DESTINATIONS, OnArrival, choose_destinations};

use crate::maps;
use crate::presets::Preset;
use crate::sim::{SimSetup, default_goals, game_budget};

/// The most agents `--agents` accepts.
pub const MAX_AGENTS: usize = 5000;
/// The highest `--density` accepted.
pub const MAX_DENSITY: f64 = 0.9;
/// The destinations of a random start or an imported `.map` (`maps/default.ron` says its own).
pub use crate::maps::DEFAULT_DESTINATIONS;

/// The game's arguments.
#[derive(Parser, Clone, Debug, Default, PartialEq)]
#[command(
    name = "gridwalk",
    version,
    about = "Watch D* Lite repair paths live while you edit the world"
)]
pub struct Args {
    /// Start on a map: a RON scenario (.ron) or a Moving AI map (.map)
    /// [default: maps/default.ron, or a random map].
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "density"])]
    pub map: Option<PathBuf>,
    /// Play a League of Robot Runners problem (2023, round robin, as the start-kit ships it):
    /// its map, and its robots facing a direction and turning, each patrolling its tasks.
    #[arg(long, value_name = "PROBLEM.json", value_parser = json_file, conflicts_with_all = ["map", "seed", "density", "preset", "agents"])]
    pub lorr: Option<PathBuf>,
    /// Seed of the random map and agents [default: 1]; implies a random map.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Share of walls of the random map, 0 to 0.9 [default: 0.2].
    #[arg(long, value_name = "F", value_parser = density)]
    pub density: Option<f64>,
    /// Random agents at the start, 0 to 5000 [default: 8, or the map's own].
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_AGENTS as u64))]
    pub agents: Option<usize>,
    /// What new agents do on arrival: stay, wander or patrol [default: wander].
    #[arg(long, value_name = "POLICY")]
    pub on_arrival: Option<OnArrival>,
    /// Wanderers draw their next goal from K cells chosen once with the seed, so they keep
    /// sharing planners; 0 is any reachable cell [default: the map's own, 4 on a random map].
    #[arg(long, value_name = "K", value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_DESTINATIONS as u64))]
    pub destinations: Option<usize>,
    /// The most memory the planners may hold, as 512M or 2G; past it the least recently used
    /// are dropped and rebuilt when needed [default: the map's own, else 2G].
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub planner_memory: Option<usize>,
    /// Expansions a tick's planning may make; agents whose plan is not ready wait as
    /// "planning" [default: the map's own, else 30000].
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
    pub plan_budget: Option<u64>,
    /// Write the session as a scenario for `gridwalk-cli simulate`.
    #[arg(long, value_name = "FILE.ron", value_parser = ron_file)]
    pub record: Option<PathBuf>,
    /// Save a picture of the window after N frames, then exit.
    #[arg(long, value_name = "FILE.png", value_parser = png_file)]
    pub screenshot: Option<PathBuf>,
    /// Print frames, ticks and where each frame's CPU time went, on exit.
    #[arg(long)]
    pub timings: bool,
    /// Start from a preset: explore (the default map in unknown terrain, sensor range 3), or
    /// crowd (300 wanderers on the default map in crowd mode).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["map", "seed", "density"])]
    pub preset: Option<Preset>,
    /// Exit after N frames [default: 60 with --screenshot].
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<u32>::new().range(1..=u32::MAX as u64))]
    pub exit_after_frames: Option<u32>,
}

fn density(v: &str) -> Result<f64, String> {
    let d: f64 = v
        .trim()
        .parse()
        .map_err(|_| format!("expected a number from 0 to {MAX_DENSITY}"))?;
    if !(0.0..=MAX_DENSITY).contains(&d) {
        return Err(format!("must be from 0 to {MAX_DENSITY}"));
    }
    Ok(d)
}

fn has_ext(p: &Path, ext: &str) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// A path ending in `.ext` whose folder exists.
fn file_in_existing_dir(v: &str, ext: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(v);
    if !has_ext(&p, ext) {
        return Err(format!("expected a .{ext} file"));
    }
    if let Some(d) = p.parent().filter(|d| !d.as_os_str().is_empty())
        && !d.is_dir()
    {
        return Err(format!("folder '{}' does not exist", d.display()));
    }
    Ok(p)
}

fn ron_file(v: &str) -> Result<PathBuf, String> {
    file_in_existing_dir(v, "ron")
}

fn json_file(v: &str) -> Result<PathBuf, String> {
    file_in_existing_dir(v, "json")
}

fn png_file(v: &str) -> Result<PathBuf, String> {
    file_in_existing_dir(v, "png")
}

/// Parses the arguments after the program name; the error is clap's message.
pub fn parse<I, S>(args: I) -> Result<Args, String>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let argv = std::iter::once("gridwalk".to_string()).chain(args.into_iter().map(Into::into));
    Args::try_parse_from(argv).map_err(|e| e.to_string())
}

/// The starting world: `--map`, else a random map when `--seed` or `--density` is given,
/// else `maps/default.ron`, else a random map. Agents: `--agents N` random ones (tick-0 agents
/// after the map's own), else the map's own, else 8 random ones. The map's seed, destinations
/// and budgets hold unless the arguments say otherwise (a map without a seed takes `--seed`'s).
pub fn setup(args: &Args) -> Result<SimSetup, String> {
    let seed = args.seed.unwrap_or(maps::DEFAULT_SEED);
    let (mut scenario, name) = starting_map(args, seed)?;
    let random_agents = match args.agents {
        Some(n) => n,
        None if scenario.agents.is_empty() => 8,
        None => 0,
    };
    if scenario.seed == 0 {
        scenario.seed = seed;
    }
    // The game starts in crowd mode: a player expects agents not to stand inside each other
    // (B turns it off). The CLI keeps it off unless asked.
    scenario.crowd = true;
    // In crowd mode, wanderers get at least one destination for every 25 agents, as the
    // planning budget affords, unless `--destinations` says otherwise.
    scenario.destinations = args.destinations.unwrap_or_else(|| {
        let n = scenario.agents.iter().filter(|a| a.tick == 0).count() + random_agents;
        let grid = &scenario.grid;
        let passable = (0..grid.len()).filter(|&i| grid.weight(i) != 0).count();
        crate::presets::crowd_destinations(scenario.destinations, n, passable)
    });
    let budget = Budget {
        planner_memory: (args.planner_memory.or(scenario.planner_memory))
            .unwrap_or(game_budget().planner_memory),
        plan_expansions: (args.plan_budget.or(scenario.plan_budget))
            .or(game_budget().plan_expansions),
    };
    (scenario.planner_memory, scenario.plan_budget) = budget.in_scenario();
    // New agents, random ones included, wander on arrival unless asked otherwise; with
    // destinations, random agents head to them from the start.
    let policy = args.on_arrival.unwrap_or(OnArrival::Wander);
    let (grid, conn) = (&scenario.grid, scenario.connectivity);
    let mut rng = maps::rng(seed);
    let pairs = match choose_destinations(grid, conn, scenario.seed, scenario.destinations) {
        d if d.is_empty() => {
            let goals = default_goals(random_agents);
            maps::random_agents(grid, random_agents, goals, conn, true, &mut rng)
        }
        d => maps::random_agents_to(grid, random_agents, &d, conn, true, &mut rng),
    };
    scenario
        .agents
        .extend(pairs.into_iter().map(|(start, goal)| AgentSpec {
            on_arrival: policy,
            ..AgentSpec::new(start, goal)
        }));
    // Crowd mode: no two agents due at tick 0 on one cell (random starts may meet).
    let at_start = scenario.agents.iter_mut().filter(|a| a.tick == 0);
    let grid = &scenario.grid;
    gridwalk_core::sim::separate(grid, conn, at_start.map(|a| &mut a.start));
    Ok(SimSetup {
        scenario,
        algorithm: SimConfig::default().algorithm,
        measure_baseline: true,
        on_arrival: policy,
        spawn_seed: seed,
        map_name: name,
        rate_hz: crate::sim::TickClock::DEFAULT_RATE,
        paused: false,
    })
}

/// The starting map and its name: `--map`, else a random map when `--seed` or `--density` is
/// given, else `maps/default.ron`, else a random map (with [`DEFAULT_DESTINATIONS`]).
fn starting_map(args: &Args, seed: u64) -> Result<(Scenario, String), String> {
    let random = || {
        let density = args.density.unwrap_or(maps::DEFAULT_DENSITY);
        let grid = maps::random_grid(maps::DEFAULT_WIDTH, maps::DEFAULT_HEIGHT, density, seed);
        let name = format!(
            "random {}×{}, {:.0} % walls, seed {seed}",
            maps::DEFAULT_WIDTH,
            maps::DEFAULT_HEIGHT,
            density * 100.0
        );
        let mut s = Scenario::from_grid(grid);
        s.destinations = DEFAULT_DESTINATIONS;
        (s, name)
    };
    if let Some(p) = args.preset {
        return Ok(p.scenario());
    }
    if let Some(path) = &args.lorr {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        return Ok((maps::load_lorr(path)?, name));
    }
    let wants_random = args.seed.is_some() || args.density.is_some();
    Ok(match &args.map {
        Some(path) => {
            let s = maps::load_map_file(path)?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            );
            (s, name)
        }
        None if wants_random => random(),
        None => match maps::default_map() {
            Some(p) => match maps::load_map_file(&p) {
                Ok(s) => (s, "default.ron".to_string()),
                Err(e) => {
                    eprintln!("gridwalk: warning: {e}; starting on a random map");
                    random()
                }
            },
            None => random(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first `k` destinations of the setup's map and seed.
    fn destinations_of(s: &SimSetup, k: usize) -> Vec<gridwalk_core::Pos> {
        let scenario = &s.scenario;
        choose_destinations(&scenario.grid, scenario.connectivity, scenario.seed, k)
    }

    #[test]
    fn good_arguments_parse() {
        let a = parse([
            "--seed",
            "7",
            "--density=0.3",
            "--agents",
            "20",
            "--record",
            "s.ron",
            "--screenshot",
            "x.png",
            "--exit-after-frames",
            "5",
        ])
        .unwrap();
        assert_eq!(a.seed, Some(7));
        assert_eq!(a.density, Some(0.3));
        assert_eq!(a.agents, Some(20));
        assert_eq!(a.record, Some(PathBuf::from("s.ron")));
        assert_eq!(a.exit_after_frames, Some(5));
        let b = parse(["--planner-memory", "512M", "--plan-budget", "900"]).unwrap();
        assert_eq!(
            (b.planner_memory, b.plan_budget),
            (Some(512 << 20), Some(900))
        );
        let s = setup(&parse(["--seed", "2", "--planner-memory", "1G"]).unwrap()).unwrap();
        let budget = s.scenario.budget();
        assert_eq!(budget.planner_memory, 1 << 30);
        assert_eq!(budget.plan_expansions, game_budget().plan_expansions);
        let p = parse(["--on-arrival", "patrol", "--destinations", "3"]).unwrap();
        assert_eq!(p.on_arrival, Some(OnArrival::Patrol));
        assert_eq!(p.destinations, Some(3));
        assert_eq!(parse(Vec::<String>::new()).unwrap(), Args::default());
        // Help is clap's, printed by clap (as an "error" that exits 0).
        assert!(parse(["-h"]).unwrap_err().contains("--on-arrival"));
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        // Each case: the arguments, then what the error must say.
        for case in [
            "--seed -3 => '-3'",
            "--seed x => --seed",
            "--seed => value is required",
            "--density 1.5 => from 0 to 0.9",
            "--density NaN => --density",
            "--agents 999999 => 0..=5000",
            "--agents many => --agents",
            "--record x.txt => .ron",
            "--screenshot x.jpg => .png",
            "--exit-after-frames 0 => 0 is not in 1..",
            "--fly => unexpected argument '--fly'",
            "map.ron => unexpected argument",
            "--map a.ron --seed 1 => cannot be used with",
            "--record /no/such/dir/x.ron => does not exist",
            "--on-arrival roam => stay, wander or patrol",
            "--destinations 1001 => 0..=1000",
            "--planner-memory lots => 512M or 2G",
            "--planner-memory 1K => outside 1M to 1T",
            "--plan-budget 0 => 0 is not in 1..",
        ] {
            let (args, want) = case.split_once(" => ").unwrap();
            let err = parse(args.split(' ')).unwrap_err();
            assert!(err.contains(want), "{args}: {err}");
        }
    }

    #[test]
    fn setup_errors_name_the_file() {
        let a = parse(["--map", "/no/such/map.ron"]).unwrap();
        let e = setup(&a).unwrap_err();
        assert!(e.contains("map.ron"), "{e}");
        let a = parse(["--map", "notes.txt"]).unwrap();
        assert!(setup(&a).unwrap_err().contains("unknown map format"));
    }

    #[test]
    fn crowded_random_starts_are_spread_apart() {
        // 3,000 random agents on 110×100 draw some starts twice: crowd mode spreads them.
        let s = setup(&parse(["--seed", "5", "--agents", "3000"]).unwrap()).unwrap();
        let starts: std::collections::BTreeSet<_> =
            s.scenario.agents.iter().map(|a| a.start).collect();
        assert_eq!(starts.len(), s.scenario.agents.len());
        assert!(
            s.scenario
                .agents
                .iter()
                .all(|a| s.scenario.grid.is_passable(a.start))
        );
        s.scenario.validate("setup").unwrap();
    }

    #[test]
    fn a_seeded_setup_has_walking_agents() {
        let a = parse(["--seed", "5", "--agents", "6"]).unwrap();
        let s = setup(&a).unwrap();
        assert_eq!(s.scenario.agents.len(), 6);
        let grid = &s.scenario.grid;
        assert_eq!((grid.width(), grid.height()), (110, 100));
        assert_eq!(*grid, setup(&a).unwrap().scenario.grid);
        // A random start has 4 destinations, and its random agents head to them.
        assert_eq!(s.scenario.destinations, DEFAULT_DESTINATIONS);
        let d = destinations_of(&s, 4);
        assert!(
            s.scenario.agents.iter().all(|a| d.contains(&a.goal)),
            "{d:?}"
        );
        let none = setup(&parse(["--seed", "5", "--destinations", "0"]).unwrap()).unwrap();
        assert_eq!(none.scenario.destinations, 0);
    }

    #[test]
    fn an_imported_map_has_destinations() {
        let map = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/gridwalk-core/tests/data/movingai/arena.map"
        );
        let s = setup(&parse(["--map", map, "--agents", "20"]).unwrap()).unwrap();
        assert_eq!(s.scenario.destinations, DEFAULT_DESTINATIONS);
        let d = destinations_of(&s, 4);
        assert!(
            s.scenario.agents.iter().all(|a| d.contains(&a.goal)),
            "{d:?}"
        );
        let none = setup(&parse(["--map", map, "--destinations", "0"]).unwrap()).unwrap();
        assert_eq!(none.scenario.destinations, 0);
    }

    #[test]
    fn the_game_starts_in_crowd_mode_with_destinations_for_its_crowd() {
        assert!(setup(&Args::default()).unwrap().scenario.crowd);
        let s = setup(&parse(["--preset", "crowd"]).unwrap()).unwrap();
        assert!(s.scenario.crowd);
        assert_eq!(s.scenario.agents.len(), crate::presets::CROWD_AGENTS);
        assert_eq!(s.scenario.destinations, 12);
        let big = setup(&parse(["--seed", "5", "--agents", "300"]).unwrap()).unwrap();
        assert_eq!(
            big.scenario.destinations, 12,
            "one destination for every 25 agents"
        );
        let asked = ["--seed", "5", "--agents", "300", "--destinations", "3"];
        assert_eq!(
            setup(&parse(asked).unwrap()).unwrap().scenario.destinations,
            3
        );
    }

    #[test]
    fn the_explore_preset_starts_in_unknown_terrain() {
        let s = setup(&parse(["--preset", "explore"]).unwrap()).unwrap();
        assert_eq!(s.scenario.sensor_range, Some(crate::presets::EXPLORE_RANGE));
        assert!(s.scenario.sensing.is_empty());
        assert!(s.scenario.dynamic.is_empty(), "no dynamic world");
        assert!(!s.scenario.agents.is_empty());
        let default = setup(&Args::default()).unwrap().scenario;
        assert_eq!(default.sensor_range, None);
        assert!(default.sensing.is_empty());
        let err = parse(["--preset", "fog"]).unwrap_err();
        assert!(err.contains("unknown preset 'fog'"), "{err}");
        assert!(parse(["--preset", "explore", "--seed", "2"]).is_err());
    }

    #[test]
    fn the_default_start_heads_to_its_four_destinations() {
        let s = setup(&Args::default()).unwrap();
        assert_eq!(s.map_name, "default.ron");
        assert_eq!(s.scenario.destinations, 4);
        let d = destinations_of(&s, 4);
        assert_eq!(d.len(), 4);
        assert!(
            s.scenario.agents.iter().all(|a| d.contains(&a.goal)),
            "{d:?}"
        );
    }
}
