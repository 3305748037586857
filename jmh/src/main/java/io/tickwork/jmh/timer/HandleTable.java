package io.tickwork.jmh.timer;

import java.util.Arrays;

/**
 * Long handles for the peers whose timers are objects: a slot per live timer, a free-slot stack,
 * and a 32-bit generation per slot so a stale handle (its timer fired or was cancelled) never
 * reaches a younger timer in the same slot. {@link #put}, {@link #remove} and {@link #release} are
 * O(1) and allocate nothing once the arrays have grown to the peak number of live timers. This is
 * the work a caller of {@code TreeMap} or {@code PriorityQueue} does anyway by keeping its timer's
 * node in a field; it is the same for every peer that uses it. Not thread safe.
 *
 * @param <T> the peer's timer object
 */
final class HandleTable<T> {
    private Object[] items = new Object[1024];
    private int[] generations = new int[1024];
    private int[] free = new int[1024];
    private int freeTop;
    private int used;

    /** Stores {@code item} in a free slot; returns its handle. */
    long put(T item) {
        int slot;
        if (freeTop > 0) {
            slot = free[--freeTop];
        } else {
            if (used == items.length) {
                int n = used * 2;
                items = Arrays.copyOf(items, n);
                generations = Arrays.copyOf(generations, n);
                free = Arrays.copyOf(free, n);
            }
            slot = used++;
        }
        items[slot] = item;
        return (long) generations[slot] << 32 | slot;
    }

    /** The slot a handle names, for the timer object to remember (so expiry can release it). */
    static int slotOf(long handle) {
        return (int) handle;
    }

    /** Removes and returns the live item of {@code handle}, or null if the handle is stale. */
    @SuppressWarnings("unchecked")
    T remove(long handle) {
        int slot = (int) handle;
        if (slot < 0 || slot >= used || generations[slot] != (int) (handle >>> 32)) {
            return null;
        }
        Object item = items[slot];
        if (item != null) {
            release(slot);
        }
        return (T) item;
    }

    /** Frees {@code slot} (its timer fired): its handle goes stale. */
    void release(int slot) {
        items[slot] = null;
        generations[slot]++;
        free[freeTop++] = slot;
    }
}
