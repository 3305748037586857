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
 * The core race of the link-CAS and self-link tombstone protocol (single-producer lanes) on bare
 * {@link LinkingRunnable}s:
 * a drainer finishing node A (its tombstone CAS) against a producer linking B behind A (its link
 * CAS). Exactly one of them must own B: r1 = times B ran inside the drainer, r2 = 1 if the link
 * CAS won (the producer then must NOT start B itself), else 0 (the producer owns B and would
 * submit it).
 */
@JCStressTest
@Description("link CAS vs tombstone CAS: the successor is owned by exactly one side")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "linked first: the drainer ran B")
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE_INTERESTING, desc = "tombstoned first: the producer owns B")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "B linked but never run: lost task")
@Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "B run by the drainer and owned by the producer: double run")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class LinkVersusTombstone {
    private final CapturingPool pool = new CapturingPool();
    private final Lane lane = new Lane(new DrainPolicy(pool, 1024, null));
    private int bRuns;
    private final LinkingRunnable a = new LinkingRunnable(() -> {}, lane);
    private final LinkingRunnable b = new LinkingRunnable(() -> bRuns++, lane);
    private boolean linked;

    @Actor
    public void drainer() {
        a.run();
    }

    @Actor
    public void producer() {
        linked = a.link(b);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = bRuns;
        r.r2 = linked ? 1 : 0;
        if (pool.size() != 0 || !(a.isTombstoned() || linked)) {
            r.r1 = -1; // the drainer submitted something, or A was left open: forbidden
        }
    }
}
