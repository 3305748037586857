package io.tickwork.jmh.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every variant of the ordered-execution benchmarks, ours and each peer's adapter, on the pools
 * the benchmarks use (virtual threads need JDK 21: {@link OrderSubjectsOnVirtualThreadsTest} runs this check there): each key's tasks run exactly once, one at a time, and in the order each
 * producer submitted them. The benchmark's plain-increment task relies on exactly this, so a
 * variant that broke it would be measured doing less work than the others.
 */
class OrderSubjectsTest {

    static final int TASKS_PER_PRODUCER = 20_000;

    static Stream<Arguments> variantsAndPools() {
        Stream.Builder<Arguments> cases = Stream.builder();
        for (OrderSubject v : OrderSubject.values()) {
            for (String pool : new String[] {"threadPool2", "forkJoin2", "cached"}) {
                for (int keys : new int[] {1, 7, 1000}) {
                    cases.add(Arguments.of(v, pool, keys));
                }
            }
        }
        return cases.build();
    }

    /** One key's record: what ran, checked by the task itself while it holds the key. */
    static final class KeyLog {
        final AtomicBoolean running = new AtomicBoolean();
        final List<long[]> runs = new ArrayList<>(); // {producer, sequence}; touched serially
        final AtomicInteger overlaps = new AtomicInteger();
    }

    @ParameterizedTest(name = "{0} on {1}, {2} keys")
    @MethodSource("variantsAndPools")
    void eachKeysTasksRunOnceInSubmissionOrder(OrderSubject variant, String poolName, int keys) throws Exception {
        ExecutorService pool = BenchPools.create(poolName);
        OrderSubject.Keyed target = variant.create(pool, keys);
        int producers = variant.concurrentProducers ? 2 : 1;
        KeyLog[] logs = new KeyLog[keys];
        for (int k = 0; k < keys; k++) {
            logs[k] = new KeyLog();
        }
        CountDownLatch done = new CountDownLatch(producers * TASKS_PER_PRODUCER);
        Thread[] threads = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            int producer = p;
            threads[p] = new Thread(() -> {
                for (int i = 0; i < TASKS_PER_PRODUCER; i++) {
                    int key = (i * 31 + producer) % keys;
                    long seq = i;
                    KeyLog log = logs[key];
                    target.execute(key, () -> {
                        if (!log.running.compareAndSet(false, true)) {
                            log.overlaps.incrementAndGet();
                        }
                        log.runs.add(new long[] {producer, seq});
                        log.running.set(false);
                        done.countDown();
                    });
                }
            });
            threads[p].start();
        }
        try {
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertTrue(done.await(30, TimeUnit.SECONDS), variant + ": tasks still pending after 30 s");
            int total = 0;
            for (int k = 0; k < keys; k++) {
                KeyLog log = logs[k];
                assertEquals(0, log.overlaps.get(), variant + ": two tasks of key " + k + " ran at once");
                long[] last = new long[producers];
                java.util.Arrays.fill(last, -1);
                for (long[] run : log.runs) {
                    int producer = (int) run[0];
                    assertTrue(
                            run[1] > last[producer],
                            variant + ": key " + k + " ran producer " + producer + "'s task " + run[1]
                                    + " after its task " + last[producer]);
                    last[producer] = run[1];
                }
                total += log.runs.size();
            }
            assertEquals(producers * TASKS_PER_PRODUCER, total, variant + ": tasks run");
        } finally {
            target.close();
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "pool did not terminate");
        }
    }
}
