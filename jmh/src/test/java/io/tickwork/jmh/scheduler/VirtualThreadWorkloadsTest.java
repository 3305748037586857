package io.tickwork.jmh.scheduler;

import io.tickwork.primitives.order.Java21Child;
import org.junit.jupiter.api.Test;

/**
 * {@link VirtualThreadBenchmark}'s four workloads, 2,000 threads each, on the JDK's virtual threads:
 * every thread ends (a lost hand-off leaves a pair waiting, a duplicated one ends a pinger early and
 * leaves its ponger waiting), each park pair makes exactly its {@code 2 * ROUNDS} moves, none out
 * of turn (a player that goes on without its turn is counted), and the sleepers' run lasts at least
 * one sleeper's sleeps (a workload that skipped its sleeps would not).
 * In place on a JDK 21 or later, else in a child JVM of one ({@link Java21Child}; skipped without
 * one, except under {@code CI}, where it fails).
 */
class VirtualThreadWorkloadsTest {
    private static final int THREADS = 2_000;

    @Test
    void everyWorkloadEndsWithEveryMoveMade() throws Throwable {
        if (Runtime.version().feature() >= 21) {
            main(new String[0]);
        } else {
            Java21Child.run(VirtualThreadWorkloadsTest.class, "the virtual-thread workloads' checks");
        }
    }

    /** The checks, in this JVM (which must have virtual threads); a failure ends it with status 1. */
    public static void main(String[] args) throws Throwable {
        VirtualThreadBenchmark b = new VirtualThreadBenchmark();
        b.threadCount = THREADS;
        b.awaitSeconds = 60;
        b.findVirtualThreads();

        b.build("yield");
        b.yield();
        System.out.println(THREADS + " threads yielded " + VirtualThreadBenchmark.YIELDS + " times each and ended");

        b.build("queuePingPong");
        b.queuePingPong();
        System.out.println(
                THREADS / 2 + " queue pairs passed " + VirtualThreadBenchmark.ROUNDS + " balls each and ended");

        b.build("parkPingPong");
        b.parkPingPong();
        for (int p = 0; p < b.pairs.length; p++) {
            int passes = b.pairs[p].passes;
            if (passes != 2 * VirtualThreadBenchmark.ROUNDS || b.pairs[p].outOfTurn != 0) {
                throw new AssertionError("park pair " + p + " made " + passes + " moves, not "
                        + 2 * VirtualThreadBenchmark.ROUNDS + ", " + b.pairs[p].outOfTurn + " out of turn");
            }
        }
        System.out.println(
                b.pairs.length + " park pairs made " + 2 * VirtualThreadBenchmark.ROUNDS + " moves each, all in turn");

        b.build("sleepExpirations");
        long start = System.nanoTime();
        b.sleepExpirations();
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        if (tookMillis < VirtualThreadBenchmark.SLEEPS) {
            throw new AssertionError(THREADS + " sleepers of " + VirtualThreadBenchmark.SLEEPS + " x 1 ms ended in "
                    + tookMillis + " ms");
        }
        System.out.println(
                THREADS + " sleepers of " + VirtualThreadBenchmark.SLEEPS + " x 1 ms ended in " + tookMillis + " ms");
    }
}
