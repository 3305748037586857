package io.tickwork.primitives.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A slot's generation at the ends of its range, for every kind: a slot reused so often that its
 * generation passes 2^31 (its handles turn negative) and then 2^32 - 1 still issues handles that are
 * never a number in [0, 2^32), never -1, and that tell its timers apart. Reaching those values by
 * recycling takes 10^9 schedules and cancels, so the test sets the generation directly.
 */
class HandleGenerationTest {

    /** A queue of {@code kind} holding one timer, its slot's generation set to {@code generation}. */
    private static LongTimerQueue oneTimerAt(TimerKind kind, int generation) throws ReflectiveOperationException {
        LongTimerQueue q =
                TimerQueue.builder(TimeUnit.MILLISECONDS, 0).kind(kind).buildLong();
        long h = q.schedule(5, 1);
        setGeneration(q, h, generation);
        return q;
    }

    /** Sets the generation of the slot {@code h} names, as if it had been reused that often. */
    private static void setGeneration(LongTimerQueue q, long h, int generation) throws ReflectiveOperationException {
        int slot = (int) h;
        if (q instanceof WheelTimer<?>) {
            Field f = WheelTimer.class.getDeclaredField("gen");
            f.setAccessible(true);
            ((int[]) f.get(q))[slot - 1] = generation; // a wheel's handle holds id + 1
        } else {
            Field f = RbTreeTimer.class.getDeclaredField("timers");
            f.setAccessible(true);
            Field meta = RbTreeTimer.class.getDeclaredField("T_META");
            meta.setAccessible(true);
            long[] timers = (long[]) f.get(q);
            int i = (slot << 2) + meta.getInt(null);
            timers[i] = (timers[i] & 0xFFFF_FFFFL) | ((long) generation << 32);
        }
    }

    /** The one timer's handle once its generation is set: slot 1 on every kind (a wheel's id 0, plus 1). */
    private static long handleOfTheOneTimer(int generation) {
        return ((long) generation << 32) | 1;
    }

    /**
     * From each generation near an end of the range, cancel and schedule the same slot a few
     * times: every handle issued is outside [0, 2^32) and not -1, each old one is refused, each
     * new one cancels its own timer.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void handlesStayOutsideTheIntRangeAcrossTheGenerationsEnds(TimerKind kind) throws Exception {
        // live generations are even on the wheels; the tree takes any
        for (int start : new int[] {Integer.MAX_VALUE - 5, -6, -2}) {
            LongTimerQueue q = oneTimerAt(kind, start);
            long h = handleOfTheOneTimer(start);
            List<Long> issued = new ArrayList<>(List.of(h));
            for (int round = 0; round < 8; round++) {
                assertTrue(q.cancel(h), kind + " round " + round + ": " + Long.toHexString(h));
                long next = q.schedule(7, 2);
                assertEquals((int) h, (int) next, "the slot freed last is reused first");
                assertFalse(next >= 0 && next < (1L << 32), kind + ": " + Long.toHexString(next) + " is an int id");
                assertTrue(next != -1, kind.toString());
                for (long old : issued) {
                    assertFalse(q.cancel(old), kind + ": a stale handle " + Long.toHexString(old) + " cancelled");
                }
                issued.add(next);
                h = next;
            }
            assertTrue(issued.stream().anyMatch(x -> x < 0), kind + ": generations past 2^31 give negative handles");
            assertTrue(issued.stream().anyMatch(x -> x > 0), kind + ": and then wrap to positive ones");
            assertEquals(1, q.size());
            long[] fired = new long[1];
            assertEquals(1, q.expire(7, p -> fired[0] = p));
            assertEquals(2, fired[0]);
        }
    }

    /**
     * Queues start their generations far apart, so one queue's handle names no timer of another
     * until a slot has been recycled about 2^27 / k times more in one than in the other: the first
     * k queues' starts are even, in [2^30, 2^31), and more than 2^28 / k apart, from 2 queues to a
     * million (past 75,000, where a 32-bit golden-ratio fraction no longer spaces them so).
     */
    @Test
    void theFirstMillionQueuesStartTheirGenerationsFarApart() {
        int most = 1 << 20;
        int[] first = new int[most];
        for (int k = 1; k <= most; k++) {
            int g = WheelTimer.firstGeneration(k);
            assertEquals(0, g & 1, "queue " + k + " starts odd: " + g);
            assertTrue(g >= 1 << 30, "queue " + k + " starts below 2^30: " + g); // an int: below 2^31
            first[k - 1] = g;
        }
        for (int k : new int[] {2, 3, 100, 1_000, 75_026, 100_000, 1 << 18, 986_271, most}) {
            int[] sorted = Arrays.copyOf(first, k);
            Arrays.sort(sorted);
            long closest = Long.MAX_VALUE;
            for (int i = 1; i < k; i++) {
                closest = Math.min(closest, (long) sorted[i] - sorted[i - 1]);
            }
            assertTrue(closest > (1L << 28) / k, "the first " + k + " queues: two start " + closest + " apart");
        }
    }
}
