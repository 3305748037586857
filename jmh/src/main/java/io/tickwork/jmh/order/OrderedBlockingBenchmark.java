package io.tickwork.jmh.order;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Ordered execution of blocking work, the main reason to order by key on virtual threads (a
 * database write per account, a call per user): tasks completed per second when one producer
 * submits {@value #BATCH} tasks round-robin over K keys (16, 256) and every task parks for
 * {@code parkMicros} (100 µs; 0 for cheap tasks), on a cached pool or on virtual threads.
 *
 * <p>One operation = the batch submitted, then waited for (acquire loads, spin then yield), so the
 * score is completed tasks per second. A key's tasks are serial, so the bound for 100 µs tasks is
 * K / 100 µs when every key runs at once (160k/s at 16 keys, 2.56 M/s at 256; the park's timer
 * slack makes each task longer): an executor that caps the keys running at once shows here as a
 * fraction of that. Peers: Guava's sequential executor per key (each key's drain is a pool task),
 * the ConcurrentLinkedQueue and JCTools mailboxes per key, and {@code striped} with
 * {@value #STRIPES} single-thread executors (its own threads: a key shares its thread with the
 * others of its stripe, so a blocked task holds them up). Not measured: task and key allocation
 * (preallocated), building per-key structures (in setup).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class OrderedBlockingBenchmark {
    static final int BATCH = 1024;

    /** Stripes of the striped peer here: a thread pool size a user might pick for blocking I/O. */
    static final int STRIPES = 64;

    @Param({"keyed", "guavaSequential", "clqDrainer", "jctoolsMailbox", "striped"})
    public String variant;

    @Param({"16", "256"})
    public int keys;

    /** {@code cached} or {@code virtual} (JDK 21+); see {@link BenchPools}. */
    @Param({"cached", "virtual"})
    public String pool;

    @Param({"100", "0"})
    public int parkMicros;

    ExecutorService executorPool;
    OrderSubject.Keyed target;
    Task[] tasks;
    long[] submitted;
    int cursor;

    /** Parks, then counts its runs with a plain increment published by a release store. */
    static final class Task implements Runnable {
        private final AtomicInteger runs = new AtomicInteger();
        private final long parkNanos;

        Task(long parkNanos) {
            this.parkNanos = parkNanos;
        }

        @Override
        public void run() {
            if (parkNanos > 0) {
                LockSupport.parkNanos(parkNanos);
            }
            runs.lazySet(runs.get() + 1); // plain increment: correct only because a key's tasks are serial
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        executorPool = BenchPools.create(pool);
        target = OrderSubject.valueOf(variant).create(executorPool, keys, STRIPES);
        tasks = new Task[keys];
        submitted = new long[keys];
        for (int k = 0; k < keys; k++) {
            tasks[k] = new Task(TimeUnit.MICROSECONDS.toNanos(parkMicros));
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        target.close();
        executorPool.shutdownNow();
        executorPool.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public void oneProducer(Blackhole bh) {
        final int keys = this.keys;
        int k = cursor;
        for (int i = 0; i < BATCH; i++) {
            target.execute(k, tasks[k]);
            submitted[k]++;
            if (++k == keys) {
                k = 0;
            }
        }
        cursor = k;
        long spins = 0;
        for (int j = 0; j < keys; j++) {
            while (tasks[j].runs.get() < submitted[j]) {
                if (++spins % 64 == 0) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
            }
        }
        bh.consume(spins);
    }
}
