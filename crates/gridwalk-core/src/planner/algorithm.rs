//! The algorithm menu: which planner the simulation and the CLI run, and what each can do
//! (repair or plan again, take a heuristic, what its expansions are called), so that the
//! game's panels and the simulation ask [`Algorithm`] rather than match on its variants.

use serde::{Deserialize, Serialize};

use crate::search::best_first::Mode;

/// Which planner the simulation and the CLI run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Algorithm {
    /// D* Lite (Koenig & Likhachev), optimized version: repairs. One search per goal.
    #[default]
    DStarLite,
    /// D* (Stentz 1994): repairs. One search per goal.
    DStar,
    /// A* from scratch for every agent, every tick.
    AStar,
    /// Dijkstra from scratch for every agent, every tick.
    Dijkstra,
    /// MPGAA\* (Hernández, Asín & Baier 2015): forward A\* per agent on learned heuristics,
    /// reusing earlier paths. One planner per goal.
    Mpgaa,
    /// Greedy best-first from scratch for every agent, every tick: ordered by the heuristic
    /// alone, so fast, but its paths are not always shortest.
    Greedy,
}

impl Algorithm {
    /// Every algorithm, in menu order.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::DStarLite,
        Algorithm::DStar,
        Algorithm::AStar,
        Algorithm::Dijkstra,
        Algorithm::Mpgaa,
        Algorithm::Greedy,
    ];

    /// The CLI name: `dstar-lite`, `dstar`, `astar`, `dijkstra`, `mpgaa`,
    /// `greedy`.
    pub fn cli_name(self) -> &'static str {
        match self {
            Algorithm::DStarLite => "dstar-lite",
            Algorithm::DStar => "dstar",
            Algorithm::AStar => "astar",
            Algorithm::Dijkstra => "dijkstra",
            Algorithm::Mpgaa => "mpgaa",
            Algorithm::Greedy => "greedy",
        }
    }

    /// A human label: `D* Lite`, `D*`, `A* (replan)`, `Dijkstra (replan)`, `MPGAA*`,
    /// `Greedy (replan)`.
    pub fn label(self) -> &'static str {
        match self {
            Algorithm::DStarLite => "D* Lite",
            Algorithm::DStar => "D*",
            Algorithm::AStar => "A* (replan)",
            Algorithm::Dijkstra => "Dijkstra (replan)",
            Algorithm::Mpgaa => "MPGAA*",
            Algorithm::Greedy => "Greedy (replan)",
        }
    }

    /// Whether it keeps one planner per goal that repairs or reuses its work (D\* Lite, D\*,
    /// MPGAA\*) instead of planning again from scratch for every agent, every tick (A\*,
    /// Dijkstra, greedy best-first).
    pub fn is_incremental(self) -> bool {
        matches!(
            self,
            Algorithm::DStarLite | Algorithm::DStar | Algorithm::Mpgaa
        )
    }

    /// Whether its planners make exact, after each compute, the costs of the cells given to
    /// [`GoalPlanner::set_exact`](crate::GoalPlanner::set_exact) (D\* Lite and D\*, which
    /// search backward from the goal). Crowd mode then ranks an agent's neighbours by its
    /// group's planner; for the others (MPGAA\*, which searches forward from each agent, and
    /// A\*, Dijkstra and greedy, which keep no planner) it keeps a D\* Lite planner per goal of its own.
    pub fn honours_exact(self) -> bool {
        matches!(self, Algorithm::DStarLite | Algorithm::DStar)
    }

    /// Whether it is guided by the configured [`crate::Heuristic`] (D\* Lite, A\*,
    /// MPGAA\*, greedy); D\* and Dijkstra use none.
    pub fn uses_heuristic(self) -> bool {
        matches!(
            self,
            Algorithm::DStarLite | Algorithm::AStar | Algorithm::Mpgaa | Algorithm::Greedy
        )
    }

    /// Whether its paths are shortest ones under an admissible heuristic: every algorithm
    /// but greedy best-first, which orders by the heuristic alone and takes the first path
    /// it reaches the goal by.
    pub fn is_optimal(self) -> bool {
        self != Algorithm::Greedy
    }

    /// What explain calls its search and the two kinds of its expansions.
    pub fn expansion_names(self) -> ExpansionNames {
        let (search, lowered, raised) = match self {
            Algorithm::DStarLite => ("D* Lite", "lowered", Some("raised")),
            Algorithm::DStar => ("D*", "LOWER", Some("RAISE")),
            Algorithm::AStar => ("A*", "expanded", None),
            Algorithm::Dijkstra => ("Dijkstra", "expanded", None),
            // Its A* closes cells; its consistency pass after a decrease lowers h.
            Algorithm::Mpgaa => ("MPGAA*", "expanded", None),
            Algorithm::Greedy => ("Greedy", "expanded", None),
        };
        ExpansionNames {
            search,
            lowered,
            raised,
        }
    }

    /// The one-shot search ([`Mode`]) that plans like this algorithm from scratch: greedy
    /// best-first when it is not optimal, A\* with the heuristic when it takes one, else
    /// Dijkstra. The simulation plans A\*, Dijkstra and greedy with it, and explain replays
    /// any algorithm's search from scratch with it.
    pub fn fresh_mode(self) -> Mode {
        match (self.is_optimal(), self.uses_heuristic()) {
            (false, _) => Mode::Greedy,
            (true, true) => Mode::AStar,
            (true, false) => Mode::Dijkstra,
        }
    }
}

