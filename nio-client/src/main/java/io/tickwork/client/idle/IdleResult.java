package io.tickwork.client.idle;

import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.JsonWriter;
import io.tickwork.client.common.OsError;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The outcome of an {@code idle} run: what was reached, what failed by kind, what stopped the
 * ramp (an OS limit or the memory guard; null if nothing did), memory before and at the end of
 * the ramp, and the machine's MemAvailable and TCP memory at the end. Immutable; {@link #toJson}
 * gives the machine-readable form, on one line.
 */
record IdleResult(
        int target,
        int connectedAtEnd,
        int peak,
        long attempts,
        Map<OsError, Long> failures,
        OsError hardLimit,
        String hardLimitMessage,
        String stoppedBy,
        long closedByServer,
        long requests,
        long responseBytes,
        long timeouts,
        long badResponses,
        long closedUnanswered,
        long non2xx,
        Histogram latency,
        IdleMemory before,
        IdleMemory atRamp,
        SystemMemory system,
        long memAvailableMin,
        long guardFloor,
        boolean guardEnabled,
        double elapsedSeconds) {

    IdleResult {
        failures = Map.copyOf(failures);
    }

    long failed(OsError kind) {
        return failures.getOrDefault(kind, 0L);
    }

    String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "idle: %d of %d connected at the end (peak %d), %d " + "connect attempts, %.1fs%n",
                connectedAtEnd,
                target,
                peak,
                attempts,
                elapsedSeconds));
        sb.append("  failures   ")
                .append(failures.isEmpty() ? "none" : failures.toString())
                .append('\n');
        if (stoppedBy != null) {
            sb.append("  stopped by ").append(stoppedBy).append('\n');
        }
        if (hardLimit != null) {
            sb.append("  ceiling    ")
                    .append(hardLimit.name())
                    .append(" (")
                    .append(hardLimit.what())
                    .append("): ")
                    .append(hardLimitMessage)
                    .append('\n');
            sb.append("  raise it   ").append(hardLimit.advice()).append('\n');
        }
        sb.append("  closed     ").append(closedByServer).append(" by the server\n");
        if (requests > 0 || timeouts > 0 || badResponses > 0 || closedUnanswered > 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  workload   %d responses (%d non-2xx), %s read, %d timeouts, "
                            + "%d bad responses, %d closed unanswered, latency %s%n",
                    requests,
                    non2xx,
                    Fmt.bytes(responseBytes),
                    timeouts,
                    badResponses,
                    closedUnanswered,
                    latency.getTotalCount() == 0
                            ? "none (no response)"
                            : "p50 " + Fmt.nanos(latency.getValueAtPercentile(50)) + " p99 "
                                    + Fmt.nanos(latency.getValueAtPercentile(99)) + " max "
                                    + Fmt.nanos(latency.getMaxValue())));
        }
        sb.append("  memory     before: ").append(before.describe(null, 0)).append('\n');
        sb.append("             at ")
                .append(peak)
                .append(" connections: ")
                .append(atRamp.describe(before, peak))
                .append('\n');
        sb.append("  system     ")
                .append(system.describe())
                .append(" (mem: pages of ")
                .append(SystemMemory.PAGE_SIZE)
                .append(" B assumed); lowest MemAvailable ")
                .append(Fmt.bytes(memAvailableMin))
                .append('\n');
        sb.append("  guard      ")
                .append(
                        guardEnabled
                                ? "MemAvailable floor " + Fmt.bytes(guardFloor)
                                : guardFloor > 0 ? "off (no MemAvailable in /proc/meminfo)" : "off (--min-available 0)")
                .append('\n');
        return sb.toString();
    }

    long failedTotal() {
        return total(failures);
    }

    /** The sum of failures of every kind. */
    static long total(Map<OsError, Long> failures) {
        long n = 0;
        for (long v : failures.values()) {
            n += v;
        }
        return n;
    }

    /** {@code "failed":{"total":N,"by_kind":{KIND:N,...}}}, kinds in their declared order. */
    static void writeFailed(JsonWriter j, Map<OsError, Long> failures) {
        j.object("failed");
        j.field("total", total(failures));
        j.object("by_kind");
        new TreeMap<>(failures).forEach((k, v) -> j.field(k.name(), v));
        j.end();
        j.end();
    }

    /**
     * One JSON object: {@code tool, targets, target, connected, peak, attempts, elapsed_s,
     * failed{total, by_kind{KIND:n}}, limit_hit (null or {kind, what, message, advice}),
     * stopped_by (null or why the ramp stopped), closed_by_server, workload{...},
     * memory{connections, client{...}, server{...}}, system{mem_available_bytes,
     * mem_available_min_bytes, tcp_inuse, tcp_mem_bytes, tcp_mem_page_size, guard_enabled,
     * guard_floor_bytes}}. Memory figures are bytes; {@code *_per_conn} is the delta divided by
     * {@code memory.connections} (the peak), null where the figure shrank (garbage freed between the
     * readings: no cost per connection can be read off it); a measure that was not taken is null. The writer
     * emits no line breaks, so the object is one line.
     */
    String toJson(IdleConfig cfg) {
        JsonWriter j = new JsonWriter();
        j.begin();
        fields(j, cfg);
        j.end();
        return j.toString();
    }

    /** The fields of {@link #toJson} into an object {@code j} has begun; the caller may add more and end it. */
    void fields(JsonWriter j, IdleConfig cfg) {
        j.field("tool", "tickwork idle");
        StringBuilder t = new StringBuilder();
        for (java.net.InetSocketAddress a : cfg.targets()) {
            t.append(t.length() == 0 ? "" : ",").append(io.tickwork.client.common.Targets.text(a));
        }
        j.field("targets", t.toString());
        j.field("target", target);
        j.field("connected", connectedAtEnd);
        j.field("peak", peak);
        j.field("attempts", attempts);
        j.field("elapsed_s", elapsedSeconds);
        writeFailed(j, failures);
        if (hardLimit == null) {
            j.nullField("limit_hit");
        } else {
            j.object("limit_hit");
            j.field("kind", hardLimit.name());
            j.field("what", hardLimit.what());
            j.field("message", hardLimitMessage == null ? "" : hardLimitMessage);
            j.field("advice", hardLimit.advice());
            j.end();
        }
        if (stoppedBy == null) {
            j.nullField("stopped_by");
        } else {
            j.field("stopped_by", stoppedBy);
        }
        j.field("closed_by_server", closedByServer);
        j.object("workload");
        j.field("enabled", cfg.workload() ? 1 : 0);
        j.field("requests", requests);
        j.field("bytes_read", responseBytes);
        j.field("timeouts", timeouts);
        j.field("bad_responses", badResponses);
        j.field("closed_unanswered", closedUnanswered);
        j.field("non2xx", non2xx);
        j.object("latency_us");
        long n = latency.getTotalCount();
        j.field("count", n);
        j.field("p50", n == 0 ? 0 : latency.getValueAtPercentile(50) / 1e3);
        j.field("p90", n == 0 ? 0 : latency.getValueAtPercentile(90) / 1e3);
        j.field("p99", n == 0 ? 0 : latency.getValueAtPercentile(99) / 1e3);
        j.field("max", n == 0 ? 0 : latency.getMaxValue() / 1e3);
        j.end();
        j.end();
        j.object("memory");
        j.field("connections", peak);
        j.object("client");
        bytes(j, "rss", before.selfRss(), atRamp.selfRss());
        bytes(j, "live_heap", before.selfLiveHeap(), atRamp.selfLiveHeap());
        j.end();
        j.object("server");
        bytes(j, "rss", before.serverRss(), atRamp.serverRss());
        bytes(
                j,
                "heap_used",
                IdleMemory.statsNumber(before.serverStats(), "heapUsedBytes"),
                IdleMemory.statsNumber(atRamp.serverStats(), "heapUsedBytes"));
        j.end();
        j.end();
        j.object("system");
        orNull(j, "mem_available_bytes", system.memAvailable());
        orNull(j, "mem_available_min_bytes", memAvailableMin);
        orNull(j, "tcp_inuse", system.tcpInUse());
        orNull(j, "tcp_mem_bytes", system.tcpMemBytes());
        j.field("tcp_mem_page_size", SystemMemory.PAGE_SIZE);
        j.field("guard_enabled", guardEnabled ? 1 : 0);
        j.field("guard_floor_bytes", guardFloor);
        j.end();
    }

    private static void orNull(JsonWriter j, String name, long value) {
        if (value >= 0) {
            j.field(name, value);
        } else {
            j.nullField(name);
        }
    }

    /** {@code NAME_before, NAME_after, NAME_delta, NAME_per_conn}; null where not measured. */
    private void bytes(JsonWriter j, String name, long before, long after) {
        boolean have = before >= 0 && after >= 0;
        if (before >= 0) {
            j.field(name + "_before", before);
        } else {
            j.nullField(name + "_before");
        }
        if (after >= 0) {
            j.field(name + "_after", after);
        } else {
            j.nullField(name + "_after");
        }
        if (have) {
            j.field(name + "_delta", after - before);
        } else {
            j.nullField(name + "_delta");
        }
        if (have && peak > 0 && after >= before) { // a shrinking figure gives no cost per connection
            j.field(name + "_per_conn", (after - before) / peak);
        } else {
            j.nullField(name + "_per_conn");
        }
    }
}
