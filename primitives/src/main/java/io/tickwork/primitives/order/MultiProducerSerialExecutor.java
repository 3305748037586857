package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * A {@link SerialExecutor} that any number of threads may feed concurrently: tasks run one at a
 * time, FIFO in the order of their {@code execute} calls' linearization points, on a shared pool.
 *
 * <p>Algorithm: the linking protocol of {@link LinkingRunnable} with a multi-producer tail. A
 * producer swaps its node into {@code tail} with one {@code getAndSet} (an XCHG, which cannot
 * fail, unlike a CAS loop) and then links the node behind the one it displaced. Because each node
 * is displaced exactly once, each node has exactly one linker, which is what keeps two producers
 * from both owning a successor (the seed's defect with a plain "last" field).
 *
 * <p>Cost per task: one small node (24 bytes with compressed oops), one {@code getAndSet} and one
 * CAS on the producer side, one volatile read on the draining side; one pool submission per burst
 * of work (when the chain was idle) and one per {@code budget} tasks. Memory when idle: this object
 * and the last node, whose task reference is already cleared.
 *
 * <p>Thread safety: fully thread safe. See {@link SerialExecutor} for the guarantees.
 */
public final class MultiProducerSerialExecutor implements SerialExecutor {
    private static final VarHandle TAIL;

    static {
        try {
            TAIL = MethodHandles.lookup().findVarHandle(MultiProducerSerialExecutor.class, "tail", LinkingRunnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Lane lane;
    @SuppressWarnings("unused") // accessed through TAIL
    private volatile LinkingRunnable tail = LinkingRunnable.CLOSED;

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
        this.lane = new Lane(new DrainPolicy(pool, budget, failureHandler));
    }

    private MultiProducerSerialExecutor(Lane lane) {
        this.lane = lane;
    }

    /** An executor on a {@link SerialExecutorGroup}'s lane, started through its dispatcher. */
    static MultiProducerSerialExecutor onLane(Lane lane) {
        return new MultiProducerSerialExecutor(lane);
    }

    /** Linearization point: the {@code getAndSet} of {@code tail}. */
    @Override
    public void execute(Runnable task) {
        LinkingRunnable node = new LinkingRunnable(Objects.requireNonNull(task, "task"), lane);
        LinkingRunnable previous = (LinkingRunnable) TAIL.getAndSet(this, node);
        if (!previous.link(node)) {
            node.startOrReject();
        }
    }
}