/// The names explain gives an algorithm's search and its expansions
/// ([`Algorithm::expansion_names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpansionNames {
    /// The search's short name: `D* Lite`, `D*`, `A*`, `Dijkstra`, `MPGAA*`, `Greedy`.
    pub search: &'static str,
    /// An expansion that lowers a cost (D\*'s `LOWER`, D\* Lite's over-consistent cell), or
    /// any expansion of a search from scratch (`expanded`).
    pub lowered: &'static str,
    /// An expansion that raises a cost (D\*'s `RAISE`, D\* Lite's under-consistent cell);
    /// `None` for a search from scratch, which never raises one.
    pub raised: Option<&'static str>,
}

named_enum!(Algorithm, cli_name, "algorithm");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_menu_says_what_each_algorithm_can_do() {
        use Algorithm::*;
        let first4 = &Algorithm::ALL[..4];
        let incremental: Vec<_> = first4.iter().map(|a| a.is_incremental()).collect();
        assert_eq!(incremental, [true, true, false, false]);
        let heuristic: Vec<_> = first4.iter().map(|a| a.uses_heuristic()).collect();
        assert_eq!(heuristic, [true, false, true, false]);
        assert!(Mpgaa.is_incremental() && Mpgaa.uses_heuristic());
        let exact: Vec<_> = Algorithm::ALL.iter().map(|a| a.honours_exact()).collect();
        assert_eq!(exact, [true, true, false, false, false, false]);
        assert!(!Greedy.is_incremental() && Greedy.uses_heuristic());
        let optimal: Vec<_> = Algorithm::ALL.iter().map(|a| a.is_optimal()).collect();
        assert_eq!(optimal, [true, true, true, true, true, false]);
        assert_eq!(Greedy.fresh_mode(), Mode::Greedy);
        assert_eq!(Greedy.expansion_names().raised, None);
        assert_eq!(Mpgaa.fresh_mode(), Mode::AStar);
        assert_eq!(Mpgaa.expansion_names().search, "MPGAA*");
        assert_eq!(DStar.expansion_names().lowered, "LOWER");
        assert_eq!(DStar.expansion_names().raised, Some("RAISE"));
        assert_eq!(DStarLite.expansion_names().raised, Some("raised"));
        assert_eq!(Dijkstra.expansion_names().search, "Dijkstra");
        assert_eq!(AStar.expansion_names().raised, None);
        assert_eq!(AStar.fresh_mode(), Mode::AStar);
        assert_eq!(DStar.fresh_mode(), Mode::Dijkstra);
    }

    #[test]
    fn names_round_trip() {
        for a in Algorithm::ALL {
            assert_eq!(a.cli_name().parse::<Algorithm>(), Ok(a));
        }
    }
}
