package io.tickwork.primitives.order;

/**
 * One serial order of tasks: the unit whose tasks run one at a time. A
 * {@link MultiProducerSerialExecutor} or {@link SingleProducerSerialExecutor} is one lane; a
 * {@link KeyedSerialExecutor} has one lane per active key. Nodes point to their lane so that the
 * thread draining them finds the policy and can tell the lane it went idle.
 *
 * <p>A plain lane starts a chain by submitting its first node to the pool. A lane of a
 * {@link LaneDispatcher} (the keyed executor's) instead queues itself, intrusively through
 * {@link #readyNext}, for one of a few resident workers; {@link #continueAt} is the node to start
 * from. Both fields belong to whoever currently owns the lane's chain: the producer that started
 * it, then the queue, then one worker.
 */
class Lane {
    final DrainPolicy policy;
    /** The node to drain from when this lane is next run; set by the chain's owner. */
    LinkingRunnable continueAt;
    /** Next lane in the dispatcher's ready queue. */
    volatile Lane readyNext;
    /**
     * Dispatched lanes: whether the drained lane may go to the back of the ready queue still
     * open instead of going idle (see {@link LaneDispatcher#awaitSuccessor}). Owned, like
     * {@link #continueAt}, by the chain's owner (a worker), so plain.
     */
    byte deferState;
    /**
     * Nodes visited by the last drain that returned its last node to resume at (a deferral, or a
     * late link), counting a resume node whose task already ran; at most 127 (a byte keeps a keyed
     * lane at 48 bytes). Read only after a deferral ({@link LaneDispatcher}); owned, like
     * {@link #continueAt}, by the chain's owner.
     */
    byte lastDrained;
    /** Dispatched lanes: the dispatcher's poll count when this lane last went idle; a hint. */
    int idleAt;

    /** Not owned by a worker since it was last idle (or never ran): decide at the next pop. */
    static final byte IDLE = 0;
    /** This activation may defer going idle once. */
    static final byte MAY_DEFER = 1;
    /** Queued still open after its chain ran dry; at the next pop, a successor means "hot". */
    static final byte DEFERRED = 2;
    /** This activation goes idle as soon as its chain runs dry. */
    static final byte NO_DEFER = 3;

    Lane(DrainPolicy policy) {
        this.policy = policy;
    }

    /**
     * Starts the chain at {@code head}, whose task this thread owns. If the pool rejects, the
     * head's task is dropped, whatever was linked behind it runs here, and the rejection is rethrown.
     */
    void start(LinkingRunnable head) {
        try {
            policy.pool.execute(head);
        } catch (RuntimeException rejected) { // RejectedExecutionException, or a pool breaking its contract
            head.dropTask();
            head.run(); // closes the chain (idle) or drains the tasks linked meanwhile
            throw rejected;
        }
    }

    /**
     * Called by the drainer when {@code last} has no successor yet, before it closes the chain: a
     * chance to wait briefly for a producer that is about to link one, which keeps the chain
     * going instead of paying an idle/restart cycle. Plain lanes do not wait.
     *
     * @return the successor if one got linked; {@code last} itself if the lane should stop here
     *     without going idle (dispatched lanes: queued again, still open); else null
     */
    LinkingRunnable awaitSuccessor(LinkingRunnable last) {
        return null;
    }

    /**
     * Called by the drainer when {@code last} has run and has no successor, to close the chain:
     * returns null if the lane is now idle (no task queued or running; a producer's next task will
     * start it again), else the successor a producer linked meanwhile, which the caller runs, or
     * {@code last} itself if the lane must stay open and be resumed there later (a producer is
     * still linking). Lanes with one producer close with the self-link tombstone,
     * {@code CAS(last.next, null, last)}; {@link MultiProducerLane} closes on its tail instead.
     */
    LinkingRunnable close(LinkingRunnable last) {
        return last.tombstoneOrSuccessor();
    }

    /**
     * Called by the drainer right after it closed the chain at {@code last}, the lane's last
     * node: the lane has no task queued or running. Plain lanes do nothing; so do keyed lanes
     * (their workers retire idle lanes later, see {@link #retireIfIdle}).
     */
    void wentIdle(LinkingRunnable last) {}

    /**
     * Dispatched lanes: a worker that saw this lane go idle asks to check it later (see
     * {@link LaneDispatcher}); returns false if a check is already pending with some worker.
     */
    boolean markRetirePending() {
        return false;
    }

    /** Dispatched lanes: retires the lane if it is still idle; clears the pending mark first. */
    void retireIfIdle() {}
}
