package io.tickwork.primitives.timer;

import io.tickwork.primitives.queue.LinkedArrayList;

/**
 * A hashed timing wheel whose slots are {@link LinkedArrayList}s of handles sharing one chunk pool
 * ({@link TimerKind#WHEEL_LINKED_ARRAY}): close to the ring's expiry speed without its sizing
 * decision or fixed footprint.
 *
 * <p><b>Algorithm:</b> Varghese &amp; Lauck's hashed wheel (scheme 4), see {@link WheelTimer}: one
 * slot per tick over one revolution, a bitmap of non-empty slots, far deadlines in a heap. A slot
 * is a FIFO of array chunks holding the timers' handles, so expiring a tick reads its handles
 * sequentially (one cache miss per chunk, not per timer as with list nodes), and a burst of any
 * size in one tick just takes more chunks; chunks return to the shared pool when a slot drains.
 *
 * <p><b>Cost:</b> schedule O(1) (O(log f) with f far timers beyond the span); cancel O(1);
 * reschedule O(1) (a store when later; a tombstone and a new copy when earlier); expire
 * O(1) per timer handed out plus O(ticksPerWheel / 64) per call to skip empty ticks (and as much
 * again for each revolution a clock jump crosses that holds far timers), plus one
 * visit to each slot a cancel emptied (its bit stays set until the scan reaches it); no allocation
 * once the pool and chunks have reached their peak.
 *
 * <p><b>Caveats:</b> cancel leaves a tombstone (the copy's placement token no longer matches) that
 * costs a read when its tick drains, unless the cancelled timer was the last one added to its slot,
 * in which case it is taken back at once (schedule-then-cancel leaves nothing behind), or the
 * last pending one of its slot, whose tombstones then all go with their chunks. A slot more
 * than half tombstones is compacted (O(1) amortised per cancel), so re-armed idle timeouts whose
 * tick never comes cannot grow memory without bound. Timers in one
 * tick come out in no particular order. Memory is the peak number of entries per slot rounded up to
 * chunks, plus one chunk per slot whose head is partway into a chunk, across slots, plus one list per slot made up front (about 40 bytes each with compressed
 * references, see {@link TimerQueueBuilder}).
 *
 * <p><b>Thread safety:</b> none; one thread owns the queue.
 */
final class WheelLinkedArrayTimer<T> extends WheelTimer<T> {

    private final LinkedArrayList[] slots;
    private final LinkedArrayList.ChunkPool pool;

    WheelLinkedArrayTimer(
            TickClock clock, int ticksPerWheel, int chunkSize, boolean longPayloads, boolean startAtOrigin) {
        super(clock, ticksPerWheel, longPayloads, startAtOrigin, true);
        pool = new LinkedArrayList.ChunkPool(chunkSize);
        slots = new LinkedArrayList[ticksPerWheel];
        // every list made up front (an empty list holds no chunk): no allocation branch on the
        // schedule path, which the JIT then inlines into its caller
        for (int i = 0; i < ticksPerWheel; i++) {
            slots[i] = new LinkedArrayList(pool);
        }
    }

    @Override
    void add(int slot, int id, long ref) {
        if (!slots[slot].offer(ref)) {
            throw slotFull(slot); // Integer.MAX_VALUE entries: the timer is not placed
        }
        setOccupied(slot);
    }

    @Override
    void remove(int slot, int id, long ref) {
        LinkedArrayList list = slots[slot];
        if (list.peekLast() == ref) {
            list.removeLast(); // an emptied list gives its chunk back itself
            if (slotLive[slot] == 0 && !list.isEmpty() && mayVacate(slot)) {
                list.clear(); // tombstones only: their chunks go back to the pool
            }
        } else if (slotLive[slot] == 0 && mayVacate(slot)) {
            list.clear();
        } else if (worthCompacting(slot, list.size())) {
            // keep the live handles, in order; the tombstones' chunks go back to the pool
            for (int i = list.size(); i > 0; i--) {
                long h = list.poll();
                if (live(h)) {
                    try {
                        list.offer(h);
                    } catch (Throwable t) {
                        throw dropCopy(slot, h, t);
                    }
                }
            }
        }
    }

    @Override
    void dropTombstones(int slot) {
        LinkedArrayList list = slots[slot];
        if (!list.isEmpty()) {
            list.clear();
        }
    }

    @Override
    boolean emptyButMarked(int slot) {
        return slots[slot].isEmpty();
    }

    @Override
    int drain(int slot, long tick, long limit) {
        LinkedArrayList list = slots[slot];
        int fired = 0;
        int took = 0;
        while (took < limit && !list.isEmpty()) {
            long ref = list.poll();
            took++;
            if (live(ref)) {
                fired += visit(slot, (int) ref - 1, tick);
            }
        }
        taken = took;
        return fired;
    }

    @Override
    TimerKind kind() {
        return TimerKind.WHEEL_LINKED_ARRAY;
    }
}
