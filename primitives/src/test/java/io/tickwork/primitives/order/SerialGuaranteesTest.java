package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** One test per documented guarantee of {@link KeyedSerialExecutor}, in every configuration, on the pools users run it on. */
class SerialGuaranteesTest {
    private static final long AWAIT_SECONDS = 60;

    static Stream<Arguments> variantsOnPools() {
        List<Arguments> all = new ArrayList<>();
        for (Variant v : Variant.values()) {
            all.add(Arguments.of(v, "threadPool(4)", (IntFunction<ExecutorService>) Pools::threadPool));
            all.add(Arguments.of(v, "forkJoin(4)", (IntFunction<ExecutorService>) Pools::forkJoin));
        }
        return all.stream();
    }

    /**
     * FIFO per key and happens-before between consecutive tasks: each key's log is a plain
     * ArrayList written by whichever pool thread runs the task; it must read 0..n-1 at the end.
     */
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("variantsOnPools")
    void tasksOfAKeyRunInSubmissionOrderAndSeeTheirPredecessorsWrites(
            Variant variant, String poolName, IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(4);
        int keys = 8;
        int perKey = 20_000;
        List<List<Integer>> logs = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            logs.add(new ArrayList<>()); // deliberately not thread safe
        }
        CountDownLatch done = new CountDownLatch(keys * perKey);
        KeyedSerialExecutor<Integer> target =
                variant.create(pool, 7, null); // small budget: many hand-offs between threads
        for (int i = 0; i < perKey; i++) {
            for (int k = 0; k < keys; k++) {
                List<Integer> log = logs.get(k);
                int seq = i;
                target.execute(k, () -> {
                    log.add(seq);
                    done.countDown();
                });
            }
        }
        assertTrue(done.await(AWAIT_SECONDS, TimeUnit.SECONDS), "tasks did not finish");
        Pools.shutdownAndAwait(pool); // also orders the logs' last writes before the reads below
        for (int k = 0; k < keys; k++) {
            List<Integer> log = logs.get(k);
            assertEquals(perKey, log.size(), "key " + k);
            for (int i = 0; i < perKey; i++) {
                assertEquals(i, log.get(i), "key " + k + " position " + i);
            }
        }
    }

    /** Mutual exclusion per key while different keys do run in parallel. */
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("variantsOnPools")
    void tasksOfAKeyNeverOverlap(Variant variant, String poolName, IntFunction<ExecutorService> pools)
            throws Exception {
        ExecutorService pool = pools.apply(4);
        int keys = 4;
        int perKey = 20_000;
        AtomicInteger[] inFlight = new AtomicInteger[keys];
        for (int k = 0; k < keys; k++) {
            inFlight[k] = new AtomicInteger();
        }
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(keys * perKey);
        KeyedSerialExecutor<Integer> target = variant.create(pool, 3, null);
        for (int i = 0; i < perKey; i++) {
            for (int k = 0; k < keys; k++) {
                AtomicInteger mine = inFlight[k];
                target.execute(k, () -> {
                    if (mine.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    Thread.onSpinWait();
                    mine.decrementAndGet();
                    done.countDown();
                });
            }
        }
        assertTrue(done.await(AWAIT_SECONDS, TimeUnit.SECONDS), "tasks did not finish");
        Pools.shutdownAndAwait(pool);
        assertEquals(0, overlaps.get(), "overlapping runs of one key");
    }

    /**
     * A key whose {@code hashCode} throws: {@code execute} throws that exception, the task is not
     * accepted (it never runs, nothing counts it), and the executor goes on for other keys.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void aKeyWhoseHashCodeThrowsIsRefusedWithItsExceptionAndNothingIsAccepted(Variant variant) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        IllegalStateException broken = new IllegalStateException("no hash for this key");
        Object badKey = new Object() {
            @Override
            public int hashCode() {
                throw broken;
            }
        };
        KeyedSerialExecutor.Builder<Object> b = KeyedSerialExecutor.builder(pool);
        switch (variant) {
            case TWO_WORKERS -> b.maxConcurrentKeys(2);
            case BOUNDED -> b.maxQueuedPerKey(Integer.MAX_VALUE);
            default -> {}
        }
        try {
            KeyedSerialExecutor<Object> target = b.build();
            AtomicBoolean ran = new AtomicBoolean();
            assertSame(
                    broken,
                    assertThrows(IllegalStateException.class, () -> target.execute(badKey, () -> ran.set(true))));
            AtomicInteger good = new AtomicInteger();
            for (int i = 0; i < 100; i++) {
                target.execute("key-" + (i % 7), good::incrementAndGet);
            }
            target.close();
            assertTrue(target.isTerminated());
            assertFalse(ran.get(), "the refused task ran");
            assertEquals(100, good.get());
            assertEquals(100, target.stats().completedTasks());
            assertEquals(0, target.stats().queuedTasks());
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    /** A chain of 1,000,000 linked tasks drains in one frame: no StackOverflowError, no stack growth. */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void aMillionLinkedTasksDrainWithoutGrowingTheStack(Variant variant) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        // budget larger than the chain: one pool thread drains all of it in one run() call
        KeyedSerialExecutor<Integer> target =
                variant.create(pool, Integer.MAX_VALUE, (key, task, e) -> failure.compareAndSet(null, e));
        CountDownLatch gate = new CountDownLatch(1);
        int chain = 1_000_000;
        int[] ran = {0}; // plain: the executor's happens-before makes this safe
        int[] outOfOrder = {0};
        AtomicInteger maxDepth = new AtomicInteger();
        target.execute(0, () -> awaitUninterruptibly(gate)); // holds the drainer so the rest links
        for (int i = 0; i < chain; i++) {
            int seq = i;
            target.execute(0, () -> {
                if (ran[0]++ != seq) {
                    outOfOrder[0]++;
                }
                if (seq % 100_000 == 0) {
                    maxDepth.accumulateAndGet(Thread.currentThread().getStackTrace().length, Math::max);
                }
            });
        }
        gate.countDown();
        Pools.shutdownAndAwait(pool);
        assertNull(failure.get(), () -> "a task failed: " + failure.get());
        assertEquals(chain, ran[0]);
        assertEquals(0, outOfOrder[0]);
        assertTrue(maxDepth.get() < 64, "stack depth grew with the chain: " + maxDepth.get());
    }

    /**
     * On a pool that runs tasks in the caller, a chain across keys (each task schedules the next
     * key) runs in the one drain already on the thread, not a drain nested per key: 100,000 keys
     * deep, no StackOverflowError, a shallow stack, every task run in order.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void aChainAcrossKeysOnACallerRunsPoolDoesNotNestADrainPerKey(Variant variant) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        KeyedSerialExecutor<Integer> keyed = variant.create(
                Runnable::run,
                KeyedSerialExecutor.DEFAULT_FAIRNESS_BUDGET,
                (key, task, e) -> failure.compareAndSet(null, e));
        int keys = 100_000;
        int[] ran = {0};
        AtomicInteger maxDepth = new AtomicInteger();
        Runnable[] step = new Runnable[keys];
        for (int i = 0; i < keys; i++) {
            int k = i;
            step[i] = () -> {
                if (ran[0]++ != k) {
                    throw new AssertionError("key " + k + " ran at " + (ran[0] - 1));
                }
                if (k % 10_000 == 0) {
                    maxDepth.accumulateAndGet(Thread.currentThread().getStackTrace().length, Math::max);
                }
                if (k + 1 < keys) {
                    keyed.execute(k + 1, step[k + 1]);
                }
            };
        }
        keyed.execute(0, step[0]);
        keyed.close();
        assertNull(failure.get(), () -> "a task failed: " + failure.get());
        assertEquals(keys, ran[0]);
        assertTrue(maxDepth.get() < 200, "stack depth grew with the chain: " + maxDepth.get());
    }

    /**
     * A throwing task (an {@code Error} that is not a {@code VirtualMachineError} too) is reported
     * to the handler with its key and task, and the next task runs; a throwing handler does not
     * stall the key either.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void aThrowingTaskIsReportedWithItsKeyAndTheNextTaskRuns(Variant variant) throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        List<String> reported = Collections.synchronizedList(new ArrayList<>());
        RuntimeException boom = new RuntimeException("boom");
        Runnable throwing = () -> {
            throw boom;
        };
        Runnable erring = () -> {
            throw new AssertionError("an Error is reported too");
        };
        KeyedSerialExecutor<Integer> target = variant.create(pool, 16, (key, task, e) -> {
            reported.add(key + " " + (task == throwing ? "throwing" : task == erring ? "erring" : "?") + " "
                    + e.getClass().getSimpleName());
            throw new IllegalStateException("handler fails too");
        });
        CountDownLatch after = new CountDownLatch(2);
        target.execute(1, throwing);
        target.execute(1, after::countDown);
        target.execute(1, erring);
        target.execute(1, after::countDown);
        assertTrue(after.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the key stalled after a failure");
        Pools.shutdownAndAwait(pool);
        assertEquals(List.of("1 throwing RuntimeException", "1 erring AssertionError"), reported);
        assertEquals(2, target.stats().failedTasks());
        assertEquals(4, target.stats().completedTasks());
    }

    /**
     * The handler runs with the interrupt flag the failed task left (here set), and the key's
     * next task starts with it clear.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void theHandlerSeesTheFailedTasksInterruptAndTheNextTaskDoesNot(Variant variant) throws Exception {
        ExecutorService pool = Pools.threadPool(1);
        AtomicBoolean handlerSawInterrupt = new AtomicBoolean();
        AtomicBoolean nextStartedInterrupted = new AtomicBoolean(true);
        KeyedSerialExecutor<Integer> target = variant.create(
                pool,
                16,
                (key, task, e) -> handlerSawInterrupt.set(Thread.currentThread().isInterrupted()));
        CountDownLatch next = new CountDownLatch(1);
        target.execute(1, () -> {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted, then failed");
        });
        target.execute(1, () -> {
            nextStartedInterrupted.set(Thread.currentThread().isInterrupted());
            next.countDown();
        });
        assertTrue(next.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        Pools.shutdownAndAwait(pool);
        assertTrue(handlerSawInterrupt.get(), "the handler did not see the task's interrupt");
        assertFalse(nextStartedInterrupted.get(), "the next task started interrupted");
    }

    /** Default handler: the running thread's uncaught-exception handler. */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void failuresGoToTheThreadsUncaughtExceptionHandlerByDefault(Variant variant) throws Exception {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "order-test");
            t.setUncaughtExceptionHandler((thread, e) -> seen.set(e));
            return t;
        });
        KeyedSerialExecutor<Integer> target = variant.create(pool);
        RuntimeException boom = new RuntimeException("boom");
        CountDownLatch next = new CountDownLatch(1);
        target.execute(5, () -> {
            throw boom;
        });
        target.execute(5, next::countDown);
        assertTrue(next.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        Pools.shutdownAndAwait(pool);
        assertSame(boom, seen.get());
    }

    /**
     * Fairness: on a one-thread pool, a key with a long backlog runs exactly {@code budget} tasks
     * in a row, then another key's task gets the thread.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void aBusyKeyYieldsThePoolAfterItsBudget(Variant variant) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        int budget = 10;
        KeyedSerialExecutor<Integer> target = variant.create(pool, budget, null);
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(101);
        target.execute(1, () -> {
            awaitUninterruptibly(gate);
            log.add("busy");
            done.countDown();
        });
        for (int i = 1; i < 100; i++) {
            target.execute(1, () -> {
                log.add("busy");
                done.countDown();
            });
        }
        target.execute(2, () -> {
            log.add("other");
            done.countDown();
        });
        gate.countDown();
        // not shut down before the end: a hand-off to a shut-down pool drains inline instead
        assertTrue(done.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        Pools.shutdownAndAwait(pool);
        assertEquals(101, log.size());
        assertEquals(budget, log.indexOf("other"), "the other key waited for more than the budget: " + log);
    }

    @Test
    void optionsAreCheckedWhenSet() {
        Executor direct = Runnable::run;
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> KeyedSerialExecutor.builder(direct).fairnessBudget(0));
        assertEquals("fairnessBudget must be >= 1: 0", e.getMessage());
        IllegalArgumentException w = assertThrows(
                IllegalArgumentException.class,
                () -> KeyedSerialExecutor.builder(direct).maxConcurrentKeys(0));
        assertEquals("maxConcurrentKeys must be >= 1: 0", w.getMessage());
        IllegalArgumentException q = assertThrows(
                IllegalArgumentException.class,
                () -> KeyedSerialExecutor.builder(direct).maxQueuedPerKey(-1));
        assertEquals("maxQueuedPerKey must be >= 1: -1", q.getMessage());
        assertThrows(NullPointerException.class, () -> KeyedSerialExecutor.create(null));
        assertThrows(
                NullPointerException.class,
                () -> KeyedSerialExecutor.builder(direct).failureHandler(null));
        KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(direct);
        assertThrows(NullPointerException.class, () -> keyed.execute(null, () -> {}));
        assertThrows(NullPointerException.class, () -> keyed.execute("k", null));
        assertThrows(NullPointerException.class, () -> keyed.flush(null));
        assertThrows(NullPointerException.class, () -> keyed.executorFor(null));
    }

    private interface Executor extends java.util.concurrent.Executor {}

    /**
     * A rejected submission: the caller learns of it, the task never runs, and the key is not
     * stuck: a later submission runs, and so do later ones, in order.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void aRejectedSubmissionIsReportedAndTheKeyStaysUsable(Variant variant) {
        Pools.Manual pool = new Pools.Manual();
        KeyedSerialExecutor<Integer> target = variant.create(pool);
        List<String> log = new ArrayList<>();
        pool.rejecting.set(true);
        RejectedExecutionException e =
                assertThrows(RejectedExecutionException.class, () -> target.execute(9, () -> log.add("rejected")));
        // the message names the key first; the pool's own rejection, about an internal runnable, is the cause
        assertTrue(
                e.getMessage()
                        .startsWith("key 9: the pool refused a worker while none ran, so the task will not run: "),
                e.getMessage());
        assertInstanceOf(RejectedExecutionException.class, e.getCause());
        assertEquals(0, target.registeredKeys(), "a rejected key must not stay registered");
        assertEquals(1, target.stats().rejectedTasks());
        pool.rejecting.set(false);
        target.execute(9, () -> log.add("a"));
        target.execute(9, () -> log.add("b"));
        pool.runAll();
        assertEquals(List.of("a", "b"), log);
        assertEquals(0, target.registeredKeys(), "idle key still registered");
    }

    /**
     * Rejection racing with another producer: a task linked behind the rejected one (its
     * {@code execute} returned normally) is not lost; it runs, on the thread that saw the rejection.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void tasksLinkedBehindARejectedOneStillRun(Variant variant) {
        Pools.Manual pool = new Pools.Manual();
        KeyedSerialExecutor<Integer> target = variant.create(pool);
        List<String> log = new ArrayList<>();
        pool.rejecting.set(true);
        // while the pool is deciding to reject "first", "second" gets linked behind it
        pool.beforeReject = () -> target.execute(3, () -> log.add("second"));
        assertThrows(RejectedExecutionException.class, () -> target.execute(3, () -> log.add("first")));
        assertEquals(List.of("second"), log);
        pool.rejecting.set(false);
        target.execute(3, () -> log.add("third"));
        pool.runAll();
        assertEquals(List.of("second", "third"), log);
    }

    /** A rejected fairness hand-off keeps draining on the current thread: accepted work is never dropped. */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void aRejectedHandOffKeepsDrainingInline(Variant variant) {
        Pools.Manual pool = new Pools.Manual();
        KeyedSerialExecutor<Integer> target = variant.create(pool, 2, null);
        List<Integer> log = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            int seq = i;
            target.execute(4, () -> log.add(seq));
        }
        Runnable drainer = pool.take();
        assertNull(pool.take(), "one submission for a burst");
        pool.rejecting.set(true);
        drainer.run();
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), log);
        assertEquals(0, target.registeredKeys());
    }

    /** The last-run task (and what it captured) is unreachable from the executor once it ran. */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void aFinishedTaskIsNotRetained(Variant variant) throws Exception {
        Pools.Manual pool = new Pools.Manual();
        KeyedSerialExecutor<Integer> target = variant.create(pool);
        ReferenceQueue<Object> collected = new ReferenceQueue<>();
        WeakReference<Object> captured = submitTaskCapturing(target, collected);
        pool.runAll();
        assertTrue(awaitCollected(captured, collected), "the executor still retains the last task's captures");
        Reference.reachabilityFence(target);
    }

    private static WeakReference<Object> submitTaskCapturing(
            KeyedSerialExecutor<Integer> target, ReferenceQueue<Object> queue) {
        Object payload = new byte[1 << 16];
        int[] sink = {0};
        target.execute(11, () -> sink[0] += payload.hashCode());
        return new WeakReference<>(payload, queue);
    }

    /**
     * Requests collections until {@code ref}, registered with {@code queue} and its only
     * reference there, is cleared and enqueued; false if that has not happened within
     * {@link #COLLECT_SECONDS}. Waits for the event (the enqueueing) with a bounded
     * {@link ReferenceQueue#remove(long)}, so it returns as soon as the referent is collected, and
     * a referent that stays reachable fails the caller's assertion.
     */
    private static boolean awaitCollected(Reference<?> ref, ReferenceQueue<?> queue) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(COLLECT_SECONDS);
        do {
            System.gc(); // a request: the collector may need several before it clears a weak reference
            if (queue.remove(100) == ref) {
                return true;
            }
        } while (System.nanoTime() < deadline);
        return ref.get() == null;
    }

    private static final long COLLECT_SECONDS = 10;

    /** Idle keys are removed: after a burst over many keys drains, the keyed executor holds none. */
    @Test
    void idleKeysAreRemoved() throws Exception {
        ExecutorService pool = Pools.threadPool(2);
        KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
        CountDownLatch done = new CountDownLatch(100_000);
        for (int i = 0; i < 100_000; i++) {
            keyed.execute(i % 10_000, done::countDown);
        }
        assertTrue(done.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        Pools.shutdownAndAwait(pool); // the drainers retire lanes after their last task returns
        assertEquals(0, keyed.registeredKeys());
        assertEquals(0, keyed.stats().keysWithWork());
    }

    /** A task that counts {@code started} down, then holds its thread until {@code release} opens. */
    static Runnable holdUntil(CountDownLatch started, CountDownLatch release) {
        return () -> {
            started.countDown();
            awaitUninterruptibly(release);
        };
    }

    static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            if (!latch.await(AWAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
