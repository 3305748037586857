package io.tickwork.client.bench;

import io.tickwork.client.common.UsageException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * A validated {@code bench} run: where, what requests (pre-encoded), how many connections and
 * requests in flight, how long an unmeasured warm-up first (zero: none), then for how long or
 * how many, and at what rate (0 = closed loop); whether the selector threads busy-poll.
 */
record BenchConfig(
        InetSocketAddress address,
        String target,
        List<byte[]> requests,
        int connections,
        int depth,
        int threads,
        Duration warmup,
        Duration duration,
        long count,
        double rate,
        Duration timeout,
        Duration connectTimeout,
        long seed,
        boolean spin) {

    BenchConfig {
        requests = List.copyOf(requests);
        if (requests.isEmpty()) {
            throw new UsageException("bench needs at least one request URL");
        }
        if (threads > connections) {
            threads = connections;
        }
    }

    int maxRequestBytes() {
        int m = 0;
        for (byte[] r : requests) {
            m = Math.max(m, r.length);
        }
        return m;
    }

    boolean warmsUp() {
        return !warmup.isZero();
    }

    boolean openLoop() {
        return rate > 0;
    }
}
