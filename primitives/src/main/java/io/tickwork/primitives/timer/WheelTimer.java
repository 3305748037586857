package io.tickwork.primitives.timer;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * What the three wheels share: the clock arithmetic, the slot bitmap, the entry pool and handles,
 * the overflow heap for far deadlines, and the expiry loop. Subclasses only say how a slot stores
 * its timers ({@link #add}, {@link #remove}, {@link #drain}).
 *
 * <p><b>Algorithm</b> (Varghese &amp; Lauck, "Hashed and Hierarchical Timing Wheels", SOSP 1987,
 * scheme 4 with an overflow heap instead of rounds): a deadline {@code d} belongs to tick
 * {@code k = ceil(d / tickDuration)}, which fires once {@code now >= k * tickDuration}, so a timer is
 * never early and less than one tick late. The wheel holds the {@code ticksPerWheel} ticks starting
 * at {@link #cursor}; tick {@code k} lives in slot {@code k & (ticksPerWheel - 1)}, and since the
 * window is exactly one revolution a slot only ever holds one tick: expiry never looks at a
 * deadline, it hands out whole slots. Deadlines beyond the window wait in a {@link TickHeap} and
 * move into their slot when the cursor comes within a revolution of them.
 *
 * <p><b>Why a bitmap:</b> one bit per slot says "non-empty", so expiry and {@link #nextDeadline}
 * jump over empty ticks 64 at a time ({@code numberOfTrailingZeros}) instead of visiting each;
 * a call that advances by a million ticks over a sparse wheel costs {@code ticksPerWheel / 64} word
 * reads, not a million.
 *
 * <p><b>Why an entry pool and generation handles:</b> entries are ints into parallel arrays
 * (payload, generation, location) reused through a free stack, so the steady state allocates
 * nothing and a handle ({@code generation << 32 | id + 1}) stays valid wherever the entry moves
 * (heap to slot, deferred to slot). Freeing bumps the generation, so a stale handle, or a stale
 * copy of a handle left in a ring as a tombstone, no longer matches. A handle is only reused if one
 * id is recycled 2^32 times, which at 10^8 schedules per second on that one id takes a month.
 *
 * <p><b>Thread safety:</b> none.
 */
abstract class WheelTimer<T> implements TimerQueue<T> {

    /** {@link #where} for an entry waiting in the overflow heap. */
    static final int IN_HEAP = -1;
    /** {@link #where} for an entry scheduled from a consumer, placed when expire returns. */
    static final int DEFERRED = -2;

    final long tickDuration;
    /** {@code log2(tickDuration)} when it is a power of 2 (shift instead of divide), else -1. */
    private final int tickShift;

    final int ticksPerWheel;
    final int wheelMask;
    /** Largest tick whose start time fits in a long; later ticks report {@code Long.MAX_VALUE}. */
    private final long lastTimeTick;

    private final long firstTimeTick;

    /** Bit {@code s} set: slot {@code s} may hold entries (possibly only tombstones). */
    private final long[] occupied;

    private final int wordMask;

    /**
     * The earliest tick still to process; the wheel holds ticks {@code [cursor, cursor + ticksPerWheel)}.
     * Starts at the earliest tick so that nothing ever counts as "in the past" before the first
     * expire tells us what time it is.
     */
    long cursor = Long.MIN_VALUE;

    int size;

    // entry pool, indexed by id
    Object[] payload;
    int[] gen;
    /** Slot index, {@link #IN_HEAP} or {@link #DEFERRED}. */
    int[] where;

    private int[] freeIds;
    private int freeTop;
    private int highWater;

    private final TickHeap heap;

    /**
     * Live (not cancelled, not fired) entries per slot, so a slot that keeps tombstones (ring and
     * linked-array cancel only marks) knows when it is mostly dead and worth compacting.
     */
    final int[] slotLive;

    private boolean expiring;
    private long expiringNowTick;
    private long[] deferredHandles = new long[8];
    private long[] deferredTicks = new long[8];
    private int deferredCount;

    WheelTimer(long tickDuration, int ticksPerWheel) {
        this.tickDuration = tickDuration;
        this.tickShift = Long.bitCount(tickDuration) == 1 ? Long.numberOfTrailingZeros(tickDuration) : -1;
        this.ticksPerWheel = ticksPerWheel;
        this.wheelMask = ticksPerWheel - 1;
        this.lastTimeTick = Long.MAX_VALUE / tickDuration;
        this.firstTimeTick = Long.MIN_VALUE / tickDuration;
        int words = Math.max(1, ticksPerWheel >>> 6);
        this.occupied = new long[words];
        this.wordMask = words - 1;
        int cap = 64;
        payload = new Object[cap];
        gen = new int[cap];
        where = new int[cap];
        freeIds = new int[cap];
        heap = new TickHeap(cap);
        slotLive = new int[ticksPerWheel];
    }

    // ---- what a slot is, per subclass ----

    /** Stores a live entry in {@code slot}; must mark the slot occupied. */
    abstract void add(int slot, int id, long handle);

    /**
     * A live entry in {@code slot} was cancelled: it has been freed already (its generation moved on,
     * so it counts as a tombstone) and {@link #slotLive} no longer counts it.
     */
    abstract void remove(int slot, int id, long handle);

    /**
     * Hands out every live entry of {@code slot} through {@link #take} and clears the slot's bit.
     * Nothing is added to this slot while it drains (see {@link #schedule}). If the consumer throws,
     * the entries not yet handed out must stay in the slot, bit set.
     */
    abstract int drain(int slot, Consumer<? super T> consumer);

    /** The pool grew to {@code capacity} ids. */
    void grow(int capacity) {}

    // ---- bitmap ----

    final void setOccupied(int slot) {
        occupied[slot >>> 6] |= 1L << slot;
    }

    final void clearOccupied(int slot) {
        occupied[slot >>> 6] &= ~(1L << slot);
    }

    /** Distance in slots from {@code from} to the next occupied slot, wrapping; -1 if none. */
    private int nextOccupied(int from) {
        long[] occ = occupied;
        int w = from >>> 6;
        long word = occ[w] & (-1L << from);
        if (word != 0) {
            return ((w << 6) | Long.numberOfTrailingZeros(word)) - from;
        }
        for (int i = 1; i <= wordMask; i++) {
            int wi = (w + i) & wordMask;
            word = occ[wi];
            if (word != 0) {
                return (((wi << 6) | Long.numberOfTrailingZeros(word)) - from) & wheelMask;
            }
        }
        word = occ[w] & ~(-1L << from);
        if (word != 0) {
            return (((w << 6) | Long.numberOfTrailingZeros(word)) - from) & wheelMask;
        }
        return -1;
    }

    // ---- clock ----

    /** The tick a deadline belongs to: rounded up, so the timer never fires early. */
    final long ceilTick(long deadline) {
        if (tickShift >= 0) {
            return (deadline >> tickShift) + ((deadline & (tickDuration - 1)) != 0 ? 1 : 0);
        }
        long q = Math.floorDiv(deadline, tickDuration);
        return q * tickDuration == deadline ? q : q + 1;
    }

    /**
     * The last tick due at {@code now}. {@code now == Long.MAX_VALUE} makes every tick due, so that
     * a deadline near {@code Long.MAX_VALUE}, whose tick starts past it, still fires.
     */
    private long nowTick(long now) {
        if (now == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return tickShift >= 0 ? now >> tickShift : Math.floorDiv(now, tickDuration);
    }

    private long tickTime(long tick) {
        if (tick >= lastTimeTick) {
            return tick == lastTimeTick ? tick * tickDuration : Long.MAX_VALUE;
        }
        return tick < firstTimeTick ? Long.MIN_VALUE : tick * tickDuration;
    }

    // ---- pool ----

    private int allocate() {
        if (freeTop > 0) {
            return freeIds[--freeTop];
        }
        if (highWater == payload.length) {
            int cap = payload.length * 2;
            payload = Arrays.copyOf(payload, cap);
            gen = Arrays.copyOf(gen, cap);
            where = Arrays.copyOf(where, cap);
            freeIds = Arrays.copyOf(freeIds, cap);
            heap.ensureIdCapacity(cap);
            grow(cap);
        }
        return highWater++;
    }

    private void free(int id) {
        payload[id] = null;
        gen[id]++;
        freeIds[freeTop++] = id;
        size--;
    }

    /** Frees a live entry of {@code slot} and returns its payload, for {@link #drain}. */
    @SuppressWarnings("unchecked")
    final T take(int slot, int id) {
        T p = (T) payload[id];
        free(id);
        slotLive[slot]--;
        return p;
    }

    /**
     * For {@link #drain}: hands the timer that a handle read back from {@code slot} names to
     * {@code consumer} if it is still live, and skips a tombstone (cancelled, or its id re-used).
     * The entry is freed before the consumer runs, so the consumer may schedule and cancel.
     *
     * @return 1 if a timer was handed out, 0 for a tombstone
     */
    final int fire(long handle, int slot, Consumer<? super T> consumer) {
        if (!live(handle)) {
            return 0;
        }
        consumer.accept(take(slot, (int) handle - 1));
        return 1;
    }

    /** Whether a handle read back from a slot is still live (not a tombstone). */
    final boolean live(long handle) {
        return gen[(int) handle - 1] == (int) (handle >>> 32);
    }

    /**
     * Whether a slot storing {@code stored} entries, tombstones included, should be compacted: when
     * more than half are dead (plus slack, so small slots are left alone). Compacting then costs
     * O(stored) once per ~stored/2 cancels, O(1) amortised, and bounds a slot's memory to about
     * twice its live entries even if the clock never reaches it (idle timeouts re-armed forever).
     */
    final boolean worthCompacting(int slot, int stored) {
        return stored > 2 * slotLive[slot] + 32;
    }

    final long handle(int id) {
        return ((long) gen[id] << 32) | (id + 1);
    }

    // ---- TimerQueue ----

    @Override
    public final long schedule(long deadline, T payload) {
        if (payload == null) {
            throw new NullPointerException("payload");
        }
        int id = allocate();
        this.payload[id] = payload;
        long handle = handle(id);
        size++;
        long tick = ceilTick(deadline);
        if (expiring && tick <= expiringNowTick) {
            // due already: the running expire must not hand it out (a timer rescheduling itself at
            // "now" would loop), and no slot at or before expiringNowTick may be written while the
            // scan is in progress, so it waits until expire returns
            defer(id, handle, tick);
        } else {
            place(id, handle, tick);
        }
        return handle;
    }

    private void place(int id, long handle, long tick) {
        long c = cursor;
        if (tick < c) {
            tick = c;
        }
        if (Long.compareUnsigned(tick - c, ticksPerWheel) < 0) {
            int slot = (int) tick & wheelMask;
            where[id] = slot;
            slotLive[slot]++;
            add(slot, id, handle);
        } else {
            where[id] = IN_HEAP;
            heap.push(id, tick);
        }
    }

    private void defer(int id, long handle, long tick) {
        if (deferredCount == deferredHandles.length) {
            deferredHandles = Arrays.copyOf(deferredHandles, deferredCount * 2);
            deferredTicks = Arrays.copyOf(deferredTicks, deferredCount * 2);
        }
        deferredHandles[deferredCount] = handle;
        deferredTicks[deferredCount++] = tick;
        where[id] = DEFERRED;
    }

    private void flushDeferred() {
        for (int i = 0; i < deferredCount; i++) {
            long h = deferredHandles[i];
            int id = (int) h - 1;
            if (gen[id] == (int) (h >>> 32) && payload[id] != null) {
                place(id, h, deferredTicks[i]);
            }
        }
        deferredCount = 0;
    }

    @Override
    public final boolean cancel(long handle) {
        int id = (int) handle - 1;
        if (id < 0 || id >= highWater || gen[id] != (int) (handle >>> 32) || payload[id] == null) {
            return false;
        }
        int w = where[id];
        if (w == IN_HEAP) {
            heap.remove(id);
        }
        // DEFERRED: flushDeferred skips it, its generation no longer matches
        free(id);
        if (w >= 0) {
            slotLive[w]--;
            remove(w, id, handle);
        }
        return true;
    }

    @Override
    public final int expire(long now, Consumer<? super T> consumer) {
        if (expiring) {
            throw new IllegalStateException("expire called from its own consumer");
        }
        long nowTick = nowTick(now);
        long t = cursor;
        if (nowTick < t) {
            return 0; // time went backwards: everything due then has been handed out already
        }
        if (size == 0) {
            cursor = nowTick;
            return 0;
        }
        expiring = true;
        expiringNowTick = nowTick;
        int fired = 0;
        try {
            while (true) {
                if (heap.size() != 0 && Long.compareUnsigned(heap.minTick() - t, ticksPerWheel) < 0) {
                    migrate(t);
                }
                int d = nextOccupied((int) t & wheelMask);
                if (d >= 0 && Long.compareUnsigned(d, nowTick - t) <= 0) {
                    t += d;
                    // set before draining: if the consumer throws, the next call resumes at this tick
                    cursor = t;
                    fired += drain((int) t & wheelMask, consumer);
                    continue;
                }
                // the wheel holds nothing due; far timers may be, after a long jump of the clock
                if (heap.size() == 0 || heap.minTick() > nowTick) {
                    break;
                }
                t = heap.minTick();
                cursor = t;
            }
            cursor = nowTick;
        } finally {
            expiring = false;
            if (deferredCount != 0) {
                flushDeferred();
            }
        }
        return fired;
    }

    /** Moves far timers that are now within one revolution of {@code t} into their slots. */
    private void migrate(long t) {
        TickHeap h = heap;
        while (h.size() != 0) {
            long tick = h.minTick();
            if (Long.compareUnsigned(tick - t, ticksPerWheel) >= 0) {
                return;
            }
            int id = h.pop();
            int slot = (int) tick & wheelMask;
            where[id] = slot;
            slotLive[slot]++;
            add(slot, id, handle(id));
        }
    }

    /**
     * The start of the earliest tick that holds a timer, which is when {@link #expire} will hand it
     * out (at most one tick after its deadline). May be earlier than that if the slot only holds
     * cancelled entries; O(ticksPerWheel / 64).
     */
    @Override
    public final long nextDeadline() {
        if (size == 0) {
            return NO_DEADLINE;
        }
        if (deferredCount != 0) {
            return tickTime(cursor);
        }
        long best = Long.MAX_VALUE;
        boolean found = false;
        int d = nextOccupied((int) cursor & wheelMask);
        if (d >= 0) {
            best = cursor + d;
            found = true;
        }
        if (heap.size() != 0 && (!found || heap.minTick() < best)) {
            best = heap.minTick();
        }
        return tickTime(best);
    }

    @Override
    public final int size() {
        return size;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[size=" + size + ", tickDuration=" + tickDuration + ", ticksPerWheel="
                + ticksPerWheel + ", far=" + heap.size() + "]";
    }
}
