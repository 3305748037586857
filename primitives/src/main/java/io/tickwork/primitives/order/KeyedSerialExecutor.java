package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Serial execution per key on a shared pool: tasks of one key run one at a time, FIFO in the
 * order of their {@code execute} calls' linearization points; tasks of different keys run in
 * parallel. Any number of producers. A key costs memory only while it has tasks queued or running:
 * an idle key's lane is retired and removed from its table, so keys that went idle do not leak.
 *
 * <p>Algorithm: one lane per active key, each lane a chain of {@link LinkingRunnable} nodes. The
 * lanes live in a fixed array of {@value #STRIPES} stripes (chosen by the key's mixed hash), each
 * a small open-addressing table (linear probing, backward-shift deletion) with a short spin lock
 * for insert and retire. A producer whose key has a lane finds it without the lock and appends with
 * {@code CAS(lane.tail, previous, node)}, then the seed's link CAS; only a new key (or a lost
 * race) takes the stripe lock, to insert or to append under it. No lock is held while a task runs,
 * so a slow key never delays other keys' execution. A lane whose tail node is tombstoned is idle;
 * it is retired under the stripe lock ({@code CAS(tail, last, RETIRED)}, removed from the table) and
 * its lane object goes to the stripe's free list, from which the next new key of the stripe takes
 * it. In the steady state a task therefore allocates its node only: no map node, no lane.
 *
 * <p>Why recycling is safe (a stale reference to a recycled lane must never append to it):
 * insert, retire and reuse happen only under the lane's stripe lock (a lane never changes stripe);
 * a reused lane gets its key before its first tail. Every value a tail ever holds is a fresh node,
 * except {@code RETIRED}, which producers never CAS from. A lock-free producer reads the tail, then
 * checks the lane's key, then CASes the tail from the value it read: the key it saw belongs to the
 * incarnation of that tail or a later one, and a successful CAS proves the tail never changed in
 * between, so the lane was that same incarnation, its key's, throughout. A producer holding a
 * retired or reused lane therefore sees {@code RETIRED}, another key, or fails its CAS, and goes
 * to the locked path, where the stale lane is no longer found. Retirement needs the tail
 * tombstoned (final: nobody links to it any more) and wins the tail CAS against appenders. Other
 * references that outlive a retirement are harmless: a worker's ring of idle lanes to check (a
 * check re-validates under the lock, see {@link KeyLane#retireIfIdle}) and the old tombstoned
 * node's {@code lane} field, which nothing reads once the node is tombstoned.
 *
 * <p>Retiring is deferred: the worker that saw a lane go idle retires it (if still idle) when it
 * evicts it from its ring of 128 recently idle lanes or when it leaves its pool thread. So a key
 * that comes back within a burst keeps its lane, at most 128 idle keys per running worker stay
 * registered, and none once the workers have left. Memory: a stripe keeps at most half its
 * table's capacity in free lanes, and every {@value #DECAY_PERIOD} retirements the table shrinks
 * to fit the most lanes it held live in that period; so retained lanes are bounded by the recent
 * peak of concurrently active keys, never by the number of distinct keys. (A fixed small free list
 * is not enough: a producer that runs ahead registers thousands of lanes per stripe, and when they
 * all retire a small list drops most of them; measured 24-52 % reuse with 16 per stripe.)
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
 * <p>Cost per task: the node (24 bytes), a probe of a small table, the tail CAS and the link
 * CAS; a new key also the stripe lock (one CAS and a release store), and a lane from the free
 * list. Thread safety: fully thread safe. Keys must have
 * consistent {@code equals}/{@code hashCode} and must not be mutated while they have tasks.
 *
 * @param <K> the key type
 */
public final class KeyedSerialExecutor<K> {
    /** Stripes (a power of 2): enough that producers and retiring workers rarely meet on one lock. */
    static final int STRIPES = 64;
    /** A retired (free) lane's tail: terminal for producers, which never CAS from it. */
    static final LinkingRunnable RETIRED = new LinkingRunnable(null, null);

    static {
        RETIRED.link(RETIRED); // tombstoned, so a stray link to it fails
    }
    private static final int STRIPE_SHIFT = Integer.SIZE - Integer.numberOfTrailingZeros(STRIPES);
    /**
     * Retirements per stripe between two size checks: a table (and its free list, at most half
     * the table's capacity) shrinks to fit the largest number of live lanes seen in the period.
     */
    static final int DECAY_PERIOD = 4096;

    private final DrainPolicy policy;
    private final LaneDispatcher dispatcher;
    private final Stripe<K>[] stripes;

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
        @SuppressWarnings("unchecked")
        Stripe<K>[] array = (Stripe<K>[]) new Stripe<?>[STRIPES];
        for (int i = 0; i < STRIPES; i++) {
            array[i] = new Stripe<>();
        }
        this.stripes = array;
    }

    /**
     * Runs {@code task} after every task of {@code key} whose call linearized before this one.
     * Linearization point: the successful CAS (or, for a new key, the first write) of the key
     * lane's tail.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the pool rejected the submission
     *     that would have started this task; the task will not run, the key stays usable
     * @throws NullPointerException if {@code key} or {@code task} is null
     */
    public void execute(K key, Runnable task) {
        Objects.requireNonNull(key, "key");
        LinkingRunnable node = new LinkingRunnable(Objects.requireNonNull(task, "task"), null);
        int hash = mix(key.hashCode());
        Stripe<K> stripe = stripes[hash >>> STRIPE_SHIFT];
        LinkingRunnable previous;
        KeyLane<K> lane = stripe.findRacy(key, hash);
        if (lane != null && (previous = lane.tail) != RETIRED && previous != null && sameKey(key, lane.key)) {
            // Fast path, no lock. The key is read after the tail, and a lane's key is set before
            // its first tail (under the lock), so the key seen is that of the incarnation whose
            // tail we read or a later one. Every value a tail ever holds is a fresh node, except
            // RETIRED, which we never CAS from: so a successful CAS proves the tail did not change
            // since we read it, i.e. the lane stayed in that incarnation, which is our key's.
            node.lane = lane; // before the CAS and the link publish the node
            if (lane.casTail(previous, node)) {
                if (!previous.link(node)) {
                    node.startOrReject();
                }
                return;
            }
        }
        stripe.lock();
        try {
            lane = stripe.find(key, hash);
            if (lane == null) {
                lane = stripe.insert(key, hash, this);
                node.lane = lane;
                lane.tail = node; // after the key (see the fast path); the lane's first tail
                previous = null;
            } else {
                // Registered lanes are never RETIRED while we hold the lock (retiring takes it),
                // but fast-path producers may CAS the tail concurrently.
                node.lane = lane;
                do {
                    previous = lane.tail;
                } while (!lane.casTail(previous, node));
            }
        } finally {
            stripe.unlock();
        }
        // Outside the lock: each node is displaced from the tail exactly once, so it has exactly
        // one linker; if the link fails, previous was tombstoned and this producer starts the chain.
        if (previous == null || !previous.link(node)) {
            node.startOrReject();
        }
    }

    /** Keys that have tasks queued or running, or whose idle lane is not yet retired. */
    public int activeKeys() {
        int n = 0;
        for (Stripe<K> stripe : stripes) {
            stripe.lock();
            n += stripe.size;
            stripe.unlock();
        }
        return n;
    }

    /** Lanes taken from a free list instead of allocated, since creation; for tests. */
    long lanesReused() {
        long n = 0;
        for (Stripe<K> stripe : stripes) {
            stripe.lock();
            n += stripe.reused;
            stripe.unlock();
        }
        return n;
    }

    /** The stripe index of {@code key}; for tests that concentrate keys on one stripe. */
    static int stripeOf(Object key) {
        return mix(key.hashCode()) >>> STRIPE_SHIFT;
    }

    private static boolean sameKey(Object key, Object laneKey) {
        return laneKey == key || (laneKey != null && key.equals(laneKey));
    }

    /** Murmur3's finalizer: the stripe uses the high bits, the table slot the low bits. */
    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    /**
     * One stripe: an open-addressing table of the stripe's live lanes and a free list of retired
     * lanes, all guarded by {@link #lock}. The lock is held for a probe and a few writes, never
     * while a task runs or a lane is scheduled.
     */
    static final class Stripe<K> extends StripePad {
        private static final VarHandle LOCK;
        /**
         * Never shrunk below this: at 100,000 keys a stripe holds ~4 lanes on average with wide
         * swings (lanes retire in bursts when a worker leaves), and a smaller floor made the
         * table grow and shrink over and over, an array allocation each time (measured ~30 B/op).
         */
        private static final int MIN_CAPACITY = 32;

        static {
            try {
                LOCK = MethodHandles.lookup().findVarHandle(Stripe.class, "locked", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private volatile int locked;
        /**
         * Linear probing from {@code hash & (length - 1)}; null = empty; no deletion markers.
         * Written under the lock; read without it by {@link #findRacy}, whose hits are validated.
         */
        private volatile KeyLane<K>[] table = newTable(MIN_CAPACITY);
        int size;
        private KeyLane<K> free;
        private int freeCount;
        long reused;
        /** Most lanes live at once since the last size check, and retirements since then. */
        private int peak;
        private int retires;

        @SuppressWarnings("unchecked")
        private static <K> KeyLane<K>[] newTable(int capacity) {
            return (KeyLane<K>[]) new KeyLane<?>[capacity];
        }

        void lock() {
            if (!LOCK.compareAndSet(this, 0, 1)) {
                lockContended();
            }
        }

        private void lockContended() {
            for (int spins = 0; locked != 0 || !LOCK.compareAndSet(this, 0, 1); spins++) {
                if (spins < 64) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield(); // the holder may have been preempted (2 cores, shared)
                }
            }
        }

        void unlock() {
            LOCK.setRelease(this, 0);
        }

        /**
         * Lookup without the lock: may miss a present lane (a concurrent backward shift or
         * resize) or return one that is being retired or reused; the caller validates a hit by
         * its tail CAS (see {@code execute}) and falls back to the locked path otherwise.
         */
        KeyLane<K> findRacy(K key, int hash) {
            KeyLane<K>[] t = table;
            int mask = t.length - 1;
            for (int i = hash & mask, n = 0; n <= mask; i = (i + 1) & mask, n++) {
                KeyLane<K> lane = t[i];
                if (lane == null) {
                    return null;
                }
                if (lane.hash == hash && sameKey(key, lane.key)) {
                    return lane; // a hint: execute checks the key again after reading the tail
                }
            }
            return null;
        }

        KeyLane<K> find(K key, int hash) {
            KeyLane<K>[] t = table;
            int mask = t.length - 1;
            for (int i = hash & mask; ; i = (i + 1) & mask) {
                KeyLane<K> lane = t[i];
                if (lane == null) {
                    return null;
                }
                if (lane.hash == hash && (lane.key == key || key.equals(lane.key))) {
                    return lane;
                }
            }
        }

        /** Registers a lane for {@code key}, recycled if one is free; its tail is for the caller to set. */
        KeyLane<K> insert(K key, int hash, KeyedSerialExecutor<K> owner) {
            if ((size + 1) * 2 > table.length) {
                resize(table.length * 2);
            }
            KeyLane<K> lane = free;
            if (lane != null) {
                free = lane.nextFree;
                lane.nextFree = null;
                freeCount--;
                reused++;
                owner.dispatcher.forgetHistory(lane);
            } else {
                lane = new KeyLane<>(owner, this);
            }
            lane.hash = hash;
            lane.key = key; // volatile: before the first tail, which the caller sets
            place(table, lane);
            if (++size > peak) {
                peak = size;
            }
            return lane;
        }

        private static <K> void place(KeyLane<K>[] t, KeyLane<K> lane) {
            int mask = t.length - 1;
            int i = lane.hash & mask;
            while (t[i] != null) {
                i = (i + 1) & mask;
            }
            t[i] = lane;
        }

        private void resize(int capacity) {
            KeyLane<K>[] old = table;
            KeyLane<K>[] t = newTable(capacity);
            for (KeyLane<K> lane : old) {
                if (lane != null) {
                    place(t, lane);
                }
            }
            table = t;
        }

        /**
         * Retires {@code lane} if it is still registered and idle. Safe on any lane of this
         * stripe, in any state (live for its first key, retired and free, or reused for another
         * key), which is what makes stale references from workers' idle lists harmless: the state
         * is read under the lock that every change of it takes.
         */
        void retireIfIdle(KeyLane<K> lane) {
            lock();
            try {
                LinkingRunnable last = lane.tail;
                if (lane.key == null || last == RETIRED || last == null || !last.isTombstoned()
                        || !lane.casTail(last, RETIRED)) {
                    return; // free, or busy (a fast-path producer may just have won the tail)
                }
                // RETIRED from here until reuse: fast-path producers holding a stale reference
                // see it and take the lock, where the lane is no longer found.
                remove(lane);
                lane.key = null; // no retention of the key (the tail, RETIRED, retains nothing)
                if (freeCount < table.length / 2) {
                    lane.nextFree = free;
                    free = lane;
                    freeCount++;
                }
                if (++retires >= DECAY_PERIOD) {
                    decay();
                }
            } finally {
                unlock();
            }
        }

        /** Shrinks the table and the free list to the last period's peak; rare, so no resize churn. */
        private void decay() {
            int capacity = MIN_CAPACITY;
            while (capacity < peak * 2) {
                capacity <<= 1;
            }
            if (capacity < table.length) {
                resize(capacity);
            }
            while (freeCount > table.length / 2) {
                KeyLane<K> dropped = free;
                free = dropped.nextFree;
                dropped.nextFree = null;
                freeCount--;
            }
            peak = size;
            retires = 0;
        }

        /** Backward-shift deletion: keeps every probe sequence unbroken without deletion markers. */
        private void remove(KeyLane<K> lane) {
            KeyLane<K>[] t = table;
            int mask = t.length - 1;
            int hole = lane.hash & mask;
            while (t[hole] != lane) {
                hole = (hole + 1) & mask;
            }
            t[hole] = null;
            size--;
            for (int j = (hole + 1) & mask; t[j] != null; j = (j + 1) & mask) {
                int home = t[j].hash & mask;
                // t[j] may move into the hole iff its home is not cyclically in (hole, j]
                boolean stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
                if (!stays) {
                    t[hole] = t[j];
                    t[j] = null;
                    hole = j;
                }
            }
        }
    }

    /** A key's lane; see the class comment for the retire and reuse protocol. */
    static final class KeyLane<K> extends Lane {
        private static final VarHandle RETIRE_PENDING;

        static {
            try {
                RETIRE_PENDING = MethodHandles.lookup().findVarHandle(KeyLane.class, "retirePending", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final KeyedSerialExecutor<K> owner;
        /** The lane's stripe, for life: a recycled lane is reused only within its stripe. */
        private final Stripe<K> stripe;
        private static final VarHandle TAIL;

        static {
            try {
                TAIL = MethodHandles.lookup().findVarHandle(KeyLane.class, "tail", LinkingRunnable.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** Written under the stripe lock, read also without it: null while the lane is free. */
        volatile K key;
        /** Written under the stripe lock; read racily only as a probe filter. */
        int hash;
        /**
         * The chain's last node. CASed by producers with or without the lock; set to RETIRED (by
         * CAS) and from RETIRED to a reused lane's first node only under the lock.
         */
        volatile LinkingRunnable tail = RETIRED;
        /** Next lane in the stripe's free list. */
        KeyLane<K> nextFree;
        /**
         * 1 while some worker holds this lane in its list of idle lanes to check. Not reset on
         * reuse: the worker holding it will still check the lane, whichever key it serves then.
         */
        private volatile int retirePending;

        KeyLane(KeyedSerialExecutor<K> owner, Stripe<K> stripe) {
            super(owner.policy);
            this.owner = owner;
            this.stripe = stripe;
        }

        @Override
        void start(LinkingRunnable head) {
            owner.dispatcher.schedule(this, head);
        }

        boolean casTail(LinkingRunnable expected, LinkingRunnable replacement) {
            return TAIL.compareAndSet(this, expected, replacement);
        }

        /**
         * Retiring is deferred to the worker that saw the lane go idle (it checks a bounded
         * number of idle lanes later, or when it leaves its pool thread), so a key that goes idle
         * and comes back within a burst keeps its lane instead of churning it.
         */
        @Override
        void wentIdle(LinkingRunnable last) {
        }

        @Override
        LinkingRunnable awaitSuccessor(LinkingRunnable last) {
            return owner.dispatcher.awaitSuccessor(last);
        }

        @Override
        boolean markRetirePending() {
            return retirePending == 0 && RETIRE_PENDING.compareAndSet(this, 0, 1);
        }

        /**
         * The pending mark is cleared before the tail is read (under the lock), so a worker that
         * sees the lane go idle after this check finds the mark clear and queues another check: no
         * idle lane is missed. The lane may meanwhile have been retired or reused for another key;
         * the stripe re-validates under its lock.
         */
        @Override
        void retireIfIdle() {
            retirePending = 0;
            stripe.retireIfIdle(this);
        }
    }
}

/**
 * Leading padding of a {@link KeyedSerialExecutor.Stripe}: a superclass's fields come first in
 * the object, so the lock words of stripes allocated one after another are a cache line apart.
 */
@SuppressWarnings("unused")
abstract class StripePad {
    byte p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63;
}
