package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link MultiProducerLane}'s swap/close race driven by hand, one step at a time, for the case the
 * stress and jcstress tests reach only by luck: a producer stalled between its tail swap and its
 * link while the drainer tries to close the lane.
 */
class MultiProducerLaneTest {

    @Test
    void aDrainerHandsTheLaneBackOpenInsteadOfWaitingForAStalledProducer() {
        Pools.Manual pool = new Pools.Manual();
        MultiProducerLane lane = new MultiProducerLane(new DrainPolicy(pool, DrainPolicy.DEFAULT_BUDGET, null));
        List<String> log = new ArrayList<>();
        LinkingRunnable first = new LinkingRunnable(() -> log.add("first"), lane);
        lane.append(first);
        Runnable drainer = pool.take();
        assertSame(first, drainer, "an idle lane is started by the producer that displaced null");

        LinkingRunnable second = new LinkingRunnable(() -> log.add("second"), lane);
        lane.tail = second; // a producer's swap (first was the tail); its link is still to come

        // A bound for hang detection only: a drainer that waited for the link would never return.
        assertTimeoutPreemptively(Duration.ofSeconds(30), drainer::run);
        assertEquals(List.of("first"), log);
        Runnable handedBack = pool.take();
        assertSame(first, handedBack, "the lane goes back to the pool still open, to resume after first");
        assertSame(second, lane.tail, "the lane was not closed");

        first.linkReleased(second); // the producer resumes
        handedBack.run();
        assertEquals(List.of("first", "second"), log);
        assertNull(lane.tail, "closed after its last task: idle, and no node kept");
        assertNull(pool.take(), "nothing else submitted");
    }

    @Test
    void aProducerThatDisplacesNullStartsTheLaneAndLinksOtherwise() {
        Pools.Manual pool = new Pools.Manual();
        MultiProducerLane lane = new MultiProducerLane(new DrainPolicy(pool, DrainPolicy.DEFAULT_BUDGET, null));
        List<Integer> log = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int seq = i;
            lane.append(new LinkingRunnable(() -> log.add(seq), lane));
        }
        assertEquals(1, pool.runAll(), "one start for the burst; the others were linked");
        assertEquals(List.of(0, 1, 2), log);
        assertNull(lane.tail);
        lane.append(new LinkingRunnable(() -> log.add(3), lane));
        assertEquals(1, pool.runAll(), "idle again, so the next append starts it again");
        assertEquals(List.of(0, 1, 2, 3), log);
    }
}
