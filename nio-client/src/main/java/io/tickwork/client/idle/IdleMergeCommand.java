package io.tickwork.client.idle;

import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.HelpOption;
import io.tickwork.client.common.JsonReader;
import io.tickwork.client.common.JsonWriter;
import io.tickwork.client.common.UsageException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code idle-merge} subcommand: sums the {@code idle --json} results of several runs (for
 * example one per client machine, or per process; the report of an {@code idle --processes N} run,
 * already a total, counts as one run of N processes) into one total: processes, connections, attempts,
 * failures by kind, connections the server closed, and the lowest MemAvailable any run saw,
 * with a line per run. Each non-blank input line is one result (the JSON is one line), so a
 * file may hold one result or many appended; {@code -} reads standard input. An input line that
 * is not an {@code idle} result is a usage error naming the file and line. One instance per
 * command line; not thread safe.
 */
@Command(
        name = "idle-merge",
        sortOptions = false,
        abbreviateSynopsis = true,
        description = {
            "sum the --json results of several idle runs",
            "",
            "Reads idle --json results, one per non-blank line, from each FILE (- for standard input) and"
                    + " prints the total: connected, target, peak and attempts summed, failures by kind summed,"
                    + " connections closed by the server, the lowest MemAvailable any run saw, and a line per run."
                    + " The report of idle --processes N is one run of N processes.",
            ""
        })
