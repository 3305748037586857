package io.tickwork.scheduler;

import java.util.Arrays;
import kilim.Task;

/**
 * The run queue of one {@link RunLoop}: a FIFO ring of tasks in a power-of-two array that doubles
 * when full and never shrinks.
 *
 * <p>Cost: {@code add} and {@code poll} are a few plain loads and stores, O(1) amortised, no
 * allocation once the ring has reached the loop's peak population. FIFO order is what makes the
 * loop a fair round-robin: a task that yields goes behind every task that was already runnable.
 *
 * <p><b>Thread safety:</b> none; only the loop's own thread touches it.
 */
final class TaskRing {
    private Task<?>[] ring;
    private int mask;
    private int head; // next to poll
    private int tail; // next free slot
    private int size;

    TaskRing(int initialCapacity) {
        int cap = Integer.highestOneBit(Math.max(16, initialCapacity - 1) << 1);
        ring = new Task<?>[cap];
        mask = cap - 1;
    }

    void add(Task<?> t) {
        if (size == ring.length) {
            grow();
        }
        ring[tail] = t;
        tail = (tail + 1) & mask;
        size++;
    }

    /** The oldest task, or null when empty. */
    Task<?> poll() {
        if (size == 0) {
            return null;
        }
        Task<?> t = ring[head];
        ring[head] = null; // a finished task must not stay reachable from the ring
        head = (head + 1) & mask;
        size--;
        return t;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    private void grow() {
        Task<?>[] old = ring;
        Task<?>[] bigger = new Task<?>[old.length << 1];
        // unroll the ring: head..end, then 0..tail
        int firstPart = old.length - head;
        System.arraycopy(old, head, bigger, 0, firstPart);
        System.arraycopy(old, 0, bigger, firstPart, head);
        Arrays.fill(old, null);
        ring = bigger;
        mask = bigger.length - 1;
        head = 0;
        tail = old.length;
    }
}
