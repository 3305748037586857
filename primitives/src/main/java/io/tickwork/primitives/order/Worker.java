package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.locks.LockSupport;

/**
 * A resident drainer on one pool thread: takes ready keys from its {@link LaneDispatcher} and runs
 * their tasks until none is left, then lingers briefly and gives the thread back.
 *
 * <p>Interrupts: each task starts with its thread's interrupt flag clear, so a task never sees an
 * interrupt left by another key's task or aimed at the pool. An interrupt seen before a task (left
 * by the previous task, or sent by the pool, say by {@code shutdownNow}) is remembered and set
 * again when the worker gives its thread back, so the pool still sees its own interrupt. A task
 * interrupted while it runs sees that interrupt, as it would on the pool.
 *
 * <p>Failures: a task's throwable goes to {@link TaskFailures}. A {@link VirtualMachineError} is
 * not handled: the worker puts the key back in the ready queue (its remaining tasks still run),
 * hands its slot to a fresh run of itself on the pool, and rethrows the error to the pool thread.
 * If the pool refuses that hand-over, the worker drains what is queued on this thread first and
 * rethrows when the queue is empty.
 *
 * <p>Idle keys: a worker remembers up to {@value #IDLE_SLOTS} keys it saw go idle and retires
 * each one (if still idle) when it is evicted from that ring or when the worker leaves its pool
 * thread, so idle keys are bounded while workers run and released when they stop.
 *
 * <p>Counts (tasks run and failed, keys gone idle) are kept in plain fields and handed to the
 * shared counters when the worker gives its thread back, or at once after a shutdown, so the hot
 * path writes nothing shared for them.
 *
 * <p>Hand-overs: the pool is given a fresh {@link Ticket} per submission, never the worker itself.
 * The ticket that starts the worker, or the submitter taking it back ({@link #reclaim}), clears
 * {@link #outstanding} by a CAS, so exactly one of them runs it; a ticket left over from an
 * earlier submission (taken back while still in the pool's queue) matches nothing and returns.
 */
final class Worker {
    /**
     * A worker with nothing queued spins this many times, then parks {@link #LINGER_PARKS} times
     * for {@link #LINGER_PARK_NANOS} (at least; the OS timer slack may add up to 50 us), then
     * leaves its pool thread; at once if the pool has other work waiting, or, on a pool without a
     * thread limit, if another worker is already idle (one lingering worker catches the next key as
     * well as many). Parking rather than
     * spinning or yielding: when producers are the bottleneck (cheap tasks, few cores) a spinning
     * worker takes a core from them, and a yield can hand the core to another process for a whole
     * time slice. A parked worker costs producers nothing (they wake nobody, since it counts as an
     * idle worker), and meanwhile keys stay busy and grow chains.
     */
    private static final int LINGER_SPINS = 32;

    private static final int LINGER_PARKS = 4;
    private static final long LINGER_PARK_NANOS = 20_000;

    /**
     * A worker whose drain of a key ended in a deferral after fewer nodes than this yields its
     * thread once: such a visit means the workers are ahead of the producers (a poll and a
     * re-queue, on cache lines every worker writes, for a handful of tasks). When producers and
     * workers share cores, that time is better spent by a producer, and the keys' chains grow
     * meanwhile, so the next visits run more tasks each. Must stay at most 127
     * ({@link KeyLane#lastDrained} is a byte).
     */
    private static final int THIN_CHAIN = 16;

    /**
     * Tasks a worker runs before it lets the pool's other queued work have its thread, if any
     * waits: about the share a task submitted per key would get in a FIFO pool, without giving the
     * thread back after every key.
     */
    private static final int FAIR_SHARE = 64;

    /** Idle keys a worker remembers before it retires the oldest; a power of 2. */
    static final int IDLE_SLOTS = 128;

    private static final VarHandle OUTSTANDING;

