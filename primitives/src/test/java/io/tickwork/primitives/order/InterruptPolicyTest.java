package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The interrupt policy: every task starts with its thread's flag clear; an interrupt found before
 * a task is set again when the pool thread goes back to the pool; a task interrupted while it runs
 * sees it.
 */
class InterruptPolicyTest {
    private static final long AWAIT_SECONDS = 60;

    @Test
    void noTaskStartsInterruptedThoughEveryTaskLeavesItsThreadInterrupted() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        try {
            KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
            int tasks = 400;
            AtomicInteger startedInterrupted = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(tasks);
            for (int i = 0; i < tasks; i++) {
                keyed.execute(i % 8, () -> {
                    if (Thread.currentThread().isInterrupted()) {
                        startedInterrupted.incrementAndGet();
                    }
                    Thread.currentThread().interrupt();
                    done.countDown();
                });
            }
            assertTrue(done.await(AWAIT_SECONDS, TimeUnit.SECONDS));
            assertEquals(0, startedInterrupted.get(), "tasks that started with their thread interrupted");
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    /** A pool whose every runnable runs on a thread of its own, which records the flag afterwards. */
    private static final class RecordingPool implements Executor {
        final List<Boolean> interruptedAfter = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger finished = new AtomicInteger();

        @Override
        public void execute(Runnable r) {
            new Thread(() -> {
                        r.run();
                        interruptedAfter.add(Thread.currentThread().isInterrupted());
                        finished.incrementAndGet();
                    })
                    .start();
        }
    }

    /**
     * A producer that runs the keys' tasks itself (a pool that runs what it is given in the
     * caller) is not a pool thread: it gets back the interrupt flag it had when it called
     * {@code execute}, not one a task left.
     */
    @Test
    void aProducerDrainingInPlaceKeepsItsOwnFlagNotTheTasks() throws Exception {
        KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(Runnable::run);
        try {
            keyed.execute(1, () -> Thread.currentThread().interrupt()); // as a task restoring an interrupt
            assertFalse(Thread.interrupted(), "a task's leftover interrupt reached the producer");
            Thread.currentThread().interrupt(); // the producer's own
            AtomicBoolean seen = new AtomicBoolean(true);
            keyed.execute(2, () -> seen.set(Thread.currentThread().isInterrupted()));
            assertFalse(seen.get(), "the task started with the producer's interrupt");
            assertTrue(Thread.interrupted(), "the producer's own interrupt was lost");
        } finally {
            Thread.interrupted();
            keyed.close();
        }
    }

    @Test
    void anInterruptFoundBeforeATaskIsGivenBackToThePoolThread() throws Exception {
        RecordingPool pool = new RecordingPool();
        KeyedSerialExecutor<Integer> keyed =
                KeyedSerialExecutor.builder(pool).maxConcurrentKeys(1).build();
        AtomicReference<Boolean> secondSaw = new AtomicReference<>();
        keyed.execute(1, () -> Thread.currentThread().interrupt());
        keyed.execute(1, () -> secondSaw.set(Thread.currentThread().isInterrupted()));
        keyed.close();
        awaitFinished(pool, 1);
        assertEquals(Boolean.FALSE, secondSaw.get(), "the second task saw the first one's interrupt");
        assertEquals(List.of(true), pool.interruptedAfter, "the pool thread got its interrupt back");
    }

    @Test
    void aQuietTaskLeavesThePoolThreadUninterrupted() throws Exception {
        RecordingPool pool = new RecordingPool();
        KeyedSerialExecutor<Integer> keyed =
                KeyedSerialExecutor.builder(pool).maxConcurrentKeys(1).build();
        keyed.execute(1, () -> {});
        keyed.close();
        awaitFinished(pool, 1);
        assertEquals(List.of(false), pool.interruptedAfter);
    }

    private static void awaitFinished(RecordingPool pool, int threads) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        while (pool.finished.get() < threads) { // the pool thread ends after the executor terminated
            assertTrue(System.nanoTime() < deadline, "pool thread never finished");
            Thread.onSpinWait();
        }
    }

    @Test
    void aTaskInterruptedWhileItRunsSeesIt() throws Exception {
        ExecutorService pool = Pools.threadPool(1);
        try {
            KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
            AtomicReference<Thread> runner = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch sawIt = new CountDownLatch(1);
            keyed.execute(1, () -> {
                runner.set(Thread.currentThread());
                started.countDown();
                try {
                    new CountDownLatch(1).await(AWAIT_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    sawIt.countDown();
                }
            });
            assertTrue(started.await(AWAIT_SECONDS, TimeUnit.SECONDS));
            runner.get().interrupt();
            assertTrue(sawIt.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the task did not see its interrupt");
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }
}
