//! Work spread over the machine's cores, for the parts of a crowd's step that read each agent's
//! guidance independently of the others (ranking candidates). Jobs run on scoped threads, the
//! first on the calling thread; on wasm32, where there are no threads, they run one after
//! another. Callers split work so that the result does not depend on how many jobs there are.

/// Agents below which a step keeps to one thread: spawning costs more than it saves.
pub(crate) const MIN_PER_THREAD: usize = 1_000;

/// The threads a step may use by default: the machine's cores (at most 8), 1 on wasm32.
pub(crate) fn threads() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
    }
    #[cfg(target_arch = "wasm32")]
    {
        1
    }
}

/// How many jobs `items` agents split into for `threads` threads: at most one per
/// [`MIN_PER_THREAD`] agents, at least one.
pub(crate) fn jobs_for(items: usize, threads: usize) -> usize {
    (items / MIN_PER_THREAD).clamp(1, threads.max(1))
}

/// `0..items` cut into `jobs` consecutive ranges of sizes differing by at most one.
pub(crate) fn ranges(items: usize, jobs: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    let jobs = jobs.max(1);
    (0..jobs).map(move |j| items * j / jobs..items * (j + 1) / jobs)
}

/// Runs `f` on every job, each on its own thread (the first on this one), and returns when
/// all are done; one after another on wasm32.
pub(crate) fn each<T: Send, F: Fn(T) + Sync>(jobs: impl IntoIterator<Item = T>, f: F) {
    let mut jobs = jobs.into_iter();
    let Some(first) = jobs.next() else {
        return;
    };
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::scope(|s| {
        let f = &f;
        for job in jobs {
            s.spawn(move || f(job));
        }
        f(first);
    });
    #[cfg(target_arch = "wasm32")]
    {
        f(first);
        jobs.for_each(&f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_every_item_once_in_order() {
        for (items, jobs) in [(0, 1), (5, 2), (10_001, 3), (7, 7)] {
            let flat: Vec<usize> = ranges(items, jobs).flatten().collect();
            assert_eq!(flat, (0..items).collect::<Vec<_>>(), "{items} in {jobs}");
        }
        assert_eq!(jobs_for(10, 4), 1);
        assert_eq!(jobs_for(10_000, 2), 2);
    }

    #[test]
    fn every_job_runs_once() {
        let mut out = vec![0u32; 6];
        each(out.chunks_mut(2).enumerate(), |(j, part)| {
            for x in part {
                *x = j as u32 + 1;
            }
        });
        assert_eq!(out, [1, 1, 2, 2, 3, 3]);
    }
}