public final class IdleMergeCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "idle --json output; - for standard input")
    List<String> files;

    @Option(names = "--json", description = "print the total as one JSON object on one line")
    boolean json;

    @Mixin
    HelpOption help = new HelpOption();

    private final PrintStream out;
    private final InputStream in;

    IdleMergeCommand(PrintStream out, InputStream in) {
        this.out = out;
        this.in = in;
    }

    /** The {@code idle-merge} command, reading {@code -} from standard input. */
    public static CommandLine commandLine(PrintStream out, PrintStream err) {
        return commandLine(out, System.in);
    }

    static CommandLine commandLine(PrintStream out, InputStream in) {
        return new CommandLine(new IdleMergeCommand(out, in));
    }

    /** One run's figures as read back; -1 where the result lacks a figure. */
    record Run(
            String source,
            String targets,
            long processes,
            long target,
            long connected,
            long peak,
            long attempts,
            long failed,
            Map<String, Long> failedByKind,
            long closedByServer,
            String stoppedBy,
            long memAvailableMin) {}

    @Override
    public Integer call() {
        List<Run> runs = new ArrayList<>();
        for (String f : files) {
            read(f, runs);
        }
        if (runs.isEmpty()) {
            throw new UsageException("no idle results in " + String.join(" ", files));
        }
        out.print(json ? toJson(runs) + "\n" : toText(runs));
        return 0;
    }

    private void read(String file, List<Run> runs) {
        List<String> lines;
        try {
            if (file.equals("-")) {
                lines = lines(new InputStreamReader(in, StandardCharsets.UTF_8));
            } else {
                lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
            }
        } catch (IOException | RuntimeException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        }
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).trim();
            if (line.isEmpty()) {
                continue;
            }
            String where = (file.equals("-") ? "stdin" : file) + ":" + (n + 1);
            try {
                runs.add(run(where, JsonReader.parseObject(line)));
            } catch (IllegalArgumentException e) {
                throw new UsageException(where + " is not an idle --json result: " + e.getMessage());
            }
        }
    }

    private static List<String> lines(Reader r) throws IOException {
        try (BufferedReader b = new BufferedReader(r)) {
            return b.lines().toList();
        }
    }

    /** The figures of one result object; throws IllegalArgumentException if it is not one. */
    static Run run(String source, Map<String, Object> j) {
        if (!"tickwork idle".equals(j.get("tool"))) {
            throw new IllegalArgumentException("its \"tool\" is not \"tickwork idle\"");
        }
        Map<String, Object> failed = object(j, "failed");
        Map<String, Long> byKind = new TreeMap<>();
        object(failed, "by_kind").forEach((k, v) -> byKind.put(k, v instanceof Number x ? x.longValue() : 0L));
        Map<String, Object> system = object(j, "system");
        long memMin = number(system, "mem_available_min_bytes");
        if (memMin < 0) {
            memMin = number(system, "mem_available_bytes");
        }
        Object stopped = j.get("stopped_by");
        Object limit = j.get("limit_hit");
        if (stopped == null && limit instanceof Map<?, ?> l) {
            stopped = l.get("kind");
        }
        for (String count : new String[] {"target", "connected", "peak", "attempts"}) {
            // every idle result has them: without them the totals would be wrong, not partial
            if (!(j.get(count) instanceof Number)) {
                throw new IllegalArgumentException("no \"" + count + "\" count");
            }
        }
        return new Run(
                source,
                j.get("targets") instanceof String t ? t : "",
                Math.max(1, number(j, "processes")),
                number(j, "target"),
                number(j, "connected"),
                number(j, "peak"),
                number(j, "attempts"),
                Math.max(0, number(failed, "total")),
                byKind,
                Math.max(0, number(j, "closed_by_server")),
                stopped instanceof String s ? s : null,
                memMin);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Map<String, Object> j, String name) {
        return j.get(name) instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static long number(Map<String, Object> j, String name) {
        return j.get(name) instanceof Number n ? n.longValue() : -1;
    }

    /** The sum over runs of a figure, -1 figures counted as 0. */
    private static long sum(List<Run> runs, java.util.function.ToLongFunction<Run> f) {
        long s = 0;
        for (Run r : runs) {
            s += Math.max(0, f.applyAsLong(r));
        }
        return s;
    }

    static Map<String, Long> failedByKind(List<Run> runs) {
        Map<String, Long> all = new TreeMap<>();
        for (Run r : runs) {
            r.failedByKind().forEach((k, v) -> all.merge(k, v, Long::sum));
        }
        return all;
    }

    /** The lowest MemAvailable of any run, -1 if no run reported one. */
    static long memAvailableMin(List<Run> runs) {
        long min = -1;
        for (Run r : runs) {
            if (r.memAvailableMin() >= 0) {
                min = min < 0 ? r.memAvailableMin() : Math.min(min, r.memAvailableMin());
            }
        }
        return min;
    }

    static String toText(List<Run> runs) {
        StringBuilder sb = new StringBuilder();
        sb.append("idle-merge: ").append(runs.size()).append(runs.size() == 1 ? " run\n" : " runs\n");
        for (Run r : runs) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  %-24s %s%s  connected %d of %d  peak %d  attempts %d  failed %d%s  lowest MemAvailable %s%s%n",
                    r.source(),
                    r.targets(),
                    r.processes() == 1 ? "" : "  " + r.processes() + " processes",
                    r.connected(),
                    r.target(),
                    r.peak(),
                    r.attempts(),
                    r.failed(),
                    r.failedByKind().isEmpty() ? "" : " " + r.failedByKind(),
                    Fmt.bytes(r.memAvailableMin()),
                    r.stoppedBy() == null ? "" : "  stopped by " + r.stoppedBy()));
        }
        Map<String, Long> byKind = failedByKind(runs);
        sb.append(String.format(
                Locale.ROOT,
                "total: %d of %d connected (peaks sum to %d), %d attempts, failed %d%s, closed by the server %d,"
                        + " lowest MemAvailable %s; %d processes%n",
                sum(runs, Run::connected),
                sum(runs, Run::target),
                sum(runs, Run::peak),
                sum(runs, Run::attempts),
                sum(runs, Run::failed),
                byKind.isEmpty() ? "" : " " + byKind,
                sum(runs, Run::closedByServer),
                Fmt.bytes(memAvailableMin(runs)),
                sum(runs, Run::processes)));
        return sb.toString();
    }

    /**
     * {@code {tool, runs, processes, target, connected, peak, attempts, failed{total, by_kind{KIND:n}},
     * closed_by_server, mem_available_min_bytes, per_run[{source, targets, processes, target, connected,
     * peak, attempts, failed, stopped_by, mem_available_min_bytes}]}}, on one line; null where no run
     * reported a figure. A run without a {@code processes} field (one process) counts 1.
     */
    static String toJson(List<Run> runs) {
        JsonWriter j = new JsonWriter();
        j.begin();
        j.field("tool", "tickwork idle-merge");
        j.field("runs", runs.size());
        j.field("processes", sum(runs, Run::processes));
        j.field("target", sum(runs, Run::target));
        j.field("connected", sum(runs, Run::connected));
        j.field("peak", sum(runs, Run::peak));
        j.field("attempts", sum(runs, Run::attempts));
        j.object("failed");
        j.field("total", sum(runs, Run::failed));
        j.object("by_kind");
        failedByKind(runs).forEach(j::field);
        j.end();
        j.end();
        j.field("closed_by_server", sum(runs, Run::closedByServer));
        orNull(j, "mem_available_min_bytes", memAvailableMin(runs));
        j.array("per_run");
        for (Run r : runs) {
            j.element();
            j.field("source", r.source());
            j.field("targets", r.targets());
            j.field("processes", r.processes());
            j.field("target", r.target());
            j.field("connected", r.connected());
            j.field("peak", r.peak());
            j.field("attempts", r.attempts());
            j.field("failed", r.failed());
            if (r.stoppedBy() == null) {
                j.nullField("stopped_by");
            } else {
                j.field("stopped_by", r.stoppedBy());
            }
            orNull(j, "mem_available_min_bytes", r.memAvailableMin());
            j.end();
        }
        j.endArray();
        j.end();
        return j.toString();
    }

    private static void orNull(JsonWriter j, String name, long value) {
        if (value >= 0) {
            j.field(name, value);
        } else {
            j.nullField(name);
        }
    }
}
