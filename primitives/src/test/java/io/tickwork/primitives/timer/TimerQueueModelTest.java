package io.tickwork.primitives.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Model-based test: random sequences of schedule / cancel / expire / nextDeadline, with re-entrant
 * schedule and cancel from the consumer, consumers that throw, time going backwards, deadlines at
 * the ends of the long range and far beyond the wheel span, run against every {@link TimerKind} in
 * several configurations and compared with a reference: the set of pending timers and a
 * {@link PriorityQueue} of their deadlines.
 *
 * <p>For each expire it checks what fires (only pending timers, never one cancelled or fired
 * before, never one scheduled by this very call), when (never before its deadline; every timer
 * whose deadline rounded up to the tick is at or before {@code now} fires, so at most one tick
 * late), in what order (deadline order for the tree, tick order for wheels), and the counts.
 * A failure message starts with the random seed; rerun one seed by setting {@code SEED} below.
 */
class TimerQueueModelTest {

    /** Set to a seed to replay only that one. */
    private static final long SEED = -1;

    private static final int SEEDS = 1500;
    private static final int OPS = 400;

    static Stream<Arguments> configs() {
        List<Arguments> out = new ArrayList<>();
        for (TimerKind kind : TimerKind.values()) {
            if (!kind.isWheel()) {
                out.add(Arguments.of(kind, 1L, 1024, 256));
                continue;
            }
            out.add(Arguments.of(kind, 1L, 1024, 256)); // defaults
            out.add(Arguments.of(kind, 1L, 8, 2)); // tiny span: heap, spills, chunk turnover
            out.add(Arguments.of(kind, 10L, 64, 4)); // tick not a power of 2: division path
            out.add(Arguments.of(kind, 16L, 1, 1)); // one slot: everything else in the heap
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} tick={1} wheel={2} slot={3}")
    @MethodSource("configs")
    void matchesReference(TimerKind kind, long tick, int wheel, int slot) {
        if (SEED >= 0) {
            new Run(kind, tick, wheel, slot, SEED).run();
            return;
        }
        for (long seed = 0; seed < SEEDS; seed++) {
            new Run(kind, tick, wheel, slot, seed).run();
        }
    }

    static final class Timer {
        final long deadline;
        final long handle;
        /**
         * Bounds on the tick a wheel places it in (its deadline's, or the cursor's if past); equal
         * unless a consumer threw, which leaves the wheel's cursor somewhere the model cannot see.
         */
        long placedTick;

        long placedHigh;
        boolean scheduledInCurrentExpire;
        long handleSet;

        Timer(long deadline, long handle) {
            this.deadline = deadline;
            this.handle = handle;
        }
    }

    static final class Boom extends RuntimeException {
        Boom() {
            super("consumer failure injected by the test", null, false, false);
        }
    }

    static final class Run {
        final TimerKind kind;
        final long tick;
        final long seed;
        final SplittableRandom rnd;
        final TimerQueue<Timer> q;
        final String where;

        final Map<Long, Timer> pending = new LinkedHashMap<>();
        final List<Timer> pendingList = new ArrayList<>();
        final List<Long> dead = new ArrayList<>();
        final Set<Long> issued = new HashSet<>();
        /** Largest now seen by expire, or none yet. */
        boolean anyExpire;

        long maxNow;
        /** The wheel's cursor tick as the model sees it. */
        long cursorTick = Long.MIN_VALUE;
        /** False after a consumer threw: cursorTick is then only a lower bound, maxNowTick the upper. */
        boolean cursorKnown = true;

        long maxNowTick = Long.MIN_VALUE;
        final long origin;

        Run(TimerKind kind, long tick, int wheel, int slot, long seed) {
            this.kind = kind;
            this.tick = tick;
            this.seed = seed;
            this.rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + wheel);
            this.q = kind.create(tick, wheel, slot);
            this.where = "seed=" + seed + " " + kind + " tick=" + tick + " wheel=" + wheel + " slot=" + slot;
            long[] origins = {0, -4_000_000_000_000_000_000L, 1_000_000_000_000L, rnd.nextLong() >> 2};
            this.origin = origins[rnd.nextInt(origins.length)];
        }

        long ceilTick(long d) {
            long q = Math.floorDiv(d, tick);
            return q * tick == d ? q : q + 1;
        }

        long nowTick(long now) {
            return now == Long.MAX_VALUE ? Long.MAX_VALUE : Math.floorDiv(now, tick);
        }

        long now() {
            return anyExpire ? maxNow : origin;
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
                n = Long.MAX_VALUE;
            } else {
                n = base;
            }
            if (base > 0 && n < 0 && r >= 72) {
                n = Long.MAX_VALUE; // overflowed upwards
            }
            return n;
        }

        Timer schedule(long deadline, boolean inExpire, long expireNowTick) {
            Timer t;
            long h;
            // payload is the model's timer; the handle is only known after schedule returns
            Timer holder = new Timer(deadline, 0);
            h = q.schedule(deadline, holder);
            assertNotEquals(0L, h, where + ": handle 0");
            assertTrue(issued.add(h), where + ": handle reused " + h);
            t = holder;
            t.handleSet = h;
            long placed = Math.max(ceilTick(deadline), cursorTick);
            long high = cursorKnown ? placed : Math.max(ceilTick(deadline), maxNowTick);
            if (inExpire && ceilTick(deadline) <= expireNowTick) {
                placed = high = Math.max(ceilTick(deadline), expireNowTick);
            }
            t.placedTick = placed;
            t.placedHigh = high;
            t.scheduledInCurrentExpire = inExpire;
            pending.put(h, t);
            pendingList.add(t);
            return t;
        }

