package io.tickwork.jmh.timer;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * W1-sparse, the honesty check on W1 ({@link ScheduleExpireBenchmark}, whose loop it inherits): the
 * same 200,000 timers, but spread over the next 1,000,000 time units, so deadlines are nearly all
 * distinct (like nanosecond deadlines) and reach ~1,000 wheel revolutions ahead; the clock
 * advances 1,000 units per step (a loop polling every millisecond on a microsecond clock) until
 * none is left. Score: timers per second.
 *
 * <p>What it shows: the red-black tree without shared deadlines to bucket (one tree node per
 * timer, as {@code TreeMap}), and the wheels, configured as in the other workloads (1 unit per
 * tick, 1,024 ticks), holding most timers in their overflow heap until the wheel comes around:
 * the cost of a wheel sized too small for its deadlines. Agrona keeps far timers in their slot
 * and rescans them every revolution; Kafka adds overflow wheels.
 *
 * <p>Not measured: drawing the deadlines ({@code @Setup}), creating the subject.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SparseDeadlinesBenchmark extends ScheduleExpireBenchmark {

    static final int SPAN = 1_000_000;
    static final int STEP = 1_000;

    @Override
    int span() {
        return SPAN;
    }

    @Override
    int step() {
        return STEP;
    }
}
