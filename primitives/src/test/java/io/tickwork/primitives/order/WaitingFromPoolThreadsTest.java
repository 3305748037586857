package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Code that waits on the executor from where its own work runs: a pool task the fairness hand-off
 * runs in place on a {@code ForkJoinPool} worker's thread (close, a flush joined, a result joined),
 * close() on a pool's only thread, close() from one of the executor's tasks nested in another
 * executor's drain, and a flush of a key that has nothing left but sits in the ready queue. Each
 * must return; none may wait for the thread it holds. A failure here is a hang, so every wait is
 * bounded and the failure message shows the executor's state.
 */
@Timeout(120)
class WaitingFromPoolThreadsTest {
    private static final long WAIT_S = 10;

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Blocks the way a ForkJoinPool expects a task to block: the pool may add a spare thread meanwhile. */
    private static void awaitManaged(CountDownLatch l) {
        try {
            ForkJoinPool.managedBlock(new ForkJoinPool.ManagedBlocker() {
                @Override
                public boolean block() throws InterruptedException {
                    l.await();
                    return true;
                }

                @Override
                public boolean isReleasable() {
                    return l.getCount() == 0;
                }
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * As many keys as the pool's parallelism wait (through {@code managedBlock}) for a future that
     * another key completes: with the limit above the waiters, as the contract advises, the pool's
     * spare thread runs that key. (At the default limit, the parallelism, it would never start.)
     */
    @Test
    void keysWaitingOnAnotherKeysWorkNeedALimitAboveTheWaiters() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(2);
        try {
            KeyedSerialExecutor<Object> ex =
                    KeyedSerialExecutor.builder(pool).maxConcurrentKeys(3).build();
            CompletableFuture<Void> done = new CompletableFuture<>();
            CountDownLatch waiting = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                ex.execute("waiter " + i, () -> {
                    waiting.countDown();
                    done.join(); // managedBlock: the pool may add a thread
                });
            }
            assertTrue(waiting.await(WAIT_S, TimeUnit.SECONDS), ex.toString());
            ex.execute("completer", () -> done.complete(null));
            done.get(WAIT_S, TimeUnit.SECONDS);
            ex.close();
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    /** A pool task run in place by the hand-off, after the worker saw a key go idle, calls close(). */
    @Test
    void closeFromPoolTaskRunInPlaceAfterAKeyWentIdle() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(2);
        KeyedSerialExecutor<String> exec =
                KeyedSerialExecutor.builder(pool).fairnessBudget(1).build();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> {
            held.countDown();
            await(release);
        }); // the worker is alone on the other thread
        assertTrue(held.await(WAIT_S, TimeUnit.SECONDS));
        CountDownLatch closed = new CountDownLatch(1);
        AtomicBoolean bRan = new AtomicBoolean();
        exec.execute("b", () -> {
            bRan.set(true);
            pool.execute(() -> {
                exec.close();
                closed.countDown();
            }); // a plain pool task: close() must wait, then return
        });
        boolean returned = closed.await(WAIT_S, TimeUnit.SECONDS);
        release.countDown(); // a free thread too: still stuck
        boolean returnedLater = returned || closed.await(WAIT_S, TimeUnit.SECONDS);
        String state = exec + " bRan=" + bRan.get();
        pool.shutdownNow();
        assertTrue(returned && returnedLater, "close() never returns though every task ran: " + state);
    }

    /** Same on the common pool (parallelism 1 on a 2-CPU machine), with CompletableFuture.runAsync. */
    @Test
    void closeFromCommonPoolRunAsyncAfterAKeyWentIdle() throws Exception {
        KeyedSerialExecutor<String> exec = KeyedSerialExecutor.builder(ForkJoinPool.commonPool())
                .fairnessBudget(1)
                .build();
        CountDownLatch closed = new CountDownLatch(1);
        AtomicReference<Thread> closer = new AtomicReference<>();
        exec.execute(
                "b",
                () -> ForkJoinPool.commonPool().execute(() -> {
                    closer.set(Thread.currentThread());
                    exec.close();
                    closed.countDown();
                }));
        boolean returned = closed.await(WAIT_S, TimeUnit.SECONDS);
        String state = exec + " parallelism=" + ForkJoinPool.commonPool().getParallelism();
        if (!returned && closer.get() != null) {
            closer.get().interrupt(); // unstick the common pool thread
        }
        assertTrue(returned, "close() never returns though every task ran: " + state);
    }

    /** The common pool (parallelism 1 here): a common-pool task run in place joins a result computed under the key. */
    @Test
    void supplyAsyncJoinOnCommonPoolTaskRunInPlace() throws Exception {
        ForkJoinPool pool = ForkJoinPool.commonPool();
        KeyedSerialExecutor<String> exec =
                KeyedSerialExecutor.builder(pool).fairnessBudget(1).build();
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch joined = new CountDownLatch(1);
        AtomicReference<Thread> joiner = new AtomicReference<>();
        exec.execute("a", () -> {
            await(go);
            pool.execute(() -> {
                joiner.set(Thread.currentThread());
                CompletableFuture.supplyAsync(() -> 42, exec.executorFor("a")).join();
                joined.countDown();
            });
        });
        exec.execute("a", () -> {});
        go.countDown();
        boolean ok = joined.await(WAIT_S, TimeUnit.SECONDS);
        String state = exec + " parallelism=" + pool.getParallelism();
        if (!ok && joiner.get() != null) {
            joiner.get().interrupt();
        }
        assertTrue(ok, "supplyAsync(..., executorFor(a)).join() in a common-pool task never completes: " + state);
    }

    /** ForkJoinPool(1): a pool task run in place that joins a flush of the key the worker left ready. */
    @Test
    void flushJoinInPoolTaskRunInPlaceOnSingleThreadForkJoinPool() throws Exception {
        assertJoinCompletes(false, WaitingFromPoolThreadsTest::flushJoinedInPlace, "flush(a).join()");
    }

    /** Same with a bigger ForkJoinPool limited by maxConcurrentKeys(1). */
    @Test
    void flushJoinInPoolTaskRunInPlaceWithMaxConcurrentKeysOne() throws Exception {
        assertJoinCompletes(true, WaitingFromPoolThreadsTest::flushJoinedInPlace, "flush(a).join()");
    }

    /** Returns null once the join in a scenario completed, else the executor's state (the join is stuck). */
    private interface InPlaceJoin {
        String run(ForkJoinPool pool, KeyedSerialExecutor<String> exec) throws Exception;
    }

    /**
     * Runs {@code scenario} with a fairness budget of 1 on {@code ForkJoinPool(1)}, or on
     * {@code ForkJoinPool(4)} under {@code maxConcurrentKeys(1)}; fails if its join never completes.
     */
    private static void assertJoinCompletes(boolean limitOnBiggerPool, InPlaceJoin scenario, String join)
            throws Exception {
        ForkJoinPool pool = new ForkJoinPool(limitOnBiggerPool ? 4 : 1);
        KeyedSerialExecutor.Builder<Object> b =
                KeyedSerialExecutor.builder(pool).fairnessBudget(1);
        if (limitOnBiggerPool) {
            b.maxConcurrentKeys(1);
        }
        String stuck = scenario.run(pool, b.build());
        pool.shutdownNow();
        assertNull(stuck, join + " in a pool task never completes: " + stuck);
    }

    /**
     * Key a's task hands the pool a task that joins a flush of a; a's second task waits behind.
     * Returns null once the join completed, else the executor's state (the join is stuck).
     */
    private static String flushJoinedInPlace(ForkJoinPool pool, KeyedSerialExecutor<String> exec) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch joined = new CountDownLatch(1);
        AtomicBoolean secondRan = new AtomicBoolean();
        exec.execute("a", () -> {
            await(go);
            pool.execute(() -> {
                exec.flush("a").join();
                joined.countDown();
            });
        });
        exec.execute("a", () -> secondRan.set(true));
        go.countDown();
        return joined.await(WAIT_S, TimeUnit.SECONDS) ? null : exec + " secondRan=" + secondRan.get() + " pool=" + pool;
    }

    /**
     * ForkJoinPool(1): the hand-off finds no key ready and runs a pool task in place, which makes
     * a key ready itself and joins its flush; the worker's slot must not hold that key back.
     */
    @Test
    void flushJoinOfAKeyMadeReadyByTheTaskRunInPlaceOnSingleThreadForkJoinPool() throws Exception {
        assertJoinCompletes(false, WaitingFromPoolThreadsTest::keyMadeReadyAndJoinedInPlace, "flush(b).join()");
    }

    /**
     * Same with a bigger ForkJoinPool limited by maxConcurrentKeys(1). Takes the same path unless
     * another pool thread steals the pool task first (then a's lane may stay queued open, and the
     * hand-off finds a key waiting); either way the join must complete.
     */
    @Test
    void flushJoinOfAKeyMadeReadyByTheTaskRunInPlaceWithMaxConcurrentKeysOne() throws Exception {
        assertJoinCompletes(true, WaitingFromPoolThreadsTest::keyMadeReadyAndJoinedInPlace, "flush(b).join()");
    }

    /**
     * Key a's only task hands the pool a task that executes a task of key b, then joins a flush of
     * b. a goes idle with nothing else queued, so the hand-off after a's task finds no key waiting
     * and runs the pool task in place. Returns null once the join completed, else the state.
     */
    private static String keyMadeReadyAndJoinedInPlace(ForkJoinPool pool, KeyedSerialExecutor<String> exec)
            throws Exception {
        CountDownLatch joined = new CountDownLatch(1);
        AtomicBoolean bRan = new AtomicBoolean();
        AtomicReference<Thread> joiner = new AtomicReference<>();
        exec.execute(
                "a",
                () -> pool.execute(() -> {
                    joiner.set(Thread.currentThread());
                    exec.execute("b", () -> bRan.set(true));
                    exec.flush("b").join();
                    joined.countDown();
                }));
        if (joined.await(WAIT_S, TimeUnit.SECONDS)) {
            assertTrue(bRan.get(), "the flush of b completed before b's task ran: " + exec);
            return null;
        }
        String state = exec + " bRan=" + bRan.get() + " pool=" + pool;
        if (joiner.get() != null) {
            joiner.get().interrupt();
        }
        return state;
    }

    /** close() from a task of X, run in place by another executor's inline drain. */
    @Test
    void closeFromOwnTaskNestedInAnotherExecutorsInlineDrain() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        KeyedSerialExecutor<String> x = KeyedSerialExecutor.create(pool);
        KeyedSerialExecutor<String> y = KeyedSerialExecutor.create(Runnable::run);
        CountDownLatch returned = new CountDownLatch(1);
        x.execute(
                "k",
                () -> y.execute("j", () -> {
                    x.close();
                    returned.countDown();
                }));
        boolean ok = returned.await(WAIT_S, TimeUnit.SECONDS);
        String state = x.toString();
        pool.shutdownNow();
        assertTrue(ok, "close() called (indirectly) from x's own task waited for itself: " + state);
    }

