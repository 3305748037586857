package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker on a {@code ForkJoinPool} runs one of the pool's other tasks in place when its budget
 * is used ({@link ForkJoinHandOff}): that task may wait for one of the executor's keys, and may
 * close the executor. And a custom pool whose {@code isShutdown} throws.
 */
@Timeout(60)
class ForkJoinHandOffTest {

    static final long AWAIT_S = 20;

    /**
     * A {@code ForkJoinPool(2)} with one thread held by a plain task until {@code release}, so the
     * executor's worker is alone on the other; key "a" has a task running until {@code firstDone}
     * opens, then one more queued behind it; with a budget of 1 the worker hands its thread to the
     * next pool task after the first.
     */
    static final class Setup implements AutoCloseable {
        final ForkJoinPool pool = new ForkJoinPool(2);
        final KeyedSerialExecutor<String> exec =
                KeyedSerialExecutor.builder(pool).fairnessBudget(1).build();
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch firstDone = new CountDownLatch(1);
        final AtomicBoolean secondRan = new AtomicBoolean();

        Setup() throws InterruptedException {
            holdOneThread(pool, release);
            CountDownLatch firstStarted = new CountDownLatch(1);
            exec.execute("a", () -> {
                firstStarted.countDown();
                awaitQuietly(firstDone);
            });
            assertTrue(firstStarted.await(AWAIT_S, TimeUnit.SECONDS));
            exec.execute("a", () -> secondRan.set(true));
        }

        @Override
        public void close() {
            release.countDown();
            firstDone.countDown();
            pool.shutdownNow();
        }
    }

