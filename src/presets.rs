//! Ready-made starts a newcomer can pick: the panel's preset buttons and `--preset NAME`
//! build the same [`Scenario`], which the game loads as it loads a map file.

use std::str::FromStr;

use gridwalk_core::format::{AgentSpec, Scenario};
use gridwalk_core::sim::{OnArrival, choose_destinations};

use crate::maps;

/// The sensor range of the Explore preset: short, so agents meet walls they did not know.
pub const EXPLORE_RANGE: u32 = 3;

/// A ready-made start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// The default map in unknown terrain: agents on a few goals sense walls within
    /// [`EXPLORE_RANGE`] cells and repair around them.
    Explore,
    /// Crowd mode at its best: [`CROWD_AGENTS`] wanderers on the default map share
    /// [`CROWD_DESTINATIONS`] destinations, one agent a cell, so lanes form and agents step
    /// aside.
    Crowd,
}

/// The Crowd preset's wanderers.
pub const CROWD_AGENTS: usize = 300;

/// The Crowd preset's destinations: [`CROWD_AGENTS`] / [`AGENTS_PER_DESTINATION`].
pub const CROWD_DESTINATIONS: usize = CROWD_AGENTS / AGENTS_PER_DESTINATION;

/// The crowd-destination rule is the core's, so the game and `gridwalk-cli simulate` agree.
pub use gridwalk_core::sim::{AGENTS_PER_DESTINATION, CROWD_PLAN_CELLS, crowd_destinations};

impl Preset {
    /// Every preset, in the panel's order.
    pub const ALL: [Preset; 2] = [Preset::Explore, Preset::Crowd];

    /// Its name, as `--preset` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Explore => "explore",
            Preset::Crowd => "crowd",
        }
    }

    /// What it shows, in one sentence for the panel.
    pub fn describe(self) -> &'static str {
        match self {
            Preset::Explore => {
                "the default map in unknown terrain (range 3): agents bump into walls \
                 they did not know and repair around them"
            }
            Preset::Crowd => {
                "crowd mode: 300 wanderers on the default map share 12 destinations, \
                 one agent a cell: lanes form and agents step aside"
            }
        }
    }

    /// Its scenario and the name the panel shows for it.
    pub fn scenario(self) -> (Scenario, String) {
        match self {
            Preset::Explore => (explore(), "explore (default.ron, unknown terrain)".into()),
            Preset::Crowd => (crowd(), "crowd (default.ron, 300 wanderers)".into()),
        }
    }
}

impl FromStr for Preset {
    type Err = String;

    fn from_str(s: &str) -> Result<Preset, String> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names: Vec<_> = Preset::ALL.iter().map(|p| p.name()).collect();
                format!("unknown preset '{s}': expected {}", names.join(", "))
            })
    }
}

/// The Explore preset: `maps/default.ron` with its agents (random ones on its four
/// destinations when the file is missing), no dynamic world and no scripted edits, so every
/// repair comes from a discovery, and sensor range [`EXPLORE_RANGE`] from tick 0.
fn explore() -> Scenario {
    let mut s = default_scenario();
    s.edits.clear();
    s.dynamic.clear();
    s.sensing.clear();
    s.sensor_range = Some(EXPLORE_RANGE);
    if s.destinations == 0 {
        s.destinations = 4;
    }
    if s.agents.is_empty() {
        let goals = choose_destinations(&s.grid, s.connectivity, s.seed, s.destinations);
        let mut rng = maps::rng(maps::DEFAULT_SEED);
        let pairs = maps::random_agents_to(&s.grid, 8, &goals, s.connectivity, true, &mut rng);
        s.agents = (pairs.into_iter())
            .map(|(start, goal)| AgentSpec {
                on_arrival: OnArrival::Wander,
                ..AgentSpec::new(start, goal)
            })
            .collect();
    }
    s
}

