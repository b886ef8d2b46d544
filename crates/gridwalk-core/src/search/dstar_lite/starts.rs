//! D\* Lite's stopping rule over many starts (see the module docs, "Stopping"): the cells it
//! settles (the starts, and the cells that must be exact besides them), which of them are
//! still unsettled in a compute, and whether all of them are settled.
//!
//! A cell that must be exact is settled exactly as a start is, and the heuristic's box covers
//! it too, so the heuristic is 0 there and the single-start argument holds for it unchanged.

use super::{DStarLite, Key, START, UNSETTLED};
use crate::cost::{Cost, add};
use crate::grid::Grid;
use crate::queue::CellQueue;
use crate::search::bounds::Bounds;
use crate::search::cells::Store;

impl<Q: CellQueue<Key>, const TOWARD_STARTS: bool, S: Store> DStarLite<Q, TOWARD_STARTS, S> {
    /// Flags the starts and the cells that must be exact as the stopping rule's targets, and
    /// moves the heuristic's box to cover them all (raising `km` by how far it moved).
    pub(super) fn mark_targets(&mut self, grid: &Grid) {
        for &s in &self.start_ids {
            self.flags[s as usize] &= !START;
        }
        self.start_ids.clear();
        for i in 0..self.starts.len() + self.exact.len() {
            let s = match self.starts.get(i) {
                Some(&s) => s,
                None => self.exact[i - self.starts.len()],
            };
            let (x, y) = self.tiles.cell_xy(s);
            let id = self.claim(x, y);
            self.flags[id as usize] |= START;
            self.start_ids.push(id);
        }
        let new = if self.exact.is_empty() {
            Bounds::of(grid, &self.starts)
        } else {
            let all: Vec<usize> = self.starts.iter().chain(&self.exact).copied().collect();
            Bounds::of(grid, &all)
        };
        // With no target left, keep the old box: shrinking to "no box" could break the keys.
        let Some(new) = new else {
            return;
        };
        // From the first box (every cell) the overshoot is 0: keys made with h = 0 stay below.
        let (dx, dy) = self.bounds.overshoot(&new);
        if dx > 0 || dy > 0 {
            let slack = self.heuristic.floors() as Cost;
            self.km = add(self.km, add(self.heuristic.estimate(dx, dy), slack));
        }
        self.bounds = new;
    }

    /// Whether every start is settled: consistent and keyed no better than `top`. Returns
    /// the largest key of the starts still unsettled as well. Settled starts leave the list:
    /// `top` never decreases within a compute, so they stay settled until they are queued.
    pub(super) fn starts_settled(&mut self, top: Key) -> (bool, Key) {
        let mut kmax = Key {
            k1: 0,
            k2: 0,
            rhs: 0,
        };
        let mut i = 0;
        while i < self.unsettled.len() {
            let s = self.unsettled[i];
            let k = self.key_of(s);
            if k <= top && self.g[s as usize] == k.rhs {
                self.flags[s as usize] &= !UNSETTLED;
                self.unsettled.swap_remove(i);
            } else {
                kmax = kmax.max(k);
                i += 1;
            }
        }
        (self.unsettled.is_empty(), kmax)
    }

    /// Lists every start as unsettled, at the beginning of a compute.
    pub(super) fn unsettle_all(&mut self) {
        for &s in &self.unsettled {
            self.flags[s as usize] &= !UNSETTLED;
        }
        self.unsettled.clear();
        for &s in &self.start_ids {
            if self.flags[s as usize] & UNSETTLED == 0 {
                self.flags[s as usize] |= UNSETTLED;
                self.unsettled.push(s);
            }
        }
    }
}
