package io.tickwork.primitives.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The builder, reschedule and the bounded expire at their edges, for every kind. */
class TimerApiTest {

    /** A connection with an idle timeout, as in {@link TimerQueue}'s class comment. */
    static final class Connection {
        long timer;
        boolean closed;

        void closeIdle() {
            closed = true;
        }
    }

    /** The class comment's queue: nanoseconds from {@code start}, 1 ms ticks, a 64 s span. */
    private static <T> TimerQueue<T> snippetQueue(TimerKind kind, long start) {
        return TimerQueue.builder(TimeUnit.NANOSECONDS, start)
                .kind(kind)
                .tick(Duration.ofMillis(1))
                .span(Duration.ofSeconds(64))
                .build();
    }

    /**
     * The snippet's order after a select() longer than the span: expire, then schedule, and the
     * timeout lands in the wheel; one scheduled before the expire waits in the overflow heap until
     * the expire after.
     */
    @ParameterizedTest
    @EnumSource(
            value = TimerKind.class,
            names = {"WHEEL_LIST", "WHEEL_RING", "WHEEL_LINKED_ARRAY"})
    void afterALongSelectExpireFirstAndTheTimeoutLandsInTheWheel(TimerKind kind) {
        long start = System.nanoTime();
        TimerQueue<String> idle = snippetQueue(kind, start);
        idle.schedule(start + TimeUnit.SECONDS.toNanos(1), "early");
        long now = start + TimeUnit.MINUTES.toNanos(10); // a select() that blocked ten minutes
        idle.schedule(now + TimeUnit.SECONDS.toNanos(30), "before the expire");
        assertTrue(idle.toString().contains("far=1"), idle.toString());
        List<String> fired = new ArrayList<>();
        idle.expire(now, fired::add, 1024);
        assertEquals(List.of("early"), fired);
        idle.schedule(now + TimeUnit.SECONDS.toNanos(30), "after the expire");
        assertTrue(idle.toString().contains("far=1"), idle.toString()); // this one in the wheel
        idle.expire(now + 1_000_000, fired::add, 1024);
        assertTrue(idle.toString().contains("far=0"), idle.toString()); // the other moved in at the next
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void theClassCommentsSelectorLoopSnippet(TimerKind kind) {
        long start = System.nanoTime();
        TimerQueue<Connection> idle = snippetQueue(kind, start);
        long timeout = TimeUnit.SECONDS.toNanos(30);
        Connection conn = new Connection();
        conn.timer = idle.schedule(start + timeout, conn);
        assertFalse(idle.toString().contains("far=1"), "a 30 s timeout went to the overflow heap: " + idle);
        assertTrue(idle.reschedule(conn.timer, start + 10_000_000 + timeout)); // activity 10 ms later
        idle.expire(start + timeout, Connection::closeIdle, 1024);
        assertFalse(conn.closed, "closed at its old deadline");
        long next = idle.nextDeadline();
        assertTrue(
                next >= start + timeout && next <= start + 10_000_000 + timeout + 1_000_000, "next " + (next - start));
        idle.expire(start + 10_000_000 + timeout + 1_000_000, Connection::closeIdle, 1024);
        assertTrue(conn.closed, "not closed a tick after its new deadline");
        assertFalse(idle.reschedule(conn.timer, start), "reschedule of a fired timer");

        // the snippet's wait, for a deadline long past (the tree answers it as it was given)
        idle.schedule(Long.MIN_VALUE, new Connection());
        long now = start + 10_000_000 + timeout + 1_000_000; // the last expire's
        long due = idle.nextDeadline();
        long waitNanos = due == TimerQueue.NO_DEADLINE ? Long.MAX_VALUE : due <= now ? 0 : due - now;
        assertEquals(0, waitNanos, "next deadline " + due);

        // the snippet's select() timeout: whole milliseconds rounded up, and no overflow when
        // nanoTime() is negative and the deadline far (a "never" near Long.MAX_VALUE)
        assertEquals(1, snippetSelectMillis(now + 1, now));
        assertEquals(1, snippetSelectMillis(now + 1_000_000, now));
        assertEquals(2, snippetSelectMillis(now + 1_000_001, now));
        assertEquals(0, snippetSelectMillis(Long.MAX_VALUE - 1_000_000_000L, -5_000_000_000L), "block: far away");
    }

    /** The class comment's {@code select} timeout for a deadline after {@code now}, as written there. */
    private static long snippetSelectMillis(long next, long now) {
        long nanos = next - now; // negative only if it overflowed: next is centuries away
        return nanos < 0 ? 0 : (nanos - 1) / 1_000_000 + 1; // whole ms, rounded up
    }

    /**
     * The builder's origin: a wheel hands out nothing while {@code now} is before it, and a deadline
     * before it fires at the first {@code expire} at or after it; the tree fires any deadline at
     * {@code now >= deadline}.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aWheelStartsAtItsOriginTheTreeAtAnyTime(TimerKind kind) {
        TimerQueue<String> q =
                TimerQueue.builder(TimeUnit.MILLISECONDS, 1_000).kind(kind).build();
        q.schedule(500, "before the origin");
        List<String> out = new ArrayList<>();
        q.expire(600, out::add);
        assertEquals(kind == TimerKind.RB_TREE ? List.of("before the origin") : List.of(), out);
        q.expire(999, out::add);
        assertEquals(kind == TimerKind.RB_TREE ? List.of("before the origin") : List.of(), out);
        q.expire(1_000, out::add);
        assertEquals(List.of("before the origin"), out);
        assertEquals(0, q.size());
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void rescheduleOfAFiredOrCancelledTimerIsFalseAndSchedulesNothing(TimerKind kind) {
        TimerQueue<String> q = kind.create(1, 64);
        long fired = q.schedule(5, "fired");
        long cancelled = q.schedule(5, "cancelled");
        assertTrue(q.cancel(cancelled));
        List<String> out = new ArrayList<>();
        q.expire(10, out::add);
        assertEquals(List.of("fired"), out);
        assertFalse(q.reschedule(fired, 20));
        assertFalse(q.reschedule(cancelled, 20));
        assertFalse(q.reschedule(0, 20));
        assertFalse(q.reschedule(12345L << 32 | 7, 20));
        assertEquals(0, q.size());
        q.expire(100, out::add);
        assertEquals(List.of("fired"), out);
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void reschedulingKeepsTheHandleEarlierAndLater(TimerKind kind) {
        TimerQueue<String> q = kind.create(1, 64);
        long h = q.schedule(30, "a");
        assertTrue(q.reschedule(h, 50)); // later: lazy on the wheels
        assertTrue(q.reschedule(h, 10)); // earlier than its slot: moves
        assertTrue(q.reschedule(h, 500)); // beyond the span: the heap
        List<String> out = new ArrayList<>();
        q.expire(499, out::add);
        assertEquals(List.of(), out);
        assertTrue(q.reschedule(h, 40)); // back from the heap, into the past
        q.expire(499, out::add);
        assertEquals(List.of("a"), out);
        assertFalse(q.cancel(h));
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aBoundedExpireLeavesTheRestDueAndInOrder(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64);
        List<Integer> out = new ArrayList<>();
        q.expire(0, out::add); // tells the time: the timers below go to their slots
        for (int i = 0; i < 10; i++) {
            q.schedule(10 + i, i);
        }
        q.schedule(100, 99);
        assertEquals(4, q.expire(50, out::add, 4));
        assertEquals(List.of(0, 1, 2, 3), out);
        assertTrue(q.nextDeadline() <= 50, "nextDeadline after a bounded expire: " + q.nextDeadline());
        assertEquals(4, q.expire(50, out::add, 4));
        assertEquals(2, q.expire(50, out::add, 4));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), out);
        assertEquals(100, q.nextDeadline());
        assertEquals(0, q.expire(99, out::add, 4), "never early");
        assertThrows(IllegalArgumentException.class, () -> q.expire(100, out::add, 0));
        assertEquals(1, q.expire(100, out::add, 1));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 99), out);
    }

    /** Handles next to an issued one (same index, nearby generations) name no timer of a free slot. */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aHandleNeverIssuedNamesNoFreeSlot(TimerKind kind) {
        TimerQueue<String> q =
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0).kind(kind).build();
        long a = q.schedule(10, "a");
        long keep = q.schedule(20, "keep");
        assertTrue(q.cancel(a));
        for (long g = -2; g <= 3; g++) {
            long forged = a + (g << 32);
            assertFalse(q.cancel(forged), "cancel of a forged handle, generation " + g);
            assertFalse(q.reschedule(forged, 5), "reschedule of a forged handle, generation " + g);
        }
        assertEquals(1, q.size());
        long b = q.schedule(30, "b"); // may reuse a's slot
        assertFalse(q.cancel(a), "a stale handle after its slot was reused");
        List<String> out = new ArrayList<>();
        assertEquals(2, q.expire(30, out::add));
        assertEquals(List.of("keep", "b"), out);
        assertFalse(q.cancel(b));
        assertFalse(q.cancel(keep));
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aNullConsumerIsRefusedBeforeAnyTimerIsTaken(TimerKind kind) {
        TimerQueue<String> q =
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0).kind(kind).build();
        long a = q.schedule(10, "a");
        assertThrows(NullPointerException.class, () -> q.expire(20, null));
        assertThrows(NullPointerException.class, () -> q.expire(20, null, 1));
        assertEquals(1, q.size());
        assertTrue(q.reschedule(a, 15), "the timer is still pending and intact");
        List<String> out = new ArrayList<>();
        assertEquals(1, q.expire(20, out::add));
        assertEquals(List.of("a"), out);
        LongTimerQueue longs =
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0).kind(kind).buildLong();
        longs.schedule(10, 7);
        assertThrows(NullPointerException.class, () -> longs.expire(20, (java.util.function.LongConsumer) null));
        assertEquals(1, longs.size());
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void longPayloadsAreHandedBackAsLongs(TimerKind kind) {
        LongTimerQueue q =
                TimerQueue.builder(TimeUnit.MILLISECONDS, 1_000).kind(kind).buildLong();
        assertEquals(LongTimerQueue.NO_DEADLINE, q.nextDeadline());
        long a = q.schedule(1_010, Long.MAX_VALUE);
        q.schedule(1_020, -42);
        assertTrue(q.reschedule(a, 1_030));
        List<Long> out = new ArrayList<>();
        assertEquals(2, q.expire(1_030, out::add));
        assertEquals(List.of(-42L, Long.MAX_VALUE), out);
        assertEquals(LongTimerQueue.NO_DEADLINE, q.nextDeadline());
        assertEquals(TimerQueue.NO_DEADLINE, LongTimerQueue.NO_DEADLINE);
    }

