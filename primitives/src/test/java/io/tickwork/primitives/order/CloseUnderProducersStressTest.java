package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code close()} while many producers keep submitting to many keys, so keys go busy and idle
 * all the time on every thread: eight producers and the pool's four threads over the busy-key
 * count's cells (four on 2 cores, more on larger machines), so on small machines threads share
 * cells and add to them at once. Each round: {@code close()} returns (the busy count
 * reached zero), the executor is terminated, and every task an {@code execute} accepted has run
 * by then, exactly once; every rejected one never runs.
 *
 * <p>Its power: with the cell's atomic add split into a read and a write ({@code Lifecycle.add}),
 * a lost decrement leaves the count above zero and {@code close()} never returns, and a lost
 * increment lets it reach zero while a key is busy: the executor terminates with accepted tasks
 * not yet run.
 */
class CloseUnderProducersStressTest {
    private static final int PRODUCERS = 8;
    private static final int ROUNDS = 40;
    private static final int KEYS = 64;

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("io.tickwork.primitives.order.SerialGuaranteesTest#variantsOnPools")
    @Timeout(120)
    void closeUnderLoadTerminatesWithEveryAcceptedTaskRunOnce(
            Variant variant, String poolName, IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(4);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                runRound(variant.create(pool), round);
            }
        } finally {
            Pools.shutdownAndAwait(pool);
        }
    }

    private static void runRound(KeyedSerialExecutor<Integer> target, int round) throws Exception {
        LongAdder accepted = new LongAdder();
        LongAdder ran = new LongAdder();
        CountDownLatch going = new CountDownLatch(PRODUCERS);
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            SplittableRandom random = new SplittableRandom(round * 31L + p);
            Thread t = new Thread(() -> {
                going.countDown();
                for (int i = 0; ; i++) {
                    try {
                        target.execute(random.nextInt(KEYS), ran::increment);
                        accepted.increment();
                    } catch (RejectedExecutionException e) {
                        return; // a rejected task must never run: ran counts no more than accepted
                    }
                    if ((i & 63) == 0) {
                        Thread.yield(); // let the keys drain and go idle now and then
                    }
                }
            });
            t.start();
            producers.add(t);
        }
        try {
            assertTrue(going.await(60, TimeUnit.SECONDS));
            // let them run a while: until some thousands of tasks ran (or 10 s passed)
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ran.sum() < 5_000 && System.nanoTime() < until) {
                Thread.yield();
            }
        } finally {
            target.close(); // also when an assertion failed: the producers are then rejected and end
        }
        long ranAtClose = ran.sum();
        for (Thread t : producers) {
            t.join(60_000);
            assertTrue(!t.isAlive(), "a producer was never rejected");
        }
        assertTrue(target.isTerminated(), target::toString);
        assertEquals(
                accepted.sum(),
                ranAtClose,
                () -> "accepted tasks not run (or rejected ones run) when close() returned: " + target);
        assertEquals(ranAtClose, ran.sum(), "tasks ran after close() returned");
        assertEquals(accepted.sum(), target.stats().completedTasks(), target::toString);
    }
}
