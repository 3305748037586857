package io.tickwork.jmh.scheduler;

import java.util.concurrent.TimeUnit;
import kilim.Mailbox;
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

/**
 * Coroutine context switches per second with 200,000 live Kilim tasks, on 1 and 2 threads.
 *
 * <ul>
 *   <li>{@link #yield}: one operation is one {@code Task.yield()} resumption: the task pauses, the
 *       scheduler queues it, and later runs it again. 200,000 tasks yield {@value #YIELDS} times
 *       each per invocation.</li>
 *   <li>{@link #pingPong}: one operation is one mailbox message: a {@code put} that resumes the
 *       paused receiver and a {@code get} that pauses the sender. 100,000 pairs (200,000 tasks)
 *       exchange {@value #ROUNDS} round trips each, through two Kilim {@code Mailbox(1, 1)}s per pair
 *       (the shape of {@code VirtualThreadBenchmark.queuePingPong}).</li>
 *   <li>{@link #turnPingPong}: the same pairs and rounds with Kilim's leanest hand-off, a volatile
 *       turn, {@code Task.pause} while it is the other side's and {@code resume()} of the other
 *       side after passing it ({@code Coroutines.TurnPlayer}; the shape of
 *       {@code VirtualThreadBenchmark.parkPingPong}). One operation is one pass of the turn.</li>
 * </ul>
 *
 * <p>Placement, one rule for every scheduler ({@code placement}, see {@link KilimBenchmarkBase}): with
 * {@code placed} and 2 threads the tasks are split in two contiguous blocks, one per thread, both
 * tasks of a pair on the same thread, as when each loop creates its own tasks: tickwork starts
 * them on that loop, Kilim's Affine scheduler starts them there and pins them. Spreading
 * neighbours in memory round-robin over the threads makes the two threads write to the same cache
 * lines (adjacent Task objects, G1 card table) on every switch. With {@code free} every scheduler
 * places every task itself (tickwork: its default spread at start, blocks of tasks started one
 * after another per loop, then a task woken from another loop moves to it when that loop is no
 * busier; Affine: round-robin over its executors
 * per resumption; ForkJoin: the resuming worker's deque, with stealing). {@code shuffled} is
 * {@code free} with the tasks started in a seeded random order, so a pair's two tasks are not
 * started one after the other.
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
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class KilimSwitchBenchmark extends KilimBenchmarkBase {
    static final int YIELDS = 40;
    static final int PAIRS = TASKS / 2;
    static final int ROUNDS = 20;

    @Setup(Level.Invocation)
    public void buildTasks(org.openjdk.jmh.infra.BenchmarkParams params) {
        prepare();
        String bench = params.getBenchmark();
        if (bench.endsWith("turnPingPong")) {
            for (int p = 0; p < PAIRS; p++) {
                Coroutines.Turn pair = new Coroutines.Turn();
                pair.a = new Coroutines.TurnPlayer(pair, 0, ROUNDS, done);
                pair.b = new Coroutines.TurnPlayer(pair, 1, ROUNDS, done);
                tasks[2 * p] = pair.b;
                tasks[2 * p + 1] = pair.a;
                affinity[2 * p] = SchedulerSubjects.block(2 * p, TASKS, threads);
                affinity[2 * p + 1] = affinity[2 * p];
            }
        } else if (bench.endsWith("pingPong")) {
            for (int p = 0; p < PAIRS; p++) {
                Mailbox<Coroutines.Ball> toPonger = new Mailbox<>(1, 1);
                Mailbox<Coroutines.Ball> toPinger = new Mailbox<>(1, 1);
                tasks[2 * p] = new Coroutines.Ponger(toPonger, toPinger, ROUNDS, done);
                tasks[2 * p + 1] = new Coroutines.Pinger(toPinger, toPonger, ROUNDS, done);
                affinity[2 * p] = SchedulerSubjects.block(2 * p, TASKS, threads);
                affinity[2 * p + 1] = affinity[2 * p];
            }
        } else {
            for (int i = 0; i < TASKS; i++) {
                tasks[i] = new Coroutines.Yielder(YIELDS, done);
                affinity[i] = SchedulerSubjects.block(i, TASKS, threads);
            }
        }
        SchedulerSubjects.settle();
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

    @Benchmark
    @OperationsPerInvocation(PAIRS * ROUNDS * 2)
    public void turnPingPong() throws InterruptedException {
        runAll();
    }
}
