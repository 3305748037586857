package io.tickwork.primitives.order;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * A {@link SerialExecutor} for exactly one producing thread at a time, e.g. the IO thread of one
 * connection (http-kit's use case): Jeff Hain's linking protocol with a plain "last node" field,
 * the link CAS and the self-link tombstone (see {@link LinkingRunnable}). One atomic per task,
 * like {@link MultiProducerSerialExecutor}, but no shared tail: the producer's only atomic is on
 * the node the drainer reads.
 *
 * <p>Contract: calls to {@link #execute} must not overlap and must be ordered by happens-before
 * (one thread, or hand-offs through a lock or a volatile). Two concurrent producers could read
 * the same last node and both link behind it: the loser's link CAS fails, which reads as "the
 * chain is closed", so it starts its own node, which then runs concurrently with the chain. Use
 * {@link MultiProducerSerialExecutor} for concurrent producers (measured with a non-atomic tail:
 * docs/results/order-design.md, 2026-11-22).
 *
 * <p>Cost per task: one small node, one CAS on the producer side, one volatile read on the
 * draining side; one pool submission per burst and per {@code budget} tasks. Linearization point
 * of {@code execute}: the plain write of the last-node field (program order of the one producer).
 */
public final class SingleProducerSerialExecutor implements SerialExecutor {
    private final Lane lane;
    private LinkingRunnable last = LinkingRunnable.CLOSED;

    /** Runs on {@code pool} with the default budget and the thread's uncaught-exception handler. */
    public SingleProducerSerialExecutor(Executor pool) {
        this(pool, DrainPolicy.DEFAULT_BUDGET, null);
    }

    /**
     * @param pool where tasks run; any {@link Executor}
     * @param budget tasks one pool thread runs in a row before handing the rest back; {@code >= 1}
     * @param failureHandler receives tasks' failures; null means the running thread's handler
     */
    public SingleProducerSerialExecutor(Executor pool, int budget, Thread.UncaughtExceptionHandler failureHandler) {
        this.lane = new Lane(new DrainPolicy(pool, budget, failureHandler));
    }

    @Override
    public void execute(Runnable task) {
        LinkingRunnable node = new LinkingRunnable(Objects.requireNonNull(task, "task"), lane);
        LinkingRunnable previous = last;
        last = node;
        if (!previous.link(node)) {
            node.startOrReject();
        }
    }
}
