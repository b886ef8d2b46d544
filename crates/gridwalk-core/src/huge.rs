//! Arrays that may sit on transparent huge pages: [`HugeVec`], a growable array of `Copy`
//! items for the planners' big per-cell state (D\* Lite's `g`, the MAPF distance tables).
//!
//! Those arrays are read at random by thousands of agents a tick, 100 planners of 2 MB and
//! more at once: with 4 KiB pages the reads wait on TLB page walks. On Linux an array of
//! [`HUGE_PAGE`] bytes or more is allocated 2 MiB-aligned and marked `MADV_HUGEPAGE` (the
//! machine's transparent huge pages may be on `madvise` only), so each 2 MiB of it can be one
//! TLB entry. Smaller arrays, and every array on other targets, are allocated as a `Vec` would.
//!
//! # Memory stays counted
//! Owners count an array as its [`capacity`](HugeVec::capacity) times the item size, as they
//! did with `Vec`. Capacities grow by `queue::grow`'s rule, except that on Linux room of a
//! megabyte or more is rounded up to whole huge pages (a 2.0 MB `g` is held in 2 MiB, where
//! the rule alone gives 2.0–2.5 MB), and that room is what is counted. Only the whole huge
//! pages inside the capacity are marked, and the kernel backs a range with a huge page only
//! when the whole aligned range lies inside a marked region; so what is resident never passes
//! the counted capacity, though a huge page commits the unused room it covers. The alignment
//! costs address space (up to 2 MiB a block), never resident memory: the bytes before the
//! aligned start are never touched.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

/// The size of a transparent huge page on x86-64 and most aarch64 Linux kernels: 2 MiB. An
/// array of at least this many bytes is aligned to it and marked (on Linux).
pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// A growable array of `Copy` items whose big allocations may use huge pages (see the
/// module docs). It derefs to a slice; it grows with [`grow`](Self::grow) and never shrinks.
pub(crate) struct HugeVec<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
    cap: usize,
}

// SAFETY: a `HugeVec` owns its items as a `Vec` does; the pointer is never shared.
unsafe impl<T: Copy + Send> Send for HugeVec<T> {}
// SAFETY: shared access only reads the items, as `&[T]`.
unsafe impl<T: Copy + Sync> Sync for HugeVec<T> {}

impl<T: Copy> HugeVec<T> {
    /// `n` copies of `fill`, with room for exactly `n`.
    pub(crate) fn from_elem(fill: T, n: usize) -> Self {
        let mut v = HugeVec {
            ptr: NonNull::dangling(),
            len: 0,
            cap: 0,
        };
        v.reallocate(n);
        v.fill_to(n, fill);
        v
    }

    /// How many items there is room for: what an owner counts as held.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.cap
    }

    /// Grows to `n` items of `fill` when shorter, reserving a quarter again ahead (at least
    /// 64) when the room runs out, the rule of `queue::grow`; on Linux, room of half a huge
    /// page or more is then rounded up to whole huge pages, so that all of it can be on them.
    #[inline]
    pub(crate) fn grow(&mut self, n: usize, fill: T) {
        if self.len < n {
            if n > self.cap {
                self.reallocate(room_for::<T>(crate::queue::room_ahead(n)));
            }
            self.fill_to(n, fill);
        }
    }

    /// Writes `fill` into the items from `len` up to `n` (within the capacity).
    fn fill_to(&mut self, n: usize, fill: T) {
        debug_assert!(n <= self.cap);
        for i in self.len..n {
            // SAFETY: `i < n <= cap`, inside the allocation; the slot is uninitialised and
            // `T: Copy` has no drop, so writing over it is sound.
            unsafe { self.ptr.as_ptr().add(i).write(fill) };
        }
        self.len = n;
    }

    /// Moves the items to a new allocation with room for `cap` (at least `len`) items.
    fn reallocate(&mut self, cap: usize) {
        debug_assert!(cap >= self.len);
        let new = allocate::<T>(cap);
        // SAFETY: both blocks hold at least `len` items and are distinct allocations.
        unsafe { std::ptr::copy_nonoverlapping(self.ptr.as_ptr(), new.as_ptr(), self.len) };
        release(self.ptr, self.cap);
        self.ptr = new;
        self.cap = cap;
    }
}

/// The capacity [`HugeVec::grow`] reserves for `want` items: `want`, rounded up to whole
/// huge pages on Linux from half a huge page on.
fn room_for<T>(want: usize) -> usize {
    let size = std::mem::size_of::<T>().max(1);
    let bytes = want.saturating_mul(size);
    if cfg!(target_os = "linux") && bytes >= HUGE_PAGE / 2 {
        (bytes.next_multiple_of(HUGE_PAGE) / size).max(want)
    } else {
        want
    }
}

/// The layout of a block of `cap` items: 2 MiB-aligned when it is at least [`HUGE_PAGE`]
/// bytes on Linux, the item's own alignment otherwise.
fn layout<T>(cap: usize) -> Layout {
    let plain = Layout::array::<T>(cap).expect("array size overflows the address space");
    if cfg!(target_os = "linux") && plain.size() >= HUGE_PAGE {
        plain
            .align_to(HUGE_PAGE)
            .expect("a 2 MiB alignment is a valid alignment")
    } else {
        plain
    }
}

