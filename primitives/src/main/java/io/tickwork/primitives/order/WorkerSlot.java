package io.tickwork.primitives.order;

/**
 * Per thread: which dispatcher's worker is draining on this thread, and which dispatcher is
 * handing a worker to its pool from this thread. Two things need it. A pool that runs a submitted
 * worker in the submitting thread (a {@code CallerRunsPolicy}, a direct executor) would nest
 * workers on one stack, and a worker handing its own thread back after every budget would nest
 * once per budget: a worker run while its dispatcher is submitting from the same thread declines
 * ({@link #declined}), and the submitter goes on itself. And {@link KeyedSerialExecutor#close()}
 * called from one of its own tasks must not wait for itself.
 */
final class WorkerSlot {
    private static final ThreadLocal<WorkerSlot> CURRENT = ThreadLocal.withInitial(WorkerSlot::new);

    /** The dispatcher whose worker runs on this thread now, innermost; null if none. */
    LaneDispatcher draining;

    /** The dispatcher that is submitting a worker from this thread now; null if none. */
    LaneDispatcher submitting;

    /** Set by a worker that declined to run nested inside its dispatcher's submission. */
    boolean declined;

    static WorkerSlot current() {
        return CURRENT.get();
    }
}
