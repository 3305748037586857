package io.tickwork.primitives.queue;

import java.util.NoSuchElementException;

/**
 * A bounded FIFO of {@code long}s in one circular array: {@link #offer} fails instead of growing.
 *
 * <p>Elements are primitive so that a timer wheel can keep handles, indices or packed pairs in it
 * without boxing; a queue allocates once, in its constructor, and never again. Besides the FIFO
 * operations it can take back the element it accepted last ({@link #peekLast}, {@link #removeLast}),
 * which lets a timer wheel undo a schedule that is cancelled before anything else was added
 * (the idle-timeout pattern) without leaving a tombstone behind.
 *
 * <p><b>Cost:</b> every operation is O(1) with no allocation: an index masked into an array whose
 * length is the capacity rounded up to a power of two (so wrapping is an {@code &}, not a division
 * or a branch). {@link #capacity()} is the exact bound asked for, not the rounded length.
 * Memory: 8 bytes per element of that length, allocated in the constructor, so a capacity just
 * above a power of two costs almost twice the bytes it needs ({@code 2^29 + 1}: 8 GiB); the
 * constructor throws {@link OutOfMemoryError} when the heap cannot hold it.
 *
 * <p><b>Thread safety:</b> none; one thread owns a queue.
 */
public final class RingQueue implements LongQueue {

    private final long[] items;
    private final int mask;
    private final int capacity;
    /** Sequence numbers, not indices: {@code tail - head} is the size even after wrapping. */
    private long head;

    private long tail;

    /**
     * @param capacity the most elements the queue holds at once; at least 1 and at most 2^30
     * @throws IllegalArgumentException if {@code capacity} is out of range
     */
    public RingQueue(int capacity) {
        if (capacity < 1 || capacity > (1 << 30)) {
            throw new IllegalArgumentException("capacity must be in [1, 2^30]: " + capacity);
        }
        this.capacity = capacity;
        int length = Integer.highestOneBit(capacity);
        if (length < capacity) {
            length <<= 1;
        }
        this.items = new long[length];
        this.mask = length - 1;
    }

    /** Appends {@code value}; {@code false} (and no change) if the queue is full. */
    @Override
    public boolean offer(long value) {
        if (tail - head == capacity) {
            return false;
        }
        items[(int) tail & mask] = value;
        tail++;
        return true;
    }

    /**
     * Removes and returns the oldest element.
     *
     * @throws NoSuchElementException if the queue is empty
     */
    @Override
    public long poll() {
        if (head == tail) {
            throw new NoSuchElementException("RingQueue is empty");
        }
        long value = items[(int) head & mask];
        head++;
        return value;
    }

    /**
     * The oldest element, not removed.
     *
     * @throws NoSuchElementException if the queue is empty
     */
    @Override
    public long peek() {
        if (head == tail) {
            throw new NoSuchElementException("RingQueue is empty");
        }
        return items[(int) head & mask];
    }

    /**
     * The newest element, not removed.
     *
     * @throws NoSuchElementException if the queue is empty
     */
    @Override
    public long peekLast() {
        if (head == tail) {
            throw new NoSuchElementException("RingQueue is empty");
        }
        return items[(int) (tail - 1) & mask];
    }

    /**
     * Removes and returns the newest element (undoes the last accepted {@link #offer}).
     *
     * @throws NoSuchElementException if the queue is empty
     */
    @Override
    public long removeLast() {
        if (head == tail) {
            throw new NoSuchElementException("RingQueue is empty");
        }
        tail--;
        return items[(int) tail & mask];
    }

    /** How many elements are queued. */
    @Override
    public int size() {
        return (int) (tail - head);
    }

    /** {@code size() == 0}. */
    @Override
    public boolean isEmpty() {
        return head == tail;
    }

    /** The bound given to the constructor. */
    public int capacity() {
        return capacity;
    }

    /** Forgets every element in O(1); the array is kept. */
    @Override
    public void clear() {
        head = tail;
    }

    /** {@code RingQueue[size=S, capacity=C]}. */
    @Override
    public String toString() {
        return "RingQueue[size=" + size() + ", capacity=" + capacity + "]";
    }
}
