package io.tickwork.primitives.queue;

import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * An unbounded FIFO of {@code long}s (up to {@link Integer#MAX_VALUE} of them) stored in a linked
 * list of fixed-size array chunks; chunks that empty out go back to a {@link ChunkPool} and are
 * reused. A list of n elements holds ceil(n / chunkSize) chunks, or at most one more (only when
 * its head is partway into a chunk), so once it has held ceil(peak / chunkSize) + 1 chunks it allocates nothing
 * more.
 *
 * <p>Why chunks: a linked list of one node per element pays a cache miss per element and an
 * allocation per insert; an array that doubles pays a copy of everything and keeps its peak
 * size forever. Chunks give sequential access within a chunk (one miss per chunk, prefetcher
 * friendly), never copy, and refuse an element only at {@link Integer#MAX_VALUE} of them, not at a
 * capacity as a {@link RingQueue} does. Many lists can
 * share one pool (a timer wheel has one list per slot), so memory follows the total number of
 * elements, not each list's peak. Like {@link RingQueue} it can take back its newest element.
 *
 * <p><b>Cost:</b> every operation is O(1) except {@link #clear}, which walks the list's chunks to
 * give them back (O(size / chunkSize + 1)); {@link #offer} takes a chunk from the pool (allocating
 * one only when the pool is empty) every {@code chunkSize} elements, and into an empty list
 * (which keeps no chunk), {@link #poll} and
 * {@link #removeLast} give one back. The pool keeps every chunk it was given: its memory is the
 * peak number of chunks in use at once.
 *
 * <p><b>Thread safety:</b> none; one thread owns a list and its pool.
 */
public final class LinkedArrayList implements LongQueue {

    /**
     * Recycled chunks shared by any number of lists on the same thread. Keeps every chunk it gets
     * back (so the steady state allocates nothing); memory is the peak chunk count times
     * {@code chunkSize * 8 + 40} bytes (the array, its header and the chunk's links, with
     * compressed references). Not thread safe.
     */
    public static final class ChunkPool {
        private static final int MAX_CHUNK_SIZE = 1 << 30;

        private final int chunkSize;
        private Chunk free;
        private int pooled;

        /**
         * @param chunkSize elements per chunk, from 1 to 2^30 (as {@link RingQueue}'s capacity)
         * @throws IllegalArgumentException if {@code chunkSize} is out of that range
         */
        public ChunkPool(int chunkSize) {
            if (chunkSize < 1 || chunkSize > MAX_CHUNK_SIZE) {
                throw new IllegalArgumentException("chunkSize must be in [1, 2^30]: " + chunkSize);
            }
            this.chunkSize = chunkSize;
        }

        /** The length of every chunk this pool hands out. */
        public int chunkSize() {
            return chunkSize;
        }

        /** How many chunks wait in the pool for reuse. */
        public int pooled() {
            return pooled;
        }

        Chunk take() {
            Chunk c = free;
            if (c == null) {
                return new Chunk(chunkSize);
            }
            free = c.next;
            c.next = null;
            pooled--;
            return c;
        }

        void give(Chunk c) {
            c.prev = null;
            c.next = free;
            free = c;
            pooled++;
        }
    }

    static final class Chunk {
        final long[] items;
        Chunk next;
        /** Only so {@link #removeLast} can step back a chunk. */
        Chunk prev;

        Chunk(int size) {
            items = new long[size];
        }
    }

    private final ChunkPool pool;
    private final int chunkSize;
    /** Null until the first offer and after the list empties (its chunk went back to the pool). */
    private Chunk head;

    private Chunk tail;
    /** Next index to read in {@code head}. */
    private int headIndex;
    /** Next index to write in {@code tail}. */
    private int tailIndex;

    private int size;

    /**
     * A list with its own pool of chunks of {@code chunkSize} elements.
     *
     * @throws IllegalArgumentException if {@code chunkSize} is not in {@code [1, 2^30]}
     */
    public LinkedArrayList(int chunkSize) {
        this(new ChunkPool(chunkSize));
    }

    /**
     * A list that takes its chunks from, and returns them to, {@code pool}.
     *
     * @throws NullPointerException if {@code pool} is null
     */
    public LinkedArrayList(ChunkPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.chunkSize = pool.chunkSize;
    }

    /**
     * Appends {@code value} and returns {@code true}; returns {@code false} (and changes nothing)
     * only when the list already holds {@link Integer#MAX_VALUE} elements, the most its
     * {@link #size()} can count.
     */
    @Override
    public boolean offer(long value) {
        if (size == Integer.MAX_VALUE) {
            return false;
        }
        Chunk t = tail;
        if (t == null) {
            t = pool.take();
            head = tail = t;
            headIndex = tailIndex = 0;
        } else if (tailIndex == chunkSize) {
            Chunk c = pool.take();
            c.prev = t;
            t.next = c;
            tail = t = c;
            tailIndex = 0;
        }
        t.items[tailIndex++] = value;
        size++;
        return true;
    }

    /**
     * Removes and returns the oldest element.
     *
     * @throws NoSuchElementException if the list is empty
     */
    @Override
    public long poll() {
        if (size == 0) {
            throw new NoSuchElementException("LinkedArrayList is empty");
        }
        Chunk h = head;
        long value = h.items[headIndex++];
        if (--size == 0) {
            releaseAll();
        } else if (headIndex == chunkSize) {
            Chunk n = h.next;
            n.prev = null;
            head = n;
            headIndex = 0;
            pool.give(h);
        }
        return value;
    }

    /**
     * The oldest element, not removed.
     *
     * @throws NoSuchElementException if the list is empty
     */
    @Override
    public long peek() {
        if (size == 0) {
            throw new NoSuchElementException("LinkedArrayList is empty");
        }
        return head.items[headIndex];
    }

    /**
     * The newest element, not removed.
     *
     * @throws NoSuchElementException if the list is empty
     */
    @Override
    public long peekLast() {
        if (size == 0) {
            throw new NoSuchElementException("LinkedArrayList is empty");
        }
        return tail.items[tailIndex - 1];
    }

    /**
     * Removes and returns the newest element (undoes the last accepted {@link #offer}).
     *
     * @throws NoSuchElementException if the list is empty
     */
    @Override
    public long removeLast() {
        if (size == 0) {
            throw new NoSuchElementException("LinkedArrayList is empty");
        }
        Chunk t = tail;
        long value = t.items[--tailIndex];
        if (--size == 0) {
            releaseAll();
        } else if (tailIndex == 0) {
            Chunk p = t.prev;
            p.next = null;
            tail = p;
            tailIndex = chunkSize;
            pool.give(t);
        }
        return value;
    }

    /** Empty: the one remaining chunk goes back to the pool, so idle lists hold no memory. */
    private void releaseAll() {
        pool.give(head);
        head = tail = null;
        headIndex = tailIndex = 0;
    }

    /** How many elements are queued. */
    @Override
    public int size() {
        return size;
    }

    /** {@code size() == 0}. */
    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    /** Forgets every element and gives every chunk back to the pool: O(size / chunkSize + 1), not O(1). */
    @Override
    public void clear() {
        Chunk c = head;
        while (c != null) {
            Chunk n = c.next;
            pool.give(c);
            c = n;
        }
        head = tail = null;
        headIndex = tailIndex = 0;
        size = 0;
    }

    /** {@code LinkedArrayList[size=S, chunkSize=C]}. */
    @Override
    public String toString() {
        return "LinkedArrayList[size=" + size + ", chunkSize=" + pool.chunkSize() + "]";
    }
}
