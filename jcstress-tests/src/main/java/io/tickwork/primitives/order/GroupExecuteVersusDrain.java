package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link TwoProducerExecuteVersusDrain} on {@link SerialExecutorGroup}'s executor (dispatched
 * lane, resident worker).
 */
@JCStressTest
@Description("group executor: tail swap + release link vs a worker draining, spinning for a successor, going idle")
@State
public class GroupExecuteVersusDrain extends TwoProducerExecuteVersusDrain {
    @Override
    protected SerialExecutor newExecutor(CapturingPool pool) {
        return new SerialExecutorGroup(pool).newSerialExecutor();
    }

    @Actor
    public void producerYThenDrainer() {
        submitFourThenDrain();
    }

    @Actor
    public void producerX() {
        submitTwoThenThree();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        collect(r);
    }
}
