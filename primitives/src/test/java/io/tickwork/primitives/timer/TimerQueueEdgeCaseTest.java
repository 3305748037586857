package io.tickwork.primitives.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The edge cases of the {@link TimerQueue} contract, each for every {@link TimerKind}. */
class TimerQueueEdgeCaseTest {

    private static <T> List<T> expire(TimerQueue<T> q, long now) {
        List<T> out = new ArrayList<>();
        int n = q.expire(now, out::add);
        assertEquals(out.size(), n, "expire's count");
        return out;
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void sameDeadlineManyTimesBeyondRingAndChunkSizes(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64, 8);
        expire(q, 0);
        Set<Integer> expected = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            long h = q.schedule(500, i);
            if (i % 7 == 0) {
                assertTrue(q.cancel(h));
            } else {
                expected.add(i);
            }
        }
        assertEquals(expected.size(), q.size());
        assertEquals(List.of(), expire(q, 499));
        List<Integer> fired = expire(q, 500);
        assertEquals(expected.size(), fired.size(), "fired each once");
        assertEquals(expected, new HashSet<>(fired));
        assertTrue(q.isEmpty());
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void hugeBurstInOneTickWithDefaults(TimerKind kind) {
        TimerQueue<Integer> q = kind.create();
        expire(q, 1000);
        for (int i = 0; i < 100_000; i++) {
            q.schedule(1001, i);
        }
        assertEquals(100_000, expire(q, 1001).size());
        assertEquals(TimerQueue.NO_DEADLINE, q.nextDeadline());
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void cancelDuringExpiryStopsTheOthers(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 16, 2);
        long[] handles = new long[5];
        for (int i = 0; i < 5; i++) {
            handles[i] = q.schedule(10, i);
        }
        List<Integer> fired = new ArrayList<>();
        int n = q.expire(10, p -> {
            fired.add(p);
            assertFalse(q.cancel(handles[p]), "cancel of the timer being handed out");
            for (int i = 0; i < 5; i++) {
                if (i != p) {
                    assertTrue(q.cancel(handles[i]), "cancel of a pending sibling");
                }
            }
        });
        assertEquals(1, n);
        assertEquals(1, fired.size());
        assertTrue(q.isEmpty());
        assertEquals(List.of(), expire(q, 100));
    }

