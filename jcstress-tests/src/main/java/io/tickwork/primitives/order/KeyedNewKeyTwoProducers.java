package io.tickwork.primitives.order;

import java.util.ArrayList;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link KeyedSerialExecutor}: two producers submit the first task of the same new key at once.
 * Each creates a lane and counts the key busy; the map's {@code putIfAbsent} keeps one, and the
 * loser takes its count back and appends to the winner's lane. So one lane is made ready, holding
 * both tasks, each run once; and once shut down the executor terminates (no busy count left
 * behind, no lane left registered). r1, r2 = runs of each producer's task; r3 = lanes made
 * ready; r4 = 1 if, after the runs and a shutdown, the executor terminated with no key
 * registered.
 *
 * <p>Power check (by hand): with the map's {@code putIfAbsent} replaced by a {@code get} then a
 * {@code put}, both lanes are made ready (r3 = 2): two drains of one key, which could run at once
 * on two threads.
 */
@JCStressTest
@Description("keyed: two producers creating the same key's lane at once")
@Outcome(id = "1, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "one lane, both tasks run once, terminated")
@Outcome(expect = Expect.FORBIDDEN, desc = "two lanes for one key, a task lost or run twice, or a busy count leaked")
@State
public class KeyedNewKeyTwoProducers {
    private final CapturingPool pool = new CapturingPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private int firstRuns;
    private int secondRuns;

    @Actor
    public void firstProducer() {
        executor.execute("k", () -> firstRuns++);
    }

    @Actor
    public void secondProducer() {
        executor.execute("k", () -> secondRuns++);
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        LaneDispatcher queue = executor.dispatcher;
        List<KeyLane> ready = new ArrayList<>(2);
        for (KeyLane lane; (lane = queue.poll()) != null; ) {
            ready.add(lane);
        }
        ready.forEach(queue::enqueue); // back, in order, for the captured worker to drain
        pool.runAll();
        executor.shutdown();
        r.r1 = firstRuns;
        r.r2 = secondRuns;
        r.r3 = ready.size();
        r.r4 = executor.isTerminated() && executor.registeredKeys() == 0 ? 1 : 0;
    }
}
