package io.tickwork.jmh.order;

import com.google.common.util.concurrent.MoreExecutors;
import io.tickwork.primitives.order.KeyedSerialExecutor;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;

/**
 * The variant set of {@link OrderedExecutionBenchmark}: ours and the peers, behind one shape
 * ({@code execute(keyIndex, task)}). Per-key structures are built eagerly in {@link #create}, so
 * the benchmark does not measure their construction, except for {@code keyed}, whose per-key
 * state is created and retired on demand by design.
 */
enum OrderSubject {
    /**
     * Ours: one {@link KeyedSerialExecutor} with its defaults; keys are looked up per task, idle
     * keys retired. Closing it waits until every task ran.
     */
    keyed(true) {
        @Override
        Keyed create(Executor pool, int keys, int stripes) {
            KeyedSerialExecutor<Integer> executor = KeyedSerialExecutor.create(pool);
            Integer[] boxed = new Integer[keys];
            for (int k = 0; k < keys; k++) {
                boxed[k] = k; // boxed up front: the benchmark must not measure Integer.valueOf
            }
            return new Keyed() {
                @Override
                public void execute(int key, Runnable task) {
                    executor.execute(boxed[key], task);
                }

                @Override
                public void close() {
                    executor.close();
                }
            };
        }
    },
    /** Peer: Guava {@code MoreExecutors.newSequentialExecutor(pool)} per key. */
    guavaSequential(true) {
        @Override
        Keyed create(Executor pool, int keys, int stripes) {
            return perKey(keys, k -> MoreExecutors.newSequentialExecutor(pool)::execute);
        }
    },
    /** Peer: per key, a ConcurrentLinkedQueue and an AtomicBoolean "scheduled" flag. */
    clqDrainer(true) {
        @Override
        Keyed create(Executor pool, int keys, int stripes) {
            return perKey(keys, k -> new FlagDrainer(new ConcurrentLinkedQueue<>(), pool)::execute);
        }
    },
    /**
     * Peer: per key, a JCTools {@code MpscUnboundedXaddArrayQueue} mailbox and a "scheduled" flag,
     * the actor-mailbox set-up: the XADD queue is the MPSC queue JCTools designs for many
     * concurrent producers (its class comment), with 128-slot chunks and JCTools' default pooling
     * ({@code MpscUnboundedXaddArrayQueue(int chunkSize)}; the chunk has no default: 128 ran ahead
     * of 1,024 at 64 and 100,000 keys and of 64 at 64 keys, docs/results/order.md; the system
     * property {@code tickwork.jctoolsChunk} sets another), drained by the usual
     * drain-then-recheck of {@link FlagDrainer}. No fence per offer: the offer's XADD of the
     * producer index is a volatile read-modify-write, and {@code isEmpty()} compares the consumer
     * index with that producer index, so the drainer's re-check after clearing the flag sees
     * every offer whose producer could still see the flag set. Memory: a 128-slot chunk (512 B
     * with compressed oops) per key plus a pooled one, so about 1.5 MB per 1,000 keys.
     */
    jctoolsMailbox(true) {
        @Override
        Keyed create(Executor pool, int keys, int stripes) {
            int chunk = Integer.getInteger("tickwork.jctoolsChunk", 128);
            return perKey(keys, k -> new FlagDrainer(new MpscUnboundedXaddArrayQueue<>(chunk), pool)::execute);
        }
    },
    /**
     * Peer: key hash picks one of {@code stripes} single-thread executors. Ignores the pool (it
     * is its own pool), and blocks unrelated keys behind a slow one: fast, but not the same contract.
     */
    striped(true) {
        @Override
        Keyed create(Executor pool, int keys, int stripes) {
            int n = stripes;
            ExecutorService[] singles = new ExecutorService[n];
            for (int i = 0; i < n; i++) {
                singles[i] = Executors.newSingleThreadExecutor();
            }
            return new Keyed() {
                @Override
                public void execute(int key, Runnable task) {
                    singles[key % n].execute(task);
                }

                @Override
                public void close() {
                    for (ExecutorService s : singles) {
                        s.shutdownNow();
                    }
                }
            };
        }
    };

    /** Stripes of the {@code striped} peer by default: as many as the fixed pools have threads. */
    static final int STRIPES = 2;

    final boolean concurrentProducers;

    OrderSubject(boolean concurrentProducers) {
        this.concurrentProducers = concurrentProducers;
    }

    /** The variant on {@code pool} for {@code keys} keys; {@code striped} uses {@code stripes} threads of its own. */
    abstract Keyed create(Executor pool, int keys, int stripes);

    Keyed create(Executor pool, int keys) {
        return create(pool, keys, STRIPES);
    }

    interface Keyed {
        void execute(int key, Runnable task);

        default void close() {}
    }

    interface Submit {
        void execute(Runnable task);
    }

    private static Keyed perKey(int keys, IntFunction<Submit> factory) {
        Submit[] perKey = new Submit[keys];
        for (int k = 0; k < keys; k++) {
            perKey[k] = factory.apply(k);
        }
        return (key, task) -> perKey[key].execute(task);
    }

    /**
     * The drainer a user writes by hand: offer, then schedule if not yet scheduled; the drainer
     * polls until empty, clears the flag, and re-checks for a task offered in between. Correct for
     * a queue whose offer is a volatile write (or read-modify-write) that {@code isEmpty()} reads:
     * {@code ConcurrentLinkedQueue} and JCTools' XADD queues. (JCTools' {@code MpscUnboundedArrayQueue}
     * is not such a queue: when it grows a chunk, the producer index goes p, p+1 as a resize lock,
     * then p+2 by a release store, and {@code isEmpty()} reads p+1 as empty, so the re-check can
     * miss an offer and strand a task.)
     */
    static final class FlagDrainer implements Runnable {
        private final Queue<Runnable> queue;
        private final Executor pool;
        private final AtomicBoolean scheduled = new AtomicBoolean();

        FlagDrainer(Queue<Runnable> queue, Executor pool) {
            this.queue = queue;
            this.pool = pool;
        }

        void execute(Runnable task) {
            queue.offer(task);
            if (!scheduled.get() && scheduled.compareAndSet(false, true)) {
                pool.execute(this);
            }
        }

        @Override
        public void run() {
            for (; ; ) {
                for (Runnable task; (task = queue.poll()) != null; ) {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        // a peer as users write it: swallow and go on
                    }
                }
                scheduled.set(false);
                if (queue.isEmpty() || !scheduled.compareAndSet(false, true)) {
                    return;
                }
            }
        }
    }
}
