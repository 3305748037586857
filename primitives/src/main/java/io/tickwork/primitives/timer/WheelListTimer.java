package io.tickwork.primitives.timer;

import java.util.Arrays;

/**
 * A hashed timing wheel whose slots are intrusive, circular, doubly-linked lists
 * ({@link TimerKind#WHEEL_LIST}), the classic layout of Varghese &amp; Lauck's scheme 4 (and of
 * Netty's and Kafka's wheels).
 *
 * <p><b>Layout:</b> the links are two {@code int} arrays indexed by node, not node objects: nodes
 * {@code 0..ticksPerWheel-1} are the slots' sentinels and node {@code ticksPerWheel + id} is entry
 * {@code id}. Sentinels make unlinking branch-free (no "am I the head" case) and let cancel unlink
 * without knowing the slot; int links halve the footprint of references and allocate nothing.
 *
 * <p><b>Cost:</b> schedule O(1) (O(log f) for far timers beyond the span), cancel O(1) and leaves
 * nothing behind, reschedule O(1) (a store when later; an unlink and a link when earlier), expire
 * O(1) per timer plus O(ticksPerWheel / 64) per call (and as much again for each revolution a
 * clock jump crosses that holds far timers), plus one visit to each slot a cancel
 * emptied (its bit stays set until the scan reaches it). Expiry follows links, a
 * likely cache miss per timer once the entries of a tick are scattered over the pool: that is what
 * the ring and linked-array variants avoid.
 *
 * <p><b>Caveats:</b> timers in one tick come out in scheduling order, but that is not promised.
 *
 * <p><b>Thread safety:</b> none; one thread owns the queue.
 */
final class WheelListTimer<T> extends WheelTimer<T> {

    private int[] next;
    private int[] prev;

    WheelListTimer(TickClock clock, int ticksPerWheel, boolean longPayloads, boolean startAtOrigin) {
        super(clock, ticksPerWheel, longPayloads, startAtOrigin, false);
        int n = ticksPerWheel + where.length;
        next = new int[n];
        prev = new int[n];
        for (int s = 0; s < ticksPerWheel; s++) {
            next[s] = s;
            prev[s] = s;
        }
    }

    @Override
    void grow(int capacity) {
        next = Arrays.copyOf(next, ticksPerWheel + capacity);
        prev = Arrays.copyOf(prev, ticksPerWheel + capacity);
    }

    @Override
    void add(int slot, int id, long ref) {
        int node = ticksPerWheel + id;
        int[] nx = next;
        int[] pv = prev;
        int last = pv[slot];
        nx[last] = node;
        pv[node] = last;
        nx[node] = slot;
        pv[slot] = node;
        setOccupied(slot);
    }

    @Override
    void remove(int slot, int id, long ref) {
        unlink(ticksPerWheel + id);
    }

    @Override
    boolean emptyButMarked(int slot) {
        return next[slot] == slot;
    }

    private void unlink(int node) {
        int[] nx = next;
        int[] pv = prev;
        int n = nx[node];
        int p = pv[node];
        nx[p] = n;
        pv[n] = p;
    }

    @Override
    int drain(int slot, long tick, long limit) {
        int base = ticksPerWheel;
        int fired = 0;
        int took = 0;
        int node;
        while (took < limit && (node = next[slot]) != slot) {
            unlink(node);
            took++;
            fired += visit(slot, node - base, tick);
        }
        taken = took;
        return fired;
    }

    @Override
    TimerKind kind() {
        return TimerKind.WHEEL_LIST;
    }
}
