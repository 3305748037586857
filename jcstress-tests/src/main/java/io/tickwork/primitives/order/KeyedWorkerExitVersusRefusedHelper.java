package io.tickwork.primitives.order;

import java.util.concurrent.RejectedExecutionException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link KeyedSerialExecutor} on a pool that takes one worker and refuses every later one, limit
 * two keys at once: the only worker drains key A and leaves while a producer queues key B. The
 * producer finds a slot held and asks the pool for a second worker, which it refuses; by then
 * the first worker may have left (its slot given back, or taken again to serve B). Whatever the
 * order, B's {@code execute} either accepts it, and B runs exactly once (by the leaving worker,
 * or drained in the producer's thread), or throws {@link RejectedExecutionException}, and B never
 * runs; no slot stays held, and the executor terminates once shut down. r1 = runs of B; r2 = 1 if
 * B's {@code execute} was rejected; r3 = slots held at the end; r4 = 1 if the executor terminated.
 *
 * <p>Power check (by hand): with the refused helper's slot not given back, this test reports
 * (1, 0, 1, 1) in nearly every run.
 */
@JCStressTest
@Description("keyed: a leaving worker vs a producer whose helper the pool refuses, limit 2")
@Outcome(id = "1, 0, 0, 1", expect = Expect.ACCEPTABLE, desc = "B accepted and run once")
@Outcome(
        id = "0, 1, 0, 1",
        expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "B rejected (no worker left and the pool refused one) and never run")
@Outcome(expect = Expect.FORBIDDEN, desc = "B lost, run twice or run though rejected; a slot leaked; no termination")
@State
public class KeyedWorkerExitVersusRefusedHelper {
    private final RefusingPool pool = new RefusingPool();
    private final KeyedSerialExecutor<String> executor =
            KeyedSerialExecutor.builder(pool).maxConcurrentKeys(2).build();
    private final Runnable worker;
    private int bRuns;
    private int bRejected;

    public KeyedWorkerExitVersusRefusedHelper() {
        executor.execute("A", () -> {});
        worker = pool.first;
    }

    @Actor
    public void worker() {
        worker.run();
    }

    @Actor
    public void producer() {
        try {
            executor.execute("B", () -> bRuns++);
        } catch (RejectedExecutionException refused) {
            bRejected = 1;
        }
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        executor.shutdown();
        r.r1 = bRuns;
        r.r2 = bRejected;
        r.r3 = executor.dispatcher.workers();
        r.r4 = executor.isTerminated() ? 1 : 0;
    }

    /** Keeps the first runnable it is given (for the test to run) and refuses every later one. */
    private static final class RefusingPool implements java.util.concurrent.Executor {
        Runnable first;

        @Override
        public synchronized void execute(Runnable command) {
            if (first != null) {
                throw new RejectedExecutionException("one worker only");
            }
            first = command;
        }
    }
}
