package io.tickwork.jmh.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import kilim.Scheduler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The turn-passing ping-pong of {@code KilimSwitchBenchmark.turnPingPong} on every kind of scheduler
 * the suite runs, two threads, tasks placed by the scheduler: every pair passes its turn the
 * expected number of times and ends. A resumption that arrives while its task is still on the way
 * to its pause is the race: lost, the pair never ends and the latch times out.
 */
class TurnPingPongTest {
    @ParameterizedTest
    @ValueSource(strings = {"tickwork-wheel-list", "kilim-affine", "kilim-forkjoin"})
    void everyPairPassesItsTurnsAndEnds(String scheduler) throws Exception {
        int pairs = 8, rounds = 20_000;
        Scheduler s = SchedulerSubjects.create(scheduler, 2);
        CountDownLatch done = new CountDownLatch(2 * pairs);
        Coroutines.Turn[] turns = new Coroutines.Turn[pairs];
        try {
            for (int p = 0; p < pairs; p++) {
                Coroutines.Turn pair = turns[p] = new Coroutines.Turn();
                pair.a = new Coroutines.TurnPlayer(pair, 0, rounds, done);
                pair.b = new Coroutines.TurnPlayer(pair, 1, rounds, done);
            }
            for (Coroutines.Turn pair : turns) {
                SchedulerSubjects.start(s, pair.b, 0, false);
                SchedulerSubjects.start(s, pair.a, 0, false);
            }
            assertTrue(
                    done.await(60, TimeUnit.SECONDS), done.getCount() + " of " + 2 * pairs + " players still waiting");
        } finally {
            SchedulerSubjects.stop(s);
        }
        for (Coroutines.Turn pair : turns) {
            assertEquals(2 * rounds, pair.passes, "passes of a pair");
            assertEquals(0, pair.turn, "an even number of passes leaves the turn with the first player");
        }
    }
}
