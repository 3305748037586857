package io.tickwork.jmh.timer;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * W2, steady state: each invocation advances the virtual clock by one tick, expires the due timers
 * and schedules each again, so about {@code timersPerTick} timers expire per tick. Where again:
 * {@code rearm = SPREAD}, at {@code now + random(1..1000)} ({@code timersPerTick × 500} live, the
 * whole 1,024-tick wheel in use); {@code rearm = AHEAD_256}, at exactly {@code now + 256}
 * ({@code timersPerTick × 256} live, well inside the wheel, every tick's timers in one slot). The
 * primary score is ticks per second; the auxiliary {@code expirations} score is
 * expired-and-rescheduled timers per second, the number to compare (every subject expires exactly
 * the same number per tick). {@code gc.alloc.rate.norm} is bytes per tick: divide by
 * {@code timersPerTick} for bytes per timer.
 *
 * <p>Not measured: filling the live timers and 2,000 ticks of warm-up to reach the steady-state
 * deadline distribution ({@code @Setup}), drawing random numbers (a precomputed ring of offsets).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SteadyStateBenchmark {

    static final int SPAN = 1000;
    static final int AHEAD = 256;
    static final int OFFSETS = 1 << 20;

    /** Where an expired timer is scheduled again. */
    public enum Rearm {
        SPREAD,
        AHEAD_256
    }

    @Param
    TimerSubject subject;

    @Param({"1", "16", "256", "4096"})
    int timersPerTick;

    @Param
    Rearm rearm;

    private TimerAdapter timers;
    private long[] offsets;
    private int next;
    private long now;

    /** Expired-and-rescheduled timers, reported per second beside the primary ticks/s. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Expirations {
        public long expirations;

        @Setup(Level.Iteration)
        public void reset() {
            expirations = 0;
        }
    }

    @Setup
    public void setup(Blackhole bh) {
        timers = subject.create(bh);
        SplittableRandom rnd = new SplittableRandom(42);
        offsets = new long[OFFSETS];
        for (int i = 0; i < OFFSETS; i++) {
            offsets[i] = rearm == Rearm.SPREAD ? 1 + rnd.nextInt(SPAN) : AHEAD;
        }
        if (rearm == Rearm.SPREAD) {
            for (int i = 0, live = timersPerTick * SPAN / 2; i < live; i++) {
                timers.add(now + offsets[next++ & (OFFSETS - 1)], TimerSubject.PAYLOAD);
            }
        } else {
            for (int tick = 1; tick <= AHEAD; tick++) {
                for (int i = 0; i < timersPerTick; i++) {
                    timers.add(now + tick, TimerSubject.PAYLOAD);
                }
            }
        }
        for (int i = 0; i < 2 * SPAN; i++) {
            tick();
        }
    }

    private int tick() {
        TimerAdapter t = timers;
        long clock = ++now;
        int fired = t.expire(clock);
        long[] off = offsets;
        int n = next;
        for (int i = 0; i < fired; i++) {
            t.add(clock + off[n++ & (OFFSETS - 1)], TimerSubject.PAYLOAD);
        }
        next = n;
        return fired;
    }

    @Benchmark
    public int tick(Expirations counters) {
        int fired = tick();
        counters.expirations += fired;
        return fired;
    }
}
