package io.tickwork.jmh.scheduler;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The same three workloads as {@link KilimSwitchBenchmark} and {@link KilimTimerBenchmark} on JDK virtual
 * threads: {@code Thread.yield()} resumptions, two ping-pongs (one operation = one hand-off) and
 * {@code Thread.sleep(1)} expirations, with 200,000 virtual threads. {@link #queuePingPong} has the
 * shape of the Kilim one: each of a pair's two directions is a one-slot mailbox (an
 * {@code ArrayBlockingQueue} of capacity 1, as a Kilim {@code Mailbox} that a {@code put} does
 * not block while it has room); {@link #parkPingPong} is the leanest hand-off virtual threads have,
 * a volatile turn and {@code park}/{@code unpark}.
 *
 * <p>Needs JDK 21 or later at run time; the jar is compiled with {@code --release 17}, so virtual
 * threads are reached through a method handle on {@code Thread.ofVirtual()}. On an older JDK the
 * setup fails with a message saying so and JMH goes on with the next benchmark. The number of
 * carrier threads is the JDK's {@code jdk.virtualThreadScheduler.parallelism} (default: the core
 * count); {@link VirtualThreadOneCarrierBenchmark} and {@link VirtualThreadTwoCarriersBenchmark} run
 * the same on one and two carriers, in the same run as the schedulers' rows.
 *
 * <p>Not measured: creating the (unstarted) threads, in {@code @Setup(Level.Invocation)}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class VirtualThreadBenchmark {
    static final int THREADS = KilimSwitchBenchmark.TASKS;
    static final int YIELDS = KilimSwitchBenchmark.YIELDS;
    static final int PAIRS = THREADS / 2;
    static final int ROUNDS = KilimSwitchBenchmark.ROUNDS;
    static final int SLEEPS = KilimTimerBenchmark.SLEEPS;

    private MethodHandle unstarted; // (Runnable) -> Thread, bound to a Thread.ofVirtual() builder
    /** How many threads an invocation runs; fewer in the workloads' test. */
    int threadCount = THREADS;
    /** How long an invocation waits for its threads before it fails. */
    long awaitSeconds = TimeUnit.MINUTES.toSeconds(5);

    private Thread[] threads;
    private CountDownLatch done;
    /** The park ping-pong's pairs, kept for the workloads' test to count their moves. */
    Pair[] pairs;

    @Setup(Level.Trial)
    public void findVirtualThreads() throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> builderClass;
        MethodHandle ofVirtual;
        try {
            builderClass = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtualClass = Class.forName("java.lang.Thread$Builder$OfVirtual");
            ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualClass));
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            throw new UnsupportedOperationException(
                    "virtual threads need JDK 21 or later; this is " + System.getProperty("java.version")
                            + ": skipping " + getClass().getSimpleName());
        }
        Object builder = ofVirtual.invoke();
        unstarted = lookup.findVirtual(builderClass, "unstarted", MethodType.methodType(Thread.class, Runnable.class))
                .bindTo(builder);
    }

    /**
     * One park/unpark pair: {@code turn} says whose move it is; {@code passes} counts the moves, as
     * the Kilim pairs' {@code Coroutines.Turn} does.
     */
    static final class Pair {
        volatile int turn;
        int passes;
        /** Moves made out of turn (by parity: player 0 makes the even moves); 0 unless the hand-off is broken. */
        int outOfTurn;

        Thread a;
        Thread b;
    }

    @Setup(Level.Invocation)
    public void buildThreads(BenchmarkParams params) throws Throwable {
        build(params.getBenchmark());
        SchedulerSubjects.settle(); // as for the Kilim tasks: tenure the threads before the measurement
    }

    /** Creates (does not start) the threads of the workload whose benchmark method ends {@code bench}. */
    void build(String bench) throws Throwable {
        threads = new Thread[threadCount];
        done = new CountDownLatch(threadCount);
        pairs = null;
        CountDownLatch d = done;
        if (bench.endsWith("queuePingPong")) {
            for (int p = 0; p < threadCount / 2; p++) {
                BlockingQueue<Coroutines.Ball> toPonger = new ArrayBlockingQueue<>(1);
                BlockingQueue<Coroutines.Ball> toPinger = new ArrayBlockingQueue<>(1);
                threads[2 * p] = (Thread) unstarted.invoke((Runnable) () -> pong(toPonger, toPinger, d));
                threads[2 * p + 1] = (Thread) unstarted.invoke((Runnable) () -> ping(toPinger, toPonger, d));
            }
        } else if (bench.endsWith("parkPingPong")) {
            pairs = new Pair[threadCount / 2];
            for (int p = 0; p < pairs.length; p++) {
                Pair pair = new Pair();
                pairs[p] = pair;
                pair.a = (Thread) unstarted.invoke((Runnable) () -> play(pair, 0, d));
                pair.b = (Thread) unstarted.invoke((Runnable) () -> play(pair, 1, d));
                threads[2 * p] = pair.a;
                threads[2 * p + 1] = pair.b;
            }
        } else if (bench.endsWith("sleepExpirations")) {
            for (int i = 0; i < threadCount; i++) {
                threads[i] = (Thread) unstarted.invoke((Runnable) () -> {
                    try {
                        for (int k = 0; k < SLEEPS; k++) {
                            Thread.sleep(1);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    d.countDown();
                });
            }
        } else if (bench.endsWith("yield")) {
            for (int i = 0; i < threadCount; i++) {
                threads[i] = (Thread) unstarted.invoke((Runnable) () -> {
                    for (int k = 0; k < YIELDS; k++) {
                        Thread.yield();
                    }
                    d.countDown();
                });
            }
        } else {
            throw new IllegalArgumentException("no workload for " + bench);
        }
    }

    private static void ping(BlockingQueue<Coroutines.Ball> in, BlockingQueue<Coroutines.Ball> out, CountDownLatch d) {
        try {
            Coroutines.Ball ball = new Coroutines.Ball();
            for (int i = 0; i < ROUNDS; i++) {
                out.put(ball);
                ball = in.take();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        d.countDown();
    }

    private static void pong(BlockingQueue<Coroutines.Ball> in, BlockingQueue<Coroutines.Ball> out, CountDownLatch d) {
        try {
            for (int i = 0; i < ROUNDS; i++) {
                out.put(in.take());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        d.countDown();
    }

    private static void play(Pair pair, int me, CountDownLatch d) {
        Thread other = me == 0 ? pair.b : pair.a;
        for (int i = 0; i < ROUNDS; i++) {
            while (pair.turn != me) {
                LockSupport.park(pair);
            }
            if ((pair.passes & 1) != me) {
                pair.outOfTurn++; // one compare a move, against a park and an unpark
            }
            pair.passes++;
            pair.turn = 1 - me;
            LockSupport.unpark(other);
        }
        d.countDown();
    }

    void runAll() throws InterruptedException {
        for (Thread t : threads) {
            t.start();
        }
        if (!done.await(awaitSeconds, TimeUnit.SECONDS)) {
            throw new IllegalStateException(done.getCount() + " virtual threads did not finish");
        }
    }

    @Benchmark
    @OperationsPerInvocation(THREADS * YIELDS)
    public void yield() throws InterruptedException {
        runAll();
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS * ROUNDS * 2)
    public void queuePingPong() throws InterruptedException {
        runAll();
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS * ROUNDS * 2)
    public void parkPingPong() throws InterruptedException {
        runAll();
    }

    @Benchmark
    @OperationsPerInvocation(THREADS * SLEEPS)
    public void sleepExpirations() throws InterruptedException {
        runAll();
    }
}
