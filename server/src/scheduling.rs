//! How the server's own threads are scheduled beside the rooms' runtime on the same cores: the
//! store's (the writer and the archiver) and the computer players' (`bots::pool`).

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

/// Puts the calling thread behind every other (`SCHED_OTHER` at nice 19: about 1/70 of a core
/// against each busy thread of normal priority, and no preempting them); for the computer
/// players' threads, so a bot thinking gives way to a room's broadcast at once, while still
/// never starving (a level-1 decision, microseconds, is answered on a busy machine too). Its
/// search stops at its time bound all the same, with fewer positions seen.
pub fn background() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: as above; then `setpriority` on this thread's own id (on Linux the nice value
    // is a thread's), a plain integer call. A refusal leaves the thread as it was.
    unsafe {
        let _ = libc::sched_setscheduler(0, libc::SCHED_OTHER, &param);
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        let _ = libc::setpriority(libc::PRIO_PROCESS, tid, 19);
    }
}
