package io.tickwork.primitives.order;

import org.junit.jupiter.api.Test;

/**
 * Runs {@link VirtualThreadChecks} on a JDK 21 or later: in place when the build runs on one,
 * else in a child JVM of the first JDK 21+ found ({@link Java21Child}; without one it is
 * skipped, except where the {@code CI} environment variable is set: there it fails).
 */
class VirtualThreadsTest {

    @Test
    void theExecutorsGuaranteesHoldOnVirtualThreads() throws Exception {
        if (Runtime.version().feature() >= 21) {
            VirtualThreadChecks.runAll();
        } else {
            Java21Child.run(VirtualThreadChecks.class, "the virtual-thread checks");
        }
    }
}
