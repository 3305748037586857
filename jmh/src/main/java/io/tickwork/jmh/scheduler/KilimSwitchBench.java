package io.tickwork.jmh.scheduler;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import kilim.Mailbox;
import kilim.Scheduler;
import kilim.Task;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Coroutine context switches per second with 200,000 live Kilim tasks, on 1 and 2 threads.
 *
 * <ul>
 *   <li>{@link #yield}: one operation is one {@code Task.yield()} resumption: the task pauses, the
 *       scheduler queues it, and later runs it again. 200,000 tasks yield {@value #YIELDS} times
 *       each per invocation.</li>
 *   <li>{@link #pingPong}: one operation is one mailbox message: a {@code put} that resumes the
 *       paused receiver and a {@code get} that pauses the sender. 100,000 pairs (200,000 tasks)
 *       exchange {@value #ROUNDS} round trips each.</li>
 * </ul>
 *
 * <p>Placement: on tickwork with 2 threads the tasks are split in two contiguous blocks, one per loop
 * ({@code start(task, loop)}), both tasks of a pair on the same loop, as when each loop creates its
 * own tasks. Spreading neighbours in memory round-robin over the loops makes the two loops write to
 * the same cache lines (adjacent Task objects, G1 card table) on every switch. Kilim's schedulers
 * place every resumption themselves (Affine: round-robin over its executors per resumption;
 * ForkJoin: the resuming worker's deque, with stealing).
 *
 * <p>Not measured: building the tasks (a fresh set per invocation, in {@code @Setup(Level.Invocation)},
 * since a finished Kilim task cannot be restarted). Measured and small beside the switches: starting
 * the tasks from the benchmark thread and the final latch count-down of each task.
 *
 * <p>Fairness: tickwork and Kilim's {@code AffineScheduler} run a yielding task after every other
 * runnable task; Kilim's {@code ForkJoinScheduler} forks the resumption onto its own worker's
 * deque, which it pops LIFO, so it resumes the same task at once (not a round-robin).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class KilimSwitchBench {
    static final int TASKS = 200_000;
    static final int YIELDS = 40;
    static final int PAIRS = TASKS / 2;
    static final int ROUNDS = 20;

    @Param({"tickwork-rb-tree", "tickwork-wheel-list", "tickwork-wheel-ring", "tickwork-wheel-linked-array",
            "kilim-affine", "kilim-forkjoin"})
    public String scheduler;

    @Param({"1", "2"})
    public int threads;

    private Scheduler sched;
    private Task<?>[] tasks;
    private int[] affinity;
    private CountDownLatch done;

    @Setup(Level.Trial)
    public void startScheduler() {
        sched = Schedulers.create(scheduler, threads);
    }

    @TearDown(Level.Trial)
    public void stopScheduler() throws InterruptedException {
        Schedulers.stop(sched);
    }

    @Setup(Level.Invocation)
    public void buildTasks(org.openjdk.jmh.infra.BenchmarkParams params) {
        boolean pingPong = params.getBenchmark().endsWith("pingPong");
        tasks = new Task<?>[TASKS];
        affinity = new int[TASKS];
        if (pingPong) {
            done = new CountDownLatch(TASKS);
            for (int p = 0; p < PAIRS; p++) {
                Mailbox<Coroutines.Ball> toPonger = new Mailbox<>(1, 1);
                Mailbox<Coroutines.Ball> toPinger = new Mailbox<>(1, 1);
                tasks[2 * p] = new Coroutines.Ponger(toPonger, toPinger, ROUNDS, done);
                tasks[2 * p + 1] = new Coroutines.Pinger(toPinger, toPonger, ROUNDS, done);
                affinity[2 * p] = Schedulers.block(2 * p, TASKS, threads);
                affinity[2 * p + 1] = affinity[2 * p];
            }
        } else {
            done = new CountDownLatch(TASKS);
            for (int i = 0; i < TASKS; i++) {
                tasks[i] = new Coroutines.Yielder(YIELDS, done);
                affinity[i] = Schedulers.block(i, TASKS, threads);
            }
        }
        Schedulers.settle();
    }

    private void runAll() throws InterruptedException {
        for (int i = 0; i < tasks.length; i++) {
            Schedulers.start(sched, tasks[i], affinity[i]);
        }
        if (!done.await(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException(done.getCount() + " tasks did not finish on " + scheduler);
        }
    }

    @Benchmark
    @OperationsPerInvocation(TASKS * YIELDS)
    public void yield() throws InterruptedException {
        runAll();
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS * ROUNDS * 2)
    public void pingPong() throws InterruptedException {
        runAll();
    }
}
