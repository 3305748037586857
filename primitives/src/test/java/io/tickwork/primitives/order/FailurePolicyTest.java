package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which throwables go to the failure handler and which are rethrown: a {@link VirtualMachineError}
 * reaches the pool thread, is never passed to the handler, and the key's remaining tasks still run.
 */
class FailurePolicyTest {
    private static final long AWAIT_SECONDS = 60;

    /** A 2-thread pool whose threads report uncaught throwables to {@code uncaught}, counting {@code reported} down. */
    private static ExecutorService poolReportingTo(List<Throwable> uncaught, CountDownLatch reported) {
        return new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r);
            t.setUncaughtExceptionHandler((thread, e) -> {
                uncaught.add(e);
                reported.countDown();
            });
            return t;
        });
    }

    private static int recurse(int depth) {
        return depth == Integer.MAX_VALUE ? depth : recurse(depth + 1) + 1;
    }

    @Test
    void aStackOverflowReachesThePoolThreadAndTheKeysNextTasksRun() throws Exception {
        List<Throwable> uncaught = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> handled = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch reported = new CountDownLatch(2);
        ExecutorService pool = poolReportingTo(uncaught, reported);
        try {
            KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.builder(pool)
                    .failureHandler((String key, Runnable task, Throwable e) -> handled.add(e))
                    .build();
            List<Integer> log = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch after = new CountDownLatch(1);
            keyed.execute("k", () -> log.add(recurse(0)));
            keyed.execute("k", () -> log.add(1));
            keyed.execute("k", () -> {
                throw new OutOfMemoryError("simulated");
            });
            keyed.execute("k", () -> {
                log.add(2);
                after.countDown();
            });
            assertTrue(after.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the key stalled after a VirtualMachineError");
            keyed.close();
            assertEquals(List.of(1, 2), log);
            assertEquals(List.of(), handled, "a VirtualMachineError went to the handler");
            assertTrue(
                    reported.await(AWAIT_SECONDS, TimeUnit.SECONDS), () -> "rethrown to the pool threads: " + uncaught);
            List<String> kinds = new ArrayList<>();
            for (Throwable t : uncaught) {
                kinds.add(t.getClass().getSimpleName());
            }
            Collections.sort(kinds);
            assertEquals(List.of("OutOfMemoryError", "StackOverflowError"), kinds);
            assertEquals(2, keyed.stats().failedTasks());
        } finally {
            pool.shutdownNow();
        }
    }

    /** If the pool refuses to take the key's work over, the worker drains it first, then rethrows. */
    @Test
    void whenThePoolRefusesTheHandOverTheWorkerDrainsThenRethrows() {
        Pools.Manual pool = new Pools.Manual();
        KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
        List<String> log = new ArrayList<>();
        OutOfMemoryError simulated = new OutOfMemoryError("simulated");
        keyed.execute("k", () -> {
            throw simulated;
        });
        keyed.execute("k", () -> log.add("after"));
        keyed.execute("other", () -> log.add("other"));
        Runnable worker = pool.take();
        pool.rejecting.set(true);
        OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class, worker::run);
        assertSame(simulated, thrown);
        assertEquals(List.of("other", "after"), log); // the key went back behind "other"
        assertEquals(0, keyed.registeredKeys());
    }

    /**
     * A producer that must start the first worker has already queued its key: if it cannot
     * allocate the worker, the reserve one runs the key, and a key that would need a reserve
     * already used is refused before it is queued, so nothing waits without a worker.
     */
    @Test
    void aFirstWorkerThatCannotBeAllocatedIsReplacedByTheReserve() {
        Pools.Manual pool = new Pools.Manual();
        KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
        List<String> log = new ArrayList<>();
        keyed.dispatcher.workerFactory = d -> {
            throw new OutOfMemoryError("simulated");
        };
        try {
            keyed.execute("k", () -> log.add("k"));
        } catch (OutOfMemoryError e) {
            fail("the first worker's allocation failed with the key queued: " + e);
        }
        assertThrows(OutOfMemoryError.class, () -> keyed.execute("other", () -> log.add("other")));
        assertEquals(1, pool.runAll());
        assertEquals(List.of("k"), log); // "other" was refused before it was queued

        keyed.dispatcher.workerFactory = Worker::new; // memory again: the reserve is refilled first
        keyed.execute("other", () -> log.add("other again"));
        assertEquals(1, pool.runAll());
        assertEquals(List.of("k", "other again"), log);
        keyed.shutdown();
        assertTrue(keyed.isTerminated());
    }

    /** A key whose {@code hashCode} throws while {@code broken} is set. */
    private static final class FlakyKey {
        boolean broken;

        @Override
        public int hashCode() {
            if (broken) {
                throw new IllegalStateException("hashCode of a broken key");
            }
            return 42;
        }
    }

    /**
     * A key whose {@code hashCode} throws when a worker releases it idle, on the pool's thread: the
     * throwable goes to that thread's handler and the worker goes on, so every other key runs and
     * the executor terminates; the key stays registered until it works again. Released as the
     * worker leaves, or mid-run, pushed out by the keys that went idle after it.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, Worker.IDLE_SLOTS + 1})
    void aKeyThatThrowsWhenReleasedOnAPoolThreadStallsNothing(int keysIdleAfterIt) {
        Pools.Manual pool = new Pools.Manual();
        KeyedSerialExecutor<Object> keyed = KeyedSerialExecutor.create(pool);
        List<Throwable> uncaught = new ArrayList<>();
        Thread self = Thread.currentThread();
        Thread.UncaughtExceptionHandler before = self.getUncaughtExceptionHandler();
        self.setUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        try {
            FlakyKey key = new FlakyKey();
            List<String> log = new ArrayList<>();
            keyed.execute(key, () -> {
                log.add("key");
                key.broken = true; // the worker's release of the idle key now throws
            });
            for (int i = 0; i < keysIdleAfterIt; i++) {
                keyed.execute(i, () -> {});
            }
            assertTrue(pool.runAll() >= 1); // the worker (and a helper it asks for): on this thread, as a pool thread
            assertEquals(1, uncaught.size(), () -> "reported: " + uncaught);
            assertEquals("hashCode of a broken key", uncaught.get(0).getMessage());
            assertEquals(1, keyed.registeredKeys()); // retired, kept
            assertEquals(keysIdleAfterIt + 1, keyed.stats().completedTasks());

            keyed.execute("other", () -> log.add("other"));
            assertEquals(1, pool.runAll(), "no worker was started for another key");
            assertThrows(IllegalStateException.class, () -> keyed.execute(key, () -> log.add("refused")));
            key.broken = false;
            keyed.execute(key, () -> log.add("key again"));
            assertEquals(1, pool.runAll());
            assertEquals(List.of("key", "other", "key again"), log);
            assertEquals(0, keyed.registeredKeys());
            keyed.shutdown();
            assertTrue(keyed.isTerminated());
        } finally {
            self.setUncaughtExceptionHandler(before);
        }
    }

    @Test
    void aThrowingHandlersFailureGoesToTheThreadWithTheTasksFailureSuppressed() throws Exception {
        List<Throwable> uncaught = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = poolReportingTo(uncaught, new CountDownLatch(1));
        try {
            IllegalStateException handlerFailure = new IllegalStateException("handler");
            KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.builder(pool)
                    .failureHandler((String key, Runnable task, Throwable e) -> {
                        throw handlerFailure;
                    })
                    .build();
            RuntimeException taskFailure = new RuntimeException("task");
            CountDownLatch next = new CountDownLatch(1);
            keyed.execute("k", () -> {
                throw taskFailure;
            });
            keyed.execute("k", next::countDown);
            assertTrue(next.await(AWAIT_SECONDS, TimeUnit.SECONDS));
            keyed.close();
            assertEquals(List.of(handlerFailure), uncaught);
            assertEquals(List.of(taskFailure), List.of(handlerFailure.getSuppressed()));
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }
}
