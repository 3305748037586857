package io.tickwork.client.idle;

import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.JsonWriter;
import io.tickwork.client.common.LatencyRange;
import io.tickwork.client.common.OsError;
import io.tickwork.client.idle.IdleProgress.Json;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The report of {@code idle --processes N}: the children's final reports, read back by {@link
 * #childResult}, summed into one {@link IdleResult} with the fields of a one-process report, plus a
 * line (text) or an entry (JSON) per child. Summed over the children: target, connected, peak (the
 * sum of their peaks, at least the peak of the sum), attempts, failures by kind, connections the
 * server closed, the workload's counts, and the client's RSS and live heap before and at the end of
 * each ramp; latency percentiles come from the children's histograms added together, so they are
 * exact. The parent's own: the server's memory, the machine's figures at the end, the guard; the
 * lowest MemAvailable is the lowest the parent or any child saw. {@code stopped_by} is the reason
 * the parent stopped every ramp, else the first child's. A child without a report adds nothing
 * and its entry says so. Immutable; built once at the end of the run.
 */
final class FleetReport {

    /** One child as the report shows it: {@code result} null when it gave no report. */
    record Child(int index, long pid, IdleConfig cfg, IdleResult result, Integer exitStatus, String note) {}

    private final IdleConfig cfg;
    private final List<Child> children;
    private final IdleResult total;

    FleetReport(
            IdleConfig cfg,
            List<Child> children,
            String stoppedBy,
            IdleMemory serverBefore,
            IdleMemory serverAtRamp,
            SystemMemory atEnd,
            MemoryGuard guard,
            double elapsedSeconds) {
        this.cfg = cfg;
        this.children = List.copyOf(children);
        int connected = 0;
        int peak = 0;
        long attempts = 0;
        long closed = 0;
        long requests = 0;
        long bytes = 0;
        long timeouts = 0;
        long bad = 0;
        long closedUnanswered = 0;
        long non2xx = 0;
        Map<OsError, Long> failures = new EnumMap<>(OsError.class);
        Histogram latency = LatencyRange.histogram();
        OsError limit = null;
        String limitMessage = null;
        String stopped = stoppedBy;
        long[] client = new long[4]; // rss before, live heap before, rss after, live heap after
        boolean cutShort = false; // a child's ramp was still under way when the run ended
        long memMin = guard.min();
        for (Child c : children) {
            IdleResult r = c.result();
            if (r == null) {
                continue;
            }
            connected += r.connectedAtEnd();
            peak += r.peak();
            attempts += r.attempts();
            closed += r.closedByServer();
            requests += r.requests();
            bytes += r.responseBytes();
            timeouts += r.timeouts();
            bad += r.badResponses();
            closedUnanswered += r.closedUnanswered();
            non2xx += r.non2xx();
            r.failures().forEach((k, v) -> failures.merge(k, v, Long::sum));
            latency.add(r.latency());
            if (limit == null && r.hardLimit() != null) {
                limit = r.hardLimit();
                limitMessage = "process " + (c.index() + 1) + ": " + r.hardLimitMessage();
            }
            if (stopped == null && r.stoppedBy() != null && !r.stoppedBy().startsWith(IdleHolder.CUT_SHORT)) {
                stopped = r.stoppedBy(); // a guard or a limit: the first child's says why
            }
            cutShort |= r.stoppedBy() != null && r.stoppedBy().startsWith(IdleHolder.CUT_SHORT);
            client[0] = sum(client[0], r.before().selfRss());
            client[1] = sum(client[1], r.before().selfLiveHeap());
            client[2] = sum(client[2], r.atRamp().selfRss());
            client[3] = sum(client[3], r.atRamp().selfLiveHeap());
            if (r.memAvailableMin() >= 0) {
                memMin = memMin < 0 ? r.memAvailableMin() : Math.min(memMin, r.memAvailableMin());
            }
        }
        if (stopped == null && cutShort) { // the fleet's figures, not one child's share
            stopped = IdleHolder.cutShort("the duration (-D) or a signal", connected, cfg.connections());
        }
        this.total = new IdleResult(
                cfg.connections(),
                connected,
                peak,
                attempts,
                failures,
                limit,
                limitMessage,
                stopped,
                closed,
                requests,
                bytes,
                timeouts,
                bad,
                closedUnanswered,
                non2xx,
                latency,
                new IdleMemory(client[0], client[1], serverBefore.serverRss(), serverBefore.serverStats()),
                new IdleMemory(client[2], client[3], serverAtRamp.serverRss(), serverAtRamp.serverStats()),
                atEnd,
                memMin,
                cfg.minAvailable(),
                guard.enabled(),
                elapsedSeconds);
    }

