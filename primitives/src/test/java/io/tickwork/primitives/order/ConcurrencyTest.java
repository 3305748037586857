package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Keys run in parallel as far as the pool allows, never less by default: proved with barriers that
 * every party must reach at once (a cap below the pool's capacity deadlocks them), not with timing.
 */
class ConcurrencyTest {
    private static final long AWAIT_SECONDS = 60;

    /** N keys whose one task each waits for all N at a barrier: all N must run at once. */
    static void allKeysReachOneBarrier(KeyedSerialExecutor<Integer> keyed, int keys) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(keys);
        AtomicInteger through = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(keys);
        for (int k = 0; k < keys; k++) {
            keyed.execute(k, () -> {
                try {
                    barrier.await(AWAIT_SECONDS, TimeUnit.SECONDS);
                    through.incrementAndGet();
                } catch (Exception e) {
                    // broken or timed out: counted as not through
                } finally {
                    done.countDown();
                }
            });
        }
        assertTrue(done.await(2 * AWAIT_SECONDS, TimeUnit.SECONDS), "tasks never finished");
        assertEquals(keys, through.get(), "keys that reached the " + keys + "-party barrier together");
    }

    @Test
    void onACachedPoolEveryReadyKeyRunsAtOnce() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            allKeysReachOneBarrier(KeyedSerialExecutor.create(pool), 256);
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    @Test
    void onAFixedPoolAsManyKeysRunAtOnceAsItHasThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(24);
        try {
            KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
            assertTrue(keyed.toString().contains("workers 0 of 24"), keyed::toString);
            allKeysReachOneBarrier(keyed, 24);
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    @Test
    void onAForkJoinPoolAsManyKeysRunAtOnceAsItsParallelism() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(12);
        try {
            allKeysReachOneBarrier(KeyedSerialExecutor.create(pool), 12);
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    @Test
    void theDefaultIsThePoolsCapacity() {
        assertTrue(
                limitOf(new ThreadPoolExecutor(3, 9, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>()))
                        .endsWith("of 3"),
                "an unbounded queue: the pool never grows past its core");
        assertTrue(
                limitOf(new ThreadPoolExecutor(3, 9, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(10)))
                        .endsWith("of 3"),
                "a bounded queue: the pool grows past its core only when the queue is full, which the"
                        + " executor's one waiting worker never makes it");
        LinkedBlockingQueue<Runnable> holding = new LinkedBlockingQueue<>();
        holding.add(() -> {});
        assertTrue(
                limitOf(new ThreadPoolExecutor(3, 9, 1, TimeUnit.SECONDS, holding))
                        .endsWith("of 3"),
                "an unbounded queue that already holds a task is still unbounded");
        assertTrue(limitOf(new ThreadPoolExecutor(0, 5, 1, TimeUnit.SECONDS, new SynchronousQueue<>()))
                .endsWith("of 5"));
        assertTrue(limitOf(new ForkJoinPool(7)).endsWith("of 7"));
        assertTrue(limitOf(Executors.newCachedThreadPool()).endsWith("of unbounded"));
        assertTrue(limitOf(Executors.newSingleThreadExecutor()).endsWith("of 1"), "one thread behind a wrapper");
        assertTrue(limitOf(Executors.newSingleThreadScheduledExecutor()).endsWith("of 1"), "the scheduled one too");
        assertTrue(
                limitOf(Executors.unconfigurableExecutorService(Executors.newFixedThreadPool(2)))
                        .endsWith("of unbounded"),
                "a wrapper hides its pool: give it maxConcurrentKeys");
        assertTrue(limitOf(Runnable::run).endsWith("of unbounded"));
    }

    private static String limitOf(java.util.concurrent.Executor pool) {
        String s = KeyedSerialExecutor.create(pool).toString();
        if (pool instanceof ExecutorService service) {
            service.shutdown();
        }
        return s.substring(s.indexOf("workers 0"), s.lastIndexOf(','));
    }

    /** An explicit lower limit holds: never more keys at once, and that many do run at once. */
    @Test
    void maxConcurrentKeysLowersTheLimit() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            int limit = 4;
            KeyedSerialExecutor<Integer> keyed =
                    KeyedSerialExecutor.builder(pool).maxConcurrentKeys(limit).build();
            AtomicInteger running = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            CyclicBarrier inGroupsOfLimit = new CyclicBarrier(limit);
            int keys = 64;
            CountDownLatch done = new CountDownLatch(keys);
            AtomicInteger broken = new AtomicInteger();
            for (int k = 0; k < keys; k++) {
                keyed.execute(k, () -> {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    try {
                        inGroupsOfLimit.await(AWAIT_SECONDS, TimeUnit.SECONDS); // needs `limit` keys at once
                    } catch (Exception e) {
                        broken.incrementAndGet();
                    } finally {
                        running.decrementAndGet();
                        done.countDown();
                    }
                });
            }
            assertTrue(done.await(2 * AWAIT_SECONDS, TimeUnit.SECONDS));
            assertEquals(0, broken.get(), "a group of " + limit + " keys could not run at once");
            assertEquals(limit, most.get(), "keys running at once");
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    /** A key whose task blocks holds one pool thread; another key's tasks run meanwhile. */
    @Test
    void aBlockedKeyDoesNotHoldUpAnotherKey() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        try {
            KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch otherRan = new CountDownLatch(100);
            keyed.execute("blocked", () -> SerialGuaranteesTest.awaitUninterruptibly(release));
            for (int i = 0; i < 100; i++) {
                keyed.execute("other", otherRan::countDown);
            }
            assertTrue(otherRan.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the other key waited for the blocked one");
            release.countDown();
            keyed.close();
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }
}
