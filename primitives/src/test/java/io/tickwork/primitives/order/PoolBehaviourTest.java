package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * Nothing accepted is lost, whatever the pool does: for a pool that rejects, runs in the caller,
 * is shut down or shut down now, or throws, every {@code execute} either returns and its task runs
 * exactly once, or throws {@link RejectedExecutionException} and its task never runs.
 */
class PoolBehaviourTest {
    private static final long AWAIT_SECONDS = 60;
    private static final int KEYS = 32;

    /** Per task: 0 never ran, 1 ran once, more: ran again. */
    private static final class Ledger {
        final AtomicIntegerArray runs;
        final boolean[] accepted;
        final int[] lastSeq = new int[KEYS];
        final AtomicInteger outOfOrder = new AtomicInteger();

        Ledger(int tasks) {
            runs = new AtomicIntegerArray(tasks);
            accepted = new boolean[tasks];
            java.util.Arrays.fill(lastSeq, -1);
        }

        /** Submits task {@code i} to key {@code i % KEYS}; records whether it was accepted. */
        void submit(KeyedSerialExecutor<Integer> keyed, int i, Runnable body) {
            int key = i % KEYS;
            try {
                keyed.execute(key, () -> {
                    if (lastSeq[key] >= i) {
                        outOfOrder.incrementAndGet();
                    }
                    lastSeq[key] = i;
                    runs.incrementAndGet(i);
                    body.run();
                });
                accepted[i] = true;
            } catch (RejectedExecutionException e) {
                accepted[i] = false;
            }
        }

        /** Every accepted task ran exactly once, every rejected one never, in order per key. */
        void check() {
            int acceptedCount = 0;
            for (int i = 0; i < accepted.length; i++) {
                int expected = accepted[i] ? 1 : 0;
                acceptedCount += expected;
                assertEquals(expected, runs.get(i), "task " + i + (accepted[i] ? " (accepted)" : " (rejected)"));
            }
            assertEquals(0, outOfOrder.get(), "tasks of a key out of order");
            assertTrue(acceptedCount > 0, "nothing was accepted");
        }
    }

