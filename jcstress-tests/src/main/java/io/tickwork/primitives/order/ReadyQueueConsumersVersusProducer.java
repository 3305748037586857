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
 * {@link KeyedSerialExecutor}'s ready queue ({@code LaneDispatcher.enqueue} and {@code poll}, used
 * as is), its consumers' side: lane X is queued, the last one, so a poll that takes it must put
 * the stub behind it (an XCHG of the tail, as a producer's); a worker polls while a producer
 * queues lane B and then polls too. Consumers take turns, so the two polls never take the same
 * lane; B never comes out before X; and the producer's poll, after its whole enqueue, always
 * finds a lane. Afterwards the queue is drained: each lane comes out exactly once. r1, r2 = what
 * the worker's and the producer's polls took (0 none, 1 X, 2 B); r3, r4 = how often X and B came
 * out in all (9 if the queue did not read empty at the end).
 *
 * <p>Power check (by hand): with {@code poll}'s lock taken by a plain write instead of its
 * compare-and-set, this test reports X taken by both polls.
 */
@JCStressTest
@Description("keyed: a worker polling the ready queue vs a producer queueing a lane, then polling")
@Outcome(id = "1, 2, 1, 1", expect = Expect.ACCEPTABLE, desc = "the worker took X, the producer B")
@Outcome(id = "2, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "the producer took X, the worker B")
@Outcome(
        id = "0, 1, 1, 1",
        expect = Expect.ACCEPTABLE,
        desc = "the worker met the producer between its XCHG and its link: nothing; the producer took X")
@Outcome(expect = Expect.FORBIDDEN, desc = "a lane taken twice, lost, or B before X")
@State
public class ReadyQueueConsumersVersusProducer {
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(new CapturingPool());
    private final LaneDispatcher queue = executor.dispatcher;
    private final KeyLane x = new KeyLane("X", null);
    private final KeyLane b = new KeyLane("B", null);

    public ReadyQueueConsumersVersusProducer() {
        queue.enqueue(x);
    }

    @Actor
    public void worker(IIII_Result r) {
        r.r1 = code(queue.poll());
    }

    @Actor
    public void producerThenWorker(IIII_Result r) {
        queue.enqueue(b);
        r.r2 = code(queue.poll());
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        int[] counts = new int[3];
        counts[r.r1]++;
        counts[r.r2]++;
        for (KeyLane lane; (lane = queue.poll()) != null; ) {
            counts[code(lane)]++;
        }
        boolean empty = queue.looksEmpty();
        r.r3 = empty ? counts[1] : 9;
        r.r4 = empty ? counts[2] : 9;
    }

    private int code(KeyLane lane) {
        return lane == null ? 0 : lane == x ? 1 : 2;
    }
}
