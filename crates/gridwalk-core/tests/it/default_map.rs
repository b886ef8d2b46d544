//! The game's default map, `maps/default.ron`: it loads, has the promised size, and every agent
//! can reach its goal. The file is committed; `draw` is the code that drew it, and a test
//! checks the two agree.

use std::path::PathBuf;

use gridwalk_core::format::{AgentSpec, DynamicSpec, Scenario};
use gridwalk_core::search::dijkstra;
use gridwalk_core::sim::{DynamicWorld, OnArrival, choose_destinations};
use gridwalk_core::{Connectivity, Grid, Pos, Terrain};

const WIDTH: u32 = 110;
const HEIGHT: u32 = 100;

fn default_map_path() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../maps/default.ron"
    ))
}

#[test]
fn default_map_loads_and_every_agent_has_a_path() {
    let s = Scenario::load(&default_map_path()).unwrap();
    assert_eq!((s.grid.width(), s.grid.height()), (WIDTH, HEIGHT));
    // About 12 agents sharing 4 goals, wandering on arrival, in a gently dynamic world: a
    // newcomer who does nothing sees agents walk and repair for minutes.
    assert_eq!(s.agents.len(), 12);
    assert!(s.agents.iter().all(|a| a.tick == 0));
    assert!(s.agents.iter().all(|a| a.on_arrival == OnArrival::Wander));
    let goals: std::collections::BTreeSet<Pos> = s.agents.iter().map(|a| a.goal).collect();
    assert_eq!(goals.len(), 4);
    assert_eq!(
        s.dynamic.iter().map(|d| d.setting()).collect::<Vec<_>>(),
        vec![Some(DynamicWorld::GENTLE)]
    );
    for a in &s.agents {
        let r = dijkstra(&s.grid, a.start, a.goal, s.connectivity).unwrap();
        let path = r.path.unwrap_or_else(|| panic!("no path for {a:?}"));
        path.validate(&s.grid, s.connectivity).unwrap();
        // The map has a river in the middle: every agent crosses it.
        assert!(
            a.start.x.min(a.goal.x) < 40 && a.start.x.max(a.goal.x) > 70,
            "{a:?}"
        );
    }
    // There is a river of weight 3-5, and walls.
    let weights = (0..s.grid.len()).map(|i| s.grid.weight(i));
    let heavy = weights.filter(|w| (3..=5).contains(w)).count();
    assert!(heavy > 500, "{heavy} river cells");
    assert!(s.grid.wall_count() > 500);
}

/// The river's centre column on row `y`: a slow meander around the middle.
fn river_centre(y: u32) -> i32 {
    let t = y as f64 / HEIGHT as f64 * std::f64::consts::TAU;
    (55.0 + 7.0 * (1.3 * t).sin() + 3.0 * (3.1 * t + 0.7).sin()).round() as i32
}

/// Draws a rectangle of walls from (x0, y0) to (x1, y1) inclusive.
fn walls_rect(g: &mut Grid, x0: u32, y0: u32, x1: u32, y1: u32) {
    for x in x0..=x1 {
        for y in [y0, y1] {
            g.set(Pos::new(x, y), Terrain::Wall).unwrap();
        }
    }
    for y in y0..=y1 {
        for x in [x0, x1] {
            g.set(Pos::new(x, y), Terrain::Wall).unwrap();
        }
    }
}

/// Sets cells from (x0, y0) to (x1, y1) inclusive to `t`.
fn fill(g: &mut Grid, x0: u32, y0: u32, x1: u32, y1: u32, t: Terrain) {
    for y in y0..=y1 {
        for x in x0..=x1 {
            g.set(Pos::new(x, y), t).unwrap();
        }
    }
}

