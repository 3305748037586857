package io.tickwork.primitives.order;

import java.util.Arrays;

/**
 * Per thread: which dispatchers' workers are draining on this thread (nested when a pool runs a
 * worker in the thread that submits it), and which dispatcher is handing a worker to its pool
 * from this thread. Two things need it. A pool that runs a submitted worker in the submitting
 * thread (a {@code CallerRunsPolicy}, a direct executor) would nest workers on one stack, and a
 * worker handing its own thread back after every budget would nest once per budget: a worker run
 * while its dispatcher is submitting from the same thread declines ({@link #declined}), and the
 * submitter goes on itself. And {@link KeyedSerialExecutor#close()} called from one of its own
 * tasks, however deeply another executor's drain nests it, must not wait for itself.
 */
final class WorkerSlot {
    private static final ThreadLocal<WorkerSlot> CURRENT = ThreadLocal.withInitial(WorkerSlot::new);

    /** Dispatchers draining on this thread, outermost first. */
    private LaneDispatcher[] draining = new LaneDispatcher[4];

    private int depth;

    /**
     * Entries below this index belong to workers that are running another pool task in place
     * ({@link ForkJoinHandOff}): that task runs as a plain pool task, so they are hidden from it.
     */
    private int floor;

    /** The dispatcher that is submitting a worker from this thread now; null if none. */
    LaneDispatcher submitting;

    /** Set by a worker that declined to run nested inside its dispatcher's submission. */
    boolean declined;

    static WorkerSlot current() {
        return CURRENT.get();
    }

    /** A worker of {@code d} starts draining on this thread. */
    void enter(LaneDispatcher d) {
        if (depth == draining.length) {
            draining = Arrays.copyOf(draining, depth * 2);
        }
        draining[depth++] = d;
    }

    /** The innermost worker stops draining. */
    void exit() {
        draining[--depth] = null;
    }

    /** Whether a worker of {@code d} drains on this thread, at any depth not hidden. */
    boolean isDraining(LaneDispatcher d) {
        for (int i = floor; i < depth; i++) {
            if (draining[i] == d) {
                return true;
            }
        }
        return false;
    }

    /** Hides every draining worker from what runs next on this thread; returns what to restore. */
    int hideAll() {
        int saved = floor;
        floor = depth;
        return saved;
    }

    void unhide(int saved) {
        floor = saved;
    }
}
