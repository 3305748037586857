package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Serial execution per key on a shared pool: tasks of one key run one at a time, FIFO in the
 * order of their {@code execute} calls' linearization points; tasks of different keys run in
 * parallel. Any number of producers. A key costs memory only while it has tasks queued or running:
 * an idle key's lane is retired and removed from the map, so keys that went idle do not leak.
 *
 * <p>Algorithm: one lane per active key in a {@link ConcurrentHashMap}, each lane a chain of
 * {@link LinkingRunnable} nodes ({@link MultiProducerLane}: the tail is null while the lane is
 * idle). The steady state costs one map <em>read</em> per task (no map write, no lock), then a CAS
 * of the lane's tail and a release store of the link. An idle lane is retired with
 * {@code CAS(tail, null, RETIRED)} and its map entry removed. The tail is advanced with a CAS loop
 * rather than {@code getAndSet} precisely so that no producer can append to a retired lane:
 * {@code RETIRED} is terminal, a producer that sees it helps remove the entry and retries on a
 * fresh lane, so a key never has two live lanes (which would break mutual exclusion). Retiring is
 * deferred: the worker that saw a lane go idle retires it (if still idle) when it evicts it from
 * its ring of 128 recently idle lanes or when it leaves its pool thread. So a key that comes back
 * within a burst keeps its lane and map entry, at most 128 idle keys per running worker stay
 * registered, and none once the workers have left. Churn cost for a key that does go idle: a map
 * insert, a lane (48 bytes) and a map removal.
 *
 * <p>Scheduling: lanes that become ready are not submitted to the pool one by one; they go
 * through a {@link LaneDispatcher}, a ready queue served by at most {@code workers} resident
 * workers on the pool, which linger briefly when out of work. A steady stream of cheap tasks over
 * many keys therefore costs one XCHG per lane activation instead of a pool submission and a
 * thread wake-up. Fairness: a key runs at most {@code budget} tasks in a row before going to the
 * back of the ready queue, and a worker gives its pool thread back after about {@code budget}
 * tasks.
 *
 * <p>Guarantees are those of {@link SerialExecutor}, per key: FIFO, mutual exclusion and
 * happens-before between consecutive tasks of a key, failure isolation, the fairness budget,
 * rejection reported to the caller with the key left usable, no retention of a finished task.
 *
 * <p>Thread safety: fully thread safe. Keys must have consistent {@code equals}/{@code hashCode}
 * and must not be mutated while they have tasks.
 *
 * @param <K> the key type
 */
public final class KeyedSerialExecutor<K> {
    /** A retired lane's tail: terminal; producers never append behind it. */
    static final LinkingRunnable RETIRED = new LinkingRunnable(null, null);

    private final DrainPolicy policy;
    private final LaneDispatcher dispatcher;
    private final ConcurrentHashMap<K, KeyLane<K>> lanes = new ConcurrentHashMap<>();

    /** Runs on {@code pool} with the default budget and the thread's uncaught-exception handler. */
    public KeyedSerialExecutor(Executor pool) {
        this(pool, DrainPolicy.DEFAULT_BUDGET, null);
    }

    /**
     * As {@link #KeyedSerialExecutor(Executor, int, Thread.UncaughtExceptionHandler, int)} with
     * {@code workers} = the pool's parallelism if it is a {@link java.util.concurrent.ForkJoinPool}
     * or {@link java.util.concurrent.ThreadPoolExecutor} (at most the processor count), else the
     * processor count.
     */
    public KeyedSerialExecutor(Executor pool, int budget, Thread.UncaughtExceptionHandler failureHandler) {
        this(pool, budget, failureHandler, LaneDispatcher.defaultParallelism(Objects.requireNonNull(pool, "pool")));
    }