    /** A queue is used through the interface it was built for; a cast to the other one refuses payloads. */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aCastToTheOtherPayloadInterfaceThrowsUnsupportedOperation(TimerKind kind) {
        TimerQueueBuilder b = TimerQueue.builder(TimeUnit.MILLISECONDS, 0).kind(kind);
        LongTimerQueue longs = b.buildLong();
        assertTrue(longs instanceof TimerQueue<?>, kind + ": not a TimerQueue");
        @SuppressWarnings("unchecked")
        TimerQueue<String> longsAsObjects = (TimerQueue<String>) longs;
        assertThrows(UnsupportedOperationException.class, () -> longsAsObjects.schedule(10, "x"));
        assertThrows(UnsupportedOperationException.class, () -> longsAsObjects.schedule(10, null));
        assertThrows(UnsupportedOperationException.class, () -> longsAsObjects.expire(10, s -> {}));
        assertThrows(UnsupportedOperationException.class, () -> longsAsObjects.expire(10, s -> {}, 1));
        assertEquals(0, longs.size());

        TimerQueue<String> objects = b.build();
        assertTrue(objects instanceof LongTimerQueue, kind + ": not a LongTimerQueue");
        LongTimerQueue objectsAsLongs = (LongTimerQueue) objects;
        assertThrows(UnsupportedOperationException.class, () -> objectsAsLongs.schedule(10, 7L));
        assertThrows(UnsupportedOperationException.class, () -> objectsAsLongs.expire(10, v -> {}));
        assertThrows(UnsupportedOperationException.class, () -> objectsAsLongs.expire(10, v -> {}, 1));
        assertEquals(0, objects.size());
    }

