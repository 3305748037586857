package io.tickwork.primitives.order;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * A factory of {@link SerialExecutor}s that share one pool through a few resident workers, for
 * many independent serial executors (one per connection, per actor, per entity) whose tasks are
 * cheap: each executor is serial and multi-producer like {@link MultiProducerSerialExecutor}, but
 * an executor that becomes busy is queued for the group's workers (one XCHG) instead of being
 * submitted to the pool (a queue lock and often a thread wake-up per burst). See
 * {@link LaneDispatcher} for the scheme and {@link KeyedSerialExecutor}, which uses the same one
 * when you address executors by key instead of holding them.
 *
 * <p>Guarantees of each executor: those of {@link SerialExecutor}. Across executors: none (they
 * run in parallel on up to {@code workers} pool threads). Cost per task: one node (24 bytes), a
 * getAndSet and a release store; per idle-to-busy transition, one XCHG on the group's ready queue. Memory:
 * an executor is two small objects and is collected when you drop it (the group keeps no
 * reference to idle executors, except up to 128 per running worker until it leaves).
 *
 * <p>Thread safety: fully thread safe.
 */
public final class SerialExecutorGroup {
    private final DrainPolicy policy;
    private final LaneDispatcher dispatcher;

    /** Default budget, the thread's uncaught-exception handler, workers = the pool's parallelism. */
    public SerialExecutorGroup(Executor pool) {
        this(
                pool,
                DrainPolicy.DEFAULT_BUDGET,
                null,
                LaneDispatcher.defaultParallelism(Objects.requireNonNull(pool, "pool")));
    }

    /**
     * @param pool where tasks run; any {@link Executor}
     * @param budget tasks one executor runs in a row before going to the back of the ready queue,
     *     and roughly the tasks a worker runs before giving its pool thread back; {@code >= 1}
     * @param failureHandler receives tasks' failures; null means the running thread's handler
     * @param workers how many pool threads at most run this group's tasks at once; {@code >= 1}
     */
    public SerialExecutorGroup(Executor pool, int budget, Thread.UncaughtExceptionHandler failureHandler, int workers) {
        this.policy = new DrainPolicy(pool, budget, failureHandler);
        this.dispatcher = new LaneDispatcher(policy, workers);
    }

    /** A new serial executor of this group; any number of producers may use it. */
    public SerialExecutor newSerialExecutor() {
        return MultiProducerSerialExecutor.onLane(new GroupLane(policy, dispatcher));
    }

    /** A lane started through the dispatcher, which waits briefly for a successor when nothing else is ready. */
    static final class GroupLane extends MultiProducerLane {
        private final LaneDispatcher dispatcher;

        GroupLane(DrainPolicy policy, LaneDispatcher dispatcher) {
            super(policy);
            this.dispatcher = dispatcher;
        }

        @Override
        void start(LinkingRunnable head) {
            dispatcher.schedule(this, head);
        }

        @Override
        LinkingRunnable awaitSuccessor(LinkingRunnable last) {
            return dispatcher.awaitSuccessor(last);
        }
    }
}
