package io.tickwork.primitives.timer;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The {@link TimerQueue} implementations, by name: what {@link TimerQueueBuilder#kind} takes, what
 * a {@code --timer} option parses ({@link #parse}), and what tests and benchmarks iterate over.
 * Build queues with {@link TimerQueue#builder}; the factories here are the low-level form, in raw
 * units of the caller's clock, ticks aligned to multiples of the tick, and no origin for the wheel
 * to start at (see {@link #create(long, int, int)}).
 *
 * <p>Which to pick:
 * <ul>
 *   <li>{@link #WHEEL_LIST}: the default, and the one for timeouts that are re-armed or cancelled
 *       far more often than they fire (idle and request timeouts). An intrusive doubly-linked
 *       list per slot: cancel and an earlier reschedule unlink at once, a later reschedule is one
 *       store, nothing cancelled stays behind; no allocation once warm. Expiry follows a link
 *       per timer, which costs most when thousands fire per tick.</li>
 *   <li>{@link #WHEEL_LINKED_ARRAY}: when thousands of timers fire per tick (expiry walks
 *       contiguous chunks instead of links); no fixed capacity per tick, memory follows the number
 *       of ticks holding timers: each takes at least one chunk ({@code slotCapacity} timers, 2 KiB
 *       by default), so timers spread one per tick cost about 2 KiB each, against tens of bytes on
 *       {@link #WHEEL_LIST}. Cancelled copies stay in their slot as tombstones until compacted, or
 *       until the slot's last pending timer leaves it: the chunks then go back at once.</li>
 *   <li>{@link #WHEEL_RING}: as {@link #WHEEL_LINKED_ARRAY}, when a tick's timers usually fit one
 *       fixed array per slot holding timers ({@code slotCapacity}; a slot whose last pending timer
 *       fires or leaves gives its array back for the next slot to use): expiry scans
 *       that array, a burst beyond it spills to chunks; tombstones and the cost of sparse ticks as
 *       there.</li>
 *   <li>{@link #RB_TREE}: exact deadlines, no tick rounding and no span to size; O(log d) in the
 *       number of distinct deadlines. Pick it when exact order matters, or deadlines spread over a
 *       range no wheel covers.</li>
 * </ul>
 *
 * <p>Wheels round a deadline up to the next tick and hold {@code ticksPerWheel} ticks; deadlines
 * beyond that span wait in a binary heap until the wheel comes around (O(log n) for those timers
 * only). Size the span to cover the common timeouts.
 */
public enum TimerKind {
    /** A red-black tree of its own over parallel primitive arrays; exact, O(log n). */
    RB_TREE,
    /** A hashed wheel with an intrusive doubly-linked list per slot. */
    WHEEL_LIST,
    /** A hashed wheel with a {@code RingQueue} per slot, spilling to a chunk list when it is full. */
    WHEEL_RING,
    /** A hashed wheel with a {@code LinkedArrayList} of array chunks per slot. */
    WHEEL_LINKED_ARRAY;

    /**
     * One unit of the caller's clock per tick, for {@link #create()}: a virtual or millisecond
     * clock. A count of clock units, not a {@link java.time.Duration}: the builder's default tick
     * ({@link TimerQueue#builder}) is 1 ms whatever the clock's unit.
     */
    public static final long DEFAULT_TICK_UNITS = 1;
    /** 1,024 slots, for {@link #create()}. */
    public static final int DEFAULT_TICKS_PER_WHEEL = 1024;
    /**
     * Ring capacity ({@link #WHEEL_RING}) or chunk size ({@link #WHEEL_LINKED_ARRAY}) per slot, in
     * timers: 2 KiB per ring or chunk, large enough for a few hundred timers per tick.
     */
    public static final int DEFAULT_SLOT_CAPACITY = 256;

    /**
     * Low level: a queue whose tick is one unit of the caller's clock, 1,024 ticks per wheel,
     * positioned by its first {@code expire} (see {@link #create(long, int, int)}). Right for a
     * virtual clock or a millisecond clock with short timeouts; for {@code System.nanoTime()} use
     * {@link TimerQueue#builder}, or every timer lands in the overflow heap.
     */
    public <T> TimerQueue<T> create() {
        return create(DEFAULT_TICK_UNITS, DEFAULT_TICKS_PER_WHEEL, DEFAULT_SLOT_CAPACITY);
    }

    /** Low level: {@link #create(long, int, int)} with the default slot capacity. */
    public <T> TimerQueue<T> create(long tickUnits, int ticksPerWheel) {
        return create(tickUnits, ticksPerWheel, DEFAULT_SLOT_CAPACITY);
    }

    /**
     * Low level: a queue of this kind whose ticks are {@code tickUnits} units of the caller's clock,
     * tick {@code k} starting at {@code k * tickUnits} (negative {@code k} included). The arguments
     * are validated for every kind (so a bad option fails the same way whatever {@code --timer}
     * says) but {@link #RB_TREE} uses none of them: it is exact.
     *
     * <p>Unlike a queue from {@link TimerQueue#builder}, a wheel made here does not start at an
     * origin: its position is unknown until the first {@code expire}, which moves it to that call's
     * {@code now}. Until then no deadline counts as past, whatever its value (negative included),
     * so a timer scheduled before the first {@code expire} waits in the overflow heap (O(log n)
     * each; only on a one-unit tick do deadlines within {@code ticksPerWheel} units of
     * {@code Long.MIN_VALUE} go to a slot). The first {@code expire(now, ..)} hands out every such
     * timer whose tick has started at {@code now} (a bounded one counts each timer it moves out of
     * the heap against its {@code limit}, so it may hand out none), and the others move
     * into the wheel as it comes within a revolution of them. From then on a past deadline fires
     * on the next {@code expire}, and a {@code now} below the first one is time going backwards
     * (see {@link TimerQueue}).
     *
     * @param tickUnits     the wheel's resolution, in units of the caller's clock; {@code >= 1}
     * @param ticksPerWheel slots in the wheel; a power of 2 in [1, 2^24]
     * @param slotCapacity  ring capacity ({@link #WHEEL_RING}) or chunk size
     *                      ({@link #WHEEL_LINKED_ARRAY}) in timers; in [1, 2^20]; ignored by the others
     * @throws IllegalArgumentException naming the bad value
     */
    @SuppressWarnings("unchecked")
    public <T> TimerQueue<T> create(long tickUnits, int ticksPerWheel, int slotCapacity) {
        return (TimerQueue<T>) make(new TickClock(0, checkTick(tickUnits)), ticksPerWheel, slotCapacity, false, false);
    }

    /** Low level: as {@link #create(long, int, int)}, with {@code long} payloads. */
    public LongTimerQueue createLong(long tickUnits, int ticksPerWheel, int slotCapacity) {
        return (LongTimerQueue) make(new TickClock(0, checkTick(tickUnits)), ticksPerWheel, slotCapacity, true, false);
    }

    private static long checkTick(long tickUnits) {
        if (tickUnits < 1) {
            throw new IllegalArgumentException("tickUnits must be >= 1: " + tickUnits);
        }
        return tickUnits;
    }

    /**
     * A queue of this kind on {@code clock}; implements both {@link TimerQueue} and
     * {@link LongTimerQueue}. A wheel that starts at the origin treats an expire before it as time
     * going backwards; one that does not learns the time from its first expire.
     */
    Object make(TickClock clock, int ticksPerWheel, int slotCapacity, boolean longPayloads, boolean startAtOrigin) {
        if (ticksPerWheel < 1 || ticksPerWheel > (1 << 24) || Integer.bitCount(ticksPerWheel) != 1) {
            throw new IllegalArgumentException("ticksPerWheel must be a power of 2 in [1, 2^24]: " + ticksPerWheel);
        }
        if (slotCapacity < 1 || slotCapacity > (1 << 20)) {
            throw new IllegalArgumentException("slotCapacity must be in [1, 2^20]: " + slotCapacity);
        }
        switch (this) {
            case RB_TREE:
                return new RbTreeTimer<>(longPayloads);
            case WHEEL_LIST:
                return new WheelListTimer<>(clock, ticksPerWheel, longPayloads, startAtOrigin);
            case WHEEL_RING:
                return new WheelRingTimer<>(clock, ticksPerWheel, slotCapacity, longPayloads, startAtOrigin);
            case WHEEL_LINKED_ARRAY:
                return new WheelLinkedArrayTimer<>(clock, ticksPerWheel, slotCapacity, longPayloads, startAtOrigin);
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
     * @throws IllegalArgumentException listing the valid names if none matches (null included)
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

    /** The valid names as the documentation spells them ({@code wheel-ring}), comma separated (for help texts). */
    public static String names() {
        return Arrays.stream(values())
                .map(k -> k.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                .collect(Collectors.joining(", "));
    }
}
