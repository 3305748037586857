package io.tickwork.primitives.timer;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * What the three wheels share: the clock, the slot bitmap, the entry pool and handles, the
 * overflow heap for far deadlines, lazy rescheduling, and the expiry loop. Subclasses only say how
 * a slot stores its entries ({@link #add}, {@link #remove}, {@link #drain}).
 *
 * <p><b>Algorithm</b> (Varghese &amp; Lauck, "Hashed and Hierarchical Timing Wheels", SOSP 1987,
 * scheme 4 with an overflow heap instead of rounds): a deadline belongs to the first tick that
 * starts at or after it ({@link TickClock#ceilTick}), which fires once {@code now} reaches the
 * tick's start, so a timer is never early and less than one tick late. The wheel holds the
 * {@code ticksPerWheel} ticks starting at {@link #cursor}; tick {@code k} lives in slot
 * {@code k & (ticksPerWheel - 1)}, and since the window is exactly one revolution a slot only ever
 * holds one tick. Deadlines beyond the window wait in a {@link TickHeap} and move into their slot
 * when the cursor comes within a revolution of them.
 *
 * <p><b>Rescheduling is lazy.</b> Each entry keeps the tick it is due ({@link #due}), which may be
 * later than the tick of the slot it sits in. Moving a timer later (an idle timeout re-armed on
 * activity, the common case) only writes {@code due}: O(1), one store, nothing moves. When the
 * slot's tick comes, an entry due later is placed again (in its slot, or the heap) instead of
 * firing, so it is never early. Moving a timer earlier than its slot moves it at once. The cost: a
 * timer re-armed k times before it fires or is cancelled is placed at most once per revolution it
 * waits, and {@link #nextDeadline} may answer a tick that holds only postponed timers (earlier,
 * never later, than the true one).
 *
 * <p><b>Why a bitmap:</b> one bit per slot says "non-empty", so expiry and {@link #nextDeadline}
 * jump over empty ticks 64 at a time ({@code numberOfTrailingZeros}) instead of visiting each.
 *
 * <p><b>Entry pool and handles:</b> entries are ints into parallel arrays reused through a free
 * list (threaded through the due ticks of free ids), so the steady state allocates nothing. A
 * handle is {@code generation << 32 | id + 1}; the generation is even while the id holds a timer
 * and odd while it is free (allocating and freeing each bump it), so a stale handle no longer
 * matches and a never-issued one cannot name a free id (until one id is recycled 3 * 2^29 times: a
 * generation runs through [2^30, 2^32) as unsigned, {@link #WRAPPED_GENERATION}). Slots
 * that store copies of entries (the ring and linked-array slots) store a <em>placement</em>
 * {@code token << 32 | id + 1} instead: the token moves on once whenever a cancel or a move takes
 * the entry out of its place, so a copy left behind reads as a tombstone, while the user's handle
 * stays the same across reschedules. The token is 32 bits: a tombstone could pass for live again
 * only if its id were cancelled or moved 2^32 times (by any of the timers that reuse it) while that
 * copy stayed in its slot.
 *
 * <p><b>Payloads:</b> objects ({@link TimerQueue}) or longs ({@link LongTimerQueue}), chosen at
 * construction; only that array exists.
 *
 * <p><b>Thread safety:</b> none.
 */
abstract class WheelTimer<T> implements TimerQueue<T>, LongTimerQueue {

    /** Entry ids; a handle's low half is an id + 1, and the pool's arrays double up to this length. */
    static final int MAX_IDS = 1 << 30;

    /** {@link #MAX_IDS}; lowered only by tests, to reach the limit without gigabytes. */
    int maxIds = MAX_IDS;

    /** {@link #where} for an entry waiting in the overflow heap. */
    static final int IN_HEAP = -1;
    /** {@link #where} for an entry scheduled or rescheduled from a consumer, placed when expire returns. */
    static final int DEFERRED = -2;
    /** {@link #where} for an id cancelled while deferred (a fired or freed id's is stale). */
    static final int FREE = -3;
    /** {@link #where} for a deferred id already kept, only while {@link #makeDeferredRoom} runs. */
    private static final int DEFERRED_KEPT = -4;

    final TickClock clock;
    final int ticksPerWheel;
    final int wheelMask;

    /** Bit {@code s} set: slot {@code s} may hold entries (possibly only tombstones). */
    private final long[] occupied;

    private final int wordMask;

    /**
     * The earliest tick still to process; the wheel holds ticks {@code [cursor, cursor + ticksPerWheel)}.
     * Starts at the clock's origin (tick 0) when the owner gave one, so timers scheduled before the
     * first expire go straight to their slots; else at the earliest tick, so that nothing counts as
     * "in the past" before the first expire tells the time.
     */
    long cursor;

    int size;

    // entry pool, indexed by id
    /** Object payloads, or null in long mode. */
    private Object[] refs;
    /** Long payloads, or null in object mode. */
    private long[] vals;

    /** Generation: even while the id holds a timer, odd while free; bumped at both. */
    private int[] gen;
    /** An id's first generation ({@link #firstGeneration}): this queue's own, even. */
    private final int firstGen = firstGeneration();
    /**
     * Whether slots keep copies of entries (ring and linked-array slots): then entries carry a
     * placement token, and slots count their live entries to know when to compact. A list slot
     * links the entry itself and needs neither.
     */
    private final boolean copies;

    /**
     * Placement token: moves on when a cancel or a move takes the entry out of its place, so the
     * copy left behind is a tombstone; see the class comment. Copies only.
     */
    private int[] token;
    /** Slot index, {@link #IN_HEAP}, {@link #DEFERRED} or {@link #FREE}; meaningful while pending. */
    int[] where;
    /**
     * The tick the entry is due; the slot it sits in may be earlier (lazy rescheduling). A free
     * id's holds the next free id instead (-1: none), so the free list costs no array of its own.
     */
    private long[] due;

    /** The most recently freed id, the head of the free list threaded through {@link #due}; -1 if none. */
    private int freeHead = -1;

    private int highWater;

    private final TickHeap heap;

    /**
     * Live (not cancelled, not fired) entries per slot, so a slot that keeps tombstones (ring and
     * linked-array cancel only marks) knows when it is mostly dead and worth compacting. Copies only.
     */
    final int[] slotLive;

    private boolean expiring;
    /** An {@code expire(Long.MAX_VALUE, ..)} was called: no new timer is accepted (TimerQueue). */
    private boolean ended;

    private long expiringNowTick;
    private int[] deferredIds = new int[8];
    private int deferredCount;
    private Consumer<? super T> objectSink;
    private LongConsumer longSink;

    WheelTimer(TickClock clock, int ticksPerWheel, boolean longPayloads, boolean startAtOrigin, boolean copies) {
        this.clock = clock;
        this.copies = copies;
        this.cursor = startAtOrigin ? 0 : Long.MIN_VALUE;
        this.ticksPerWheel = ticksPerWheel;
        this.wheelMask = ticksPerWheel - 1;
        int words = Math.max(1, ticksPerWheel >>> 6);
        this.occupied = new long[words];
        this.wordMask = words - 1;
        int cap = 64;
        if (longPayloads) {
            vals = new long[cap];
        } else {
            refs = new Object[cap];
        }
        gen = new int[cap];
        token = copies ? new int[cap] : null;
        where = new int[cap];
        due = new long[cap];
        heap = new TickHeap();
        slotLive = copies ? new int[ticksPerWheel] : null;
    }

    // ---- what a slot is, per subclass ----

    /**
     * Stores entry {@code id} in {@code slot} as {@code ref} (its placement; 0 where slots keep no
     * copies); must mark the slot occupied.
     */
    abstract void add(int slot, int id, long ref);

    /**
     * Entry {@code id}, stored in {@code slot} as {@code ref}, left the slot (cancelled, or moved):
     * its token has moved on already, so a copy still in the slot reads as a tombstone, and
     * {@link #slotLive} no longer counts it. Leaves the slot's bit set, even if the slot is now
     * empty ({@link #emptyButMarked}). A copying slot that no longer counts a live entry gives its
     * storage back at once if {@link #mayVacate} (memory follows the timers pending, not the ticks
     * they were cancelled from), tombstones and all.
     */
    abstract void remove(int slot, int id, long ref);

    /**
     * {@code slot}, a copying one, holds no live entry, and the cursor is leaving it with nothing
     * pending anywhere: its tombstones, if any, and its storage go back. Allocates nothing.
     */
    void dropTombstones(int slot) {}

    /**
     * Whether {@code slot}'s storage may be given back now: not while an {@code expire} drains it
     * (from its consumer), since that drain still reads it. The drain takes the tombstones out;
     * a drain cut short (its limit, or its consumer threw) leaves them to the next {@code expire}.
     */
    final boolean mayVacate(int slot) {
        return !expiring || slot != ((int) cursor & wheelMask);
    }

    /**
     * Takes entries out of {@code slot}, whose tick is {@code tick}, visiting the live ones through
     * {@link #visit}, until {@code limit} entries were taken (timers handed out or placed again,
     * and a copying slot's tombstones) or the slot is empty; stores how many it took in
     * {@link #taken}, and leaves the slot's bit to the caller. Nothing is added to this slot while
     * it drains. If the consumer throws, the entries not yet taken must stay in the slot.
     *
     * @return how many timers were handed out
     */
    abstract int drain(int slot, long tick, long limit);

    /** How many entries the last {@link #drain} took out of its slot; set once per call. */
    int taken;

    /**
     * Whether {@code slot}, whose bit is set, holds no entry. Only this class clears bits: neither
     * {@link #remove} nor {@link #drain} does. With about one timer per tick, a cancel and the next
     * schedule would otherwise clear and set a bit of the same word each time; the scan clears the
     * bit after draining the slot, and {@link #nextDeadline} skips and clears such slots.
     */
    abstract boolean emptyButMarked(int slot);

    /**
     * {@code slot} was found empty and its bit cleared: a subclass may give the slot's storage back
     * (nothing is added to it before {@link #add} sets the bit again). Never called for the slot
     * an {@code expire} is draining while its consumer runs: that drain still reads the storage.
     */
    void emptied(int slot) {}

    /**
     * The pool grows to {@code capacity} ids: called before the base class replaces its own arrays.
     * If it throws, its arrays must still serve the old capacity.
     */
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

    /**
     * The last tick due at {@code now}. {@code now == Long.MAX_VALUE} makes every tick due, so that
     * a deadline near {@code Long.MAX_VALUE}, whose tick starts past it, still fires.
     */
    private long nowTick(long now) {
        if (now == Long.MAX_VALUE) {
            ended = true; // the end of time: no real now comes after it (checkNotDrained)
            return Long.MAX_VALUE;
        }
        return clock.floorTick(now);
    }

    /** The tick slot {@code s} holds in the current window. */
    private long slotTick(int s) {
        return cursor + ((s - cursor) & wheelMask);
    }

    // ---- pool ----

    private int allocate() {
        int id = freeHead;
        if (id >= 0) {
            freeHead = (int) due[id];
            if (++gen[id] == 0) { // even again: live; wrapped past 2^32 (as unsigned), back to 2^30
                gen[id] = WRAPPED_GENERATION;
            }
            return id;
        }
        if (highWater == where.length) {
            growPool();
        }
        gen[highWater] = firstGen;
        return highWater++;
    }

    private static final AtomicInteger QUEUES = new AtomicInteger();

    /**
     * Where a generation goes when it passes 2^32 - 1 (read as unsigned): generations stay in
     * [2^30, 2^32), so a handle is never a number in [0, 2^32) however often an id is reused; one
     * whose generation is 2^31 or more is negative. Even, as a live generation must be.
     */
    static final int WRAPPED_GENERATION = 1 << 30;

    /**
     * The generation a queue's ids start at: even, in [2^30, 2^31), and different for each queue:
     * the k-th queue of the JVM takes the top 30 bits of {@code k} times the golden ratio's 64-bit
     * fraction (Fibonacci hashing), so any k queues start more than 2^28 / k apart, up to about
     * 10^8 queues (the three-gap theorem: the closest two of the first k multiples of the golden
     * ratio modulo 1 are about 0.45 / k apart; a 32-bit fraction keeps that only to 75,000). A handle is therefore never a
     * number in [0, 2^32) ({@link #WRAPPED_GENERATION} keeps it so), and one queue's handle can name a timer of another only once one id
     * has been reused at least about 2^27 / k times more in one queue than in the other (twice
     * that on the tree, whose generations move on once per use): a number that is not a handle, or another
     * queue's handle, is refused with {@code false}, not taken for a timer. Read once per queue;
     * costs nothing per timer.
     */
    static int firstGeneration() {
        return firstGeneration(QUEUES.incrementAndGet());
    }

    /** The first generation of the {@code k}-th queue. */
    static int firstGeneration(long k) {
        int spread = (int) ((k * 0x9E3779B97F4A7C15L) >>> 34);
        return (spread & ~1) | 0x4000_0000;
    }

    // out of line, as every rare path of schedule and expire: the JIT inlines a method into its
    // caller only while its compiled code stays small
    private void growPool() {
        if (where.length >= maxIds) {
            throw new IllegalStateException("full: a wheel holds at most " + maxIds + " timers");
        }
        int cap = where.length * 2;
        // every copy before any is kept, where[] (whose length says the pool's size) last: an
        // OutOfMemoryError leaves the pool as it was (a subclass's arrays may be longer, unused)
        grow(cap);
        Object[] r = refs != null ? Arrays.copyOf(refs, cap) : null;
        long[] v = vals != null ? Arrays.copyOf(vals, cap) : null;
        int[] g = Arrays.copyOf(gen, cap);
        int[] tk = copies ? Arrays.copyOf(token, cap) : null;
        long[] d = Arrays.copyOf(due, cap);
        int[] w = Arrays.copyOf(where, cap);
        refs = r;
        vals = v;
        gen = g;
        token = tk;
        due = d;
        where = w;
    }

    private void free(int id) {
        if (refs != null) {
            refs[id] = null;
        }
        gen[id]++; // odd: free, so no handle matches it (issued generations are even)
        // the token stays: a cancel moved it on already, and a timer handed out left no copy
        due[id] = freeHead;
        freeHead = id;
        size--;
    }

    final long handle(int id) {
        return ((long) gen[id] << 32) | (id + 1);
    }

    /** The id a pending timer's handle names, or -1 if the handle is not a pending timer's. */
    private int pendingId(long handle) {
        int id = (int) handle - 1;
        int g = (int) (handle >>> 32);
        if (id < 0 || id >= highWater || (g & 1) != 0 || gen[id] != g) {
            return -1;
        }
        return id;
    }

    /** A copy's reference to entry {@code id} as placed now. */
    final long ref(int id) {
        return ((long) token[id] << 32) | (id + 1);
    }

    /** Whether a copy read back from a slot is the entry's current placement (not a tombstone). */
    final boolean live(long ref) {
        return token[(int) ref - 1] == (int) (ref >>> 32);
    }

    /**
     * For {@link #drain}: entry {@code id}, just taken out of {@code slot} (whose tick is
     * {@code tick}), fires if it is due, else goes to the slot or heap of its due tick.
     *
     * @return 1 if the timer was handed out, 0 if it was placed again
     */
    final int visit(int slot, int id, long tick) {
        long d = due[id];
        if (copies) {
            slotLive[slot]--;
            if (d > tick) {
                token[id]++;
            }
        }
        if (d > tick) {
            try {
                place(id, d);
            } catch (Throwable t) {
                throw dropUnplaced(id, t);
            }
            return 0;
        }
        if (refs != null) {
            @SuppressWarnings("unchecked")
            T p = (T) refs[id];
            free(id);
            objectSink.accept(p);
        } else {
            long v = vals[id];
            free(id);
            longSink.accept(v);
        }
        return 1;
    }

    /**
     * Whether a slot storing {@code stored} entries, tombstones included, should be compacted: when
     * more than half are dead (plus slack, so small slots are left alone). Compacting then costs
     * O(stored) once per ~stored/2 cancels, O(1) amortised, and bounds a slot's memory to about
     * twice its live entries even if the clock never reaches it.
     */
    final boolean worthCompacting(int slot, int stored) {
        return stored > 2 * slotLive[slot] + 32;
    }

    // ---- scheduling ----

    @Override
    public final long schedule(long deadline, T payload) {
        if (payload == null | refs == null) {
            throw badSchedule(payload);
        }
        checkNotDrained();
        int id = allocate(); // may grow refs
        refs[id] = payload;
        return scheduleEntry(id, deadline);
    }

    private RuntimeException badSchedule(T payload) {
        return refs == null
                ? new UnsupportedOperationException("a queue of long payloads")
                : new NullPointerException("payload");
    }

    @Override
    public final long schedule(long deadline, long payload) {
        if (vals == null) {
            throw new UnsupportedOperationException("a queue of object payloads");
        }
        checkNotDrained();
        int id = allocate();
        vals[id] = payload;
        return scheduleEntry(id, deadline);
    }

    /**
     * An {@code expire(Long.MAX_VALUE, ..)} moved the wheel to the last tick, where no real
     * {@code now} follows: a timer scheduled then could fire only at another such call.
     */
    private void checkNotDrained() {
        if (ended && !expiring) {
            throw drainedQueue();
        }
    }

    static IllegalStateException drainedQueue() {
        return new IllegalStateException(
                "the queue was drained by expire(Long.MAX_VALUE): a timer scheduled now would never fire");
    }

    private long scheduleEntry(int id, long deadline) {
        size++;
        long tick = clock.ceilTick(deadline);
        due[id] = tick;
        try {
            if (expiring && tick <= expiringNowTick) {
                // due already: the running expire must not hand it out (a timer rescheduling itself
                // at "now" would loop), and no slot the scan has passed may be written, so it waits
                // until expire returns
                defer(id);
            } else {
                place(id, tick);
            }
        } catch (Throwable t) {
            throw dropUnplaced(id, t); // the handle was never returned: the queue is as it was
        }
        return handle(id);
    }

    /** Puts entry {@code id} in the slot of {@code tick} (at least the cursor's), or the heap. */
    private void place(int id, long tick) {
        long c = cursor;
        if (tick < c) {
            tick = c;
        }
        if (Long.compareUnsigned(tick - c, ticksPerWheel) < 0) {
            int slot = (int) tick & wheelMask;
            where[id] = slot;
            if (copies) {
                add(slot, id, ref(id));
                slotLive[slot]++;
            } else {
                add(slot, id, 0);
            }
        } else {
            placeFar(id, tick);
        }
    }

    private void placeFar(int id, long tick) {
        where[id] = IN_HEAP;
        heap.push(id, tick);
    }

    private void defer(int id) {
        if (deferredCount == deferredIds.length) {
            makeDeferredRoom();
        }
        deferredIds[deferredCount++] = id;
        where[id] = DEFERRED;
    }

    /**
     * The deferred list is full: drops, in place and in order, the entries of timers cancelled
     * since, and the repeats of an id cancelled and deferred again; doubles the list only if more
     * than half of it is left. So a consumer that schedules and cancels in a loop keeps the list
     * as long as twice the timers it holds deferred, not the calls it made, and each entry is
     * copied O(1) times, amortized. An {@link OutOfMemoryError} from the doubling leaves the list
     * compacted and consistent.
     */
    private void makeDeferredRoom() {
        int[] ids = deferredIds;
        int kept = 0;
        for (int i = 0; i < deferredCount; i++) {
            int id = ids[i];
            if (where[id] == DEFERRED) {
                where[id] = DEFERRED_KEPT; // a later repeat of the id is dropped
                ids[kept++] = id;
            }
        }
        for (int i = 0; i < kept; i++) {
            where[ids[i]] = DEFERRED;
        }
        deferredCount = kept;
        if (kept > ids.length / 2) {
            deferredIds = Arrays.copyOf(ids, ids.length * 2);
        }
    }

    private void flushDeferred() {
        Throwable failed = null;
        for (int i = 0; i < deferredCount; i++) {
            int id = deferredIds[i];
            if (where[id] == DEFERRED) { // else cancelled meanwhile (and maybe re-used: then not DEFERRED)
                try {
                    place(id, due[id]);
                } catch (Throwable t) {
                    dropUnplaced(id, t);
                    failed = failed == null ? t : failed; // the others are still placed
                }
            }
        }
        deferredCount = 0;
        if (failed != null) {
            throw sneaky(failed);
        }
    }

    /** For a slot's {@link #add} that its list refused: the caller drops the entry, as on a failed growth. */
    static IllegalStateException slotFull(int slot) {
        return new IllegalStateException("slot " + slot
                + " holds Integer.MAX_VALUE entries (beyond its ring on WHEEL_RING): no timer can be added");
    }

    /**
     * Entry {@code id}, pending but in no slot, heap or deferred list, could not be placed
     * ({@code failure}, an {@link OutOfMemoryError} as a slot or the heap grew): it is dropped, so
     * the queue stays consistent (never counted without being placed). Returns what to rethrow.
     */
    private RuntimeException dropUnplaced(int id, Throwable failure) {
        where[id] = FREE;
        free(id);
        return sneaky(failure);
    }

    /**
     * For a slot's {@link #remove} that compacts: the copy {@code ref}, taken out of {@code slot}
     * and not put back because the slot's storage failed to grow ({@code failure}). If it was live,
     * its timer is dropped, as {@link #dropUnplaced} does. Returns what to rethrow.
     */
    final RuntimeException dropCopy(int slot, long ref, Throwable failure) {
        if (live(ref)) {
            int id = (int) ref - 1;
            slotLive[slot]--;
            where[id] = FREE;
            free(id);
        }
        return sneaky(failure);
    }

    /** Throws {@code t} as it is, checked or not (only unchecked ones reach here). */
    @SuppressWarnings("unchecked")
    private static <X extends Throwable> RuntimeException sneaky(Throwable t) throws X {
        throw (X) t;
    }

    /** Takes entry {@code id} out of wherever it is placed, before a move or a cancel. */
    private void detach(int id) {
        int w = where[id];
        if (w == IN_HEAP) {
            heap.remove(id);
        } else if (w >= 0) {
            if (copies) {
                long ref = ref(id);
                token[id]++;
                slotLive[w]--;
                remove(w, id, ref);
            } else {
                remove(w, id, 0);
            }
        }
        // DEFERRED: flushDeferred checks where[], which the caller changes
    }

    @Override
    public final boolean cancel(long handle) {
        int id = pendingId(handle);
        if (id < 0) {
            return false;
        }
        try {
            detach(id);
        } catch (Throwable t) {
            throw dropUnplaced(id, t); // cancelled all the same
        }
        where[id] = FREE; // a deferred entry's mark for flushDeferred
        free(id);
        return true;
    }

    @Override
    public final boolean reschedule(long handle, long deadline) {
        int id = pendingId(handle);
        if (id < 0) {
            return false;
        }
        long tick = clock.ceilTick(deadline);
        int w = where[id];
        if (w == DEFERRED) {
            due[id] = tick; // placed when expire returns
            return true;
        }
        if (expiring && tick <= expiringNowTick) {
            move(id, tick, true);
            return true;
        }
        if (w >= 0 && tick >= slotTick(w)) {
            due[id] = tick; // lazy: its slot comes first, and places it again then
            return true;
        }
        move(id, tick, false);
        return true;
    }

    /**
     * Moves pending entry {@code id} to {@code tick} at once: into the deferred list if
     * {@code deferred}, else its slot or the heap. Dropped if that fails ({@link #dropUnplaced}).
     */
    private void move(int id, long tick, boolean deferred) {
        try {
            detach(id);
            due[id] = tick;
            if (deferred) {
                defer(id);
            } else {
                place(id, tick);
            }
        } catch (Throwable t) {
            throw dropUnplaced(id, t);
        }
    }

    // ---- expiry ----

    @Override
    public final int expire(long now, Consumer<? super T> consumer) {
        return expire(now, consumer, Integer.MAX_VALUE);
    }

    @Override
    public final int expire(long now, Consumer<? super T> consumer, int limit) {
        if (refs == null) {
            throw new UnsupportedOperationException("a queue of long payloads");
        }
        Objects.requireNonNull(consumer, "consumer");
        checkExpire(limit); // before the sink is set: a refused nested call must not replace the running one's
        objectSink = consumer;
        return expire(now, limit);
    }

    @Override
    public final int expire(long now, LongConsumer consumer) {
        return expire(now, consumer, Integer.MAX_VALUE);
    }

    @Override
    public final int expire(long now, LongConsumer consumer, int limit) {
        if (vals == null) {
            throw new UnsupportedOperationException("a queue of object payloads");
        }
        Objects.requireNonNull(consumer, "consumer");
        checkExpire(limit);
        longSink = consumer;
        return expire(now, limit);
    }

    private void checkExpire(int limit) {
        if (expiring | limit < 1) {
            throw badExpire(limit);
        }
    }

    private int expire(long now, int limit) {
        long nowTick = nowTick(now);
        long t = cursor;
        if (nowTick < t | size == 0) {
            objectSink = null; // hold no reference to the consumer between calls
            longSink = null;
            if (nowTick >= t) {
                if (copies && nowTick != t) {
                    // an expire that stopped in t's slot (its limit, or its consumer threw) may
                    // have left tombstones there that no later cancel can give back
                    dropTombstones((int) t & wheelMask);
                }
                cursor = nowTick;
            }
            return 0; // time went backwards (everything due then was handed out), or nothing is queued
        }
        expiring = true;
        expiringNowTick = nowTick;
        try {
            return scan(t, nowTick, limit);
        } finally {
            expiring = false;
            objectSink = null;
            longSink = null;
            if (deferredCount != 0) {
                flushDeferred();
            }
        }
    }

    /*
     * expire is split in three small methods (checks, scan, and the rare throw) so that the JIT
     * inlines each into its caller: one method of their combined size is past C2's inlining limit
     * for hot methods, and a call per expire is a fifth of the cost of a loop that fires one timer
     * per tick.
     */

    private RuntimeException badExpire(int limit) {
        return expiring
                ? new IllegalStateException("expire called from its own consumer")
                : new IllegalArgumentException("limit must be >= 1: " + limit);
    }

    /**
     * Hands out what is due from tick {@code t} to {@code nowTick}, taking at most {@code limit}
     * entries out of the slots and the heap: timers handed out, timers placed again (a lazy
     * reschedule, or out of the heap) and tombstones all count, so one call's work is bounded even
     * when a slot holds many timers rescheduled later. Returns how many were handed out.
     */
    private int scan(long t, long nowTick, int limit) {
        int fired = 0;
        // unbounded: a budget no call can spend (a timer may be taken more than once in a call)
        long budget = limit == Integer.MAX_VALUE ? Long.MAX_VALUE : limit;
        while (true) {
            if (heap.size() != 0 && Long.compareUnsigned(heap.minTick() - t, ticksPerWheel) < 0) {
                budget -= migrate(t, budget);
                if (budget == 0) {
                    return fired; // the cursor is at t: the next call migrates the rest first
                }
            }
            int d = nextOccupied((int) t & wheelMask);
            if (d >= 0 && Long.compareUnsigned(d, nowTick - t) <= 0) {
                t += d;
                // set before draining: if the consumer throws or the limit is reached, the next
                // call resumes at this tick
                cursor = t;
                int slot = (int) t & wheelMask;
                fired += drain(slot, t, budget);
                budget -= taken;
                if (emptyButMarked(slot)) {
                    clearOccupied(slot);
                    emptied(slot);
                }
                if (budget == 0) {
                    return fired; // the rest of this tick, and later ones, wait for the next call
                }
                if (t == nowTick) {
                    // the last due tick is done: migrate(t) left only ticks past the wheel's
                    // window in the heap, and a consumer's timers went to later ticks or were
                    // deferred, so nothing else is due (saves a second bitmap scan per call)
                    break;
                }
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
        return fired;
    }

    /**
     * Moves far timers that are now within one revolution of {@code t} into their slots, earliest
     * first, at most {@code budget} of them; returns how many it moved.
     */
    private int migrate(long t, long budget) {
        TickHeap h = heap;
        int moved = 0;
        while (moved < budget && h.size() != 0) {
            long tick = h.minTick();
            if (Long.compareUnsigned(tick - t, ticksPerWheel) >= 0) {
                break;
            }
            moved++;
            int id = h.pop();
            int slot = (int) tick & wheelMask;
            where[id] = slot;
            try {
                if (copies) {
                    add(slot, id, ref(id));
                    slotLive[slot]++;
                } else {
                    add(slot, id, 0);
                }
            } catch (Throwable failure) {
                throw dropUnplaced(id, failure);
            }
        }
        return moved;
    }

    /**
     * The start of the earliest tick that holds a timer, which is when {@link #expire} will hand it
     * out (at most one tick after its deadline). May be earlier than that if the slot holds timers
     * rescheduled later, or is the slot an expire drains (asked from its consumer) or left partly
     * drained (stopped at its limit, or its consumer threw); O(ticksPerWheel / 64).
     */
    @Override
    public final long nextDeadline() {
        if (size == 0) {
            return TimerQueue.NO_DEADLINE;
        }
        if (deferredCount != 0) {
            return clock.startOf(cursor);
        }
        long best = Long.MAX_VALUE;
        boolean found = false;
        int from = (int) cursor & wheelMask;
        int d = nextOccupied(from);
        while (d >= 0) {
            int slot = (from + d) & wheelMask;
            if (!emptyButMarked(slot)) {
                break;
            }
            clearOccupied(slot);
            if (!expiring || slot != ((int) cursor & wheelMask)) {
                emptied(slot); // not the slot a running expire drains (from its consumer): that drain still reads it
            }
            // no bit is set between from and slot, so the next one is within a revolution of from:
            // each emptied slot is passed once
            int e = nextOccupied(slot);
            d = e < 0 ? -1 : d + e;
        }
        if (d >= 0) {
            best = cursor + d;
            found = true;
        }
        if (heap.size() != 0 && (!found || heap.minTick() < best)) {
            best = heap.minTick();
        }
        return best == Long.MAX_VALUE ? TimerQueue.NO_DEADLINE : clock.startOf(best);
    }

    @Override
    public final int size() {
        return size;
    }

    @Override
    public final boolean isEmpty() {
        return size == 0;
    }

    /** The {@link TimerKind} this wheel is, for {@link #toString}. */
    abstract TimerKind kind();

    @Override
    public String toString() {
        return kind() + "[size=" + size + ", tick=" + clock.tickText() + ", ticksPerWheel=" + ticksPerWheel + ", far="
                + heap.size() + "]";
    }
}
