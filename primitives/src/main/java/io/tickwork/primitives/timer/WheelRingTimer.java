package io.tickwork.primitives.timer;

import io.tickwork.primitives.queue.LinkedArrayList;
import io.tickwork.primitives.queue.RingQueue;

/**
 * A hashed timing wheel whose slots are fixed-capacity {@link RingQueue}s of handles, each spilling
 * into a {@link LinkedArrayList} when full ({@link TimerKind#WHEEL_RING}).
 *
 * <p><b>Algorithm:</b> Varghese &amp; Lauck's hashed wheel (scheme 4), see {@link WheelTimer}. A
 * slot's ring is one contiguous array, so a tick whose timers fit in it is expired by one
 * sequential scan; a burst beyond {@code slotCapacity} goes to the slot's spill list (chunks from
 * a shared pool), so a burst is not refused, it just costs a second structure (a spill refuses only
 * at {@link Integer#MAX_VALUE} entries, see {@link TimerQueue#schedule}).
 *
 * <p><b>Cost:</b> as {@link WheelLinkedArrayTimer}: schedule O(1) (O(log f) for far timers), cancel
 * and reschedule O(1), expire O(1) per timer plus O(ticksPerWheel / 64) per call (and as much again
 * for each revolution a clock jump crosses that holds far timers); no allocation once warm. A slot
 * takes a ring when it gets its first timer and gives it back to the wheel's spare rings once
 * its last pending timer leaves (cancelled or moved: tombstones are dropped with the ring) or
 * expiry or {@link #nextDeadline} finds it empty, so memory follows the most slots holding
 * pending timers at once (at most one revolution of ticks), each {@code 8 *} {@code slotCapacity} rounded up to a
 * power of two (the length of a {@link RingQueue}'s array) bytes, whether or not a tick's timers
 * fill it: that footprint is the price of never chaining chunks within a tick.
 *
 * <p><b>Caveats:</b> cancel leaves a tombstone unless the timer was the last added to its slot or
 * the last pending one there (the ring then goes, tombstones and all), and a slot more than half
 * tombstones is compacted (see {@link WheelLinkedArrayTimer}). Timers in one tick come out in no particular order.
 *
 * <p><b>Thread safety:</b> none; one thread owns the queue.
 */
final class WheelRingTimer<T> extends WheelTimer<T> {

    private final RingQueue[] rings;
    /**
     * Rings of slots found empty, for the next slots to get a timer: a stack, as long as the rings
     * made so far, so that giving one back never allocates ({@link #nextDeadline} must not).
     */
    private RingQueue[] spareRings = new RingQueue[16];

    private int spareCount;
    private int ringsMade;
    private final LinkedArrayList[] spills;
    private final LinkedArrayList.ChunkPool spillPool;
    private final int ringCapacity;

    WheelRingTimer(TickClock clock, int ticksPerWheel, int ringCapacity, boolean longPayloads, boolean startAtOrigin) {
        super(clock, ticksPerWheel, longPayloads, startAtOrigin, true);
        this.ringCapacity = ringCapacity;
        this.rings = new RingQueue[ticksPerWheel];
        this.spills = new LinkedArrayList[ticksPerWheel];
        this.spillPool = new LinkedArrayList.ChunkPool(Math.min(ringCapacity, 1024));
    }

    @Override
    void add(int slot, int id, long ref) {
        RingQueue ring = rings[slot];
        if (ring == null) {
            ring = rings[slot] = spareCount != 0 ? spareRings[--spareCount] : newRing();
        }
        if (!ring.offer(ref)) {
            LinkedArrayList spill = spills[slot];
            if (spill == null) {
                spill = spills[slot] = new LinkedArrayList(spillPool);
            }
            if (!spill.offer(ref)) {
                throw slotFull(slot); // Integer.MAX_VALUE entries in the spill: the timer is not placed
            }
        }
        setOccupied(slot);
    }

    @Override
    void remove(int slot, int id, long ref) {
        LinkedArrayList spill = spills[slot];
        RingQueue ring = rings[slot];
        boolean spilled = spill != null && !spill.isEmpty();
        if (slotLive[slot] == 0 && mayVacate(slot)) {
            vacate(slot, ring, spilled ? spill : null);
        } else if (spilled ? spill.peekLast() == ref : ring.peekLast() == ref) {
            if (spilled) {
                spill.removeLast();
            } else {
                ring.removeLast();
            }
        } else if (worthCompacting(slot, ring.size() + (spilled ? spill.size() : 0))) {
            // keep the live handles: the ring's first, then the spill's into the ring while it fits
            for (int i = ring.size(); i > 0; i--) {
                long h = ring.poll();
                if (live(h)) {
                    ring.offer(h);
                }
            }
            if (spilled) {
                for (int i = spill.size(); i > 0; i--) {
                    long h = spill.poll();
                    if (live(h) && !ring.offer(h)) {
                        try {
                            spill.offer(h);
                        } catch (Throwable t) {
                            throw dropCopy(slot, h, t);
                        }
                    }
                }
            }
        }
    }

    /** A ring more, with room for it among the spares first; throws before either if memory fails. */
    private RingQueue newRing() {
        if (ringsMade == spareRings.length) {
            // at most one ring per slot: the stack grows with the slots in use at once, never past them
            spareRings = java.util.Arrays.copyOf(spareRings, Math.min(2 * ringsMade, ticksPerWheel));
        }
        RingQueue ring = new RingQueue(ringCapacity);
        ringsMade++;
        return ring;
    }

    @Override
    void emptied(int slot) {
        RingQueue ring = rings[slot];
        if (ring != null) { // null: vacated already
            spareRings[spareCount++] = ring; // empty: its slot's bit was cleared only when it was
            rings[slot] = null;
        }
    }

    @Override
    void dropTombstones(int slot) {
        RingQueue ring = rings[slot];
        if (ring != null) {
            vacate(slot, ring, spills[slot]);
        }
    }

    /**
     * {@code slot} holds no pending timer: its ring goes to the spares, emptied, and a non-empty
     * {@code spill}'s chunks to the pool. The bit stays set: the next add takes a spare ring, the
     * scan finds none. Allocates nothing.
     */
    private void vacate(int slot, RingQueue ring, LinkedArrayList spill) {
        ring.clear();
        spareRings[spareCount++] = ring;
        rings[slot] = null;
        if (spill != null && !spill.isEmpty()) {
            spill.clear();
        }
    }

    @Override
    boolean emptyButMarked(int slot) {
        RingQueue ring = rings[slot];
        LinkedArrayList spill = spills[slot];
        return (ring == null || ring.isEmpty()) && (spill == null || spill.isEmpty());
    }

    @Override
    int drain(int slot, long tick, long limit) {
        int fired = 0;
        int took = 0;
        RingQueue ring = rings[slot];
        if (ring == null) {
            taken = 0; // vacated: its bit was left set, and nothing is stored
            return 0;
        }
        while (took < limit) {
            long ref;
            if (!ring.isEmpty()) {
                ref = ring.poll();
            } else {
                // read again each time: a consumer's cancel may compact the slot, moving spilled
                // entries back into the ring after the ring was emptied
                LinkedArrayList spill = spills[slot];
                if (spill == null || spill.isEmpty()) {
                    break;
                }
                ref = spill.poll();
            }
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
        return TimerKind.WHEEL_RING;
    }
}
