package io.tickwork.primitives.order;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * What the executor may learn about the pool it was given, beyond {@code execute}: how many tasks
 * it can run at once, whether it is shut down, and whether it has other work waiting. One
 * implementation per kind of pool, chosen once at construction, so the hot paths make one
 * monomorphic call.
 */
abstract class PoolView {
    /** No known limit: each ready key may get a pool thread of its own. */
    static final int UNBOUNDED = Integer.MAX_VALUE;

    final Executor pool;

    private PoolView(Executor pool) {
        this.pool = pool;
    }

    static PoolView of(Executor pool) {
        if (pool instanceof ForkJoinPool fj) {
            return new ForkJoin(fj);
        }
        if (pool instanceof ThreadPoolExecutor tpe) {
            return new ThreadPool(tpe);
        }
        if (pool instanceof ExecutorService service) {
            return new Service(service, isJdkSingleThread(service) ? 1 : UNBOUNDED);
        }
        return new Plain(pool);
    }

    /**
     * Whether {@code service} is what {@code Executors.newSingleThreadExecutor()} or
     * {@code newSingleThreadScheduledExecutor()} returns: a one-thread pool behind a wrapper that
     * hides it ({@code FinalizableDelegatedExecutorService} to JDK 20,
     * {@code AutoShutdownDelegatedExecutorService} from 21, {@code DelegatedScheduledExecutorService}).
     * Recognised by name, since nothing else tells it from the unbounded executors: its capacity is
     * 1. ({@code unconfigurableScheduledExecutorService} makes the last wrapper too, around any
     * scheduled pool: counted as 1 as well, the limit then lower than the pool's.)
     */
    static boolean isJdkSingleThread(ExecutorService service) {
        String name = service.getClass().getName();
        return name.equals("java.util.concurrent.Executors$FinalizableDelegatedExecutorService")
                || name.equals("java.util.concurrent.Executors$AutoShutdownDelegatedExecutorService")
                || name.equals("java.util.concurrent.Executors$DelegatedScheduledExecutorService");
    }

    /**
     * Tasks the pool runs at once, as configured at this call: a {@code ForkJoinPool}'s
     * parallelism; a {@code ThreadPoolExecutor}'s maximum pool size if its queue holds nothing
     * (a {@code SynchronousQueue}), else its core size (at least 1), since a pool grows past its
     * core only when its queue is full, and the executor keeps about one worker waiting there; 1 for
     * {@code Executors.newSingleThreadExecutor()} and {@code newSingleThreadScheduledExecutor()};
     * unbounded for anything else (a thread per task, virtual threads, an unknown executor).
     */
    abstract int capacity();

    /** Whether the pool is an {@link ExecutorService} that was shut down; false if unknown. */
    abstract boolean isShutdown();

    /**
     * Tasks queued in the pool and not yet running, an estimate; 0 if unknown. A hint: lingering
     * on a pool thread, or keeping it for long, is only worth it when nothing else waits.
     */
    abstract long queuedTasks();

    @Override
    public String toString() {
        return pool.toString();
    }

    private static final class ForkJoin extends PoolView {
        private final ForkJoinPool fj;

        ForkJoin(ForkJoinPool fj) {
            super(fj);
            this.fj = fj;
        }

        @Override
        int capacity() {
            return Math.max(1, fj.getParallelism());
        }

        @Override
        boolean isShutdown() {
            return fj.isShutdown();
        }

        @Override
        long queuedTasks() {
            return fj.getQueuedSubmissionCount() + fj.getQueuedTaskCount();
        }
    }

    private static final class ThreadPool extends PoolView {
        private final ThreadPoolExecutor tpe;
        private final BlockingQueue<Runnable> queue;

        ThreadPool(ThreadPoolExecutor tpe) {
            super(tpe);
            if (tpe.getRejectedExecutionHandler() instanceof ThreadPoolExecutor.DiscardPolicy
                    || tpe.getRejectedExecutionHandler() instanceof ThreadPoolExecutor.DiscardOldestPolicy) {
                // a discarded worker would leave the keys queued for it stranded, unseen
                throw new IllegalArgumentException(
                        "a pool that silently discards tasks loses keyed work; use AbortPolicy or CallerRunsPolicy: "
                                + tpe.getRejectedExecutionHandler().getClass().getName());
            }
            this.tpe = tpe;
            this.queue = tpe.getQueue();
        }

        @Override
        int capacity() {
            // a pool grows past its core only when its queue is full; the executor keeps about
            // one worker waiting in it, so only a queue that holds nothing (a SynchronousQueue)
            // lets the pool reach its maximum; any other, bounded or not, keeps it at its core
            if ((long) queue.remainingCapacity() + queue.size() == 0) {
                return Math.max(1, tpe.getMaximumPoolSize());
            }
            return Math.max(1, tpe.getCorePoolSize());
        }

        @Override
        boolean isShutdown() {
            return tpe.isShutdown();
        }

        @Override
        long queuedTasks() {
            return queue.size();
        }
    }

    private static final class Service extends PoolView {
        private final ExecutorService service;
        private final int capacity;

        Service(ExecutorService service, int capacity) {
            super(service);
            this.service = service;
            this.capacity = capacity;
        }

        @Override
        int capacity() {
            return capacity;
        }

        @Override
        boolean isShutdown() {
            return service.isShutdown();
        }

        @Override
        long queuedTasks() {
            return 0;
        }
    }

    private static final class Plain extends PoolView {
        Plain(Executor pool) {
            super(pool);
        }

        @Override
        int capacity() {
            return UNBOUNDED;
        }

        @Override
        boolean isShutdown() {
            return false;
        }

        @Override
        long queuedTasks() {
            return 0;
        }
    }
}
