package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@link KeyedSerialExecutor}: a pool thread drains the key's only task, goes idle and retires
 * the lane, while producer X submits 2 then 3 to the same key; the
 * draining thread itself submitted 4 just before it started draining, so X also races it on the tail. r1 = run
 * order (digits), r2 = pool submissions after the first, r3 = keys still registered when all is
 * done. A producer must never append to a retired lane (two live lanes per key would break
 * exclusion and order) and the idle key must be gone at the end. A one-thread pool with other
 * work queued: one key at a time, so a restart needs exactly one new worker, and a worker out of
 * keys leaves (and retires the idle key) without lingering.
 */
@JCStressTest
@Description("keyed: producers vs the drainer retiring an idle key")
@Outcome(
        id = {"234, 0, 0", "243, 0, 0", "423, 0, 0"},
        expect = Expect.ACCEPTABLE,
        desc = "linked before the lane went idle")
@Outcome(
        id = {"234, 1, 0", "243, 1, 0", "423, 1, 0"},
        expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "lane went idle or retired; restarted once")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, duplicated or reordered task, two live lanes, or a leaked key")
@State
public class KeyedExecuteVersusRetire {
    private static final String KEY = "k";
    private final CapturingThreadPool pool = new CapturingThreadPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private int order;
    private final Runnable first;

    public KeyedExecuteVersusRetire() {
        executor.execute(KEY, () -> {});
        first = pool.take();
    }

    @Actor
    public void producerYThenDrainer() {
        executor.execute(KEY, () -> order = order * 10 + 4);
        first.run();
    }

    @Actor
    public void producerX() {
        executor.execute(KEY, () -> order = order * 10 + 2);
        executor.execute(KEY, () -> order = order * 10 + 3);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = pool.runAll();
        r.r1 = order;
        r.r3 = executor.registeredKeys();
    }
}