    /** A pool of 2 threads and 2 queue slots, kept nearly full by other work, with the given policy. */
    private static ThreadPoolExecutor saturated(RejectedExecutionHandler policy) {
        return new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(2), policy);
    }

    private static void crowd(ThreadPoolExecutor pool, AtomicBoolean stop) {
        Thread filler = new Thread(
                () -> {
                    while (!stop.get()) {
                        try {
                            pool.execute(Thread::onSpinWait);
                        } catch (RejectedExecutionException full) {
                            Thread.yield();
                        }
                    }
                },
                "filler");
        filler.setDaemon(true);
        filler.start();
    }

    @Test
    void aPoolThatRejectsLosesNothing() throws Exception {
        ThreadPoolExecutor pool = saturated(new ThreadPoolExecutor.AbortPolicy());
        AtomicBoolean stop = new AtomicBoolean();
        crowd(pool, stop);
        int tasks = 20_000;
        Ledger ledger = new Ledger(tasks);
        KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
        for (int i = 0; i < tasks; i++) {
            ledger.submit(keyed, i, () -> {});
        }
        stop.set(true);
        keyed.close();
        Pools.shutdownAndAwait(pool);
        ledger.check();
        assertEquals(keyed.stats().rejectedTasks(), countRejected(ledger), keyed::toString);
    }

    private static long countRejected(Ledger ledger) {
        long n = 0;
        for (boolean a : ledger.accepted) {
            n += a ? 0 : 1;
        }
        return n;
    }

    @Test
    void aPoolThatRunsInTheCallerLosesNothingAndRejectsNothing() throws Exception {
        ThreadPoolExecutor pool = saturated(new ThreadPoolExecutor.CallerRunsPolicy());
        AtomicBoolean stop = new AtomicBoolean();
        crowd(pool, stop);
        int tasks = 20_000;
        Ledger ledger = new Ledger(tasks);
        KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
        for (int i = 0; i < tasks; i++) {
            ledger.submit(keyed, i, () -> {});
        }
        stop.set(true);
        keyed.close();
        Pools.shutdownAndAwait(pool);
        ledger.check();
        assertEquals(0, countRejected(ledger));
    }

    /**
     * A {@code CallerRunsPolicy} pool that is shut down discards what it is given, without an
     * exception. A worker that gives its thread back to such a pool (every few tasks here) must
     * notice and keep draining, or the keys queued for it are never run.
     */
    @Test
    void aCallerRunsPoolShutDownUnderABacklogStillRunsEveryAcceptedTask() throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                2,
                2,
                0,
                TimeUnit.SECONDS,
                new java.util.concurrent.LinkedBlockingQueue<>(),
                new ThreadPoolExecutor.CallerRunsPolicy());
        KeyedSerialExecutor<Integer> keyed =
                KeyedSerialExecutor.builder(pool).fairnessBudget(8).build();
        CountDownLatch gate = new CountDownLatch(1);
        int tasks = 4_000;
        Ledger ledger = new Ledger(tasks);
        ledger.submit(keyed, 0, () -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        for (int i = 1; i < tasks; i++) {
            ledger.submit(keyed, i, () -> {});
        }
        pool.shutdown(); // from here the pool discards every worker handed to it
        gate.countDown();
        assertTrue(pool.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS));
        ledger.check();
        for (int k = 0; k < KEYS; k++) {
            assertTrue(keyed.flush(k).isDone(), "key " + k + " still has work after the pool terminated");
        }
    }

    @Test
    void aDirectExecutorRunsEachTaskInTheCaller() {
        KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(Runnable::run);
        Thread caller = Thread.currentThread();
        List<String> log = new ArrayList<>();
        keyed.execute(1, () -> log.add("a " + (Thread.currentThread() == caller)));
        keyed.execute(2, () -> log.add("b " + (Thread.currentThread() == caller)));
        assertEquals(List.of("a true", "b true"), log);
        assertTrue(keyed.isShutdown() == false && keyed.stats().completedTasks() == 2, keyed::toString);
    }

    @Test
    void afterThePoolsShutdownEveryExecuteIsRejectedAndAcceptedTasksRun() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
        int tasks = 10_000;
        Ledger ledger = new Ledger(tasks);
        for (int i = 0; i < tasks / 2; i++) {
            ledger.submit(keyed, i, () -> {});
        }
        pool.shutdown();
        for (int i = tasks / 2; i < tasks; i++) {
            ledger.submit(keyed, i, () -> {});
            assertFalse(ledger.accepted[i], "accepted after the pool's shutdown: task " + i);
        }
        assertTrue(pool.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertTrue(keyed.flush(0).isDone(), "key 0 still has work after the pool terminated");
        ledger.check();
    }

    /**
     * {@code shutdownNow} interrupts the running workers (they finish what is queued) and hands back
     * the workers still queued in the pool: running those runs every accepted task. Executes after
     * it are rejected, new keys included.
     */
    @Test
    void afterThePoolsShutdownNowAcceptedTasksRunOrAreHandedBack() throws Exception {
        ThreadPoolExecutor pool =
                new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>());
        KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocking = new CountDownLatch(2);
        Runnable block = () -> {
            blocking.countDown();
            awaitIgnoringInterrupts(release);
        };
        pool.execute(block); // one pool thread busy with other work
        keyed.execute(1000, block); // the other one running a worker of ours, blocked in a task
        assertTrue(blocking.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        int tasks = 5_000;
        Ledger ledger = new Ledger(tasks);
        for (int i = 0; i < tasks; i++) {
            ledger.submit(keyed, i, () -> {}); // a second worker waits in the pool's queue
        }
        List<Runnable> handedBack = pool.shutdownNow();
        assertEquals(1, handedBack.size(), "the queued worker");
        for (int i = 0; i < 100; i++) {
            int key = 5_000 + i;
            assertThrows(
                    RejectedExecutionException.class,
                    () -> keyed.execute(key, () -> {}),
                    "a new key after shutdownNow");
        }
        release.countDown();
        for (Runnable r : handedBack) {
            r.run(); // drains beside the interrupted worker, which goes on too
        }
        assertTrue(pool.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS));
        ledger.check();
        keyed.shutdown();
        assertTrue(keyed.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS), keyed::toString);
    }

    /**
     * The thread that runs the runnables {@code shutdownNow()} handed back is a pool thread to the
     * executor: each task starts with the flag clear, and an interrupt a task left is set again when
     * the runnable returns.
     */
    @Test
    void aThreadRunningTheHandedBackWorkersGetsBackTheInterruptATaskLeft() throws Exception {
        ThreadPoolExecutor pool =
                new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>());
        KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocking = new CountDownLatch(1);
        pool.execute(() -> {
            blocking.countDown();
            awaitIgnoringInterrupts(release);
        });
        assertTrue(blocking.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        List<Boolean> interruptedAtStart = new ArrayList<>();
        keyed.execute(1, () -> {
            interruptedAtStart.add(Thread.currentThread().isInterrupted());
            Thread.currentThread().interrupt(); // left behind
        });
        keyed.execute(1, () -> interruptedAtStart.add(Thread.currentThread().isInterrupted()));
        List<Runnable> handedBack = pool.shutdownNow();
        assertEquals(1, handedBack.size(), "the queued worker");
        release.countDown();
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        Thread runner = new Thread(() -> {
            handedBack.get(0).run();
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        runner.start();
        runner.join(TimeUnit.SECONDS.toMillis(AWAIT_SECONDS));
        assertFalse(runner.isAlive());
        assertEquals(List.of(false, false), interruptedAtStart, "each task starts clear");
        assertTrue(interruptedAfter.get(), "the interrupt the first task left comes back to the runner");
        keyed.shutdown();
        assertTrue(keyed.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS), keyed::toString);
        assertTrue(pool.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS));
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        try {
            for (; ; ) {
                try {
                    assertTrue(latch.await(AWAIT_SECONDS, TimeUnit.SECONDS), "never released");
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A discarded worker would strand the keys queued for it: such a pool is refused up front. */
    @Test
    void aPoolThatDiscardsSilentlyIsRefused() {
        for (RejectedExecutionHandler discarding :
                List.of(new ThreadPoolExecutor.DiscardPolicy(), new ThreadPoolExecutor.DiscardOldestPolicy())) {
            ThreadPoolExecutor pool =
                    new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1), discarding);
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> KeyedSerialExecutor.create(pool));
            assertTrue(e.getMessage().contains(discarding.getClass().getName()), e.getMessage());
            pool.shutdown();
        }
    }

    /** A custom executor that throws: the execute that needed a worker is rejected, with the cause. */
    @Test
    void anExecutorThatThrowsIsARejection() {
        AtomicBoolean down = new AtomicBoolean(true);
        List<Runnable> taken = new ArrayList<>();
        Executor flaky = r -> {
            if (down.get()) {
                throw new IllegalStateException("down");
            }
            taken.add(r);
        };
        KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(flaky);
        List<String> log = new ArrayList<>();
        RejectedExecutionException e =
                assertThrows(RejectedExecutionException.class, () -> keyed.execute(1, () -> log.add("lost?")));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals(
                "key 1: the pool refused a worker while none ran, so the task will not run: "
                        + "java.lang.IllegalStateException: down",
                e.getMessage());
        down.set(false);
        keyed.execute(1, () -> log.add("a"));
        keyed.execute(1, () -> log.add("b"));
        while (!taken.isEmpty()) {
            taken.remove(0).run();
        }
        assertEquals(List.of("a", "b"), log);
        assertEquals(1, keyed.stats().rejectedTasks());
    }

    /**
     * The pool is given the executor's workers as {@code Runnable}s that are also {@code Future}s;
     * pool code that waits on every finished {@code Future} (an {@code afterExecute} calling
     * {@code get()}, as the JDK's own example does) must not wait for ever on one.
     */
    @Test
    void aPoolThatWaitsOnEachFinishedFutureIsNotHeldByTheWorkers() throws Exception {
        ThreadPoolExecutor pool =
                new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>()) {
                    @Override
                    protected void afterExecute(Runnable r, Throwable t) {
                        if (t == null && r instanceof java.util.concurrent.Future<?> f) {
                            try {
                                f.get();
                            } catch (Exception e) {
                                // only the wait matters here
                            }
                        }
                    }
                };
        try {
            KeyedSerialExecutor<String> exec = KeyedSerialExecutor.create(pool);
            CountDownLatch ran = new CountDownLatch(1);
            exec.execute("a", ran::countDown);
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            CountDownLatch poolFree = new CountDownLatch(1);
            pool.execute(poolFree::countDown); // the pool's one thread, once the worker's run returned
            assertTrue(poolFree.await(10, TimeUnit.SECONDS), "the pool thread is held after the worker's run");
        } finally {
            pool.shutdownNow();
        }
    }
}
