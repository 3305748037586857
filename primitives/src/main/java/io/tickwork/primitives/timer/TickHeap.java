package io.tickwork.primitives.timer;

import java.util.Arrays;

/**
 * An indexed binary min-heap of entry ids keyed by tick: the wheels' overflow for deadlines beyond
 * their span. Indexed ({@link #pos} per id) so a cancel removes from the middle in O(log n) instead
 * of searching. Primitive parallel arrays: no node objects, no boxing, grows by doubling only;
 * the position index only as far as the largest id ever pushed, so a queue whose timers all stay
 * on the wheel pays nothing per id for it.
 */
final class TickHeap {
    private long[] ticks = new long[16];
    private int[] ids = new int[16];
    /** Heap position per entry id; only meaningful while the id is in the heap. */
    private int[] pos = new int[16];

    private int size;

    int size() {
        return size;
    }

    /** The smallest tick; only when {@code size() > 0}. */
    long minTick() {
        return ticks[0];
    }

    /** The id with the smallest tick; only when {@code size() > 0}. */
    int minId() {
        return ids[0];
    }

    void push(int id, long tick) {
        if (id >= pos.length) {
            pos = Arrays.copyOf(pos, Math.max(pos.length * 2, Integer.highestOneBit(id) << 1));
        }
        if (size == ticks.length) {
            // both copies before either is kept: an OutOfMemoryError leaves the heap as it was
            long[] t = Arrays.copyOf(ticks, size * 2);
            int[] i = Arrays.copyOf(ids, size * 2);
            ticks = t;
            ids = i;
        }
        siftUp(size++, id, tick);
    }

    /** Removes and returns the id with the smallest tick. */
    int pop() {
        int id = ids[0];
        removeAt(0);
        return id;
    }

    void remove(int id) {
        removeAt(pos[id]);
    }

    private void removeAt(int i) {
        int last = --size;
        if (i == last) {
            return;
        }
        int movedId = ids[last];
        long movedTick = ticks[last];
        siftDown(i, movedId, movedTick);
        if (ids[i] == movedId) {
            siftUp(i, movedId, movedTick);
        }
    }

    private void siftUp(int i, int id, long tick) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long pt = ticks[parent];
            if (pt <= tick) {
                break;
            }
            ticks[i] = pt;
            ids[i] = ids[parent];
            pos[ids[i]] = i;
            i = parent;
        }
        ticks[i] = tick;
        ids[i] = id;
        pos[id] = i;
    }

    private void siftDown(int i, int id, long tick) {
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && ticks[right] < ticks[child]) {
                child = right;
            }
            if (tick <= ticks[child]) {
                break;
            }
            ticks[i] = ticks[child];
            ids[i] = ids[child];
            pos[ids[i]] = i;
            i = child;
        }
        ticks[i] = tick;
        ids[i] = id;
        pos[id] = i;
    }
}
