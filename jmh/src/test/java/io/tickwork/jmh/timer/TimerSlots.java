package io.tickwork.jmh.timer;

/**
 * The adapters' test's live timers, numbered 0 to {@code count - 1}, each kept as its subject's
 * users keep it ({@link Longs} for numbered handles, {@link Objects} for timer objects), as the
 * benchmarks keep them in arrays of their own. Not thread safe.
 */
abstract class TimerSlots {

    /** Room for {@code count} live timers of {@code timers}. */
    @SuppressWarnings("unchecked")
    static TimerSlots of(TimerAdapter timers, int count) {
        return timers instanceof LongHandleTimers
                ? new Longs((LongHandleTimers) timers, count)
                : new Objects<>((ObjectHandleTimers<Object>) timers, count);
    }

    /** Schedules {@code payload} at {@code deadline} into slot {@code i}, replacing the slot's finished timer. */
    abstract void schedule(int i, long deadline, Object payload);

    /** Cancels slot {@code i}'s timer: true if it was pending, false if it had fired or was cancelled. */
    abstract boolean cancel(int i);

    /** Slot {@code i}'s handle: a {@code Long}, or the timer object. */
    abstract Object handle(int i);

    /** Moves slot {@code i}'s live timer to {@code deadline} (see the subject's {@code reschedule}). */
    abstract void reschedule(int i, long deadline, Object payload);

    /** A {@code long[]} of handles. */
    static final class Longs extends TimerSlots {
        private final LongHandleTimers timers;
        private final long[] handles;

        Longs(LongHandleTimers timers, int count) {
            this.timers = timers;
            this.handles = new long[count];
        }

        @Override
        void schedule(int i, long deadline, Object payload) {
            handles[i] = timers.schedule(deadline, payload);
        }

        @Override
        boolean cancel(int i) {
            return timers.cancel(handles[i]);
        }

        @Override
        Object handle(int i) {
            return handles[i];
        }

        @Override
        void reschedule(int i, long deadline, Object payload) {
            handles[i] = timers.reschedule(handles[i], deadline, payload);
        }
    }

    /** An array of the timer objects themselves. */
    static final class Objects<T> extends TimerSlots {
        private final ObjectHandleTimers<T> timers;
        private final T[] live;

        @SuppressWarnings("unchecked")
        Objects(ObjectHandleTimers<T> timers, int count) {
            this.timers = timers;
            this.live = (T[]) new Object[count];
        }

        @Override
        void schedule(int i, long deadline, Object payload) {
            live[i] = timers.schedule(deadline, payload);
        }

        @Override
        boolean cancel(int i) {
            return timers.cancel(live[i]);
        }

        @Override
        Object handle(int i) {
            return live[i];
        }

        @Override
        void reschedule(int i, long deadline, Object payload) {
            live[i] = timers.reschedule(live[i], deadline, payload);
        }
    }
}
