package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;

/**
 * Running, shut down or terminated, and the count of busy keys that decides termination.
 *
 * <p>Terminated means shut down with no key busy (no task of any key queued or running). A key
 * becomes busy when a producer reopens its lane and idle when a drainer closes it; appends to a
 * busy lane change nothing here. The count is striped over padded cells, one per thread by a hash
 * of its id, so producers on different cores do not share a counter line.
 *
 * <p>Why no busy key is missed: a producer adds to its cell (a volatile read-modify-write) before
 * it reads the state, and {@link #shutdown()} writes the state (a CAS) before it sums the cells.
 * Whichever comes second sees the first: either the producer sees the shutdown, takes its add
 * back and is rejected, or the sum includes the add. A sum that misses an add therefore only
 * misses adds whose producers are about to take them back, and it is re-done by whoever takes
 * the last one back ({@link #busyEnded}).
 *
 * <p>Drainers need not hurry while running: a worker counts the keys it saw go idle locally and
 * hands the count over when it leaves its thread, or at once when it sees a shutdown, so the
 * running executor pays no shared write per idle key.
 */
final class Lifecycle {
    static final int RUNNING = 0;
    static final int SHUTDOWN = 1;
    static final int TERMINATED = 2;

    private static final VarHandle STATE;
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Lifecycle.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Longs between two cells: 128 bytes, two cache lines, against adjacent-line prefetch. */
    private static final int SPACING = 16;

    private volatile int state;
    private final long[] cells;
    private final int mask;
    private final CountDownLatch terminated = new CountDownLatch(1);

    Lifecycle() {
        int n = Integer.highestOneBit(Math.max(
                                1, Math.min(64, 2 * Runtime.getRuntime().availableProcessors()))
                        * 2
                - 1);
        this.cells = new long[(n + 2) * SPACING]; // a spacing before the first cell and after the last
        this.mask = n - 1;
    }

    int state() {
        return state;
    }

    boolean isRunning() {
        return state == RUNNING;
    }

    /**
     * A producer is about to reopen an idle lane: counts it busy and returns true if the executor
     * runs; else takes the count back and returns false (the caller rejects).
     */
    boolean tryBeginBusy() {
        add(1);
        if (state == RUNNING) {
            return true;
        }
        busyEnded(1);
        return false;
    }

    /** {@code n} keys counted busy went idle (or a producer's reopening failed). */
    void busyEnded(int n) {
        add(-n);
        if (state != RUNNING) {
            tryTerminate();
        }
    }

    /** Stops accepting; terminates at once if no key is busy. Idempotent. */
    void shutdown() {
        if (state == RUNNING) {
            STATE.compareAndSet(this, RUNNING, SHUTDOWN);
        }
        tryTerminate();
    }

    private void tryTerminate() {
        if (state == SHUTDOWN && sum() == 0 && STATE.compareAndSet(this, SHUTDOWN, TERMINATED)) {
            terminated.countDown();
        }
    }

    /**
     * Waits for termination. True at once if terminated, even for an interrupted caller. On a
     * {@code ForkJoinPool} thread the wait is a {@link ForkJoinPool#managedBlock}, so the pool may
     * add a spare thread to run the workers this wait is for.
     */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        if (terminated.getCount() == 0) {
            return true;
        }
        if (Thread.currentThread() instanceof ForkJoinWorkerThread) {
            TimedWait wait = new TimedWait(terminated, unit.toNanos(timeout));
            try {
                ForkJoinPool.managedBlock(wait);
                return wait.released;
            } catch (java.util.concurrent.RejectedExecutionException noSpare) {
                // the pool is at its thread limit and cannot add a spare: wait plainly, as before
            }
        }
        return terminated.await(timeout, unit);
    }

    /** One timed wait on a latch, as a {@link ForkJoinPool.ManagedBlocker}. */
    private static final class TimedWait implements ForkJoinPool.ManagedBlocker {
        private final CountDownLatch latch;
        private final long nanos;
        boolean released;

        TimedWait(CountDownLatch latch, long nanos) {
            this.latch = latch;
            this.nanos = nanos;
        }

        @Override
        public boolean block() throws InterruptedException {
            released = latch.await(nanos, TimeUnit.NANOSECONDS);
            return true; // released or timed out: either way, done blocking
        }

        @Override
        public boolean isReleasable() {
            return released || (released = latch.getCount() == 0);
        }
    }

    /** Busy keys as counted; exact once no producer or drainer is between its steps. */
    long sum() {
        long sum = 0;
        for (int i = 1; i <= mask + 1; i++) {
            sum += (long) CELLS.getVolatile(cells, i * SPACING);
        }
        return sum;
    }

    private void add(long delta) {
        long id = Thread.currentThread().getId();
        int cell = (int) (id ^ (id >>> 16)) * 0x9E3779B9 >>> 16 & mask;
        CELLS.getAndAdd(cells, (cell + 1) * SPACING, delta);
    }
}
