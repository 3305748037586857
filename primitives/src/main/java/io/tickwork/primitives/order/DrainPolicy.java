package io.tickwork.primitives.order;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * What a draining pool thread needs to know: where to hand work back, how many tasks it may run
 * in a row, and whom to tell about a failed task. Shared by every lane of one executor, so a lane
 * costs one reference for all three. Immutable.
 */
final class DrainPolicy {
    /** Tasks one pool thread runs in a row for one lane before handing the rest back. */
    static final int DEFAULT_BUDGET = 1024;

    final Executor pool;
    final int budget;
    private final Thread.UncaughtExceptionHandler failureHandler;

    DrainPolicy(Executor pool, int budget, Thread.UncaughtExceptionHandler failureHandler) {
        this.pool = Objects.requireNonNull(pool, "pool");
        if (budget < 1) {
            throw new IllegalArgumentException("budget must be >= 1: " + budget);
        }
        this.budget = budget;
        this.failureHandler = failureHandler;
    }

    /**
     * Reports a task's failure; never throws, because a throwing handler must not stall the lane
     * (the next task has to run whatever the handler does).
     */
    void reportFailure(Throwable failure) {
        Thread current = Thread.currentThread();
        try {
            Thread.UncaughtExceptionHandler handler =
                    failureHandler != null ? failureHandler : current.getUncaughtExceptionHandler();
            if (handler != null) {
                handler.uncaughtException(current, failure);
            }
        } catch (Throwable ignored) {
            // the handler failed too; there is nobody left to tell, and the lane must go on
        }
    }
}
