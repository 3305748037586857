package io.tickwork.primitives.order;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** Pools for tests, and a pool whose acceptance the test controls. */
final class Pools {
    private Pools() {}

    static ExecutorService threadPool(int threads) {
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
    }

    static ExecutorService forkJoin(int parallelism) {
        return new ForkJoinPool(parallelism);
    }

    static void shutdownAndAwait(ExecutorService pool) throws InterruptedException {
        pool.shutdown();
        if (!pool.awaitTermination(60, TimeUnit.SECONDS)) {
            throw new AssertionError("pool did not terminate within 60 s: " + pool);
        }
    }

    /** Holds submitted runnables until the test runs them; rejects while {@link #rejecting} is set. */
    static final class Manual implements java.util.concurrent.Executor {
        final List<Runnable> submitted = new ArrayList<>();
        final AtomicBoolean rejecting = new AtomicBoolean();
        Runnable beforeReject; // run inside execute() just before rejecting, once

        @Override
        public synchronized void execute(Runnable command) {
            if (rejecting.get()) {
                Runnable hook = beforeReject;
                beforeReject = null;
                if (hook != null) {
                    hook.run();
                }
                throw new java.util.concurrent.RejectedExecutionException("test pool rejects");
            }
            submitted.add(command);
        }

        synchronized Runnable take() {
            return submitted.isEmpty() ? null : submitted.remove(0);
        }

        /** Runs submitted runnables until none is left; returns how many ran. */
        int runAll() {
            int n = 0;
            for (Runnable r; (r = take()) != null; n++) {
                r.run();
            }
            return n;
        }
    }
}
