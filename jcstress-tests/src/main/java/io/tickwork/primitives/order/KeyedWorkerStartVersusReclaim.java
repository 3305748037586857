package io.tickwork.primitives.order;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link KeyedSerialExecutor}'s hand-over to a pool that is shut down right after it took a
 * worker, the case where a pool may have dropped it without a word (a {@code ThreadPoolExecutor}'s
 * {@code CallerRunsPolicy}): the producer that submitted the worker takes it back and drains in
 * place, while a pool thread starts the same submission. Exactly one of them may run the worker.
 * The arbiter runs the submission if the pool thread never saw it (a late dequeue). Two runs of
 * the worker would not run the task twice (the key is popped once) but would release its slot
 * twice: so the arbiter also reads the slots held and the workers counted in the pool, both 0
 * once everything ran. r1 = runs of the task, r2 = 1 if it ran in the producer (the worker taken
 * back), 0 on the pool thread, r3 = worker slots held, r4 = workers counted as queued in the pool.
 */
@JCStressTest
@Description("keyed: a pool thread starting a worker vs its submitter taking it back from a shut-down pool")
@Outcome(id = "1, 0, 0, 0", expect = Expect.ACCEPTABLE, desc = "the pool thread ran the worker")
@Outcome(id = "1, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the producer took the worker back and ran the task")
@Outcome(expect = Expect.FORBIDDEN, desc = "the task lost or run twice, or the worker ran twice")
@State
public class KeyedWorkerStartVersusReclaim {

    /** Records one submission, then reports itself shut down. */
    static final class ShutDownAfterOne extends AbstractExecutorService {
        volatile Runnable taken;
        private volatile boolean shutdown;

        @Override
        public void execute(Runnable command) {
            taken = command;
            shutdown = true;
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return false;
        }
    }

    private final ShutDownAfterOne pool = new ShutDownAfterOne();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private final AtomicInteger runs = new AtomicInteger();
    private volatile Thread producer;
    private volatile boolean ranInProducer;
    private volatile boolean startedByPoolThread;

    @Actor
    public void producer() {
        producer = Thread.currentThread();
        executor.execute("A", () -> {
            runs.incrementAndGet();
            ranInProducer = Thread.currentThread() == producer;
        });
    }

    @Actor
    public void poolThread() {
        Runnable submission;
        for (int spins = 0; (submission = pool.taken) == null; spins++) {
            if (spins > 1_000_000) {
                return; // not submitted yet: the arbiter runs it late
            }
            Thread.onSpinWait();
        }
        startedByPoolThread = true;
        submission.run();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        Runnable submission = pool.taken;
        if (!startedByPoolThread && submission != null) {
            submission.run();
        }
        r.r1 = runs.get();
        r.r2 = ranInProducer ? 1 : 0;
        r.r3 = executor.dispatcher.workers();
        r.r4 = executor.dispatcher.inPool;
    }
}