/// A block for `cap` items (dangling when it takes no bytes), marked for huge pages when it
/// is big enough.
fn allocate<T>(cap: usize) -> NonNull<T> {
    let layout = layout::<T>(cap);
    if layout.size() == 0 {
        return NonNull::dangling();
    }
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { alloc::alloc(layout) };
    let Some(ptr) = NonNull::new(ptr.cast::<T>()) else {
        alloc::handle_alloc_error(layout)
    };
    if layout.align() == HUGE_PAGE {
        advise_huge(ptr.as_ptr().cast(), layout.size());
    }
    ptr
}

/// Frees a block made by [`allocate`] for `cap` items.
fn release<T>(ptr: NonNull<T>, cap: usize) {
    let layout = layout::<T>(cap);
    if layout.size() != 0 {
        // SAFETY: `ptr` was allocated by `allocate::<T>(cap)`, with this same layout.
        unsafe { alloc::dealloc(ptr.as_ptr().cast(), layout) };
    }
}

/// Marks the whole 2 MiB pages of the block at `start` (2 MiB-aligned) of `bytes` bytes for
/// transparent huge pages. A hint: when the kernel refuses, the block works as before.
#[cfg(target_os = "linux")]
fn advise_huge(start: *mut u8, bytes: usize) {
    let whole = bytes / HUGE_PAGE * HUGE_PAGE;
    if whole > 0 {
        // SAFETY: the range lies inside a live allocation of ours and is page-aligned;
        // MADV_HUGEPAGE changes no contents, only how the kernel may back the range.
        unsafe { libc::madvise(start.cast(), whole, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_: *mut u8, _: usize) {}

impl<T: Copy> Drop for HugeVec<T> {
    fn drop(&mut self) {
        release(self.ptr, self.cap);
    }
}

impl<T: Copy> std::ops::Deref for HugeVec<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: the first `len` items are initialised, and the pointer is valid (or
        // dangling with `len` 0).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> std::ops::DerefMut for HugeVec<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Clone for HugeVec<T> {
    /// A copy with the same capacity, so that a clone is counted as its original is.
    fn clone(&self) -> Self {
        let mut v = HugeVec {
            ptr: NonNull::dangling(),
            len: 0,
            cap: 0,
        };
        v.reallocate(self.cap);
        // SAFETY: the new block has room for `cap >= len` items, distinct from ours.
        unsafe { std::ptr::copy_nonoverlapping(self.ptr.as_ptr(), v.ptr.as_ptr(), self.len) };
        v.len = self.len;
        v
    }
}

impl<T: Copy + PartialEq> PartialEq for HugeVec<T> {
    /// Equal items, whatever the capacities.
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl<T: Copy + std::fmt::Debug> std::fmt::Debug for HugeVec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_as_a_vec_grown_by_the_same_rule_below_half_a_huge_page() {
        let mut v = HugeVec::from_elem(7u64, 3);
        let mut w = vec![7u64; 3];
        for (n, fill) in [(2, 1), (10, 2), (100, 3), (101, 4), (5_000, 5), (60_000, 6)] {
            v.grow(n, fill);
            crate::queue::grow(&mut w, n, fill);
            assert_eq!(&v[..], &w[..]);
            assert_eq!(v.capacity(), w.capacity(), "grown to {n}");
        }
        v[12] = 99;
        let c = v.clone();
        assert_eq!((&c[..], c.capacity()), (&v[..], v.capacity()));
    }

    #[test]
    fn big_room_is_whole_huge_pages_on_linux() {
        // 150,000 u64 want 187,500 of room (1.4 MiB): one huge page on Linux.
        let mut v = HugeVec::from_elem(1u64, 10);
        v.grow(150_000, 2);
        assert!(v[..10].iter().all(|&x| x == 1) && v[10..].iter().all(|&x| x == 2));
        let room = if cfg!(target_os = "linux") {
            HUGE_PAGE / 8
        } else {
            187_500
        };
        assert_eq!(v.capacity(), room);
        // Growing past it keeps the items and adds whole pages: 300,000 want 375,000 (2.9 MiB).
        v.grow(300_000, 3);
        assert_eq!((v[9], v[10], v[149_999], v[150_000]), (1, 2, 2, 3));
        let room = if cfg!(target_os = "linux") {
            2 * HUGE_PAGE / 8
        } else {
            375_000
        };
        assert_eq!(v.capacity(), room);
    }

    #[test]
    fn big_arrays_are_aligned_to_huge_pages_on_linux() {
        let small = HugeVec::from_elem(0u8, HUGE_PAGE - 1);
        let big = HugeVec::from_elem(1u64, HUGE_PAGE / 8 + 3);
        assert!(big.iter().all(|&x| x == 1) && small.iter().all(|&x| x == 0));
        let aligned = (big.as_ptr() as usize).is_multiple_of(HUGE_PAGE);
        assert_eq!(aligned, cfg!(target_os = "linux"));
        let empty: HugeVec<u32> = HugeVec::from_elem(0, 0);
        assert!(empty.is_empty());
    }
}
