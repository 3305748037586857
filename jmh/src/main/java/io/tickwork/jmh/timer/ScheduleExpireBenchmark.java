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
 * W1, schedule-then-expire at a given density: rounds of {@code timersPerTick × 1,000} timers, each
 * round scheduling its timers uniformly over the next 1,000 ticks of a virtual clock, then
 * advancing the clock one tick at a time, expiring what is due, until none is left. Every
 * invocation runs as many rounds as make {@value #TIMERS} timers, so the score is timers per
 * second (each scheduled once and expired once) at every density.
 *
 * <p>{@code timersPerTick} sweeps the density: 1 (a wheel steps over mostly empty slots; a tree
 * holds few nodes), 16, 256 (a busy server's idle timeouts), 4,096 (Agrona scans a long spoke
 * linearly; tickwork's ring slots of 512 spill to their overflow chunks).
 *
 * <p>Not measured: the deadlines (offsets drawn once in {@code @Setup}, the same sequence for every
 * subject), building the subject (created once per trial and reused, so pools and arrays are warm
 * as in a long-running loop), a real clock. Expired timers go to a {@code Blackhole}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ScheduleExpireBenchmark {

    static final int SPAN = 1000;
    /** Timers per invocation: a multiple of every {@code timersPerTick × SPAN} swept. */
    static final int TIMERS = 4096 * SPAN;

    @Param
    TimerSubject subject;

    @Param({"1", "16", "256", "4096"})
    int timersPerTick;

    private TimerAdapter timers;
    private int[] offsets;
    private long now;

    @Setup
    public void setup(Blackhole bh) {
        if (TIMERS % (timersPerTick * SPAN) != 0) {
            throw new IllegalArgumentException("timersPerTick must divide 4096: " + timersPerTick);
        }
        timers = subject.create(bh);
        offsets = offsets(TIMERS, SPAN);
    }

    /** {@code count} offsets uniform in {@code 1..span}, the same sequence for every subject. */
    static int[] offsets(int count, int span) {
        SplittableRandom rnd = new SplittableRandom(42);
        int[] offsets = new int[count];
        for (int i = 0; i < count; i++) {
            offsets[i] = 1 + rnd.nextInt(span);
        }
        return offsets;
    }

    /**
     * Schedules {@code off[from .. from + count)} relative to {@code base}, then steps the clock by
     * {@code step} until every timer fired; returns the clock it stopped at.
     */
    static long round(TimerAdapter t, long base, int[] off, int from, int count, int step) {
        for (int i = from, end = from + count; i < end; i++) {
            t.add(base + off[i], TimerSubject.PAYLOAD);
        }
        long clock = base;
        while (t.size() != 0) {
            clock += step;
            t.expire(clock);
        }
        return clock;
    }

    @Benchmark
    @OperationsPerInvocation(TIMERS)
    public long scheduleThenExpire() {
        int perRound = timersPerTick * SPAN;
        long clock = now;
        for (int from = 0; from < TIMERS; from += perRound) {
            clock = round(timers, clock, offsets, from, perRound, 1);
        }
        now = clock;
        return clock;
    }
}