    /**
     * ForkJoinPool(2): the other worker runs a key whose task blocks (managed, as a ForkJoinPool
     * task should), and the task run in place joins key a: the pool's spare runs a.
     */
    @Test
    void flushJoinInPoolTaskRunInPlaceWhileTheOtherWorkerIsBusy() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(2);
        KeyedSerialExecutor<String> exec =
                KeyedSerialExecutor.builder(pool).fairnessBudget(1).build();
        CountDownLatch bStarted = new CountDownLatch(1), bRelease = new CountDownLatch(1);
        exec.execute("b", () -> {
            bStarted.countDown();
            awaitManaged(bRelease);
        });
        assertTrue(bStarted.await(WAIT_S, TimeUnit.SECONDS));
        String stuck = flushJoinedInPlace(pool, exec);
        bRelease.countDown();
        pool.shutdownNow();
        assertNull(stuck, "key a starved behind key b while its worker is parked in a pool task: " + stuck);
    }

    /** close() in a plain pool task of a ForkJoinPool(1) that submitted the keyed work itself. */
    @Test
    void closeFromTheOnlyForkJoinThread() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(1);
        KeyedSerialExecutor<String> exec = KeyedSerialExecutor.create(pool);
        CountDownLatch closed = new CountDownLatch(1);
        AtomicBoolean ran = new AtomicBoolean();
        pool.execute(() -> {
            exec.execute("a", () -> ran.set(true));
            exec.close();
            closed.countDown();
        });
        boolean ok = closed.await(WAIT_S, TimeUnit.SECONDS);
        String state = exec + " ran=" + ran.get();
        pool.shutdownNow();
        assertTrue(ok, "close() on the pool's only thread never returns: " + state);
    }

    /**
     * A task of key b flushes key a, which has nothing queued or running but sits in the ready queue
     * still open (it ran recently while other keys waited): the future completes at once.
     */
    @RepeatedTest(3)
    void flushOfAnIdleHotKeyFromAnotherKeysTask() throws Exception {
        ExecutorService pool = Pools.threadPool(1);
        KeyedSerialExecutor<String> exec = KeyedSerialExecutor.create(pool);
        exec.execute("a", () -> {});
        exec.flush("a").get(10, TimeUnit.SECONDS); // a ran and went idle
        CountDownLatch cStarted = new CountDownLatch(1), cRelease = new CountDownLatch(1);
        exec.execute("c", () -> {
            cStarted.countDown();
            await(cRelease);
        });
        assertTrue(cStarted.await(10, TimeUnit.SECONDS));
        CountDownLatch aRan = new CountDownLatch(1);
        exec.execute("a", aRan::countDown);
        AtomicReference<String> seen = new AtomicReference<>();
        CountDownLatch bDone = new CountDownLatch(1);
        exec.execute("b", () -> {
            boolean aRanAlready = aRan.getCount() == 0;
            CompletableFuture<Void> f = exec.flush("a");
            boolean doneAtOnce = f.isDone();
            String joined;
            try {
                f.get(5, TimeUnit.SECONDS);
                joined = "completed";
            } catch (Exception e) {
                joined = e.getClass().getSimpleName();
            }
            seen.set("aRanAlready=" + aRanAlready + " doneAtOnce=" + doneAtOnce + " get=" + joined);
            bDone.countDown();
        });
        cRelease.countDown();
        assertTrue(bDone.await(30, TimeUnit.SECONDS));
        exec.close();
        pool.shutdown();
        assertEquals("aRanAlready=true doneAtOnce=true get=completed", seen.get());
    }
}
