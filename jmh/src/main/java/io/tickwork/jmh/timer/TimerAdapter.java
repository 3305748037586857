package io.tickwork.jmh.timer;

/**
 * The smallest timer API every subject of the timer benchmarks can offer on a virtual clock:
 * tickwork's four {@code TimerQueue}s and the peers (Agrona, JDK {@code PriorityQueue},
 * {@code TreeMap}, Kafka's {@code TimingWheel}). Each expired timer's payload goes to the sink
 * given at creation (a {@code Blackhole} in the benchmarks, a recorder in the adapters' test), so
 * no subject can have its expiry path eliminated.
 *
 * <p>Handles are longs, and any live timer can be cancelled by its handle. Subjects whose natural
 * handle is an object (the JDK structures, Kafka's {@code TimerTask}) keep their live timers in a
 * {@link HandleTable}, as a caller keeps a reference to its timer node: one array store and load
 * per timer. Agrona's handle is its timer id; it hands out ids, not payloads, so its adapter gives
 * the sink the shared payload unless a test schedules payloads of its own (see
 * {@link TimerSubject.Agrona}).
 *
 * <p>The contract the benchmarks rely on, checked for every subject by {@code TimerAdaptersTest}:
 * a timer fires exactly once, never before its deadline and at most one tick after it; a cancelled
 * timer never fires; {@code cancel} answers true exactly once for a live timer.
 */
interface TimerAdapter {

    /** Schedules {@code payload} at {@code deadline}; returns a handle for {@link #cancel}. */
    long schedule(long deadline, Object payload);

    /**
     * Cancels a live timer: true if it was pending, false if it had fired or was cancelled. Agrona
     * reuses a timer id once its timer is gone, so there a stale handle may cancel a younger timer;
     * the benchmarks cancel live timers only.
     */
    boolean cancel(long handle);

    /**
     * Moves a live timer to {@code deadline}; returns the handle it has now. tickwork's queues
     * reschedule in place (same handle); the peers, which have no such operation, cancel it and
     * schedule {@code payload} anew, as their users do.
     */
    default long reschedule(long handle, long deadline, Object payload) {
        if (!cancel(handle)) {
            throw new IllegalStateException("reschedule of a timer that is not live");
        }
        return schedule(deadline, payload);
    }

    /** Hands every timer due at {@code now} to the sink; returns how many. */
    int expire(long now);

    /** Pending timers. */
    int size();
}
