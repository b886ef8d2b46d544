//! The headless monkey: thousands of frames of random input through the game's own messages
//! and resources (clicks and drags, keys, panel commands, map loads and bad files, planner,
//! heuristic and connectivity switches, spawns, removals, pauses, explain and the living
//! world), checked every frame. Seeded, so a failure repeats.
//!
//! Every frame: every agent stands on a passable cell, and a sample of walking agents' remaining
//! costs equal a Dijkstra optimum on the current map (when it has not changed since the replan).
//! At the end, the session log replays through the core to the same agent cells.

use bevy::app::AppExit;
use bevy::prelude::*;
use gridwalk::explain::ExplainControl;
use gridwalk::maps;
use gridwalk::sim::{GridSim, SimCommand, SimSetup};
use gridwalk::ui_state::CursorTile;
use gridwalk_core::rng::{Draw, Rng, SeedableRng, SplitMix64};
use gridwalk_core::scenario::replay::Replay;
use gridwalk_core::search::dijkstra;
use gridwalk_core::sim::{AgentStatus, SimConfig};
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::{Algorithm, Connectivity, Heuristic, Pos};

use crate::common;

const W: u32 = 24;
const H: u32 = 18;

fn app() -> App {
    let mut setup = SimSetup::on_grid(maps::random_grid(W, H, 0.2, 5));
    setup.on_arrival = OnArrival::Wander;
    common::headless(setup)
}

const KEYS: [KeyCode; 20] = [
    KeyCode::Space,
    KeyCode::KeyN,
    KeyCode::Equal,
    KeyCode::Minus,
    KeyCode::Digit0,
    KeyCode::Digit3,
    KeyCode::Digit9,
    KeyCode::KeyW,
    KeyCode::KeyC,
    KeyCode::KeyA,
    KeyCode::KeyX,
    KeyCode::Tab,
    KeyCode::KeyE,
    KeyCode::KeyH,
    KeyCode::KeyG,
    KeyCode::KeyP,
    KeyCode::KeyI,
    KeyCode::KeyD,
    KeyCode::ArrowLeft,
    KeyCode::KeyR,
];

/// A cell, sometimes off the map, as the cursor reports it.
fn cell(r: &mut SplitMix64) -> IVec2 {
    IVec2::new(
        r.below(W as usize + 4) as i32 - 2,
        r.below(H as usize + 4) as i32 - 2,
    )
}

/// One random input for this frame.
fn poke(
    app: &mut App,
    r: &mut SplitMix64,
    bad_file: &std::path::Path,
    good_file: &std::path::Path,
) {
    let world = app.world_mut();
    match r.below(100) {
        0..=29 => {
            *world.resource_mut::<CursorTile>() = CursorTile {
                world: None,
                cell: Some(cell(r)),
                over_ui: r.below(10) == 0,
            };
        }
        30..=49 => {
            let b = [MouseButton::Left, MouseButton::Middle, MouseButton::Right][r.below(3)];
            let mut buttons = world.resource_mut::<ButtonInput<MouseButton>>();
            if buttons.pressed(b) {
                buttons.release(b);
            } else {
                buttons.press(b);
            }
        }
        50..=64 => {
            let k = KEYS[r.below(KEYS.len())];
            world.resource_mut::<ButtonInput<KeyCode>>().press(k);
        }
        65..=69 => {
            let a = Algorithm::ALL[r.below(4)];
            let connectivity = [Connectivity::Eight, Connectivity::Four][r.below(2)];
            let heuristic = Heuristic::ALL[r.below(Heuristic::ALL.len())];
            world.write_message(SimCommand::SetConfig(SimConfig {
                algorithm: a,
                connectivity,
                heuristic,
                measure_baseline: r.below(2) == 0,
                crowd: false,
                rotation: false,
            }));
        }
        70..=74 => {
            world.write_message(SimCommand::SpawnRandom {
                agents: r.below(6),
                goals: 1 + r.below(3),
            });
        }
        75..=76 => {
            // A map load through the panel's path: a bad file is an error, the world stays.
            let before = world.resource::<GridSim>().epoch();
            assert!(maps::load_map_file(bad_file).is_err());
            assert_eq!(world.resource::<GridSim>().epoch(), before);
            let scenario = maps::load_map_file(good_file).expect("the good file loads");
            world.write_message(SimCommand::Load {
                scenario: Box::new(scenario),
                name: "good.ron".into(),
            });
        }
        77 => {
            world.write_message(SimCommand::RandomMap {
                density: r.below(5) as f64 / 10.0,
                seed: r.next_u64(),
                agents: r.below(12),
            });
        }
        78 => {
            world.write_message(SimCommand::ClearAgents);
        }
        79..=80 => {
            let p = OnArrival::ALL[r.below(3)];
            world.write_message(SimCommand::SetOnArrival(p));
        }
        81 => {
            let d = (r.below(2) == 0).then(|| DynamicWorld {
                every: 1 + r.below(4) as u32,
                walls: 1 + r.below(5) as u32,
            });
            world.write_message(SimCommand::SetDynamic(d));
        }
        82..=86 => {
            let c = match r.below(5) {
                0 => ExplainControl::Start,
                1 => ExplainControl::Step(r.below(2) == 0),
                2 => ExplainControl::Seek(r.below(500)),
                3 => ExplainControl::Compute(r.below(40)),
                _ => ExplainControl::TogglePlay,
            };
            world.write_message(c);
        }
        _ => {}
    }
}