    /** Occupies one of {@code pool}'s threads with a plain task until {@code release} opens. */
    static void holdOneThread(ForkJoinPool pool, CountDownLatch release) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        pool.execute(() -> {
            held.countDown();
            awaitQuietly(release);
        });
        assertTrue(held.await(AWAIT_S, TimeUnit.SECONDS));
    }

    static void awaitQuietly(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A worker whose keys have a backlog brings in a helper; with the pool's other thread busy the
     * helper waits on the worker's own thread's queue. At its budget the worker must give the thread
     * to the pool's other work, not to its own helper (which would do the same in turn): the other
     * task runs long before the backlog is drained.
     */
    @Test
    void thePoolsOtherWorkRunsAheadOfTheWorkersOwnHelper() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(2);
        CountDownLatch release = new CountDownLatch(1);
        try {
            holdOneThread(pool, release);
            KeyedSerialExecutor<Integer> exec =
                    KeyedSerialExecutor.builder(pool).fairnessBudget(16).build();
            int keys = 8;
            int perKey = 500;
            AtomicInteger done = new AtomicInteger();
            // the first task waits until the pool's other task is queued: the backlog is all there
            // before the worker starts, however slowly this thread submits it
            CountDownLatch otherQueued = new CountDownLatch(1);
            exec.execute(0, () -> awaitQuietly(otherQueued));
            for (int i = 0; i < perKey; i++) {
                for (int k = 0; k < keys; k++) {
                    exec.execute(k, () -> {
                        long end = System.nanoTime() + 20_000;
                        while (System.nanoTime() < end) {
                            Thread.onSpinWait();
                        }
                        done.incrementAndGet();
                    });
                }
            }
            AtomicInteger doneWhenOtherRan = new AtomicInteger(-1);
            CountDownLatch otherRan = new CountDownLatch(1);
            pool.execute(() -> {
                doneWhenOtherRan.set(done.get());
                otherRan.countDown();
            });
            otherQueued.countDown();
            assertTrue(otherRan.await(AWAIT_S, TimeUnit.SECONDS));
            assertTrue(
                    doneWhenOtherRan.get() < keys * perKey / 2,
                    "the pool's task waited for " + doneWhenOtherRan.get() + " of " + keys * perKey + " tasks: "
                            + exec);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void aPoolTaskRunInPlaceThatWaitsForAKeyDoesNotStallIt() throws Exception {
        try (Setup s = new Setup()) {
            CountDownLatch waiting = new CountDownLatch(1);
            CountDownLatch waited = new CountDownLatch(1);
            s.pool.execute(() -> {
                waiting.countDown();
                s.exec.flush("a").join(); // the hand-off runs this on the worker's own thread
                waited.countDown();
            });
            s.firstDone.countDown(); // budget used: the worker queues key a and runs the task above
            assertTrue(waiting.await(AWAIT_S, TimeUnit.SECONDS));
            // the other pool thread is free from now on; before, it found nothing to run: key a
            // sat in the executor's ready queue with no worker, its own worker blocked in the join
            s.release.countDown();
            assertTrue(
                    waited.await(AWAIT_S, TimeUnit.SECONDS),
                    "key a stalled behind the task its own worker ran in place: " + s.exec);
            assertTrue(s.secondRan.get());
        }
    }

    @Test
    void closeFromAPoolTaskRunInPlaceWaitsLikeAnyOtherCaller() throws Exception {
        try (Setup s = new Setup()) {
            AtomicBoolean terminatedWhenCloseReturned = new AtomicBoolean();
            CountDownLatch closing = new CountDownLatch(1);
            CountDownLatch closed = new CountDownLatch(1);
            s.pool.execute(() -> {
                closing.countDown();
                s.exec.close(); // not one of the executor's tasks: must wait for key a
                terminatedWhenCloseReturned.set(s.exec.isTerminated());
                closed.countDown();
            });
            s.firstDone.countDown();
            assertTrue(closing.await(AWAIT_S, TimeUnit.SECONDS));
            s.release.countDown(); // a pool thread for the keys' worker
            assertTrue(closed.await(AWAIT_S, TimeUnit.SECONDS), "close() did not return: " + s.exec);
            assertTrue(terminatedWhenCloseReturned.get(), "close() returned before the keys ran: " + s.exec);
            assertTrue(s.secondRan.get());
        }
    }

    @Test
    void aPoolThatFailsWithAnErrorRejectsTheTaskAsTheContractSays() {
        // a decorating executor whose class failed to link: not the JVM's own trouble
        KeyedSerialExecutor<String> exec = KeyedSerialExecutor.create(r -> {
            throw new NoClassDefFoundError("com/example/TracingRunnable");
        });
        AtomicBoolean ran = new AtomicBoolean();
        RejectedExecutionException e =
                assertThrows(RejectedExecutionException.class, () -> exec.execute("k", () -> ran.set(true)));
        assertTrue(e.getCause() instanceof NoClassDefFoundError, String.valueOf(e.getCause()));
        assertFalse(ran.get());
        assertEquals(1, exec.stats().rejectedTasks());
    }

    /** A pool whose status probe fails once, as a remote or managed executor's may. */
    static final class FlakyStatusPool extends AbstractExecutorService {
        final ExecutorService inner = Executors.newCachedThreadPool();
        final AtomicInteger probes = new AtomicInteger();

        @Override
        public boolean isShutdown() {
            if (probes.incrementAndGet() == 1) {
                throw new IllegalStateException("status probe failed");
            }
            return inner.isShutdown();
        }

        @Override
        public void shutdown() {
            inner.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return inner.shutdownNow();
        }

        @Override
        public boolean isTerminated() {
            return inner.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return inner.awaitTermination(timeout, unit);
        }

        @Override
        public void execute(Runnable command) {
            inner.execute(command);
        }
    }

    @Test
    void aPoolWhoseStatusProbeThrowsLeavesNoKeyCountedBusy() throws Exception {
        FlakyStatusPool pool = new FlakyStatusPool();
        try {
            KeyedSerialExecutor<String> exec = KeyedSerialExecutor.create(pool);
            AtomicBoolean ran = new AtomicBoolean();
            RejectedExecutionException e =
                    assertThrows(RejectedExecutionException.class, () -> exec.execute("k", () -> ran.set(true)));
            assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
            CountDownLatch other = new CountDownLatch(1);
            exec.execute("k2", other::countDown);
            assertTrue(other.await(AWAIT_S, TimeUnit.SECONDS));
            exec.shutdown();
            assertTrue(exec.awaitTermination(AWAIT_S, TimeUnit.SECONDS), "a key left counted busy: " + exec);
            assertFalse(ran.get(), "the task whose execute threw must not run");
            assertEquals(0, exec.stats().keysWithWork());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * On a ForkJoinPool with nothing else queued, the hand-off finds no other task; the counts still
     * reach stats() about once per budget, not only when the worker leaves.
     */
    @Test
    void countsReachStatsWithinABudgetWhenNothingElseIsQueued() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(2);
        try {
            KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.builder(pool)
                    .maxConcurrentKeys(1)
                    .fairnessBudget(16)
                    .<Integer>build();
            AtomicInteger ran = new AtomicInteger();
            CountDownLatch release = new CountDownLatch(1);
            int n = 20_000;
            for (int i = 0; i < n; i++) {
                keyed.execute(i, ran::incrementAndGet);
            }
            keyed.execute(-1, () -> SerialGuaranteesTest.awaitUninterruptibly(release)); // holds the worker on the pool
            while (ran.get() < n) {
                Thread.onSpinWait();
            }
            long lag = n - keyed.stats().completedTasks();
            release.countDown();
            keyed.close();
            assertTrue(lag < 1_000, "tasks run but not yet in stats(): " + lag + " (budget 16)");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A producer that drains keys in its own thread (a direct executor) never gives a pool thread
     * back, and still hands its counts over within about a budget: 10,000 keys made ready by one
     * task and run in place after it, then one more whose task reads stats().
     */
    @Test
    void countsReachStatsWithinABudgetFromAProducerDrainingInPlace() {
        KeyedSerialExecutor<Integer> keyed =
                KeyedSerialExecutor.builder(Runnable::run).fairnessBudget(64).<Integer>build();
        AtomicInteger ran = new AtomicInteger();
        long[] lag = {-1};
        int n = 10_000;
        keyed.execute(0, () -> {
            for (int k = 1; k <= n; k++) {
                keyed.execute(k, ran::incrementAndGet); // queued: this thread is draining already
            }
            keyed.execute(n + 1, () -> lag[0] = ran.get() - keyed.stats().completedTasks());
        });
        keyed.close();
        assertEquals(n, ran.get());
        assertTrue(lag[0] >= 0 && lag[0] < 1_000, "tasks run but not yet in stats(): " + lag[0] + " (budget 64)");
        assertEquals(n + 2, keyed.stats().completedTasks());
    }

    /**
     * A leaving worker finds the limit reached by a producer's reservation and leaves; the pool then
     * refuses the producer's worker while the other worker is busy. The producer drains the key
     * itself instead of leaving it behind the busy worker.
     */
    @Test
    void aKeyWhoseWorkerThePoolRefusedRunsWhileTheOtherWorkerIsBusy() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        java.util.concurrent.Executor pool = r -> {
            entered.countDown();
            SerialGuaranteesTest.awaitUninterruptibly(gate);
            throw new RejectedExecutionException("saturated");
        };
        KeyedSerialExecutor<String> keyed =
                KeyedSerialExecutor.builder(pool).maxConcurrentKeys(2).<String>build();
        LaneDispatcher d = keyed.dispatcher;
        d.addCtl(2); // two workers: W1 about to leave, W2 running a long task
        d.addCtl(-1); // W1 gives its slot back
        AtomicInteger ran = new AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                keyed.execute("k", ran::incrementAndGet);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        producer.start();
        assertTrue(entered.await(10, TimeUnit.SECONDS)); // the producer reserved the free slot
        assertFalse(d.looksEmpty(), "W1 re-checks: a key waits");
        assertFalse(d.retakeSlot(), "the limit is reached: W1 leaves");
        gate.countDown(); // the pool refuses the producer's worker
        producer.join(10_000);
        assertEquals(null, thrown.get());
        assertEquals(1, ran.get(), "the accepted task waited behind the busy worker");
    }

    /**
     * A worker running another pool task in place keeps its slot only while another slot can
     * still poll: on a limit of 2 the first of two such workers keeps it, the second does not, and
     * a kept run's end frees the place again; a limit of 1 never keeps it.
     */
    @Test
    void aSlotIsKeptForAnotherTaskOnlyWhileAnotherSlotPolls() {
        ForkJoinPool pool = new ForkJoinPool(4);
        try {
            LaneDispatcher two =
                    KeyedSerialExecutor.builder(pool).maxConcurrentKeys(2).build().dispatcher;
            assertTrue(two.keepSlotForOtherTask(), "the first of two slots");
            assertFalse(two.keepSlotForOtherTask(), "the other slot already runs another task");
            assertFalse(two.keepSlotForOtherTask(), "a refusal leaves the count as it was");
            two.endRunningOther();
            assertTrue(two.keepSlotForOtherTask(), "the first kept run ended");
            LaneDispatcher one =
                    KeyedSerialExecutor.builder(pool).maxConcurrentKeys(1).build().dispatcher;
            assertFalse(one.keepSlotForOtherTask(), "the only slot");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A {@code ForkJoinPool(2)} whose threads' uncaught-exception handler reports each failure,
     * then throws {@code handlerThrows} if set; one thread is held by a plain task, so the
     * executor's worker is alone on the other and is the thread that runs a pool task queued
     * behind it (a budget of 1).
     */
    static final class FailingOther implements AutoCloseable {
        final java.util.concurrent.BlockingQueue<Object[]> reported = new java.util.concurrent.LinkedBlockingQueue<>();
        final ForkJoinPool pool;
        final KeyedSerialExecutor<String> exec;
        final CountDownLatch release = new CountDownLatch(1);

        FailingOther(RuntimeException handlerThrows) throws InterruptedException {
            Thread.UncaughtExceptionHandler handler = (t, e) -> {
                reported.add(new Object[] {t, e});
                if (handlerThrows != null) {
                    throw handlerThrows;
                }
            };
            pool = new ForkJoinPool(
                    2,
                    p -> {
                        java.util.concurrent.ForkJoinWorkerThread t =
                                ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
                        t.setUncaughtExceptionHandler(handler);
                        return t;
                    },
                    null,
                    false);
            exec = KeyedSerialExecutor.builder(pool).fairnessBudget(1).build();
            holdOneThread(pool, release);
        }

        /**
         * Runs a task of {@code key} that waits until {@code failing} is queued in the pool, so
         * the key's worker runs it in place once the task returns; returns what the handler got.
         */
        Object[] failBehind(String key, Runnable failing) throws Exception {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            exec.execute(key, () -> {
                started.countDown();
                awaitQuietly(go);
            });
            assertTrue(started.await(AWAIT_S, TimeUnit.SECONDS), "key " + key + " never ran: " + exec);
            pool.execute(failing);
            go.countDown();
            Object[] got = reported.poll(AWAIT_S, TimeUnit.SECONDS);
            assertTrue(got != null, "the failure never reached the handler");
            exec.flush(key).get(AWAIT_S, TimeUnit.SECONDS);
            return got;
        }

        @Override
        public void close() {
            release.countDown();
            pool.shutdownNow();
        }
    }

    /**
     * A pool task run in place fails as it would on the pool: its throwable reaches the thread's
     * uncaught-exception handler ({@code ForkJoinPool} hands an {@code execute}d task's failure
     * there and ignores what the handler throws), and the worker keeps its slot and its keys.
     * Four rounds on a two-slot executor: a worker that left with its slot counted would leave
     * the third key without a worker.
     */
    @Test
    void aThrowingHandlerOfAPoolTaskRunInPlaceCostsNoSlot() throws Exception {
        try (FailingOther f = new FailingOther(new IllegalStateException("the handler failed"))) {
            for (int round = 0; round < 4; round++) {
                Object[] got = f.failBehind("k" + round, () -> {
                    throw new IllegalArgumentException("the other task failed");
                });
                assertEquals("the other task failed", ((Throwable) got[1]).getMessage());
            }
            assertEquals(0, f.exec.stats().keysWithWork(), f.exec.toString());
        }
    }
    /**
     * The task {@code runOneOther} took off the pool's queues runs even when the step before it
     * throws: it was taken, so nothing else would ever run it.
     */
    @Test
    void theTaskTakenRunsEvenIfTheStepBeforeItThrows() throws Exception {
        AtomicReference<Throwable> handled = new AtomicReference<>();
        ForkJoinPool pool =
                new ForkJoinPool(1, ForkJoinPool.defaultForkJoinWorkerThreadFactory, (t, e) -> handled.set(e), false);
        try {
            AtomicBoolean otherRan = new AtomicBoolean();
            CompletableFuture<ForkJoinHandOff.Outcome> outcome = new CompletableFuture<>();
            pool.execute(() -> {
                ForkJoinTask.adapt(() -> otherRan.set(true)).fork(); // this worker's own queue
                outcome.complete(ForkJoinHandOff.runOneOther(pool, null, () -> {
                    throw new IllegalStateException("before the run");
                }));
            });
            assertEquals(ForkJoinHandOff.Outcome.RAN, outcome.get(AWAIT_S, TimeUnit.SECONDS));
            assertTrue(otherRan.get(), "the task taken off the queue never ran");
            assertTrue(handled.get() instanceof IllegalStateException, () -> "handler got " + handled.get());
        } finally {
            pool.shutdownNow();
        }
    }
}
