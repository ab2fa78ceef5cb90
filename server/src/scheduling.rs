//! How the server's own threads are scheduled beside the rooms' runtime on the same cores (the
//! store's writer and archiver).

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