/// The per-frame checks. `exact` when the map has not changed since the last replan.
fn check(app: &App, r: &mut SplitMix64, exact: bool) -> usize {
    let sim = app.world().resource::<GridSim>().sim();
    let grid = sim.grid();
    if let Some(a) = sim.agents().find(|a| !grid.is_passable(a.pos)) {
        panic!("agent {} stands on {}", a.id, a.pos);
    }
    if !exact {
        return 0;
    }
    let walking: Vec<_> = sim
        .agents()
        .filter(|a| a.status == AgentStatus::Walking && a.remaining.is_some())
        .collect();
    let n = 3.min(walking.len());
    for _ in 0..n {
        let a = walking[r.below(walking.len())];
        let best = dijkstra(grid, a.pos, a.goal, sim.config().connectivity)
            .unwrap()
            .path
            .map(|p| p.cost);
        if a.remaining != best {
            let rows: Vec<String> = (0..grid.height())
                .map(|y| {
                    (0..grid.width())
                        .map(|x| match grid.weight(grid.index(Pos::new(x, y)).unwrap()) {
                            0 => '#',
                            1 => '.',
                            w => char::from_digit(w as u32, 10).unwrap(),
                        })
                        .collect()
                })
                .collect();
            panic!(
                "agent {} from {} to {}: remaining {:?}, optimum {:?}; {:?}; tick {}\n{}",
                a.id,
                a.pos,
                a.goal,
                a.remaining,
                best,
                sim.config(),
                sim.tick_count(),
                rows.join("\n")
            );
        }
    }
    n
}

#[test]
fn thousands_of_random_frames_keep_the_world_sound_and_replayable() {
    let dir = std::env::temp_dir().join(format!("gridwalk-monkey-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "(rows: [\"..#\", \"..\"], agents: [(start: (9, 9))])").unwrap();
    let good = dir.join("good.ron");
    std::fs::write(
        &good,
        "(rows: [\"..........\", \"...##.....\", \"..........\"],\n \
         agents: [(start: (0, 0), goal: (9, 2), on_arrival: Wander)],\n \
         dynamic: [(every: 2, walls: 2)], seed: 4)",
    )
    .unwrap();

    let mut app = app();
    let mut r = SplitMix64::seed_from_u64(20_261_122);
    let mut exits = 0;
    let mut compared = 0;
    for _ in 0..3000 {
        poke(&mut app, &mut r, &bad, &good);
        app.update();
        // Esc is never pressed here; an exit would be a bug.
        exits += app
            .world_mut()
            .resource_mut::<Messages<AppExit>>()
            .drain()
            .count();
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.release_all();
        keys.clear();
        let exact = !app.world().resource::<GridSim>().sim().changes_pending();
        compared += check(&app, &mut r, exact);
    }
    assert_eq!(exits, 0);
    assert!(
        compared > 1000,
        "only {compared} costs compared with Dijkstra"
    );

    // The session's current segment replays through the core to the same cells.
    let state = app.world().resource::<GridSim>();
    let scenario = state.segment().to_scenario();
    let last = state.next_tick() - 1;
    let mut replay = Replay::new(scenario, state.sim().config().algorithm);
    for _ in 0..=last {
        replay.step();
    }
    let want: Vec<Pos> = state.sim().agents().map(|a| a.pos).collect();
    let got: Vec<Pos> = replay.sim().agents().map(|a| a.pos).collect();
    assert_eq!(got, want, "the recording replays to where the game is");
    std::fs::remove_dir_all(&dir).ok();
}
