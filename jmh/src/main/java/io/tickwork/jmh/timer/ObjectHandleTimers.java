package io.tickwork.jmh.timer;

/**
 * A subject whose timers are objects (a JDK node, Kafka's {@code TimerTask}): its users keep the
 * object in a field and cancel through it, so the workloads keep its timers in an
 * {@code Object[]}.
 *
 * @param <T> the timer object
 */
interface ObjectHandleTimers<T> extends TimerAdapter {

    /** Schedules {@code payload} at {@code deadline}; returns the timer object. */
    T schedule(long deadline, Object payload);

    /** Cancels {@code timer}: true if it was pending, false if it had fired or was cancelled. */
    boolean cancel(T timer);

    /**
     * Moves a live timer to {@code deadline}: none of these subjects has such an operation, so it
     * is cancelled and {@code payload} scheduled anew, as their users do.
     */
    default T reschedule(T timer, long deadline, Object payload) {
        if (!cancel(timer)) {
            throw new IllegalStateException("reschedule of a timer that is not live");
        }
        return schedule(deadline, payload);
    }

    @Override
    default void add(long deadline, Object payload) {
        schedule(deadline, payload);
    }
}