    static {
        try {
            OUTSTANDING = MethodHandles.lookup().findVarHandle(Worker.class, "outstanding", Ticket.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LaneDispatcher dispatcher;
    /** Set once the worker first works; read when a ticket is made ({@link Ticket#fresh}). */
    private boolean ran;

    /** The submission that may still start this worker; null once one started it or it was taken back. */
    @SuppressWarnings("unused") // through OUTSTANDING
    private volatile Ticket outstanding;

    /** Inline worker after a rejection: the node whose task to drop if this worker pops it. */
    TaskNode rejectable;

    boolean droppedRejectable;

    /** Whether this worker counts as idle in the dispatcher's control word. Born idle. */
    private boolean idle = true;

    /** Keys this worker saw go idle, to retire later if still idle: a ring, oldest evicted. */
    private final KeyLane[] idleLanes = new KeyLane[IDLE_SLOTS];

    private int idleNext;

    /** Nodes visited since this worker last took a pool thread, for the fairness budget. */
    private int visitedSinceHandBack;

    /** {@link #slotForOther}: no other pool task runs in place on this worker's thread. */
    private static final byte NO_OTHER = 0;
    /** {@link #slotForOther}: another pool task runs in place; this worker kept its slot. */
    private static final byte SLOT_KEPT = 1;
    /** {@link #slotForOther}: another pool task runs in place; this worker gave its slot up. */
    private static final byte SLOT_GIVEN_UP = 2;

    /**
     * What this worker did with its slot for the other pool task now running in place with no
     * key waiting ({@link #handOverIfKeysWait}); settled before it polls again.
     */
    private byte slotForOther = NO_OTHER;

    private boolean interruptSeen;
    /** This run drains in a producer's thread, not a pool thread ({@link #work}). */
    private boolean inline;
    /** An inline run's caller was interrupted when it began; restored when the run ends. */
    private boolean callerInterrupted;

    private VirtualMachineError fatal;
    private long ranLocal;
    private long failedLocal;
    private int idledLocal;

    Worker(LaneDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    /**
     * Before this worker runs another pool task in place ({@link ForkJoinHandOff}), once one was
     * found. The other task may wait for the executor's termination, which counts the keys that
     * went idle: the counts are handed over first. It may also wait until a key progresses (a
     * {@code flush(key).join()}), and this worker's slot may be the only one, or the others' keys
     * may block. So if keys wait, the worker goes back to the pool first, slot and all
     * ({@link #handOver}), and another pool thread (or the spare the pool adds for a blocked join)
     * resumes it, or this thread does once the other task returns. If none waits, the other task
     * may still make one ready and wait for it: the worker keeps its slot unless every other slot
     * is held by a worker doing the same, or there is none
     * ({@link LaneDispatcher#keepSlotForOtherTask}); then it gives its slot up for the other
     * task's run, so that key gets a worker of its own, and takes a slot back afterwards, or stops
     * if every slot was taken meanwhile. Returns whether it went back to the pool: then this
     * thread must not touch the worker again.
     */
    private final java.util.function.BooleanSupplier beforeOtherTask = this::handOverIfKeysWait;

    private boolean handOverIfKeysWait() {
        final LaneDispatcher d = dispatcher;
        if (d.looksEmpty()) {
            flushCounts();
            if (d.keepSlotForOtherTask()) {
                slotForOther = SLOT_KEPT;
                return false;
            }
            slotForOther = SLOT_GIVEN_UP; // before the release: whatever is thrown from here on, no slot is held twice
            boolean wasIdle = idle;
            idle = false;
            if (!d.giveUpSlotForOtherTask(wasIdle)) {
                return false; // a key made ready from now on finds a free slot, or a worker that will poll
            }
            slotForOther = NO_OTHER; // a key arrived meanwhile and this worker holds a slot again: go back with it
        }
        return handOver(false); // which hands the counts over first
    }

    /**
     * What the pool runs: one submission of a worker. A {@code ForkJoinTask}, so that a
     * {@code ForkJoinPool} queues it as it is (not wrapped) and a worker's hand-off can tell its
     * own dispatcher's tickets from the pool's other tasks ({@link #absorbInto}); other pools run
     * it as the {@code Runnable} it also is.
     */
    static final class Ticket extends ForkJoinTask<Void> implements Runnable {
        final Worker worker;
        /** The worker had never run when this ticket was made: it holds an idle slot and nothing else. */
        private final boolean fresh;

        private Ticket(Worker worker, boolean fresh) {
            this.worker = worker;
            this.fresh = fresh;
        }

        /**
         * Runs the worker. Completes this ticket as a {@code Future} (normally, whatever the run
         * threw), so that pool code which inspects finished {@code Future}s, such as a
         * {@code ThreadPoolExecutor.afterExecute} calling {@code get()}, never waits on it.
         */
        @Override
        public void run() {
            try {
                worker.runFrom(this);
            } finally {
                quietlyComplete();
            }
        }

        /**
         * On a {@code ForkJoinPool}: what escapes goes to the thread's uncaught-exception handler,
         * whose own failure is ignored, as the pool does for a {@code Runnable} given to
         * {@code execute}.
         */
        @Override
        protected boolean exec() {
            try {
                run();
            } catch (Throwable failure) {
                Thread t = Thread.currentThread();
                try {
                    t.getUncaughtExceptionHandler().uncaughtException(t, failure);
                } catch (Throwable ignored) {
                    // as ForkJoinPool ignores it
                }
            }
            return true;
        }

        @Override
        public Void getRawResult() {
            return null;
        }

        @Override
        protected void setRawResult(Void value) {}

        /**
         * This ticket, just taken off a {@code ForkJoinPool} thread's queue by a hand-off of a
         * worker of {@code d}, which goes on draining {@code d}'s keys on this thread (or hands
         * itself back to the pool first): if it starts a fresh worker of {@code d}, that helper is
         * not needed on this thread and does not start; its idle slot is given back. Such a helper
         * sits on the queue of the thread that added it until another pool thread takes it, so
         * without this the hand-off would find it first (newest first) each time, run it in place,
         * and the pool's other work would wait behind the two workers for as long as keys wait.
         * True if the ticket was consumed that way (or starts nothing any more); false if it is to
         * run as any other task.
         */
        boolean absorbInto(LaneDispatcher d) {
            if (worker.dispatcher != d || !fresh) {
                return false;
            }
            if (worker.reclaim(this)) {
                d.started(); // out of the pool, as a started worker is
                d.addCtl(-1 - LaneDispatcher.ONE_IDLE); // its slot, held idle since it was submitted
            }
            return true; // else an earlier submission, which would return at once
        }
    }

    /**
     * A ticket for handing this worker to the pool; it replaces any earlier one, so only the
     * newest submission can start the worker. Called by the thread that holds the worker.
     */
    Ticket ticket() {
        Ticket t = new Ticket(this, !ran);
        OUTSTANDING.setRelease(this, t);
        return t;
    }

    /**
     * Takes the worker back from submission {@code t}: true if no pool thread has started it by
     * {@code t}, and then none will (the caller holds the worker again); false if one has.
     */
    boolean reclaim(Ticket t) {
        return OUTSTANDING.compareAndSet(this, t, null);
    }

    /**
     * Pool entry point. Declines, returning at once, when the pool runs it inside its own
     * dispatcher's submission on this same thread (see {@link WorkerSlot}); returns at once too
     * if {@code t} no longer starts the worker (taken back, or an earlier submission).
     */
    private void runFrom(Ticket t) {
        WorkerSlot slot = WorkerSlot.current();
        if (slot.submitting == dispatcher) {
            slot.declined = true;
            return;
        }
        if (!reclaim(t)) {
            return;
        }
        dispatcher.started();
        work(true);
    }

    /**
     * Drains ready keys until none is left. On a pool thread ({@code onPool}) it lingers before
     * leaving and gives the thread back after {@code budget} tasks; inline (in a producer, after
     * a rejection or in a pool that runs tasks in the caller) it does neither. Holds a worker slot
     * on entry; on return the slot is released or handed to a new run of this worker.
     */
    void work(boolean onPool) {
        ran = true;
        // inline, the thread is a producer's: it gets back the flag it came with, and interrupts
        // found before tasks are the tasks' own (see leave); on a pool thread they are kept for it
        inline = !onPool;
        callerInterrupted = inline && Thread.interrupted();
        WorkerSlot slot = WorkerSlot.current();
        slot.enter(dispatcher);
        try {
            loop(onPool);
        } finally {
            slot.exit();
        }
    }

    private void loop(boolean onPool) {
        final LaneDispatcher d = dispatcher;
        final int budget = d.budget;
        visitedSinceHandBack = 0;
        for (; ; ) {
            KeyLane lane = d.poll();
            if (lane == null) {
                lane = onPool ? linger() : pollUntilQuiescent();
                if (lane == null) {
                    if (leave()) {
                        return;
                    }
                    continue;
                }
            }
            if (idle) {
                idle = false;
                d.addCtl(-LaneDispatcher.ONE_IDLE); // Dekker with producers: fence, then re-check below
            }
            if (onPool && !d.looksEmpty()) {
                VirtualMachineError e = d.addWorker(); // work is piling up: bring in help
                if (e != null) {
                    recordFatal(e);
                }
            }
            TaskNode from = lane.continueAt;
            lane.continueAt = null;
            d.onPop(lane, from);
            if (from == rejectable) {
                // a lane resumes at its last node run after a deferral: null there means another
                // worker ran the producer's task already, and it was accepted after all
                if (from.task != null) {
                    from.task = null; // we own the popped lane, so nobody else can be running it
                    droppedRejectable = true;
                    lane.publishStarted(from.seq); // gone: no longer waiting under a queue bound
                }
                rejectable = null;
            }
            TaskNode rest = drain(lane, from, budget);
            if (rest != null) {
                flushTaskCounts(); // the key may go idle under another worker, then terminate the executor
                // read before the lane is queued: from then on another worker may own it
                boolean thin = lane.deferState == KeyLane.DEFERRED && lane.lastDrained < THIN_CHAIN;
                lane.continueAt = rest; // budget used, deferred, a stalled producer, or a fatal error
                d.enqueue(lane);
                if (thin && fatal == null) {
                    Thread.yield(); // workers are ahead of the producers: see THIN_CHAIN
                }
            } else {
                deferRetire(lane);
            }
            if (fatal != null && onPool) {
                VirtualMachineError e = takeFatal(); // read before a new run of this worker may start
                if (handOver()) {
                    throw e; // the keys go on with that new run
                }
                fatal = e; // refused: drain here, rethrow on leaving
            }
            // Tasks, not keys: the pool gets its thread back after about budget tasks, or after
            // FAIR_SHARE if other work waits in the pool, so it runs between them.
            if (onPool
                    && fatal == null
                    && (visitedSinceHandBack >= budget || visitedSinceHandBack >= FAIR_SHARE && d.poolHasOtherWork())) {
                if (Thread.interrupted()) {
                    interruptSeen = true; // our tasks' interrupt is not the other task's
                }
                boolean restore = interruptSeen; // read before this worker may go back to the pool
                ForkJoinHandOff.Outcome handOff = runOneOther();
                if (handOff == ForkJoinHandOff.Outcome.RAN_AFTER_LEAVING) {
                    if (restore) {
                        Thread.currentThread().interrupt(); // the pool's thread back with its flag
                    }
                    return; // the worker went back to the pool before the other task ran
                }
                if (handOff != ForkJoinHandOff.Outcome.NOT_HERE) {
                    if (slotForOther != NO_OTHER && !settleSlotAfterOther()) {
                        return; // every slot was taken meanwhile: their workers run the keys
                    }
                    flushTaskCounts(); // stats() lags by at most about a budget per worker, here too
                    visitedSinceHandBack = 0; // a ForkJoinPool thread: the pool's next task ran here, or none waits
                    continue;
                }
                if (handOver()) {
                    return;
                }
                visitedSinceHandBack = 0; // the pool will not take us back: keep working here
            } else if (!onPool && visitedSinceHandBack >= budget) {
                // a thread draining in place never gives itself back: hand the counts over
                // anyway, so stats() lags by at most about a budget here too
                flushTaskCounts();
                visitedSinceHandBack = 0;
            }
        }
    }

    /**
     * Gives this thread back to the pool, keeping the slot: submits this worker again, counted
     * idle until it polls. Returns false, and goes on as before, if the pool refuses or would run
     * it in place. A pending fatal error must be taken out first: once the pool has this worker,
     * another thread may run it.
     */
    private boolean handOver() {
        return handOver(true);
    }

    /**
     * As {@link #handOver()}; {@code restoreInterrupt} false leaves setting the thread's interrupt
     * flag again to the caller, who read {@link #interruptSeen} before.
     */
    private boolean handOver(boolean restoreInterrupt) {
        final LaneDispatcher d = dispatcher;
        flushCounts();
        boolean restore = interruptSeen;
        interruptSeen = false;
        boolean becameIdle = !idle;
        if (becameIdle) {
            idle = true;
            d.addCtl(LaneDispatcher.ONE_IDLE);
        }
        boolean taken;
        try {
            taken = d.submit(this);
        } catch (Throwable refused) {
            taken = false;
        }
        if (taken) {
            // another thread may run this worker from now on: touch no field of it
            if (restore && restoreInterrupt) {
                Thread.currentThread().interrupt();
            }
            return true;
        }
        interruptSeen = restore;
        if (becameIdle) { // refused: this worker goes on here, busy (it may run another task in place now)
            idle = false;
            d.addCtl(-LaneDispatcher.ONE_IDLE);
        }
        return false;
    }

    /**
     * Releases this worker's slot; returns false, holding a slot again, if a key arrived meanwhile
     * and a slot is still free. If the limit was reached meanwhile, whoever took the slot runs the
     * key (see {@link LaneDispatcher#retakeSlot}). Retires remembered idle keys and hands the
     * counts over first; rethrows a pending fatal error after the release.
     */
    private boolean leave() {
        final LaneDispatcher d = dispatcher;
        retireAllIdle(); // leaving: no idle key stays registered because of us
        flushCounts();
        d.addCtl(-1 - (idle ? LaneDispatcher.ONE_IDLE : 0)); // Dekker with schedule(): fence, then re-check
        idle = false;
        if (!d.looksEmpty() && d.retakeSlot()) {
            return false;
        }
        restoreInterrupt();
        if (fatal != null) {
            throw takeFatal();
        }
        return true;
    }

    /**
     * {@link ForkJoinHandOff#runOneOther} with this worker's preparation. A pool task's failure
     * does not escape it: {@code ForkJoinPool} itself hands the failure of a task given to
     * {@code execute} to the thread's uncaught-exception handler and ignores what that handler
     * throws (JDK 17 to 25), and its other tasks keep their failure. If a throwable escapes anyway
     * (from this worker's own preparation, which throws nothing once it went back to the pool, so
     * the fields read here are still this thread's), a given-up slot stays given up and the run
     * ends, and the throwable goes on to the pool thread.
     */
    private ForkJoinHandOff.Outcome runOneOther() {
        try {
            return ForkJoinHandOff.runOneOther(dispatcher.pool.pool, dispatcher, beforeOtherTask);
        } catch (Throwable escaped) {
            if (slotForOther == SLOT_GIVEN_UP) {
                slotForOther = NO_OTHER;
                stopWithoutSlot();
            } else if (slotForOther == SLOT_KEPT) {
                slotForOther = NO_OTHER;
                dispatcher.endRunningOther();
            }
            throw escaped;
        }
    }

    /**
     * After the other pool task ran in place: ends a kept slot's count, or takes a given-up slot
     * back; false, the run ended ({@link #stopWithoutSlot}), if every slot was taken meanwhile.
     */
    private boolean settleSlotAfterOther() {
        final LaneDispatcher d = dispatcher;
        byte s = slotForOther;
        slotForOther = NO_OTHER;
        if (s == SLOT_KEPT) {
            d.endRunningOther();
            return true;
        }
        if (d.retakeSlot()) {
            return true;
        }
        stopWithoutSlot();
        return false;
    }

    /**
     * Ends this run after its slot was given up for another task and could not be taken back:
     * as {@link #leave}, less the release. No fatal error is pending before (the hand-off needs
     * none); one from retiring the idle keys is thrown last, as {@link #leave} throws it (over
     * whatever the hand-off threw, if it threw).
     */
    private void stopWithoutSlot() {
        retireAllIdle();
        flushCounts();
        restoreInterrupt();
        if (fatal != null) {
            throw takeFatal();
        }
    }

    /**
     * The run ends: a pool thread gets back an interrupt found before any of its tasks (the pool's
     * {@code shutdownNow}, or a task's leftover); a producer's thread the flag it came with.
     */
    private void restoreInterrupt() {
        if (inline) {
            Thread.interrupted(); // what the last task left: not the producer's
        }
        boolean restore = inline ? callerInterrupted : interruptSeen;
        interruptSeen = false;
        callerInterrupted = false;
        if (restore) {
            Thread.currentThread().interrupt();
        }
    }

    private VirtualMachineError takeFatal() {
        VirtualMachineError e = fatal;
        fatal = null;
        return e;
    }

    private void recordFatal(VirtualMachineError e) {
        if (fatal == null) {
            fatal = e;
        } else if (fatal != e) {
            try {
                fatal.addSuppressed(e);
            } catch (Throwable ignored) {
                // out of memory for the suppressed list: the first error is the one to report
            }
        }
    }

    /**
     * Runs {@code lane}'s tasks from {@code node} on, at most {@code budget} nodes. Returns null
     * if the lane went idle; otherwise the node to resume at when the lane is next popped: the
     * first node not yet run (budget used), or the last node run, its task already cleared (a
     * deferral, a producer still linking, or a fatal error).
     */
    private TaskNode drain(KeyLane lane, TaskNode node, int budget) {
        final LaneDispatcher d = dispatcher;
        final boolean exact = d.exactStarts;
        for (int visited = 1; ; visited++) {
            Runnable task = node.task;
            if (task != null) {
                node.task = null; // no retention: the last node may stay reachable as the lane's tail
                if (exact) {
                    lane.publishStarted(node.seq);
                }
                if (Thread.interrupted()) {
                    interruptSeen = true; // see the class comment: restored when the thread goes back
                }
                try {
                    task.run();
                } catch (Throwable failure) {
                    failedLocal++;
                    VirtualMachineError e = d.failures.report(lane.key, task, failure);
                    if (e != null) {
                        ranLocal++;
                        recordFatal(e);
                        lane.publishStarted(node.seq);
                        countVisited(visited);
                        return node; // back to the queue: the key's next tasks run after this error
                    }
                }
                if (!(task instanceof KeyedSerialExecutor.FlushMarker)) {
                    ranLocal++;
                }
            }
            TaskNode successor = node.successor();
            if (successor == null
                    && (successor = d.awaitSuccessor(lane, node)) == null
                    && (successor = lane.close(node)) == null) {
                countVisited(visited);
                idledLocal++;
                if (!d.lifecycle.isRunning()) {
                    flushCounts(); // shutting down: termination waits for this count
                }
                return null;
            }
            if (successor == node) {
                lane.lastDrained = (byte) Math.min(visited, Byte.MAX_VALUE); // for THIN_CHAIN
                lane.publishStarted(node.seq);
                lane.restAt(node); // its task has run: a flush that finds it the tail has nothing to wait for
                countVisited(visited);
                return node; // the lane defers going idle: it resumes here (this task already ran)
            }
            if (task == null) {
                lane.leaveRest(); // resumed at a node that had run, and moving past it
            }
            if (visited >= budget) {
                lane.publishStarted(node.seq);
                countVisited(visited);
                return successor;
            }
            node = successor;
        }
    }

    /** Adds to the nodes visited since the last hand-back, saturating: a budget may be Integer.MAX_VALUE. */
    private void countVisited(int visited) {
        int sum = visitedSinceHandBack + visited;
        visitedSinceHandBack = sum >= 0 ? sum : Integer.MAX_VALUE;
    }

    /** Hands this worker's counts to the shared counters: tasks first, then idle keys (termination). */
    private void flushCounts() {
        flushTaskCounts();
        if (idledLocal != 0) {
            int n = idledLocal;
            idledLocal = 0;
            dispatcher.lifecycle.busyEnded(n);
        }
    }

    /**
     * Hands over the counts of tasks run and failed. Done before a key leaves this worker busy,
     * and before any key's idle count: so once the executor terminates, every task is counted.
     */
    private void flushTaskCounts() {
        final LaneDispatcher d = dispatcher;
        if (ranLocal != 0) {
            d.completed.add(ranLocal);
            ranLocal = 0;
        }
        if (failedLocal != 0) {
            d.failed.add(failedLocal);
            failedLocal = 0;
        }
    }

    private void deferRetire(KeyLane lane) {
        if (!lane.markRetirePending()) {
            return; // another worker will check it
        }
        KeyLane evicted = idleLanes[idleNext];
        idleLanes[idleNext] = lane;
        idleNext = (idleNext + 1) & (IDLE_SLOTS - 1);
        if (evicted != null) {
            retire(evicted);
        }
    }

    private void retireAllIdle() {
        for (int i = 0; i < IDLE_SLOTS; i++) {
            KeyLane lane = idleLanes[i];
            if (lane != null) {
                idleLanes[i] = null;
                retire(lane);
            }
        }
    }

    private void retire(KeyLane lane) {
        VirtualMachineError e = dispatcher.retireIfIdle(lane);
        if (e != null) {
            recordFatal(e);
        }
    }

    /** Waits briefly for work with nothing queued; counted idle meanwhile. */
    private KeyLane linger() {
        final LaneDispatcher d = dispatcher;
        // on an unbounded pool one lingering worker is enough to catch the next key
        boolean linger = !d.unbounded || d.idleWorkers() == 0;
        if (!idle) {
            idle = true;
            d.addCtl(LaneDispatcher.ONE_IDLE); // a producer that sees us idle leaves its key to us
        }
        if (Thread.interrupted()) {
            interruptSeen = true; // a task's leftover interrupt must not cut the parks short
        }
        if (linger && !d.poolHasOtherWork()) {
            for (int i = 0; i < LINGER_SPINS + LINGER_PARKS; i++) {
                if (!d.looksEmpty()) {
                    KeyLane lane = d.poll();
                    if (lane != null) {
                        return lane;
                    }
                }
                if (i < LINGER_SPINS) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(this, LINGER_PARK_NANOS);
                    if (d.poolHasOtherWork()) {
                        break; // the pool's other work gets this thread
                    }
                }
            }
        }
        return pollUntilQuiescent();
    }

    /** Polls while a producer is mid-queue (the queue is not empty but nothing can be popped yet). */
    private KeyLane pollUntilQuiescent() {
        final LaneDispatcher d = dispatcher;
        for (int step = 1; ; step++) {
            KeyLane lane = d.poll();
            if (lane != null || d.looksEmpty()) {
                return lane;
            }
            LaneDispatcher.backOff(step); // the producer between its XCHG and its link may be descheduled
        }
    }
}
