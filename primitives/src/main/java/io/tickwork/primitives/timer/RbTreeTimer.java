package io.tickwork.primitives.timer;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A red-black tree of timers keyed by exact deadline ({@link TimerKind#RB_TREE}): no tick rounding,
 * no span to size, deadlines handed out in exact order (equal deadlines in scheduling order).
 *
 * <p><b>Algorithm:</b> the red-black tree of Cormen, Leiserson, Rivest &amp; Stein ("Introduction
 * to Algorithms", ch. 13; Guibas &amp; Sedgewick 1978), with a sentinel {@code NIL} node, plus a
 * pointer to the leftmost node so that the next deadline and each expiry step start at the minimum
 * without a descent. Nodes are not objects but indices into parallel primitive arrays (links,
 * colour, deadline, payload, generation) reused through a free stack: no allocation once the arrays
 * have grown to the peak, no boxing of deadlines, and the links of a node sit in a few dense arrays
 * rather than scattered 40-byte objects. That is the difference from {@code TreeMap}, which also
 * needs a unique key per timer, so a wrapper object and a comparator call per step.
 *
 * <p><b>Cost:</b> schedule O(log n), cancel O(log n) (O(1) lookup by handle, then delete), expire
 * O(log n) amortised per timer handed out, {@link #nextDeadline} O(1). Handles are
 * {@code generation << 32 | node}; see {@link WheelTimer} for why generations make stale handles
 * harmless.
 *
 * <p><b>Thread safety:</b> none; one thread owns the queue.
 */
final class RbTreeTimer<T> implements TimerQueue<T> {

    private static final int NIL = 0;
    private static final byte FREE = 0;
    private static final byte IN_TREE = 1;
    private static final byte DEFERRED = 2;

    private int[] left;
    private int[] right;
    private int[] parent;
    private boolean[] red;
    private long[] key;
    private Object[] payload;
    private int[] gen;
    private byte[] state;
    private int[] freeIds;
    private int freeTop;
    /** Node 0 is NIL, entries start at 1. */
    private int highWater = 1;

    private int root = NIL;
    private int first = NIL;
    private int size;

    private boolean expiring;
    private long expiringNow;
    private long[] deferred = new long[8];
    private int deferredCount;

    RbTreeTimer() {
        int cap = 64;
        left = new int[cap];
        right = new int[cap];
        parent = new int[cap];
        red = new boolean[cap];
        key = new long[cap];
        payload = new Object[cap];
        gen = new int[cap];
        state = new byte[cap];
        freeIds = new int[cap];
    }

    private int allocate() {
        if (freeTop > 0) {
            return freeIds[--freeTop];
        }
        if (highWater == key.length) {
            int cap = key.length * 2;
            left = Arrays.copyOf(left, cap);
            right = Arrays.copyOf(right, cap);
            parent = Arrays.copyOf(parent, cap);
            red = Arrays.copyOf(red, cap);
            key = Arrays.copyOf(key, cap);
            payload = Arrays.copyOf(payload, cap);
            gen = Arrays.copyOf(gen, cap);
            state = Arrays.copyOf(state, cap);
            freeIds = Arrays.copyOf(freeIds, cap);
        }
        return highWater++;
    }

    @SuppressWarnings("unchecked")
    private T free(int z) {
        T p = (T) payload[z];
        payload[z] = null;
        state[z] = FREE;
        gen[z]++;
        freeIds[freeTop++] = z;
        size--;
        return p;
    }

    @Override
    public long schedule(long deadline, T payload) {
        if (payload == null) {
            throw new NullPointerException("payload");
        }
        int z = allocate();
        this.payload[z] = payload;
        key[z] = deadline;
        size++;
        long handle = ((long) gen[z] << 32) | z;
        if (expiring && deadline <= expiringNow) {
            // the running expire would hand it out at once (and a self-rescheduling timer would
            // loop); it joins the tree when expire returns
            if (deferredCount == deferred.length) {
                deferred = Arrays.copyOf(deferred, deferredCount * 2);
            }
            deferred[deferredCount++] = handle;
            state[z] = DEFERRED;
        } else {
            insert(z);
        }
        return handle;
    }

    @Override
    public boolean cancel(long handle) {
        int z = (int) handle;
        if (z < 1 || z >= highWater || gen[z] != (int) (handle >>> 32) || state[z] == FREE) {
            return false;
        }
        if (state[z] == IN_TREE) {
            if (z == first) {
                first = successorOfFirst(z);
            }
            delete(z);
        }
        free(z);
        return true;
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer) {
        if (expiring) {
            throw new IllegalStateException("expire called from its own consumer");
        }
        if (size == 0) {
            return 0;
        }
        expiring = true;
        expiringNow = now;
        int fired = 0;
        try {
            int z;
            long[] k = key;
            while ((z = first) != NIL && k[z] <= now) {
                first = successorOfFirst(z);
                delete(z);
                T p = free(z);
                fired++;
                consumer.accept(p);
            }
        } finally {
            expiring = false;
            if (deferredCount != 0) {
                flushDeferred();
            }
        }
        return fired;
    }

    private void flushDeferred() {
        for (int i = 0; i < deferredCount; i++) {
            long h = deferred[i];
            int z = (int) h;
            if (gen[z] == (int) (h >>> 32) && state[z] == DEFERRED) {
                insert(z);
            }
        }
        deferredCount = 0;
    }

    /** Exact: the earliest deadline in the tree. */
    @Override
    public long nextDeadline() {
        if (size == 0) {
            return NO_DEADLINE;
        }
        if (first == NIL || deferredCount != 0) {
            return Long.MIN_VALUE; // only inside expire's consumer: deferred timers are due
        }
        return key[first];
    }

    @Override
    public int size() {
        return size;
    }

    // ---- red-black tree (CLRS ch. 13) ----

    /** The in-order successor of the leftmost node, which has no left child. */
    private int successorOfFirst(int z) {
        int r = right[z];
        if (r == NIL) {
            return parent[z];
        }
        while (left[r] != NIL) {
            r = left[r];
        }
        return r;
    }

    private void insert(int z) {
        long k = key[z];
        int y = NIL;
        int x = root;
        long[] keys = key;
        while (x != NIL) {
            y = x;
            // equal deadlines go right: they come out in scheduling order
            x = k < keys[x] ? left[x] : right[x];
        }
        parent[z] = y;
        if (y == NIL) {
            root = z;
        } else if (k < keys[y]) {
            left[y] = z;
        } else {
            right[y] = z;
        }
        left[z] = NIL;
        right[z] = NIL;
        red[z] = true;
        state[z] = IN_TREE;
        if (first == NIL || k < keys[first]) {
            first = z;
        }
        insertFixup(z);
    }

    private void insertFixup(int z) {
        int[] l = left;
        int[] r = right;
        int[] p = parent;
        boolean[] rd = red;
        while (rd[p[z]]) {
            int zp = p[z];
            int g = p[zp];
            if (zp == l[g]) {
                int y = r[g];
                if (rd[y]) {
                    rd[zp] = false;
                    rd[y] = false;
                    rd[g] = true;
                    z = g;
                } else {
                    if (z == r[zp]) {
                        z = zp;
                        rotateLeft(z);
                        zp = p[z];
                        g = p[zp];
                    }
                    rd[zp] = false;
                    rd[g] = true;
                    rotateRight(g);
                }
            } else {
                int y = l[g];
                if (rd[y]) {
                    rd[zp] = false;
                    rd[y] = false;
                    rd[g] = true;
                    z = g;
                } else {
                    if (z == l[zp]) {
                        z = zp;
                        rotateRight(z);
                        zp = p[z];
                        g = p[zp];
                    }
                    rd[zp] = false;
                    rd[g] = true;
                    rotateLeft(g);
                }
            }
        }
        rd[root] = false;
    }

    private void rotateLeft(int x) {
        int y = right[x];
        int yl = left[y];
        right[x] = yl;
        if (yl != NIL) {
            parent[yl] = x;
        }
        int xp = parent[x];
        parent[y] = xp;
        if (xp == NIL) {
            root = y;
        } else if (x == left[xp]) {
            left[xp] = y;
        } else {
            right[xp] = y;
        }
        left[y] = x;
        parent[x] = y;
    }

    private void rotateRight(int x) {
        int y = left[x];
        int yr = right[y];
        left[x] = yr;
        if (yr != NIL) {
            parent[yr] = x;
        }
        int xp = parent[x];
        parent[y] = xp;
        if (xp == NIL) {
            root = y;
        } else if (x == right[xp]) {
            right[xp] = y;
        } else {
            left[xp] = y;
        }
        right[y] = x;
        parent[x] = y;
    }

    private void transplant(int u, int v) {
        int up = parent[u];
        if (up == NIL) {
            root = v;
        } else if (u == left[up]) {
            left[up] = v;
        } else {
            right[up] = v;
        }
        parent[v] = up; // also for v == NIL: deleteFixup starts from NIL's parent
    }

    private void delete(int z) {
        int y = z;
        boolean yRed = red[y];
        int x;
        if (left[z] == NIL) {
            x = right[z];
            transplant(z, x);
        } else if (right[z] == NIL) {
            x = left[z];
            transplant(z, x);
        } else {
            y = right[z];
            while (left[y] != NIL) {
                y = left[y];
            }
            yRed = red[y];
            x = right[y];
            if (parent[y] == z) {
                parent[x] = y;
            } else {
                transplant(y, x);
                right[y] = right[z];
                parent[right[y]] = y;
            }
            transplant(z, y);
            left[y] = left[z];
            parent[left[y]] = y;
            red[y] = red[z];
        }
        if (!yRed) {
            deleteFixup(x);
        }
        red[NIL] = false;
    }

    private void deleteFixup(int x) {
        int[] l = left;
        int[] r = right;
        int[] p = parent;
        boolean[] rd = red;
        while (x != root && !rd[x]) {
            int xp = p[x];
            if (x == l[xp]) {
                int w = r[xp];
                if (rd[w]) {
                    rd[w] = false;
                    rd[xp] = true;
                    rotateLeft(xp);
                    w = r[xp];
                }
                if (!rd[l[w]] && !rd[r[w]]) {
                    rd[w] = true;
                    x = xp;
                } else {
                    if (!rd[r[w]]) {
                        rd[l[w]] = false;
                        rd[w] = true;
                        rotateRight(w);
                        w = r[xp];
                    }
                    rd[w] = rd[xp];
                    rd[xp] = false;
                    rd[r[w]] = false;
                    rotateLeft(xp);
                    x = root;
                }
            } else {
                int w = l[xp];
                if (rd[w]) {
                    rd[w] = false;
                    rd[xp] = true;
                    rotateRight(xp);
                    w = l[xp];
                }
                if (!rd[r[w]] && !rd[l[w]]) {
                    rd[w] = true;
                    x = xp;
                } else {
                    if (!rd[l[w]]) {
                        rd[r[w]] = false;
                        rd[w] = true;
                        rotateLeft(w);
                        w = l[xp];
                    }
                    rd[w] = rd[xp];
                    rd[xp] = false;
                    rd[l[w]] = false;
                    rotateRight(xp);
                    x = root;
                }
            }
        }
        rd[x] = false;
    }

    /** For tests: checks the red-black invariants and the leftmost pointer; returns the black height. */
    int checkInvariants() {
        if (red[root]) {
            throw new AssertionError("red root");
        }
        int m = root;
        while (m != NIL && left[m] != NIL) {
            m = left[m];
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
        if (key[n] < lo || key[n] > hi) {
            throw new AssertionError("order violated at node " + n);
        }
        if (red[n] && (red[left[n]] || red[right[n]])) {
            throw new AssertionError("red node " + n + " has a red child");
        }
        if (left[n] != NIL && parent[left[n]] != n || right[n] != NIL && parent[right[n]] != n) {
            throw new AssertionError("parent link broken at " + n);
        }
        int lh = blackHeight(left[n], lo, key[n]);
        int rh = blackHeight(right[n], key[n], hi);
        if (lh != rh) {
            throw new AssertionError("black heights differ at " + n + ": " + lh + " vs " + rh);
        }
        return lh + (red[n] ? 0 : 1);
    }
}
