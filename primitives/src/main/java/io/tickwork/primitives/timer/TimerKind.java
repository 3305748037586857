package io.tickwork.primitives.timer;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The {@link TimerQueue} implementations, by name, with their factories: what a {@code --timer}
 * option parses ({@link #parse}) and what tests and benchmarks iterate over.
 *
 * <p>Which to pick (measurements and the table in {@code docs/results/timer.md}):
 * <ul>
 *   <li>{@link #WHEEL_LINKED_ARRAY}: the default for run loops. O(1) everything, no allocation
 *       once warm, sequential memory access on expiry, never overflows, memory follows the load.</li>
 *   <li>{@link #WHEEL_RING}: the fastest expiry while a tick's timers fit in {@code slotCapacity}
 *       (one contiguous array per tick); beyond it a tick spills to a chunk list, and the rings cost
 *       {@code ticksPerWheel * slotCapacity * 8} bytes once every slot has been used.</li>
 *   <li>{@link #WHEEL_LIST}: an intrusive doubly-linked list per slot; the fastest schedule+cancel
 *       and cancel unlinks at once, so it keeps no cancelled entries around (idle timeouts, where
 *       most timers are cancelled long before they are due), at the price of pointer chasing on
 *       expiry.</li>
 *   <li>{@link #RB_TREE}: exact deadlines, no tick rounding and no span to size; O(log d) in the
 *       number of distinct deadlines. Pick it when exact order matters, or deadlines spread over a
 *       range no wheel covers.</li>
 * </ul>
 *
 * <p>Wheels round a deadline up to the next multiple of {@code tickDuration} and hold
 * {@code ticksPerWheel} ticks; deadlines beyond that span wait in a binary heap until the wheel
 * comes around (O(log n) for those timers only). Size the span to cover the common timeouts.
 */
public enum TimerKind {
    /** {@link RbTreeTimer}: own red-black tree over parallel primitive arrays; exact, O(log n). */
    RB_TREE,
    /** {@link WheelListTimer}: hashed wheel, an intrusive doubly-linked list per slot. */
    WHEEL_LIST,
    /** {@link WheelRingTimer}: hashed wheel, a {@code RingQueue} per slot spilling to a chunk list. */
    WHEEL_RING,
    /** {@link WheelLinkedArrayTimer}: hashed wheel, a {@code LinkedArrayList} per slot. */
    WHEEL_LINKED_ARRAY;

    /**
     * One unit of the caller's clock per tick: exact for a millisecond clock or a virtual clock;
     * with {@link System#nanoTime()} pass a real tick (e.g. 1_000_000 for 1 ms) to {@link #create(long, int)}.
     */
    public static final long DEFAULT_TICK_DURATION = 1;
    /** 1,024 slots: with 1 ms ticks a wheel covers about a second before timers go to the heap. */
    public static final int DEFAULT_TICKS_PER_WHEEL = 1024;
    /**
     * Ring capacity ({@link #WHEEL_RING}) or chunk size ({@link #WHEEL_LINKED_ARRAY}) per slot, in
     * timers: 2 KiB per ring or chunk, large enough for a few hundred timers per tick.
     */
    public static final int DEFAULT_SLOT_CAPACITY = 256;

    /** A queue with the default tick, wheel size and slot capacity. */
    public <T> TimerQueue<T> create() {
        return create(DEFAULT_TICK_DURATION, DEFAULT_TICKS_PER_WHEEL, DEFAULT_SLOT_CAPACITY);
    }

    /** A queue with the given tick and wheel size and the default slot capacity. */
    public <T> TimerQueue<T> create(long tickDuration, int ticksPerWheel) {
        return create(tickDuration, ticksPerWheel, DEFAULT_SLOT_CAPACITY);
    }

    /**
     * A queue of this kind. The arguments are validated for every kind (so a bad option fails the
     * same way whatever {@code --timer} says) but {@link #RB_TREE} uses none of them: it is exact.
     *
     * @param tickDuration  the wheel's resolution, in the caller's time unit; {@code >= 1}
     * @param ticksPerWheel slots in the wheel; a power of 2 in [1, 2^24]
     * @param slotCapacity  ring capacity ({@link #WHEEL_RING}) or chunk size
     *                      ({@link #WHEEL_LINKED_ARRAY}) in timers; in [1, 2^20]; ignored by the others
     * @throws IllegalArgumentException naming the bad value
     */
    public <T> TimerQueue<T> create(long tickDuration, int ticksPerWheel, int slotCapacity) {
        if (tickDuration < 1) {
            throw new IllegalArgumentException("tickDuration must be >= 1: " + tickDuration);
        }
        if (ticksPerWheel < 1 || ticksPerWheel > (1 << 24) || Integer.bitCount(ticksPerWheel) != 1) {
            throw new IllegalArgumentException("ticksPerWheel must be a power of 2 in [1, 2^24]: " + ticksPerWheel);
        }
        if (slotCapacity < 1 || slotCapacity > (1 << 20)) {
            throw new IllegalArgumentException("slotCapacity must be in [1, 2^20]: " + slotCapacity);
        }
        switch (this) {
            case RB_TREE:
                return new RbTreeTimer<>();
            case WHEEL_LIST:
                return new WheelListTimer<>(tickDuration, ticksPerWheel);
            case WHEEL_RING:
                return new WheelRingTimer<>(tickDuration, ticksPerWheel, slotCapacity);
            case WHEEL_LINKED_ARRAY:
                return new WheelLinkedArrayTimer<>(tickDuration, ticksPerWheel, slotCapacity);
            default:
                throw new AssertionError(this);
        }
    }

    /** Whether this kind rounds deadlines to ticks (every kind but {@link #RB_TREE}). */
    public boolean isWheel() {
        return this != RB_TREE;
    }

    /**
     * The kind named {@code name}, ignoring case and accepting {@code -} for {@code _}
     * ({@code "wheel-ring"}, {@code "WHEEL_RING"}).
     *
     * @throws IllegalArgumentException listing the valid names if none matches
     */
    public static TimerKind parse(String name) {
        if (name != null) {
            String n = name.trim().replace('-', '_').toUpperCase(Locale.ROOT);
            for (TimerKind k : values()) {
                if (k.name().equals(n)) {
                    return k;
                }
            }
        }
        throw new IllegalArgumentException("unknown timer kind '" + name + "'; valid: " + names());
    }

    /** The valid names, lower case, comma separated (for help texts). */
    public static String names() {
        return Arrays.stream(values())
                .map(k -> k.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", "));
    }
}
