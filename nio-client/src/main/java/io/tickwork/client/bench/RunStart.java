package io.tickwork.client.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The start line of a {@code bench} run: each worker says when it has begun every one of its
 * first connects, and when every one of its connections has connected or failed its first
 * connect, and the run's clock (warm-up, duration, the open loop's
 * schedule) starts once all have, so the client's own connect phase is neither charged to the
 * server's latency nor counted in the run's time. The caller of {@link #go} publishes the times;
 * the latch orders them before any worker reads them. Thread safe.
 */
final class RunStart {
    private final CountDownLatch issued;
    private final CountDownLatch settled;
    private final CountDownLatch go = new CountDownLatch(1);
    private long start;
    private long warmEnd;
    private long end;

    RunStart(int workers) {
        issued = new CountDownLatch(workers);
        settled = new CountDownLatch(workers);
    }

    /**
     * A worker has begun every one of its first connects (a kernel slow to connect, with many
     * ports in use, may take seconds over thousands); once per worker.
     */
    void issued() {
        issued.countDown();
    }

    /** Waits up to {@code ms} for every worker to have {@link #issued}; true if all have. */
    boolean awaitIssued(long ms) throws InterruptedException {
        return issued.await(ms, TimeUnit.MILLISECONDS);
    }

    /** A worker's first connects have all ended, connected or failed; once per worker. */
    void settled() {
        settled.countDown();
    }

    /** Waits up to {@code ms} for every worker to have {@link #settled}; true if all have. */
    boolean awaitSettled(long ms) throws InterruptedException {
        return settled.await(ms, TimeUnit.MILLISECONDS);
    }

    /** Starts the run's clock; called once, by the thread that runs the workers. */
    void go(long start, long warmEnd, long end) {
        this.start = start;
        this.warmEnd = warmEnd;
        this.end = end;
        go.countDown();
    }

    /** Waits up to {@code ms} for {@link #go}; true once it was called. */
    boolean awaitGo(long ms) throws InterruptedException {
        return go.await(ms, TimeUnit.MILLISECONDS);
    }

    /** After {@link #awaitGo} returned true: the run's start, in {@link System#nanoTime()}. */
    long start() {
        return start;
    }

    long warmEnd() {
        return warmEnd;
    }

    long end() {
        return end;
    }
}
