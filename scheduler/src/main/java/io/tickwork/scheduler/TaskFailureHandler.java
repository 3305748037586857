package io.tickwork.scheduler;

import kilim.Task;

/**
 * Told when a task ends by throwing. It is called from inside Kilim's {@code Task.run}, before
 * Kilim marks the task done and hands the throwable to its exit mailboxes: inside the handler
 * {@code task.isDone()} is still false, and joining the task there would block the loop for good.
 * Once the handler returns the task is done (unless it failed while pinned, which Kilim leaves
 * unfinished); the run loop that ran it keeps running the other tasks.
 *
 * <p>Called on the loop thread that ran the task, so it must be quick and must not throw; a handler
 * that throws is itself reported to {@code System.err} and otherwise ignored, an {@code Error}
 * included (the loop keeps running: a task's {@code OutOfMemoryError} reaches this handler too,
 * as Kilim's own schedulers treat it). With several loops it may be called from several threads
 * at once: state it shares across tasks needs its own synchronization.
 */
@FunctionalInterface
public interface TaskFailureHandler {

    /** Prints the task, the loop thread and the full stack trace to {@code System.err}. */
    TaskFailureHandler PRINT_STACK = (task, failure) -> {
        synchronized (System.err) {
            System.err.println(
                    "tickwork: task " + task.id() + " (" + task.getClass().getName() + ") failed on "
                            + Thread.currentThread().getName());
            failure.printStackTrace();
        }
    };

    /**
     * Called on the loop thread that ran {@code task}, once, after it ended by throwing
     * {@code failure}; threading and what a handler that throws does: see the interface comment.
     */
    void failed(Task<?> task, Throwable failure);
}
