package io.tickwork.jmh.timer;

/**
 * A subject that names each timer by a {@code long}: tickwork's handles, Agrona's timer ids. The
 * workloads keep its handles in a {@code long[]}, as a user keeps the number in a field.
 */
interface LongHandleTimers extends TimerAdapter {

    /** Schedules {@code payload} at {@code deadline}; returns its handle. */
    long schedule(long deadline, Object payload);

    /**
     * Cancels a timer: true if it was pending, false if it had fired or was cancelled. Agrona reuses
     * a timer id once its timer is gone, so there a stale id may cancel a younger timer; the
     * benchmarks cancel live timers only.
     */
    boolean cancel(long handle);

    /**
     * Moves a live timer to {@code deadline}; returns the handle it has now. tickwork's queues
     * reschedule in place (same handle); Agrona, which has no such operation, cancels it and
     * schedules {@code payload} anew, as its users do.
     */
    default long reschedule(long handle, long deadline, Object payload) {
        if (!cancel(handle)) {
            throw new IllegalStateException("reschedule of a timer that is not live");
        }
        return schedule(deadline, payload);
    }

    @Override
    default void add(long deadline, Object payload) {
        schedule(deadline, payload);
    }
}
