package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A lane that any number of producers append to with one atomic instruction per task (a swap; a
 * CAS loop for keyed lanes, which must refuse to append to a retired lane): the lane, not the last
 * node, says whether the chain is idle.
 *
 * <p>Protocol. {@link #tail} is null while the lane is idle, else the last node appended. A
 * producer swaps its node into {@code tail} ({@code getAndSet}, an XCHG that cannot fail). If it
 * displaced null, it owns the chain's start and starts it; otherwise it links its node behind the
 * displaced one with a <em>release store</em>, not a CAS: each node is displaced exactly once, so
 * it has exactly one linker, and nobody else writes its {@code next}. The drainer, finding no
 * successor after a node, closes the lane with {@code CAS(tail, last, null)}. If that CAS fails, a
 * producer has swapped in a successor and may still be between its swap and its link; the store is
 * the next thing it does, so the drainer spins briefly for it, then yields (the producer was
 * likely descheduled in that window of two instructions). If the link is still missing after
 * that, the drainer stops waiting: it hands the lane back still open, resuming at {@code last} (to
 * the pool, or to the back of the dispatcher's ready queue), so a stalled producer does not hold a
 * pool thread or a worker for good, and the lane is retried later. Caveat, as for every
 * swap-then-link queue (Vyukov's MPSC queue, JCTools' linked queues): a producer that dies between
 * the two steps (say a {@code StackOverflowError}) leaves its lane stuck, and the lane is then
 * retried forever.
 *
 * <p>Why a release store and not a link CAS behind the tail (the single-producer protocol): with
 * two atomics per task (tail swap, then {@code CAS(old.next)}), a producer stalls twice on cache
 * lines that the other producer or the drainer holds; the release store of the link retires from
 * the store buffer without stalling the producer (+11 to +25 % at 64 keys with two producers,
 * measured: docs/results/order-design.md, 2026-11-22). What it costs: the drainer's closing CAS
 * is on the tail's line, which producers write, and the rare wait above. An idle lane keeps no
 * node reachable (the tail is null).
 *
 * <p>Linearization point of an append: the swap of {@code tail}. Happens-before between
 * consecutive tasks: the link's release store pairs with the drainer's volatile read of
 * {@code next}; across an idle/restart, the closing CAS pairs with the swap that displaced null, and
 * the start hands the node to the pool or the dispatcher.
 */
class MultiProducerLane extends Lane {
    private static final VarHandle TAIL;

    static {
        try {
            TAIL = MethodHandles.lookup().findVarHandle(MultiProducerLane.class, "tail", LinkingRunnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A drainer whose closing CAS failed spins this many times for the link, then yields up to
     * {@link #LINK_YIELDS} times, then hands the lane back. The yields matter: on a small machine
     * the producer in the window is most likely one that a waking pool thread preempted (not
     * measured directly), and it links as soon as it gets a core back. Handing the lane back
     * after the spins alone, without the yields, halves throughput at 64 keys on a 2-core
     * ForkJoinPool (measured: docs/results/order-design.md, 2026-11-22).
     */
    private static final int LINK_SPINS = 128;

    private static final int LINK_YIELDS = 256;

    /** null: idle; else the last node appended. */
    volatile LinkingRunnable tail;

    MultiProducerLane(DrainPolicy policy) {
        super(policy);
    }

    /**
     * Appends {@code node} (whose lane is this one). Linearization point: the swap.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the lane was idle and starting it
     *     was rejected; {@code node}'s task will not run
     */
    final void append(LinkingRunnable node) {
        LinkingRunnable previous = (LinkingRunnable) TAIL.getAndSet(this, node);
        if (previous == null) {
            node.startOrReject();
        } else {
            previous.linkReleased(node);
        }
    }

    /** Replaces the tail if it is still {@code expected}; for lanes whose producers use a CAS loop. */
    final boolean casTail(LinkingRunnable expected, LinkingRunnable replacement) {
        return TAIL.compareAndSet(this, expected, replacement);
    }

    @Override
    final LinkingRunnable close(LinkingRunnable last) {
        if (TAIL.compareAndSet(this, last, (LinkingRunnable) null)) {
            return null;
        }
        LinkingRunnable successor;
        for (int tries = 0; (successor = last.successor()) == null; tries++) {
            if (tries < LINK_SPINS) {
                Thread.onSpinWait();
            } else if (tries < LINK_SPINS + LINK_YIELDS) {
                Thread.yield(); // the producer was likely preempted mid-append: let it run
            } else {
                return last; // still no link (a stalled producer): hand the lane back, open, at last
            }
        }
        return successor;
    }
}
