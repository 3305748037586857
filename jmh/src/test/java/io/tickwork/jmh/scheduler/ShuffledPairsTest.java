package io.tickwork.jmh.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code placement=shuffled} pairs tasks at random positions: the pairing covers every position
 * once, it is not the neighbours' one, and a whole invocation of both ping-pongs ends (a task wired
 * to the wrong partner would wait for ever).
 */
@Timeout(120)
class ShuffledPairsTest {

    @Test
    void thePairingIsAPermutationThatSplitsNeighbours() {
        KilimSwitchBenchmark b = new KilimSwitchBenchmark();
        b.placement = "shuffled";
        int[] at = b.pairPositions();
        int[] sorted = at.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            assertEquals(i, sorted[i], "every position once");
        }
        int neighbours = 0;
        for (int p = 0; p < at.length / 2; p++) {
            if (Math.abs(at[2 * p] - at[2 * p + 1]) == 1) {
                neighbours++;
            }
        }
        assertNotEquals(at.length / 2, neighbours);
        assertEquals(0, neighbours, 5, "random pairs are next to each other only by chance");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pingPong", "turnPingPong"})
    void aShuffledInvocationEnds(String method) throws Exception {
        KilimSwitchBenchmark b = new KilimSwitchBenchmark();
        b.scheduler = "tickwork-wheel-list";
        b.threads = 2;
        b.placement = "shuffled";
        b.startScheduler();
        try {
            b.buildTasks("io.tickwork.jmh.scheduler.KilimSwitchBenchmark." + method);
            b.runAll(); // throws if the tasks do not all finish
        } finally {
            b.stopScheduler();
        }
    }

    @Test
    void workloadsWithoutPartnersRefuseIt() {
        KilimSwitchBenchmark b = new KilimSwitchBenchmark();
        b.threads = 2;
        b.placement = "shuffled";
        assertThrows(
                IllegalStateException.class,
                () -> b.buildTasks("io.tickwork.jmh.scheduler.KilimSwitchBenchmark.yield"));
    }
}
