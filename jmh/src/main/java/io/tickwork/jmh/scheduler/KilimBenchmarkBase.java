package io.tickwork.jmh.scheduler;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import kilim.Scheduler;
import kilim.Task;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What {@link KilimSwitchBenchmark} and {@link KilimTimerBenchmark} share: the scheduler sweep, one
 * scheduler per trial, and the measured part of an invocation (start every prepared task on its
 * loop, wait for all of them). Subclasses build {@link #tasks}, {@link #affinity} and {@link #done}
 * in their own {@code @Setup(Level.Invocation)}, outside the measurement, and end it with
 * {@link SchedulerSubjects#settle()}.
 */
@State(Scope.Benchmark)
public abstract class KilimBenchmarkBase {
    static final int TASKS = 200_000;

    @Param({
        "tickwork-rb-tree",
        "tickwork-wheel-list",
        "tickwork-wheel-ring",
        "tickwork-wheel-linked-array",
        "kilim-affine",
        "kilim-forkjoin"
    })
    public String scheduler;

    @Param({"1", "2"})
    public int threads;

    /**
     * {@code placed}: with 2 threads every task stays on the thread its block is assigned to, ping-pong
     * partners together (tickwork: {@code start(task, loop)}; Kilim Affine: started there and pinned;
     * Kilim ForkJoin cannot pin, so that combination is refused). {@code free}: every scheduler
     * places and moves tasks itself. {@code shuffled}: as {@code free}, but the two tasks of a pair
     * are two positions of one seeded random pairing, the same for every scheduler, instead of
     * neighbours, so partners are not started one after the other (which tickwork's default
     * spread, blocks of consecutive starts per loop, would otherwise put on one loop). Tasks are
     * still built and started in the same order, so their order in memory is unchanged. Workloads
     * without partners refuse it (it would be {@code free} again). With 1 thread {@code placed}
     * and {@code free} are the same run, so {@code free} is refused there; {@code shuffled} is
     * not: it still puts partners apart in the loop's run order, which isolates that cost from the
     * cost of partners on two loops.
     */
    @Param({"placed", "free", "shuffled"})
    public String placement;

    Scheduler sched;
    Task<?>[] tasks;
    int[] affinity;
    CountDownLatch done;

    @Setup(Level.Trial)
    public void startScheduler() {
        if (threads == 1 && placement.equals("free")) {
            throw new IllegalStateException("free is placed on 1 thread: run placement=placed");
        }
        if (threads > 1 && placement.equals("placed") && scheduler.equals("kilim-forkjoin")) {
            throw new IllegalStateException("Kilim's ForkJoinScheduler cannot pin tasks: run placement=free");
        }
        sched = SchedulerSubjects.create(scheduler, threads);
    }

    @TearDown(Level.Trial)
    public void stopScheduler() throws InterruptedException {
        SchedulerSubjects.stop(sched);
    }

    /** {@code shuffled}'s pairing: positions {@code 2p} and {@code 2p + 1} of it are pair p's tasks. */
    private static int[] pairing;

    /** Fresh arrays and latch for {@link #TASKS} tasks; the caller fills them. */
    void prepare() {
        tasks = new Task<?>[TASKS];
        affinity = new int[TASKS];
        done = new CountDownLatch(TASKS);
    }

    /**
     * Where pair {@code p}'s two tasks go: positions {@code 2p} and {@code 2p + 1}, or, with
     * {@code shuffled}, two positions of a seeded random pairing (made once).
     */
    int[] pairPositions() {
        return placement.equals("shuffled") ? randomPairing() : NEIGHBOURS;
    }

    /** Pair p at positions 2p and 2p + 1. */
    private static final int[] NEIGHBOURS =
            java.util.stream.IntStream.range(0, TASKS).toArray();

    private static synchronized int[] randomPairing() {
        if (pairing == null) {
            int[] o = NEIGHBOURS.clone();
            java.util.SplittableRandom r = new java.util.SplittableRandom(42);
            for (int i = TASKS - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int t = o[i];
                o[i] = o[j];
                o[j] = t;
            }
            pairing = o;
        }
        return pairing;
    }

    /** For workloads whose tasks have no partner. */
    void refuseShuffled() {
        if (placement.equals("shuffled")) {
            throw new IllegalStateException("shuffled changes where partners are; this workload has none: run free");
        }
    }

    /** The measured part: start every task on its loop, then wait (bounded) until all finished. */
    void runAll() throws InterruptedException {
        boolean placed = placement.equals("placed");
        for (int i = 0; i < tasks.length; i++) {
            SchedulerSubjects.start(sched, tasks[i], affinity[i], placed);
        }
        if (!done.await(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException(done.getCount() + " tasks did not finish on " + scheduler);
        }
    }
}
