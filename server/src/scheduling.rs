//! How the server's own threads are scheduled beside the rooms' runtime on the same cores (the
//! store's writer and archiver; the computer players' threads).

/// Asks the kernel not to let the calling thread preempt the one that woke it (`SCHED_BATCH`,
/// same share of the core otherwise); for the writer and the archiver. A room's task wakes the
/// writer with each append: with wake-up preemption, a core running both switched to the
/// writer for every append (groups of about two rows, two context switches each); without it
/// the runtime first finishes what is ready, and the writer commits everything that came in as
/// one group. The same holds between the writer and the archiver it passes rows to.
pub fn no_wakeup_preemption() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: `sched_setscheduler` reads `param` for the duration of the call; pid 0 is this
    // thread. A refusal leaves the thread as it was, which is only slower.
    let _ = unsafe { libc::sched_setscheduler(0, libc::SCHED_BATCH, &param) };
}

/// Lets the calling thread run only when its core has nothing else to run (`SCHED_IDLE`): for
/// the computer players' threads, whose searches take up to two seconds of a core. At the
/// same priority as the rooms' runtime they took half its core whenever both were runnable
/// (100 level-8 games beside 1,000 rooms at 2,000 clicks/s, one core: the rooms' p99 went from
/// 52 ms to 1,072 ms); as idle work they take what the rooms leave, and a decision that gets
/// less of the core is cut by its level's time cap (`Level::timed`) sooner in its search.
pub fn idle() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: as in `no_wakeup_preemption`. A refusal leaves the thread as it was.
    let _ = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) };
}
