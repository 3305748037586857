package io.tickwork.jmh.timer;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * W1-sparse, the honesty check on W1 ({@link ScheduleExpireBenchmark}, whose round it runs): the
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
public class SparseDeadlinesBenchmark {

    static final int TIMERS = 200_000;
    static final int SPAN = 1_000_000;
    static final int STEP = 1_000;

    @Param
    TimerSubject subject;

    private TimerAdapter timers;
    private int[] offsets;
    private long now;

    @Setup
    public void setup(Blackhole bh) {
        timers = subject.create(bh);
        offsets = ScheduleExpireBenchmark.offsets(TIMERS, SPAN);
    }

    @Benchmark
    @OperationsPerInvocation(TIMERS)
    public long scheduleThenExpire() {
        now = ScheduleExpireBenchmark.round(timers, now, offsets, 0, TIMERS, STEP);
        return now;
    }
}
