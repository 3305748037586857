package io.tickwork.primitives.order;

import java.util.concurrent.RejectedExecutionException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link KeyedSerialExecutor}'s queue bound across an idle key's reopening: with
 * {@code maxQueuedPerKey(1)}, producer X reopens the idle key while producer Y reopens it too,
 * drains it (a whole busy period) and appends again. Whatever the interleaving, at most one task
 * waits when the actors are done (exactly one: X's task, or Y's second after Y drained X's), and
 * every accepted task runs. A reopening producer that numbered its task from a sequence read
 * before Y's busy period would let Y's second task in beside X's; a producer that appended behind
 * a lane being reopened would be lost. r1 = tasks waiting after the actors (accepted minus run,
 * counted directly: the executor's own count uses the numbering under test), r2 = accepted minus
 * run once the arbiter drained.
 *
 * <p>The key's lane is marked as queued for a retirement check before the first drain, so the
 * worker that drains it leaves it registered (a worker that leaves retires the idle lanes it
 * holds): the actors then really reopen an idle lane, not create a fresh one.
 *
 * <p>Power: against the naive numbering (the sequence read, then the CAS from idle, no
 * {@code REOPENING} hold) it stayed "1, 0" over 1.8 M samples on 2 cores: that protocol's window
 * is two loads wide and must hold a whole busy period of the other actor, which jcstress does not
 * reach at this size ({@link KeyLaneReopenVersusBusyPeriod} catches it on the lane alone). What
 * this test does check on every sample is the reopen path itself: no task lost, none over the
 * bound.
 */
@JCStressTest
@Description("keyed: maxQueuedPerKey vs a producer reopening an idle key across another's busy period")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the bound held; nothing lost")
@Outcome(expect = Expect.FORBIDDEN, desc = "two tasks waiting under a bound of one, or a task lost")
@State
public class KeyedBoundVersusReopen {
    private final CapturingThreadPool pool = new CapturingThreadPool();
    private final KeyedSerialExecutor<String> executor =
            KeyedSerialExecutor.builder(pool).maxQueuedPerKey(1).<String>build();
    private int accepted;
    private int acceptedY;
    private int runs;

    public KeyedBoundVersusReopen() {
        executor.execute("k", () -> {}); // a lane that has run and is idle: the next execute reopens it
        executor.dispatcher.lanes.get("k").markRetirePending(); // kept registered when the worker leaves
        pool.runAll();
    }

    private int submit() {
        try {
            executor.execute("k", () -> runs++);
            return 1;
        } catch (RejectedExecutionException full) {
            return 0;
        }
    }

    @Actor
    public void producerX() {
        accepted = submit();
    }

    @Actor
    public void producerY() {
        int n = submit();
        pool.runAll(); // Y's busy period (and X's task, if X reopened first): drained here
        acceptedY = n + submit();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = accepted + acceptedY - runs;
        pool.runAll();
        r.r2 = accepted + acceptedY - runs;
    }
}
