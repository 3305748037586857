package io.tickwork.primitives.timer;

import java.util.function.LongConsumer;

/**
 * {@link TimerQueue}'s operations with {@code long} payloads: for owners that key their timers by
 * number (a user id, a connection index), so a timer costs no box and no allocation once the
 * queue is warm. Every guarantee of {@link TimerQueue} holds, with a {@link LongConsumer} for the
 * expired payloads, and {@link #nextDeadline()} answers {@link #NO_DEADLINE} (the same value as
 * {@link TimerQueue#NO_DEADLINE}) when it is empty.
 *
 * <p>A queue from {@link TimerQueueBuilder#buildLong()} or {@link TimerKind#createLong} must be
 * used through this interface only. Its object may also implement {@link TimerQueue} (one class
 * serves both payload kinds), but it stores no object payloads: reached by a cast, its
 * {@code TimerQueue.schedule} and {@code TimerQueue.expire} methods throw
 * {@link UnsupportedOperationException}.
 *
 * <pre>{@code
 * // a monotonic millisecond clock, read once for the origin (a wall clock may jump)
 * LongTimerQueue idle = TimerQueue.builder(TimeUnit.MILLISECONDS, Math.floorDiv(System.nanoTime(), 1_000_000))
 *         .tick(Duration.ofMillis(10))
 *         .span(Duration.ofSeconds(120))
 *         .buildLong();
 * long nowMillis = Math.floorDiv(System.nanoTime(), 1_000_000);
 * long handle = idle.schedule(nowMillis + 30_000, connectionId);
 * idle.expire(nowMillis, id -> close(id)); // the ids due by nowMillis, up to one 10 ms tick late
 * }</pre>
 *
 * <p><b>Thread safety:</b> none; one thread owns a queue.
 */
public interface LongTimerQueue {

    /** Schedules {@code payload} at {@code deadline}; returns a handle, never 0. See {@link TimerQueue#schedule}. */
    long schedule(long deadline, long payload);

    /** See {@link TimerQueue#cancel}. */
    boolean cancel(long handle);

    /** See {@link TimerQueue#reschedule}. */
    boolean reschedule(long handle, long deadline);

    /** See {@link TimerQueue#expire(long, java.util.function.Consumer)}. */
    int expire(long now, LongConsumer consumer);

    /** See {@link TimerQueue#expire(long, java.util.function.Consumer, int)}. */
    int expire(long now, LongConsumer consumer, int limit);

    /** {@link #nextDeadline()}'s answer when no timer is pending: {@link TimerQueue#NO_DEADLINE}. */
    long NO_DEADLINE = TimerQueue.NO_DEADLINE;

    /** See {@link TimerQueue#nextDeadline}. */
    long nextDeadline();

    /** How many timers are pending. */
    int size();

    /** {@code size() == 0}. */
    default boolean isEmpty() {
        return size() == 0;
    }
}
