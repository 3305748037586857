package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link KeyedSerialExecutor} with one slot ({@code maxConcurrentKeys(1)}), held by a busy worker
 * that is about to run another pool task in place and gives its slot up for it
 * ({@link LaneDispatcher#giveUpSlotForOtherTask}), while a producer makes key B ready. Either the
 * producer sees the slot free and starts a worker, or the worker sees B and takes its slot back
 * (to go back to the pool with it); never neither, since the other task may be waiting on B, and
 * never both, over the limit. r1 = 1 if the worker took its slot back, r2 = workers the producer
 * submitted to the pool.
 *
 * <p>The broken order this catches: the worker not reading the ready queue again after the
 * release (or reading it before): the producer, which read the slot still held, relies on a
 * worker that is now off running something else: "0, 0" in 2 to 4 % of the samples here.
 */
@JCStressTest
@Description("keyed: a worker giving its only slot up for a task run in place vs a key made ready")
@Outcome(
        id = {"1, 0", "0, 1"},
        expect = Expect.ACCEPTABLE,
        desc = "one of them runs B")
@Outcome(expect = Expect.FORBIDDEN, desc = "nobody runs B, or two workers over a limit of one")
@State
public class KeyedSlotGivenUpVersusSchedule {
    private final CapturingThreadPool pool = new CapturingThreadPool();
    private final KeyedSerialExecutor<String> executor =
            KeyedSerialExecutor.builder(pool).maxConcurrentKeys(1).<String>build();
    private final LaneDispatcher dispatcher = executor.dispatcher;

    public KeyedSlotGivenUpVersusSchedule() {
        dispatcher.addCtl(1); // a worker runs, busy, holding the only slot
    }

    @Actor
    public void worker(II_Result r) {
        r.r1 = dispatcher.giveUpSlotForOtherTask(false) ? 1 : 0;
    }

    @Actor
    public void producer() {
        executor.execute("B", () -> {});
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = pool.submittedCount();
    }
}
