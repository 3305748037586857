package io.tickwork.primitives.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link TickClock} against exact big-integer arithmetic, for ticks with and without a shift. */
class TickClockTest {
    private static final BigInteger MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private static long saturate(BigInteger v) {
        return v.compareTo(MAX) > 0 ? Long.MAX_VALUE : v.compareTo(MIN) < 0 ? Long.MIN_VALUE : v.longValueExact();
    }

    /**
     * The clock's definition: the exact {@code time - origin} divided by {@code tick}, rounded as
     * asked; a difference below the long range is the earliest tick; a now's tick stops one short
     * of {@code Long.MAX_VALUE}, which stands for deadlines at or past the last tick.
     */
    private static long expectedTick(long time, long origin, long tick, boolean ceiling) {
        BigInteger r = BigInteger.valueOf(time).subtract(BigInteger.valueOf(origin));
        if (r.compareTo(MIN) < 0) {
            return Long.MIN_VALUE;
        }
        BigInteger[] qr = r.divideAndRemainder(BigInteger.valueOf(tick));
        BigInteger q = qr[0];
        if (qr[1].signum() < 0) {
            q = q.subtract(BigInteger.ONE); // floor
        }
        if (ceiling && qr[1].signum() != 0) {
            q = q.add(BigInteger.ONE);
        }
        return Math.min(saturate(q), ceiling ? Long.MAX_VALUE : Long.MAX_VALUE - 1);
    }

    @Test
    void ticksMatchExactArithmetic() {
        SplittableRandom rnd = new SplittableRandom(7);
        long[] ticks = {1, 2, 3, 7, 10, 1_000, 1_000_000, 1L << 20, 999_999_937, Long.MAX_VALUE / 3, Long.MAX_VALUE};
        long[] specials = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        for (long tick : ticks) {
            for (int i = 0; i < 20_000; i++) {
                long origin = i % 7 == 0 ? specials[rnd.nextInt(specials.length)] : rnd.nextLong() >> rnd.nextInt(64);
                long time = i % 5 == 0 ? specials[rnd.nextInt(specials.length)] : rnd.nextLong() >> rnd.nextInt(64);
                if (i % 3 == 0) {
                    time = origin + rnd.nextLong(-3 * tick, 3 * tick + 1); // near tick boundaries (may wrap: fine)
                }
                TickClock c = new TickClock(origin, tick);
                String where = "tick=" + tick + " origin=" + origin + " time=" + time;
                assertEquals(expectedTick(time, origin, tick, false), c.floorTick(time), where + " floor");
                assertEquals(expectedTick(time, origin, tick, true), c.ceilTick(time), where + " ceil");
            }
        }
    }

    @Test
    void startOfATickSaturates() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 50_000; i++) {
            long tick = 1 + (rnd.nextLong() >>> (1 + rnd.nextInt(63)));
            long origin = rnd.nextLong() >> rnd.nextInt(64);
            long k = rnd.nextLong() >> rnd.nextInt(64);
            BigInteger exact =
                    BigInteger.valueOf(origin).add(BigInteger.valueOf(k).multiply(BigInteger.valueOf(tick)));
            assertEquals(
                    saturate(exact),
                    new TickClock(origin, tick).startOf(k),
                    "tick=" + tick + " origin=" + origin + " k=" + k);
        }
    }

    @Test
    void aDeadlinesTickStartsAtOrAfterIt() {
        TickClock c = new TickClock(-5_000_000_123L, 1_000_000);
        for (long d = -5_100_000_000L; d < -4_900_000_000L; d += 333_333) {
            long k = c.ceilTick(d);
            long start = c.startOf(k);
            assertTrue(start >= d && start - d < 1_000_000, "deadline " + d + " tick " + k + " starts " + start);
            assertEquals(k, c.floorTick(start));
        }
    }
}
