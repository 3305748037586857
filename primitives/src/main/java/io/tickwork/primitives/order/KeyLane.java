package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One key's serial order: the chain of its accepted tasks, and its place in the dispatcher's
 * ready queue. 48 bytes with compressed oops; a key has a lane only while it has tasks, or while
 * a worker still remembers it as recently idle.
 *
 * <p>Append protocol. {@link #tail} is null while the lane is idle, else the last node appended.
 * A producer replaces the tail with a CAS: from null, it owns the chain's start and hands the lane
 * to the dispatcher; from a node, it links its node behind the displaced one with a release store,
 * not a CAS, because each node is displaced exactly once and so has exactly one linker. A CAS
 * rather than a swap, so that no producer can append behind {@link #RETIRED}: a retired lane's
 * tail is terminal, and a producer that sees it retries on a fresh lane, so a key never has two
 * live lanes (which would break mutual exclusion). Linearization point of an append: the CAS.
 *
 * <p>Under a queue bound the tail's sequence minus the last started one must be exact, so a
 * producer reopens an idle lane in two steps, through {@link #REOPENING}
 * ({@link #reopenNumbered}); without a bound the count is a hint, and one CAS from null does.
 *
 * <p>Close protocol. The drainer, finding no successor after a node, closes the lane with
 * {@code CAS(tail, last, null)}. If that fails, a producer has replaced the tail and may still be
 * between its CAS and its link, the next thing it does: the drainer spins briefly for the link,
 * then yields, and if the link is still missing, hands the lane back still open, resuming at
 * {@code last}, so a stalled producer does not hold a worker for good. Caveat, as for every
 * swap-then-link queue (Vyukov's MPSC queue, JCTools' linked queues): a producer that dies between
 * the two steps (a {@code StackOverflowError}) leaves its key stuck, retried forever; so does one
 * that dies between the two steps of a numbered reopening, where the key's later producers and
 * flushes then wait on {@link #REOPENING} for good. Happens-before
 * between consecutive tasks: the link's release store pairs with the drainer's volatile read of the
 * link; across an idle period, the closing CAS pairs with the CAS that reopens the lane.
 *
 * <p>Retire protocol. An idle lane is retired with {@code CAS(tail, null, RETIRED)} and then
 * removed from the executor's map; a producer that appended since the lane went idle makes that
 * CAS fail. Retiring is deferred to a worker that saw the lane go idle (see {@link Worker}), so a
 * key that comes back within a burst keeps its lane and map entry.
 *
 * <p>Every field but {@link #key}, {@link #tail}, {@link #readyNext} and {@link #retirePending}
 * belongs to whoever owns the lane's chain at the time: the producer that started it, then the
 * ready queue, then one worker; ownership passes through the queue's atomics.
 */
final class KeyLane {
    /** A retired lane's tail: terminal; producers never append behind it. */
    static final TaskNode RETIRED = new TaskNode(null);

    /**
     * The tail of an idle lane being reopened under a queue bound: the reopening producer holds
     * it while it numbers its node after the last task started, then replaces it with that node.
     * A producer or flush that sees it waits for the replacement (a few instructions away).
     */
    static final TaskNode REOPENING = new TaskNode(null);

    private static final VarHandle TAIL;
    private static final VarHandle STARTED;
    private static final VarHandle RETIRE_PENDING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(KeyLane.class, "tail", TaskNode.class);
            STARTED = lookup.findVarHandle(KeyLane.class, "started", int.class);
            RETIRE_PENDING = lookup.findVarHandle(KeyLane.class, "retirePending", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A drainer whose closing CAS failed spins this many times for the link, then yields up to
     * {@link #LINK_YIELDS} times, then hands the lane back. The yields matter on a machine with
     * fewer cores than runnable threads: the producer in the window was most likely preempted by
     * a waking pool thread, and it links as soon as it gets a core back.
     */
    private static final int LINK_SPINS = 128;

    private static final int LINK_YIELDS = 256;

    /** Not owned by a worker since it was last idle (or never ran): decide at the next pop. */
    static final byte IDLE = 0;
    /** This activation may defer going idle once. */
    static final byte MAY_DEFER = 1;
    /** Queued still open after its chain ran dry; at the next pop, a successor means "hot". */
    static final byte DEFERRED = 2;
    /** This activation goes idle as soon as its chain runs dry. */
    static final byte NO_DEFER = 3;

    /** The key; null only for the ready queue's stub. */
    final Object key;

    /** null: idle; {@link #RETIRED}: retired; else the last node appended. */
    volatile TaskNode tail;

    /** The node to drain from when this lane is next run; set by the chain's owner. */
    TaskNode continueAt;

    /** Next lane in the dispatcher's ready queue. */
    volatile KeyLane readyNext;

    /**
     * Whether the drained lane may go to the back of the ready queue still open instead of going
     * idle (see {@link LaneDispatcher#awaitSuccessor}).
     */
    byte deferState;

    /**
     * Nodes visited by the last drain that returned its last node to resume at (a deferral, or a
     * late link), counting a resume node whose task already ran; at most 127.
     */
    byte lastDrained;

    /** The dispatcher's poll count when this lane last went idle; a hint. */
    int idleAt;

    /**
     * Sequence of the last task started. Written by the drainer before each task when the
     * executor bounds its queues (exact), otherwise when a drain ends (a hint for statistics), and
     * always before the lane closes; read by producers (the bound) and by statistics.
     */
    private int started;

    /** 1 while some worker holds this lane in its ring of idle lanes to check. */
    private volatile int retirePending;

    /**
     * The node at which the lane was last queued still open after its chain ran dry (a deferral),
     * its task run. While it is still the tail, the key has nothing queued or running, though the
     * lane is not idle: {@link KeyedSerialExecutor#flush} completes at once then. Compared by
     * identity with the tail only, so a stale value is harmless.
     */
    private volatile TaskNode restingAt;

    /** A lane created busy, with {@code first} as its only node. */
    KeyLane(Object key, TaskNode first) {
        this.key = key;
        if (first != null) {
            first.seq = 1;
        }
        this.tail = first;
    }

    boolean casTail(TaskNode expected, TaskNode replacement) {
        return TAIL.compareAndSet(this, expected, replacement);
    }

    /**
     * Reopens this idle lane with {@code first} as its only node, numbered exactly after the last
     * task started (what a queue bound needs); false if the lane is not idle. Idle, the sequence of
     * the last task started is stable (the drainer published it before closing), but a plain read
     * followed by the CAS from idle could see a sequence from before another whole busy period:
     * so the tail is held at {@link #REOPENING} while the node is numbered.
     */
    boolean reopenNumbered(TaskNode first) {
        if (!TAIL.compareAndSet(this, (TaskNode) null, REOPENING)) {
            return false;
        }
        first.seq = started() + 1;
        TAIL.setVolatile(this, first);
        return true;
    }

    /** Sequence of the last task started, as the drainer last published it. */
    int started() {
        return (int) STARTED.getAcquire(this);
    }

    void publishStarted(int seq) {
        STARTED.setRelease(this, seq);
    }

    /** Tasks accepted and not yet started, as far as this thread can tell; 0 when idle or retired. */
    int waiting() {
        TaskNode t = tail;
        return t == null || t == RETIRED || t == REOPENING ? 0 : Math.max(0, t.seq - started());
    }

    /**
     * Called by the drainer when {@code last} has run and has no successor: returns null if the
     * lane is now idle (a producer's next task will reopen it), else the successor a producer
     * linked meanwhile, or {@code last} itself if the lane must stay open and be resumed there
     * later (a producer is still linking). Publishes {@code last}'s sequence as started first, so
     * the producer that reopens the lane numbers its node after it.
     */
    TaskNode close(TaskNode last) {
        publishStarted(last.seq);
        if (TAIL.compareAndSet(this, last, (TaskNode) null)) {
            return null;
        }
        TaskNode successor;
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

    /** The drainer queues the lane still open at {@code last}, whose task has run. */
    void restAt(TaskNode last) {
        restingAt = last;
    }

    /**
     * The drainer moved past the node it resumed at: the lane rests there no more. Dropping the
     * reference matters, for that node links to every node run after it while the key stays busy.
     */
    void leaveRest() {
        if (restingAt != null) {
            restingAt = null;
        }
    }

    /** The node the lane rests at, or null; for tests. */
    TaskNode restingAt() {
        return restingAt;
    }

    /** Whether {@code tail}, read as this lane's tail, is a node the lane rests at: nothing to wait for. */
    boolean restsAt(TaskNode tail) {
        return restingAt == tail;
    }

    /** Asks to check this idle lane later; false if a check is already pending with some worker. */
    boolean markRetirePending() {
        return retirePending == 0 && RETIRE_PENDING.compareAndSet(this, 0, 1);
    }

    /**
     * Retires the lane if it is still idle; returns whether it did (the caller then removes it
     * from the map). Linearization point: the CAS of the tail from null (idle) to
     * {@link #RETIRED}; a producer that appended since the lane went idle makes it fail. The
     * pending mark is cleared before the tail is read, so a worker that sees the lane go idle
     * after this check finds the mark clear and queues another check: no idle lane is missed.
     */
    boolean retireIfIdle() {
        retirePending = 0;
        return tail == null && TAIL.compareAndSet(this, (TaskNode) null, RETIRED);
    }
}