/// `maps/default.ron`, or the default random map when the file is missing.
fn default_scenario() -> Scenario {
    let loaded = maps::default_map().and_then(|p| maps::load_map_file(&p).ok());
    loaded.unwrap_or_else(|| {
        let grid = maps::random_grid(
            maps::DEFAULT_WIDTH,
            maps::DEFAULT_HEIGHT,
            maps::DEFAULT_DENSITY,
            maps::DEFAULT_SEED,
        );
        Scenario::from_grid(grid)
    })
}

/// The Crowd preset: the default map's walls in crowd mode, no dynamic world, no scripted
/// edits, known terrain, and [`CROWD_AGENTS`] wanderers on distinct cells, spread over
/// [`CROWD_DESTINATIONS`] destinations.
fn crowd() -> Scenario {
    let mut s = default_scenario();
    s.edits.clear();
    s.dynamic.clear();
    s.sensing.clear();
    s.sensor_range = None;
    s.crowd = true;
    s.destinations = CROWD_DESTINATIONS;
    let goals = choose_destinations(&s.grid, s.connectivity, s.seed, s.destinations);
    let mut rng = maps::rng(maps::DEFAULT_SEED);
    // Draw a few more than needed and keep the first on each cell: one agent a cell.
    let pairs = maps::random_agents_to(
        &s.grid,
        CROWD_AGENTS + CROWD_AGENTS / 4,
        &goals,
        s.connectivity,
        true,
        &mut rng,
    );
    let mut taken = std::collections::HashSet::new();
    s.agents = (pairs.into_iter())
        .filter(|&(start, _)| taken.insert(start))
        .take(CROWD_AGENTS)
        .map(|(start, goal)| AgentSpec {
            on_arrival: OnArrival::Wander,
            ..AgentSpec::new(start, goal)
        })
        .collect();
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explore_is_unknown_terrain_with_walking_agents() {
        let s = Preset::Explore.scenario().0;
        assert_eq!(s.sensor_range, Some(EXPLORE_RANGE));
        assert!(s.dynamic.is_empty() && s.edits.is_empty());
        assert!(s.agents.len() >= 4);
        assert!(s.agents.iter().all(|a| a.on_arrival == OnArrival::Wander));
        assert_eq!("Explore".parse::<Preset>(), Ok(Preset::Explore));
        assert!("fog".parse::<Preset>().unwrap_err().contains("explore"));
    }

    #[test]
    fn crowd_is_hundreds_of_wanderers_one_a_cell() {
        let s = Preset::Crowd.scenario().0;
        assert!(s.crowd);
        assert_eq!(s.agents.len(), CROWD_AGENTS);
        assert_eq!(s.destinations, 12);
        let starts: std::collections::HashSet<_> = s.agents.iter().map(|a| a.start).collect();
        assert_eq!(
            starts.len(),
            s.agents.len(),
            "no two agents start on one cell"
        );
        assert!(s.agents.iter().all(|a| a.on_arrival == OnArrival::Wander));
        assert!(s.to_ron().contains("crowd: true"));
        assert_eq!("crowd".parse::<Preset>(), Ok(Preset::Crowd));
    }

    #[test]
    fn crowd_destinations_grow_with_the_agents() {
        let default_map = 9_000;
        assert_eq!(crowd_destinations(4, 12, default_map), 4);
        assert_eq!(crowd_destinations(4, 300, default_map), 12);
        assert_eq!(crowd_destinations(4, 5000, default_map), 200);
        assert_eq!(
            crowd_destinations(0, 5000, default_map),
            0,
            "any cell stays any cell"
        );
        // 64room_000: 246,178 passable cells; the first searches stay within the cap.
        let big = crowd_destinations(4, 5000, 246_178);
        assert_eq!(big, CROWD_PLAN_CELLS / 246_178);
        assert!(big * 246_178 <= CROWD_PLAN_CELLS && big > 4);
        assert_eq!(
            crowd_destinations(40, 5000, 246_178),
            40,
            "never fewer than asked"
        );
    }
}