fn draw() -> Scenario {
    let mut g = Grid::new(WIDTH, HEIGHT).unwrap();
    let free = Terrain::FREE;
    // The outer wall.
    walls_rect(&mut g, 0, 0, WIDTH - 1, HEIGHT - 1);

    // West: three buildings with rooms and doors.
    walls_rect(&mut g, 6, 8, 28, 32);
    fill(&mut g, 17, 8, 17, 32, Terrain::Wall); // an inner wall: two rooms
    fill(&mut g, 17, 14, 17, 16, free); // its door
    fill(&mut g, 28, 24, 28, 26, free); // east door
    fill(&mut g, 10, 32, 12, 32, free); // south door
    walls_rect(&mut g, 8, 44, 32, 64);
    fill(&mut g, 8, 54, 32, 54, Terrain::Wall); // two rooms, one above the other
    fill(&mut g, 14, 54, 16, 54, free);
    fill(&mut g, 24, 44, 26, 44, free); // north door
    fill(&mut g, 32, 58, 32, 60, free); // east door, lower room
    walls_rect(&mut g, 5, 74, 24, 93);
    fill(&mut g, 24, 82, 24, 84, free); // east door
    fill(&mut g, 6, 75, 10, 79, Terrain::Weight(2)); // a cluttered corner

    // West: a long wall with two gaps, between the buildings and the river.
    fill(&mut g, 38, 4, 38, 95, Terrain::Wall);
    fill(&mut g, 38, 20, 38, 23, free);
    fill(&mut g, 38, 66, 38, 70, free);
    // A meadow of weight 2 and a few pillars.
    for y in 34..=42 {
        for x in 10..=34 {
            let (dx, dy) = (x as f64 - 22.0, y as f64 - 38.0);
            if (dx / 12.0).powi(2) + (dy / 4.0).powi(2) <= 1.0 {
                g.set(Pos::new(x, y), Terrain::Weight(2)).unwrap();
            }
        }
    }
    for (x, y) in [(30, 70), (33, 73), (30, 76), (33, 79), (30, 82), (33, 85)] {
        g.set(Pos::new(x, y), Terrain::Wall).unwrap();
    }

    // The river: weight 3 at its banks, 4, then 5 in the middle. Top to bottom.
    for y in 1..HEIGHT - 1 {
        let c = river_centre(y);
        for dx in -4i32..=4 {
            let w = match dx.abs() {
                0 | 1 => 5,
                2 | 3 => 4,
                _ => 3,
            };
            g.set(Pos::new((c + dx) as u32, y), Terrain::Weight(w))
                .unwrap();
        }
    }
    // Two bridges of plain ground, with railings on the water.
    for (y0, y1) in [(22u32, 24u32), (71, 73)] {
        for y in y0..=y1 {
            let c = river_centre(y);
            for dx in -4i32..=4 {
                g.set(Pos::new((c + dx) as u32, y), free).unwrap();
            }
        }
        for y in [y0 - 1, y1 + 1] {
            let c = river_centre(y);
            for dx in -3i32..=3 {
                g.set(Pos::new((c + dx) as u32, y), Terrain::Wall).unwrap();
            }
        }
    }

    // East: a serpentine, walled on the west, open at its north-east and south-west ends.
    fill(&mut g, 70, 10, 70, 80, Terrain::Wall);
    fill(&mut g, 70, 72, 70, 74, free); // a side door into the lowest band
    for (k, y) in [10u32, 24, 38, 52, 66, 80].into_iter().enumerate() {
        fill(&mut g, 70, y, WIDTH - 2, y, Terrain::Wall);
        if k % 2 == 0 {
            fill(&mut g, 103, y, WIDTH - 2, y, free);
        } else {
            fill(&mut g, 71, y, 75, y, free);
        }
    }
    // Narrow shortcuts through two of the walls: worth walling off while agents use them.
    fill(&mut g, 88, 38, 89, 38, free);
    fill(&mut g, 88, 66, 89, 66, free);
    // A field of boulders in the top band.
    for y in (14..=21).step_by(3) {
        for x in (78..=100).step_by(5) {
            g.set(Pos::new(x + y % 2 * 2, y), Terrain::Wall).unwrap();
        }
    }
    fill(&mut g, 84, 56, 96, 63, Terrain::Weight(2)); // scrub
    fill(&mut g, 78, 88, 82, 95, Terrain::Weight(3)); // a marsh in the south-east

    let agent = |sx, sy, goal| AgentSpec {
        on_arrival: OnArrival::Wander,
        ..AgentSpec::new(Pos::new(sx, sy), goal)
    };
    let mut s = Scenario::from_grid(g);
    s.connectivity = Connectivity::Eight;
    s.seed = 7;
    // Four destinations, each the first goal of three agents, so four planners serve twelve
    // agents, then and while they wander. Seed 7 puts two on each side of the river.
    s.destinations = 4;
    let d = choose_destinations(&s.grid, s.connectivity, s.seed, s.destinations);
    let west: Vec<Pos> = d.iter().copied().filter(|p| p.x < 40).collect();
    let east: Vec<Pos> = d.iter().copied().filter(|p| p.x > 70).collect();
    assert_eq!((west.len(), east.len()), (2, 2), "{d:?}");
    s.agents = vec![
        agent(3, 3, east[0]),   // north-west corner to the south-east
        agent(12, 60, east[0]), // from the lower room of the middle building
        agent(30, 30, east[0]),
        agent(106, 3, west[0]), // north-east corner into the south-west
        agent(92, 48, west[0]), // from inside the serpentine
        agent(100, 75, west[0]),
        agent(5, 95, east[1]),
        agent(25, 45, east[1]),
        agent(35, 80, east[1]),
        agent(108, 60, west[1]),
        agent(80, 95, west[1]),
        agent(95, 30, west[1]),
    ];
    s.dynamic = vec![DynamicSpec::new(0, Some(DynamicWorld::GENTLE))];
    s
}

/// The committed map is exactly what `draw` draws, so the drawing code is its true source.
/// Set `GRIDWALK_REDRAW_MAP=1` to rewrite `maps/default.ron` from it instead.
#[test]
fn committed_map_matches_its_drawing() {
    let s = draw();
    s.validate("default.ron").unwrap();
    let path = default_map_path();
    if std::env::var_os("GRIDWALK_REDRAW_MAP").is_some() {
        s.save(&path).unwrap();
    }
    assert_eq!(
        Scenario::load(&path).unwrap(),
        s,
        "maps/default.ron differs from draw()"
    );
}
