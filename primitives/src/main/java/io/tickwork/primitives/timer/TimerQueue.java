package io.tickwork.primitives.timer;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A queue of timers for a single-threaded run loop: schedule a payload at a deadline, reschedule
 * or cancel it by handle, and expire everything that is due.
 *
 * <p>Time is a {@code long} on the owner's clock, in the unit and from the origin given at
 * construction ({@link #builder}). A deadline is a time on that clock, not a delay: schedule
 * {@code now + timeout}. A timeout alone is a time near 0 on the owner's clock: long past, firing
 * at the next {@code expire}, when the clock reads far above 0; as far ahead as the clock is below
 * 0 when it reads far below, as {@code System.nanoTime()} may (its origin is arbitrary). Times are
 * compared as signed longs, so the clock must not wrap while the queue
 * lives and {@code now + timeout} must not overflow ({@code System.nanoTime()} on a running JVM is
 * far from either end):
 *
 * <pre>{@code
 * // idle timeouts in a selector loop, on System.nanoTime(), 1 ms ticks, a wheel spanning 64 s
 * TimerQueue<Connection> idle = TimerQueue.builder(TimeUnit.NANOSECONDS, System.nanoTime())
 *         .tick(Duration.ofMillis(1))
 *         .span(Duration.ofSeconds(64))
 *         .build();
 * long timeout = TimeUnit.SECONDS.toNanos(30);
 * // each loop turn: expire first, so that after a long select() the wheel has moved on to now
 * // and a new timeout lands in it, not in the overflow heap
 * long now = System.nanoTime();
 * idle.expire(now, Connection::closeIdle, 1024);                  // at most 1,024 per loop turn
 * conn.timer = idle.schedule(now + timeout, conn);                // on accept
 * idle.reschedule(conn.timer, now + timeout);                     // on activity: same handle
 * long next = idle.nextDeadline();                               // select() may block until then
 * if (next == TimerQueue.NO_DEADLINE) {
 *     selector.select();
 * } else if (next <= now) {
 *     selector.selectNow();  // timers left due by the limit: do not block
 * } else {
 *     long nanos = next - now;  // negative only if it overflowed: next is centuries away
 *     // whole ms, rounded up; select(0) blocks with no timeout, right for the overflowed case
 *     selector.select(nanos < 0 ? 0 : (nanos - 1) / 1_000_000 + 1);
 * }
 * }</pre>
 *
 * <p>Implementations differ in how they store timers (a red-black tree, or a timing wheel whose
 * slots are linked lists, ring queues or linked-array lists) and in when, within the rules below,
 * a timer fires: the tree at its deadline, a wheel at the first tick start at or after it (so a
 * deadline before the origin fires on a wheel only once {@code now} reaches the origin). The
 * rules hold for every kind, so tests and benchmarks iterate over {@link TimerKind}:
 *
 * <ul>
 *   <li><b>Never early.</b> A timer never fires in an {@link #expire} call whose {@code now} is
 *       {@code < deadline}. It fires in the first call whose {@code now} reaches its firing time,
 *       unless a {@code limit} holds it back or, on wheels, time went backwards (past deadlines,
 *       below): the deadline itself on the tree; on wheels the
 *       first tick start at or after it (the deadline itself when it falls on one), so less than
 *       one tick late (ticks start at {@code origin + k * tick}).</li>
 *   <li><b>Order.</b> Timers are handed out in deadline order, up to the wheel's resolution:
 *       timers whose deadlines fall in the same tick may come out in any order. A bounded
 *       {@code expire} keeps the order across calls. On wheels, a timer whose tick is already
 *       behind the wheel's position (a past deadline, or one scheduled while a bounded
 *       {@code expire} left a tick pending) joins the tick at that position and may come out
 *       after timers due later than it.</li>
 *   <li><b>Bounded expiry.</b> {@code expire(now, consumer, limit)} hands out at most
 *       {@code limit} timers; the rest of those due stay pending and fire on later calls, never
 *       early, in order. On wheels the limit bounds the call's work too: it stops once it has
 *       taken {@code limit} entries out of its slots and overflow heap, counting timers handed
 *       out, timers moved on (rescheduled later, or coming into the wheel from the heap) and the
 *       cancelled copies a ring or linked array skips; so it may hand out fewer than
 *       {@code limit} while timers are still due. {@link #nextDeadline()} tells: a time in the
 *       past while any are.</li>
 *   <li><b>Past deadlines</b> (including {@code Long.MIN_VALUE}) fire on the next {@code expire}
 *       whose {@code now} reaches them on the tree. On wheels they fire on the next
 *       {@code expire} whose {@code now} is at least the origin and within or past the tick the
 *       wheel stands at: the tick of the largest {@code now} seen so far, or, after a call that a
 *       {@code limit} or a throwing consumer stopped, the tick where it stopped. Any
 *       deadline up to {@link Long#MAX_VALUE} is accepted; on a wheel, a deadline after the start
 *       of the last tick before {@code Long.MAX_VALUE} (one on that start fires there), or in a
 *       tick past the last one a long counts (with a
 *       one-unit tick, a deadline at or past {@code origin + Long.MAX_VALUE}), fires only at
 *       {@code expire(Long.MAX_VALUE, ..)}, never early, and
 *       {@link #nextDeadline()} answers {@code Long.MAX_VALUE} for it. {@code expire(Long.MAX_VALUE, ..)}
 *       fires everything: use it only to drain a queue before dropping it. Once it has been
 *       called, the queue's time has ended: {@code schedule} throws
 *       {@link IllegalStateException} (a timer scheduled then could fire at no real
 *       {@code now}), except from an {@code expire} consumer. Timers scheduled from a consumer,
 *       and those a bounded drain left pending, still fire: at the next
 *       {@code expire(Long.MAX_VALUE, ..)}, or at any {@code now} that reaches them, but on a
 *       wheel whose drain ran to the end: that wheel stands at the last tick, and a timer
 *       scheduled or rescheduled there waits for the next such call, whatever its deadline.</li>
 *   <li><b>Cancel and reschedule</b> return {@code true} for a timer that is pending and act on
 *       it; for a timer that fired or was cancelled, or a handle never issued, they return
 *       {@code false} and change nothing. A rescheduled timer keeps its handle. Handles are never
 *       0, nor any number from 0 to 2^32 (an {@code int} id passed by mistake), nor -1; they may be
 *       negative. They are not reused while the queue lives (a stale handle never touches a
 *       younger timer): they carry a 32-bit generation per internal slot, which runs through
 *       [2^30, 2^32), so "never" means until one slot has been recycled 3 * 2^29 (1.6 * 10^9)
 *       times on a wheel, 3 * 2^30 on the tree (a slot freed last is reused first, so that takes
 *       as many cancels and schedules in a row, each of the same slot). Each queue starts its
 *       generations at a value of its own, at or above 2^30, and another queue's handle is
 *       refused with {@code false} unless one slot has been recycled at least about 2^27 / k times
 *       more in one queue than in the other, k being the queues the JVM has made (up to about
 *       10^8 queues).</li>
 *   <li><b>Time going backwards</b> ({@code now} smaller than in an earlier call) is ignored: the
 *       call expires nothing it would not have expired at the larger, earlier {@code now}.</li>
 *   <li><b>Re-entrancy.</b> The consumer passed to {@code expire} may schedule, reschedule and
 *       cancel on this queue. A timer scheduled or rescheduled from the consumer with a deadline
 *       {@code <= now} is not handed out by the running call, only by a later one, by the rules
 *       above (so a self-rescheduling timer cannot loop forever); a timer cancelled from the
 *       consumer before it was handed out is not handed out. The timer being handed out is no
 *       longer pending: {@code cancel} and {@code reschedule} of its own handle return
 *       {@code false}, so a periodic timer schedules itself again and keeps the new handle.
 *       {@link #nextDeadline()} and {@link #size()} may be called too; while timers the consumer
 *       scheduled already due at {@code now} (placed when the call returns: a deadline at or
 *       before {@code now} on the tree, at or before the start of {@code now}'s tick on a wheel)
 *       are pending, {@code nextDeadline()} answers a time that is already due:
 *       {@code Long.MIN_VALUE} on the tree, on a wheel the start of the tick the call stands at.
 *       (On a wheel a deadline later in {@code now}'s tick is not due yet: it waits for the next
 *       tick, whose start, past {@code now}, is what {@code nextDeadline()} answers for it.) Once
 *       the consumer has cancelled its due timers it may still answer a due time, or the next
 *       deadline of the timers left ({@link #NO_DEADLINE} if none): never later than the true one.
 *       Ask again after {@code expire} returns.</li>
 *   <li><b>Out of memory.</b> A queue allocates only as it grows, with the timers pending (those
 *       a consumer schedules while {@code expire} runs included), not with the calls made. A
 *       {@code schedule} that throws
 *       {@link OutOfMemoryError} (or {@link IllegalStateException} for a full slot, see
 *       {@link #schedule}) leaves it as it was; so does any call on the tree. On a wheel, a
 *       timer being moved when either comes may be dropped (no longer pending, never fires):
 *       the one {@code reschedule} moves, one {@code expire} moves to a later slot or out of the
 *       overflow heap, one scheduled from {@code expire}'s consumer that is placed when
 *       {@code expire} returns, or, where a slot compacts in {@code cancel} or
 *       {@code reschedule}, another timer of that slot. Either way the queue stays consistent
 *       ({@link #size()} counts exactly the pending timers) and keeps this contract.</li>
 * </ul>
 *
 * <p>{@link LongTimerQueue} is the same with {@code long} payloads, for owners that key their
 * timers by number (a user id, an index): nothing is boxed, nothing allocated once warm. A queue
 * from {@link TimerQueueBuilder#build()} or {@link TimerKind#create} must be used through this
 * interface only. Its object may also implement {@code LongTimerQueue} (one class serves both
 * payload kinds), but it stores no {@code long} payloads: reached by a cast, its
 * {@code LongTimerQueue.schedule} and {@code LongTimerQueue.expire} methods throw
 * {@link UnsupportedOperationException}.
 *
 * <p>{@code toString()} names the {@link TimerKind} and the pending count, and for a wheel its tick
 * with the queue's unit ({@code tick=1000000 ns}; bare for the raw-tick factory's queues), its
 * ticks and how many timers wait beyond it in the overflow heap
 * ({@code far}); for the tree, its distinct deadlines. Equality is identity.
 *
 * <p><b>Thread safety:</b> none. One thread owns a queue; handing one to another thread needs a
 * happens-before edge (a volatile write, a queue, a lock).
 *
 * @param <T> the payload handed to the consumer when a timer fires
 */
public interface TimerQueue<T> {

    /**
     * What {@link #nextDeadline()} answers when no timer is pending: {@link Long#MAX_VALUE}, the
     * same value as a deadline at the end of time. A loop on a virtual clock that calls
     * {@code expire(nextDeadline(), ..)} must test for it first: with nothing pending, that call
     * would be {@code expire(Long.MAX_VALUE, ..)}, which ends the queue's time (see the class
     * comment).
     */
    long NO_DEADLINE = Long.MAX_VALUE;

    /**
     * Schedules {@code payload} to fire at {@code deadline}.
     *
     * @param deadline a time on the queue's clock, like {@code now} in {@link #expire}
     * @param payload  handed to the consumer when the timer fires; must not be null
     * @return a handle for {@link #cancel}; never 0, so 0 can mean "no timer" in callers' fields
     * @throws NullPointerException if {@code payload} is null
     * @throws IllegalStateException if the queue is full: 2^30 pending timers on a wheel, 2^27 - 1
     *     on {@link TimerKind#RB_TREE}, or {@link Integer#MAX_VALUE} entries in the deadline's slot
     *     of a {@link TimerKind#WHEEL_LINKED_ARRAY} or in its spill on a {@link TimerKind#WHEEL_RING}
     *     (live timers and cancelled ones not yet compacted); or if its time has ended (drained by
     *     {@code expire(Long.MAX_VALUE, ..)}, see the class comment). The queue is unchanged.
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
     * Moves a pending timer to {@code deadline}, keeping its handle and payload: an idle timeout
     * re-armed on activity. O(1) on the wheels (a later deadline is one store: the timer moves when
     * its old tick comes up; an earlier one unlinks it, amortised O(1) where slots keep copies);
     * O(log f) for a timer in a wheel's overflow heap of f timers; O(log d) on the tree.
     *
     * @return {@code true} if the timer was pending and now fires at {@code deadline} (by the
     *         rules of the class comment: on a wheel whose drain to {@code Long.MAX_VALUE} ran to
     *         the end, only at the next such drain); {@code false} if it already fired, was
     *         cancelled, or the handle is unknown (nothing is scheduled then)
     */
    boolean reschedule(long handle, long deadline);

    /**
     * Hands every timer due at {@code now} to {@code consumer}, in deadline order within the
     * resolution, and forgets it. A consumer that throws stops this call and the exception
     * propagates: the timer it was given counts as handed out (it is not handed out again), the
     * timers not yet handed out stay pending and fire on the next call, and timers scheduled
     * from the consumer are kept.
     *
     * @return how many timers were handed out
     * @throws IllegalStateException if called from its own consumer
     * @throws NullPointerException if {@code consumer} is null (nothing is expired then)
     */
    int expire(long now, Consumer<? super T> consumer);

    /**
     * As {@link #expire(long, Consumer)}, handing out at most {@code limit} timers: a loop that must
     * stay responsive bounds the work of one call. Timers due but not handed out stay pending, in
     * order, and fire on the next calls; {@link #nextDeadline()} then answers a time in the past.
     * On wheels the call also stops after taking {@code limit} entries out of its slots and heap
     * (see the class comment), so one call costs O(limit) (O(limit log f) where the entries come
     * out of the overflow heap of f far timers) plus the scan of the wheel's bitmap, even when a
     * tick holds many timers rescheduled later; it may then return less than {@code limit}
     * with timers still due: ask {@link #nextDeadline()}, not the count, whether more are.
     *
     * @throws IllegalArgumentException if {@code limit < 1}
     */
    int expire(long now, Consumer<? super T> consumer, int limit);

    /**
     * When {@link #expire} will next hand something out: the earliest {@code now} at which a call
     * fires at least one pending timer, so a selector loop blocks until then and neither fires later
     * than the guarantees above nor wakes up to find nothing due. For the tree that is the earliest
     * deadline itself; for wheels it is that deadline rounded up to its tick boundary (at most one
     * tick after the deadline, the lateness already allowed above; answering the deadline itself
     * would make a loop spin for up to a tick, since nothing in that tick fires before its boundary).
     * A wheel may answer earlier than that, never later: a tick that holds timers rescheduled to
     * a later deadline (they move when their old tick comes up, so an idle timeout re-armed on
     * activity costs the loop at most one early wake-up per re-arm interval), or, asked from
     * {@code expire}'s consumer or after an {@code expire} that stopped at its limit or whose
     * consumer threw, the tick that call was expiring.
     * For a timer already due it answers a time in the past (so the loop does not block), and
     * {@link #NO_DEADLINE} when nothing is pending, or when the only timers fire at
     * {@code expire(Long.MAX_VALUE, ..)} alone: deadlines at {@code Long.MAX_VALUE} (on a wheel,
     * after the start of the last tick a long counts), and on a wheel whose {@code expire(Long.MAX_VALUE, ..)} ran
     * to the end, timers scheduled from its consumer (see "Past deadlines" above). Either means
     * the same to a loop: nothing will fire at a real {@code now}. The early answers above come
     * first: a wheel timer rescheduled to {@code Long.MAX_VALUE} still answers its old tick until
     * an {@code expire} at that tick has moved it.
     */
    long nextDeadline();

    /** How many timers are pending (scheduled, not yet fired nor cancelled). */
    int size();

    /** {@code size() == 0}. */
    default boolean isEmpty() {
        return size() == 0;
    }

    /**
     * A builder of timer queues on a clock whose times are in {@code unit}, with ticks counted from
     * {@code origin} (usually the clock's reading now, e.g. {@code System.nanoTime()}).
     *
     * @throws NullPointerException if {@code unit} is null
     */
    static TimerQueueBuilder builder(TimeUnit unit, long origin) {
        return new TimerQueueBuilder(unit, origin);
    }
}
