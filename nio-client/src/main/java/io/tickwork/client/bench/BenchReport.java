package io.tickwork.client.bench;

import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.JsonWriter;
import io.tickwork.client.common.OsError;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The outcome of a {@code bench} run: counts, bytes, errors by kind and the latency histogram
 * (nanoseconds), all of the measured phase (after any warm-up; {@link #elapsedSeconds} is its
 * length). Immutable once built; {@link #toJson()} gives the machine-readable form.
 */
final class BenchReport {
    final BenchConfig config;
    final double elapsedSeconds;
    final long completed;
    final long sent;
    final long bytesRead;
    final long bytesWritten;
    final long connects;
    final long reconnects;
    final long connectErrors;
    final Map<String, Long> connectErrorsByCause;
    final long timeouts;
    final long parseErrors;
    final long closedErrors;
    final long ioErrors;
    final long lost;
    final long unansweredAtEnd;
    final long unsentAtEnd;
    final Map<Integer, Long> statuses;
    final Histogram latency;
    /** Why the first response that did not parse was refused; null if every one parsed. */
    final String firstParseError;

    BenchReport(
            BenchConfig config,
            double elapsedSeconds,
            Iterable<Counters> counters,
            Histogram latency,
            String firstParseError) {
        this.config = config;
        this.firstParseError = firstParseError;
        this.elapsedSeconds = elapsedSeconds;
        this.completed = Counters.sum(counters, Counters.COMPLETED);
        this.sent = Counters.sum(counters, Counters.SENT);
        this.bytesRead = Counters.sum(counters, Counters.BYTES_READ);
        this.bytesWritten = Counters.sum(counters, Counters.BYTES_WRITTEN);
        this.connects = Counters.sum(counters, Counters.CONNECTS);
        this.reconnects = Counters.sum(counters, Counters.RECONNECTS);
        this.connectErrors = Counters.sum(counters, Counters.ERR_CONNECT);
        this.timeouts = Counters.sum(counters, Counters.ERR_TIMEOUT);
        this.parseErrors = Counters.sum(counters, Counters.ERR_PARSE);
        this.closedErrors = Counters.sum(counters, Counters.ERR_CLOSED);
        this.ioErrors = Counters.sum(counters, Counters.ERR_IO);
        this.lost = Counters.sum(counters, Counters.LOST);
        this.unansweredAtEnd = Counters.sum(counters, Counters.UNANSWERED_AT_END);
        this.unsentAtEnd = Counters.sum(counters, Counters.UNSENT_AT_END);
        Map<String, Long> causes = new TreeMap<>();
        for (OsError e : OsError.values()) {
            long n = Counters.sum(counters, Counters.CONNECT_CAUSE + e.ordinal());
            if (n > 0) {
                causes.put(e.name(), n);
            }
        }
        this.connectErrorsByCause = causes;
        Map<Integer, Long> st = new TreeMap<>();
        for (int s = 100; s < 600; s++) {
            long n = Counters.sum(counters, Counters.STATUS + s);
            if (n > 0) {
                st.put(s, n);
            }
        }
        this.statuses = st;
        this.latency = latency;
    }

    long non2xx() {
        long n = 0;
        for (Map.Entry<Integer, Long> e : statuses.entrySet()) {
            if (e.getKey() < 200 || e.getKey() > 299) {
                n += e.getValue();
            }
        }
        return n;
    }

    long errors() {
        return connectErrors + timeouts + parseErrors + closedErrors + ioErrors + non2xx();
    }

    double requestsPerSecond() {
        return elapsedSeconds > 0 ? completed / elapsedSeconds : 0;
    }

    double mibPerSecond() {
        return elapsedSeconds > 0 ? bytesRead / elapsedSeconds / (1024.0 * 1024.0) : 0;
    }

    /**
     * What ended the measured run: {@code "requests"} when the {@code -n} count was reached (sent,
     * in open loop; answered, in closed loop), {@code "duration"} when {@code -D} ran out,
     * {@code "early"} otherwise (a signal, or a run that gave up).
     */
    String endedBy() {
        if (config.count() > 0 && (config.openLoop() ? sent : completed) >= config.count()) {
            return "requests";
        }
        // the loops end within a turn of the deadline: 50 ms covers a busy machine's lateness
        return elapsedSeconds * 1e9 >= config.duration().toNanos() - 50_000_000L ? "duration" : "early";
    }

    long percentileNanos(double p) {
        return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(p);
    }

    String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "%s: %d connections x %d in flight, %d selector " + "thread%s, %s, %.2fs%n",
                config.target(),
                config.connections(),
                config.depth(),
                config.threads(),
                config.threads() == 1 ? "" : "s",
                config.openLoop()
                        ? String.format(
                                Locale.ROOT,
                                "open loop at %s req/s (latency from intended send time)",
                                BenchCommand.rateText(config.rate()))
                        : "closed loop",
                elapsedSeconds));
        if (config.warmsUp()) {
            sb.append("  warm-up    ").append(Fmt.duration(config.warmup())).append(" before, not counted\n");
        }
        sb.append("  ended      ")
                .append(
                        switch (endedBy()) {
                            case "requests" -> "at the request count (-n " + config.count() + ")";
                            case "duration" -> "at the duration (-D " + Fmt.duration(config.duration()) + ")";
                            default -> "early: stopped before -n or -D was reached";
                        })
                .append('\n');
        sb.append(String.format(
                Locale.ROOT,
                "  requests   %d completed, %.1f req/s (%d sent)%n",
                completed,
                requestsPerSecond(),
                sent));
        sb.append(String.format(
                Locale.ROOT,
                "  transfer   %s read, %.2f MiB/s; %s written%n",
                Fmt.bytes(bytesRead),
                mibPerSecond(),
                Fmt.bytes(bytesWritten)));
        if (latency.getTotalCount() > 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  latency    p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  (mean %s, stdev %s)%n",
                    Fmt.nanos(percentileNanos(50)),
                    Fmt.nanos(percentileNanos(90)),
                    Fmt.nanos(percentileNanos(99)),
                    Fmt.nanos(percentileNanos(99.9)),
                    Fmt.nanos(latency.getMaxValue()),
                    Fmt.nanos((long) latency.getMean()),
                    Fmt.nanos((long) latency.getStdDeviation())));
        } else {
            sb.append("  latency    none: no response completed, and none was charged a wait\n");
        }
        sb.append("  status     ");
        if (statuses.isEmpty()) {
            sb.append("none");
        }
        statuses.forEach((k, v) -> sb.append(k).append(": ").append(v).append("  "));
        sb.append(String.format(
                Locale.ROOT,
                "%n  errors     %d: connect %d%s, timeout %d, non-2xx %d, " + "parse %d, closed %d, io %d%n",
                errors(),
                connectErrors,
                connectErrorsByCause.isEmpty() ? "" : " " + connectErrorsByCause,
                timeouts,
                non2xx(),
                parseErrors,
                closedErrors,
                ioErrors));
        if (firstParseError != null) {
            sb.append("  parse      the first refused: ")
                    .append(firstParseError)
                    .append('\n');
        }
        sb.append(String.format(
                Locale.ROOT,
                "  sockets    %d connects, %d reconnects%s%n",
                connects,
                reconnects,
                lost > 0 ? ", " + lost + " requests lost on closed connections" : ""));
        if (unansweredAtEnd + unsentAtEnd > 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  at end     %d unanswered%s: in the latency with their wait so far, not completed%n",
                    unansweredAtEnd,
                    config.openLoop() ? ", " + unsentAtEnd + " due but not sent" : ""));
        }
        for (String cause : connectErrorsByCause.keySet()) {
            OsError e = OsError.valueOf(cause);
            sb.append("  hint       ")
                    .append(e.name())
                    .append(" (")
                    .append(e.what())
                    .append("): ")
                    .append(e.advice())
                    .append('\n');
        }
        return sb.toString();
    }

    String toJson() {
        JsonWriter j = new JsonWriter();
        j.begin();
        j.field("tool", "tickwork bench");
        j.field("target", config.target());
        j.field("connections", config.connections());
        j.field("depth", config.depth());
        j.field("threads", config.threads());
        j.field("mode", config.openLoop() ? "open" : "closed");
        j.field("rate", config.rate());
        j.field("warmup_s", config.warmup().toNanos() / 1e9);
        j.field("elapsed_s", elapsedSeconds);
        j.field("ended_by", endedBy());
        j.object("requests");
        j.field("completed", completed);
        j.field("sent", sent);
        j.field("per_s", requestsPerSecond());
        j.end();
        j.object("bytes");
        j.field("read", bytesRead);
        j.field("written", bytesWritten);
        j.field("read_mib_per_s", mibPerSecond());
        j.end();
        j.object("latency_us");
        j.field("count", latency.getTotalCount());
        j.field("p50", percentileNanos(50) / 1e3);
        j.field("p90", percentileNanos(90) / 1e3);
        j.field("p99", percentileNanos(99) / 1e3);
        j.field("p99_9", percentileNanos(99.9) / 1e3);
        j.field("max", latency.getTotalCount() == 0 ? 0 : latency.getMaxValue() / 1e3);
        j.field("mean", latency.getTotalCount() == 0 ? 0 : latency.getMean() / 1e3);
        j.end();
        j.object("status");
        statuses.forEach((k, v) -> j.field(Integer.toString(k), v));
        j.end();
        j.object("errors");
        j.field("total", errors());
        j.field("connect", connectErrors);
        j.object("connect_by_cause");
        connectErrorsByCause.forEach(j::field);
        j.end();
        j.field("timeout", timeouts);
        j.field("non2xx", non2xx());
        j.field("parse", parseErrors);
        j.field("closed", closedErrors);
        j.field("io", ioErrors);
        if (firstParseError != null) {
            j.field("parse_first", firstParseError);
        }
        j.end();
        j.object("sockets");
        j.field("connects", connects);
        j.field("reconnects", reconnects);
        j.field("lost_requests", lost);
        j.end();
        j.object("at_end");
        j.field("unanswered", unansweredAtEnd);
        j.field("unsent", unsentAtEnd);
        j.end();
        j.end();
        return j.toString();
    }
}