    /** A sum in which one unknown (-1) term makes the sum unknown. */
    private static long sum(long a, long b) {
        return a < 0 || b < 0 ? -1 : a + b;
    }

    /** The children summed, as one process's result. */
    /** Each child's own result, in child order; a child that gave no report is left out. */
    List<IdleResult> childResults() {
        List<IdleResult> rs = new ArrayList<>();
        for (Child c : children) {
            if (c.result() != null) {
                rs.add(c.result());
            }
        }
        return rs;
    }

    IdleResult total() {
        return total;
    }

    /** The largest child's options (heaps follow the shares; the first children take the remainder). */
    private String childJvmOptions() {
        int most = 0;
        for (Child c : children) {
            most = Math.max(most, c.cfg().connections());
        }
        return String.join(" ", FleetPlan.jvmOptions(most));
    }

    String toText() {
        StringBuilder sb = new StringBuilder(total.toText());
        sb.append(String.format(
                Locale.ROOT,
                "  processes  %d child JVMs (%s); client memory above is their sum%n",
                children.size(),
                childJvmOptions()));
        for (Child c : children) {
            IdleResult r = c.result();
            sb.append(String.format(
                    Locale.ROOT,
                    "  process %-3d pid %d, %s: ",
                    c.index() + 1,
                    c.pid(),
                    IdleCommand.sourcesText(c.cfg().sources())));
            if (r == null) {
                sb.append("no report");
            } else {
                sb.append(String.format(
                        Locale.ROOT,
                        "%d of %d connected, peak %d, attempts %d, failed %d%s, rss %s",
                        r.connectedAtEnd(),
                        r.target(),
                        r.peak(),
                        r.attempts(),
                        r.failedTotal(),
                        r.failures().isEmpty() ? "" : " " + new TreeMap<>(r.failures()),
                        Fmt.bytes(r.atRamp().selfRss())));
                if (r.stoppedBy() != null) {
                    sb.append(", stopped by ").append(r.stoppedBy());
                }
            }
            sb.append(", exit ")
                    .append(c.exitStatus() == null ? "unknown" : c.exitStatus().toString());
            if (c.note() != null) {
                sb.append(" (").append(c.note()).append(')');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * One line: the fields of a one-process {@code --json} report (the totals) plus {@code
     * processes}, {@code child_jvm_options} and {@code per_child[{process, pid, exit_status,
     * reported, first_source, sources, target, connected, peak, attempts, failed{total, by_kind},
     * limit_hit, stopped_by, closed_by_server, rss_before, rss_after, live_heap_after, elapsed_s,
     * note}]}; null where not known.
     */
    String toJson() {
        JsonWriter j = new JsonWriter();
        j.begin();
        total.fields(j, cfg);
        j.field("processes", children.size());
        j.field("child_jvm_options", childJvmOptions());
        j.array("per_child");
        for (Child c : children) {
            IdleResult r = c.result();
            j.element();
            j.field("process", c.index() + 1);
            j.field("pid", c.pid());
            nullable(j, "exit_status", c.exitStatus() == null ? -1 : c.exitStatus());
            j.field("reported", r == null ? 0 : 1);
            string(
                    j,
                    "first_source",
                    c.cfg().sources().isEmpty()
                            ? null
                            : c.cfg().sources().get(0).getHostAddress());
            j.field("sources", c.cfg().sources().size());
            j.field("target", c.cfg().connections());
            j.field("connected", r == null ? 0 : r.connectedAtEnd());
            j.field("peak", r == null ? 0 : r.peak());
            j.field("attempts", r == null ? 0 : r.attempts());
            IdleResult.writeFailed(j, r == null ? Map.of() : r.failures());
            string(
                    j,
                    "limit_hit",
                    r == null || r.hardLimit() == null ? null : r.hardLimit().name());
            string(j, "stopped_by", r == null ? null : r.stoppedBy());
            j.field("closed_by_server", r == null ? 0 : r.closedByServer());
            nullable(j, "rss_before", r == null ? -1 : r.before().selfRss());
            nullable(j, "rss_after", r == null ? -1 : r.atRamp().selfRss());
            nullable(j, "live_heap_after", r == null ? -1 : r.atRamp().selfLiveHeap());
            if (r == null) {
                j.nullField("elapsed_s");
            } else {
                j.field("elapsed_s", r.elapsedSeconds());
            }
            string(j, "note", c.note());
            j.end();
        }
        j.endArray();
        j.end();
        return j.toString();
    }

    private static void nullable(JsonWriter j, String name, long v) {
        if (v < 0) {
            j.nullField(name);
        } else {
            j.field(name, v);
        }
    }

    private static void string(JsonWriter j, String name, String v) {
        if (v == null) {
            j.nullField(name);
        } else {
            j.field(name, v);
        }
    }

    /**
     * A child's final line: its {@code --json} report plus {@code latency_histogram}, the latency
     * histogram compressed (HdrHistogram's format) in base64, so the parent adds histograms instead
     * of guessing percentiles. A few KiB at most.
     */
    static String childJson(IdleResult r, IdleConfig cfg) {
        JsonWriter j = new JsonWriter();
        j.begin();
        r.fields(j, cfg);
        Histogram h = r.latency();
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        j.field("latency_histogram", Base64.getEncoder().encodeToString(Arrays.copyOf(b.array(), n)));
        j.end();
        return j.toString();
    }

    /** A {@link #childJson} line read back; throws IllegalArgumentException if it is not one. */
    static IdleResult childResult(Map<String, Object> j) {
        if (!"tickwork idle".equals(j.get("tool")) || !(j.get("connected") instanceof Number)) {
            throw new IllegalArgumentException("not an idle report");
        }
        Map<String, Object> limit = Json.object(j, "limit_hit");
        Map<String, Object> workload = Json.object(j, "workload");
        Map<String, Object> client = Json.object(Json.object(j, "memory"), "client");
        Map<String, Object> system = Json.object(j, "system");
        Histogram latency = LatencyRange.histogram();
        if (j.get("latency_histogram") instanceof String s) {
            try {
                latency = Histogram.decodeFromCompressedByteBuffer(
                        ByteBuffer.wrap(Base64.getDecoder().decode(s)), LatencyRange.HIGHEST_NS);
            } catch (DataFormatException | RuntimeException e) {
                throw new IllegalArgumentException("bad latency_histogram: " + e.getMessage(), e);
            }
        }
        return new IdleResult(
                (int) Json.number(j, "target"),
                (int) Json.number(j, "connected"),
                (int) Math.max(0, Json.number(j, "peak")),
                Math.max(0, Json.number(j, "attempts")),
                Json.failures(Json.object(Json.object(j, "failed"), "by_kind")),
                limit.get("kind") instanceof String k ? Json.kind(k) : null,
                limit.get("message") instanceof String m ? m : null,
                j.get("stopped_by") instanceof String s ? s : null,
                Math.max(0, Json.number(j, "closed_by_server")),
                Math.max(0, Json.number(workload, "requests")),
                Math.max(0, Json.number(workload, "bytes_read")),
                Math.max(0, Json.number(workload, "timeouts")),
                Math.max(0, Json.number(workload, "bad_responses")),
                Math.max(0, Json.number(workload, "closed_unanswered")),
                Math.max(0, Json.number(workload, "non2xx")),
                latency,
                new IdleMemory(Json.number(client, "rss_before"), Json.number(client, "live_heap_before"), -1, null),
                new IdleMemory(Json.number(client, "rss_after"), Json.number(client, "live_heap_after"), -1, null),
                new SystemMemory(
                        Json.number(system, "mem_available_bytes"),
                        Json.number(system, "tcp_inuse"),
                        Json.number(system, "tcp_mem_bytes")),
                Json.number(system, "mem_available_min_bytes"),
                Math.max(0, Json.number(system, "guard_floor_bytes")),
                Json.number(system, "guard_enabled") == 1,
                Math.max(0, Json.decimal(j, "elapsed_s")));
    }
}
