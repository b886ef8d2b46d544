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
}

impl Preset {
    /// Every preset, in the panel's order.
    pub const ALL: [Preset; 1] = [Preset::Explore];

    /// Its name, as `--preset` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Explore => "explore",
        }
    }

    /// What it shows, in one sentence for the panel.
    pub fn describe(self) -> &'static str {
        match self {
            Preset::Explore => {
                "the default map in unknown terrain (range 3): agents bump into walls \
                 they did not know and repair around them"
            }
        }
    }

    /// Its scenario and the name the panel shows for it.
    pub fn scenario(self) -> (Scenario, String) {
        match self {
            Preset::Explore => (explore(), "explore (default.ron, unknown terrain)".into()),
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
    let loaded = maps::default_map().and_then(|p| maps::load_map_file(&p).ok());
    let mut s = loaded.unwrap_or_else(|| {
        let grid = maps::random_grid(
            maps::DEFAULT_WIDTH,
            maps::DEFAULT_HEIGHT,
            maps::DEFAULT_DENSITY,
            maps::DEFAULT_SEED,
        );
        Scenario::from_grid(grid)
    });
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
}
