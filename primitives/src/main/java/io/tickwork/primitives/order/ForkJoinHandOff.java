package io.tickwork.primitives.order;

import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.function.BooleanSupplier;

/**
 * How a dispatcher worker on a {@link ForkJoinPool} thread lets the pool's other work run.
 *
 * <p>Why not resubmit: a task that a {@code ForkJoinPool} worker submits to its own pool goes onto
 * that worker's own deque, which the worker runs (last in, first out by default) before it looks at
 * other deques or at external submissions. A dispatcher worker that "gives its thread back" with
 * {@code pool.execute(this)} therefore runs again at once, and work queued behind it waits until the
 * dispatcher runs dry: a CPU-bound job sharing the pool would nearly stop.
 *
 * <p>Instead the worker, when its task budget is used, takes one other task the pool would run
 * next ({@code ForkJoinTask.pollTask}: this thread's newest local task, else one from another deque
 * or from the submission queues) and runs it in place, then goes on draining. If nothing else is
 * queued it keeps its thread and costs nothing more than the poll. The task runs on the thread and
 * with the guarantees it would have had on the pool; an exception it throws goes to the thread's
 * uncaught-exception handler, as the pool would send it, and the worker carries on. It runs as a
 * plain pool task: not as a task of the worker's executor (whose {@code close()} it may call and
 * wait in), and without the interrupt status the worker's last task left. The other task may wait
 * for one of the executor's keys (a {@code flush(key).join()}), or for the executor's termination:
 * so before it runs, the worker hands its counts over and, if keys wait, goes back to the pool,
 * slot and all; the pool's other threads, or the spare it adds for a blocked join, resume it, or
 * this thread does after the other task. If no key waits, the worker keeps its slot for the other
 * task's run unless every other slot is held by a worker doing the same, or there is none (a
 * parallelism of 1): then it gives its slot up, so a key that task makes ready gets a worker of its
 * own, and takes a slot back afterwards, or stops if every slot was taken meanwhile. A key the
 * other task makes ready and waits for still waits if every other slot holder is itself blocked
 * in a task, as on any pool whose threads all block.
 *
 * <p>Helpers of the same dispatcher are not "other work": a worker that brings in help submits
 * it from its pool thread, so the helper waits on that thread's own queue, newest first, until
 * another pool thread takes it; the hand-off would find it first every time, and the pool's other
 * work would wait behind the two workers. So the hand-off takes such a helper off the queue and
 * gives its slot back (the worker itself goes on draining), then looks again.
 *
 * <p>Nesting: the task run in place may itself be a dispatcher worker (of another dispatcher, or
 * one of this dispatcher's that has run before). Such a nested worker does not hand off again; it
 * resubmits itself as before, so the stack grows by at most one hand-off frame.
 *
 * <p>This class extends {@code ForkJoinTask} only to reach its protected static {@code pollTask};
 * it is never instantiated.
 */
abstract class ForkJoinHandOff extends ForkJoinTask<Void> {
    private static final ThreadLocal<boolean[]> HANDING_OFF = ThreadLocal.withInitial(() -> new boolean[1]);

    private ForkJoinHandOff() {}

    /** What {@link #runOneOther} did. */
    enum Outcome {
        /** Another task ran on this thread. */
        RAN,
        /** Another task ran on this thread, after {@code beforeRun} gave the caller back to the pool. */
        RAN_AFTER_LEAVING,
        /** Nothing else was queued: keep the thread. */
        NOTHING_QUEUED,
        /** Not a worker of {@code pool}, or already inside a hand-off: resubmit instead. */
        NOT_HERE
    }

    /**
     * Runs one other queued task of {@code pool} on this thread (a fresh helper worker of
     * {@code self} is taken off the queue instead, see the class comment) if this thread is one of that pool's
     * workers and is not already running a handed-off task; runs {@code beforeRun} first, once a
     * task was found, and reports whether it returned true (the caller left). The task runs even if
     * {@code beforeRun} throws (the throwable then goes to the thread's handler, as one of the
     * task's would, and the caller counts as not left). The task runs as a
     * plain pool task: not as one of the calling worker's dispatcher (its {@code close()} waits
     * like anyone else's).
     */
    static Outcome runOneOther(Executor pool, LaneDispatcher self, BooleanSupplier beforeRun) {
        if (!(pool instanceof ForkJoinPool)
                || !(Thread.currentThread() instanceof ForkJoinWorkerThread worker)
                || worker.getPool() != pool) {
            return Outcome.NOT_HERE;
        }
        boolean[] handingOff = HANDING_OFF.get();
        if (handingOff[0]) {
            return Outcome.NOT_HERE;
        }
        ForkJoinTask<?> other;
        while ((other = pollTask()) instanceof Worker.Ticket ticket && ticket.absorbInto(self)) {
            // a helper of self's this thread would only run in place: not the other task
        }
        if (other == null) {
            return Outcome.NOTHING_QUEUED;
        }
        handingOff[0] = true;
        WorkerSlot slot = WorkerSlot.current();
        int hidden = slot.hideAll();
        boolean left = false;
        try {
            try {
                left = beforeRun.getAsBoolean();
            } finally {
                other.quietlyInvoke(); // taken off the pool's queues: it runs whatever beforeRun did
            }
        } catch (Throwable failure) {
            try {
                worker.getUncaughtExceptionHandler().uncaughtException(worker, failure);
            } catch (Throwable ignored) {
                // as the pool ignores it: thrown on, it would reach a worker beforeRun already
                // handed back to the pool, which another thread may be running
            }
        } finally {
            slot.unhide(hidden);
            handingOff[0] = false;
        }
        return left ? Outcome.RAN_AFTER_LEAVING : Outcome.RAN;
    }
}
