package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code maxQueuedPerKey}: the tasks waiting behind a key's running task are bounded, exactly. */
class QueueBoundTest {
    private static final long AWAIT_SECONDS = 60;

    @Test
    void theTaskOverTheBoundIsRejectedAndOtherKeysAreNotAffected() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        try {
            KeyedSerialExecutor<String> keyed =
                    KeyedSerialExecutor.builder(pool).maxQueuedPerKey(3).build();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger ran = new AtomicInteger();
            keyed.execute("slow", SerialGuaranteesTest.holdUntil(started, release));
            assertTrue(started.await(AWAIT_SECONDS, TimeUnit.SECONDS)); // running: not counted
            for (int i = 0; i < 3; i++) {
                keyed.execute("slow", ran::incrementAndGet);
            }
            RejectedExecutionException e =
                    assertThrows(RejectedExecutionException.class, () -> keyed.execute("slow", ran::incrementAndGet));
            assertEquals("key slow has 3 tasks waiting (maxQueuedPerKey)", e.getMessage());
            for (int i = 0; i < 3; i++) {
                keyed.execute("other " + i, ran::incrementAndGet);
            }
            KeyedSerialExecutor.Stats stats = keyed.stats();
            assertEquals(3, stats.deepestQueue(), keyed::toString);
            assertTrue(keyed.toString().contains("deepest 3 of 3 (key slow)"), keyed::toString);
            assertEquals("slow", keyed.deepestKey(), "the key whose tasks wait behind a task that holds it");
            assertEquals(1, stats.rejectedTasks());
            release.countDown();
            keyed.flush("slow").get(AWAIT_SECONDS, TimeUnit.SECONDS);
            for (int i = 0; i < 3; i++) {
                keyed.flush("other " + i).get(AWAIT_SECONDS, TimeUnit.SECONDS);
            }
            assertEquals(null, keyed.deepestKey(), keyed::toString); // nothing waits
            assertFalse(keyed.toString().contains("(key"), keyed::toString);
            keyed.execute("slow", ran::incrementAndGet); // room again
            keyed.close();
            assertEquals(7, ran.get());
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    /**
     * Without a queue bound a key's count includes the task running now, so a key whose one task
     * hangs, nothing queued behind it, is what {@code deepestKey()} names; with a bound the count
     * is only the tasks not yet started, and that key is not seen.
     */
    @Test
    void aHungTaskAloneIsCountedWithoutABoundAndNotWithOne() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        try {
            for (boolean bounded : new boolean[] {false, true}) {
                KeyedSerialExecutor.Builder<Object> b = KeyedSerialExecutor.builder(pool);
                if (bounded) {
                    b.maxQueuedPerKey(8);
                }
                KeyedSerialExecutor<String> keyed = b.build();
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                keyed.execute("hung", SerialGuaranteesTest.holdUntil(started, release));
                try {
                    assertTrue(started.await(AWAIT_SECONDS, TimeUnit.SECONDS));
                    KeyedSerialExecutor.Stats stats = keyed.stats();
                    assertEquals(bounded ? 0 : 1, stats.queuedTasks(), keyed::toString);
                    assertEquals(bounded ? null : "hung", keyed.deepestKey(), keyed::toString);
                    assertEquals(1, stats.keysWithWork(), keyed::toString);
                } finally {
                    release.countDown();
                }
                keyed.close();
                assertEquals(0, keyed.stats().queuedTasks());
            }
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    /**
     * A key whose toString() throws, an exception or an error: the rejection is still a
     * RejectedExecutionException, and counted.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aKeyThatCannotBePrintedIsStillRejectedAsSuch(boolean error) throws Exception {
        ExecutorService pool = Pools.threadPool(1);
        Object key = new Object() {
            @Override
            public String toString() {
                if (error) {
                    throw new AssertionError("no name");
                }
                throw new IllegalStateException("no name");
            }
        };
        try {
            KeyedSerialExecutor<Object> keyed =
                    KeyedSerialExecutor.builder(pool).maxQueuedPerKey(1).build();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            keyed.execute(key, SerialGuaranteesTest.holdUntil(started, release));
            assertTrue(started.await(AWAIT_SECONDS, TimeUnit.SECONDS));
            keyed.execute(key, () -> {});
            RejectedExecutionException e =
                    assertThrows(RejectedExecutionException.class, () -> keyed.execute(key, () -> {}));
            assertTrue(
                    e.getMessage()
                            .contains("(its toString() threw java.lang."
                                    + (error ? "AssertionError" : "IllegalStateException") + ") has 1 task waiting"),
                    e.getMessage());
            assertEquals(1, keyed.stats().rejectedTasks());
            release.countDown();
            keyed.close();
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    /** Producers racing for the last places: exactly the bound's worth is accepted, never more. */
    @Test
    void concurrentProducersGetExactlyTheBound() throws Exception {
        ExecutorService pool = Pools.threadPool(1);
        ExecutorService producers = Pools.threadPool(4);
        try {
            int bound = 1_000;
            KeyedSerialExecutor<String> keyed =
                    KeyedSerialExecutor.builder(pool).maxQueuedPerKey(bound).build();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            keyed.execute("k", SerialGuaranteesTest.holdUntil(started, release));
            assertTrue(started.await(AWAIT_SECONDS, TimeUnit.SECONDS));
            AtomicInteger accepted = new AtomicInteger();
            AtomicInteger ran = new AtomicInteger();
            CyclicBarrier go = new CyclicBarrier(4);
            List<Future<?>> all = new ArrayList<>();
            for (int p = 0; p < 4; p++) {
                all.add(producers.submit(() -> {
                    go.await();
                    for (int i = 0; i < bound; i++) {
                        try {
                            keyed.execute("k", ran::incrementAndGet);
                            accepted.incrementAndGet();
                        } catch (RejectedExecutionException full) {
                            // expected for 3 of every 4 attempts
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get(AWAIT_SECONDS, TimeUnit.SECONDS);
            }
            assertEquals(bound, accepted.get());
            assertEquals(bound, keyed.stats().queuedTasks());
            release.countDown();
            keyed.close();
            assertEquals(bound, ran.get());
            assertEquals(3L * bound, keyed.stats().rejectedTasks());
        } finally {
            Pools.shutdownAndAwait(pool);
            Pools.shutdownAndAwait(producers);
        }
    }

    /** Flush markers are not tasks: they neither count against the bound nor as completed tasks. */
    @Test
    void flushMarkersDoNotCountAgainstTheBound() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        KeyedSerialExecutor<String> exec =
                KeyedSerialExecutor.builder(pool).maxQueuedPerKey(2).build();
        CountDownLatch started = new CountDownLatch(1), release = new CountDownLatch(1);
        List<Integer> log = Collections.synchronizedList(new ArrayList<>());
        exec.execute("a", SerialGuaranteesTest.holdUntil(started, release));
        assertTrue(started.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        CompletableFuture<Void> f0 = exec.flush("a");
        exec.execute("a", () -> log.add(1));
        CompletableFuture<Void> f1 = exec.flush("a");
        CompletableFuture<Void> f1b = exec.flush("a");
        exec.execute("a", () -> log.add(2));
        CompletableFuture<Void> f2 = exec.flush("a");
        RejectedExecutionException e =
                assertThrows(RejectedExecutionException.class, () -> exec.execute("a", () -> log.add(3)));
        assertEquals("key a has 2 tasks waiting (maxQueuedPerKey)", e.getMessage());
        assertEquals(2, exec.stats().queuedTasks());
        assertFalse(f0.isDone());
        release.countDown();
        f2.get(AWAIT_SECONDS, TimeUnit.SECONDS);
        assertTrue(f0.isDone() && f1.isDone() && f1b.isDone());
        exec.execute("a", () -> log.add(4));
        exec.execute("a", () -> log.add(5));
        exec.close();
        assertEquals(List.of(1, 2, 4, 5), log);
        assertEquals(5, exec.stats().completedTasks(), exec.toString());
        assertEquals(1, exec.stats().rejectedTasks());
        assertTrue(exec.flush("a").isDone());
        pool.shutdown();
    }
}
