//! One memory hint shared by the hot loops that know their next reads before they need them:
//! the searches' neighbours, the planners' costs and the crowd's guidance.

/// Asks the CPU to start loading the cache line of `slice[i]` (nothing happens if `i` is out
/// of range, or off x86_64).
#[inline(always)]
pub(crate) fn prefetch<T>(slice: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if i < slice.len() {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is only a hint: it never faults, reads nothing into the program
        // and writes nothing; the address is inside `slice` anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(slice.as_ptr().add(i).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, i);
}
