package io.tickwork.primitives.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What only {@link LinkedArrayList} promises: chunk recycling through its pool; the FIFO contract
 * is in {@link LongQueueContractTest}.
 */
class LinkedArrayListTest {

    @Test
    void clearedListsHoldNoChunkAndRefillTakesPooledChunks() {
        for (long seed = 0; seed < LongQueueContractTest.SEEDS; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            LinkedArrayList.ChunkPool pool = LongQueueContractTest.newPool(rnd);
            LongQueueContractTest.Pair p = LongQueueContractTest.linkedArrayLists(pool);
            String where = "seed=" + seed + " " + p.where;
            LongQueueContractTest.runAgainstModel(rnd, p, where);
            // cleared lists hold no chunk; refilling takes chunks from the pool, one per chunk of elements
            p.a.clear();
            p.b.clear();
            int chunk = pool.chunkSize();
            int pooled = pool.pooled();
            int k = Math.min(pooled, 3);
            for (int i = 0; i < k * chunk; i++) {
                p.a.offer(i);
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
                "chunkSize must be in [1, 2^30]: 0",
                assertThrows(IllegalArgumentException.class, () -> new LinkedArrayList(0))
                        .getMessage());
        assertEquals(
                "chunkSize must be in [1, 2^30]: 1073741825",
                assertThrows(IllegalArgumentException.class, () -> new LinkedArrayList.ChunkPool((1 << 30) + 1))
                        .getMessage());
        assertEquals(1 << 30, new LinkedArrayList.ChunkPool(1 << 30).chunkSize()); // no chunk until the first offer
    }
}
