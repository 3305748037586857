package io.tickwork.primitives.order;

import java.util.concurrent.Executor;

/**
 * The configurations under test: each guarantee is checked with the defaults, with a lower
 * concurrency limit (workers compete for fewer slots), and with a queue bound too large to reject
 * (drainers publish every task's start).
 */
enum Variant {
    DEFAULTS,
    TWO_WORKERS,
    BOUNDED;

    KeyedSerialExecutor<Integer> create(Executor pool, int budget, TaskFailureHandler<Integer> handler) {
        KeyedSerialExecutor.Builder<Object> b =
                KeyedSerialExecutor.builder(pool).fairnessBudget(budget);
        switch (this) {
            case TWO_WORKERS -> b.maxConcurrentKeys(2);
            case BOUNDED -> b.maxQueuedPerKey(Integer.MAX_VALUE);
            default -> {}
        }
        return handler == null ? b.<Integer>build() : b.failureHandler(handler).build();
    }

    KeyedSerialExecutor<Integer> create(Executor pool) {
        return create(pool, KeyedSerialExecutor.DEFAULT_FAIRNESS_BUDGET, null);
    }
}
