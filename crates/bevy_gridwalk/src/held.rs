//! Edits held back because an agent stands on their cell ([`GridwalkSettings::hold_edits`]):
//! tried again at every tick, each in the tick's edits, until the cell is free; then it lands
//! and [`EditLanded`] says so.
//!
//! The game's edits of a tick are the held ones, less those a new edit of the same cell
//! replaces, then the new ones, in order. A tick's edits cannot change which cells hold
//! agents or goals, so every edit of one cell in a tick is refused for the same reason or
//! none is: the refusals of a cell, the game's last, say which of the game's edits were
//! refused.
//!
//! [`GridwalkSettings::hold_edits`]: crate::GridwalkSettings::hold_edits

use std::collections::HashMap;

use gridwalk_core::sim::SimError;
use gridwalk_core::{Grid, Pos};

use crate::messages::{EditLanded, TileEdit};

/// The edits waiting for their cells to free, at most one a cell, oldest first.
#[derive(Clone, Debug, Default)]
pub(crate) struct HeldEdits {
    on: bool,
    edits: Vec<TileEdit>,
}

/// Whether an edit refused for `error` waits for its cell: an agent stands there, or waits
/// there to enter (crowd mode).
fn frees_later(error: &SimError) -> bool {
    matches!(
        error,
        SimError::HoldsAgent { .. } | SimError::Entering { .. }
    )
}

impl HeldEdits {
    /// None held; holding refused edits if `on`.
    pub(crate) fn new(on: bool) -> HeldEdits {
        HeldEdits {
            on,
            edits: Vec::new(),
        }
    }

    /// The edits held, oldest first.
    pub(crate) fn as_slice(&self) -> &[TileEdit] {
        &self.edits
    }

    /// Drops every held edit (the world they were aimed at was replaced).
    pub(crate) fn clear(&mut self) {
        self.edits.clear();
    }

    /// Drops the held walls: a "clear walls" replaces them.
    pub(crate) fn drop_walls(&mut self) {
        (self.edits).retain(|e| e.terrain != gridwalk_core::Terrain::Wall);
    }

    /// The game's edits of this tick: the held ones a new edit does not replace, then `new`.
    /// Returns them and how many of them, at the front, were held.
    pub(crate) fn take_with(&mut self, new: Vec<TileEdit>) -> (Vec<TileEdit>, usize) {
        if self.edits.is_empty() {
            return (new, 0);
        }
        let mut edits = std::mem::take(&mut self.edits);
        edits.retain(|h| !new.iter().any(|e| e.pos == h.pos));
        let held = edits.len();
        edits.extend(new);
        (edits, held)
    }

    /// After the tick's share played `edits` (from [`Self::take_with`], `held` of them held
    /// before) behind the scripted ones: holds the game's edits refused because their cell
    /// holds an agent, unless `grid` already has what the cell's last edit asks. Returns the
    /// refusals still to tell (the scripted edits', and the game's that wait for nothing),
    /// in order, and the held edits that landed.
    pub(crate) fn settle(
        &mut self,
        edits: &[TileEdit],
        held: usize,
        refused: Vec<(Pos, SimError)>,
        grid: &Grid,
    ) -> (Vec<(Pos, SimError)>, Vec<EditLanded>) {
        if !self.on || edits.is_empty() {
            return (refused, Vec::new());
        }
        let mut of_game: HashMap<Pos, usize> = HashMap::new();
        for e in edits {
            *of_game.entry(e.pos).or_default() += 1;
        }
        // The game's edits come last: the last refusals of a cell are theirs.
        let mut waits: HashMap<Pos, bool> = HashMap::new();
        let mut tell = vec![true; refused.len()];
        for (i, (pos, error)) in refused.iter().enumerate().rev() {
            if let Some(n) = of_game.get_mut(pos).filter(|n| **n > 0) {
                *n -= 1;
                let wait = frees_later(error);
                waits.insert(*pos, wait);
                tell[i] = !wait;
            }
        }
        for e in edits.iter().filter(|e| waits.get(&e.pos) == Some(&true)) {
            self.edits.retain(|h| h.pos != e.pos);
            self.edits.push(*e);
        }
        (self.edits).retain(|e| grid.terrain(e.pos) != Ok(e.terrain));
        let landed = (edits[..held].iter())
            .filter(|e| !waits.contains_key(&e.pos))
            .map(|e| EditLanded {
                pos: e.pos,
                terrain: e.terrain,
            })
            .collect();
        let told = (refused.into_iter().zip(tell))
            .filter_map(|(r, t)| t.then_some(r))
            .collect();
        (told, landed)
    }
}
