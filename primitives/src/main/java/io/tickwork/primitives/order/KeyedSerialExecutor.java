package io.tickwork.primitives.order;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs tasks one at a time per key, in the order they were submitted, on a pool you give it;
 * tasks of different keys run in parallel, as many at once as the pool allows.
 *
 * <pre>{@code
 * ExecutorService pool = Executors.newWorkStealingPool(); // a thread per core; any Executor works
 * try (KeyedSerialExecutor<String> accounts = KeyedSerialExecutor.create(pool)) {
 *     accounts.execute("alice", () -> ledger.credit("alice", 10));
 *     accounts.execute("bob", () -> ledger.debit("bob", 5));     // beside alice's tasks
 *     accounts.execute("alice", () -> ledger.debit("alice", 3)); // after alice's credit
 * } // close(): accepts no more tasks, waits until every accepted one has run (unless interrupted)
 * pool.shutdown(); // the executor never shuts its pool down
 * }</pre>
 *
 * <p>Options ({@link #builder(Executor)}): a lower limit on keys running at once, a bound on each
 * key's queue, a failure handler that receives the key, and the fairness budget.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Order and exclusion.</b> Tasks of one key run in the order in which their
 *       {@code execute} calls linearize, one at a time, and everything a task did happens-before
 *       the next task of its key starts, even on another pool thread.</li>
 *   <li><b>Memory visibility.</b> As an {@code ExecutorService} promises for its tasks: what a
 *       thread did before an {@code execute} happens-before the task runs, and everything a task
 *       did happens-before the completion of a {@link #flush} of its key that follows it (at once
 *       or later), {@link #awaitTermination} returning true, {@link #close()} returning (unless
 *       interrupted, when it returns without waiting) and {@link #isTerminated()} answering true.
 *       So a producer may read, after {@code close()}, plain fields that its tasks wrote.</li>
 *   <li><b>Concurrency.</b> Keys with work run in parallel, up to {@code maxConcurrentKeys} at
 *       once. Default: the pool's own capacity, read at construction: a {@code ForkJoinPool}'s
 *       parallelism; a {@code ThreadPoolExecutor}'s core size (at least 1), or its maximum size if its queue
 *       holds nothing (a {@code SynchronousQueue}: a pool grows past its core only when its queue
 *       is full, and the executor keeps about one worker waiting there); 1 for
 *       {@code Executors.newSingleThreadExecutor()} and {@code newSingleThreadScheduledExecutor()}
 *       (and {@code unconfigurableScheduledExecutorService}, whose wrapper is the same);
 *       unbounded for any other executor (a thread or a virtual thread per task), so a key whose
 *       task blocks never holds up another key (except on an executor that runs tasks in the
 *       caller, such as a direct {@code Runnable::run}: there the calling thread drains the keys,
 *       below, and a task that waits for another key's task waits for itself). An
 *       executor that wraps a bounded pool (a decorator, {@code unconfigurableExecutorService},
 *       a framework's task executor) looks unbounded: give it {@code maxConcurrentKeys}.</li>
 *   <li><b>Nothing lost.</b> {@code execute} either accepts the task, which then runs exactly once,
 *       or throws {@link RejectedExecutionException} and the task never runs. It rejects after
 *       {@link #shutdown()} or {@link #close()} (from a running task too); once the pool is shut
 *       down ({@code ExecutorService.isShutdown()}); when the key already has
 *       {@code maxQueuedPerKey} tasks waiting; and when the pool refuses to start a worker while
 *       none runs (anything its {@code execute} throws but a {@link VirtualMachineError}), or its
 *       {@code isShutdown()} throws. "None runs" counts slots: a worker that has just given its
 *       slot back may hold its pool thread a moment longer, so a pool with no spare thread or
 *       queue room ({@code AbortPolicy} over a {@code SynchronousQueue}, say) can refuse then. When the pool refuses a first worker, and on a pool that
 *       runs tasks in the caller ({@code CallerRunsPolicy}, a direct executor), the calling thread
 *       drains every key that is ready, other producers' keys included, until none is: one
 *       {@code execute} may then run for as long as the others keep it busy. The same when the
 *       pool refuses a further worker while workers run and the key limit leaves a slot free;
 *       then the task is accepted, not rejected. Tasks accepted before
 *       a {@code ThreadPoolExecutor}'s {@code shutdownNow()} either run on workers still running
 *       or are reachable from the runnables it returns: run those, and they run. Not so on a
 *       {@code ScheduledThreadPoolExecutor} ({@code newSingleThreadScheduledExecutor()} too),
 *       whose returned runnables are wrappers that cancel themselves once the pool has stopped,
 *       nor on a {@code ForkJoinPool}, whose {@code shutdownNow()} cancels its queued tasks and
 *       returns none: keys queued for such a worker never run, and this executor never
 *       terminates. Shut such a pool down with {@code shutdown()} after closing this executor.
 *       A {@code ThreadPoolExecutor} with
 *       {@code DiscardPolicy} or {@code DiscardOldestPolicy} is refused at construction
 *       ({@link IllegalArgumentException}): a discarded worker would strand its keys. A pool that
 *       returns normally from {@code execute} once it is shut down (a {@code CallerRunsPolicy}
 *       pool then discards) is caught through {@code isShutdown()}: the worker goes on in the
 *       thread that handed it over. An executor that drops tasks silently while it reports
 *       itself running (a custom one, a pool whose own {@code RejectedExecutionHandler} returns
 *       without running or throwing, or a pool's handler changed to a discarding one after
 *       construction) cannot be detected; do not use one.</li>
 *   <li><b>Failures.</b> An exception, or an error that is not a {@link VirtualMachineError}, goes
 *       to the {@link TaskFailureHandler} (default: the running thread's uncaught-exception
 *       handler), and the key's next task runs. A {@link VirtualMachineError}
 *       ({@code OutOfMemoryError}, {@code StackOverflowError}) is rethrown to the thread that ran
 *       the task (a pool thread, or a producer draining in place), after the key's remaining
 *       tasks were handed to another worker: they still run. If the pool refuses that hand-over,
 *       the thread drains the ready keys itself first and rethrows when none is left. An
 *       {@code OutOfMemoryError} inside {@code execute} does not leave its queued key without a
 *       worker: a producer that must start the first worker and cannot allocate it takes one kept
 *       in reserve, replaced before the next key becomes busy (if that fails, {@code execute}
 *       throws before the task is queued, and it never runs). Only a second producer failing the
 *       same allocation after the first took the reserve and its worker left, before the reserve
 *       was replaced, leaves its key waiting for the next {@code execute} that makes a key busy
 *       (one with no task queued or running). A {@code StackOverflowError} inside
 *       {@code execute} or inside this executor's own steps around a task (a producer, or a
 *       task run in place, at the end of its stack) is not covered: as with any lock-free queue
 *       that swaps its tail and then links, and with the JDK's locks outside their reserved stack
 *       area, it may strike between two steps that belong together, and then leave a key's later
 *       tasks waiting, or this executor never terminating. Call {@code execute} with stack to
 *       spare. On a pool that runs each runnable inside a future (a
 *       {@code ScheduledThreadPoolExecutor}) a rethrown {@link VirtualMachineError} ends in that
 *       future: {@link Stats#failedTasks()} counts it, and no handler sees it. A handler
 *       that throws: see {@link TaskFailureHandler}.</li>
 *   <li><b>Interrupts.</b> Each task starts with its thread's interrupt flag clear: an interrupt
 *       left by one task never reaches the next, of its key or another. An interrupt found before
 *       a task (left by a task, or sent by the pool's {@code shutdownNow}) is set again when the
 *       executor gives the pool thread back, so the pool's next task of its own may start
 *       interrupted on a pool that does not clear the flag between tasks (JDK 17's
 *       {@code ForkJoinPool}, when its thread takes that task without parking first; a
 *       {@code ThreadPoolExecutor}, unless stopping, and JDK 25's {@code ForkJoinPool} clear it); a thread that runs the runnables a pool's
 *       {@code shutdownNow()} returned is a pool thread here, and may end with its flag set. A
 *       producer that runs tasks in its own thread (a
 *       pool that runs tasks in the caller, or a refused hand-over) gets back the flag it had
 *       when it called {@code execute}; interrupts found before the tasks it ran are theirs. A
 *       task interrupted while it runs sees it. So a
 *       pool's {@code shutdownNow()} does not stop keyed work between tasks: stop accepting with
 *       {@link #shutdown()} first.</li>
 *   <li><b>Fairness.</b> A key runs at most {@code fairnessBudget} tasks in a row while other keys
 *       wait. A worker gives its pool thread back after about {@code fairnessBudget} tasks, or,
 *       when the pool reports other queued work, at the end of the first key's run that takes it
 *       past 64 tasks, so other work on a shared pool runs between them: with one busy key, that
 *       work waits up to {@code fairnessBudget} tasks (lower the budget to bound it tighter); on a {@code ForkJoinPool} it runs one of the pool's other tasks in place
 *       instead of leaving, after handing the keys still ready back to the pool, so that task may
 *       wait for them (a {@code flush(key).join()}); with none ready, it keeps its slot for that
 *       task's run unless every other slot is held by a worker doing the same, or there is none
 *       (a limit of 1), so a key that task makes ready and waits for gets a worker. On a
 *       {@code ForkJoinPool}, a task that blocks
 *       should block as the pool expects ({@link java.util.concurrent.ForkJoinPool#managedBlock},
 *       as {@code CompletableFuture.join} does), or the pool cannot add the thread that would run
 *       the other keys meanwhile; a plain lock or latch wait holds its thread from them. Either
 *       way a waiting task keeps its key's place among the {@code maxConcurrentKeys}: tasks that
 *       wait for other keys' work (a {@code join} on a future another key completes) need a limit
 *       above the number that may wait at once, or the keys they wait for never start, and the
 *       executor never terminates: nothing detects that wait (the common pool's parallelism is
 *       the cores less one, so 1 on 2 cores).</li>
 *   <li><b>Lifecycle.</b> The executor does not own the pool and never shuts it down.
 *       {@link #shutdown()} stops accepting and returns at once; queued tasks still run.
 *       {@link #close()} also waits until they have run (on a {@code ForkJoinPool} thread through
 *       {@code managedBlock}, so the pool may add the thread that runs them). Terminated means
 *       shut down with no task queued or running.</li>
 * </ul>
 *
 * <p><b>Cost.</b> Per task: a 24-byte node, one map read, one CAS and one release store on the
 * producer side, besides the acceptance check (a read of the executor's state and the pool's
 * {@code isShutdown()}, whatever that costs on the pool given); on the draining side, one
 * volatile read of the next link and the interrupt check. Per key that becomes busy: one XCHG on a
 * shared ready queue and an add on a striped counter; a worker already on a pool thread takes the
 * key, so a steady stream of cheap tasks over many keys pays no pool submission per task. Per key
 * with work: a 48-byte lane and its map entry; a worker retires a key's lane a while after it went
 * idle (at most 128 idle keys per running worker stay registered, none once the workers left). A
 * bound on the keys' queues costs one release store per task on the draining side. Per executor:
 * about 2 KB on 2 cores, growing with the cores to about 10 KB on 64: the striped busy-key count
 * (two 128-byte stripes per core, rounded up to a power of two, at most 64) and the reserve worker
 * (about 620 bytes). The map of keys does not shrink: after a burst of many keys at once, its
 * table stays as large as the burst needed (about 7 MB after a million keys), though every lane
 * is released.
 *
 * <p><b>Context.</b> The pool runs the executor's workers, not your tasks: a decorating executor
 * that captures a context when its {@code execute} is called (a logging MDC, a tracing span, a
 * security principal) captures it from whichever producer started a worker, and every task that
 * worker runs, of any producer, runs under it. Carry a task's context in the task itself (wrap the
 * {@code Runnable} before {@link #execute}). For the same reason a task's thread says nothing of
 * its key or producer: one worker runs tasks of many keys one after another on one pool thread
 * (a virtual thread too, with a virtual-thread-per-task pool), so a {@code ThreadLocal} a task
 * leaves set is seen by the next task that worker runs, of any key, and an
 * {@code InheritableThreadLocal} holds what the producer that started the worker had. Clear what
 * a task sets, in a {@code finally}.
 *
 * <p><b>Thread safety.</b> Every method may be called from any thread, tasks included. Keys need
 * consistent {@code equals} and {@code hashCode} and must not change once used, as a
 * {@code HashMap}'s: an idle key stays registered a while, and one changed by then is never
 * released. They are also called on pool threads, when a worker releases an idle key: if one
 * throws there, the throwable goes to that thread's uncaught-exception handler, every other key
 * goes on, and the key stays registered, idle, until {@code execute} or {@code flush} of an equal
 * key releases it (or throws the same to its caller).
 *
 * @param <K> the key type
 */
public final class KeyedSerialExecutor<K> implements AutoCloseable {
    /** Tasks a key runs in a row while other keys wait, unless the builder says otherwise. */
    public static final int DEFAULT_FAIRNESS_BUDGET = 1024;

    private final ConcurrentHashMap<K, KeyLane> lanes = new ConcurrentHashMap<>();
    private final PoolView pool;
    private final Lifecycle lifecycle = new Lifecycle();
    final LaneDispatcher dispatcher; // package-private for the concurrency tests
    /** 0: unbounded; else the most tasks a key may have waiting to start. */
    private final int maxQueuedPerKey;

    private final LongAdder rejected = new LongAdder();

    private KeyedSerialExecutor(Builder<?> b) {
        this.pool = PoolView.of(b.pool);
        this.maxQueuedPerKey = b.maxQueuedPerKey;
        int parallelism = b.maxConcurrentKeys > 0 ? b.maxConcurrentKeys : pool.capacity();
        this.dispatcher = new LaneDispatcher(
                pool,
                parallelism,
                b.fairnessBudget,
                maxQueuedPerKey > 0,
                new TaskFailures(b.failureHandler),
                lifecycle,
                lanes);
    }

    /**
     * An executor on {@code pool} with every default; see the class comment.
     *
     * @throws IllegalArgumentException if {@code pool} is a {@code ThreadPoolExecutor} that
     *     discards rejected tasks silently
     * @throws NullPointerException if {@code pool} is null
     */
    public static <K> KeyedSerialExecutor<K> create(Executor pool) {
        return builder(pool).build();
    }

    /**
     * A builder of an executor on {@code pool}:
     *
     * <pre>{@code
     * KeyedSerialExecutor<Long> users = KeyedSerialExecutor.builder(pool)
     *         .maxQueuedPerKey(10_000) // the 10,001st waiting task of a user is rejected
     *         .failureHandler((Long user, Runnable task, Throwable e) -> log.warning("user " + user + ": " + e))
     *         .build();
     * }</pre>
     *
     * @throws NullPointerException if {@code pool} is null
     */
    public static Builder<Object> builder(Executor pool) {
        return new Builder<>(Objects.requireNonNull(pool, "pool"));
    }

    /**
     * Runs {@code task} after every task of {@code key} whose call linearized before this one.
     * Linearization point: the CAS that appends the task to the key's lane, or the map insert that
     * creates the lane. A call made after {@link #shutdown()} or {@link #close()} returned is
     * rejected; one that overlaps it may still be accepted (its acceptance check came first), and
     * an accepted task runs before the executor terminates.
     *
     * @throws RejectedExecutionException if the task was not accepted and will not run: see the
     *     class comment for when; {@link #isShutdown()} tells a shutdown from the other causes
     * @throws NullPointerException if {@code key} or {@code task} is null
     * @throws VirtualMachineError thrown by the pool, or by a task this call ran in place (see the
     *     class comment); whether this call's task was accepted is then not known
     * @throws RuntimeException thrown by the key's {@code hashCode} or {@code equals}: the task was
     *     not accepted
     */
    public void execute(K key, Runnable task) {
        Objects.requireNonNull(key, "key");
        TaskNode node = new TaskNode(Objects.requireNonNull(task, "task"));
        try {
            append(key, node);
        } catch (RejectedExecutionException e) {
            rejected.increment();
            throw e;
        }
    }

    private void append(K key, TaskNode node) {
        KeyLane lane = lanes.get(key);
        for (int waits = 0; ; ) {
            if (lane == null) {
                KeyLane fresh = new KeyLane(key, node); // before the count: an OutOfMemoryError here leaks nothing
                beginBusy();
                try {
                    lane = lanes.putIfAbsent(key, fresh);
                } catch (Throwable e) { // the map could not grow: the key never became busy
                    lifecycle.busyEnded(1);
                    throw e;
                }
                if (lane == null) {
                    dispatcher.schedule(fresh, node);
                    return;
                }
                lifecycle.busyEnded(1); // another producer created the key's lane first
            }
            TaskNode previous = lane.tail;
            if (previous == null && maxQueuedPerKey > 0) { // idle: reopen it, numbered exactly
                beginBusy();
                if (lane.reopenNumbered(node)) {
                    dispatcher.schedule(lane, node);
                    return;
                }
                lifecycle.busyEnded(1);
                continue;
            }
            if (previous == null) { // idle: reopen it
                beginBusy();
                int started = lane.started();
                node.seq = started + 1;
                if (lane.casTail(null, node)) {
                    // If the lane went busy and idle again between our read of null and the CAS,
                    // started is newer than what we read; set it back to just before our node.
                    lane.publishStarted(started);
                    dispatcher.schedule(lane, node);
                    return;
                }
                lifecycle.busyEnded(1);
                continue;
            }
            if (previous == KeyLane.RETIRED) {
                lanes.remove(key, lane); // help the retiring worker, then use a fresh lane
                lane = lanes.get(key);
                continue;
            }
            if (previous == KeyLane.REOPENING) {
                LaneDispatcher.backOff(++waits); // another producer is numbering its node
                continue;
            }
            checkAccepting();
            if (maxQueuedPerKey > 0 && previous.seq - lane.started() >= maxQueuedPerKey) {
                throw new RejectedExecutionException("key " + LaneDispatcher.describe(key) + " has " + maxQueuedPerKey
                        + (maxQueuedPerKey == 1 ? " task" : " tasks") + " waiting (maxQueuedPerKey)");
            }
            node.seq = previous.seq + 1;
            if (lane.casTail(previous, node)) {
                previous.linkReleased(node); // we displaced previous, so we are its only linker
                return;
            }
            // another producer appended first, or the lane closed: retry on the same lane
        }
    }

    /** Counts a key busy before reopening it; rejects if this executor or its pool is shut down. */
    private void beginBusy() {
        dispatcher.ensureReserve(); // first: its OutOfMemoryError leaves nothing behind
        if (!lifecycle.tryBeginBusy()) {
            throw new RejectedExecutionException("the executor is shut down");
        }
        boolean poolDown;
        try {
            poolDown = poolIsShutdown();
        } catch (Throwable refused) { // the key never became busy: termination must not wait for it
            lifecycle.busyEnded(1);
            throw refused;
        }
        if (poolDown) {
            lifecycle.busyEnded(1);
            throw poolShutDown();
        }
    }

    private void checkAccepting() {
        if (!lifecycle.isRunning()) {
            throw new RejectedExecutionException("the executor is shut down");
        }
        if (poolIsShutdown()) {
            throw poolShutDown();
        }
    }

    /** The pool's {@code isShutdown()}; what a custom pool's throws becomes a rejection. */
    private boolean poolIsShutdown() {
        try {
            return pool.isShutdown();
        } catch (Throwable probeFailed) {
            // rethrows a VirtualMachineError as itself
            throw LaneDispatcher.rejection("the pool's isShutdown() threw, so the task will not run", probeFailed);
        }
    }

    private RejectedExecutionException poolShutDown() {
        return new RejectedExecutionException("the pool is shut down: " + pool);
    }

    /**
     * An {@link Executor} that runs every task under {@code key}: {@code executorFor(k).execute(t)}
     * is {@code execute(k, t)}. For APIs that take an executor, e.g. a result computed in key
     * order: {@code CompletableFuture.supplyAsync(() -> balance(a), accounts.executorFor(a))}.
     *
     * @throws NullPointerException if {@code key} is null
     */
    public Executor executorFor(K key) {
        Objects.requireNonNull(key, "key");
        return task -> execute(key, task);
    }

    /**
     * A future that completes once every task of {@code key} accepted before this call has run;
     * at once, in the calling thread, if the key has none queued or running. Works after
     * {@link #shutdown()} too. Otherwise the future is completed by the worker that runs the key,
     * in the key's order: dependent actions added without an executor before that moment run
     * there, after those tasks and before the key's next task. An action added once the future
     * is complete runs in the thread that adds it, unordered with the key's later tasks (as with
     * any {@link CompletableFuture}): to run code in the key's order, give it to
     * {@link #execute} or use {@link #executorFor} as the action's executor.
     *
     * <p>A task of {@code key} (or an action run in place by one) must not wait for the future of
     * {@code flush(key)} ({@code join}, {@code get}): the flush completes after every task of the
     * key accepted before it, the waiting task included, so that wait never ends (a timed
     * {@code get} times out). The same holds for waiting on anything a later task of its own key
     * completes (a {@code CompletableFuture} run on {@link #executorFor}{@code (key)}, say): that
     * task runs only after the waiting one ends.
     *
     * @throws NullPointerException if {@code key} is null
     */
    public CompletableFuture<Void> flush(K key) {
        Objects.requireNonNull(key, "key");
        CompletableFuture<Void> done = new CompletableFuture<>();
        TaskNode marker = new TaskNode(new FlushMarker(done));
        KeyLane lane = lanes.get(key);
        for (int waits = 0; ; ) {
            TaskNode previous = lane == null ? null : lane.tail;
            if (previous == KeyLane.RETIRED) {
                lanes.remove(key, lane);
                lane = lanes.get(key);
                continue;
            }
            if (previous == KeyLane.REOPENING) {
                LaneDispatcher.backOff(++waits); // a producer is reopening the key: its task comes first
                continue;
            }
            if (previous == null || lane.restsAt(previous)) { // idle, or queued open with nothing left
                done.complete(null);
                return done;
            }
            marker.seq = previous.seq; // not a task: never counts as waiting
            if (lane.casTail(previous, marker)) {
                previous.linkReleased(marker);
                return done;
            }
        }
    }

    /** A flush's place in a key's chain; not counted as a task. */
    static final class FlushMarker implements Runnable {
        private final CompletableFuture<Void> done;

        FlushMarker(CompletableFuture<Void> done) {
            this.done = done;
        }

        @Override
        public void run() {
            done.complete(null);
        }
    }

    /**
     * Stops accepting tasks and returns at once; tasks already accepted still run. Idempotent.
     * Never shuts down the pool.
     */
    public void shutdown() {
        lifecycle.shutdown();
    }

    /** Whether {@link #shutdown()} or {@link #close()} was called. */
    public boolean isShutdown() {
        return lifecycle.state() != Lifecycle.RUNNING;
    }

    /** Whether the executor is shut down and every accepted task has run. */
    public boolean isTerminated() {
        return lifecycle.state() == Lifecycle.TERMINATED;
    }

    /**
     * Waits until the executor is terminated or the timeout elapses.
     *
     * @return true if terminated, false if the timeout elapsed first
     * @throws InterruptedException if interrupted while waiting
     * @throws NullPointerException if {@code unit} is null
     * @throws IllegalStateException if called from one of this executor's own tasks (or from an
     *     action run in place by one, such as a {@link #flush} dependent): the executor cannot
     *     terminate while that task runs, so the wait could only time out. {@link #close()} called
     *     there shuts down and returns at once instead.
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        if (WorkerSlot.current().isDraining(dispatcher)) {
            throw new IllegalStateException("awaitTermination called from a task of this executor (on "
                    + Thread.currentThread() + "): the executor cannot terminate while the task waits");
        }
        return lifecycle.awaitTermination(timeout, unit);
    }

    /**
     * Shuts down and waits until every accepted task has run. Called from one of this executor's
     * own tasks (or from an action run in place by one, such as a {@link #flush} dependent), it
     * shuts down and returns at once (it cannot wait for the task calling it). Called from another
     * task of the same pool, it holds that pool thread while it waits: on a pool that is not a
     * {@code ForkJoinPool} (which may add a thread for the wait), keys that need that thread never
     * run, and the wait never ends; call {@link #shutdown()} there instead. If the calling
     * thread is or becomes interrupted, it stops waiting and returns with the interrupt flag set;
     * the queued tasks still run. (JDK 19's {@code ExecutorService.close()} keeps waiting
     * instead; a caller that must wait retries {@link #awaitTermination}.) If the pool stops running the executor's workers (its
     * {@code shutdownNow()} handed them back and nobody runs them), this waits for good: use
     * {@link #awaitTermination} with a timeout there.
     */
    @Override
    public void close() {
        shutdown();
        if (WorkerSlot.current().isDraining(dispatcher)) {
            return;
        }
        try {
            while (!lifecycle.awaitTermination(1, TimeUnit.DAYS)) {
                // keep waiting
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A snapshot of the executor's counters. Costs a walk over the map of keys, whose table keeps
     * the size of the most keys ever registered at once (see "Cost" in the class comment): after
     * a million keys at once, a call takes about a millisecond even with none left. No counter is
     * written per task. The counts of tasks run and failed lag by the tasks that running workers
     * have not handed over yet (at most about {@code fairnessBudget} per worker, or per producer
     * draining keys in its own thread), and are exact once the executor has terminated. With {@code maxQueuedPerKey},
     * {@code queuedTasks} counts tasks not yet started; without it, a key's tasks count until the
     * worker running them hands over its progress at its batch's end, so the task running now
     * and those of its batch that already ran may still be counted (a key whose one task hangs,
     * nothing queued behind it, counts 1).
     */
    public Stats stats() {
        return walk().stats();
    }

    /**
     * The key with the most tasks counted as queued ({@link Stats#deepestQueue()}; of equals,
     * any), or null when none is: where to look when a key stops making progress, since a task
     * that blocks holds back every task queued behind it under its key. A snapshot, costing the
     * same walk as {@link #stats()}, and as exact: with {@code maxQueuedPerKey} a key's count is
     * its tasks not yet started, so a hung task with nothing behind it is not seen; without it
     * the count also includes the tasks of the batch a worker is running, the running one too
     * (it hands its progress over only at the batch's end), so a key whose one task hangs is
     * named, and a key that is draining a long batch can be named before one that is stuck.
     * {@link #toString()} names it too.
     */
    public K deepestKey() {
        return walk().deepestKey;
    }

    /** One pass over the registered keys: {@link #stats()} and {@link #deepestKey()} from the same snapshot. */
    private Walk<K> walk() {
        int keys = 0;
        long queued = 0;
        int deepest = 0;
        K deepestKey = null;
        for (Map.Entry<K, KeyLane> e : lanes.entrySet()) {
            KeyLane lane = e.getValue();
            TaskNode t = lane.tail;
            // a lane deferred open rests at a task that has run: nothing queued or running
            if (t != null && t != KeyLane.RETIRED && !lane.restsAt(t)) {
                keys++;
                int waiting = lane.waiting();
                queued += waiting;
                if (waiting > deepest) {
                    deepest = waiting;
                    deepestKey = e.getKey();
                }
            }
        }
        Stats stats = new Stats(
                keys,
                queued,
                deepest,
                dispatcher.completed.sum(),
                dispatcher.failed.sum(),
                rejected.sum(),
                dispatcher.workers());
        return new Walk<>(stats, deepestKey);
    }

    private record Walk<K>(Stats stats, K deepestKey) {}

    /** Keys with a lane in the map, idle ones kept for reuse included. */
    int registeredKeys() {
        return lanes.size();
    }

    /**
     * One line: state, then the {@link #stats()} snapshot with the {@link #deepestKey()}, then the
     * limits, e.g. {@code KeyedSerialExecutor[running, keys with work 3, queued 10, deepest 7 (key
     * alice), completed 1000, failed 1, rejected 0, workers 2 of 8, ThreadPoolExecutor]}.
     */
    @Override
    public String toString() {
        int lifecycleState = lifecycle.state(); // before the counts: "terminated" then means they are final
        Walk<K> w = walk();
        Stats s = w.stats();
        String state = switch (lifecycleState) {
            case Lifecycle.RUNNING -> "running";
            case Lifecycle.SHUTDOWN -> "shutting down";
            default -> "terminated";
        };
        int parallelism = dispatcher.parallelism;
        return "KeyedSerialExecutor[" + state
                + ", keys with work " + s.keysWithWork()
                + ", queued " + s.queuedTasks()
                + ", deepest " + s.deepestQueue()
                + (maxQueuedPerKey > 0 ? " of " + maxQueuedPerKey : "")
                + (w.deepestKey() != null ? " (key " + LaneDispatcher.describe(w.deepestKey()) + ")" : "")
                + ", completed " + s.completedTasks()
                + ", failed " + s.failedTasks()
                + ", rejected " + s.rejectedTasks()
                + ", workers " + s.workers() + " of "
                + (parallelism == PoolView.UNBOUNDED ? "unbounded" : String.valueOf(parallelism))
                + ", " + poolName(pool.pool.getClass()) + "]";
    }

    /** The pool's class by its simple name, or its full name where it has none (an anonymous class). */
    private static String poolName(Class<?> type) {
        String simple = type.getSimpleName();
        return simple.isEmpty() ? type.getName() : simple;
    }

    /**
     * A snapshot of a {@link KeyedSerialExecutor}'s counters; see {@link KeyedSerialExecutor#stats()}
     * for how exact each is.
     *
     * @param keysWithWork keys with a task queued or running
     * @param queuedTasks accepted tasks not yet started, over all keys (no bound over all keys:
     *     {@code maxQueuedPerKey} bounds each key); without {@code maxQueuedPerKey}, also the
     *     tasks of the batches workers are running, the running ones included
     *     ({@link KeyedSerialExecutor#stats()})
     * @param deepestQueue the most tasks counted in {@code queuedTasks} under one key
     * @param completedTasks tasks that ran, those that failed included
     * @param failedTasks tasks that threw
     * @param rejectedTasks {@code execute} calls that threw {@link RejectedExecutionException}
     * @param workers threads draining keys now (pool threads, or producers draining in place), or
     *     about to (queued in the pool), or just done: a worker that found no key left counts
     *     until its thread has left, also for a moment after the executor terminated
     */
    public record Stats(
            int keysWithWork,
            long queuedTasks,
            int deepestQueue,
            long completedTasks,
            long failedTasks,
            long rejectedTasks,
            int workers) {}

    /**
     * Options of a {@link KeyedSerialExecutor}; every one has a default. Not thread safe; a
     * builder may build several executors.
     *
     * @param <K> the key type the failure handler accepts
     */
    public static final class Builder<K> {
        private final Executor pool;
        private int maxConcurrentKeys;
        private int maxQueuedPerKey;
        private int fairnessBudget = DEFAULT_FAIRNESS_BUDGET;
        private TaskFailureHandler<?> failureHandler;

        private Builder(Executor pool) {
            this.pool = pool;
        }

        /**
         * At most {@code n} keys run at once (pool threads in use by this executor). Default: the
         * pool's capacity (see the class comment). Lower it to leave pool threads to other work;
         * raise it above the number of tasks that may wait at once for other keys' work (on a
         * {@code ForkJoinPool}, which adds threads for tasks blocked in {@code managedBlock}).
         *
         * @throws IllegalArgumentException if {@code n < 1}
         */
        public Builder<K> maxConcurrentKeys(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxConcurrentKeys must be >= 1: " + n);
            }
            this.maxConcurrentKeys = n;
            return this;
        }

        /**
         * At most {@code n} tasks of one key wait to start (the running one not counted); an
         * {@code execute} that would make it {@code n + 1} throws
         * {@link RejectedExecutionException}. Default: unbounded. Costs one release store per
         * task when set. Why reject rather than run in the caller or block: running a key's task
         * in the caller would break its order, and a producer that must not lose the task can
         * catch the rejection and wait (e.g. {@code flush(key).get()}, which an interrupt ends, where
         * {@code join()} would not) as its own policy; {@link #isShutdown()} tells whether the
         * rejection was a shutdown, which no wait cures.
         *
         * @throws IllegalArgumentException if {@code n < 1}
         */
        public Builder<K> maxQueuedPerKey(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxQueuedPerKey must be >= 1: " + n);
            }
            this.maxQueuedPerKey = n;
            return this;
        }

        /**
         * A key runs at most {@code tasks} tasks in a row while other keys wait, and a pool thread
         * is given back after about that many. Default {@value KeyedSerialExecutor#DEFAULT_FAIRNESS_BUDGET}; lower
         * favours latency across keys and other work on the pool, higher favours throughput.
         * {@code Integer.MAX_VALUE} means no limit.
         *
         * @throws IllegalArgumentException if {@code tasks < 1}
         */
        public Builder<K> fairnessBudget(int tasks) {
            if (tasks < 1) {
                throw new IllegalArgumentException("fairnessBudget must be >= 1: " + tasks);
            }
            this.fairnessBudget = tasks;
            return this;
        }

        /**
         * Where tasks' failures go; default: the running thread's uncaught-exception handler.
         * Narrows the key type to what the handler accepts.
         *
         * @throws NullPointerException if {@code handler} is null
         */
        @SuppressWarnings("unchecked")
        public <K1 extends K> Builder<K1> failureHandler(TaskFailureHandler<? super K1> handler) {
            this.failureHandler = Objects.requireNonNull(handler, "handler");
            return (Builder<K1>) this;
        }

        /**
         * A new executor with these options.
         *
         * @throws IllegalArgumentException if the pool is a {@code ThreadPoolExecutor} that
         *     discards rejected tasks silently
         */
        public <K1 extends K> KeyedSerialExecutor<K1> build() {
            return new KeyedSerialExecutor<>(this);
        }
    }
}
