//! D\* Lite's stopping rule over many starts (see the module docs, "Stopping"): which starts
//! are still unsettled in a compute, and whether all of them are settled.

use super::{DStarLite, Key, UNSETTLED};
use crate::queue::CellQueue;

impl<Q: CellQueue<Key>, const TOWARD_STARTS: bool> DStarLite<Q, TOWARD_STARTS> {
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