        void forget(Timer t) {
            pending.remove(t.handleSet);
            pendingList.remove(t);
            dead.add(t.handleSet);
        }

        void cancelRandom() {
            int r = rnd.nextInt(10);
            if (r < 6 && !pendingList.isEmpty()) {
                Timer t = pendingList.get(rnd.nextInt(pendingList.size()));
                assertTrue(q.cancel(t.handleSet), where + ": cancel of pending timer returned false");
                forget(t);
            } else if (r < 9 && !dead.isEmpty()) {
                long h = dead.get(rnd.nextInt(dead.size()));
                assertFalse(q.cancel(h), where + ": cancel of fired/cancelled handle returned true");
            } else {
                assertFalse(q.cancel(0), where + ": cancel(0) returned true");
                assertFalse(q.cancel(-1), where + ": cancel(-1) returned true");
            }
        }

        void expire() {
            long now = pickNow();
            boolean monotone = !anyExpire || now >= maxNow;
            long effective = anyExpire ? Math.max(now, maxNow) : now;
            long nowTick = nowTick(now);
            long effectiveTick = nowTick(effective);
            int mode = rnd.nextInt(10); // 0-1: re-entrant schedule/cancel, 2: throws
            int throwAt = mode == 2 ? rnd.nextInt(1, 5) : -1;
            for (Timer t : pendingList) {
                t.scheduledInCurrentExpire = false;
            }
            List<Timer> fired = new ArrayList<>();
            int[] count = {0};
            int returned;
            boolean threw = false;
            try {
                returned = q.expire(now, t -> {
                    if (!pending.containsKey(t.handleSet)) {
                        fail(where + ": fired a timer that is not pending (cancelled, fired, or foreign) deadline="
                                + t.deadline);
                    }
                    if (t.scheduledInCurrentExpire) {
                        fail(where + ": fired a timer scheduled by the same expire call, deadline=" + t.deadline);
                    }
                    if (t.deadline > effective) {
                        fail(where + ": fired early: deadline=" + t.deadline + " now=" + now + " maxNow=" + maxNow);
                    }
                    fired.add(t);
                    forget(t);
                    count[0]++;
                    assertFalse(q.cancel(t.handleSet), where + ": cancel of the firing timer returned true");
                    if (count[0] == throwAt) {
                        throw new Boom();
                    }
                    if (mode <= 1) {
                        int r = rnd.nextInt(4);
                        if (r == 0) {
                            schedule(now - rnd.nextLong(0, 3 * tick), true, nowTick);
                        } else if (r == 1) {
                            schedule(now + rnd.nextLong(0, 30 * tick), true, nowTick);
                        } else if (r == 2 && !pendingList.isEmpty()) {
                            Timer c = pendingList.get(rnd.nextInt(pendingList.size()));
                            assertTrue(q.cancel(c.handleSet), where + ": cancel from consumer returned false");
                            forget(c);
                        }
                    }
                });
            } catch (Boom e) {
                threw = true;
                returned = -1;
            }
            if (!threw) {
                assertEquals(fired.size(), returned, where + ": expire returned a wrong count");
            }
            // order
            for (int i = 1; i < fired.size(); i++) {
                Timer a = fired.get(i - 1);
                Timer b = fired.get(i);
                if (kind.isWheel()) {
                    if (a.placedTick > b.placedHigh) {
                        fail(where + ": out of tick order: " + a.deadline + " (tick " + a.placedTick + ") before "
                                + b.deadline + " (tick " + b.placedTick + ")");
                    }
                } else if (a.deadline > b.deadline) {
                    fail(where + ": out of order: " + a.deadline + " before " + b.deadline);
                }
            }
            if (monotone && !threw) {
                // everything due must have fired: exact for the tree, by tick for wheels
                for (Timer t : pendingList) {
                    if (t.scheduledInCurrentExpire) {
                        continue;
                    }
                    boolean due = kind.isWheel() ? t.placedHigh <= nowTick : t.deadline <= now;
                    if (due) {
                        fail(where + ": did not fire a due timer: deadline=" + t.deadline + " now=" + now
                                + " (late by more than a tick)");
                    }
                }
            }
            if (!anyExpire || now > maxNow) {
                maxNow = now;
            }
            anyExpire = true;
            if (threw) {
                // the wheel resumes at the tick it was draining, somewhere in [cursorTick, nowTick]
                cursorKnown = false;
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

        void checkNextDeadline() {
            long nd = q.nextDeadline();
            if (pendingList.isEmpty()) {
                assertEquals(TimerQueue.NO_DEADLINE, nd, where + ": nextDeadline of an empty queue");
                return;
            }
            if (kind.isWheel()) {
                long min = Long.MAX_VALUE;
                for (Timer t : pendingList) {
                    long time = t.placedHigh > Long.MAX_VALUE / tick
                            ? Long.MAX_VALUE
                            : t.placedHigh < Long.MIN_VALUE / tick ? Long.MIN_VALUE : t.placedHigh * tick;
                    min = Math.min(min, time);
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
                    if (r < 45) {
                        schedule(pickDeadline(), false, 0);
                    } else if (r < 65) {
                        cancelRandom();
                    } else if (r < 90) {
                        expire();
                    } else {
                        checkNextDeadline();
                    }
                    assertEquals(pending.size(), q.size(), where + ": size");
                    if (q instanceof RbTreeTimer && (op & 15) == 0) {
                        ((RbTreeTimer<?>) q).checkInvariants();
                    }
                }
                // drain: at the end of time everything fires
                List<Timer> last = new ArrayList<>();
                q.expire(Long.MAX_VALUE, last::add);
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