    @Test
    void theBuilderChecksItsOptions() {
        TimerQueueBuilder b = TimerQueue.builder(TimeUnit.MILLISECONDS, 0);
        assertEquals(
                "tick must be a positive whole number of MILLISECONDS: PT0.0015S",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> b.tick(Duration.ofMillis(1).plusNanos(500_000)))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.tick(Duration.ZERO));
        assertEquals(
                "tick PT2629800H is past the range of a clock in NANOSECONDS",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> TimerQueue.builder(TimeUnit.NANOSECONDS, 0)
                                        .tick(Duration.ofDays(300 * 365 + 75)))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.span(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> b.slotCapacity(0));
        assertThrows(NullPointerException.class, () -> TimerQueue.builder(null, 0));
        assertThrows(NullPointerException.class, () -> b.kind(null));
        assertThrows(NullPointerException.class, () -> b.tick(null));
        assertThrows(NullPointerException.class, () -> b.span(null));
        assertEquals(65536, TimerQueue.builder(TimeUnit.NANOSECONDS, 0).ticksPerWheel(), "default: 1 ms over 64 s");
        assertEquals(
                65536,
                TimerQueue.builder(TimeUnit.SECONDS, 0).ticksPerWheel(),
                "1 s ticks on a seconds clock: 65,536 of them (18 h), not the 64 that 64 s would make");
        assertEquals(65536, TimerQueue.builder(TimeUnit.DAYS, 0).ticksPerWheel(), "a tick of a day");
        assertEquals(
                65536,
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0)
                        .tick(Duration.ofMillis(100))
                        .ticksPerWheel(),
                "a coarse tick chosen without a span");
        assertEquals(
                64,
                TimerQueue.builder(TimeUnit.SECONDS, 0)
                        .span(Duration.ofSeconds(64))
                        .ticksPerWheel(),
                "a span given is kept");
        assertTrue(
                TimerQueue.builder(TimeUnit.SECONDS, 0).toString().contains("span default (PT1M4S or 65536 ticks)"),
                TimerQueue.builder(TimeUnit.SECONDS, 0).toString());
        assertEquals(
                16384,
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0)
                        .tick(Duration.ofMillis(4))
                        .span(Duration.ofSeconds(60))
                        .ticksPerWheel());
        assertEquals(
                2,
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0)
                        .span(Duration.ofNanos(1_500_000))
                        .ticksPerWheel(),
                "a span that is not a whole number of clock units rounds up, not down");
        assertEquals(
                128,
                TimerQueue.builder(TimeUnit.SECONDS, 0)
                        .span(Duration.ofMillis(64_999))
                        .ticksPerWheel());
        TimerQueue.builder(TimeUnit.NANOSECONDS, 0).tick(Duration.ofNanos(Long.MAX_VALUE)); // exactly a long: accepted
        IllegalArgumentException tooMany = assertThrows(
                IllegalArgumentException.class,
                () -> TimerQueue.builder(TimeUnit.NANOSECONDS, 0)
                        .tick(Duration.ofNanos(1))
                        .span(Duration.ofSeconds(1))
                        .build());
        assertTrue(tooMany.getMessage().startsWith("span / tick needs more than 2^24 ticks"), tooMany.getMessage());
        assertTrue(tooMany.getMessage().endsWith("; use a coarser tick"), "a span was set: " + tooMany.getMessage());
        // the default span (64 s) at a microsecond tick: the message names the span it used, and the way out
        IllegalArgumentException byDefault = assertThrows(
                IllegalArgumentException.class,
                () -> TimerQueue.builder(TimeUnit.NANOSECONDS, 0)
                        .tick(Duration.ofNanos(1000))
                        .build());
        assertTrue(
                byDefault.getMessage().contains("default (PT1M4S or 65536 ticks)")
                        && byDefault.getMessage().endsWith("use a coarser tick or set a shorter span"),
                byDefault.getMessage());
    }

    /** RB_TREE has no wheel: settings too fine for one neither stop its build nor the builder's toString. */
    @Test
    void anExactTreeIgnoresWheelSettingsTooFineForAWheel() {
        TimerQueueBuilder fine = TimerQueue.builder(TimeUnit.NANOSECONDS, 0)
                .tick(Duration.ofNanos(1))
                .span(Duration.ofSeconds(64));
        assertTrue(fine.toString().contains("build() refuses it"), fine.toString());
        assertThrows(IllegalArgumentException.class, fine::build);
        fine.kind(TimerKind.RB_TREE);
        assertTrue(fine.toString().contains("no wheel"), fine.toString());
        TimerQueue<String> exact = fine.build();
        exact.schedule(5, "a");
        List<String> fired = new ArrayList<>();
        assertEquals(0, exact.expire(4, fired::add));
        assertEquals(1, exact.expire(5, fired::add));
        assertEquals(List.of("a"), fired);
        assertEquals(0, fine.buildLong().size());
    }

    /**
     * A number that is not a handle (a timer's own id passed by mistake) and another queue's
     * handle are refused: every cancel and reschedule returns false and leaves the timers as they
     * were, though both queues numbered their timers alike.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aNumberThatIsNotThisQueuesHandleIsRefused(TimerKind kind) {
        LongTimerQueue a =
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0).kind(kind).buildLong();
        LongTimerQueue b =
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0).kind(kind).buildLong();
        TimerQueue<String> c =
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0).kind(kind).build();
        long[] ha = new long[64];
        long[] hb = new long[64];
        for (int conn = 0; conn < 64; conn++) {
            ha[conn] = a.schedule(30_000, conn);
            hb[conn] = b.schedule(30_000, conn);
            c.schedule(30_000, "c" + conn);
            assertTrue(ha[conn] > Integer.MAX_VALUE && hb[conn] > Integer.MAX_VALUE, ha[conn] + ", " + hb[conn]);
            assertTrue(ha[conn] != hb[conn]);
        }
        for (long n = -1; n <= 1_000; n++) {
            assertFalse(a.cancel(n), "cancel(" + n + ")");
            assertFalse(a.reschedule(n, 10), "reschedule(" + n + ")");
            assertFalse(c.cancel(n), "cancel(" + n + ")");
        }
        for (long h : hb) {
            assertFalse(a.cancel(h));
            assertFalse(a.reschedule(h, 10));
            assertFalse(c.cancel(h));
        }
        assertEquals(64, a.size());
        assertEquals(64, b.size());
        assertEquals(64, c.size());
        for (long h : ha) {
            assertTrue(a.reschedule(h, 20_000));
        }
        List<Long> fired = new ArrayList<>();
        assertEquals(64, a.expire(20_000, fired::add));
        assertEquals(64, fired.size());
        assertEquals(0, b.expire(20_000, id -> fired.add(-id)));
    }

    /** The tree's toString tells its pending timers and distinct deadlines, as a wheel's tells its far ones. */
    @Test
    void theTreeSaysWhatItHolds() {
        TimerQueue<String> tree = TimerKind.RB_TREE.create();
        long h = tree.schedule(5, "a");
        tree.schedule(5, "b");
        tree.schedule(7, "c");
        assertEquals("RB_TREE[size=3, deadlines=2]", tree.toString());
        tree.cancel(h);
        tree.expire(5, p -> {});
        assertEquals("RB_TREE[size=1, deadlines=1]", tree.toString());
    }

    /** A wheel's toString names its kind, its size, its tick in the queue's unit, its ticks and its far timers. */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void toStringNamesTheKind(TimerKind kind) {
        TimerQueue<String> q = TimerQueue.builder(TimeUnit.NANOSECONDS, 0)
                .kind(kind)
                .tick(Duration.ofMillis(1))
                .span(Duration.ofMillis(64))
                .build();
        q.schedule(1_000_000_000L, "far");
        q.schedule(5_000_000L, "near");
        String expected = kind == TimerKind.RB_TREE
                ? "RB_TREE[size=2, deadlines=2]"
                : kind + "[size=2, tick=1000000 ns, ticksPerWheel=64, far=1]";
        assertEquals(expected, q.toString());
        if (kind != TimerKind.RB_TREE) { // the raw-tick factory has no unit
            assertEquals(
                    kind + "[size=0, tick=7, ticksPerWheel=64, far=0]",
                    kind.create(7, 64).toString());
        }
    }
}
