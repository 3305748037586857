package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs many lanes on a pool through at most {@code parallelism} resident workers, instead of one
 * pool submission per lane activation.
 *
 * <p>Why: when the pool's threads drain faster than producers submit (cheap tasks, many keys),
 * every lane goes idle after about one task and every task becomes a pool submission that has to
 * wake a parked pool thread: measured, ~1.1 tasks per submission at 64 keys, and the wake-ups,
 * not the tasks, set the throughput. Here a lane that becomes ready is appended to a ready queue
 * (one XCHG); a worker already on a pool thread takes it. A worker that finds the queue empty
 * lingers briefly (spin, then a few timed parks) before giving its thread back, so a steady stream of cheap
 * tasks does not pay a wake-up per task.
 *
 * <p>Ready queue: Vyukov's intrusive MPSC queue (1024cores.net, "Intrusive MPSC node-based
 * queue") linked through {@link Lane#readyNext}, so queueing allocates nothing; consumers (the
 * workers) take turns through a small spin lock, held only for one pop. A lane is in the queue at
 * most once, because only the owner of its chain queues it.
 *
 * <p>Worker lifecycle: a producer that queues a lane starts a worker only if none is running; a
 * worker that takes a lane and still sees work queued starts another, up to {@code parallelism}.
 * Exit is a Dekker handshake: the producer XCHGes the queue tail then reads the worker count; a
 * leaving worker decrements the count then re-checks the queue; both are full fences, so one of
 * them sees the other and no lane is left without a worker. Fairness: a worker runs at most
 * {@code budget} tasks of a lane before re-queuing the lane at the back, and gives its pool
 * thread back (resubmits itself) after {@code budget} tasks in total.
 *
 * <p>Before a lane goes idle, its worker spins briefly for a successor if no other lane is
 * ready ({@link #awaitSuccessor}).
 *
 * <p>Idle lanes: a worker remembers up to {@value #IDLE_SLOTS} lanes it saw go idle and retires
 * each one (if still idle) when it is evicted from that ring or when the worker leaves its pool
 * thread, so idle keys are bounded while workers run and released when they stop.
 *
 * <p>Rejection: only starting a worker submits to the pool. If that is rejected while no worker
 * runs, the starting thread runs the queued lanes itself so that accepted tasks are not stranded,
 * except its own task, which it drops (and the caller gets the exception) unless another worker
 * had already run it.
 */
final class LaneDispatcher {
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;
    private static final VarHandle POLLING;
    private static final VarHandle WORKERS;
    private static final VarHandle READY_NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(LaneDispatcher.class, "tail", Lane.class);
            HEAD = lookup.findVarHandle(LaneDispatcher.class, "head", Lane.class);
            POLLING = lookup.findVarHandle(LaneDispatcher.class, "polling", int.class);
            WORKERS = lookup.findVarHandle(LaneDispatcher.class, "workers", int.class);
            READY_NEXT = lookup.findVarHandle(Lane.class, "readyNext", Lane.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A worker with nothing queued spins this many times, then parks {@link #LINGER_PARKS} times
     * for {@link #LINGER_PARK_NANOS} (at least; Linux's default timer slack may add up to 50 us), then
     * leaves its pool thread. Parking rather than spinning or yielding: when producers are the
     * bottleneck (cheap tasks, few cores) a spinning worker takes a core from them, and a yield can
     * hand the core to another process for a whole time slice. A parked worker costs the producers
     * nothing (they wake nobody, since the worker count stays non-zero), and meanwhile lanes stay
     * busy and grow chains, so it can drain many tasks per lane and per poll instead of one.
     */
    private static final int LINGER_SPINS = 32;
    private static final int LINGER_PARKS = 4;
    private static final long LINGER_PARK_NANOS = 20_000;

    final DrainPolicy policy;
    private final int parallelism;
    private final Lane stub;

    // producers' side
    @SuppressWarnings("unused") private long p0, p1, p2, p3, p4, p5, p6;
    private volatile Lane tail;
    @SuppressWarnings("unused") private long q0, q1, q2, q3, q4, q5, q6;
    // consumers' side, written under the polling lock
    private volatile Lane head;
    private volatile int polling;
    private volatile int workers;
    @SuppressWarnings("unused") private long r0, r1, r2, r3, r4, r5, r6;

    LaneDispatcher(DrainPolicy policy, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("workers must be >= 1: " + parallelism);
        }
        this.policy = policy;
        this.parallelism = parallelism;
        this.stub = new Lane(policy);
        this.tail = stub;
        this.head = stub;
    }

    /** The pool's own parallelism where it is known, else the number of processors. */
    static int defaultParallelism(Executor pool) {
        int cpus = Runtime.getRuntime().availableProcessors();
        if (pool instanceof ForkJoinPool fj) {
            return Math.max(1, fj.getParallelism());
        }
        if (pool instanceof ThreadPoolExecutor tpe) {
            return Math.max(1, Math.min(cpus, tpe.getMaximumPoolSize()));
        }
        return cpus;
    }

    /**
     * Makes {@code lane} runnable from {@code head}, a node whose task the calling producer owns.
     * Linearization point: the XCHG of the queue tail.
     *
     * @throws java.util.concurrent.RejectedExecutionException if a worker was needed, the pool
     *     rejected it, and {@code head}'s task therefore will not run
     */
    void schedule(Lane lane, LinkingRunnable head) {
        lane.continueAt = head;
        enqueue(lane);
        if (workers == 0) {
            startFirstWorker(head);
        }
    }

    private void enqueue(Lane lane) {
        READY_NEXT.set(lane, (Lane) null);
        Lane previous = (Lane) TAIL.getAndSet(this, lane);
        READY_NEXT.setRelease(previous, lane);
    }

    private void startFirstWorker(LinkingRunnable rejectable) {
        for (;;) {
            if (workers != 0) {
                return; // a worker runs, and will see the lane (it re-checks before leaving)
            }
            if (WORKERS.compareAndSet(this, 0, 1)) {
                break;
            }
        }
        Worker worker = new Worker();
        try {
            policy.pool.execute(worker);
        } catch (RuntimeException rejected) {
            // We hold the worker slot: run what is queued here, then leave. Our own head's task is
            // dropped only if this inline worker is the one that pops it; a worker that ran before
            // our slot CAS may already have run it, and then the task was accepted after all.
            worker.rejectable = rejectable;
            worker.work(false);
            if (worker.droppedRejectable) {
                throw rejected;
            }
        }
    }

    /** Starts one more worker if fewer than {@code parallelism} run; a rejection just means fewer. */
    private void maybeAddWorker() {
        for (int w; (w = workers) < parallelism; ) {
            if (WORKERS.compareAndSet(this, w, w + 1)) {
                try {
                    policy.pool.execute(new Worker());
                } catch (RuntimeException rejected) {
                    WORKERS.getAndAdd(this, -1); // we still run, so nothing is stranded
                }
                return;
            }
        }
    }

    /** Pops the oldest ready lane, or null if none is (completely) queued. Consumers take turns. */
    private Lane poll() {
        while (!POLLING.compareAndSet(this, 0, 1)) {
            Thread.onSpinWait();
        }
        try {
            Lane h = head;
            Lane next = h.readyNext;
            if (h == stub) {
                if (next == null) {
                    return null;
                }
                HEAD.setOpaque(this, next);
                h = next;
                next = h.readyNext;
            }
            if (next != null) {
                HEAD.setOpaque(this, next);
                return h;
            }
            if (h != tail) {
                return null; // a producer is between its XCHG and its link: not empty, retry later
            }
            enqueue(stub); // h is the last lane: put the stub behind it so h can leave
            next = h.readyNext;
            if (next != null) {
                HEAD.setOpaque(this, next);
                return h;
            }
            return null; // another producer got between h and the stub: retry later
        } finally {
            POLLING.setRelease(this, 0);
        }
    }

    /** True iff nothing is queued and no producer is in the middle of queueing. A hint unless quiescent. */
    private boolean looksEmpty() {
        Lane h = head;
        return h == stub && stub.readyNext == null && tail == stub;
    }

    boolean hasMoreQueued() {
        return !looksEmpty();
    }

    /** How long a worker with nothing else queued waits on a lane's last node for a successor. */
    private static final int SUCCESSOR_SPINS = 64;

    /**
     * A drained lane is about to go idle: if no other lane is waiting for this worker, spin
     * briefly for the producer's next link. Under a steady single-key stream this turns an
     * idle/restart cycle per task (tombstone, queue, poll) into one volatile read; when other
     * lanes are ready it returns at once, so it never delays them.
     */
    LinkingRunnable awaitSuccessor(LinkingRunnable last) {
        for (int i = 0; i < SUCCESSOR_SPINS && looksEmpty(); i++) {
            Thread.onSpinWait();
            LinkingRunnable successor = last.successor();
            if (successor != null) {
                return successor;
            }
        }
        return null;
    }

    /** Idle lanes a worker remembers before it retires the oldest; a power of 2. */
    private static final int IDLE_SLOTS = 128;

    /** A resident drainer on one pool thread. */
    private final class Worker implements Runnable {
        /** Inline worker after a rejection: the node whose task to drop if this worker pops it. */
        LinkingRunnable rejectable;
        boolean droppedRejectable;

        /** Lanes this worker saw go idle, to retire later if still idle: a ring, oldest evicted. */
        private final Lane[] idle = new Lane[IDLE_SLOTS];
        private int idleNext;

        private void deferRetire(Lane lane) {
            if (!lane.markRetirePending()) {
                return; // another worker will check it
            }
            Lane evicted = idle[idleNext];
            idle[idleNext] = lane;
            idleNext = (idleNext + 1) & (IDLE_SLOTS - 1);
            if (evicted != null) {
                evicted.retireIfIdle();
            }
        }

        private void retireAllIdle() {
            for (int i = 0; i < IDLE_SLOTS; i++) {
                Lane lane = idle[i];
                if (lane != null) {
                    idle[i] = null;
                    lane.retireIfIdle();
                }
            }
        }

        @Override
        public void run() {
            work(true);
        }

        /**
         * Drains ready lanes until none is left. On a pool thread ({@code onPool}) it lingers
         * before leaving and gives the thread back after {@code budget} tasks; inline (after a
         * rejection) it neither lingers nor gives back. Holds a worker slot on entry, releases it on exit.
         */
        void work(boolean onPool) {
            final int budget = policy.budget;
            int ran = 0;
            for (;;) {
                Lane lane = poll();
                if (lane == null) {
                    lane = onPool ? linger() : pollUntilQuiescent();
                    if (lane == null) {
                        retireAllIdle(); // leaving: no idle key stays registered because of us
                        WORKERS.getAndAdd(LaneDispatcher.this, -1); // Dekker with schedule(): fence, then re-check
                        if (looksEmpty()) {
                            return;
                        }
                        WORKERS.getAndAdd(LaneDispatcher.this, 1);
                        continue;
                    }
                }
                if (onPool && !looksEmpty()) {
                    maybeAddWorker(); // work is piling up: bring in help, like ForkJoinPool's signalWork
                }
                LinkingRunnable from = lane.continueAt;
                lane.continueAt = null;
                if (from == rejectable) {
                    from.dropTask(); // we own the popped lane, so nobody else can be running it
                    droppedRejectable = true;
                    rejectable = null;
                }
                LinkingRunnable rest = LinkingRunnable.drain(from, budget);
                if (rest != null) {
                    lane.continueAt = rest; // budget used up: to the back of the queue
                    enqueue(lane);
                    ran += budget;
                } else {
                    deferRetire(lane);
                    ran++;
                }
                if (onPool && ran >= budget) {
                    try {
                        policy.pool.execute(this); // give the pool thread back; keep our slot
                        return;
                    } catch (RuntimeException refused) {
                        ran = 0; // the pool will not take us back: keep working here
                    }
                }
            }
        }

        private Lane linger() {
            for (int i = 0; i < LINGER_SPINS + LINGER_PARKS; i++) {
                if (!looksEmpty()) {
                    Lane lane = poll();
                    if (lane != null) {
                        return lane;
                    }
                }
                if (i < LINGER_SPINS) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(this, LINGER_PARK_NANOS);
                }
            }
            return pollUntilQuiescent();
        }

        /** Polls while a producer is mid-queue (the queue is not empty but nothing can be popped yet). */
        private Lane pollUntilQuiescent() {
            for (;;) {
                Lane lane = poll();
                if (lane != null || looksEmpty()) {
                    return lane;
                }
                Thread.onSpinWait();
            }
        }
    }
}