    /**
     * @param pool where tasks run; any {@link Executor}
     * @param budget tasks one pool thread runs in a row for one key before handing the rest back;
     *     {@code >= 1}
     * @param failureHandler receives tasks' failures; null means the running thread's handler
     * @param workers how many pool threads at most drain keys at once (resident workers); {@code >= 1}
     */
    public KeyedSerialExecutor(Executor pool, int budget, Thread.UncaughtExceptionHandler failureHandler, int workers) {
        this.policy = new DrainPolicy(pool, budget, failureHandler);
        this.dispatcher = new LaneDispatcher(policy, workers);
    }

    /**
     * Runs {@code task} after every task of {@code key} whose call linearized before this one.
     * Linearization point: the successful CAS of the key lane's tail, or the map insert that
     * creates the lane.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the pool rejected the submission
     *     that would have started this task; the task will not run, the key stays usable
     * @throws NullPointerException if {@code key} or {@code task} is null
     */
    public void execute(K key, Runnable task) {
        Objects.requireNonNull(key, "key");
        LinkingRunnable node = new LinkingRunnable(Objects.requireNonNull(task, "task"), null);
        KeyLane<K> lane = lanes.get(key);
        for (; ; ) {
            if (lane == null) {
                KeyLane<K> fresh = new KeyLane<>(policy, key, this, node);
                node.lane = fresh; // before the insert publishes the node
                lane = lanes.putIfAbsent(key, fresh);
                if (lane == null) {
                    node.startOrReject();
                    return;
                }
            }
            LinkingRunnable previous = lane.tail;
            if (previous == RETIRED) {
                lanes.remove(key, lane); // help the retiring drainer, then use a fresh lane
                lane = lanes.get(key);
                continue;
            }
            node.lane = lane;
            if (lane.casTail(previous, node)) {
                if (previous == null) {
                    node.startOrReject(); // the lane was idle: we own its start
                } else {
                    previous.linkReleased(node); // we displaced previous, so we are its only linker
                }
                return;
            }
            // another producer appended first; retry on the same lane
        }
    }

    /** Keys that have tasks queued or running, or whose idle lane is being removed; an estimate. */
    public int activeKeys() {
        return lanes.size();
    }

    void retire(KeyLane<K> lane) {
        lanes.remove(lane.key, lane);
    }

    /** A key's lane; see the class comment for the retire protocol. */
    static final class KeyLane<K> extends MultiProducerLane {
        private static final VarHandle RETIRE_PENDING;

        static {
            try {
                RETIRE_PENDING = MethodHandles.lookup().findVarHandle(KeyLane.class, "retirePending", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final K key;
        private final KeyedSerialExecutor<K> owner;
        /** 1 while some worker holds this lane in its list of idle lanes to check. */
        private volatile int retirePending;

        @Override
        void start(LinkingRunnable head) {
            owner.dispatcher.schedule(this, head);
        }

        KeyLane(DrainPolicy policy, K key, KeyedSerialExecutor<K> owner, LinkingRunnable first) {
            super(policy);
            this.key = key;
            this.owner = owner;
            this.tail = first;
        }

        /**
         * Retiring is deferred to the worker that saw the lane go idle (it checks a bounded
         * number of idle lanes later, or when it leaves its pool thread), so a key that goes idle
         * and comes back within a burst keeps its lane and map entry instead of churning them.
         */
        @Override
        void wentIdle(LinkingRunnable last) {}

        @Override
        LinkingRunnable awaitSuccessor(LinkingRunnable last) {
            return owner.dispatcher.awaitSuccessor(last);
        }

        @Override
        boolean markRetirePending() {
            return retirePending == 0 && RETIRE_PENDING.compareAndSet(this, 0, 1);
        }

        /**
         * Linearization point: the CAS of the tail from null (idle) to RETIRED; a producer that
         * appended since the lane went idle makes it fail, and that producer restarted the lane. The
         * pending mark is cleared before the tail is read, so a worker that sees the lane go idle
         * after this check finds the mark clear and queues another check: no idle lane is missed.
         */
        @Override
        void retireIfIdle() {
            retirePending = 0;
            if (tail == null && casTail(null, RETIRED)) {
                owner.retire(this);
            }
        }
    }
}
