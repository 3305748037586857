package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The recycling hazard of {@link KeyedSerialExecutor}: a lane retired while some thread still
 * refers to it, then reused for another key, must never receive a task of its old key. All keys
 * here share one stripe, so its free list (16 lanes) is reused all the time by keys that keep
 * going idle and coming back, under several producers and a pool of 4; every task checks mutual
 * exclusion of its key and that it is exactly the next task of its (producer, key) pair. A task
 * appended to a recycled lane shows up as an overlap (its key runs on two lanes) or a gap.
 */
class KeyedLaneRecyclingStressTest {
    private static final int PRODUCERS = 4;
    private static final int TASKS_PER_PRODUCER = 200_000;
    private static final int KEYS = 512;
    /** Producers pause together every ROUND tasks, so workers leave and retire every idle lane. */
    private static final int ROUND = 2_000;

    @Test
    void recycledLanesNeverMixKeys() throws Exception {
        int[] keys = new int[KEYS];
        for (int candidate = 0, n = 0; n < KEYS; candidate++) {
            if (KeyedSerialExecutor.stripeOf(candidate) == 0) {
                keys[n++] = candidate;
            }
        }
        ExecutorService pool = Pools.threadPool(4);
        ExecutorService producers = Pools.threadPool(PRODUCERS);
        KeyedSerialExecutor<Integer> keyed = new KeyedSerialExecutor<>(pool, 4, null);
        AtomicInteger[] inFlight = new AtomicInteger[KEYS];
        int[][] lastSeq = new int[KEYS][PRODUCERS];
        for (int k = 0; k < KEYS; k++) {
            inFlight[k] = new AtomicInteger();
            java.util.Arrays.fill(lastSeq[k], -1);
        }
        AtomicLong overlaps = new AtomicLong();
        AtomicLong outOfSequence = new AtomicLong();
        AtomicLong[] completedBy = new AtomicLong[PRODUCERS];
        int[][] submitted = new int[PRODUCERS][KEYS];
        CyclicBarrier together = new CyclicBarrier(PRODUCERS);
        List<Future<?>> running = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            AtomicLong completed = completedBy[p] = new AtomicLong();
            running.add(producers.submit(() -> {
                SplittableRandom random = new SplittableRandom(7 + producer);
                together.await();
                for (int i = 0; i < TASKS_PER_PRODUCER; i++) {
                    if (i % ROUND == 0) {
                        awaitCompleted(completed, i);
                        together.await(30, TimeUnit.SECONDS);
                    }
                    int k = random.nextInt(KEYS);
                    int seq = submitted[producer][k]++;
                    keyed.execute(keys[k], () -> {
                        if (inFlight[k].incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        if (lastSeq[k][producer] != seq - 1) {
                            outOfSequence.incrementAndGet();
                        }
                        lastSeq[k][producer] = seq;
                        inFlight[k].decrementAndGet();
                        completed.incrementAndGet();
                    });
                }
                awaitCompleted(completed, TASKS_PER_PRODUCER);
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get(120, TimeUnit.SECONDS);
        }
        Pools.shutdownAndAwait(pool);
        Pools.shutdownAndAwait(producers);
        assertEquals(0, overlaps.get(), "overlapping runs of a key");
        assertEquals(0, outOfSequence.get(), "tasks out of sequence (reordered, lost, duplicated or mixed)");
        for (int k = 0; k < KEYS; k++) {
            for (int p = 0; p < PRODUCERS; p++) {
                assertEquals(submitted[p][k] - 1, lastSeq[k][p], "key " + keys[k] + " producer " + p);
            }
        }
        assertEquals(0, keyed.activeKeys(), "idle keys still registered");
        long reused = keyed.lanesReused();
        assertTrue(reused > 1_000, () -> "the free list was hardly exercised: " + reused + " reuses");
    }

    /** Bounded wait (hang detection, not timing). */
    private static void awaitCompleted(AtomicLong completed, long expected) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (completed.get() < expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("stranded: " + completed.get() + " of " + expected + " tasks ran");
            }
            Thread.yield();
        }
    }
}
