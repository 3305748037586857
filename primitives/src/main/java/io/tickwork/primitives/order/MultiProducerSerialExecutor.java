package io.tickwork.primitives.order;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * A {@link SerialExecutor} that any number of threads may feed concurrently: tasks run one at a
 * time, FIFO in the order of their {@code execute} calls' linearization points, on a shared pool.
 *
 * <p>Algorithm: a chain of {@link LinkingRunnable} nodes with a multi-producer tail
 * ({@link MultiProducerLane}). A producer swaps its node into the tail with one {@code getAndSet}
 * (an XCHG, which cannot fail, unlike a CAS loop) and links it behind the node it displaced with a
 * release store; because each node is displaced exactly once, each node has exactly one linker,
 * which is what keeps two producers from both owning a successor (with a plain "last node" field,
 * as in {@link SingleProducerSerialExecutor}, two producers could both link behind the same node).
 * A producer that displaces null (the lane was idle) starts the chain on the pool
 * (a {@link SerialExecutorGroup}'s executors: through the group's dispatcher);
 * the drainer that runs out of nodes closes the lane with a CAS of the tail back to null.
 *
 * <p>Cost per task: one small node (24 bytes with compressed oops) and one {@code getAndSet} on
 * the producer side (the link is a plain store with release semantics), one volatile read on the
 * draining side; one pool submission per burst of work (when the chain was idle) and one per
 * {@code budget} tasks. Memory when idle: this object and its lane; no node, no task.
 *
 * <p>Thread safety: fully thread safe. See {@link SerialExecutor} for the guarantees.
 */
public final class MultiProducerSerialExecutor implements SerialExecutor {
    private final MultiProducerLane lane;

    /** Runs on {@code pool} with the default budget and the thread's uncaught-exception handler. */
    public MultiProducerSerialExecutor(Executor pool) {
        this(pool, DrainPolicy.DEFAULT_BUDGET, null);
    }

    /**
     * @param pool where tasks run; any {@link Executor}
     * @param budget tasks one pool thread runs in a row before handing the rest back; {@code >= 1}
     * @param failureHandler receives tasks' failures; null means the running thread's handler
     */
    public MultiProducerSerialExecutor(Executor pool, int budget, Thread.UncaughtExceptionHandler failureHandler) {
        this.lane = new MultiProducerLane(new DrainPolicy(pool, budget, failureHandler));
    }

    private MultiProducerSerialExecutor(MultiProducerLane lane) {
        this.lane = lane;
    }

    /** An executor on a {@link SerialExecutorGroup}'s lane, started through its dispatcher. */
    static MultiProducerSerialExecutor onLane(MultiProducerLane lane) {
        return new MultiProducerSerialExecutor(lane);
    }

    /** Linearization point: the {@code getAndSet} of the lane's tail. */
    @Override
    public void execute(Runnable task) {
        lane.append(new LinkingRunnable(Objects.requireNonNull(task, "task"), lane));
    }
}
