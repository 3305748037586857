package io.tickwork.client.idle;

import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.JsonWriter;
import io.tickwork.client.common.OsError;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * What an {@code idle} holder has reached at one moment: connections open and in flight, connect
 * attempts, failures by kind, the client's RSS, the machine's memory, the workload's counts and
 * whether the ramp has ended (and what stopped it). The holder takes one a second and one when its
 * ramp ends; {@link #line()} is the human progress line, {@link #toJson()} the one-line form a
 * child process of {@code idle --processes} writes for its parent, read back by {@link
 * #fromJson}. Immutable; taking one copies the failure map (a few entries) and reads
 * /proc/self/status.
 */
record IdleProgress(
        int second,
        int target,
        int connected,
        int pending,
        int peak,
        long attempts,
        Map<OsError, Long> failures,
        long closedByServer,
        int rate,
        long rssBytes,
        SystemMemory system,
        long requests,
        long requestsPerSecond,
        long bytesPerSecond,
        boolean workload,
        String stoppedBy,
        boolean rampDone) {

    /** The {@code tool} of a progress line, telling it from a final report on the same stream. */
    static final String TOOL = "tickwork idle progress";

    IdleProgress {
        failures = Map.copyOf(failures);
    }

    /** Who hears of a holder's progress; called on the holder's thread, so it must not block long. */
    interface Listener {
        /** Once a second while the run lasts. */
        void second(IdleProgress p);

        /** Once, when the ramp has ended: the target reached or the ramp stopped, no connect in flight. */
        void rampEnded(IdleProgress p);
    }

    /** A listener printing {@link #line()} each second to {@code out}. */
    static Listener printer(PrintStream out) {
        return new Listener() {
            @Override
            public void second(IdleProgress p) {
                out.println(p.line());
            }

            @Override
            public void rampEnded(IdleProgress p) {
                // the holder prints its own ramp summary
            }
        };
    }

    long failedTotal() {
        return IdleResult.total(failures);
    }

    /**
     * {@code 3s  target 1000  connected 1000  pending 0  failed 0  closed 0  rate 500/s  rss 60.1MiB
     * MemAvailable ...}: {@code closed} counts the connections the server has closed so far, {@code
     * rate} is the change in connections held that second, new ones minus closed ones (negative
     * when more closed than opened).
     */
    String line() {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "%4ds  target %d  connected %d  pending %d  failed %d  closed %d  rate %d/s  rss %s",
                second,
                target,
                connected,
                pending,
                failedTotal(),
                closedByServer,
                rate,
                Fmt.bytes(rssBytes)));
        line.append("  ").append(system.describe());
        if (workload) {
            line.append(String.format(
                    Locale.ROOT,
                    "  requests %d  %d req/s  %.2f MiB/s",
                    requests,
                    requestsPerSecond,
                    bytesPerSecond / (1024.0 * 1024.0)));
        }
        return line.toString();
    }

    /**
     * {@code {tool, second, target, connected, pending, peak, attempts, failed{total, by_kind},
     * closed_by_server, rate, rss_bytes, mem_available_bytes, tcp_inuse, tcp_mem_bytes, requests,
     * requests_per_s, bytes_per_s, workload, stopped_by, ramp_done}} on one line; -1 where unknown.
     */
    String toJson() {
        JsonWriter j = new JsonWriter();
        j.begin();
        j.field("tool", TOOL);
        j.field("second", second);
        j.field("target", target);
        j.field("connected", connected);
        j.field("pending", pending);
        j.field("peak", peak);
        j.field("attempts", attempts);
        IdleResult.writeFailed(j, failures);
        j.field("closed_by_server", closedByServer);
        j.field("rate", rate);
        j.field("rss_bytes", rssBytes);
        j.field("mem_available_bytes", system.memAvailable());
        j.field("tcp_inuse", system.tcpInUse());
        j.field("tcp_mem_bytes", system.tcpMemBytes());
        j.field("requests", requests);
        j.field("requests_per_s", requestsPerSecond);
        j.field("bytes_per_s", bytesPerSecond);
        j.field("workload", workload ? 1 : 0);
        if (stoppedBy == null) {
            j.nullField("stopped_by");
        } else {
            j.field("stopped_by", stoppedBy);
        }
        j.field("ramp_done", rampDone ? 1 : 0);
        j.end();
        return j.toString();
    }

    /** A {@link #toJson()} object read back; throws IllegalArgumentException if it is not one. */
    static IdleProgress fromJson(Map<String, Object> j) {
        if (!TOOL.equals(j.get("tool"))) {
            throw new IllegalArgumentException("its \"tool\" is not \"" + TOOL + "\"");
        }
        Map<String, Object> failed = Json.object(j, "failed");
        return new IdleProgress(
                (int) Json.number(j, "second"),
                (int) Json.number(j, "target"),
                (int) Json.number(j, "connected"),
                (int) Math.max(0, Json.number(j, "pending")),
                (int) Json.number(j, "peak"),
                Json.number(j, "attempts"),
                Json.failures(Json.object(failed, "by_kind")),
                Math.max(0, Json.number(j, "closed_by_server")),
                (int) Math.max(0, Json.number(j, "rate")),
                Json.number(j, "rss_bytes"),
                new SystemMemory(
                        Json.number(j, "mem_available_bytes"),
                        Json.number(j, "tcp_inuse"),
                        Json.number(j, "tcp_mem_bytes")),
                Math.max(0, Json.number(j, "requests")),
                Math.max(0, Json.number(j, "requests_per_s")),
                Math.max(0, Json.number(j, "bytes_per_s")),
                Json.number(j, "workload") == 1,
                j.get("stopped_by") instanceof String s ? s : null,
                Json.number(j, "ramp_done") == 1);
    }

    /** Reading back the load tool's own JSON objects (as {@code JsonReader} gives them). Stateless. */
    static final class Json {
        private Json() {}

        @SuppressWarnings("unchecked")
        static Map<String, Object> object(Map<String, Object> j, String name) {
            return j.get(name) instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        }

        /** An integral field, -1 where absent, null or not a number. */
        static long number(Map<String, Object> j, String name) {
            return j.get(name) instanceof Number n ? n.longValue() : -1;
        }

        /** A decimal field, -1 where absent. */
        static double decimal(Map<String, Object> j, String name) {
            return j.get(name) instanceof Number n ? n.doubleValue() : -1;
        }

        /** {@code {"ECONNREFUSED": 3, ...}} as counts by kind; a kind this build does not know is OTHER. */
        static Map<OsError, Long> failures(Map<String, Object> byKind) {
            Map<OsError, Long> m = new EnumMap<>(OsError.class);
            byKind.forEach((k, v) -> {
                if (v instanceof Number n && n.longValue() > 0) {
                    m.merge(kind(k), n.longValue(), Long::sum);
                }
            });
            return m;
        }

        static OsError kind(String name) {
            for (OsError e : OsError.values()) {
                if (e.name().equals(name)) {
                    return e;
                }
            }
            return OsError.OTHER;
        }
    }
}
