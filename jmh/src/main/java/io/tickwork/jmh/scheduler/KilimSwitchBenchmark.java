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
 * {@code free} with each pair's two tasks at two random positions of one seeded pairing, so they
 * are not started one after the other; yield has no pairs and refuses it.
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
        buildTasks(params.getBenchmark());
    }

    /** The tasks of benchmark {@code bench} (its name ends with the method's), also for the tests. */
    void buildTasks(String bench) {
        prepare();
        if (bench.endsWith("turnPingPong") || bench.endsWith("pingPong")) {
            boolean turn = bench.endsWith("turnPingPong");
            // pair p's tasks sit at positions at[2p] and at[2p + 1]: neighbours, or with shuffled two
            // random positions; built and started in position order either way
            int[] at = pairPositions();
            int[] pairOf = new int[TASKS];
            for (int k = 0; k < TASKS; k++) {
                pairOf[at[k]] = k;
            }
            Object[] pairs = new Object[PAIRS];
            for (int p = 0; p < PAIRS; p++) {
                if (turn) {
                    pairs[p] = new Coroutines.Turn();
                } else {
                    pairs[p] =
                            new Mailbox<?>[] {new Mailbox<Coroutines.Ball>(1, 1), new Mailbox<Coroutines.Ball>(1, 1)};
                }
            }
            for (int pos = 0; pos < TASKS; pos++) {
                int k = pairOf[pos];
                int p = k >> 1;
                boolean first = (k & 1) == 0; // the pair's first task: b of a turn, the ponger
                if (turn) {
                    Coroutines.Turn pair = (Coroutines.Turn) pairs[p];
                    if (first) {
                        pair.b = new Coroutines.TurnPlayer(pair, 1, ROUNDS, done);
                        tasks[pos] = pair.b;
                    } else {
                        pair.a = new Coroutines.TurnPlayer(pair, 0, ROUNDS, done);
                        tasks[pos] = pair.a;
                    }
                } else {
                    @SuppressWarnings("unchecked")
                    Mailbox<Coroutines.Ball>[] m = (Mailbox<Coroutines.Ball>[]) pairs[p];
                    tasks[pos] = first
                            ? new Coroutines.Ponger(m[0], m[1], ROUNDS, done)
                            : new Coroutines.Pinger(m[1], m[0], ROUNDS, done);
                }
                // placed: both of a pair on the first one's block (placed pairs are neighbours)
                affinity[pos] = SchedulerSubjects.block(at[2 * p], TASKS, threads);
            }
        } else {
            refuseShuffled();
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
