package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Concurrent producers never both own a successor, and the protocol as a whole holds, under
 * load: several producers submit to many keys at random; every task checks mutual exclusion of
 * its key and that it is exactly the next task of its (producer, key) pair, which catches
 * overlaps, reordering, loss and duplicates alike. Producers also flush the key they just used
 * now and then: each flush must complete, and not before that task ran. Rounds end with the pool
 * idle, so keys and workers go idle and restart thousands of times.
 *
 * <p>Its power: each of these weakenings of the protocol makes it fail: a producer appending
 * behind a retired lane (tasks stranded); closing a lane with a plain store of its tail instead of
 * the CAS; counting the workers queued in the pool with a plain read-add-write (the count, which
 * tells a worker whether the pool has other work, ends away from 0). The handshakes whose windows are a few instructions wide (a worker leaving or turning
 * busy versus a producer, the lifecycle's busy count, the queue bound) have jcstress tests of
 * their own ({@code jcstress-tests}), and so does a flush meeting a lane just retired
 * ({@code KeyedFlushVersusRetire}): here a flush that completes before its key's earlier tasks
 * fails every run.
 */
class ManyProducersManyKeysStressTest {
    private static final int PRODUCERS = 4;
    private static final int TASKS_PER_PRODUCER = 250_000;
    /**
     * Every ROUND tasks each producer waits for its own tasks, then for the other producers: the
     * pool goes idle between rounds, which exercises the idle/restart races (a lane or worker left
     * stranded shows up as a round that never completes) far more often than one long burst would.
     */
    private static final int ROUND = 500;
    /** Every FLUSH_EVERY tasks a producer flushes the key it just used, racing drains and retirements. */
    private static final int FLUSH_EVERY = 97;

    static Stream<Arguments> configurations() {
        List<Arguments> all = new ArrayList<>();
        for (Variant v : Variant.values()) {
            for (int keys : new int[] {16, 4096}) {
                all.add(Arguments.of(v, keys, "threadPool(4)", (IntFunction<ExecutorService>) Pools::threadPool));
                all.add(Arguments.of(v, keys, "forkJoin(4)", (IntFunction<ExecutorService>) Pools::forkJoin));
            }
        }
        return all.stream();
    }

    /** Per-key state, written only by that key's tasks (so plain fields are enough if the executor is correct). */
    static final class KeyState {
        final AtomicInteger inFlight = new AtomicInteger();
        final int[] lastSeq = new int[PRODUCERS];

        KeyState() {
            java.util.Arrays.fill(lastSeq, -1);
        }
    }

    /** Bounded wait (hang detection, not timing): fails if a round's tasks never all run. */
    private static void awaitCompleted(AtomicLong completed, long expected) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (completed.get() < expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("stranded: " + completed.get() + " of " + expected + " tasks ran");
            }
            Thread.yield();
        }
    }

    @ParameterizedTest(name = "{0}, {1} keys, {2}")
    @MethodSource("configurations")
    void everyKeyRunsItsTasksOnceEachInOrderAndNeverOverlapping(
            Variant variant, int keys, String poolName, IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(4);
        ExecutorService producers = Pools.threadPool(PRODUCERS);
        KeyedSerialExecutor<Integer> target = variant.create(pool, 4, null);
        KeyState[] states = new KeyState[keys];
        for (int k = 0; k < keys; k++) {
            states[k] = new KeyState();
        }
        AtomicLong overlaps = new AtomicLong();
        AtomicLong outOfSequence = new AtomicLong();
        AtomicLong flushes = new AtomicLong();
        AtomicLong flushesCompleted = new AtomicLong();
        AtomicLong flushesEarly = new AtomicLong();
        CountDownLatch done = new CountDownLatch(PRODUCERS * TASKS_PER_PRODUCER);
        AtomicLong[] completedBy = new AtomicLong[PRODUCERS];
        for (int p = 0; p < PRODUCERS; p++) {
            completedBy[p] = new AtomicLong();
        }
        int[][] submitted = new int[PRODUCERS][keys];
        CyclicBarrier start = new CyclicBarrier(PRODUCERS);
        List<Future<?>> running = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            running.add(producers.submit(() -> {
                SplittableRandom random = new SplittableRandom(42 + producer);
                int[] next = submitted[producer];
                AtomicLong completed = completedBy[producer];
                start.await();
                for (int i = 0; i < TASKS_PER_PRODUCER; i++) {
                    if (i % ROUND == 0) {
                        awaitCompleted(completed, i);
                        start.await(30, TimeUnit.SECONDS); // all producers quiet: the pool goes idle
                    }
                    int key = random.nextInt(keys);
                    int seq = next[key]++;
                    KeyState state = states[key];
                    target.execute(key, () -> {
                        if (state.inFlight.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        if (state.lastSeq[producer] != seq - 1) {
                            outOfSequence.incrementAndGet();
                        }
                        state.lastSeq[producer] = seq;
                        state.inFlight.decrementAndGet();
                        completed.incrementAndGet();
                        done.countDown();
                    });
                    if (i % FLUSH_EVERY == 0) {
                        // completes after every task of the key accepted before it, this one included
                        flushes.incrementAndGet();
                        target.flush(key).thenRun(() -> {
                            if (state.lastSeq[producer] < seq) {
                                flushesEarly.incrementAndGet();
                            }
                            flushesCompleted.incrementAndGet();
                        });
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get(60, TimeUnit.SECONDS);
        }
        boolean finished = done.await(60, TimeUnit.SECONDS);
        Pools.shutdownAndAwait(pool);
        Pools.shutdownAndAwait(producers);
        assertEquals(0, overlaps.get(), "overlapping runs of a key");
        assertEquals(0, outOfSequence.get(), "tasks out of sequence (reordered, lost or duplicated)");
        assertTrue(finished, () -> "tasks never ran: " + done.getCount());
        for (int k = 0; k < keys; k++) {
            for (int p = 0; p < PRODUCERS; p++) {
                assertEquals(submitted[p][k] - 1, states[k].lastSeq[p], "key " + k + " producer " + p);
            }
        }
        assertEquals(0, flushesEarly.get(), "flushes completed before a task accepted before them ran");
        assertEquals(flushes.get(), flushesCompleted.get(), "flushes never completed");
        assertEquals(0, target.registeredKeys(), "idle keys still registered");
        // every worker handed to the pool has started or been taken back: a count left over would
        // make a worker misjudge whether the pool has other work (and when to let it run)
        assertEquals(0, target.dispatcher.inPool, "workers still counted as queued in the pool");
        assertTrue(
                target.stats().toString().contains("completedTasks=" + PRODUCERS * TASKS_PER_PRODUCER),
                target::toString);
    }
}
