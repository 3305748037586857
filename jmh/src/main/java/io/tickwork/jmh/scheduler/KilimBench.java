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
 * What {@link KilimSwitchBench} and {@link KilimTimerBench} share: the scheduler sweep, one
 * scheduler per trial, and the measured part of an invocation (start every prepared task on its
 * loop, wait for all of them). Subclasses build {@link #tasks}, {@link #affinity} and {@link #done}
 * in their own {@code @Setup(Level.Invocation)}, outside the measurement, and end it with
 * {@link Schedulers#settle()}.
 */
@State(Scope.Benchmark)
public abstract class KilimBench {
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

    Scheduler sched;
    Task<?>[] tasks;
    int[] affinity;
    CountDownLatch done;

    @Setup(Level.Trial)
    public void startScheduler() {
        sched = Schedulers.create(scheduler, threads);
    }

    @TearDown(Level.Trial)
    public void stopScheduler() throws InterruptedException {
        Schedulers.stop(sched);
    }

    /** Fresh arrays and latch for {@link #TASKS} tasks; the caller fills them. */
    void prepare() {
        tasks = new Task<?>[TASKS];
        affinity = new int[TASKS];
        done = new CountDownLatch(TASKS);
    }

    /** The measured part: start every task on its loop, then wait (bounded) until all finished. */
    void runAll() throws InterruptedException {
        for (int i = 0; i < tasks.length; i++) {
            Schedulers.start(sched, tasks[i], affinity[i]);
        }
        if (!done.await(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException(done.getCount() + " tasks did not finish on " + scheduler);
        }
    }
}
