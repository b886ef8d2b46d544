//! Real data: the GPPC dynamic-track instance in `tests/data/gppc` (1,040 patches, 432
//! queries on a 1024×1024 StarCraft map) gives every optimal algorithm every length of the
//! file, with no mismatch.

use std::path::PathBuf;

use gridwalk_core::Algorithm;
use gridwalk_core::format::gppc::load;
use gridwalk_core::tracks::gppc_dynamic::run;

fn instance_path() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/gppc/aurora_part.scen"
    ))
}

fn passes(algorithm: Algorithm) {
    let instance = load(&instance_path()).expect("the instance loads");
    let report = run(&instance, None, algorithm).expect("the instance runs");
    assert_eq!((report.queries, report.patches), (432, 1040), "{algorithm}");
    assert!(
        report.mismatches.is_empty(),
        "{algorithm}: {report}; first: {:?}",
        &report.mismatches[..report.mismatches.len().min(5)]
    );
    eprintln!(
        "{algorithm}: {report}, expanded {}, planners {}",
        report.expanded, report.planners_made
    );
}

tests_of!(
    passes;
    astar_answers_every_query: Algorithm::AStar,
    dijkstra_answers_every_query: Algorithm::Dijkstra,
    dstar_lite_answers_every_query: Algorithm::DStarLite,
    dstar_answers_every_query: Algorithm::DStar,
);
