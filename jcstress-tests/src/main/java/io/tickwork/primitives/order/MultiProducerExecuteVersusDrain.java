package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/** {@link TwoProducerExecuteVersusDrain} on {@link MultiProducerSerialExecutor}. */
@JCStressTest
@Description("multi-producer tail swap + release link vs the drainer's closing CAS of the tail")
@State
public class MultiProducerExecuteVersusDrain extends TwoProducerExecuteVersusDrain {
    @Override
    protected SerialExecutor newExecutor(CapturingPool pool) {
        return new MultiProducerSerialExecutor(pool);
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
