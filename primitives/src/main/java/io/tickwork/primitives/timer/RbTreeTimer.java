package io.tickwork.primitives.timer;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * A red-black tree of timers keyed by exact deadline ({@link TimerKind#RB_TREE}): no tick rounding,
 * no span to size, deadlines handed out in exact order (equal deadlines in scheduling order).
 *
 * <p><b>Algorithm:</b> the red-black tree of Cormen, Leiserson, Rivest &amp; Stein ("Introduction
 * to Algorithms", ch. 13; Guibas &amp; Sedgewick 1978), with a sentinel {@code NIL} node and a
 * pointer to the leftmost node, so the next deadline and each expiry start at the minimum without a
 * descent. A tree node holds one <em>distinct</em> deadline and a FIFO list of the timers due then.
 * Why: run loops schedule on a coarse clock (milliseconds, or ticks of a virtual one), so many
 * timers share a deadline; with 200,000 timers over 1,000 distinct deadlines the tree has 1,000
 * nodes that stay in cache, and a schedule is a short descent plus a list append instead of an
 * 18-level descent with a cache miss per level. With all-distinct deadlines it degrades to a plain
 * red-black tree plus one list hop.
 *
 * <p><b>Layout:</b> nothing is an object. A tree node is a 64-byte record in one {@code long[]}
 * (deadline, left, right, parent and colour, list head and tail), so a descent step reads one cache
 * line; timers are ints into parallel arrays (list links, owning node, payload, generation). Both
 * are reused through free stacks: no allocation once the arrays have grown to the peak.
 *
 * <p><b>Cost:</b> schedule O(log d) for d distinct pending deadlines (O(1) rebalancing amortised);
 * cancel O(1), or O(log d) when it empties its node; reschedule a cancel plus a schedule; expire O(1) per timer plus O(log d) per
 * distinct deadline handed out; {@link #nextDeadline} O(1). Handles are
 * {@code generation << 32 | timer}; see {@link WheelTimer} for why generations make stale handles
 * harmless.
 *
 * <p><b>Thread safety:</b> none; one thread owns the queue.
 */
final class RbTreeTimer<T> implements TimerQueue<T>, LongTimerQueue {

    private static final int NIL = 0;

    /** Record layout in {@link #nodes}: node {@code x} starts at {@code x << 3}. */
    private static final int KEY = 0;

    private static final int LEFT = 1;
    private static final int RIGHT = 2;
    /** Parent index in the low 32 bits, colour in bit 32. */
    private static final int PARENT = 3;
    /** First and last timer of the node's FIFO. */
    private static final int HEAD = 4;

    private static final int TAIL = 5;
    private static final long RED = 1L << 32;

    /** Tree node records; node 0 is NIL (black; its parent is scratch space for delete). */
    private long[] nodes;

    private int[] freeNodes;
    private int freeNodeTop;
    private int nodeHighWater = 1;

    /**
     * Timer records, timer {@code e >= 1} at {@code e << 2} (0 is NIL as a list link): deadline,
     * next and previous timer of its node's FIFO, and generation (high 32 bits) with owning node
     * (low 32 bits; NIL while deferred). One record so expiring a timer touches one line here and
     * one in the payload array, not one per field. A free timer's owner is {@link #FREE}.
     */
    private long[] timers;

    private static final int T_DEADLINE = 0;
    private static final int T_NEXT = 1;
    private static final int T_PREV = 2;
    private static final int T_META = 3;
    private static final long OWNER_MASK = 0xFFFF_FFFFL;
    /** The owner of a free timer record. */
    private static final int FREE = -1;
    /** Object payloads, or null in long mode. */
    private Object[] refs;
    /** Long payloads, or null in object mode. */
    private long[] vals;

    private int[] freeIds;
    private int freeTop;
    private int highWater = 1;
    /** A timer's first generation: this queue's own, {@link WheelTimer#firstGeneration}. */
    private final int firstGen = WheelTimer.firstGeneration();

    private int root = NIL;
    private int first = NIL;
    private int size;

    private boolean expiring;
    private long expiringNow;
    /** An {@code expire(Long.MAX_VALUE, ..)} was called: no new timer is accepted (TimerQueue). */
    private boolean drained;

    private long[] deferred = new long[8];
    private int deferredCount;
    /** Deferred timers still pending (not cancelled since): the nodes the flush may need. */
    private int deferredLive;

    /**
     * Timer ids (id 0 is NIL). Bounds the nodes too, since a node holds at least one timer: with
     * the sentinel and a spare, just past 2^27 nodes of 8 longs, within {@link #MAX_NODES}.
     */
    static final int MAX_IDS = 1 << 27;

    /** {@link #MAX_IDS}; lowered only by tests, to reach the limit without gigabytes. */
    int maxIds = MAX_IDS;

    RbTreeTimer(boolean longPayloads) {
        int cap = 64;
        nodes = new long[cap << 3];
        freeNodes = new int[cap];
        timers = new long[cap << 2];
        if (longPayloads) {
            vals = new long[cap];
        } else {
            refs = new Object[cap];
        }
        freeIds = new int[cap];
    }

    // ---- record access ----

    private long key(int x) {
        return nodes[(x << 3) + KEY];
    }

    private int left(int x) {
        return (int) nodes[(x << 3) + LEFT];
    }

    private int right(int x) {
        return (int) nodes[(x << 3) + RIGHT];
    }

    private int parent(int x) {
        return (int) nodes[(x << 3) + PARENT];
    }

    private boolean isRed(int x) {
        return (nodes[(x << 3) + PARENT] & RED) != 0;
    }

    /** The child of {@code x} on {@code side} ({@link #LEFT} or {@link #RIGHT}). */
    private int child(int x, int side) {
        return (int) nodes[(x << 3) + side];
    }

    private void setChild(int x, int side, int v) {
        nodes[(x << 3) + side] = v;
    }

    private void setParent(int x, int p) {
        int i = (x << 3) + PARENT;
        nodes[i] = (nodes[i] & RED) | p;
    }

    private void setRed(int x, boolean red) {
        int i = (x << 3) + PARENT;
        nodes[i] = red ? nodes[i] | RED : nodes[i] & ~RED;
    }

    private int owner(int e) {
        return (int) timers[(e << 2) + T_META];
    }

    private void setOwner(int e, int z) {
        int i = (e << 2) + T_META;
        timers[i] = (timers[i] & ~OWNER_MASK) | z;
    }

    private int gen(int e) {
        return (int) (timers[(e << 2) + T_META] >>> 32);
    }

    private int next(int e) {
        return (int) timers[(e << 2) + T_NEXT];
    }

    // ---- pools ----

    private int allocateTimer() {
        if (freeTop > 0) {
            return freeIds[--freeTop];
        }
        if (highWater == freeIds.length) {
            if (freeIds.length >= maxIds) {
                throw new IllegalStateException("full: an RB_TREE queue holds at most " + (maxIds - 1) + " timers");
            }
            int cap = freeIds.length * 2;
            timers = Arrays.copyOf(timers, cap << 2);
            if (refs != null) {
                refs = Arrays.copyOf(refs, cap);
            } else {
                vals = Arrays.copyOf(vals, cap);
            }
            freeIds = Arrays.copyOf(freeIds, cap);
        }
        timers[(highWater << 2) + T_META] = (long) firstGen << 32; // see WheelTimer.firstGeneration
        return highWater++;
    }

    private void freeTimer(int e) {
        if (refs != null) {
            refs[e] = null;
        }
        int i = (e << 2) + T_META;
        long meta = ((timers[i] & ~OWNER_MASK) + (1L << 32)) | (FREE & OWNER_MASK); // generation++
        if ((meta >>> 32) == 0) { // wrapped past 2^32 - 1: back to 2^30 (WheelTimer.WRAPPED_GENERATION)
            meta |= (long) WheelTimer.WRAPPED_GENERATION << 32;
        }
        timers[i] = meta;
        freeIds[freeTop++] = e;
        size--;
    }

    /** The timer a handle names if it is pending, else 0 (NIL). */
    private int pending(long handle) {
        int e = (int) handle;
        if (e < 1 || e >= highWater || gen(e) != (int) (handle >>> 32) || owner(e) == FREE) {
            return NIL;
        }
        return e;
    }

    /**
     * Makes room, before {@code schedule} or {@code reschedule} changes anything, for what placing
     * one timer may take: a node, and inside {@code expire} a deferred entry plus a node for each
     * deferred timer still pending when expire returns. So an {@link OutOfMemoryError} from
     * placing comes before anything changed, and the flush of deferred timers never grows.
     */
    private void reserve() {
        int need = expiring ? deferredLive + 1 : 1;
        if (freeNodeTop + (freeNodes.length - nodeHighWater) < need) {
            growNodes(need);
        }
        if (expiring && deferredCount == deferred.length) {
            dropCancelledDeferred();
            if (deferredCount > deferred.length / 2) {
                deferred = Arrays.copyOf(deferred, deferred.length * 2);
            }
        }
    }

    /**
     * Drops, in place and in order, the deferred entries of timers cancelled since (their
     * generation moved on), so a consumer that schedules and cancels in a loop keeps the list as
     * long as twice the timers it holds deferred, not the calls it made; with the doubling only
     * past half full, each entry is copied O(1) times, amortized.
     */
    private void dropCancelledDeferred() {
        long[] d = deferred;
        int kept = 0;
        for (int i = 0; i < deferredCount; i++) {
            long h = d[i];
            int e = (int) h;
            if (deferredAt(e, h, i)) {
                timers[(e << 2) + T_NEXT] = kept;
                d[kept++] = h;
            }
        }
        deferredCount = kept;
    }

    private void growNodes(int need) {
        int cap = grownNodeCapacity(freeNodes.length, nodeHighWater - freeNodeTop + need);
        long[] n = Arrays.copyOf(nodes, cap << 3);
        int[] f = Arrays.copyOf(freeNodes, cap);
        nodes = n;
        freeNodes = f;
    }

    /**
     * The most nodes: 8 longs each in one array, which a JVM allocates up to
     * {@code Integer.MAX_VALUE - 8} elements. Past {@link #MAX_IDS} timers plus the sentinel and
     * the spare, so never the limit a full queue meets first.
     */
    static final int MAX_NODES = (Integer.MAX_VALUE - 8) >> 3;

    /**
     * The node capacity after growing from {@code cap} to hold {@code used} nodes: doubled until
     * it does, at most {@link #MAX_NODES} (doubling 2^27 would ask for 2^31 longs).
     */
    static int grownNodeCapacity(int cap, int used) {
        long c = cap;
        while (c < used) {
            c *= 2;
        }
        return (int) Math.min(c, MAX_NODES);
    }

    /** A node for deadline {@code k}; there is room ({@link #reserve}). */
    private int allocateNode(long k) {
        int z = freeNodeTop > 0 ? freeNodes[--freeNodeTop] : nodeHighWater++;
        nodes[(z << 3) + KEY] = k;
        return z;
    }

    private void freeNode(int z) {
        freeNodes[freeNodeTop++] = z;
    }

    // ---- a node's FIFO of timers ----

    private void append(int z, int e) {
        int b = z << 3;
        int t = (int) nodes[b + TAIL];
        long[] tr = timers;
        int r = e << 2;
        tr[r + T_META] = (tr[r + T_META] & ~OWNER_MASK) | z;
        tr[r + T_NEXT] = NIL;
        tr[r + T_PREV] = t;
        if (t == NIL) {
            nodes[b + HEAD] = e;
        } else {
            tr[(t << 2) + T_NEXT] = e;
        }
        nodes[b + TAIL] = e;
    }

    /** Unlinks timer {@code e} from its node; if that empties the node, the node leaves the tree. */
    private void unlink(int e) {
        long[] tr = timers;
        int r = e << 2;
        int z = (int) tr[r + T_META];
        int b = z << 3;
        int n = (int) tr[r + T_NEXT];
        int p = (int) tr[r + T_PREV];
        if (p == NIL) {
            nodes[b + HEAD] = n;
        } else {
            tr[(p << 2) + T_NEXT] = n;
        }
        if (n == NIL) {
            nodes[b + TAIL] = p;
        } else {
            tr[(n << 2) + T_PREV] = p;
        }
        if (nodes[b + HEAD] == NIL) {
            if (z == first) {
                first = successorOfFirst(z);
            }
            delete(z);
            freeNode(z);
        }
    }

    // ---- TimerQueue ----

    @Override
    public long schedule(long deadline, T payload) {
        if (refs == null) {
            throw new UnsupportedOperationException("a queue of long payloads");
        }
        if (payload == null) {
            throw new NullPointerException("payload");
        }
        checkNotDrained();
        reserve();
        int e = allocateTimer();
        refs[e] = payload;
        return scheduleTimer(e, deadline);
    }

    @Override
    public long schedule(long deadline, long payload) {
        if (vals == null) {
            throw new UnsupportedOperationException("a queue of object payloads");
        }
        checkNotDrained();
        reserve();
        int e = allocateTimer();
        vals[e] = payload;
        return scheduleTimer(e, deadline);
    }

    private void checkNotDrained() {
        if (drained && !expiring) {
            throw WheelTimer.drainedQueue();
        }
    }

    private long scheduleTimer(int e, long deadline) {
        timers[(e << 2) + T_DEADLINE] = deadline;
        size++;
        long handle = ((long) gen(e) << 32) | e;
        place(e, handle, deadline);
        return handle;
    }

    /** Inserts timer {@code e} at {@code deadline}, or defers it if the running expire would hand it out. */
    private void place(int e, long handle, long deadline) {
        if (expiring && deadline <= expiringNow) {
            // the running expire would hand it out at once (and a self-rescheduling timer would
            // loop); it joins the tree when expire returns
            // while deferred, T_NEXT holds its entry's index: a reschedule appends a new entry, and
            // the old one, whose index no longer matches, is skipped (so the timer takes its new
            // place in line, as a cancel plus a schedule would)
            timers[(e << 2) + T_NEXT] = deferredCount;
            deferred[deferredCount++] = handle; // room made by reserve()
            deferredLive++;
            setOwner(e, NIL);
        } else {
            insert(e, deadline);
        }
    }

    @Override
    public boolean cancel(long handle) {
        int e = pending(handle);
        if (e == NIL) {
            return false;
        }
        if (owner(e) != NIL) {
            unlink(e);
        } else {
            deferredLive--; // deferred: flushDeferred skips it, it is free
        }
        freeTimer(e);
        return true;
    }

    @Override
    public boolean reschedule(long handle, long deadline) {
        int e = pending(handle);
        if (e == NIL) {
            return false;
        }
        if (owner(e) == NIL) {
            // deferred: placed again, as if scheduled now (in the tree, or deferred anew behind
            // the timers deferred so far); its old entry is skipped
            reserve();
            deferredLive--;
            timers[(e << 2) + T_DEADLINE] = deadline;
            place(e, handle, deadline);
            return true;
        }
        reserve();
        timers[(e << 2) + T_DEADLINE] = deadline;
        unlink(e);
        place(e, handle, deadline);
        return true;
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer) {
        return expire(now, consumer, Integer.MAX_VALUE);
    }

    @Override
    public int expire(long now, LongConsumer consumer) {
        return expire(now, consumer, Integer.MAX_VALUE);
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer, int limit) {
        if (refs == null) {
            throw new UnsupportedOperationException("a queue of long payloads");
        }
        return expire(now, Objects.requireNonNull(consumer, "consumer"), null, limit);
    }

    @Override
    public int expire(long now, LongConsumer consumer, int limit) {
        if (vals == null) {
            throw new UnsupportedOperationException("a queue of object payloads");
        }
        return expire(now, null, Objects.requireNonNull(consumer, "consumer"), limit);
    }

    @SuppressWarnings("unchecked")
    private int expire(long now, Consumer<? super T> objects, LongConsumer longs, int limit) {
        if (expiring) {
            throw new IllegalStateException("expire called from its own consumer");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1: " + limit);
        }
        if (now == Long.MAX_VALUE) {
            drained = true;
        }
        if (size == 0) {
            return 0;
        }
        expiring = true;
        expiringNow = now;
        int fired = 0;
        try {
            int z;
            while (fired < limit && (z = first) != NIL && key(z) <= now) {
                // one timer at a time, so a consumer that throws or cancels leaves a sound tree
                int e = (int) nodes[(z << 3) + HEAD];
                unlink(e);
                fired++;
                if (objects != null) {
                    T p = (T) refs[e];
                    freeTimer(e);
                    objects.accept(p);
                } else {
                    long v = vals[e];
                    freeTimer(e);
                    longs.accept(v);
                }
            }
        } finally {
            expiring = false;
            if (deferredCount != 0) {
                flushDeferred();
            }
        }
        return fired;
    }

    /** Whether entry {@code i} of the deferred list, handle {@code h} of timer {@code e}, is the timer's current one. */
    private boolean deferredAt(int e, long h, int i) {
        return gen(e) == (int) (h >>> 32) && owner(e) == NIL && timers[(e << 2) + T_NEXT] == i;
    }

    private void flushDeferred() {
        for (int i = 0; i < deferredCount; i++) {
            long h = deferred[i];
            int e = (int) h;
            if (deferredAt(e, h, i)) { // else cancelled or rescheduled meanwhile
                insert(e, timers[(e << 2) + T_DEADLINE]);
            }
        }
        deferredCount = 0;
        deferredLive = 0;
    }

    /** Exact: the earliest deadline in the tree. */
    @Override
    public long nextDeadline() {
        if (size == 0) {
            return TimerQueue.NO_DEADLINE;
        }
        if (first == NIL || deferredCount != 0) {
            return Long.MIN_VALUE; // only inside expire's consumer: deferred timers are due
        }
        return key(first);
    }

    @Override
    public int size() {
        return size;
    }

    /** The pending timers and the distinct deadlines (tree nodes) they share, for diagnostics. */
    @Override
    public String toString() {
        return "RB_TREE[size=" + size + ", deadlines=" + (nodeHighWater - 1 - freeNodeTop) + "]";
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    // ---- red-black tree (CLRS ch. 13) ----

    /** The in-order successor of the leftmost node, which has no left child. */
    private int successorOfFirst(int z) {
        int r = right(z);
        if (r == NIL) {
            return parent(z);
        }
        int l;
        while ((l = left(r)) != NIL) {
            r = l;
        }
        return r;
    }

    /** Appends timer {@code e} to the node of deadline {@code k}, adding the node if there is none. */
    private void insert(int e, long k) {
        int y = NIL;
        int x = root;
        boolean goLeft = false;
        long[] n = nodes;
        while (x != NIL) {
            int b = x << 3;
            long xk = n[b + KEY];
            if (k == xk) {
                append(x, e);
                return;
            }
            y = x;
            goLeft = k < xk;
            x = (int) n[b + (goLeft ? LEFT : RIGHT)];
        }
        int z = allocateNode(k);
        n = nodes;
        int b = z << 3;
        n[b + LEFT] = NIL;
        n[b + RIGHT] = NIL;
        n[b + PARENT] = RED | y;
        n[b + HEAD] = NIL;
        n[b + TAIL] = NIL;
        append(z, e);
        if (y == NIL) {
            root = z;
        } else {
            setChild(y, goLeft ? LEFT : RIGHT, z);
        }
        if (first == NIL || k < key(first)) {
            first = z;
        }
        insertFixup(z);
    }

    /**
     * CLRS's RB-INSERT-FIXUP with its two mirrored halves folded into one: {@code side} is the side
     * of {@code g} that {@code z}'s parent hangs on, {@code other} the opposite one.
     */
    private void insertFixup(int z) {
        int zp;
        while (isRed(zp = parent(z))) {
            int g = parent(zp);
            int side = zp == left(g) ? LEFT : RIGHT;
            int other = LEFT + RIGHT - side;
            int y = child(g, other);
            if (isRed(y)) {
                setRed(zp, false);
                setRed(y, false);
                setRed(g, true);
                z = g;
            } else {
                if (z == child(zp, other)) {
                    z = zp;
                    rotate(z, side);
                    zp = parent(z);
                    g = parent(zp);
                }
                setRed(zp, false);
                setRed(g, true);
                rotate(g, other);
            }
        }
        setRed(root, false);
    }

    /**
     * Rotates {@code x} down to its {@code side}: its child on the other side takes its place, and
     * that child's {@code side} subtree becomes {@code x}'s other-side subtree ({@code rotate(x,
     * LEFT)} is CLRS's LEFT-ROTATE).
     */
    private void rotate(int x, int side) {
        int other = LEFT + RIGHT - side;
        int y = child(x, other);
        int inner = child(y, side);
        setChild(x, other, inner);
        if (inner != NIL) {
            setParent(inner, x);
        }
        int xp = parent(x);
        setParent(y, xp);
        replaceChild(xp, x, y);
        setChild(y, side, x);
        setParent(x, y);
    }

    /** Puts {@code v} where child {@code u} of {@code up} was ({@code up == NIL}: at the root). */
    private void replaceChild(int up, int u, int v) {
        if (up == NIL) {
            root = v;
        } else {
            setChild(up, u == left(up) ? LEFT : RIGHT, v);
        }
    }

    private void transplant(int u, int v) {
        int up = parent(u);
        replaceChild(up, u, v);
        setParent(v, up); // also for v == NIL: deleteFixup starts from NIL's parent
    }

    private void delete(int z) {
        int y = z;
        boolean yRed = isRed(y);
        int x;
        if (left(z) == NIL) {
            x = right(z);
            transplant(z, x);
        } else if (right(z) == NIL) {
            x = left(z);
            transplant(z, x);
        } else {
            y = right(z);
            int l;
            while ((l = left(y)) != NIL) {
                y = l;
            }
            yRed = isRed(y);
            x = right(y);
            if (parent(y) == z) {
                setParent(x, y);
            } else {
                transplant(y, x);
                setChild(y, RIGHT, right(z));
                setParent(right(y), y);
            }
            transplant(z, y);
            setChild(y, LEFT, left(z));
            setParent(left(y), y);
            setRed(y, isRed(z));
        }
        if (!yRed) {
            deleteFixup(x);
        }
        setRed(NIL, false);
    }

    /**
     * CLRS's RB-DELETE-FIXUP with its two mirrored halves folded into one: {@code side} is the side
     * of its parent that {@code x} hangs on, {@code w} its sibling on the {@code other} side.
     */
    private void deleteFixup(int x) {
        while (x != root && !isRed(x)) {
            int xp = parent(x);
            int side = x == left(xp) ? LEFT : RIGHT;
            int other = LEFT + RIGHT - side;
            int w = child(xp, other);
            if (isRed(w)) {
                setRed(w, false);
                setRed(xp, true);
                rotate(xp, side);
                w = child(xp, other);
            }
            if (!isRed(child(w, side)) && !isRed(child(w, other))) {
                setRed(w, true);
                x = xp;
            } else {
                if (!isRed(child(w, other))) {
                    setRed(child(w, side), false);
                    setRed(w, true);
                    rotate(w, other);
                    w = child(xp, other);
                }
                setRed(w, isRed(xp));
                setRed(xp, false);
                setRed(child(w, other), false);
                rotate(xp, side);
                x = root;
            }
        }
        setRed(x, false);
    }

    /** For tests: checks the red-black invariants and the leftmost pointer; returns the black height. */
    int checkInvariants() {
        if (isRed(root)) {
            throw new AssertionError("red root");
        }
        if (isRed(NIL)) {
            throw new AssertionError("red NIL");
        }
        int m = root;
        while (m != NIL && left(m) != NIL) {
            m = left(m);
        }
        if (m != first) {
            throw new AssertionError("first=" + first + " but leftmost=" + m);
        }
        return blackHeight(root, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private int blackHeight(int n, long lo, long hi) {
        if (n == NIL) {
            return 1;
        }
        if (key(n) < lo || key(n) > hi) {
            throw new AssertionError("order violated at node " + n);
        }
        int e = (int) nodes[(n << 3) + HEAD];
        if (e == NIL) {
            throw new AssertionError("node " + n + " without timers");
        }
        for (; e != NIL; e = next(e)) {
            if (owner(e) != n || timers[(e << 2) + T_DEADLINE] != key(n)) {
                throw new AssertionError("timer " + e + " misfiled under node " + n);
            }
        }
        if (isRed(n) && (isRed(left(n)) || isRed(right(n)))) {
            throw new AssertionError("red node " + n + " has a red child");
        }
        if (left(n) != NIL && parent(left(n)) != n || right(n) != NIL && parent(right(n)) != n) {
            throw new AssertionError("parent link broken at " + n);
        }
        int lh = blackHeight(left(n), lo, key(n));
        int rh = blackHeight(right(n), key(n), hi);
        if (lh != rh) {
            throw new AssertionError("black heights differ at " + n + ": " + lh + " vs " + rh);
        }
        return lh + (isRed(n) ? 0 : 1);
    }
}
