package io.tickwork.jmh.order;

import io.tickwork.primitives.order.Java21Child;
import org.junit.jupiter.api.Test;

/**
 * {@link OrderSubjectsTest}'s check, every variant and peer adapter, on the {@code virtual} pool
 * the benchmarks publish rows for: in place on a JDK 21 or later, else in a child JVM of one
 * ({@link Java21Child}; skipped without one, except under {@code CI}, where it fails).
 */
class OrderSubjectsOnVirtualThreadsTest {

    @Test
    void everyVariantKeepsTheOrderOnVirtualThreads() throws Exception {
        if (BenchPools.virtualThreadsAvailable()) {
            main(new String[0]);
        } else {
            Java21Child.run(OrderSubjectsOnVirtualThreadsTest.class, "the adapters' checks on virtual threads");
        }
    }

    /** The checks, in this JVM (which must have virtual threads); a failure ends it with status 1. */
    public static void main(String[] args) throws Exception {
        OrderSubjectsTest check = new OrderSubjectsTest();
        for (OrderSubject v : OrderSubject.values()) {
            for (int keys : new int[] {1, 7, 1000}) {
                check.eachKeysTasksRunOnceInSubmissionOrder(v, "virtual", keys);
                System.out.println(v + " on virtual threads, " + keys + " keys: ordered, each task once");
            }
        }
    }
}
