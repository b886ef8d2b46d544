//! The game's integration tests, one binary so Bevy is linked once, not once per file.
//!
//! - [`budget`]: the planning budget and the recording of the budgets in a headless App.
//! - [`crowd`]: crowd mode toggled with B, a refused click, recorded and replayed exactly.
//! - [`explain`]: explain mode and the inspector in a headless App.
//! - [`fog`]: unknown terrain toggled with K, recorded and replayed exactly.
//! - [`headless`]: the tick, input and commands in a headless App, the recording, and the real
//!   game binary's command line.
//! - [`monkey`]: thousands of frames of seeded random input, checked every frame.
//! - [`common`]: the headless App they share.

mod budget;
mod common;
mod crowd;
mod explain;
mod fog;
mod headless;
mod monkey;
