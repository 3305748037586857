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
 * {@link KeyedSerialExecutor}'s lifecycle on a key that already has work: a producer submits 2 to
 * the key while another thread shuts the executor down and then runs the key's worker, which
 * drains 1 and goes idle. The producer's task joins the busy key's queue before the shutdown, and
 * the worker runs it after 1 before the executor terminates; or it is rejected (a key found idle
 * can only be made busy again before the shutdown, and the worker runs after it), never runs,
 * and the executor terminates once 1 has run. The pool has other work queued, so the worker leaves
 * without lingering. A producer descheduled between its swap of the key's tail and its link
 * outlasts the worker's wait for the link (rare: once in about 500,000 on a loaded 2-core
 * machine): the worker then hands the key back to the pool still open (the close protocol of
 * {@link KeyLane}), and the accepted task runs when the pool runs it, before termination.
 *
 * <p>r1 = accepted (1), rejected (0), plus 2 if {@code shutdown()} had returned before the producer
 * called {@code execute}, r2 = terminated before the arbiter ran the pool's recorded submissions, r3 =
 * the run order then (digits), r4 = the run order at the end, negated if the executor had not
 * terminated by then.
 */
@JCStressTest
@Description("keyed: execute on a busy key vs shutdown and the key's drain")
@Outcome(id = "1, 1, 12, 12", expect = Expect.ACCEPTABLE, desc = "accepted; the worker ran both, then terminated")
@Outcome(
        id = "1, 0, 1, 12",
        expect = Expect.ACCEPTABLE,
        desc = "accepted; the producer stalled between its swap and its link, so the worker handed the key back"
                + " to the pool, which ran 2, then terminated")
@Outcome(
        id = {"0, 1, 1, 1", "2, 1, 1, 1"},
        expect = Expect.ACCEPTABLE,
        desc = "rejected after the shutdown; 1 ran, terminated")
@Outcome(
        expect = Expect.FORBIDDEN,
        desc = "accepted after shutdown() returned, an accepted task lost, run twice or out of order, a rejected"
                + " one run, a termination with an accepted task still queued, or no termination")
@State
public class KeyedShutdownVersusBusyKey {
    private static final String KEY = "k";
    private final CapturingThreadPool pool = new CapturingThreadPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private int order;
    private int accepted;
    private volatile boolean shutdownReturned;
    private final Runnable worker;

    public KeyedShutdownVersusBusyKey() {
        executor.execute(KEY, () -> order = order * 10 + 1);
        worker = pool.take();
    }

    @Actor
    public void producer() {
        int after = shutdownReturned ? 2 : 0;
        try {
            executor.execute(KEY, () -> order = order * 10 + 2);
            accepted = after + 1;
        } catch (RejectedExecutionException e) {
            accepted = after;
        }
    }

    @Actor
    public void closerThenWorker() {
        executor.shutdown();
        shutdownReturned = true;
        worker.run();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = accepted;
        r.r2 = executor.isTerminated() ? 1 : 0;
        r.r3 = order;
        pool.runAll();
        r.r4 = executor.isTerminated() ? order : -order;
    }
}
