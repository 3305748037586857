package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One task in a serial chain, and the {@link Runnable} that the pool runs to drain the chain:
 * Jeff Hain's linking protocol (used by http-kit to order WebSocket frames), made iterative and
 * safe against failures, starvation and rejection.
 *
 * <p>Protocol. Every node has an atomic {@code next}, initially null. A producer that knows the
 * chain's last node {@code old} links its new node with {@code CAS(old.next, null, new)}. The pool
 * thread that ran {@code old} then finds {@code next} set and runs the successor itself, with one
 * volatile read and no pool submission. When it finds {@code next} null it closes the node with
 * {@code CAS(old.next, null, old)}: a self-link, the <em>tombstone</em>. Exactly one of the two
 * CASes wins; if the producer's loses, {@code old} has finished, so the producer submits its node
 * to the pool. Whoever wins owns the successor, which is why a task never runs twice or never.
 * That is the protocol of {@link SingleProducerSerialExecutor}. Lanes with many producers
 * ({@link MultiProducerLane}) swap a tail instead, link with a release store and close on the
 * tail; the node and the draining loop are the same, only {@link Lane#close} differs.
 *
 * <p>Guarantees beyond the linking protocol: {@link #run()} loops instead of recursing, so a chain
 * of millions of tasks drains in one stack frame; a throwing task is reported to the policy's
 * handler and the chain goes on; after {@code budget} tasks in a row the rest of the chain is
 * handed back to the pool (or, for lanes of a {@link LaneDispatcher}, to the back of its ready
 * queue), so one busy chain cannot keep a pool thread; the task reference is cleared before the
 * task runs, so a finished task is not retained by the node that the producer (or a
 * multi-producer lane's tail) may still hold as the chain's last. Design notes:
 * docs/results/order-design.md.
 *
 * <p>Nodes are created by the executors of this package and are not reusable. Thread safety: a
 * node is run by one thread at a time by construction; {@link #run()} never throws.
 */
public final class LinkingRunnable implements Runnable {
    private static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(LinkingRunnable.class, "next", LinkingRunnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A node that is already finished and closed: a fresh chain's "last node", so the first
     * producer's link CAS fails and it submits, with no null check and no per-chain allocation.
     */
    static final LinkingRunnable CLOSED = new LinkingRunnable(null, null);

    static {
        CLOSED.next = CLOSED;
    }

    /** Cleared when the task starts (or is rejected): the node must not retain a finished task. */
    private Runnable task;
    /**
     * Set before the node is published (by a link, a tail swap or a pool submission), never
     * changed after.
     */
    Lane lane;
    /**
     * null: nothing linked yet; other: the successor. Single-producer lanes also use this: a
     * tombstone (finished, nothing linked). Multi-producer lanes never tombstone; their tail says
     * whether the lane is closed.
     */
    private volatile LinkingRunnable next;

    LinkingRunnable(Runnable task, Lane lane) {
        this.task = task;
        this.lane = lane;
    }

    /**
     * Appends {@code successor} after this node. Linearization point: the CAS. Fails (returns
     * false) iff this node is already tombstoned, i.e. it ran and its drainer has left; the caller
     * then owns {@code successor} and must start it.
     */
    boolean link(LinkingRunnable successor) {
        return NEXT.compareAndSet(this, (LinkingRunnable) null, successor);
    }

    /**
     * Links {@code successor} after this node with a release store, for a caller that is this
     * node's only possible linker ({@link MultiProducerLane}: the producer that displaced it from
     * the tail). The drainer's volatile read of {@code next} pairs with the store.
     */
    void linkReleased(LinkingRunnable successor) {
        NEXT.setRelease(this, successor);
    }

    /**
     * The single-producer closing step, run by the drainer of a node that has no successor:
     * tombstones it ({@code CAS(next, null, this)}) and returns null, or returns the successor whose producer's
     * link CAS won. Linearization point of "lane idle": the tombstone CAS; a producer whose link
     * CAS loses to it sees the tombstone and starts its node.
     */
    LinkingRunnable tombstoneOrSuccessor() {
        return NEXT.compareAndSet(this, (LinkingRunnable) null, this) ? null : next;
    }

    /** Starts the chain at this node; see {@link Lane#start}. */
    void startOrReject() {
        lane.start(this);
    }

    /** The node will not run its task (its submission was rejected); the caller reports that. */
    void dropTask() {
        task = null;
    }

    /**
     * Pool entry point of a plain lane: drains the chain from this node, handing the rest back
     * to the pool after each {@code budget} tasks; see the class comment. Never throws.
     */
    @Override
    public void run() {
        final Lane lane = this.lane;
        LinkingRunnable from = this;
        for (; ; ) {
            LinkingRunnable rest = drain(from, lane.policy.budget);
            if (rest == null) {
                return;
            }
            try {
                lane.policy.pool.execute(rest);
                return;
            } catch (RuntimeException refused) { // usually RejectedExecutionException
                from = rest; // the tasks were accepted: keep draining here rather than drop them
            }
        }
    }

    /**
     * Runs tasks from {@code node} on, at most {@code budget} of them. Returns null if the lane
     * went idle ({@link Lane#close} closed it after its last node, {@link Lane#wentIdle} called),
     * the first node not yet run if the budget ran out first, or the last node run, still open, if
     * {@link Lane#awaitSuccessor} or {@link Lane#close} returned that node (the lane defers going
     * idle, or a producer is still linking): the caller hands it back, to resume there. Never throws.
     */
    static LinkingRunnable drain(LinkingRunnable node, int budget) {
        return drain(node, budget, null);
    }

    /**
     * {@link #drain(LinkingRunnable, int)}, adding the number of nodes visited (tasks run, a
     * resumed node included) to {@code ran[0]} when {@code ran} is not null.
     */
    static LinkingRunnable drain(LinkingRunnable node, int budget, int[] ranOut) {
        final Lane lane = node.lane;
        for (int ran = 1; ; ran++) {
            Runnable work = node.task;
            if (work != null) {
                node.task = null; // no retention: the last node may stay reachable as the lane's tail
                try {
                    work.run();
                } catch (Throwable failure) {
                    lane.policy.reportFailure(failure);
                }
            }
            LinkingRunnable successor = node.next;
            if (successor == null
                    && (successor = lane.awaitSuccessor(node)) == null
                    && (successor = lane.close(node)) == null) {
                if (ranOut != null) {
                    ranOut[0] += ran; // before wentIdle: from then on another thread may own the lane
                }
                lane.wentIdle(node);
                return null;
            }
            if (successor == node) {
                lane.lastDrained = (byte) Math.min(ran, Byte.MAX_VALUE); // for LaneDispatcher.THIN_CHAIN
                if (ranOut != null) {
                    ranOut[0] += ran;
                }
                return node; // the lane defers going idle: it resumes here (this task already ran)
            }
            if (ran >= budget) {
                if (ranOut != null) {
                    ranOut[0] += ran;
                }
                return successor;
            }
            node = successor;
        }
    }

    /** The successor if one is linked, else null; a volatile read. */
    LinkingRunnable successor() {
        return next;
    }

    /** Whether this node is tombstoned (finished with nothing linked). */
    boolean isTombstoned() {
        return next == this;
    }
}
