package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link KeyedSerialExecutor}'s ready queue of lanes ({@code LaneDispatcher.enqueue} and
 * {@code poll}, used as is): lane X is queued; two producers queue lanes B and C at once (each an
 * XCHG of the tail, then a link), and the second then polls, as a producer draining in place
 * does, while the first may still be between its XCHG and its link. The poll may find X with
 * nothing linked behind it yet and answer null, or take X; never B or C before X. Afterwards the
 * queue is drained: every lane comes out exactly once, with the node its producer set to run
 * from, and the queue reads empty. r1 = what the poll took (0 none, 1 X, 2 B, 3 C, 9 a lane whose
 * {@code continueAt} was not its producer's); r2..r4 = how often X, B, C came out in all (9 if the
 * queue did not read empty at the end).
 *
 * <p>Power check (by hand): with {@code enqueue}'s XCHG split into a read and a write of the
 * tail, this test reports a lane lost (a count of 0).
 */
@JCStressTest
@Description("keyed: two producers queueing lanes at once, one then polling the ready queue")
@Outcome(id = "1, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "the poll took X; each lane came out once")
@Outcome(
        id = "0, 1, 1, 1",
        expect = Expect.ACCEPTABLE,
        desc = "the poll met a producer between its XCHG and its link: nothing yet; each lane came out once")
@Outcome(expect = Expect.FORBIDDEN, desc = "a lane lost, taken twice, out of order, or without its node")
@State
public class ReadyQueueProducersVersusConsumer {
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(new CapturingPool());
    private final LaneDispatcher queue = executor.dispatcher;
    private final KeyLane x = new KeyLane("X", null);
    private final KeyLane b = new KeyLane("B", null);
    private final KeyLane c = new KeyLane("C", null);
    private final TaskNode xFrom = new TaskNode(() -> {});
    private final TaskNode bFrom = new TaskNode(() -> {});
    private final TaskNode cFrom = new TaskNode(() -> {});

    public ReadyQueueProducersVersusConsumer() {
        x.continueAt = xFrom;
        queue.enqueue(x);
    }

    @Actor
    public void producerOfB() {
        b.continueAt = bFrom;
        queue.enqueue(b);
    }

    @Actor
    public void producerOfCThenWorker(IIII_Result r) {
        c.continueAt = cFrom;
        queue.enqueue(c);
        r.r1 = code(queue.poll());
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        int[] counts = new int[10];
        if (r.r1 != 0) {
            counts[r.r1]++;
        }
        for (KeyLane lane; (lane = queue.poll()) != null; ) {
            counts[code(lane)]++;
        }
        boolean empty = queue.looksEmpty();
        r.r2 = empty ? counts[1] : 9;
        r.r3 = empty ? counts[2] : 9;
        r.r4 = empty ? counts[3] + counts[9] * 10 : 9;
    }

    private int code(KeyLane lane) {
        if (lane == null) {
            return 0;
        }
        if (lane == x) {
            return lane.continueAt == xFrom ? 1 : 9;
        }
        if (lane == b) {
            return lane.continueAt == bFrom ? 2 : 9;
        }
        if (lane == c) {
            return lane.continueAt == cFrom ? 3 : 9;
        }
        return 9;
    }
}
