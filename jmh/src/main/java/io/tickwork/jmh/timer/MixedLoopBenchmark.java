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
 * W4, a server loop's idle timeouts: {@code live} connections (256, 4,096, 65,536), each with a
 * timeout {@value #TIMEOUT} ticks ahead. Per loop turn (one invocation), {@value #REARMS} random
 * connections show activity and have their timeout re-armed to {@code now + TIMEOUT}, then the
 * clock advances one tick and the due timeouts expire; an expired connection is replaced by a new
 * one, its timeout scheduled at {@code now + TIMEOUT}. Most timers are re-armed many times and
 * fire rarely (with 4,096 live, a connection is re-armed about every 64 ticks, far inside its
 * timeout), as in a server. Score: re-arms per second (64 per invocation, expiry included).
 * A re-arm is tickwork's {@code reschedule}, the peers' cancel plus schedule.
 *
 * <p>{@code rearm}: {@code RESCHEDULE} (a default, with {@code LAZY_FIELD}) calls the adapter's
 * {@code reschedule}; {@code CANCEL_SCHEDULE} makes every subject cancel the timer and schedule a
 * new one, so {@code -p rearm=RESCHEDULE,CANCEL_SCHEDULE} on a wheel measures what its
 * {@code reschedule} saves over the two calls a user would otherwise make. The clock advances one
 * tick per turn, so the wheels' lazy moves (a later deadline is placed when the old slot's tick
 * comes) are paid inside the timed turn. For the peers both values are the same work.
 * {@code LAZY_FIELD} is the idiom any timer allows (Netty's {@code IdleStateHandler}): a re-arm
 * only writes the connection's deadline into a field; when its timer fires early of that
 * deadline, it is scheduled again for the rest, and only a timer that fires at or past it expires
 * the connection. Every subject does it with plain {@code schedule}; it gives the peers the
 * amortisation a lazy {@code reschedule} gives the wheels, so the fair row for W4 is each side's
 * best mode.
 *
 * <p>Not measured: filling the live timers and one timeout's worth of warm-up ticks
 * ({@code @Setup}), drawing random numbers (a precomputed ring of connection indexes).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class MixedLoopBenchmark {

    static final int TIMEOUT = 512;
    static final int REARMS = 64;
    static final int RANDOMS = 1 << 16;

    @Param
    TimerSubject subject;

    @Param({"256", "4096", "65536"})
    int live;

    /** How a connection's timeout is re-armed; see the class comment. */
    public enum Rearm {
        RESCHEDULE,
        CANCEL_SCHEDULE,
        LAZY_FIELD
    }

    @Param({"RESCHEDULE", "LAZY_FIELD"})
    Rearm rearm;

    private TimerAdapter timers;
    /** The subject again, as one of these two (the other is null), and each connection's timer as its users keep it. */
    private LongHandleTimers numbered;

    private long[] handles;
    private ObjectHandleTimers<Object> referenced;
    private Object[] objects;
    private int[] victims;

    private int next;
    private long now = 1_000;
    /** Connections whose timer just expired, refilled after the expire. */
    private int[] expired;

    private int expiredCount;
    /** {@code LAZY_FIELD}: each connection's deadline, as its last activity set it. */
    private long[] due;
    /** Connections that timed out (a lazy timer firing early of its deadline is not one), and a checksum of when. */
    long timedOut;

    long timedOutChecksum;

    @Setup
    public void setup(Blackhole bh) {
        expired = new int[live];
        timers = subject.create(payload -> {
            expired[expiredCount++] = (Integer) payload;
            bh.consume(payload);
        });
        timers.expire(now);
        SplittableRandom rnd = new SplittableRandom(42);
        victims = new int[RANDOMS];
        for (int i = 0; i < RANDOMS; i++) {
            victims[i] = rnd.nextInt(live);
        }
        if (timers instanceof LongHandleTimers) {
            numbered = (LongHandleTimers) timers;
            handles = new long[live];
        } else {
            @SuppressWarnings("unchecked")
            ObjectHandleTimers<Object> objectTimers = (ObjectHandleTimers<Object>) timers;
            referenced = objectTimers;
            objects = new Object[live];
        }
        due = new long[live];
        for (int i = 0; i < live; i++) {
            due[i] = now + 1 + rnd.nextInt(TIMEOUT);
            schedule(i, due[i]);
        }
        for (int i = 0; i < TIMEOUT; i++) {
            turn();
        }
    }

    /** Schedules connection {@code c}'s timeout, keeping its handle or timer object. */
    private void schedule(int c, long deadline) {
        if (numbered != null) {
            handles[c] = numbered.schedule(deadline, TimerSubject.NUMBERS[c]);
        } else {
            objects[c] = referenced.schedule(deadline, TimerSubject.NUMBERS[c]);
        }
    }

    /**
     * One loop turn. The re-arms are written once per kind of handle, each keeping its timers in a
     * local array, as a user keeps them in a field; {@code LAZY_FIELD} keeps none (nothing is
     * cancelled), so its timers are scheduled with {@code add}.
     */
    private int turn() {
        int[] victim = victims;
        int n = next;
        long deadline = now + TIMEOUT;
        long[] d = due;
        boolean lazy = rearm == Rearm.LAZY_FIELD;
        if (lazy) {
            for (int i = 0; i < REARMS; i++) {
                d[victim[n++ & (RANDOMS - 1)]] = deadline;
            }
        } else if (numbered != null) {
            LongHandleTimers t = numbered;
            long[] hs = handles;
            for (int i = 0; i < REARMS; i++) {
                int v = victim[n++ & (RANDOMS - 1)];
                if (rearm == Rearm.RESCHEDULE) {
                    hs[v] = t.reschedule(hs[v], deadline, TimerSubject.NUMBERS[v]);
                } else if (t.cancel(hs[v])) {
                    hs[v] = t.schedule(deadline, TimerSubject.NUMBERS[v]);
                } else {
                    throw new IllegalStateException("cancel of a timer that is not live");
                }
            }
        } else {
            ObjectHandleTimers<Object> t = referenced;
            Object[] os = objects;
            for (int i = 0; i < REARMS; i++) {
                int v = victim[n++ & (RANDOMS - 1)];
                if (rearm == Rearm.RESCHEDULE) {
                    os[v] = t.reschedule(os[v], deadline, TimerSubject.NUMBERS[v]);
                } else if (t.cancel(os[v])) {
                    os[v] = t.schedule(deadline, TimerSubject.NUMBERS[v]);
                } else {
                    throw new IllegalStateException("cancel of a timer that is not live");
                }
            }
        }
        next = n;
        long clock = ++now;
        expiredCount = 0;
        TimerAdapter t = timers;
        int fired = t.expire(clock);
        for (int i = 0; i < expiredCount; i++) {
            int c = expired[i];
            if (lazy) {
                if (d[c] <= clock) {
                    timedOut++;
                    timedOutChecksum += clock * 31 + c;
                    d[c] = clock + TIMEOUT;
                }
                t.add(d[c], TimerSubject.NUMBERS[c]); // the rest of its timeout, or a new one
                continue;
            }
            timedOut++;
            timedOutChecksum += clock * 31 + c;
            schedule(c, clock + TIMEOUT);
        }
        return fired;
    }

    @Benchmark
    @OperationsPerInvocation(REARMS)
    public int loopTurn() {
        return turn();
    }

    /** {@link #loopTurn} outside JMH, for the tests. */
    int turnForTest() {
        return turn();
    }
}
