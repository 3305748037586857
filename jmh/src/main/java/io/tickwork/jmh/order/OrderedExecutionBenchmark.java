package io.tickwork.jmh.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Ordered execution, end to end: tasks completed per second when 1 or 2 producer threads submit
 * to K keys (1, 64, 100000) and a pool (by default a 2-thread ThreadPoolExecutor or ForkJoinPool) runs them,
 * each variant beside the peers in one {@code @Param} sweep.
 *
 * <p>One operation = one producer submits {@value #BATCH} tasks round-robin over the keys, then
 * waits until every one of them has run; the score is therefore completed tasks per second
 * ({@code @OperationsPerInvocation}), not submissions per second, and no backlog survives an
 * operation or an iteration. The task is a preallocated object per (producer, key) that counts
 * its runs with a plain increment published by a release store: the serial guarantee is what
 * makes the plain increment correct, so each variant's ordering is exercised (at K = 1 and 64;
 * at K = 100,000 a batch holds fewer tasks than keys, so each key runs one task per operation, and
 * the order is checked by {@code OrderSubjectsTest} instead), and the task's own cost is a few
 * nanoseconds. What is deliberately not measured: creating tasks (preallocated),
 * boxing keys (preallocated), building per-key executors (in setup; the {@code keyed} variant
 * creates and retires its per-key state by design, and that is measured). Completion is observed
 * by acquire loads, spin then yield, because the machine has 2 cores shared by producers and pool.
 *
 * <p>{@code background = cpuJob} shares the pool with a CPU-bound job, as a service's common pool
 * is shared: the producers keep two chunks of about 5 µs of arithmetic queued on the pool at all
 * times (topped up from the producer threads, so the chunks queue behind the ordered tasks in
 * every pool, FIFO, instead of running from a ForkJoinPool worker's local deque), and the
 * auxiliary score {@code backgroundChunks} is the chunks completed per second. An executor that
 * keeps pool threads after its queue runs dry (spinning or parking resident workers) shows here
 * as fewer background chunks, beside the same variant's tasks per second.
 *
 * <p>{@code striped} uses its own 2 threads and ignores {@code pool}. The pools by default are the
 * two 2-thread pools; {@code -p pool=cached,virtual} runs the same rows on a cached pool and on
 * virtual threads (JDK 21+), where the executors' concurrency is not capped by the pool. Blocking
 * tasks: {@link OrderedBlockingBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class OrderedExecutionBenchmark {
    static final int BATCH = 8192;

    @Param({"keyed", "guavaSequential", "clqDrainer", "jctoolsMailbox", "striped"})
    public String variant;

    @Param({"1", "64", "100000"})
    public int keys;

    /** {@code threadPool2}, {@code forkJoin2}; also {@code cached}, {@code virtual} (JDK 21+): see {@link BenchPools}. */
    @Param({"threadPool2", "forkJoin2"})
    public String pool;

    /** {@code none}, or {@code cpuJob}: the pool also runs a CPU-bound background job. */
    @Param({"none", "cpuJob"})
    public String background;

    ExecutorService executorPool;
    BackgroundJob job;
    OrderSubject.Keyed target;
    final AtomicInteger producerIds = new AtomicInteger();

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        OrderSubject v = OrderSubject.valueOf(variant);
        if (params.getThreads() > 1 && !v.concurrentProducers) {
            throw new IllegalStateException(
                    variant + " is single-producer: skipped with " + params.getThreads() + " producers");
        }
        executorPool = BenchPools.create(pool);
        target = v.create(executorPool, keys);
        job = switch (background) {
            case "none" -> null;
            case "cpuJob" -> new BackgroundJob(executorPool);
            default -> throw new IllegalArgumentException("background must be none or cpuJob: " + background);
        };
        producerIds.set(0);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        if (job != null) {
            job.stop();
        }
        target.close();
        executorPool.shutdownNow();
        executorPool.awaitTermination(10, TimeUnit.SECONDS);
    }

    /** Runs counted by a plain increment: correct only because a key's tasks are serial. */
    static final class CountingTask implements Runnable {
        private static final VarHandle RUNS;

        static {
            try {
                RUNS = MethodHandles.lookup().findVarHandle(CountingTask.class, "runs", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private long runs;

        @Override
        public void run() {
            RUNS.setRelease(this, runs + 1);
        }

        long runsAcquire() {
            return (long) RUNS.getAcquire(this);
        }
    }

    /**
     * The shared pool's other work: chunks of arithmetic, {@value #IN_FLIGHT} queued at all times
     * while {@link #topUp} is called. Thread safe.
     */
    static final class BackgroundJob {
        static final int IN_FLIGHT = 2;
        static final int ROUNDS = 5_000; // about 5 µs per chunk on the benchmark machine

        private final Executor pool;
        private final AtomicInteger inFlight = new AtomicInteger();
        private final AtomicLong chunks = new AtomicLong();
        private volatile boolean stopped;
        private volatile long sink;
        private final Runnable chunk = () -> {
            long x = System.nanoTime() | 1;
            for (int i = 0; i < ROUNDS; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
            sink = x; // keeps the loop's result live
            chunks.incrementAndGet();
            inFlight.decrementAndGet();
        };

        BackgroundJob(Executor pool) {
            this.pool = pool;
        }

        /** Queues chunks until {@value #IN_FLIGHT} are in flight. */
        void topUp() {
            for (int n; !stopped && (n = inFlight.get()) < IN_FLIGHT; ) {
                if (inFlight.compareAndSet(n, n + 1)) {
                    pool.execute(chunk);
                }
            }
        }

        long chunks() {
            return chunks.get();
        }

        void stop() {
            stopped = true;
        }
    }

    /** Background chunks completed per second, reported by the first producer only. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Background {
        public long backgroundChunks;
        long base = -1;

        /** The job's count when the iteration starts: its first invocation's chunks count too. */
        @Setup(Level.Iteration)
        public void reset(OrderedExecutionBenchmark bench) {
            backgroundChunks = 0;
            base = bench.job == null ? -1 : bench.job.chunks();
        }

        void record(Producer p, BackgroundJob job) {
            if (job == null || p.id != 0) {
                return;
            }
            backgroundChunks = job.chunks() - base;
        }
    }

    @State(Scope.Thread)
    public static class Producer {
        CountingTask[] tasks;
        long[] submitted;
        int cursor;
        int id;

        @Setup(Level.Trial)
        public void setUp(OrderedExecutionBenchmark bench) {
            int id = bench.producerIds.getAndIncrement();
            this.id = id;
            tasks = new CountingTask[bench.keys];
            submitted = new long[bench.keys];
            for (int k = 0; k < bench.keys; k++) {
                tasks[k] = new CountingTask();
            }
            cursor = (int) ((long) id * bench.keys / 2); // producers start apart
        }
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public void oneProducer(Producer producer, Background background, Blackhole bh) {
        bh.consume(submitBatchAndAwait(producer));
        background.record(producer, job);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(BATCH)
    public void twoProducers(Producer producer, Background background, Blackhole bh) {
        bh.consume(submitBatchAndAwait(producer));
        background.record(producer, job);
    }

    private long submitBatchAndAwait(Producer p) {
        final OrderSubject.Keyed target = this.target;
        final int keys = this.keys;
        final CountingTask[] tasks = p.tasks;
        final long[] submitted = p.submitted;
        final BackgroundJob job = this.job;
        final int start = p.cursor;
        int k = start;
        for (int i = 0; i < BATCH; i++) {
            if (job != null && (i & 1023) == 0) {
                job.topUp();
            }
            target.execute(k, tasks[k]);
            submitted[k]++;
            if (++k == keys) {
                k = 0;
            }
        }
        p.cursor = k;
        // wait for the batch: every key it touched must have run all its tasks so far
        int touched = Math.min(BATCH, keys);
        long spins = 0;
        k = start;
        for (int j = 0; j < touched; j++) {
            CountingTask task = tasks[k];
            long expected = submitted[k];
            while (task.runsAcquire() < expected) {
                if (++spins % 64 == 0) {
                    if (job != null) {
                        job.topUp();
                    }
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
            }
            if (++k == keys) {
                k = 0;
            }
        }
        return spins;
    }
}
