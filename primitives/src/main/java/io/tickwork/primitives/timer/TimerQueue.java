package io.tickwork.primitives.timer;

import java.util.function.Consumer;

/**
 * A queue of timers for a single-threaded run loop: schedule a payload at an absolute deadline,
 * cancel it by handle, and expire everything that is due.
 *
 * <p>Time is whatever unit the owner chooses (nanoseconds from {@link System#nanoTime()},
 * milliseconds, or a virtual clock in a benchmark); deadlines and {@code now} must use the same unit
 * and the same origin. Implementations differ in how they store timers (a red-black tree, or a
 * timing wheel whose slots are linked lists, ring queues or linked-array lists), not in what they
 * promise. Every implementation makes the same guarantees, so tests and benchmarks iterate over
 * {@link TimerKind} instead of naming a class:
 *
 * <ul>
 *   <li><b>Never early.</b> A timer fires in the first {@link #expire} call whose {@code now} is
 *       {@code >= deadline}, and never in an earlier one.</li>
 *   <li><b>At most one tick late.</b> Wheel implementations round deadlines up to their tick, so
 *       a timer is handed out by the first {@code expire(now)} with {@code now} at or past its
 *       deadline rounded up to the next tick boundary; the tree is exact.</li>
 *   <li><b>Order.</b> One {@code expire} call hands out timers in deadline order, up to the wheel's
 *       resolution: timers whose deadlines fall in the same tick may come out in any order.</li>
 *   <li><b>Past deadlines</b> (including {@code Long.MIN_VALUE}) fire on the next {@code expire}.
 *       Any deadline up to {@link Long#MAX_VALUE} is accepted.</li>
 *   <li><b>Cancel</b> returns {@code true} exactly once, for a timer that had not fired; after the
 *       timer fired or was cancelled, or for a handle that was never issued, it is a harmless
 *       {@code false}. Handles are not reused while the queue lives (a stale handle never cancels
 *       a younger timer). Implementations tag handles with a 32-bit generation per internal slot,
 *       so "never" means until one slot has been recycled 2^32 times.</li>
 *   <li><b>Time going backwards</b> ({@code now} smaller than in an earlier call) is ignored: the
 *       call expires nothing it would not have expired at the larger, earlier {@code now}.</li>
 *   <li><b>Re-entrancy.</b> The consumer passed to {@code expire} may call {@link #schedule} and
 *       {@link #cancel} on this queue. A timer scheduled from the consumer with a deadline
 *       {@code <= now} fires in the next {@code expire} call, not in the running one (so a
 *       self-rescheduling timer cannot loop forever); a timer cancelled from the consumer before
 *       it was handed out is not handed out.</li>
 * </ul>
 *
 * <p><b>Thread safety:</b> none. One thread owns a queue; handing one to another thread needs a
 * happens-before edge (a volatile write, a queue, a lock).
 *
 * @param <T> the payload handed to the consumer when a timer fires
 */
public interface TimerQueue<T> {

    /** What {@link #nextDeadline()} answers when no timer is pending. */
    long NO_DEADLINE = Long.MAX_VALUE;

    /**
     * Schedules {@code payload} to fire at {@code deadline}.
     *
     * @param deadline absolute time, same unit and origin as {@code now} in {@link #expire}
     * @param payload  handed to the consumer when the timer fires; must not be null
     * @return a handle for {@link #cancel}; never 0, so 0 can mean "no timer" in callers' fields
     * @throws NullPointerException if {@code payload} is null
     */
    long schedule(long deadline, T payload);

    /**
     * Cancels the timer with this handle.
     *
     * @return {@code true} if the timer was pending and now will never fire; {@code false} if it
     *         already fired, was already cancelled, or the handle is unknown
     */
    boolean cancel(long handle);

    /**
     * Hands every timer due at {@code now} to {@code consumer}, in deadline order within the
     * resolution, and forgets it. A consumer that throws stops this call; the timers not yet
     * handed out stay pending and fire on the next call.
     *
     * @return how many timers were handed out
     * @throws IllegalStateException if called from its own consumer
     */
    int expire(long now, Consumer<? super T> consumer);

    /**
     * When {@link #expire} will next hand something out: the earliest {@code now} at which a call
     * fires at least one pending timer, so a selector loop blocks until then and neither fires later
     * than the guarantees above nor wakes up to find nothing due. For the tree that is the earliest
     * deadline itself; for wheels it is that deadline rounded up to its tick boundary (at most one
     * tick after the deadline, the lateness already allowed above; answering the deadline itself
     * would make a loop spin for up to a tick, since nothing in that tick fires before its boundary).
     * A wheel may answer earlier than that (a tick that holds only cancelled timers), never later.
     * For a timer already due it answers a time in the past (so the loop does not block), and
     * {@link #NO_DEADLINE} when nothing is pending (or the only timers are due at
     * {@code Long.MAX_VALUE}, which means the same to a loop).
     */
    long nextDeadline();

    /** How many timers are pending (scheduled, not yet fired nor cancelled). */
    int size();

    /** {@code size() == 0}. */
    default boolean isEmpty() {
        return size() == 0;
    }
}
