package io.tickwork.scheduler;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The run loop's wake-up handshake ({@link LoopInbox}, used as is by {@code RunLoop}): a foreign
 * producer offers a task while the loop, finding nothing to do, announces a park and re-checks its
 * inbox. r1 = 1 when the loop's re-check saw the task (it stays awake), 0 when it would park;
 * r2 = 1 when the producer claimed the wake-up (it would call {@code unpark}). The loop parking
 * while nobody unparks it (0, 0) is a lost wake-up: with no timer pending the loop would sleep
 * forever with a task in its inbox.
 *
 * <p>Power check (by hand, see docs/results/scheduler.md): weakening the announcement in
 * {@code LoopInbox.announcePark} from a volatile store to {@code setRelease} lets the store pass
 * the emptiness loads (x86 store buffer) and this test reports (0, 0).
 */
@JCStressTest
@Description("run loop park announcement + inbox re-check vs a producer's offer + parked check")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the loop's re-check found the task; no unpark needed")
@Outcome(
        id = "0, 1",
        expect = Expect.ACCEPTABLE,
        desc = "the loop parks; the producer saw the announcement and unparks it")
@Outcome(
        id = "1, 1",
        expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "both saw each other: the loop stays awake and gets a spare permit")
@Outcome(
        id = "0, 0",
        expect = Expect.FORBIDDEN,
        desc = "lost wake-up: the loop parks with a task in its inbox and nobody unparks it")
@State
public class InboxParkHandshake {
    private static final Object TASK = new Object();

    private final LoopInbox inbox = new LoopInbox();

    @Actor
    public void loop(II_Result r) {
        r.r1 = inbox.announcePark() ? 0 : 1;
    }

    @Actor
    public void producer(II_Result r) {
        r.r2 = inbox.offer(TASK) ? 1 : 0;
    }
}
