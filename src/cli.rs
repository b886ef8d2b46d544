//! The command line: `gridwalk [--map FILE] [--seed N] [--density F] [--agents N]
//! [--on-arrival stay|wander|patrol] [--record FILE.ron] [--screenshot FILE.png
//! --exit-after-frames N]`.
//!
//! Parsing is total: any input gives either [`Args`] or a message naming the bad flag or value,
//! which `main` prints with the usage before exiting with status 2. [`setup`] then turns the
//! arguments into the starting world, reading `--map` or `maps/default.ron`.

use std::path::{Path, PathBuf};

use gridwalk_core::format::Scenario;
use gridwalk_core::sim::SimConfig;

use crate::maps;
use crate::sim::{Script, SimSetup, default_goals, dynamic_at_start};
use gridwalk_core::world::OnArrival;

/// The usage text.
pub const USAGE: &str = "\
usage: gridwalk [--map FILE] [--seed N] [--density F] [--agents N]
                [--on-arrival stay|wander|patrol] [--record FILE.ron]
                [--screenshot FILE.png --exit-after-frames N]

  --map FILE               start on a map: a RON scenario (.ron) or a Moving AI map (.map)
                           (default: maps/default.ron, or a random map)
  --seed N                 seed of the random map and agents (default 1); implies a random map
  --density F              share of walls of the random map, 0 to 0.9 (default 0.2)
  --agents N               random agents at the start, 0 to 5000 (default 8, or the map's own)
  --on-arrival POLICY      what new agents do on arrival: stay, wander (default) or patrol
  --record FILE.ron        write the session as a scenario for `gridwalk-cli simulate`
  --screenshot FILE.png    save a picture of the window after N frames, then exit
  --exit-after-frames N    exit after N frames (default 60 with --screenshot)
  -h, --help               show this help";

/// The most agents `--agents` accepts.
pub const MAX_AGENTS: usize = 5000;
/// The highest `--density` accepted.
pub const MAX_DENSITY: f64 = 0.9;

/// Parsed arguments.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Args {
    /// `--map`.
    pub map: Option<PathBuf>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--density`.
    pub density: Option<f64>,
    /// `--agents`.
    pub agents: Option<usize>,
    /// `--on-arrival`.
    pub on_arrival: Option<OnArrival>,
    /// `--record`.
    pub record: Option<PathBuf>,
    /// `--screenshot`.
    pub screenshot: Option<PathBuf>,
    /// `--exit-after-frames`.
    pub exit_after_frames: Option<u32>,
    /// `--help`.
    pub help: bool,
}

fn number<T: std::str::FromStr>(flag: &str, v: &str, what: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("{flag} expects {what}, got '{v}'"))
}

fn has_ext(p: &Path, ext: &str) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Parses the arguments after the program name.
pub fn parse<I, S>(args: I) -> Result<Args, String>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let mut out = Args::default();
    let mut it = args.into_iter().map(Into::into);
    while let Some(arg) = it.next() {
        if arg == "-h" || arg == "--help" {
            out.help = true;
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let known = [
            "--map",
            "--seed",
            "--density",
            "--agents",
            "--on-arrival",
            "--record",
            "--screenshot",
            "--exit-after-frames",
        ];
        if !known.contains(&flag.as_str()) {
            return Err(if flag.starts_with('-') {
                format!("unknown option '{flag}'")
            } else {
                format!("unexpected argument '{flag}'")
            });
        }
        let value = match inline {
            Some(v) => v,
            None => it.next().ok_or_else(|| format!("{flag} needs a value"))?,
        };
        if value.is_empty() {
            return Err(format!("{flag} needs a value"));
        }
        match flag.as_str() {
            "--map" => out.map = Some(PathBuf::from(value)),
            "--seed" => out.seed = Some(number(&flag, &value, "a whole number ≥ 0")?),
            "--density" => {
                let d: f64 = number(&flag, &value, "a number from 0 to 0.9")?;
                if !(0.0..=MAX_DENSITY).contains(&d) {
                    return Err(format!(
                        "--density must be from 0 to {MAX_DENSITY}, got {value}"
                    ));
                }
                out.density = Some(d);
            }
            "--agents" => {
                let n: usize = number(&flag, &value, "a whole number ≥ 0")?;
                if n > MAX_AGENTS {
                    return Err(format!("--agents must be at most {MAX_AGENTS}, got {n}"));
                }
                out.agents = Some(n);
            }
            "--on-arrival" => out.on_arrival = Some(value.parse()?),
            "--record" => {
                let p = PathBuf::from(&value);
                if !has_ext(&p, "ron") {
                    return Err(format!("--record expects a .ron file, got '{value}'"));
                }
                out.record = Some(p);
            }
            "--screenshot" => {
                let p = PathBuf::from(&value);
                if !has_ext(&p, "png") {
                    return Err(format!("--screenshot expects a .png file, got '{value}'"));
                }
                out.screenshot = Some(p);
            }
            "--exit-after-frames" => {
                let n: u32 = number(&flag, &value, "a whole number ≥ 1")?;
                if n == 0 {
                    return Err("--exit-after-frames must be at least 1".into());
                }
                out.exit_after_frames = Some(n);
            }
            _ => unreachable!("checked above"),
        }
    }
    if out.map.is_some() && (out.seed.is_some() || out.density.is_some()) {
        return Err("--seed and --density make a random map; they cannot go with --map".into());
    }
    for (flag, p) in [("--record", &out.record), ("--screenshot", &out.screenshot)] {
        if let Some(p) = p {
            let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
            if let Some(d) = dir
                && !d.is_dir()
            {
                return Err(format!("{flag}: folder '{}' does not exist", d.display()));
            }
        }
    }
    Ok(out)
}

/// The starting world: `--map`, else a random map when `--seed` or `--density` is given,
/// else `maps/default.ron`, else a random map. Agents: `--agents N` random ones (plus the
/// map's own), else the map's own, else 8 random ones.
pub fn setup(args: &Args) -> Result<SimSetup, String> {
    let seed = args.seed.unwrap_or(maps::DEFAULT_SEED);
    let random = || {
        let density = args.density.unwrap_or(maps::DEFAULT_DENSITY);
        let grid = maps::random_grid(maps::DEFAULT_WIDTH, maps::DEFAULT_HEIGHT, density, seed);
        let name = format!(
            "random {}×{}, {:.0} % walls, seed {seed}",
            maps::DEFAULT_WIDTH,
            maps::DEFAULT_HEIGHT,
            density * 100.0
        );
        (Scenario::from_grid(grid), name)
    };
    let wants_random = args.seed.is_some() || args.density.is_some();
    let (scenario, name) = match &args.map {
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
    };
    let config = SimConfig {
        connectivity: scenario.connectivity,
        heuristic: scenario.effective_heuristic(),
        measure_baseline: true,
        ..SimConfig::default()
    };
    let mut agents: Vec<_> = scenario
        .agents
        .iter()
        .filter(|a| a.tick == 0)
        .map(|a| (a.start, a.goal, a.on_arrival))
        .collect();
    let random_agents = match args.agents {
        Some(n) => n,
        None if scenario.agents.is_empty() => 8,
        None => 0,
    };
    let mut rng = maps::rng(seed);
    // New agents, random ones included, wander on arrival unless asked otherwise.
    let policy = args.on_arrival.unwrap_or(OnArrival::Wander);
    agents.extend(
        maps::random_agents(
            &scenario.grid,
            random_agents,
            default_goals(random_agents),
            config.connectivity,
            true,
            &mut rng,
        )
        .into_iter()
        .map(|(s, g)| (s, g, policy)),
    );
    Ok(SimSetup {
        grid: scenario.grid.clone(),
        config,
        agents,
        on_arrival: policy,
        dynamic: dynamic_at_start(&scenario),
        world_seed: if scenario.seed != 0 {
            scenario.seed
        } else {
            seed
        },
        script: Script::after_start(&scenario),
        map_name: name,
        rate_hz: crate::sim::SimClock::DEFAULT_RATE,
        seed,
        paused: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let p = parse(["--on-arrival", "patrol"]).unwrap();
        assert_eq!(p.on_arrival, Some(OnArrival::Patrol));
        assert_eq!(parse(Vec::<String>::new()).unwrap(), Args::default());
        assert!(parse(["-h"]).unwrap().help);
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        let err = |v: &[&str]| parse(v.iter().copied()).unwrap_err();
        assert!(err(&["--seed", "-3"]).contains("--seed expects"));
        assert!(err(&["--seed"]).contains("needs a value"));
        assert!(err(&["--density", "1.5"]).contains("from 0 to 0.9"));
        assert!(err(&["--density", "NaN"]).contains("--density"));
        assert!(err(&["--agents", "999999"]).contains("at most"));
        assert!(err(&["--agents", "many"]).contains("whole number"));
        assert!(err(&["--record", "x.txt"]).contains(".ron"));
        assert!(err(&["--screenshot", "x.jpg"]).contains(".png"));
        assert!(err(&["--exit-after-frames", "0"]).contains("at least 1"));
        assert!(err(&["--fly"]).contains("unknown option"));
        assert!(err(&["--on-arrival", "roam"]).contains("stay, wander or patrol"));
        assert!(err(&["map.ron"]).contains("unexpected argument"));
        assert!(err(&["--map", "a.ron", "--seed", "1"]).contains("cannot go with"));
        assert!(err(&["--record", "/no/such/dir/x.ron"]).contains("does not exist"));
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
    fn a_seeded_setup_has_walking_agents() {
        let a = parse(["--seed", "5", "--agents", "6"]).unwrap();
        let s = setup(&a).unwrap();
        assert_eq!(s.agents.len(), 6);
        assert_eq!((s.grid.width(), s.grid.height()), (110, 100));
        assert_eq!(s.grid, setup(&a).unwrap().grid);
    }
}
