package io.tickwork.primitives.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Model-based test: random sequences of schedule / reschedule / cancel / expire (bounded or not) /
 * nextDeadline, with re-entrant schedule, reschedule and cancel from the consumer, consumers that
 * throw, time going backwards, deadlines at the ends of the long range and far beyond the wheel
 * span, run against every {@link TimerKind} in several configurations (raw ticks from origin 0, and
 * clocks built with an origin and a tick that is or is not a power of two), with object and with
 * {@code long} payloads, and compared with a reference: the set of pending timers and their
 * deadlines.
 *
 * <p>For each expire it checks what fires (only pending timers, never one cancelled or fired
 * before, never one scheduled or rescheduled due by this very call), when (never before its
 * deadline; every timer whose deadline rounded up to the tick is at or before {@code now} fires,
 * so at most one tick late, unless the call was bounded and used its limit, or on a wheel
 * stopped short of it with timers still due, which its nextDeadline then tells), in what order
 * (deadline order for the tree, tick order for wheels, also across a bounded call and the next),
 * and the counts. A failure message starts with the random seed; rerun one seed by setting
 * {@code SEED} below.
 */
class TimerQueueModelTest {

    /** Set to a seed to replay only that one. */
    private static final long SEED = -1;

    private static final int SEEDS = 600;
    private static final int OPS = 400;

    /** How the queue under test is made. */
    record Config(TimerKind kind, long tick, long clockOrigin, int wheel, int slot, boolean longs, boolean built) {
        @Override
        public String toString() {
            return kind + (built ? " built" : "") + " tick=" + tick + " origin=" + clockOrigin + " wheel=" + wheel
                    + " slot=" + slot + (longs ? " long payloads" : "");
        }
    }

