package io.tickwork.jmh.scheduler;

import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.scheduler.RunLoopScheduler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import kilim.AffineScheduler;
import kilim.ForkJoinScheduler;
import kilim.Scheduler;
import kilim.Task;

/**
 * The schedulers the benchmarks compare, by {@code @Param} name: {@code tickwork-<timer kind>}
 * (e.g. {@code tickwork-wheel-linked-array}), {@code kilim-affine}, {@code kilim-forkjoin}.
 */
final class SchedulerSubjects {
    private SchedulerSubjects() {}

    static final String TICKWORK = "tickwork-";

    static Scheduler create(String name, int threads) {
        if (name.startsWith(TICKWORK)) {
            return RunLoopScheduler.builder()
                    .threads(threads)
                    .name("bench")
                    .timers(TimerKind.parse(name.substring(TICKWORK.length())))
                    .build();
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

    /** Kilim's {@code Task.preferredResumeThread}: the thread index its next resumption goes to. */
    private static final VarHandle PREFERRED_RESUME_THREAD;

    static {
        try {
            PREFERRED_RESUME_THREAD = MethodHandles.privateLookupIn(Task.class, MethodHandles.lookup())
                    .findVarHandle(Task.class, "preferredResumeThread", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Starts a task. With {@code placed} and more than one thread, the task runs on thread
     * {@code affinity % threads} for its whole life: on tickwork through
     * {@code RunLoopScheduler.start(task, loop)}; on Kilim's {@code AffineScheduler} by starting
     * it on that thread's queue and pinning it there ({@link Coroutines.Placeable}). Kilim's
     * {@code ForkJoinScheduler} cannot pin ({@code isPinnable()} is false), so placed runs with
     * it are refused. Otherwise every scheduler places the task itself.
     */
    static void start(Scheduler s, Task<?> task, int affinity, boolean placed) {
        if (placed && s.numThreads() > 1) {
            int thread = affinity % s.numThreads();
            if (s instanceof RunLoopScheduler) {
                ((RunLoopScheduler) s).start(task, thread);
                return;
            }
            if (!(s instanceof AffineScheduler)) {
                throw new IllegalStateException(s.getClass().getSimpleName() + " cannot pin tasks");
            }
            ((Coroutines.Placeable) task).pin = true;
            PREFERRED_RESUME_THREAD.setVolatile(task, thread);
        }
        task.setScheduler(s);
        task.start();
    }

    /** Loop of task {@code i} of {@code n} when the tasks are split in contiguous blocks. */
    static int block(int i, int n, int threads) {
        return (int) ((long) i * threads / n);
    }

    /**
     * Called at the end of each {@code @Setup(Level.Invocation)}, outside the measurement: a full
     * collection that tenures the 200,000 tasks just built and frees the previous invocation's.
     * Without it the first young collections of every measured invocation copy all fresh tasks
     * (about 50 MB, 25-65 ms per pause, 2-3 pauses in a 1 s invocation), the previous
     * invocation's promoted tasks pile up in the old generation until a concurrent cycle and mixed
     * collections run inside some measurements, and where the tasks land in memory after those
     * copies differs from fork to fork ({@code docs/results/scheduler-design.md}).
     * A long-running server's 10^5 coroutines are old objects too; what stays measured is the young garbage each operation makes (Kilim's pause
     * {@code State}, mailboxes, timers) and the card scanning that their old-to-young stores cause.
     */
    static void settle() {
        System.gc();
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
