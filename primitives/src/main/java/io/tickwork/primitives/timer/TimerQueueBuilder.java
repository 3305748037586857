package io.tickwork.primitives.timer;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Options of a timer queue on the owner's clock; from {@link TimerQueue#builder(TimeUnit, long)}.
 * Every option has a default; a builder may build several queues. A null unit, kind, tick or span
 * throws {@link NullPointerException}. Not thread safe.
 *
 * <ul>
 *   <li>{@link #kind}: default {@link TimerKind#WHEEL_LIST}.</li>
 *   <li>{@link #tick}: the wheel's resolution, a whole number of clock units; default 1 ms (one
 *       unit if the clock's unit is coarser). A tick that is a power of two in the clock's unit
 *       costs a shift per conversion, any other a multiplication by a reciprocal (no division;
 *       a time before the origin takes one floor division).</li>
 *   <li>{@link #span}: how far ahead the wheel reaches before deadlines wait in its overflow heap;
 *       default 64 s, or 65,536 ticks where that is longer (a tick coarser than a millisecond:
 *       a wheel of seconds reaches 18 hours, not 64 ticks). The wheel gets the power of two of
 *       ticks at or above {@code span / tick} (65,536 by default), at most 2^24: {@code build}
 *       throws {@link IllegalArgumentException} beyond that, so a tick finer than about 3.8 µs
 *       needs a span shorter than the default 64 s.</li>
 *   <li>{@link #slotCapacity}: the ring or chunk size per slot, in timers; default
 *       {@value TimerKind#DEFAULT_SLOT_CAPACITY}.</li>
 * </ul>
 *
 * <p>The wheel starts at the origin: a timer is due from there on, and an {@code expire} with
 * {@code now} before the origin hands out nothing (time before the clock started). A deadline
 * before the origin fires on the first {@code expire} at or after it.
 * {@link TimerKind#RB_TREE} is exact and has no wheel: it uses none of tick, span, slot capacity
 * and origin, and fires any deadline at {@code now >= deadline}.
 *
 * <p>Memory of a wheel before any timer, per tick: a bit, plus two {@code int} links
 * ({@link TimerKind#WHEEL_LIST}: 8 bytes), an {@code int} and two references
 * ({@link TimerKind#WHEEL_RING}: 12 bytes; a slot holding timers has a ring of
 * {@code 8 * slotCapacity} bytes, rounded up to a power of two, given back once the slot holds
 * no pending timer, so rings follow the slots holding timers at once, not the ticks visited), or
 * an {@code int}, a reference and an empty {@code LinkedArrayList}, which every slot gets up front
 * ({@link TimerKind#WHEEL_LINKED_ARRAY}: 48 bytes, the list being a 12-byte object header and three
 * references and four {@code int}s, 40 bytes with compressed references). That is about 0.5 MB for
 * 65,536 ticks, 0.75 MB for a ring wheel and 3 MB for a linked-array wheel.
 */
public final class TimerQueueBuilder {
    private final TimeUnit unit;
    private final long origin;
    private TimerKind kind = TimerKind.WHEEL_LIST;
    private Duration tick;
    /** Null: the default, {@link #DEFAULT_SPAN} or {@link #DEFAULT_SPAN_TICKS}, whichever is longer. */
    private Duration span;

    private static final Duration DEFAULT_SPAN = Duration.ofSeconds(64);
    private static final long DEFAULT_SPAN_TICKS = 1 << 16;
    private int slotCapacity = TimerKind.DEFAULT_SLOT_CAPACITY;

    TimerQueueBuilder(TimeUnit unit, long origin) {
        this.unit = Objects.requireNonNull(unit, "unit");
        this.origin = origin;
        this.tick =
                unit.compareTo(TimeUnit.MILLISECONDS) > 0 ? Duration.of(1, unit.toChronoUnit()) : Duration.ofMillis(1);
    }

    /** The kind of queue; default {@link TimerKind#WHEEL_LIST}. */
    public TimerQueueBuilder kind(TimerKind kind) {
        this.kind = Objects.requireNonNull(kind, "kind");
        return this;
    }

    /**
     * The wheel's resolution: timers fire at most this late. A whole number of the clock's units.
     *
     * @throws IllegalArgumentException if it is not positive, not a whole number of units, or more
     *     units than a {@code long} counts
     */
    public TimerQueueBuilder tick(Duration tick) {
        Objects.requireNonNull(tick, "tick");
        long units = unit.convert(tick);
        if (units == Long.MAX_VALUE && !tick.equals(Duration.of(units, unit.toChronoUnit()))) { // convert saturates
            throw new IllegalArgumentException("tick " + tick + " is past the range of a clock in " + unit);
        }
        if (units < 1 || !Duration.of(units, unit.toChronoUnit()).equals(tick)) {
            throw new IllegalArgumentException("tick must be a positive whole number of " + unit + ": " + tick);
        }
        this.tick = tick;
        return this;
    }

    /**
     * How far ahead the wheel reaches; deadlines beyond wait in an overflow heap (O(log n)) until
     * the wheel comes within a revolution of them. Cover the common timeouts.
     *
     * @throws IllegalArgumentException if it is not positive
     */
    public TimerQueueBuilder span(Duration span) {
        Objects.requireNonNull(span, "span");
        if (span.isNegative() || span.isZero()) {
            throw new IllegalArgumentException("span must be positive: " + span);
        }
        this.span = span;
        return this;
    }

    /**
     * Ring capacity ({@link TimerKind#WHEEL_RING}) or chunk size ({@link TimerKind#WHEEL_LINKED_ARRAY})
     * per slot, in timers; default {@value TimerKind#DEFAULT_SLOT_CAPACITY}. {@link TimerKind#WHEEL_LIST}
     * and {@link TimerKind#RB_TREE} have no such slots and ignore the value, but it is checked here
     * whatever the kind, so a bad option fails the same way for every kind.
     *
     * @param timers from 1 to 2^20 (1,048,576)
     * @throws IllegalArgumentException if {@code timers} is outside {@code [1, 2^20]}
     */
    public TimerQueueBuilder slotCapacity(int timers) {
        if (timers < 1 || timers > (1 << 20)) {
            throw new IllegalArgumentException("slotCapacity must be in [1, 2^20]: " + timers);
        }
        this.slotCapacity = timers;
        return this;
    }

    /**
     * A queue with object payloads.
     *
     * @throws IllegalArgumentException if the kind is a wheel and {@code span / tick} needs more
     *     than 2^24 ticks
     */
    @SuppressWarnings("unchecked")
    public <T> TimerQueue<T> build() {
        return (TimerQueue<T>) kind.make(clock(), wheelTicks(), slotCapacity, false, true);
    }

    /**
     * A queue with {@code long} payloads: nothing boxed.
     *
     * @throws IllegalArgumentException if the kind is a wheel and {@code span / tick} needs more
     *     than 2^24 ticks
     */
    public LongTimerQueue buildLong() {
        return (LongTimerQueue) kind.make(clock(), wheelTicks(), slotCapacity, true, true);
    }

    /** {@link #ticksPerWheel()} for a wheel; 1 (unused) for {@link TimerKind#RB_TREE}, whatever the settings. */
    private int wheelTicks() {
        return kind.isWheel() ? ticksPerWheel() : 1;
    }

    private TickClock clock() {
        return new TickClock(origin, unit.convert(tick), unit);
    }

    /** The power of two of ticks at or above {@code span / tick}. */
    int ticksPerWheel() {
        long ticks = spanTicks();
        if (ticks > MAX_TICKS) {
            throw new IllegalArgumentException("span / tick needs more than 2^24 ticks: " + spanText() + " / " + tick
                    + "; use a coarser tick" + (span == null ? " or set a shorter span" : ""));
        }
        return Integer.highestOneBit((int) ticks * 2 - 1);
    }

    private static final long MAX_TICKS = 1 << 24;

    private String spanText() {
        return span != null ? span.toString() : "default (" + DEFAULT_SPAN + " or " + DEFAULT_SPAN_TICKS + " ticks)";
    }

    /** {@code ceil(span / tick)}, exact (the span need not be a whole number of clock units). */
    private long spanTicks() {
        if (span == null) {
            return Math.max(ceilTicks(DEFAULT_SPAN), DEFAULT_SPAN_TICKS);
        }
        return ceilTicks(span);
    }

    private long ceilTicks(Duration span) {
        long q;
        try {
            q = span.dividedBy(tick);
        } catch (ArithmeticException past) {
            return Long.MAX_VALUE; // more ticks than a long counts: far past 2^24
        }
        return q != Long.MAX_VALUE && tick.multipliedBy(q).compareTo(span) < 0 ? q + 1 : q;
    }

    /** The settings, and the wheel they make; never throws (a span too fine for a wheel says so). */
    @Override
    public String toString() {
        long ticks = spanTicks();
        String wheel = !kind.isWheel()
                ? "no wheel"
                : ticks > MAX_TICKS ? "over 2^24 ticks: build() refuses it" : ticksPerWheel() + " ticks";
        return "TimerQueueBuilder[" + kind + ", " + unit + " from " + origin + ", tick " + tick + ", span " + spanText()
                + " (" + wheel + "), slotCapacity " + slotCapacity + "]";
    }
}