    static Stream<Arguments> configs() {
        List<Arguments> out = new ArrayList<>();
        for (TimerKind kind : TimerKind.values()) {
            for (boolean longs : new boolean[] {false, true}) {
                if (!kind.isWheel()) {
                    out.add(Arguments.of(new Config(kind, 1, 0, 1024, 256, longs, false)));
                    continue;
                }
                out.add(Arguments.of(new Config(kind, 1, 0, 1024, 256, longs, false))); // defaults
                out.add(Arguments.of(new Config(kind, 1, 0, 8, 2, longs, false))); // tiny span: heap, spills
                out.add(Arguments.of(new Config(kind, 10, 0, 64, 4, longs, false))); // tick not a power of 2
                out.add(Arguments.of(new Config(kind, 16, 0, 1, 1, longs, false))); // one slot: the rest in the heap
                // built on a nanosecond clock: 1 ms ticks (reciprocal path), 2^20 ns ticks (shift)
                out.add(Arguments.of(new Config(kind, 1_000_000, -7_777_777_777L, 16, 4, longs, true)));
                out.add(Arguments.of(new Config(kind, 1L << 20, 123_456_789_000L, 64, 8, longs, true)));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void matchesReference(Config config) {
        if (SEED >= 0) {
            new Run(config, SEED).run();
            return;
        }
        for (long seed = 0; seed < SEEDS; seed++) {
            new Run(config, seed).run();
        }
    }

    static final class Timer {
        long deadline;
        long handle;
        /**
         * Bounds on the tick a wheel fires it in (its deadline's, or the cursor's if past); equal
         * unless a consumer threw or a bounded expire stopped, which leaves the wheel's cursor
         * somewhere the model cannot see.
         */
        long placedTick;

        long placedHigh;
        boolean scheduledInCurrentExpire;

        Timer(long deadline) {
            this.deadline = deadline;
        }
    }

    static final class Boom extends RuntimeException {
        Boom() {
            super("consumer failure injected by the test", null, false, false);
        }
    }

    /** The queue under test, object or long payloads, behind one shape. */
    interface Queue {
        long schedule(long deadline, Timer t);

        boolean cancel(long handle);

        boolean reschedule(long handle, long deadline);

        int expire(long now, Consumer<Timer> consumer, int limit);

        long nextDeadline();

        int size();

        /** The tree's own structural check; nothing for the wheels. */
        void checkInvariants();
    }

    static void checkInvariants(Object q) {
        if (q instanceof RbTreeTimer<?> tree) {
            tree.checkInvariants();
        }
    }

    static Queue make(Config c) {
        if (!c.longs) {
            TimerQueue<Timer> q = c.built ? built(c).build() : c.kind.create(c.tick, c.wheel, c.slot);
            return new Queue() {
                public long schedule(long deadline, Timer t) {
                    return q.schedule(deadline, t);
                }

                public boolean cancel(long handle) {
                    return q.cancel(handle);
                }

                public boolean reschedule(long handle, long deadline) {
                    return q.reschedule(handle, deadline);
                }

                public int expire(long now, Consumer<Timer> consumer, int limit) {
                    return limit == Integer.MAX_VALUE ? q.expire(now, consumer) : q.expire(now, consumer, limit);
                }

                public long nextDeadline() {
                    return q.nextDeadline();
                }

                public int size() {
                    return q.size();
                }

                public void checkInvariants() {
                    TimerQueueModelTest.checkInvariants(q);
                }
            };
        }
        LongTimerQueue q = c.built ? built(c).buildLong() : c.kind.createLong(c.tick, c.wheel, c.slot);
        Map<Long, Timer> byNumber = new HashMap<>();
        long[] numbers = {Long.MIN_VALUE + 7}; // payloads from the far ends too
        return new Queue() {
            public long schedule(long deadline, Timer t) {
                long n = numbers[0]++;
                byNumber.put(n, t);
                return q.schedule(deadline, n);
            }

            public boolean cancel(long handle) {
                return q.cancel(handle);
            }

            public boolean reschedule(long handle, long deadline) {
                return q.reschedule(handle, deadline);
            }

            public int expire(long now, Consumer<Timer> consumer, int limit) {
                java.util.function.LongConsumer lc = n -> consumer.accept(byNumber.remove(n));
                return limit == Integer.MAX_VALUE ? q.expire(now, lc) : q.expire(now, lc, limit);
            }

            public long nextDeadline() {
                return q.nextDeadline();
            }

            public int size() {
                return q.size();
            }

            public void checkInvariants() {
                TimerQueueModelTest.checkInvariants(q);
            }
        };
    }

    /** The config as a builder on a nanosecond clock: the tick is {@code c.tick} ns, the span {@code wheel} ticks. */
    static TimerQueueBuilder built(Config c) {
        return TimerQueue.builder(TimeUnit.NANOSECONDS, c.clockOrigin)
                .kind(c.kind)
                .tick(Duration.ofNanos(c.tick))
                .span(Duration.ofNanos(c.tick * c.wheel))
                .slotCapacity(c.slot);
    }

    static final class Run {
        final TimerKind kind;
        final long tick;
        final long clockOrigin;
        final long seed;
        final SplittableRandom rnd;
        final Queue q;
        final String where;

        final Map<Long, Timer> pending = new LinkedHashMap<>();
        final List<Timer> pendingList = new ArrayList<>();
        final List<Long> dead = new ArrayList<>();
        final Set<Long> issued = new HashSet<>();
        /** Largest now seen by expire, or none yet. */
        boolean anyExpire;
        /** An expire reached the end of time: the queue refuses new timers from outside expire. */
        boolean ended;
        /** Whether {@link #pickNow} may pick the end of time: only late in a run, so most ops see a live queue. */
        boolean mayEnd;

        long maxNow;
        /** The wheel's cursor tick as the model sees it. */
        long cursorTick = Long.MIN_VALUE;
        /**
         * False after a consumer threw or a bounded expire stopped: cursorTick is then only a
         * lower bound, maxNowTick the upper.
         */
        boolean cursorKnown = true;

        long maxNowTick = Long.MIN_VALUE;
        /** Where the test's clock starts. */
        final long start;

        Run(Config c, long seed) {
            this.kind = c.kind;
            this.tick = c.tick;
            this.clockOrigin = c.clockOrigin;
            this.seed = seed;
            this.rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + c.wheel + c.tick);
            this.q = make(c);
            this.where = "seed=" + seed + " " + c;
            long[] starts = {0, -4_000_000_000_000_000_000L, 1_000_000_000_000L, rnd.nextLong() >> 2, c.clockOrigin};
            this.start = starts[rnd.nextInt(starts.length)];
            if (c.built && kind.isWheel()) {
                cursorTick = 0; // a built wheel starts at its origin
            }
        }

        /** {@code t - clockOrigin}, saturated. */
        long since(long t) {
            long r = t - clockOrigin;
            if (((t ^ clockOrigin) & (t ^ r)) < 0) {
                return t < clockOrigin ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            return r;
        }

        long ceilTick(long d) {
            long r = since(d);
            long q = Math.floorDiv(r, tick);
            return r - q * tick == 0 ? q : q + 1;
        }

        long nowTick(long now) {
            return now == Long.MAX_VALUE ? Long.MAX_VALUE : Math.floorDiv(since(now), tick);
        }

        long tickTime(long k) {
            if (k > 0 && k > (Long.MAX_VALUE - Math.max(0, clockOrigin)) / tick) {
                return Long.MAX_VALUE;
            }
            if (k < 0 && k < (Long.MIN_VALUE - Math.min(0, clockOrigin)) / tick) {
                return Long.MIN_VALUE;
            }
            return clockOrigin + k * tick;
        }

        long now() {
            return anyExpire ? maxNow : start;
        }

        long pickDeadline() {
            long base = now();
            int r = rnd.nextInt(100);
            if (r < 55) {
                return base + rnd.nextLong(0, 40 * tick);
            } else if (r < 65) {
                return base - rnd.nextLong(0, 100 * tick); // in the past
            } else if (r < 75 && !pendingList.isEmpty()) {
                return pendingList.get(rnd.nextInt(pendingList.size())).deadline; // same deadline again
            } else if (r < 85) {
                return base + rnd.nextLong(0, 3000 * tick); // beyond small spans
            } else if (r < 90) {
                long far = base + rnd.nextLong(1, 1L << 50);
                return far < base ? Long.MAX_VALUE : far; // far future
            } else if (r < 93) {
                return Long.MAX_VALUE - rnd.nextLong(0, 3);
            } else if (r < 96) {
                return Long.MIN_VALUE + rnd.nextLong(0, 3);
            }
            return base + rnd.nextLong(-2 * tick, 2 * tick);
        }

        long pickNow() {
            long base = now();
            int r = rnd.nextInt(100);
            long n;
            if (r < 60) {
                n = base + rnd.nextLong(0, 8 * tick);
            } else if (r < 72) {
                n = base - rnd.nextLong(1, 50 * tick); // backwards
            } else if (r < 85) {
                n = base + rnd.nextLong(0, 2000 * tick);
            } else if (r < 88) {
                n = base + rnd.nextLong(0, 1L << 52); // long jump
            } else if (r < 89) {
                n = mayEnd ? Long.MAX_VALUE : base;
            } else {
                n = base;
            }
            if (base > 0 && n < 0 && r >= 72) {
                n = mayEnd ? Long.MAX_VALUE : base; // overflowed upwards
            }
            return n;
        }

        /** Where the model expects {@code t}, (re)scheduled at {@code deadline}, to fire. */
        void place(Timer t, long deadline, boolean inExpire, long expireNowTick) {
            t.deadline = deadline;
            long placed = Math.max(ceilTick(deadline), cursorTick);
            // the cursor is somewhere in [cursorTick, max(cursorTick, maxNowTick)]: a built wheel's
            // starts at the origin, after which nows may come that are earlier
            long high = cursorKnown ? placed : Math.max(placed, maxNowTick);
            boolean dueNow = inExpire && (kind.isWheel() ? ceilTick(deadline) <= expireNowTick : deadline <= expireNow);
            if (dueNow) {
                placed = high = Math.max(ceilTick(deadline), expireNowTick);
            }
            t.placedTick = placed;
            t.placedHigh = high;
            t.scheduledInCurrentExpire = dueNow;
        }

        long expireNow;

        Timer schedule(long deadline, boolean inExpire, long expireNowTick) {
            Timer t = new Timer(deadline);
            long h = q.schedule(deadline, t);
            assertNotEquals(0L, h, where + ": handle 0");
            assertTrue(issued.add(h), where + ": handle reused " + h);
            t.handle = h;
            place(t, deadline, inExpire, expireNowTick);
            pending.put(h, t);
            pendingList.add(t);
            return t;
        }

        void reschedule(Timer t, long deadline, boolean inExpire, long expireNowTick) {
            assertTrue(q.reschedule(t.handle, deadline), where + ": reschedule of a pending timer returned false");
            place(t, deadline, inExpire, expireNowTick);
        }

        void forget(Timer t) {
            pending.remove(t.handle);
            pendingList.remove(t);
            dead.add(t.handle);
        }

        void cancelRandom() {
            int r = rnd.nextInt(10);
            if (r < 6 && !pendingList.isEmpty()) {
                Timer t = pendingList.get(rnd.nextInt(pendingList.size()));
                assertTrue(q.cancel(t.handle), where + ": cancel of pending timer returned false");
                forget(t);
            } else if (r < 9 && !dead.isEmpty()) {
                long h = dead.get(rnd.nextInt(dead.size()));
                assertFalse(q.cancel(h), where + ": cancel of fired/cancelled handle returned true");
            } else {
                assertFalse(q.cancel(0), where + ": cancel(0) returned true");
                assertFalse(q.cancel(-1), where + ": cancel(-1) returned true");
            }
        }

        void rescheduleRandom() {
            int r = rnd.nextInt(10);
            if (r < 8 && !pendingList.isEmpty()) {
                reschedule(pendingList.get(rnd.nextInt(pendingList.size())), pickDeadline(), false, 0);
            } else if (!dead.isEmpty()) {
                long h = dead.get(rnd.nextInt(dead.size()));
                assertFalse(q.reschedule(h, pickDeadline()), where + ": reschedule of a fired/cancelled handle");
            } else {
                assertFalse(q.reschedule(0, now()), where + ": reschedule(0) returned true");
            }
        }

        void expire() {
            long now = pickNow();
            boolean monotone = !anyExpire || now >= maxNow;
            long effective = anyExpire ? Math.max(now, maxNow) : now;
            long nowTick = nowTick(now);
            expireNow = now;
            int mode = rnd.nextInt(10); // 0-1: re-entrant schedule/reschedule/cancel, 2: throws
            int throwAt = mode == 2 ? rnd.nextInt(1, 5) : -1;
            int limit = rnd.nextInt(10) < 3 ? rnd.nextInt(1, 6) : Integer.MAX_VALUE;
            for (Timer t : pendingList) {
                t.scheduledInCurrentExpire = false;
            }
            List<Timer> fired = new ArrayList<>();
            int[] count = {0};
            int returned;
            boolean threw = false;
            try {
                returned = q.expire(
                        now,
                        t -> {
                            if (!pending.containsKey(t.handle)) {
                                fail(where + ": fired a timer that is not pending (cancelled, fired, or foreign) "
                                        + "deadline=" + t.deadline);
                            }
                            if (t.scheduledInCurrentExpire) {
                                fail(where + ": fired a timer (re)scheduled due by the same expire call, deadline="
                                        + t.deadline);
                            }
                            if (t.deadline > effective) {
                                fail(where + ": fired early: deadline=" + t.deadline + " now=" + now + " maxNow="
                                        + maxNow);
                            }
                            fired.add(t);
                            forget(t);
                            count[0]++;
                            assertFalse(q.cancel(t.handle), where + ": cancel of the firing timer returned true");
                            assertFalse(q.reschedule(t.handle, now + tick), where + ": reschedule of the firing timer");
                            if (count[0] == throwAt) {
                                throw new Boom();
                            }
                            if (mode <= 1) {
                                int r = rnd.nextInt(6);
                                if (r == 0) {
                                    schedule(now - rnd.nextLong(0, 3 * tick), true, nowTick);
                                } else if (r == 1) {
                                    schedule(now + rnd.nextLong(0, 30 * tick), true, nowTick);
                                } else if (r == 2 && !pendingList.isEmpty()) {
                                    Timer c = pendingList.get(rnd.nextInt(pendingList.size()));
                                    assertTrue(q.cancel(c.handle), where + ": cancel from consumer returned false");
                                    forget(c);
                                } else if (r >= 3 && !pendingList.isEmpty()) {
                                    Timer c = pendingList.get(rnd.nextInt(pendingList.size()));
                                    long d = r == 3
                                            ? now - rnd.nextLong(0, 3 * tick)
                                            : now + rnd.nextLong(-2 * tick, 30 * tick);
                                    reschedule(c, d, true, nowTick);
                                }
                            }
                        },
                        limit);
            } catch (Boom e) {
                threw = true;
                returned = -1;
            }
            if (now == Long.MAX_VALUE) {
                ended = true;
            }
            if (!threw) {
                assertEquals(fired.size(), returned, where + ": expire returned a wrong count");
                assertTrue(returned <= limit, where + ": handed out more than the limit");
            }
            // a wheel's bounded call may also stop having taken its limit of entries, short of its
            // limit of timers handed out: then timers are still due, and nextDeadline says so
            boolean stopped = threw
                    || returned == limit
                    || (kind.isWheel() && limit != Integer.MAX_VALUE && q.nextDeadline() <= now);
            // order, within the call
            for (int i = 1; i < fired.size(); i++) {
                checkOrder(fired.get(i - 1), fired.get(i));
            }
            // nothing due was skipped: a due timer still pending comes at or after the last one fired
            if (!fired.isEmpty() && monotone) {
                Timer last = fired.get(fired.size() - 1);
                for (Timer t : pendingList) {
                    if (!t.scheduledInCurrentExpire && isDue(t, now, nowTick)) {
                        checkOrder(last, t);
                    }
                }
            }
            if (monotone && !stopped) {
                // everything due must have fired: exact for the tree, by tick for wheels
                for (Timer t : pendingList) {
                    if (!t.scheduledInCurrentExpire && isDue(t, now, nowTick)) {
                        fail(where + ": did not fire a due timer: deadline=" + t.deadline + " now=" + now
                                + " (late by more than a tick)");
                    }
                }
            }
            if (!anyExpire || now > maxNow) {
                maxNow = now;
            }
            anyExpire = true;
            if (stopped) {
                // the wheel resumes at the tick it was draining, somewhere in [cursorTick, nowTick]
                cursorKnown = false;
                // and placed the timers its consumer made due at that tick, or at their own if later
                for (Timer t : pendingList) {
                    if (t.scheduledInCurrentExpire) {
                        t.placedTick = Math.max(ceilTick(t.deadline), cursorTick);
                    }
                }
            } else {
                if (monotone) {
                    cursorKnown = true;
                }
                cursorTick = Math.max(cursorTick, nowTick);
            }
            maxNowTick = nowTick(maxNow);
            for (Timer t : pendingList) {
                t.scheduledInCurrentExpire = false;
            }
            assertEquals(pending.size(), q.size(), where + ": size after expire");
        }

        boolean isDue(Timer t, long now, long nowTick) {
            return kind.isWheel() ? t.placedHigh <= nowTick : t.deadline <= now;
        }

        void checkOrder(Timer a, Timer b) {
            if (kind.isWheel()) {
                if (a.placedTick > b.placedHigh) {
                    fail(where + ": out of tick order: " + a.deadline + " (tick " + a.placedTick + ") before "
                            + b.deadline + " (tick " + b.placedTick + ")");
                }
            } else if (a.deadline > b.deadline) {
                fail(where + ": out of order: " + a.deadline + " before " + b.deadline);
            }
        }

        void checkNextDeadline() {
            long nd = q.nextDeadline();
            if (pendingList.isEmpty()) {
                assertEquals(TimerQueue.NO_DEADLINE, nd, where + ": nextDeadline of an empty queue");
                return;
            }
            if (kind.isWheel()) {
                long min = Long.MAX_VALUE;
                for (Timer t : pendingList) {
                    min = Math.min(min, tickTime(t.placedHigh));
                }
                if (nd > min) {
                    fail(where + ": nextDeadline " + nd + " later than the earliest firing time " + min);
                }
            } else {
                PriorityQueue<Long> ref = new PriorityQueue<>();
                for (Timer t : pendingList) {
                    ref.add(t.deadline);
                }
                assertEquals((long) ref.peek(), nd, where + ": nextDeadline");
            }
        }

        void run() {
            try {
                for (int op = 0; op < OPS; op++) {
                    int r = rnd.nextInt(100);
                    mayEnd = op >= OPS * 3 / 4;
                    if (r < 40 && ended) {
                        int before = q.size();
                        assertThrows(
                                IllegalStateException.class,
                                () -> q.schedule(pickDeadline(), new Timer(0)),
                                where + ": schedule after the end of time");
                        assertEquals(before, q.size(), where + ": a refused schedule changed the size");
                    } else if (r < 40) {
                        schedule(pickDeadline(), false, 0);
                    } else if (r < 52) {
                        cancelRandom();
                    } else if (r < 65) {
                        rescheduleRandom();
                    } else if (r < 90) {
                        expire();
                    } else {
                        checkNextDeadline();
                    }
                    assertEquals(pending.size(), q.size(), where + ": size");
                    if ((op & 15) == 0) {
                        q.checkInvariants();
                    }
                }
                // drain: at the end of time everything fires
                List<Timer> last = new ArrayList<>();
                q.expire(Long.MAX_VALUE, last::add, Integer.MAX_VALUE);
                for (Timer t : last) {
                    forget(t);
                }
                assertEquals(0, pending.size(), where + ": timers never fired at Long.MAX_VALUE: " + pending.size());
                assertEquals(0, q.size(), where + ": size at the end");
                assertEquals(TimerQueue.NO_DEADLINE, q.nextDeadline(), where + ": nextDeadline at the end");
            } catch (AssertionError e) {
                throw new AssertionError(where + ": " + e.getMessage(), e);
            }
        }
    }
}
