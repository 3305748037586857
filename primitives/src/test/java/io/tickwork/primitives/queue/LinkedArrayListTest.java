package io.tickwork.primitives.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.NoSuchElementException;
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
    void clearGivesEveryChunkBack() {
        LinkedArrayList.ChunkPool pool = new LinkedArrayList.ChunkPool(4);
        LinkedArrayList list = new LinkedArrayList(pool);
        for (int i = 0; i < 10; i++) {
            list.offer(i); // chunks [0..3] [4..7] [8, 9]
        }
        assertEquals(0, pool.pooled());
        list.clear();
        assertEquals(3, pool.pooled(), "a cleared list holds no chunk");
        list.clear();
        assertEquals(3, pool.pooled(), "clearing an empty list gives nothing twice");
        assertThrows(NoSuchElementException.class, list::poll);
        list.offer(42);
        assertEquals(2, pool.pooled(), "the next offer takes a pooled chunk");
        assertEquals(42, list.poll());
    }

    @Test
    void removeLastGivesChunksBack() {
        LinkedArrayList.ChunkPool pool = new LinkedArrayList.ChunkPool(4);
        LinkedArrayList list = new LinkedArrayList(pool);
        for (int i = 0; i < 10; i++) {
            list.offer(i); // chunks [0..3] [4..7] [8, 9]
        }
        for (int i = 9; i >= 4; i--) {
            assertEquals(i, list.removeLast());
        }
        assertEquals(2, pool.pooled(), "the two emptied tail chunks");
        for (int i = 3; i >= 0; i--) {
            assertEquals(i, list.removeLast());
        }
        assertEquals(3, pool.pooled(), "an emptied list holds no chunk");
        assertTrue(list.isEmpty());
    }

    @Test
    void anUnboundedListRefusesAnOfferAtIntegerMaxValueElements() throws ReflectiveOperationException {
        // 2^31 - 1 real elements need 16 GiB: the count is set directly
        LinkedArrayList.ChunkPool pool = new LinkedArrayList.ChunkPool(4);
        LinkedArrayList list = new LinkedArrayList(pool);
        list.offer(0);
        list.poll(); // its chunk goes back: one pooled
        Field size = LinkedArrayList.class.getDeclaredField("size");
        size.setAccessible(true);
        size.setInt(list, Integer.MAX_VALUE);
        assertFalse(list.offer(1));
        assertEquals(Integer.MAX_VALUE, list.size());
        assertEquals(1, pool.pooled(), "the refused offer took no chunk");
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

    /**
     * A list of n elements holds ceil(n / chunkSize) chunks, or one more when its head is partway
     * into a chunk (what {@code clear} gives back tells): 4 offered, 2 polled, 2 offered hold two.
     */
    @Test
    void aListHoldsItsElementsChunksOrOneMore() {
        LinkedArrayList.ChunkPool pool = new LinkedArrayList.ChunkPool(4);
        LinkedArrayList list = new LinkedArrayList(pool);
        for (long v : new long[] {1, 2, 3, 4}) {
            list.offer(v);
        }
        list.poll();
        list.poll();
        list.offer(5);
        list.offer(6);
        list.clear();
        assertEquals(2, pool.pooled(), "4 elements, head partway into a chunk");
        SplittableRandom rnd = new SplittableRandom(11);
        for (int run = 0; run < 2_000; run++) {
            int chunkSize = 1 + rnd.nextInt(8);
            LinkedArrayList.ChunkPool p = new LinkedArrayList.ChunkPool(chunkSize);
            LinkedArrayList l = new LinkedArrayList(p);
            for (int op = rnd.nextInt(100); op > 0; op--) {
                if (l.isEmpty() || rnd.nextInt(3) != 0) {
                    l.offer(op);
                } else if (rnd.nextBoolean()) {
                    l.poll();
                } else {
                    l.removeLast();
                }
            }
            int n = l.size();
            int before = p.pooled();
            l.clear();
            int held = p.pooled() - before;
            int least = (n + chunkSize - 1) / chunkSize;
            assertTrue(
                    held == least || held == least + 1 && n > 0,
                    () -> n + " elements of chunk size " + chunkSize + " held " + held + " chunks");
        }
    }

    @Test
    void aNullPoolIsNamed() {
        NullPointerException e =
                assertThrows(NullPointerException.class, () -> new LinkedArrayList((LinkedArrayList.ChunkPool) null));
        assertEquals("pool", e.getMessage());
    }
}
