package io.tickwork.client.idle;

import io.tickwork.client.common.Targets;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * A validated {@code idle} run. {@code sources} empty means: let the kernel pick the source
 * address. {@code workload} enables the http-kit pattern (idle, request, read, repeat).
 * {@code minAvailable} is the memory guard's floor in bytes (0: off). {@code serverPids}: the
 * server's processes, whose RSS is summed (empty: not measured).
 */
record IdleConfig(
        List<InetSocketAddress> targets,
        List<InetAddress> sources,
        int connections,
        int step,
        int maxPending,
        Duration duration,
        Duration hold,
        Duration connectTimeout,
        boolean workload,
        Duration idleMin,
        Duration idleMax,
        int maxLength,
        String path,
        Duration timeout,
        Targets.Url statsUrl,
        List<Long> serverPids,
        long seed,
        long minAvailable) {

    IdleConfig {
        targets = List.copyOf(targets);
        sources = List.copyOf(sources);
        serverPids = List.copyOf(serverPids);
    }
}
