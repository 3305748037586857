package io.tickwork.jmh.scheduler;

import java.util.concurrent.TimeUnit;

import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.scheduler.RunLoopScheduler;
import kilim.AffineScheduler;
import kilim.ForkJoinScheduler;
import kilim.Scheduler;
import kilim.Task;

/**
 * The schedulers the benchmarks compare, by {@code @Param} name: {@code tickwork-<timer kind>}
 * (e.g. {@code tickwork-wheel-linked-array}), {@code kilim-affine}, {@code kilim-forkjoin}.
 */
final class Schedulers {
    private Schedulers() {
    }

    static final String TICKWORK = "tickwork-";

    static Scheduler create(String name, int threads) {
        if (name.startsWith(TICKWORK)) {
            return RunLoopScheduler.builder().threads(threads).name("bench")
                    .timers(TimerKind.parse(name.substring(TICKWORK.length()))).build();
        }
        switch (name) {
            case "kilim-affine":
                return new AffineScheduler(threads, 0);
            case "kilim-forkjoin":
                return new ForkJoinScheduler(threads);
            default:
                throw new IllegalArgumentException("unknown scheduler '" + name + "'");
        }
    }

    /** Starts a task; on tickwork, on loop {@code affinity % threads} when {@code affinity >= 0}. */
    static void start(Scheduler s, Task<?> task, int affinity) {
        if (affinity >= 0 && s instanceof RunLoopScheduler) {
            RunLoopScheduler r = (RunLoopScheduler) s;
            r.start(task, affinity % r.numThreads());
        } else {
            task.setScheduler(s);
            task.start();
        }
    }

    /** Loop of task {@code i} of {@code n} when the tasks are split in contiguous blocks. */
    static int block(int i, int n, int threads) {
        return (int) ((long) i * threads / n);
    }

    static void stop(Scheduler s) throws InterruptedException {
        if (s instanceof RunLoopScheduler) {
            RunLoopScheduler r = (RunLoopScheduler) s;
            r.shutdownNow();
            if (!r.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("scheduler did not stop: " + r);
            }
        } else {
            s.shutdown();
        }
    }
}