    /**
     * A consumer's cancel can make a crowded slot compact itself while it is being drained (most of
     * its stored entries cancelled, the rest spilled past the slot's first array): every live timer
     * of the tick must still come out in that call, wherever compaction moved it.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aSlotCompactedByACancelFromTheConsumerStillFiresAllItsTimers(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64, 8);
        q.expire(0, p -> {});
        long[] handles = new long[70];
        for (int i = 0; i < 70; i++) {
            handles[i] = q.schedule(10, i);
        }
        for (int i = 19; i <= 68; i++) {
            assertTrue(q.cancel(handles[i]));
        }
        List<Integer> fired = new ArrayList<>();
        int n = q.expire(10, p -> {
            fired.add(p);
            if (p == 8) {
                assertTrue(q.cancel(handles[9]), "cancel of a pending sibling");
            }
        });
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i <= 18; i++) {
            if (i != 9) {
                expected.add(i);
            }
        }
        expected.add(69);
        fired.sort(null);
        assertEquals(expected, fired);
        assertEquals(expected.size(), n);
        assertEquals(0, q.size(), "timers due at 10 left pending");
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aBoundedExpireStopsAfterItsLimitOfTimersRescheduledLater(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 1024, 8);
        expire(q, 0);
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            assertTrue(q.reschedule(q.schedule(10, i), 500)); // on a wheel: a store, moved at tick 10
        }
        q.schedule(10, -1);
        List<Integer> out = new ArrayList<>();
        int calls = 0;
        while (out.isEmpty()) {
            assertTrue(q.nextDeadline() <= 10, "a timer still due: nextDeadline in the past");
            int fired = q.expire(10, out::add, 100);
            assertEquals(out.size(), fired);
            calls++;
        }
        assertEquals(List.of(-1), out);
        if (kind.isWheel()) {
            // each call moved at most 100 of the rescheduled timers before the due one came up
            assertTrue(calls > n / 100, "calls: " + calls);
        }
        assertEquals(List.of(), expire(q, 499));
        assertEquals(n, new HashSet<>(expire(q, 500)).size());
        assertTrue(q.isEmpty());
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aBoundedExpireStopsAfterItsLimitOfTimersComingFromTheOverflowHeap(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 1024, 8);
        expire(q, 0);
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            q.schedule(5000, i); // beyond the wheel's window: in its overflow heap
        }
        q.schedule(4500, -1);
        assertEquals(List.of(), expire(q, 3977)); // nothing within the window yet
        List<Integer> out = new ArrayList<>();
        int calls = 0;
        while (out.isEmpty()) {
            int fired = q.expire(4500, out::add, 100);
            assertEquals(out.size(), fired);
            calls++;
        }
        assertEquals(List.of(-1), out);
        if (kind.isWheel()) {
            // at 3977 all of them come within the window; the first calls each moved 100 into it
            assertTrue(calls > n / 100, "calls: " + calls);
        }
        assertEquals(n, new HashSet<>(expire(q, 5000)).size());
        assertTrue(q.isEmpty());
    }

    /**
     * A copying wheel tells a slot's tombstone from a live copy by a 32-bit placement token: each
     * schedule and cancel of one id must move it on once, not twice, or a tombstone passes for live
     * after 2^31 such cycles instead of 2^32 (and its slot then hands out a reused id twice).
     */
    @ParameterizedTest
    @EnumSource(
            value = TimerKind.class,
            names = {"WHEEL_RING", "WHEEL_LINKED_ARRAY"})
    void aScheduleAndCancelMoveThePlacementTokenOnOnce(TimerKind kind) throws ReflectiveOperationException {
        TimerQueue<Integer> q = kind.create(1, 64);
        expire(q, 0);
        long x = q.schedule(40, 1);
        q.schedule(40, 2);
        assertTrue(q.cancel(x)); // x's copy stays in slot 40, behind the other: a tombstone
        java.lang.reflect.Field field = WheelTimer.class.getDeclaredField("token");
        field.setAccessible(true);
        int id = (int) x - 1;
        int before = ((int[]) field.get(q))[id];
        for (int i = 0; i < 1000; i++) {
            long h = q.schedule(10, 3); // reuses x's id, freed last
            assertEquals(id, (int) h - 1);
            assertTrue(q.cancel(h));
        }
        assertEquals(before + 1000, ((int[]) field.get(q))[id], "token moves per cycle");
        assertEquals(List.of(2), expire(q, 40));
        assertTrue(q.isEmpty());
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void selfReschedulingTimerFiresOncePerExpire(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 16, 2);
        q.schedule(5, 1);
        Consumer<Integer> again = p -> q.schedule(5, p); // deadline in the past: next expire
        for (int round = 0; round < 3; round++) {
            assertEquals(1, q.expire(10, again), "round " + round);
            assertEquals(1, q.size());
        }
        // scheduled from the consumer in the future: not this call either
        q.expire(10, p -> q.schedule(11, p));
        assertEquals(0, q.expire(10, p -> {}));
        assertEquals(1, q.expire(11, p -> {}));
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void farFutureTimersFireInOrderAfterLongJumps(TimerKind kind) {
        TimerQueue<Long> q = kind.create(1, 16, 4);
        q.expire(0, p -> {});
        long[] deadlines = {1_000_000_000_000L, 17, 1_000_000_000_000_000L, 40, Long.MAX_VALUE - 1, 5_000};
        for (long d : deadlines) {
            q.schedule(d, d);
        }
        List<Long> fired = new ArrayList<>();
        long[] nows = {
            16, 17, 4_999, 5_000, 999_999_999_999L, 1_000_000_000_000L, Long.MAX_VALUE - 2, Long.MAX_VALUE - 1
        };
        int[] expectedCount = {0, 1, 2, 3, 3, 4, 5, 6};
        for (int i = 0; i < nows.length; i++) {
            long now = nows[i];
            q.expire(now, d -> {
                assertTrue(d <= now, "early: " + d + " at " + now);
                fired.add(d);
            });
            assertEquals(expectedCount[i], fired.size(), "fired by now=" + now);
        }
        assertEquals(List.of(17L, 40L, 5_000L, 1_000_000_000_000L, 1_000_000_000_000_000L, Long.MAX_VALUE - 1), fired);
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void longMaxValueFiresOnlyAtLongMaxValue(TimerKind kind) {
        for (long tick : new long[] {1, 10, 1 << 20}) {
            TimerQueue<Integer> q = kind.create(tick, 64);
            q.expire(0, p -> {});
            q.schedule(Long.MAX_VALUE, 1);
            assertEquals(List.of(), expire(q, Long.MAX_VALUE - 1), "tick " + tick);
            assertEquals(List.of(1), expire(q, Long.MAX_VALUE), "tick " + tick);
        }
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void longMinValueFiresOnTheNextExpire(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64);
        q.schedule(Long.MIN_VALUE, 1);
        assertEquals(Long.MIN_VALUE, q.nextDeadline());
        assertEquals(List.of(1), expire(q, Long.MIN_VALUE));
        q.schedule(Long.MIN_VALUE, 2);
        assertEquals(List.of(2), expire(q, -5));
        q.schedule(Long.MIN_VALUE, 3);
        assertEquals(List.of(3), expire(q, 0));
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void timeGoingBackwardsIsIgnored(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64);
        q.schedule(900, 0);
        assertEquals(List.of(0), expire(q, 1000));
        q.schedule(1500, 1);
        assertEquals(List.of(), expire(q, 500));
        assertEquals(List.of(), expire(q, Long.MIN_VALUE));
        assertEquals(List.of(), expire(q, 1499));
        assertEquals(List.of(1), expire(q, 1500));
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void staleAndUnknownHandlesCancelNothing(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64);
        long a = q.schedule(10, 1);
        assertTrue(q.cancel(a));
        assertFalse(q.cancel(a), "second cancel");
        long b = q.schedule(10, 2); // may reuse a's slot: a must still not cancel it
        assertNotEquals(a, b);
        assertFalse(q.cancel(a), "stale handle after reuse");
        assertEquals(List.of(2), expire(q, 10));
        assertFalse(q.cancel(b), "cancel after fire");
        for (long h : new long[] {0, -1, 1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 32}) {
            assertFalse(q.cancel(h), "unknown handle " + h);
        }
        assertEquals(0, q.size());
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aThrowingConsumerLeavesTheRestPending(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64);
        for (int i = 0; i < 3; i++) {
            q.schedule(10 + i, i);
        }
        assertThrows(
                IllegalStateException.class,
                () -> q.expire(20, p -> {
                    q.schedule(15, 99); // kept: placed when the call ends, even by a throw
                    throw new IllegalStateException("boom");
                }));
        assertEquals(3, q.size());
        List<Integer> rest = expire(q, 20); // timer 0 was handed out: not again
        rest.sort(null);
        assertEquals(List.of(1, 2, 99), rest);
    }

    /**
     * On a wheel a deadline after the start of the last tick that starts before
     * {@code Long.MAX_VALUE} belongs to a tick that would start past it: it fires only at
     * {@code expire(Long.MAX_VALUE)}, and {@code nextDeadline} says {@code Long.MAX_VALUE}. One on
     * that start fires there, as on any tick start. The tree is exact.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aDeadlineInTheLastTickBeforeLongMaxValue(TimerKind kind) {
        for (long tick : new long[] {10, 1 << 20}) {
            TimerQueue<Integer> q = kind.create(tick, 64);
            q.expire(0, p -> {});
            q.schedule(Long.MAX_VALUE - 3, 1);
            if (kind == TimerKind.RB_TREE) {
                assertEquals(Long.MAX_VALUE - 3, q.nextDeadline());
                assertEquals(List.of(1), expire(q, Long.MAX_VALUE - 3), "tick " + tick);
                continue;
            }
            assertEquals(List.of(), expire(q, Long.MAX_VALUE - 1), "tick " + tick);
            assertEquals(1, q.size());
            assertEquals(Long.MAX_VALUE, q.nextDeadline(), "tick " + tick);
            assertEquals(List.of(1), expire(q, Long.MAX_VALUE), "tick " + tick);
            TimerQueue<Integer> onTheStart = kind.create(tick, 64);
            long lastStart = Long.MAX_VALUE / tick * tick;
            onTheStart.schedule(lastStart, 2);
            onTheStart.expire(lastStart - 1, p -> {});
            assertEquals(lastStart, onTheStart.nextDeadline(), "tick " + tick);
            assertEquals(List.of(2), expire(onTheStart, lastStart), "tick " + tick);
        }
    }

    /**
     * The tree hands out equal deadlines in scheduling order, and a reschedule counts as a new
     * scheduling, also for a timer the consumer scheduled as due (deferred until expire returns):
     * rescheduled behind a timer scheduled after it, it fires after it, whether its new deadline is
     * in the future or due again.
     */
    @org.junit.jupiter.api.Test
    void theTreeOrdersATimerRescheduledWhileDeferredByItsReschedule() {
        for (long again : new long[] {30, 7}) {
            TimerQueue<String> q = TimerKind.RB_TREE.create(1, 64);
            q.schedule(5, "trigger");
            List<String> first = new ArrayList<>();
            q.expire(10, p -> {
                first.add(p);
                if (p.equals("trigger")) {
                    long a = q.schedule(1, "A"); // due: deferred
                    q.schedule(again, "B");
                    assertTrue(q.reschedule(a, again));
                    q.schedule(again, "C");
                }
            });
            assertEquals(List.of("trigger"), first);
            assertEquals(List.of("B", "A", "C"), expire(q, 30), "rescheduled to " + again);
            assertEquals(0, q.size());
        }
    }

    /**
     * A consumer that throws halfway through a slot holding many timers of one deadline, under an
     * expiry limit: every timer is still handed out exactly once, the thrown-on one included
     * (it was handed out), none before its deadline, and the later deadline last.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aConsumerThrowingInsideACrowdedSlotLosesNothing(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64);
        q.expire(0, p -> {});
        for (int i = 0; i < 40; i++) {
            q.schedule(10, i);
        }
        q.schedule(11, 100);
        List<Integer> seen = new ArrayList<>();
        int[] calls = {0};
        for (int round = 0; round < 200 && q.size() > 0; round++) {
            try {
                q.expire(
                        11,
                        p -> {
                            seen.add(p);
                            if (++calls[0] % 7 == 3) {
                                throw new IllegalStateException("boom " + p);
                            }
                        },
                        5);
            } catch (IllegalStateException expected) {
                // the rest stays pending for the next call
            }
        }
        assertEquals(0, q.size());
        assertEquals(41, seen.size(), "handed out once each: " + seen);
        assertEquals(41, new java.util.HashSet<>(seen).size(), "no timer twice: " + seen);
        assertEquals(100, seen.get(40), "the later deadline last: " + seen);
        assertTrue(q.expire(Long.MAX_VALUE, p -> {}) == 0);
    }

    /**
     * After a drain at {@code Long.MAX_VALUE} a timer could fire at no real {@code now}: scheduling
     * one is refused, but the drain's own consumer may, and its timers still fire.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aQueueDrainedAtTheEndOfTimeRefusesNewTimers(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64);
        expire(q, 0); // tells the time: the timers below go to their slots, not the heap
        q.schedule(20, 1);
        q.schedule(30, 2);
        q.schedule(40, 3);
        List<Integer> drained = new ArrayList<>();
        assertEquals(1, q.expire(Long.MAX_VALUE, drained::add, 1), "a bounded drain");
        assertThrows(IllegalStateException.class, () -> q.schedule(45, 9), "after a bounded drain");
        assertEquals(2, q.expire(Long.MAX_VALUE, p -> {
            drained.add(p);
            if (p == 2) {
                q.schedule(50, 4); // from the drain's consumer: accepted
            }
        }));
        assertEquals(List.of(1, 2, 3), drained);
        assertThrows(IllegalStateException.class, () -> q.schedule(1_000, 5));
        assertEquals(1, q.size(), "the refused timers were not added");
        List<Integer> late = new ArrayList<>(expire(q, 1_000_000)); // the tree fires it here
        late.addAll(expire(q, Long.MAX_VALUE)); // a wheel only here
        assertEquals(List.of(4), late, "the consumer's timer");
        assertEquals(0, q.size());
        assertEquals(TimerQueue.NO_DEADLINE, q.nextDeadline());

        LongTimerQueue longs =
                TimerQueue.builder(TimeUnit.NANOSECONDS, 0).kind(kind).buildLong();
        longs.expire(Long.MAX_VALUE, v -> {});
        assertThrows(IllegalStateException.class, () -> longs.schedule(10, 7L), "an empty queue drained");
        assertEquals(0, longs.size());
    }

    /** A drain at the end of time that its limit stopped short leaves the rest to fire at a real now. */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aBoundedDrainLeavesTheRestToFireAtARealNow(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64);
        expire(q, 0);
        q.schedule(10, 1);
        long b = q.schedule(20, 2);
        q.schedule(30, 3);
        List<Integer> drained = new ArrayList<>();
        assertEquals(1, q.expire(Long.MAX_VALUE, drained::add, 1));
        assertEquals(List.of(1), drained);
        assertTrue(q.reschedule(b, 5));
        assertTrue(q.nextDeadline() <= 10, "due again: " + q.nextDeadline());
        assertEquals(List.of(2), expire(q, 10));
        assertEquals(List.of(), expire(q, 29));
        assertEquals(List.of(3), expire(q, 30));
        assertTrue(q.isEmpty());
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void nextDeadlineIsWhenExpireWillHandItOut(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(10, 64);
        assertEquals(TimerQueue.NO_DEADLINE, q.nextDeadline());
        q.expire(0, p -> {});
        long h = q.schedule(15, 1);
        long nd = q.nextDeadline();
        assertEquals(kind.isWheel() ? 20 : 15, nd);
        assertEquals(List.of(1), expire(q, nd));
        h = q.schedule(1_000_000, 2);
        assertEquals(1_000_000, q.nextDeadline()); // beyond the span: from the overflow heap
        assertTrue(q.cancel(h));
        assertEquals(TimerQueue.NO_DEADLINE, q.nextDeadline());
    }

    /** A tick emptied by a cancel is skipped: the list wheel leaves its bit for the scan to clear. */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void nextDeadlineSkipsATickEmptiedByCancel(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(10, 64);
        q.expire(0, p -> {});
        long first = q.schedule(15, 1);
        q.schedule(45, 2);
        long third = q.schedule(75, 3);
        assertTrue(q.cancel(first));
        long next = q.nextDeadline();
        assertEquals(kind.isWheel() ? 50 : 45, next);
        assertEquals(List.of(), expire(q, next - 1));
        assertEquals(List.of(2), expire(q, next));
        assertTrue(q.cancel(third));
        q.schedule(95, 4);
        assertEquals(kind.isWheel() ? 100 : 95, q.nextDeadline());
        assertEquals(List.of(4), expire(q, 100));
        assertEquals(TimerQueue.NO_DEADLINE, q.nextDeadline());
        // 150 emptied ticks in a row, across three bitmap words, before the one that holds a timer
        TimerQueue<Integer> wide = kind.create(10, 256);
        wide.expire(0, p -> {});
        List<Long> cancelled = new ArrayList<>();
        for (int k = 1; k <= 150; k++) {
            cancelled.add(wide.schedule(10L * k - 5, k));
        }
        wide.schedule(1_995, 200);
        cancelled.forEach(h -> assertTrue(wide.cancel(h)));
        assertEquals(kind.isWheel() ? 2_000 : 1_995, wide.nextDeadline());
        assertEquals(List.of(200), expire(wide, 2_000));
        assertEquals(TimerQueue.NO_DEADLINE, wide.nextDeadline());
    }

    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void misuseFailsLoudly(TimerKind kind) {
        TimerQueue<Integer> q = kind.create();
        assertThrows(NullPointerException.class, () -> q.schedule(1, null));
        q.schedule(1, 1);
        assertThrows(IllegalStateException.class, () -> q.expire(1, p -> q.expire(1, x -> {})));
    }

    /**
     * A nested expire from a consumer is refused without disturbing the running one: if the
     * consumer swallows the refusal, the rest of the due timers still go to it, for object and
     * long payloads alike.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aRefusedNestedExpireLeavesTheOuterConsumerInPlace(TimerKind kind) {
        TimerQueue<Integer> q = kind.create();
        for (int i = 1; i <= 5; i++) {
            q.schedule(1, i);
        }
        List<Integer> outer = new ArrayList<>();
        List<Integer> inner = new ArrayList<>();
        q.expire(1, p -> {
            outer.add(p);
            assertThrows(IllegalStateException.class, () -> q.expire(1, inner::add));
            assertThrows(IllegalStateException.class, () -> q.expire(1, inner::add, 0));
        });
        assertEquals(5, outer.size(), "outer " + outer + ", inner " + inner);
        assertEquals(List.of(), inner);

        LongTimerQueue longs =
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0).kind(kind).buildLong();
        for (int i = 1; i <= 5; i++) {
            longs.schedule(1, i);
        }
        List<Long> outerLongs = new ArrayList<>();
        List<Long> innerLongs = new ArrayList<>();
        longs.expire(1, (long v) -> {
            outerLongs.add(v);
            assertThrows(IllegalStateException.class, () -> longs.expire(1, (long w) -> innerLongs.add(w)));
        });
        assertEquals(5, outerLongs.size(), "outer " + outerLongs + ", inner " + innerLongs);
        assertEquals(List.of(), innerLongs);
    }

    /**
     * Without cancels or reschedules, {@code nextDeadline} is exact: with one-unit ticks it is the
     * earliest pending deadline itself, so a loop that sleeps until then neither wakes to find
     * nothing due nor fires late; deadlines past the wheel's span (the overflow heap) included.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void nextDeadlineIsExactWithoutCancelsOrReschedules(TimerKind kind) {
        for (long s = 0; s < 40; s++) {
            long seed = s;
            SplittableRandom rnd = new SplittableRandom(seed);
            TimerQueue<Long> q = kind.create(1, 64);
            q.expire(0, d -> {});
            java.util.TreeMap<Long, Integer> pending = new java.util.TreeMap<>();
            long[] now = {0};
            for (int op = 0; op < 1_000; op++) {
                if (rnd.nextInt(10) < 6) {
                    long d = now[0] + 1 + rnd.nextInt(rnd.nextBoolean() ? 40 : 300); // in the wheel, or beyond it
                    q.schedule(d, d);
                    pending.merge(d, 1, Integer::sum);
                } else {
                    now[0] += rnd.nextInt(20);
                    q.expire(now[0], d -> {
                        assertTrue(d <= now[0], "seed " + seed + ": early");
                        pending.compute(d, (k, n) -> n == 1 ? null : n - 1);
                    });
                    assertTrue(pending.isEmpty() || pending.firstKey() > now[0], "seed " + seed + ": a due timer left");
                }
                long expected = pending.isEmpty() ? TimerQueue.NO_DEADLINE : pending.firstKey();
                assertEquals(expected, q.nextDeadline(), "seed " + seed + ", op " + op + ", now " + now[0]);
            }
        }
    }

    /**
     * {@code nextDeadline} from a consumer, after it scheduled a timer already due: a time at or
     * before {@code now}; once it cancelled such timers, that or the next deadline of the timers
     * left (the tree drops cancelled deferred timers when its list of 8 fills), never later; the
     * true next deadline once {@code expire} returned.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void nextDeadlineFromAConsumerIsAtOrBeforeNowWhileItHasScheduledADueTimer(TimerKind kind) {
        TimerQueue<String> q = kind.create(1, 64);
        q.schedule(10, "now");
        q.schedule(40, "later");
        long[] seen = new long[4];
        q.expire(10, p -> {
            seen[0] = q.nextDeadline();
            long h = q.schedule(5, "past");
            seen[1] = q.nextDeadline();
            assertTrue(q.cancel(h));
            seen[2] = q.nextDeadline();
            for (int i = 0; i < 7; i++) {
                assertTrue(q.cancel(q.schedule(5, "past " + i)));
            }
            q.schedule(2_000, "far"); // the tree's deferred list holds 8: full, it drops the cancelled
            seen[3] = q.nextDeadline();
        });
        assertEquals(40, seen[0], "only the later timer pending");
        assertTrue(seen[1] <= 10, "a due timer deferred: " + seen[1]);
        assertTrue(seen[2] <= 10, "cancelled, still deferred: " + seen[2]);
        if (kind == TimerKind.RB_TREE) {
            assertEquals(40, seen[3], "cancelled deferred timers dropped: the next deadline left");
        } else {
            assertTrue(seen[3] <= 10, "cancelled, still deferred: " + seen[3]);
        }
        assertEquals(40, q.nextDeadline());
        assertEquals(2, q.size());
    }

    /**
     * On a wheel of 10-unit ticks, a deadline the consumer schedules after the start of
     * {@code now}'s tick is not due: it waits for the next tick, and {@code nextDeadline} answers
     * that tick's start, past {@code now}; the tree answers a due time.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void nextDeadlineFromAConsumerForALaterDeadlineInNowsTickIsTheNextTick(TimerKind kind) {
        TimerQueue<String> q = kind.create(10, 64);
        q.schedule(10, "now");
        long[] seen = new long[1];
        q.expire(15, p -> {
            q.schedule(12, "later in now's tick");
            seen[0] = q.nextDeadline();
        });
        if (kind == TimerKind.RB_TREE) {
            assertTrue(seen[0] <= 15, "due on the tree: " + seen[0]);
            assertEquals(12, q.nextDeadline());
        } else {
            assertEquals(20, seen[0], "the next tick's start");
            assertEquals(0, q.expire(15, p -> {}), "not due at 15 on a wheel");
            assertEquals(20, q.nextDeadline());
        }
    }

    /** The run-loop promise behind the ring and linked-array designs: a warm queue allocates nothing. */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void steadyStateAllocatesNothing(TimerKind kind) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        TimerQueue<Object> q = kind.create(1, 1024, 512);
        Object payload = new Object();
        SplittableRandom rnd = new SplittableRandom(7);
        long[] offsets = new long[1 << 16];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = 1 + rnd.nextInt(1000);
        }
        int[] fired = {0};
        Consumer<Object> count = p -> fired[0]++;
        for (int i = 0; i < 20_000; i++) {
            q.schedule(offsets[i & 0xFFFF], payload);
        }
        long now = 0;
        int next = 0;
        // The least any of the later rounds allocated: the first rounds run while the JIT compiles
        // and replaces the loop (on-stack replacement, deoptimization), which allocates a few
        // hundred bytes on this thread now and then, whatever the queue does.
        long allocated = Long.MAX_VALUE;
        for (int round = 0; round < 8; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int t = 0; t < 3000; t++) {
                now++;
                fired[0] = 0;
                q.expire(now, count);
                for (int i = 0; i < fired[0]; i++) {
                    q.schedule(now + offsets[next++ & 0xFFFF], payload);
                }
                long h = q.schedule(now + offsets[next++ & 0xFFFF], payload);
                q.cancel(h);
            }
            if (round >= 4) {
                allocated = Math.min(allocated, threads.getCurrentThreadAllocatedBytes() - before);
            }
        }
        assertEquals(20_000, q.size());
        assertTrue(allocated < 1024, kind + " allocated " + allocated + " bytes in 3,000 warm ticks");
    }

    /**
     * One timer re-armed a tick ahead for two revolutions: every slot holds a timer once, never two
     * at a time. Memory follows the timers pending, not the ticks visited: a ring wheel's slots
     * share their rings (32 KiB each here), so the wheel does not make one per slot (128 MiB).
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aTimerMovingOverEveryTickAllocatesForItselfNotForTheTicks(TimerKind kind) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        TimerQueue<Object> q = kind.create(1, 4096, 4096);
        Object payload = new Object();
        Consumer<Object> fired = p -> {};
        long before = threads.getCurrentThreadAllocatedBytes();
        q.schedule(1, payload);
        for (long now = 1; now <= 2 * 4096; now++) {
            assertEquals(1, q.expire(now, fired));
            q.schedule(now + 1, payload);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(1, q.size());
        assertTrue(allocated < (1 << 20), kind + " allocated " + allocated + " bytes for one timer over 8,192 ticks");
    }

    /**
     * Timers cancelled before their tick comes (a request answered before its timeout) leave
     * nothing behind: with the clock standing still, two timers in each of 4,095 ticks, one
     * cancelled while the other is pending (a tombstone in a copying slot) and then the other,
     * allocate for the two, not a ring or chunk per tick (a ring wheel's are 32 KiB here: 128
     * MiB), and {@code nextDeadline} then answers the one timer left, not a tick of cancelled ones.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void timersCancelledBeforeTheirTickLeaveNothingBehind(TimerKind kind) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        TimerQueue<Object> q = kind.create(1, 4096, 4096);
        q.expire(0, p -> {}); // the wheel's position: timers go to their slots, not the heap
        Object payload = new Object();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (long t = 1; t < 4096; t++) {
            long first = q.schedule(t, payload);
            long second = q.schedule(t, payload);
            assertTrue(q.cancel(first));
            assertTrue(q.cancel(second));
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < (1 << 20), kind + " allocated " + allocated + " bytes for two timers at a time");
        assertEquals(0, q.size());
        q.schedule(4000, payload);
        assertEquals(4000, q.nextDeadline(), kind + ": the slots of cancelled timers are passed over");
    }

    /**
     * An {@code expire} cut short in a tick (its limit of one, or its consumer throwing) whose
     * consumer cancels that tick's other timers, then nothing pending: the tick's tombstones are
     * not left behind for good. A queue whose clock then moves on answers the next timer's own
     * tick from {@code nextDeadline}, and 1,000 such rounds over two revolutions of a 1,024-tick
     * wheel reuse the storage given back (a ring wheel's rings are 2 KiB here: 512 kept would be
     * 1 MiB).
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void anExpireCutShortLeavesNoCancelledTimersBehind(TimerKind kind) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (boolean throwing : new boolean[] {false, true}) {
            TimerQueue<Object> q = kind.create(1, 1024, 256);
            q.expire(0, p -> {});
            long[] mates = new long[3];
            RuntimeException stop = new RuntimeException("the consumer stops");
            Consumer<Object> cancelMates = p -> {
                for (long h : mates) {
                    q.cancel(h); // the one handed out is no longer pending: false
                }
                if (throwing) {
                    throw stop;
                }
            };
            long before = 0;
            for (int round = 0; round < 1_000; round++) {
                if (round == 24) {
                    before = threads.getCurrentThreadAllocatedBytes(); // past the first rings' making
                }
                long t = 2L * round + 1;
                mates[0] = q.schedule(t, "first");
                mates[1] = q.schedule(t, "second");
                mates[2] = q.schedule(t, "third");
                try {
                    assertEquals(1, q.expire(t, cancelMates, 1), kind + " round " + round);
                } catch (RuntimeException e) {
                    assertSame(stop, e);
                }
                assertEquals(0, q.size());
                assertEquals(0, q.expire(t + 1, p -> fail("nothing is pending")));
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(
                    allocated < (256 << 10),
                    kind + (throwing ? ", throwing" : ", limit 1") + ": " + allocated + " bytes");
            q.schedule(5_000, "last");
            assertEquals(5_000, q.nextDeadline(), kind + ": no tick of cancelled timers comes first");
        }
    }

    /**
     * Emptying slots gives their storage back without allocating: an {@code expire} that fires
     * timers over 200 ticks, and a {@code nextDeadline} that passes 200 slots emptied by cancels,
     * allocate nothing (they are not allowed to fail for want of memory).
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void emptyingSlotsAllocatesNothing(TimerKind kind) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Consumer<Object> none = p -> {};
        long expiring = Long.MAX_VALUE;
        long scanning = Long.MAX_VALUE;
        for (int round = 0; round < 4; round++) { // fresh queues; the least of the later rounds
            TimerQueue<Object> fired = kind.create(1, 1024, 16);
            TimerQueue<Object> cancelled = kind.create(1, 1024, 16);
            fired.expire(0, none); // the wheel's position: timers go to their slots, not the heap
            cancelled.expire(0, none);
            long[] handles = new long[200];
            for (int t = 1; t <= 200; t++) {
                fired.schedule(t, "x");
                handles[t - 1] = cancelled.schedule(t, "x");
            }
            cancelled.schedule(500, "last");
            for (long h : handles) {
                cancelled.cancel(h);
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            int n = fired.expire(200, none);
            long between = threads.getCurrentThreadAllocatedBytes();
            long next = cancelled.nextDeadline();
            long after = threads.getCurrentThreadAllocatedBytes();
            assertEquals(200, n);
            assertEquals(500, next);
            if (round >= 2) {
                expiring = Math.min(expiring, between - before);
                scanning = Math.min(scanning, after - between);
            }
        }
        assertEquals(0, expiring, kind + ": expire allocated while emptying slots");
        assertEquals(0, scanning, kind + ": nextDeadline allocated while passing emptied slots");
    }

    /**
     * Idle timeouts re-armed forever on a clock that never reaches them: each re-arm cancels an
     * older timer (a tombstone for ring and linked-array slots) and schedules a new one in the same
     * tick. Memory must stay bounded by the live timers, not grow with the number of re-arms.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void reArmedIdleTimeoutsDoNotGrowMemory(TimerKind kind) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        TimerQueue<Object> q = kind.create(1, 64, 16);
        q.expire(0, p -> {});
        Object payload = new Object();
        int connections = 1000;
        long[] timers = new long[connections];
        for (int i = 0; i < connections; i++) {
            timers[i] = q.schedule(50, payload);
        }
        SplittableRandom rnd = new SplittableRandom(3);
        long before = 0;
        for (int round = 0; round < 2; round++) {
            if (round == 1) {
                before = threads.getCurrentThreadAllocatedBytes();
            }
            for (int i = 0; i < 200_000; i++) {
                int c = rnd.nextInt(connections);
                assertTrue(q.cancel(timers[c]));
                timers[c] = q.schedule(50, payload);
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(connections, q.size());
        assertTrue(allocated < 4096, kind + " allocated " + allocated + " bytes in 200,000 re-arms");
        List<Object> fired = new ArrayList<>();
        q.expire(50, fired::add);
        assertEquals(connections, fired.size());
    }

    /**
     * A clock whose times lie more than a long away from the origin (origin {@code Long.MIN_VALUE},
     * times around 0): the ticks are still exact, so a timer fires neither early nor never, and
     * {@code nextDeadline} names a time at which it fires.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void timesMoreThanALongFromTheOriginKeepExactTicks(TimerKind kind) {
        for (long tickNs : new long[] {2, 1_000_000, 3}) {
            TimerQueue<Integer> q = TimerQueue.builder(TimeUnit.NANOSECONDS, Long.MIN_VALUE)
                    .kind(kind)
                    .tick(Duration.ofNanos(tickNs))
                    .span(Duration.ofNanos(tickNs * 1024))
                    .build();
            q.schedule(1_000, 7);
            String where = kind + ", tick " + tickNs + " ns";
            assertEquals(List.of(), expire(q, 0), where + ": early");
            assertEquals(List.of(), expire(q, 999), where + ": early");
            long next = q.nextDeadline();
            assertTrue(next >= 1_000 && next < 1_000 + tickNs, where + ": nextDeadline " + next);
            assertEquals(List.of(7), expire(q, next), where + ": at nextDeadline");
            assertTrue(q.isEmpty(), where);
        }
    }

    /**
     * One-nanosecond ticks from a negative origin: a deadline past the last tick a long counts
     * fires only at the end of time, never at a {@code now} before it.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aDeadlinePastTheLastTickFiresOnlyAtTheEndOfTime(TimerKind kind) {
        long origin = -10_000_000_000L;
        TimerQueue<Integer> q = TimerQueue.builder(TimeUnit.NANOSECONDS, origin)
                .kind(kind)
                .tick(Duration.ofNanos(1))
                .span(Duration.ofNanos(1024))
                .build();
        q.schedule(Long.MAX_VALUE - 5, 1);
        q.schedule(Long.MAX_VALUE + origin - 1, 2); // the tick before the last: exact
        assertEquals(List.of(), expire(q, Long.MAX_VALUE + origin - 2), kind + ": early");
        assertEquals(List.of(2), expire(q, Long.MAX_VALUE + origin), kind.toString());
        assertEquals(List.of(), expire(q, Long.MAX_VALUE - 6), kind + ": early");
        assertEquals(List.of(1), expire(q, Long.MAX_VALUE), kind.toString());
    }

    /** A full queue refuses the next timer with a clear error and stays as it was. */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void aFullQueueRefusesTheNextTimerAndStaysUsable(TimerKind kind) {
        TimerQueue<Integer> q = kind.create(1, 64, 8);
        int max;
        if (q instanceof WheelTimer<?> wheel) {
            max = wheel.maxIds = 128;
        } else {
            RbTreeTimer<?> tree = (RbTreeTimer<?>) q;
            tree.maxIds = 128;
            max = 127; // id 0 is the tree's NIL
        }
        for (int i = 0; i < max; i++) {
            q.schedule(i, i);
        }
        IllegalStateException full = assertThrows(IllegalStateException.class, () -> q.schedule(5, -1));
        assertTrue(full.getMessage().startsWith("full: "), full.getMessage());
        assertEquals(max, q.size());
        assertEquals(0, q.nextDeadline(), kind.toString());
        List<Integer> out = expire(q, Long.MAX_VALUE - 1);
        assertEquals(max, out.size(), kind.toString());
        assertTrue(q.isEmpty());
        q.schedule(Long.MAX_VALUE - 1, 1); // room again: ids are reused
        assertEquals(1, q.size());
    }
}
