package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher shares its pool: a worker gives its pool thread back after about {@code budget}
 * tasks in total, counted in tasks whatever the lanes they came from, so work queued on the same
 * pool by others runs between them.
 */
class SharedPoolTest {

    @Test
    void otherWorkOnThePoolRunsAfterAboutBudgetTasks() throws Exception {
        int budget = 16;
        int keys = 64;
        int tasksPerKey = 10;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            KeyedSerialExecutor<Integer> keyed = new KeyedSerialExecutor<>(pool, budget, null, 1);
            CountDownLatch gate = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            // Every lane is short (10 tasks) and goes idle after its drain: counted in lanes, a
            // worker would run 16 lanes (160 tasks) before giving its thread back.
            AtomicInteger ran = new AtomicInteger();
            CountDownLatch all = new CountDownLatch(keys * tasksPerKey);
            for (int k = 0; k < keys; k++) {
                for (int i = 0; i < tasksPerKey; i++) {
                    keyed.execute(k, () -> {
                        ran.incrementAndGet();
                        all.countDown();
                    });
                }
            }
            int[] seenByOtherWork = {-1};
            CountDownLatch otherRan = new CountDownLatch(1);
            pool.execute(() -> {
                seenByOtherWork[0] = ran.get();
                otherRan.countDown();
            });
            gate.countDown();
            assertTrue(otherRan.await(10, TimeUnit.SECONDS), "the other work never ran");
            assertTrue(all.await(10, TimeUnit.SECONDS), "keyed tasks still pending");
            assertTrue(
                    seenByOtherWork[0] <= budget + tasksPerKey,
                    "the pool's other work waited for " + seenByOtherWork[0] + " keyed tasks (budget " + budget + ")");
            assertEquals(keys * tasksPerKey, ran.get());
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }
}
