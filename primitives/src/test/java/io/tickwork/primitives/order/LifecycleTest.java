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
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Shutdown, close, termination and flush, as the class comment states them. */
class LifecycleTest {
    private static final long AWAIT_SECONDS = 60;

    @Test
    void closeWaitsForEveryAcceptedTaskAndLeavesThePoolRunning() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        try {
            KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
            AtomicInteger ran = new AtomicInteger();
            for (int i = 0; i < 50_000; i++) {
                keyed.execute(i % 100, ran::incrementAndGet);
            }
            keyed.close();
            assertEquals(50_000, ran.get());
            assertTrue(keyed.isShutdown());
            assertTrue(keyed.isTerminated());
            assertFalse(pool.isShutdown(), "the executor shut down a pool it does not own");
            KeyedSerialExecutor.Stats stats = keyed.stats();
            assertEquals(new KeyedSerialExecutor.Stats(0, 0, 0, 50_000, 0, 0, stats.workers()), stats);
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    @Test
    void afterShutdownExecuteIsRejectedAndQueuedTasksStillRun() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        try {
            KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
            CountDownLatch release = new CountDownLatch(1);
            List<String> log = Collections.synchronizedList(new ArrayList<>());
            AtomicReference<Throwable> fromTask = new AtomicReference<>();
            keyed.execute("a", () -> SerialGuaranteesTest.awaitUninterruptibly(release));
            keyed.execute("a", () -> {
                log.add("queued before shutdown");
                try {
                    keyed.execute("b", () -> log.add("submitted by a task after shutdown"));
                } catch (Throwable e) {
                    fromTask.set(e);
                }
            });
            keyed.shutdown();
            assertTrue(keyed.isShutdown());
            assertFalse(keyed.isTerminated(), "terminated with tasks queued");
            assertFalse(keyed.awaitTermination(10, TimeUnit.MILLISECONDS));
            RejectedExecutionException e =
                    assertThrows(RejectedExecutionException.class, () -> keyed.execute("a", () -> log.add("late")));
            assertEquals("the executor is shut down", e.getMessage());
            assertThrows(RejectedExecutionException.class, () -> keyed.execute("new key", () -> log.add("late")));
            release.countDown();
            assertTrue(keyed.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS));
            assertEquals(List.of("queued before shutdown"), log);
            assertTrue(fromTask.get() instanceof RejectedExecutionException, () -> "from the task: " + fromTask.get());
            assertEquals(3, keyed.stats().rejectedTasks());
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    @Test
    void anIdleExecutorTerminatesAtShutdown() {
        KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(Runnable::run);
        keyed.execute("a", () -> {});
        keyed.shutdown();
        assertTrue(keyed.isTerminated());
        keyed.close(); // idempotent
        assertTrue(keyed.toString().startsWith("KeyedSerialExecutor[terminated,"), keyed::toString);
    }

    /** toString names the pool's class; an anonymous one by its full name, not an empty one. */
    @Test
    void toStringNamesThePoolEvenAnAnonymousOne() {
        Executor direct = new Executor() {
            @Override
            public void execute(Runnable command) {
                command.run();
            }
        };
        KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(direct);
        keyed.close();
        assertTrue(keyed.toString().endsWith(", " + direct.getClass().getName() + "]"), keyed::toString);
        ThreadPoolExecutor named = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        try {
            KeyedSerialExecutor<String> onPool = KeyedSerialExecutor.create(named);
            onPool.close();
            assertTrue(onPool.toString().endsWith(", workers 0 of 1, ThreadPoolExecutor]"), onPool::toString);
        } finally {
            named.shutdown();
        }
    }

    @Test
    void closeFromOneOfItsOwnTasksDoesNotWaitForItself() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        try {
            KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
            CountDownLatch closed = new CountDownLatch(1);
            keyed.execute("a", () -> {
                keyed.close();
                closed.countDown();
            });
            assertTrue(closed.await(AWAIT_SECONDS, TimeUnit.SECONDS), "close() inside a task waited for itself");
            assertTrue(keyed.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS));
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    /**
     * A key whose last task ends while another key waits for the only worker goes to the back of
     * the queue still open (it may get more tasks soon: a deferral, not a close). Nothing of it is
     * queued or running then, so {@code stats()} does not count it as a key with work.
     */
    @Test
    void aKeyDeferredOpenWithNothingLeftIsNotCountedAsAKeyWithWork() throws Exception {
        ExecutorService pool = Pools.threadPool(1);
        CountDownLatch releaseA = new CountDownLatch(1);
        CountDownLatch releaseB = new CountDownLatch(1);
        try {
            KeyedSerialExecutor<String> keyed =
                    KeyedSerialExecutor.builder(pool).maxConcurrentKeys(1).build();
            CountDownLatch aStarted = new CountDownLatch(1);
            CountDownLatch bStarted = new CountDownLatch(1);
            keyed.execute("a", SerialGuaranteesTest.holdUntil(aStarted, releaseA));
            assertTrue(aStarted.await(AWAIT_SECONDS, TimeUnit.SECONDS));
            keyed.execute("b", SerialGuaranteesTest.holdUntil(bStarted, releaseB));
            assertEquals(2, keyed.stats().keysWithWork(), "a running, b queued");
            releaseA.countDown(); // a's only task ends while b waits: a is deferred, open, behind b
            assertTrue(bStarted.await(AWAIT_SECONDS, TimeUnit.SECONDS));
            assertEquals(1, keyed.stats().keysWithWork(), () -> "only b has work: " + keyed);
            releaseB.countDown();
            keyed.close();
            assertEquals(0, keyed.stats().keysWithWork(), () -> keyed.toString());
        } finally {
            releaseA.countDown();
            releaseB.countDown();
            Pools.shutdownAndAwait(pool);
        }
    }

    @Test
    void awaitTerminationFromOneOfItsOwnTasksThrowsInsteadOfWaitingForItself() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        try {
            KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Throwable> fromTask = new CompletableFuture<>();
            CompletableFuture<Throwable> fromFlushAction = new CompletableFuture<>();
            keyed.execute("a", () -> {
                SerialGuaranteesTest.awaitUninterruptibly(release);
                fromTask.complete(awaitTerminationFailure(keyed));
            });
            CompletableFuture<Void> flushed = keyed.flush("a");
            // added while the task is held, so the worker that completes the flush runs it in place
            flushed.thenRun(() -> fromFlushAction.complete(awaitTerminationFailure(keyed)));
            assertFalse(flushed.isDone(), "flushed while its key's task is held");
            release.countDown();
            Throwable t = fromTask.get(AWAIT_SECONDS, TimeUnit.SECONDS);
            assertTrue(t instanceof IllegalStateException, () -> "from the task: " + t);
            assertTrue(t.getMessage().contains("from a task of this executor"), t::getMessage);
            Throwable f = fromFlushAction.get(AWAIT_SECONDS, TimeUnit.SECONDS);
            assertTrue(f instanceof IllegalStateException, () -> "from a flush action run by the worker: " + f);
            keyed.shutdown();
            assertTrue(keyed.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS), "outside its tasks it still waits");
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    /** What {@code awaitTermination} with a short timeout throws; null if it returns. */
    private static Throwable awaitTerminationFailure(KeyedSerialExecutor<?> keyed) {
        try {
            keyed.awaitTermination(1, TimeUnit.SECONDS);
            return null;
        } catch (Throwable e) {
            return e;
        }
    }

    @Test
    void closeStopsWaitingWhenInterruptedAndTheTasksStillRun() throws Exception {
        ExecutorService pool = Pools.threadPool(1);
        try {
            KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch ran = new CountDownLatch(1);
            keyed.execute("a", () -> SerialGuaranteesTest.awaitUninterruptibly(release));
            keyed.execute("a", ran::countDown);
            Thread.currentThread().interrupt();
            keyed.close();
            assertTrue(Thread.interrupted(), "close() cleared the caller's interrupt");
            assertFalse(keyed.isTerminated());
            release.countDown();
            assertTrue(ran.await(AWAIT_SECONDS, TimeUnit.SECONDS));
            assertTrue(keyed.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS));
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    @Test
    void awaitTerminationThrowsWhenInterruptedWhileTasksRemain() throws Exception {
        ExecutorService pool = Pools.threadPool(1);
        try {
            KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
            CountDownLatch release = new CountDownLatch(1);
            keyed.execute("a", () -> SerialGuaranteesTest.awaitUninterruptibly(release));
            keyed.shutdown();
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> keyed.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS));
            assertFalse(Thread.currentThread().isInterrupted(), "the exception, not the flag, reports the interrupt");
            release.countDown();
            assertTrue(keyed.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS), "the task still ran");
        } finally {
            Thread.interrupted();
            Pools.shutdownAndAwait(pool);
        }
    }

    @Test
    void flushCompletesAfterTheKeysEarlierTasksAndNotBefore() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        try {
            KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
            assertTrue(keyed.flush("idle").isDone(), "a key with nothing queued is flushed at once");
            CountDownLatch release = new CountDownLatch(1);
            List<String> log = Collections.synchronizedList(new ArrayList<>());
            keyed.execute("a", () -> SerialGuaranteesTest.awaitUninterruptibly(release));
            keyed.execute("a", () -> log.add("1"));
            CompletableFuture<Void> flushed = keyed.flush("a").thenRun(() -> log.add("flushed"));
            keyed.execute("a", () -> log.add("2"));
            keyed.shutdown();
            CompletableFuture<Void> afterShutdown = keyed.flush("a");
            assertFalse(flushed.isDone());
            release.countDown();
            flushed.get(AWAIT_SECONDS, TimeUnit.SECONDS);
            afterShutdown.get(AWAIT_SECONDS, TimeUnit.SECONDS);
            assertTrue(keyed.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS));
            assertEquals(List.of("1", "flushed", "2"), log);
            assertEquals(3, keyed.stats().completedTasks(), "flushes are not counted as tasks");
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    @Test
    void executorForRunsUnderItsKey() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        try {
            KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
            List<Integer> log = Collections.synchronizedList(new ArrayList<>());
            CompletableFuture<Integer> f = CompletableFuture.supplyAsync(() -> 41, keyed.executorFor("a"));
            keyed.execute("a", () -> log.add(f.getNow(-1)));
            keyed.close();
            assertEquals(List.of(41), log, "the supplier ran before the key's next task");
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }
}
