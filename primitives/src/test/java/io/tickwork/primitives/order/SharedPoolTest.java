package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher shares its pool: a worker gives its pool thread back after about {@code budget}
 * tasks in total, counted in tasks whatever the lanes they came from, so work queued on the same
 * pool by others runs between them. On a {@code ForkJoinPool}, whose workers run their own deque
 * first, the worker runs the pool's next other task in place instead of resubmitting itself.
 */
class SharedPoolTest {

    @Test
    void otherWorkOnThePoolRunsAfterAboutBudgetTasks() throws Exception {
        int budget = 16;
        int keys = 64;
        int tasksPerKey = 10;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.builder(pool)
                    .fairnessBudget(budget)
                    .maxConcurrentKeys(1)
                    .build();
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
            assertOtherWorkWaitedAtMostOneLane(otherRan, all, seenByOtherWork, ran, budget, tasksPerKey, keys);
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }
    /**
     * A ForkJoinPool worker that resubmitted itself would run again at once (its own deque comes
     * first) and the other work would wait for all 640 keyed tasks, whether that work was queued
     * from inside the pool (onto the worker's deque, as a task forking follow-up work does) or
     * from outside (a submission queue).
     */
    @Test
    void onAForkJoinPoolOtherWorkQueuedFromInsideRunsAfterAboutBudgetTasks() throws Exception {
        assertOtherForkJoinWorkRunsSoon(true);
    }

    @Test
    void onAForkJoinPoolOtherWorkSubmittedFromOutsideRunsAfterAboutBudgetTasks() throws Exception {
        assertOtherForkJoinWorkRunsSoon(false);
    }

    private static void assertOtherForkJoinWorkRunsSoon(boolean fromInside) throws Exception {
        int budget = 16;
        int keys = 64;
        int tasksPerKey = 10;
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.builder(pool)
                    .fairnessBudget(budget)
                    .maxConcurrentKeys(1)
                    .build();
            AtomicInteger ran = new AtomicInteger();
            CountDownLatch all = new CountDownLatch(keys * tasksPerKey);
            int[] seenByOtherWork = {-1};
            CountDownLatch otherRan = new CountDownLatch(1);
            Runnable other = () -> {
                seenByOtherWork[0] = ran.get();
                otherRan.countDown();
            };
            CountDownLatch queued = new CountDownLatch(1);
            for (int k = 0; k < keys; k++) {
                for (int i = 0; i < tasksPerKey; i++) {
                    boolean first = k == 0 && i == 0;
                    keyed.execute(k, () -> {
                        if (first) {
                            awaitQuietly(queued); // every keyed task is queued before the other work
                            if (fromInside) {
                                pool.execute(other); // from a pool thread: onto its own deque
                            }
                        }
                        ran.incrementAndGet();
                        all.countDown();
                    });
                }
            }
            if (!fromInside) {
                pool.execute(other);
            }
            queued.countDown();
            assertOtherWorkWaitedAtMostOneLane(otherRan, all, seenByOtherWork, ran, budget, tasksPerKey, keys);
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    /** Other work run in place that throws reaches the pool thread's handler; keyed work goes on. */
    @Test
    void otherWorkThatThrowsOnAForkJoinPoolIsReportedAndKeyedTasksGoOn() throws Exception {
        int keys = 64;
        int tasksPerKey = 10;
        CountDownLatch reported = new CountDownLatch(1);
        ForkJoinPool pool = new ForkJoinPool(
                1,
                ForkJoinPool.defaultForkJoinWorkerThreadFactory,
                (thread, failure) -> {
                    if ("other work failed".equals(failure.getMessage())) {
                        reported.countDown();
                    }
                },
                false);
        try {
            KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.builder(pool)
                    .fairnessBudget(16)
                    .maxConcurrentKeys(1)
                    .build();
            CountDownLatch all = new CountDownLatch(keys * tasksPerKey);
            CountDownLatch queued = new CountDownLatch(1);
            for (int k = 0; k < keys; k++) {
                for (int i = 0; i < tasksPerKey; i++) {
                    boolean first = k == 0 && i == 0;
                    keyed.execute(k, () -> {
                        if (first) {
                            awaitQuietly(queued);
                            pool.execute(() -> {
                                throw new IllegalStateException("other work failed");
                            });
                        }
                        all.countDown();
                    });
                }
            }
            queued.countDown();
            assertTrue(reported.await(10, TimeUnit.SECONDS), "the failure never reached the handler");
            assertTrue(all.await(10, TimeUnit.SECONDS), "keyed tasks stalled behind the failed task");
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    /**
     * The other work ran, every keyed task ran once, and the other work had waited for at most
     * {@code budget} keyed tasks plus the rest of the lane the worker was draining.
     */
    private static void assertOtherWorkWaitedAtMostOneLane(
            CountDownLatch otherRan,
            CountDownLatch all,
            int[] seenByOtherWork,
            AtomicInteger ran,
            int budget,
            int tasksPerKey,
            int keys)
            throws InterruptedException {
        assertTrue(otherRan.await(10, TimeUnit.SECONDS), "the other work never ran");
        assertTrue(all.await(10, TimeUnit.SECONDS), "keyed tasks still pending");
        assertTrue(
                seenByOtherWork[0] <= budget + tasksPerKey,
                "the pool's other work waited for " + seenByOtherWork[0] + " keyed tasks (budget " + budget + ")");
        assertEquals(keys * tasksPerKey, ran.get());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
