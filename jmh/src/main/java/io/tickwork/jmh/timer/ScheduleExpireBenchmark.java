package io.tickwork.jmh.timer;

import java.util.SplittableRandom;
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
 * W1, schedule-then-expire: schedule 200,000 timers spread uniformly over the next 1,000 ticks of a
 * virtual clock, then advance the clock one tick at a time, expiring what is due, until none is
 * left. Score: timers per second (each scheduled once and expired once).
 *
 * <p>Not measured: the deadlines (offsets drawn once in {@code @Setup}, the same for every subject),
 * building the subject (created once per trial and reused, so pools and arrays are warm as in a
 * long-running loop), a real clock. Expired timers go to a {@code Blackhole}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ScheduleExpireBenchmark {

    static final int TIMERS = 200_000;
    static final int SPAN = 1000;

    @Param
    Subject subject;

    private TimerAdapter timers;
    private long[] offsets;
    private long now;

    @Setup
    public void setup(Blackhole bh) {
        timers = subject.create(bh);
        SplittableRandom rnd = new SplittableRandom(42);
        offsets = new long[TIMERS];
        for (int i = 0; i < TIMERS; i++) {
            offsets[i] = 1 + rnd.nextInt(span());
        }
    }

    /** How far ahead the deadlines reach, in clock units; {@link SparseDeadlinesBenchmark} widens it. */
    int span() {
        return SPAN;
    }

    /** How far the clock moves between {@code expire} calls. */
    int step() {
        return 1;
    }

    @Benchmark
    @OperationsPerInvocation(TIMERS)
    public int scheduleThenExpire() {
        TimerAdapter t = timers;
        long base = now;
        long[] off = offsets;
        for (int i = 0; i < off.length; i++) {
            t.schedule(base + off[i]);
        }
        int fired = 0;
        long clock = base;
        int step = step();
        while (t.size() != 0) {
            clock += step;
            fired += t.expire(clock);
        }
        now = clock;
        return fired;
    }
}
