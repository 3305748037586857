package io.tickwork.primitives.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayDeque;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link LinkedArrayList} against an {@link ArrayDeque} model, and its chunk recycling. */
class LinkedArrayListTest {

    @Test
    void matchesArrayDequeModel() {
        for (long seed = 0; seed < 500; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int chunk = 1 + rnd.nextInt(9);
            LinkedArrayList.ChunkPool pool = new LinkedArrayList.ChunkPool(chunk);
            LinkedArrayList a = new LinkedArrayList(pool);
            LinkedArrayList b = new LinkedArrayList(pool); // shares the pool
            ArrayDeque<Long> ma = new ArrayDeque<>();
            ArrayDeque<Long> mb = new ArrayDeque<>();
            String where = "seed=" + seed + " chunk=" + chunk;
            for (int op = 0; op < 600; op++) {
                boolean first = rnd.nextBoolean();
                LinkedArrayList q = first ? a : b;
                ArrayDeque<Long> model = first ? ma : mb;
                int r = rnd.nextInt(100);
                if (r < 50) {
                    long v = rnd.nextLong();
                    q.offer(v);
                    model.addLast(v);
                } else if (r < 75) {
                    if (model.isEmpty()) {
                        assertThrows(NoSuchElementException.class, q::poll, where);
                    } else {
                        assertEquals((long) model.pollFirst(), q.poll(), where + " poll");
                    }
                } else if (r < 88) {
                    if (model.isEmpty()) {
                        assertThrows(NoSuchElementException.class, q::removeLast, where);
                    } else {
                        assertEquals((long) model.pollLast(), q.removeLast(), where + " removeLast");
                    }
                } else if (r < 98) {
                    if (!model.isEmpty()) {
                        assertEquals((long) model.peekFirst(), q.peek(), where + " peek");
                        assertEquals((long) model.peekLast(), q.peekLast(), where + " peekLast");
                    } else {
                        assertThrows(NoSuchElementException.class, q::peekLast, where);
                    }
                } else {
                    q.clear();
                    model.clear();
                }
                assertEquals(model.size(), q.size(), where + " size");
            }
            // cleared lists hold no chunk; refilling takes chunks from the pool, one per chunk of elements
            a.clear();
            b.clear();
            int pooled = pool.pooled();
            int k = Math.min(pooled, 3);
            for (int i = 0; i < k * chunk; i++) {
                a.offer(i);
            }
            assertEquals(pooled - k, pool.pooled(), where + " refill took pooled chunks");
        }
    }

    @Test
    void chunksAreRecycledNotReallocated() {
        LinkedArrayList.ChunkPool pool = new LinkedArrayList.ChunkPool(10);
        LinkedArrayList list = new LinkedArrayList(pool);
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 100; i++) {
                list.offer(i);
            }
            assertEquals(0, pool.pooled(), "all chunks in use");
            for (int i = 0; i < 100; i++) {
                assertEquals(i, list.poll());
            }
            assertEquals(10, pool.pooled(), "round " + round + ": the same 10 chunks come back");
        }
    }

    @Test
    void rejectsBadChunkSizeNamingIt() {
        assertEquals(
                "chunkSize must be >= 1: 0",
                assertThrows(IllegalArgumentException.class, () -> new LinkedArrayList(0))
                        .getMessage());
    }
}
