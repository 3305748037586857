package io.tickwork.primitives.queue;

import java.util.NoSuchElementException;

/**
 * A FIFO of primitive {@code long}s that can also take back its newest element: the contract
 * {@link RingQueue} (bounded) and {@link LinkedArrayList} (unbounded) share, and that one contract
 * test checks for both.
 *
 * <p><b>Guarantees:</b> {@link #poll} returns elements in the order {@link #offer} accepted them;
 * {@link #removeLast} takes back the newest one (it undoes the last accepted offer). An offer either
 * appends and returns {@code true} or, on a bounded queue that is full, changes nothing and returns
 * {@code false}; an unbounded queue returns {@code true} unless it already holds
 * {@link Integer#MAX_VALUE} elements (then {@code false}, nothing changed). Reading or removing from an empty
 * queue throws {@link NoSuchElementException} (there is no sentinel: every {@code long} is a valid
 * element).
 *
 * <p><b>Cost:</b> every operation is O(1) in both implementations, but {@link LinkedArrayList}'s
 * {@code clear()}, which returns each of its chunks to the pool (O(size / chunk size + 1)); see each
 * for its allocation.
 * Hot paths (the timer wheels) hold the concrete classes, not this interface, so their calls bind
 * statically whatever else is loaded.
 *
 * <p>Equality is identity. {@code toString()} names the class, the size and the bound (capacity
 * or chunk size), never the elements.
 *
 * <p><b>Thread safety:</b> none; one thread owns a queue.
 */
public interface LongQueue {

    /**
     * Appends {@code value}; {@code false} (and no change) if a bounded queue is full, or an
     * unbounded one already holds {@code Integer.MAX_VALUE} elements.
     */
    boolean offer(long value);

    /**
     * Removes and returns the oldest element.
     *
     * @throws NoSuchElementException if the queue is empty
     */
    long poll();

    /**
     * The oldest element, not removed.
     *
     * @throws NoSuchElementException if the queue is empty
     */
    long peek();

    /**
     * The newest element, not removed.
     *
     * @throws NoSuchElementException if the queue is empty
     */
    long peekLast();

    /**
     * Removes and returns the newest element (undoes the last accepted {@link #offer}).
     *
     * @throws NoSuchElementException if the queue is empty
     */
    long removeLast();

    /** How many elements are queued. */
    int size();

    /** {@code size() == 0}. */
    boolean isEmpty();

    /** Forgets every element. */
    void clear();
}
