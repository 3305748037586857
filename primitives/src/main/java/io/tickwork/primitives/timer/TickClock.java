package io.tickwork.primitives.timer;

import java.util.concurrent.TimeUnit;

/**
 * Converts between a clock's time and the ticks of a wheel: tick {@code k} starts at
 * {@code origin + k * tick}. Immutable.
 *
 * <p>Why an origin: {@link System#nanoTime()} may be negative, and its values are far from zero,
 * so ticks are counted from a time the owner chooses (usually the clock at construction), which
 * keeps every tick of a realistic deadline a small positive number. Times before the origin are
 * handled too (they make negative ticks, the past).
 *
 * <p>Cost: a tick that is a power of two in the clock's unit is a shift. Any other tick (1 ms on a
 * nanosecond clock is 10^6) is a multiplication by a precomputed reciprocal
 * ({@link Math#multiplyHigh}) and one multiply-and-compare to correct it, never a division, for
 * times at or after the origin; times before it take a division ({@link Math#floorDiv}), which
 * only past deadlines meet.
 */
final class TickClock {
    final long origin;
    final long tick;
    /** The clock's unit, for {@link #tickText}; null for a queue of raw ticks (no unit given). */
    private final TimeUnit unit;
    /** {@code log2(tick)} when the tick is a power of 2, else -1. */
    private final int shift;
    /** {@code floor(2^64 / tick) + 1} for the reciprocal multiply when {@link #shift} is -1. */
    private final long reciprocal;

    TickClock(long origin, long tick) {
        this(origin, tick, null);
    }

    TickClock(long origin, long tick, TimeUnit unit) {
        if (tick < 1) {
            throw new IllegalArgumentException("tick must be >= 1: " + tick);
        }
        this.origin = origin;
        this.tick = tick;
        this.unit = unit;
        this.shift = Long.bitCount(tick) == 1 ? Long.numberOfTrailingZeros(tick) : -1;
        this.reciprocal = shift >= 0 ? 0 : Long.divideUnsigned(-1L, tick) + 1;
    }

    /**
     * The largest tick that has started at {@code time}: {@code floor((time - origin) / tick)}, at
     * most {@code Long.MAX_VALUE - 1}. Tick {@code Long.MAX_VALUE} stands for every deadline at or
     * past the last tick a long counts (reached where {@code time - origin} exceeds a long: a
     * one-unit tick, or an origin far below zero), which only the end of
     * time ({@code now == Long.MAX_VALUE}, handled by the wheels) makes due: such a deadline
     * fires late, never early.
     */
    long floorTick(long time) {
        long r = time - origin;
        if (((time ^ origin) & (time ^ r)) < 0) { // the subtraction overflowed
            return floorTickOutOfRange(time);
        }
        long k = shift >= 0 ? r >> shift : floorDivided(r);
        return k != Long.MAX_VALUE ? k : Long.MAX_VALUE - 1;
    }

    /** The first tick that starts at or after {@code time}: a deadline's tick, never early. */
    long ceilTick(long time) {
        long r = time - origin;
        if (((time ^ origin) & (time ^ r)) < 0) { // the subtraction overflowed
            return ceilTickOutOfRange(time);
        }
        if (shift >= 0) {
            return (r >> shift) + ((r & (tick - 1)) != 0 ? 1 : 0);
        }
        long q = floorDivided(r);
        return r - q * tick != 0 ? q + 1 : q;
    }

    /*
     * time - origin does not fit a long, out of line (the hot paths stay small enough to inline).
     * Past the origin, the difference is exact as an unsigned long and so is its quotient: with a
     * tick of 2 or more it fits a long again. Before the origin by more than a long counts: the
     * distant past, the earliest tick.
     */
    private long floorTickOutOfRange(long time) {
        if (time < origin) {
            return Long.MIN_VALUE;
        }
        long q = Long.divideUnsigned(time - origin, tick);
        return q >= 0 && q != Long.MAX_VALUE ? q : Long.MAX_VALUE - 1;
    }

    private long ceilTickOutOfRange(long time) {
        if (time < origin) {
            return Long.MIN_VALUE;
        }
        long d = time - origin;
        long q = Long.divideUnsigned(d, tick) + (Long.remainderUnsigned(d, tick) != 0 ? 1 : 0);
        return q >= 0 ? q : Long.MAX_VALUE; // past the last tick a long counts
    }

    /*
     * The division for a tick that is not a power of 2, out of line: a queue with a power-of-2 tick
     * never runs it, so the JIT leaves it out of the schedule and expire paths it compiles, which
     * keeps those small enough to be inlined into their callers.
     */
    private long floorDivided(long r) {
        if (r < 0) {
            return Math.floorDiv(r, tick);
        }
        // r * reciprocal / 2^64 exceeds r / tick by less than r / 2^64 < 1/2: the quotient or one more
        long q = Math.multiplyHigh(r, reciprocal);
        return r - q * tick < 0 ? q - 1 : q;
    }

    /** When tick {@code k} starts, saturated to the long range. */
    long startOf(long k) {
        // origin + k * tick in 128 bits (hi:lo), then saturated: the product alone may overflow
        // while the sum fits (a negative origin)
        long lo = k * tick;
        long hi = Math.multiplyHigh(k, tick);
        long sum = lo + origin;
        hi += (origin >> 63) + (Long.compareUnsigned(sum, lo) < 0 ? 1 : 0);
        if (hi != (sum >> 63)) {
            return hi < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }

    /** The tick with its unit ("1000000 ns"), so a clock fed in the wrong unit shows; raw ticks bare. */
    String tickText() {
        if (unit == null) {
            return Long.toString(tick);
        }
        String u = switch (unit) {
            case NANOSECONDS -> "ns";
            case MICROSECONDS -> "us";
            case MILLISECONDS -> "ms";
            case SECONDS -> "s";
            case MINUTES -> "min";
            case HOURS -> "h";
            case DAYS -> "d";
        };
        return tick + " " + u;
    }
}
