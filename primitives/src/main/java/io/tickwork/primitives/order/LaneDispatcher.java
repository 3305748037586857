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
 * wake a parked pool thread: ~1.1 tasks per submission at 64 keys (measured:
 * docs/results/order-design.md, 2026-11-21), and the wake-ups, not the tasks, set the throughput.
 * Here a lane that becomes ready is appended to a ready queue (one XCHG); a worker already on a
 * pool thread takes it. A worker that finds the queue empty lingers briefly (spin, then a few
 * timed parks) before giving its thread back, so a steady stream of cheap tasks does not pay a
 * wake-up per task.
 *
 * <p>Ready queue: Vyukov's intrusive MPSC queue (1024cores.net, "Intrusive MPSC node-based
 * queue") linked through {@link Lane#readyNext}, so queueing allocates nothing; consumers (the
 * workers) take turns through a small spin lock, held only for one pop. A lane is in the queue at
 * most once, because only the owner of its chain queues it. The unbounded waits for another
 * thread's next step (the poll lock, a producer between its XCHG and its link) spin and yield every
 * 64th step ({@link #backOff}): with more runnable threads than cores, the thread waited for is
 * often descheduled, and a pure spin then burns a whole time slice. (The short, optional spin of
 * {@link #awaitSuccessor} does not yield.)
 *
 * <p>Worker lifecycle: a producer that queues a lane starts a worker only if none is running; a
 * worker that takes a lane and still sees work queued starts another, up to {@code parallelism}.
 * Exit is a Dekker handshake: the producer XCHGes the queue tail then reads the worker count; a
 * leaving worker decrements the count then re-checks the queue; both are full fences, so one of
 * them sees the other and no lane is left without a worker. Fairness: a worker runs at most
 * {@code budget} tasks of a lane before re-queuing the lane at the back, and gives its pool
 * thread back (resubmits itself) after {@code budget} tasks in total; on a {@code ForkJoinPool}
 * thread it runs the pool's next other task in place instead ({@link ForkJoinHandOff}).
 *
 * <p>Before a lane goes idle, its worker spins briefly for a successor if no other lane is
 * ready, or, if others are ready and the lane is hot, puts it back at the end of the queue still
 * open, once, so that producers keep linking instead of restarting it ({@link #awaitSuccessor}).
 * A worker that defers a lane after only a few tasks yields its thread once: the producers are
 * the bottleneck, and may need its core ({@link #THIN_CHAIN}).
 *
 * <p>Idle lanes: a worker remembers up to {@value #IDLE_SLOTS} lanes it saw go idle and retires
 * each one (if still idle) when it is evicted from that ring or when the worker leaves its pool
 * thread, so idle keys are bounded while workers run and released when they stop.
 *
 * <p>Rejection: only starting a worker submits to the pool. If that is rejected while no worker
 * runs, the starting thread runs the queued lanes itself so that accepted tasks are not stranded,
 * except its own task, which it drops (and the caller gets the exception) unless another worker
 * had already run it.
 *
 * <p>Size: the ready queue, its workers and their lingering are one protocol, kept in one file;
 * with the cache-line padding classes below it the file runs past 500 lines.
 */
final class LaneDispatcher extends DispatcherPad3 {
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;
    private static final VarHandle POLLING;
    private static final VarHandle WORKERS;
    private static final VarHandle READY_NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(DispatcherTail.class, "tail", Lane.class);
            HEAD = lookup.findVarHandle(DispatcherHead.class, "head", Lane.class);
            POLLING = lookup.findVarHandle(DispatcherHead.class, "polling", int.class);
            WORKERS = lookup.findVarHandle(DispatcherWorkers.class, "workers", int.class);
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
        for (; ; ) {
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

    /**
     * One step of a wait for another thread's next move: a spin, and every {@link #YIELD_EVERY}th
     * step a yield. Why the yield: on a small machine the threads outnumber the cores (producers
     * and workers), so the thread waited for, say the poll lock's holder, is often descheduled,
     * and a pure spin then burns a whole time slice: at 64 keys, two producers and two workers on
     * 2 cores, about 200 waits per 8 s over 50 us, 7.7 ms each on average, 1.7 s in all
     * (measured: docs/results/order-design.md, 2026-11-22). The yield hands the core to the
     * descheduled holder or to a producer instead; it costs nothing until 64 spins have failed,
     * and throughput on 2 cores is level with a pure spin.
     */
    private static void backOff(int step) {
        if (step % YIELD_EVERY == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }

    private static final int YIELD_EVERY = 64;

    /** Pops the oldest ready lane, or null if none is (completely) queued. Consumers take turns. */
    private Lane poll() {
        for (int step = 1; !POLLING.compareAndSet(this, 0, 1); step++) {
            backOff(step);
        }
        try {
            pops++;
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
     * A drained lane is about to go idle. If no other lane is waiting for this worker, spin
     * briefly for the producer's next link: under a steady single-key stream this turns an
     * idle/restart cycle per task (close, queue, poll) into one volatile read. If other lanes
     * are waiting and this lane is hot (see {@link #HOT_GAP}), defer: the lane goes to the back of
     * the ready queue still open (not closed), so producers keep linking to it instead of
     * restarting it, and by the time the worker comes back its chain has grown. A deferred lane
     * that finds no successor when it comes back goes idle then; it defers again only if it
     * found one, so a lane whose producers stopped is deferred at most once.
     */
    LinkingRunnable awaitSuccessor(LinkingRunnable last) {
        Lane lane = last.lane;
        if (!looksEmpty()) {
            if (lane.deferState == Lane.MAY_DEFER) {
                lane.deferState = Lane.DEFERRED;
                return last; // back of the queue, open: producers keep linking, no restart
            }
        } else {
            for (int i = 0; i < SUCCESSOR_SPINS && looksEmpty(); i++) {
                Thread.onSpinWait();
                LinkingRunnable successor = last.successor();
                if (successor != null) {
                    return successor;
                }
            }
        }
        // About to go idle. Written now, while this worker still owns the lane: once the
        // lane is closed, a producer may restart it and another worker own it.
        lane.deferState = Lane.IDLE;
        lane.idleAt = pops;
        return null;
    }

    /**
     * A lane is hot, and may defer going idle in its next activation, if it is started again
     * within this many polls of going idle. Round-robin over a few dozen keys is hot; a key seen
     * once per 100,000 tasks is not (a deferral it never benefits from would cost it a second
     * poll and queueing: with every lane deferring, throughput at 100,000 keys halves; measured:
     * docs/results/order-design.md, 2026-11-22).
     */
    private static final int HOT_GAP = 1024;

    /** Updates {@code lane}'s deferral state when a worker pops it; see {@link #awaitSuccessor}. */
    private void onPop(Lane lane, LinkingRunnable from) {
        switch (lane.deferState) {
            case Lane.IDLE ->
                lane.deferState =
                        Integer.compareUnsigned(pops - lane.idleAt, HOT_GAP) < 0 ? Lane.MAY_DEFER : Lane.NO_DEFER;
            case Lane.DEFERRED -> lane.deferState = from.successor() != null ? Lane.MAY_DEFER : Lane.NO_DEFER;
            default -> {} // re-queued after its budget: same activation
        }
    }

    /**
     * A worker whose drain of a lane ended in a deferral after fewer nodes than this (about 15 new
     * tasks: the count includes the node a deferred lane resumes at) yields its thread once
     * ({@code Thread.yield}). Such a visit means the workers are ahead of the producers: it paid a
     * poll and a re-queue, on cache lines every worker writes, for a handful of tasks. When
     * producers and workers share cores (the common case for a pool sized to the machine, and
     * always on 2 cores), that time is better spent by a producer: the yield hands this core to a
     * runnable thread, and the lanes' chains grow meanwhile, so the next visits run more tasks each.
     * Effect on 2 cores: at 64 keys, 18 to 43 % more throughput for {@code keyed} and
     * {@code group} in all eight configurations (one or two producers, ThreadPoolExecutor or
     * ForkJoinPool); at 100,000 keys, where lanes rarely defer, no change beyond the noise; at 1
     * key a lane never defers (measured: docs/results/order-design.md, 2026-11-22). Costs: one
     * system call per short visit, which buys nothing where producers have cores of their own (not
     * measured: only 2 cores were available), and the core may go to an unrelated process for a
     * while (why a worker with nothing queued parks rather than yields, see {@link #LINGER_SPINS}).
     * Must stay at most 127 ({@link Lane#lastDrained} is a byte).
     */
    private static final int THIN_CHAIN = 16;

    /** Idle lanes a worker remembers before it retires the oldest; a power of 2. */
    private static final int IDLE_SLOTS = 128;

    /** A resident drainer on one pool thread. */
    private final class Worker implements Runnable {
        /** Inline worker after a rejection: the node whose task to drop if this worker pops it. */
        LinkingRunnable rejectable;

        boolean droppedRejectable;

        /** Lanes this worker saw go idle, to retire later if still idle: a ring, oldest evicted. */
        private final Lane[] idle = new Lane[IDLE_SLOTS];

        /** Tasks run since this worker last took a pool thread; one slot, filled by drain. */
        private final int[] tasksRan = new int[1];

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
            final int[] ran = tasksRan;
            ran[0] = 0;
            for (; ; ) {
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
                onPop(lane, from);
                if (from == rejectable) {
                    from.dropTask(); // we own the popped lane, so nobody else can be running it
                    droppedRejectable = true;
                    rejectable = null;
                }
                LinkingRunnable rest = LinkingRunnable.drain(from, budget, ran);
                if (rest != null) {
                    // read before the lane is queued: from then on another worker may own it
                    boolean deferred = lane.deferState == Lane.DEFERRED;
                    boolean thin = deferred && lane.lastDrained < THIN_CHAIN;
                    lane.continueAt = rest; // budget used up, or going idle deferred: to the back of the queue
                    enqueue(lane);
                    if (thin) {
                        Thread.yield(); // workers are ahead of the producers: see THIN_CHAIN
                    }
                } else {
                    deferRetire(lane);
                }
                // Tasks, not lanes: the pool gets its thread back after about budget tasks, so
                // other work queued on a shared pool runs between them (see the class comment).
                if (onPool && ran[0] >= budget) {
                    if (ForkJoinHandOff.runOneOther(policy.pool) != ForkJoinHandOff.Outcome.NOT_HERE) {
                        ran[0] = 0; // a ForkJoinPool thread: the pool's next task ran here, or none waits
                        continue;
                    }
                    try {
                        policy.pool.execute(this); // give the pool thread back; keep our slot
                        return;
                    } catch (RuntimeException refused) {
                        ran[0] = 0; // the pool will not take us back: keep working here
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
            for (int step = 1; ; step++) {
                Lane lane = poll();
                if (lane != null || looksEmpty()) {
                    return lane;
                }
                backOff(step); // the producer between its XCHG and its link may be descheduled
            }
        }
    }
}

// spotless:off (padding fields, 16 a line)
/*
 * The dispatcher's hot fields, each on a cache line of its own: the queue tail (XCHGed by every
 * producer that schedules a lane), the queue head and the poll lock (written by every poll), and
 * the worker count (read by every scheduling producer, written only when a worker starts or
 * leaves). Declared fields of one class are laid out by size, not in source order, so padding
 * fields between them in one class do not separate them; a class hierarchy does (a superclass's
 * fields come first), and byte padding leaves no alignment gap for a subclass field to fill.
 */
@SuppressWarnings("unused")
abstract class DispatcherPad0 {
    byte p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15,
            p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31,
            p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47,
            p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63;
}

abstract class DispatcherTail extends DispatcherPad0 {
    volatile Lane tail;
}

@SuppressWarnings("unused")
abstract class DispatcherPad1 extends DispatcherTail {
    byte q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15,
            q16, q17, q18, q19, q20, q21, q22, q23, q24, q25, q26, q27, q28, q29, q30, q31,
            q32, q33, q34, q35, q36, q37, q38, q39, q40, q41, q42, q43, q44, q45, q46, q47,
            q48, q49, q50, q51, q52, q53, q54, q55, q56, q57, q58, q59, q60, q61, q62, q63;
}

abstract class DispatcherHead extends DispatcherPad1 {
    volatile Lane head;
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

abstract class DispatcherWorkers extends DispatcherPad2 {
    volatile int workers;
}

@SuppressWarnings("unused")
abstract class DispatcherPad3 extends DispatcherWorkers {
    byte s00, s01, s02, s03, s04, s05, s06, s07, s08, s09, s10, s11, s12, s13, s14, s15,
            s16, s17, s18, s19, s20, s21, s22, s23, s24, s25, s26, s27, s28, s29, s30, s31,
            s32, s33, s34, s35, s36, s37, s38, s39, s40, s41, s42, s43, s44, s45, s46, s47,
            s48, s49, s50, s51, s52, s53, s54, s55, s56, s57, s58, s59, s60, s61, s62, s63;
}
// spotless:on
