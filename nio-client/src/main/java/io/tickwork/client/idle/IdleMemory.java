package io.tickwork.client.idle;

import io.tickwork.client.common.Fmt;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Client and server memory at one moment, for bytes-per-connection arithmetic: the client's RSS
 * and live heap (after a full GC), and, when asked for, the server's RSS ({@code --server-pid})
 * (summed over its processes) and stats document ({@code --stats-url}); -1 or null where not measured. Immutable; {@link
 * #measure} costs a full GC and a /proc read or two: it is taken twice per run, never per event.
 */
record IdleMemory(long selfRss, long selfLiveHeap, long serverRss, String serverStats) {

    static IdleMemory measure(IdleConfig cfg, boolean gc) {
        long heap = gc ? ProcMemory.liveHeapBytes() : ProcMemory.heapUsedBytes();
        long rss = ProcMemory.selfRssBytes();
        long srss = ProcMemory.rssBytes(cfg.serverPids());
        String stats = cfg.statsUrl() == null ? null : HttpGet.body(cfg.statsUrl(), 2000);
        return new IdleMemory(rss, heap, srss, stats);
    }

    String describe(IdleMemory base, int conns) {
        StringBuilder sb = new StringBuilder();
        sb.append("client rss ")
                .append(Fmt.bytes(selfRss))
                .append(perConn(base == null ? -1 : base.selfRss, selfRss, conns));
        sb.append(", live heap ")
                .append(Fmt.bytes(selfLiveHeap))
                .append(perConn(base == null ? -1 : base.selfLiveHeap, selfLiveHeap, conns));
        String server = describeServer(base, conns);
        return server.isEmpty() ? sb.toString() : sb.append("; ").append(server).toString();
    }

    /** The server's part of {@link #describe}: RSS, heap and stats where measured; empty if none was. */
    String describeServer(IdleMemory base, int conns) {
        StringBuilder sb = new StringBuilder();
        if (serverRss >= 0 || (base != null && base.serverRss >= 0)) {
            sb.append("server rss ")
                    .append(Fmt.bytes(serverRss))
                    .append(perConn(base == null ? -1 : base.serverRss, serverRss, conns));
        }
        long heap = statsNumber(serverStats, "heapUsedBytes");
        if (heap >= 0) {
            sb.append(sb.length() == 0 ? "" : "; ")
                    .append("server heap ")
                    .append(Fmt.bytes(heap))
                    .append(perConn(base == null ? -1 : statsNumber(base.serverStats, "heapUsedBytes"), heap, conns));
        }
        if (serverStats != null) {
            sb.append(sb.length() == 0 ? "" : "; ").append("server stats ").append(serverStats.replaceAll("\\s+", " "));
        }
        return sb.toString();
    }

    /** A top-level numeric field of a flat JSON stats document, or -1. */
    static long statsNumber(String json, String field) {
        if (json == null) {
            return -1;
        }
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*(\\d+)").matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    static String perConn(long before, long after, int conns) {
        if (before < 0 || after < 0 || conns <= 0) {
            return "";
        }
        long d = after - before;
        if (d < 0) {
            // the first reading held garbage a collection has freed since: no cost per connection
            // can be read off a shrinking figure
            return String.format(Locale.ROOT, " (-%s: less than before, no per-connection figure)", Fmt.bytes(-d));
        }
        return String.format(Locale.ROOT, " (+%s, %d B/conn)", Fmt.bytes(d), d / conns);
    }
}
