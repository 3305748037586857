package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs ready keys on a pool through resident {@link Worker}s, instead of one pool submission per
 * key that becomes busy.
 *
 * <p>Why: when the pool's threads drain faster than producers submit (cheap tasks, many keys),
 * every key goes idle after about one task, and a pool submission per task would have to wake a
 * parked pool thread each time: the wake-ups, not the tasks, would set the throughput. Here a key
 * that becomes busy is appended to a ready queue (one XCHG) and a worker already on a pool thread
 * takes it. A worker that finds the queue empty lingers briefly before giving its thread back,
 * unless the pool has other work waiting.
 *
 * <p>Ready queue: Vyukov's intrusive MPSC queue (1024cores.net, "Intrusive MPSC node-based
 * queue") linked through {@link KeyLane#readyNext}, so queueing allocates nothing; consumers (the
 * workers) take turns through a spin lock held only for one pop. A lane is in the queue at most
 * once, because only the owner of its chain queues it. The waits for another thread's next step
 * (the poll lock, a producer between its XCHG and its link) spin and yield every 64th step
 * ({@link #backOff}): with more runnable threads than cores, the thread waited for is often
 * descheduled, and a pure spin would burn its whole time slice.
 *
 * <p>Workers and how many run. Up to {@code parallelism} workers hold a slot; by default the pool's
 * own capacity ({@link PoolView#capacity()}), so on a thread-per-task or virtual-thread executor
 * every ready key can run at once, and a key whose task blocks holds one pool thread, never the
 * others. {@link #ctl} counts the slots held (low 32 bits) and, of those, the workers that are
 * idle (high 32 bits): started but not yet polling, lingering, or queued in the pool after giving
 * their thread back; an idle worker will poll again. A producer that makes a key ready starts a
 * worker if none holds a slot, or if a slot is free and no worker is idle; a worker that takes a
 * key and still sees keys queued does the same, so a burst of keys whose tasks block gets a worker
 * each through a chain of starts, one thread start apiece, and keys whose tasks are cheap are
 * served by the few workers already running rather than by a new thread per key. On a pool without
 * a thread limit (a thread or a virtual thread per task) only one idle worker lingers; with a
 * limit, every idle worker does, since the workers that hold the pool's threads stay resident.
 *
 * <p>Why no ready key is stranded: a producer XCHGes the queue tail, then reads {@link #ctl}; a
 * worker that stops being idle, or leaves, changes {@link #ctl} (a full fence), then re-checks
 * the queue. Whichever comes second sees the first: either the producer sees that no worker is
 * idle (or none runs) and starts one, or the worker sees the key. A leaving worker that sees a
 * key takes a slot back only below the limit ({@link #retakeSlot}), so {@code parallelism} is
 * never exceeded, not even by one.
 *
 * <p>Submissions to the pool: only workers are submitted. A pool that runs the worker in the
 * submitting thread (a {@code CallerRunsPolicy}, a direct executor) is detected: the worker
 * declines to run nested ({@link WorkerSlot}), and the submitter treats it as "no new thread":
 * a producer starting the first worker drains the queue itself, a worker adding help goes on
 * alone. A pool that returns normally but is shut down may have dropped the worker: it is taken
 * back (a ticket per submission decides who runs it, see {@link Worker}) and treated the same way.
 * A pool that throws is a rejection: if no worker runs, the producer drains the queue
 * itself, except its own task, which it drops and reports unless another worker already ran it.
 *
 * <p>Fairness: a worker runs at most {@code budget} tasks of a key before putting the key at the
 * back of the queue, and gives its pool thread back after about {@code budget} tasks in all; on a
 * {@code ForkJoinPool} thread it runs the pool's next other task in place instead
 * ({@link ForkJoinHandOff}).
 */
final class LaneDispatcher extends DispatcherPad3 {
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;
    private static final VarHandle POLLING;
    private static final VarHandle CTL;
    private static final VarHandle IN_POOL;
    private static final VarHandle READY_NEXT;
    private static final VarHandle RUNNING_OTHER;
    private static final VarHandle RESERVE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(DispatcherTail.class, "tail", KeyLane.class);
            HEAD = lookup.findVarHandle(DispatcherHead.class, "head", KeyLane.class);
            POLLING = lookup.findVarHandle(DispatcherHead.class, "polling", int.class);
            CTL = lookup.findVarHandle(DispatcherCtl.class, "ctl", long.class);
            IN_POOL = lookup.findVarHandle(DispatcherCtl.class, "inPool", int.class);
            READY_NEXT = lookup.findVarHandle(KeyLane.class, "readyNext", KeyLane.class);
            RUNNING_OTHER = lookup.findVarHandle(LaneDispatcher.class, "runningOther", int.class);
            RESERVE = lookup.findVarHandle(LaneDispatcher.class, "reserve", Worker.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One idle worker in {@link #ctl}. */
    static final long ONE_IDLE = 1L << 32;

    final PoolView pool;
    final int parallelism;
    /**
     * Whether the pool has no thread limit (parallelism {@link PoolView#UNBOUNDED}): then only one
     * idle worker lingers, since a new thread is always to be had and hundreds of lingering
     * workers' timed parks would crowd a virtual-thread scheduler. With a limit the pool's
     * threads are the scarce resource, and every idle worker that holds one lingers.
     */
    final boolean unbounded;

    final int budget;
    /** Whether drainers publish each task's start at once (per-key queues are bounded). */
    final boolean exactStarts;

    final TaskFailures failures;
    final Lifecycle lifecycle;
    final ConcurrentHashMap<?, KeyLane> lanes;
    /** Tasks run and failed, as workers hand their counts over. */
    final LongAdder completed = new LongAdder();

    final LongAdder failed = new LongAdder();
    private final KeyLane stub;

    /** Workers running another pool task in place that kept their slot meanwhile ({@link #keepSlotForOtherTask}). */
    @SuppressWarnings("unused") // through RUNNING_OTHER
    private volatile int runningOther;

    /**
     * A worker kept for a producer that must start the first one. By then its key is queued, so a
     * worker it could not allocate would leave the key with none (and {@code close()} waiting for
     * ever). The producer takes the reserve only if its own allocation fails; the reserve is
     * refilled before a key becomes busy ({@link #ensureReserve}), where running out of memory
     * leaves nothing behind.
     */
    @SuppressWarnings("unused") // through RESERVE
    private volatile Worker reserve;

    /** Makes each worker but the reserve; a test replaces it to fail as an exhausted heap does. */
    java.util.function.Function<LaneDispatcher, Worker> workerFactory = Worker::new;

    LaneDispatcher(
            PoolView pool,
            int parallelism,
            int budget,
            boolean exactStarts,
            TaskFailures failures,
            Lifecycle lifecycle,
            ConcurrentHashMap<?, KeyLane> lanes) {
        this.pool = pool;
        this.parallelism = parallelism;
        this.unbounded = parallelism == PoolView.UNBOUNDED;
        this.budget = budget;
        this.exactStarts = exactStarts;
        this.failures = failures;
        this.lifecycle = lifecycle;
        this.lanes = lanes;
        this.stub = new KeyLane(null, null);
        this.tail = stub;
        this.head = stub;
        this.reserve = new Worker(this);
    }

    /**
     * Refills the reserve worker if a start used it; called before a key is counted busy.
     *
     * @throws OutOfMemoryError if it cannot be allocated, before anything changed
     */
    void ensureReserve() {
        if (reserve == null) {
            RESERVE.compareAndSet(this, null, workerFactory.apply(this));
        }
    }

    /** A new worker to start the first one with, or the reserve if none can be allocated. */
    private Worker firstWorker() {
        try {
            return workerFactory.apply(this);
        } catch (OutOfMemoryError outOfMemory) {
            Worker spare = (Worker) RESERVE.getAndSet(this, null);
            if (spare == null) {
                throw outOfMemory;
            }
            return spare;
        }
    }

    /**
     * Makes {@code lane} runnable from {@code head}, a node whose task the calling producer owns.
     * Linearization point: the XCHG of the queue tail.
     *
     * @throws RejectedExecutionException if a worker was needed, the pool refused it, and
     *     {@code head}'s task therefore will not run
     */
    void schedule(KeyLane lane, TaskNode head) {
        lane.continueAt = head;
        enqueue(lane);
        long c = ctl;
        int held = (int) c;
        if (held == 0) {
            startFirstWorker(head, lane.key);
        } else if (held < parallelism && (int) (c >>> 32) == 0 && tryAddWorker() && !looksEmpty()) {
            // The pool refused the worker. Its slot may have been the one a leaving worker found
            // taken (retakeSlot), and the workers left may be busy for long: if a slot is free,
            // this producer drains the ready keys itself, as a caller-runs pool would.
            if (workers() == 0) {
                startFirstWorker(head, lane.key);
            } else {
                drainHereIfRoom();
            }
        }
    }

    /**
     * Takes a free slot, if any, and drains the ready keys on this thread until none is left;
     * nothing is rejected (the keys were accepted). If every slot is held, their workers drain.
     */
    private void drainHereIfRoom() {
        if (WorkerSlot.current().isDraining(this)) {
            // a task of ours scheduled this key on the thread one of our workers drains: that
            // worker polls again when the task returns, so a chain of tasks each scheduling the
            // next key does not nest a drain per key on this stack
            return;
        }
        Worker worker = workerFactory.apply(this); // before the slot is taken: an OutOfMemoryError here holds none
        for (long c; (int) (c = ctl) < parallelism; ) {
            if (CTL.compareAndSet(this, c, c + 1 + ONE_IDLE)) { // born idle, as every worker
                worker.work(false);
                return;
            }
        }
    }

    void enqueue(KeyLane lane) {
        READY_NEXT.set(lane, (KeyLane) null);
        KeyLane previous = (KeyLane) TAIL.getAndSet(this, lane);
        READY_NEXT.setRelease(previous, lane);
    }

    private void enqueueStub() {
        READY_NEXT.set(stub, (KeyLane) null);
        KeyLane previous = (KeyLane) TAIL.getAndSet(this, stub);
        READY_NEXT.setRelease(previous, stub);
    }

    /** Idle workers now (lingering, starting, or queued in the pool to resume). */
    int idleWorkers() {
        return (int) (ctl >>> 32);
    }

    /** Slots held by workers now. */
    int workers() {
        return (int) ctl;
    }

    /** Adds {@code delta} to {@link #ctl}: slots in the low half, idle workers in the high half. */
    void addCtl(long delta) {
        CTL.getAndAdd(this, delta);
    }

    private void startFirstWorker(TaskNode rejectable, Object key) {
        Worker worker = firstWorker(); // before the slot is taken: an OutOfMemoryError here holds none
        for (; ; ) {
            long c = ctl;
            if ((int) c != 0) {
                RESERVE.compareAndSet(this, null, worker); // unused: it may be the reserve
                return; // a worker runs, and will see the lane (it re-checks before leaving)
            }
            if (CTL.compareAndSet(this, c, c + 1 + ONE_IDLE)) {
                break;
            }
        }
        Throwable refused = null;
        try {
            if (submit(worker)) {
                return;
            }
            // declined: the pool runs tasks in the submitting thread; drain here, as it would
        } catch (Throwable t) {
            // We hold the slot: run what is queued here, then leave. Our own head's task is
            // dropped only if this inline worker pops it; a worker that ran before our slot CAS
            // may already have run it, and then the task was accepted after all.
            refused = t;
            worker.rejectable = rejectable;
        }
        worker.work(false);
        if (refused == null) {
            return;
        }
        if (worker.droppedRejectable) {
            throw rejection(
                    "key " + describe(key) + ": the pool refused a worker while none ran, so the task will not run",
                    refused);
        }
        if (refused instanceof VirtualMachineError fatal) {
            throw fatal;
        }
    }

    /**
     * From a running worker: starts one more worker if fewer than {@code parallelism} hold a slot
     * and none is idle. Returns a {@link VirtualMachineError} that the pool threw, for the caller
     * to rethrow at a safe point; any other refusal just means fewer workers (the caller runs).
     */
    VirtualMachineError addWorker() {
        try {
            tryAddWorker();
            return null;
        } catch (VirtualMachineError fatal) {
            return fatal;
        }
    }

    /**
     * Takes a slot and hands a new worker to the pool, if fewer than {@code parallelism} hold a
     * slot and none is idle. Returns true if the pool refused it (or would run it in place): the
     * slot is given back.
     *
     * @throws VirtualMachineError thrown by the pool, the slot given back
     */
    private boolean tryAddWorker() {
        for (long c; (int) (c = ctl) < parallelism && (int) (c >>> 32) == 0; ) {
            if (CTL.compareAndSet(this, c, c + 1 + ONE_IDLE)) {
                try {
                    if (submit(workerFactory.apply(this))) {
                        return false;
                    }
                } catch (VirtualMachineError fatal) {
                    addCtl(-1 - ONE_IDLE);
                    throw fatal;
                } catch (Throwable refused) {
                    // rejected: fewer workers
                }
                addCtl(-1 - ONE_IDLE);
                return true;
            }
        }
        return false;
    }

    /**
     * Asks, for a worker about to run another pool task in place with no key waiting, whether it
     * may keep its slot meanwhile: no if every other slot is held by a worker doing the same, or
     * there is none (a parallelism of 1), since a key the other task makes ready and waits for
     * would then have no worker; yes otherwise. Only these runs are counted: a slot held by a
     * worker blocked in one of its keys' tasks counts as able to poll, so a key made ready then
     * waits for that task, as on any pool whose threads all block. Keeping the slot leaves the
     * pool's other work its usual share (a free slot would let a producer start one more
     * drainer); the caller ends a kept run with {@link #endRunningOther}. Two workers asking at
     * once get different answers when only one may keep its slot: the count is one atomic add.
     */
    boolean keepSlotForOtherTask() {
        int before = (int) RUNNING_OTHER.getAndAdd(this, 1);
        if (before + 1 < parallelism) {
            return true;
        }
        RUNNING_OTHER.getAndAdd(this, -1);
        return false;
    }

    /**
     * A worker holding a slot ({@code idle} or not) gives it up before running another pool task
     * in place. A Dekker with {@link #schedule}: the release is a full fence, then the ready queue
     * is read again, as a producer enqueues (a full fence) and then reads the slots. Returns true
     * if a key arrived meanwhile and the worker took a slot back (it then goes back to the pool
     * with it); false if a key made ready from now on finds a free slot, or a worker that will poll.
     */
    boolean giveUpSlotForOtherTask(boolean idle) {
        addCtl(-1 - (idle ? ONE_IDLE : 0));
        return !looksEmpty() && retakeSlot();
    }

    void endRunningOther() {
        RUNNING_OTHER.getAndAdd(this, -1);
    }

    /**
     * A leaving worker that saw a key arrive, or one that gave its slot up for a pool task it ran in
     * place, takes a slot back, unless the limit was reached since it gave its own back; returns
     * whether it did. If not, every slot is held by a worker that
     * will poll (or re-check as it leaves), or by a producer whose new worker the pool may still
     * refuse: that producer then finds no worker left and starts the first itself
     * ({@link #schedule}), so the key is never stranded and the limit never exceeded.
     */
    boolean retakeSlot() {
        for (long c; (int) (c = ctl) < parallelism; ) {
            if (CTL.compareAndSet(this, c, c + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Hands {@code worker} to the pool: true if the pool took it; false, with the worker back in
     * this thread's hands, if the pool tried to run it in this thread (the worker declined, see
     * {@link Worker.Ticket}) or returned normally while shut down before starting it. A shut-down
     * pool may drop what it is given without an exception (a {@code ThreadPoolExecutor}'s
     * {@code CallerRunsPolicy} does), which would strand the keys queued for the worker; so the
     * worker is taken back ({@link Worker#reclaim}) and a copy the pool still runs later returns
     * at once.
     *
     * @throws Throwable what the pool's {@code execute} threw, the worker back in this thread's
     *     hands (unless the pool started it anyway: then this returns true)
     */
    boolean submit(Worker worker) {
        Worker.Ticket ticket = worker.ticket(); // before the slot is marked: an OutOfMemoryError here leaves it clean
        WorkerSlot slot = WorkerSlot.current();
        LaneDispatcher outer = slot.submitting;
        slot.submitting = this;
        slot.declined = false;
        IN_POOL.getAndAdd(this, 1); // taken out again by whoever wins the ticket: started(), or a reclaim here
        try {
            pool.pool.execute(ticket);
        } catch (Throwable refused) {
            if (!worker.reclaim(ticket)) {
                return true; // it runs on the pool after all
            }
            IN_POOL.getAndAdd(this, -1);
            throw refused;
        } finally {
            slot.submitting = outer;
        }
        boolean declined = slot.declined;
        slot.declined = false;
        boolean mayBeDropped;
        try {
            mayBeDropped = declined || pool.isShutdown();
        } catch (Throwable failed) { // a custom pool's isShutdown: the worker must be back in our hands to throw
            if (!worker.reclaim(ticket)) {
                return true;
            }
            IN_POOL.getAndAdd(this, -1);
            throw failed;
        }
        if (mayBeDropped && worker.reclaim(ticket)) {
            IN_POOL.getAndAdd(this, -1);
            return false;
        }
        return true;
    }

    /** A worker this dispatcher handed to the pool starts running (its ticket won). */
    void started() {
        IN_POOL.getAndAdd(this, -1);
    }

    /** Whether the pool has work queued besides this dispatcher's own workers; a hint. */
    boolean poolHasOtherWork() {
        return pool.queuedTasks() > inPool;
    }

    /**
     * The key as a rejection's message names it: its {@code toString()}, or, if that throws
     * anything but a {@link VirtualMachineError} (an {@code AssertionError} included), its class
     * and identity, so a rejection is always a {@link RejectedExecutionException}.
     */
    static String describe(Object key) {
        try {
            return String.valueOf(key);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            return key.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(key))
                    + " (its toString() threw " + e.getClass().getName() + ")";
        }
    }

    /**
     * The rejection that tells a producer why its task will not run: {@code what}, then what the
     * pool threw (also the cause), so the message leads with the key rather than the pool's text
     * about an internal runnable. A {@link VirtualMachineError} is rethrown as itself.
     */
    static RejectedExecutionException rejection(String what, Throwable refused) {
        if (refused instanceof VirtualMachineError fatal) {
            throw fatal; // the JVM's own trouble: rethrown as itself, whatever it cost the task
        }
        // any other Error too: the task was dropped, and the caller is told so as the contract says
        return new RejectedExecutionException(what + ": " + refused, refused);
    }

    /**
     * One step of a wait for another thread's next move: a spin, and every {@link #YIELD_EVERY}th
     * step a yield. With more runnable threads than cores (producers and workers on a small
     * machine) the thread waited for, say the poll lock's holder, is often descheduled, and a
     * pure spin then burns a whole time slice; the yield hands the core to it instead, and costs
     * nothing until 64 spins have failed.
     */
    static void backOff(int step) {
        if (step % YIELD_EVERY == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }

    private static final int YIELD_EVERY = 64;

    /** Pops the oldest ready lane, or null if none is (completely) queued. Consumers take turns. */
    KeyLane poll() {
        for (int step = 1; !POLLING.compareAndSet(this, 0, 1); step++) {
            backOff(step);
        }
        try {
            pops++;
            KeyLane h = head;
            KeyLane next = h.readyNext;
            if (h == stub) {
                if (next == null) {
                    return null;
                }
                HEAD.setOpaque(this, next);
                READY_NEXT.set(stub, (KeyLane) null); // see popped()
                h = next;
                next = h.readyNext;
            }
            if (next != null) {
                HEAD.setOpaque(this, next);
                return popped(h);
            }
            if (h != tail) {
                return null; // a producer is between its XCHG and its link: not empty, retry later
            }
            enqueueStub(); // h is the last lane: put the stub behind it so h can leave
            next = h.readyNext;
            if (next != null) {
                HEAD.setOpaque(this, next);
                return popped(h);
            }
            return null; // another producer got between h and the stub: retry later
        } finally {
            POLLING.setRelease(this, 0);
        }
    }

    /**
     * {@code h}, just taken off the queue, with its link cleared: a lane that stays reachable (its
     * task blocks, or a worker keeps it to check later) must not hold the lanes queued after it,
     * and through their links every lane queued since, keys included. Safe as a plain store under
     * the poll lock: {@code h} has a successor, so it is not the tail and no producer writes its
     * link; it is queued again only by whoever runs it, after this returns (and {@link #enqueue}
     * clears the link then too).
     */
    private static KeyLane popped(KeyLane h) {
        READY_NEXT.set(h, (KeyLane) null);
        return h;
    }

    /** True iff nothing is queued and no producer is in the middle of queueing. A hint unless quiescent. */
    boolean looksEmpty() {
        KeyLane h = head;
        return h == stub && stub.readyNext == null && tail == stub;
    }

    /** How long a worker with nothing else queued waits on a lane's last node for a successor. */
    private static final int SUCCESSOR_SPINS = 64;

    /**
     * A drained lane is about to go idle. If no other lane is waiting for this worker, spin
     * briefly for the producer's next link: under a steady single-key stream this turns an
     * idle/restart cycle per task (close, queue, poll) into one volatile read. If other lanes
     * are waiting and this lane is hot (see {@link #HOT_GAP}), defer: the lane goes to the back of
     * the ready queue still open (not closed), so producers keep linking to it instead of
     * restarting it, and by the time the worker comes back its chain has grown. A deferred lane
     * that finds no successor when it comes back goes idle then; it defers again only if it
     * found one, so a lane whose producers stopped is deferred at most once.
     *
     * @return the successor if one got linked; {@code last} if the lane goes to the back of the
     *     queue still open; null if it should close now
     */
    TaskNode awaitSuccessor(KeyLane lane, TaskNode last) {
        if (!looksEmpty()) {
            if (lane.deferState == KeyLane.MAY_DEFER) {
                lane.deferState = KeyLane.DEFERRED;
                return last; // back of the queue, open: producers keep linking, no restart
            }
        } else {
            for (int i = 0; i < SUCCESSOR_SPINS && looksEmpty(); i++) {
                Thread.onSpinWait();
                TaskNode successor = last.successor();
                if (successor != null) {
                    return successor;
                }
            }
        }
        // About to go idle. Written now, while this worker still owns the lane: once the
        // lane is closed, a producer may restart it and another worker own it.
        lane.deferState = KeyLane.IDLE;
        lane.idleAt = pops;
        return null;
    }

    /**
     * A lane is hot, and may defer going idle in its next activation, if it is started again
     * within this many polls of going idle. Round-robin over a few dozen keys is hot; a key seen
     * once per 100,000 tasks is not: a deferral it never benefits from would cost it a second
     * poll and queueing.
     */
    private static final int HOT_GAP = 1024;

    /** Updates {@code lane}'s deferral state when a worker pops it; see {@link #awaitSuccessor}. */
    void onPop(KeyLane lane, TaskNode from) {
        switch (lane.deferState) {
            case KeyLane.IDLE ->
                lane.deferState =
                        Integer.compareUnsigned(pops - lane.idleAt, HOT_GAP) < 0 ? KeyLane.MAY_DEFER : KeyLane.NO_DEFER;
            case KeyLane.DEFERRED -> lane.deferState = from.successor() != null ? KeyLane.MAY_DEFER : KeyLane.NO_DEFER;
            default -> {} // re-queued after its budget: same activation
        }
    }

    /**
     * Removes {@code lane} from the executor's map if it is still idle. Throws nothing, so a
     * worker's accounting always completes: if the key's {@code hashCode} or {@code equals} throws
     * here, on a worker's thread, the lane stays in the map, retired (idle, counted nowhere; a
     * producer of an equal key removes it, or gets that throwable from {@code execute}), and the
     * throwable goes to the thread's uncaught-exception handler, as a pool reports a task's. Returns
     * a {@link VirtualMachineError} (the map's, or that handler's) for the worker to rethrow once its
     * keys are safe, else null.
     */
    VirtualMachineError retireIfIdle(KeyLane lane) {
        if (!lane.retireIfIdle()) {
            return null;
        }
        try {
            lanes.remove(lane.key, lane);
            return null;
        } catch (VirtualMachineError fatal) {
            return fatal;
        } catch (Throwable keyFailure) {
            return reportKeyFailure(keyFailure);
        }
    }

    private static VirtualMachineError reportKeyFailure(Throwable keyFailure) {
        try {
            TaskFailures.uncaught(Thread.currentThread(), keyFailure);
        } catch (VirtualMachineError fatal) {
            return fatal;
        } catch (Throwable ignored) {
            // the thread's handler failed too: nobody is left to tell, and the worker must go on
        }
        return null;
    }
}

// spotless:off (padding fields, 16 a line)
/*
 * The dispatcher's hot fields, each on a cache line of its own: the queue tail (XCHGed by every
 * producer that schedules a lane), the queue head and the poll lock (written by every poll), and
 * the worker control word (read by every scheduling producer, written when a worker starts,
 * leaves, or turns idle or busy). Declared fields of one class are laid out by size, not in
 * source order, so padding fields between them in one class do not separate them; a class
 * hierarchy does (a superclass's fields come first), and byte padding leaves no alignment gap for
 * a subclass field to fill.
 */
@SuppressWarnings("unused")
abstract class DispatcherPad0 {
    byte p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15,
            p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31,
            p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47,
            p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63;
}

abstract class DispatcherTail extends DispatcherPad0 {
    volatile KeyLane tail;
}

@SuppressWarnings("unused")
abstract class DispatcherPad1 extends DispatcherTail {
    byte q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15,
            q16, q17, q18, q19, q20, q21, q22, q23, q24, q25, q26, q27, q28, q29, q30, q31,
            q32, q33, q34, q35, q36, q37, q38, q39, q40, q41, q42, q43, q44, q45, q46, q47,
            q48, q49, q50, q51, q52, q53, q54, q55, q56, q57, q58, q59, q60, q61, q62, q63;
}

abstract class DispatcherHead extends DispatcherPad1 {
    volatile KeyLane head;
    volatile int polling;
    /** Polls so far, counted under the polling lock; read racily as a clock for hot lanes. */
    int pops;
}

@SuppressWarnings("unused")
abstract class DispatcherPad2 extends DispatcherHead {
    byte r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15,
            r16, r17, r18, r19, r20, r21, r22, r23, r24, r25, r26, r27, r28, r29, r30, r31,
            r32, r33, r34, r35, r36, r37, r38, r39, r40, r41, r42, r43, r44, r45, r46, r47,
            r48, r49, r50, r51, r52, r53, r54, r55, r56, r57, r58, r59, r60, r61, r62, r63;
}

abstract class DispatcherCtl extends DispatcherPad2 {
    /** Low 32 bits: worker slots held; high 32 bits: idle workers among them. */
    volatile long ctl;
    /** Workers handed to the pool and not yet running: queued work of ours, not the pool's other work. */
    volatile int inPool;
}

@SuppressWarnings("unused")
abstract class DispatcherPad3 extends DispatcherCtl {
    byte s00, s01, s02, s03, s04, s05, s06, s07, s08, s09, s10, s11, s12, s13, s14, s15,
            s16, s17, s18, s19, s20, s21, s22, s23, s24, s25, s26, s27, s28, s29, s30, s31,
            s32, s33, s34, s35, s36, s37, s38, s39, s40, s41, s42, s43, s44, s45, s46, s47,
            s48, s49, s50, s51, s52, s53, s54, s55, s56, s57, s58, s59, s60, s61, s62, s63;
}
// spotless:on
