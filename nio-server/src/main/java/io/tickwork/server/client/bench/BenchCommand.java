package io.tickwork.server.client.bench;

import io.tickwork.server.client.common.Args;
import io.tickwork.server.client.common.Fmt;
import io.tickwork.server.client.common.Targets;
import io.tickwork.server.client.common.UsageException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The {@code bench} subcommand: command line to {@link BenchConfig}, run, report. */
public final class BenchCommand {
    private BenchCommand() {}

    static final List<Args.Opt> OPTS = List.of(
            Args.Opt.value("connections", "C", "connections to keep open (default 64)")
                    .alias('c'),
            Args.Opt.value(
                            "depth",
                            "D",
                            "requests in flight per connection: 1 = keep-alive, " + ">1 = pipelined (default 1)")
                    .alias('d'),
            Args.Opt.value("threads", "T", "selector threads, connections spread evenly (default 1)")
                    .alias('t'),
            Args.Opt.value(
                            "duration",
                            "TIME",
                            "run time, e.g. 10s, 2m (default 10s; with --requests " + "and no --duration: at most 10m)")
                    .alias('D'),
            Args.Opt.value("requests", "N", "stop after N responses (accepts 200k, 1m)")
                    .alias('n'),
            Args.Opt.value(
                    "warmup",
                    "TIME",
                    "run the same workload unmeasured this long first, on "
                            + "the\nsame connections; counters and latency start after it (default 0s)"),
            Args.Opt.value(
                    "rate",
                    "R",
                    "open loop: R requests/s in total, latency measured from each\n"
                            + "request's intended send time (corrects coordinated omission)"),
            Args.Opt.value(
                    "urls",
                    "FILE",
                    "request targets, one per line: /path or http://host:port/path"
                            + "\non the same host:port; picked at random per request"),
            Args.Opt.flag(
                    "words",
                    "append a random word to the URL's path for each request\n"
                            + "(e.g. http://127.0.0.1:8080/d/ -> /d/apple)"),
            Args.Opt.value(
                    "word-file", "FILE", "words for --words, one per line (default: ~400 common " + "English words)"),
            Args.Opt.value(
                    "timeout",
                    "TIME",
                    "a request unanswered this long is a read timeout; the " + "connection is replaced (default 5s)"),
            Args.Opt.value("connect-timeout", "TIME", "connect timeout (default 5s)"),
            Args.Opt.value("header", "'N: V'", "an extra request header").alias('H'),
            Args.Opt.value("seed", "N", "random seed for URL choice (default 1)"),
            Args.Opt.flag("json", "print the result as one JSON object on stdout (progress to stderr)"),
            Args.Opt.value(
                    "hgrm",
                    "FILE",
                    "write the latency percentile distribution (microseconds,\n"
                            + "HdrHistogram .hgrm format, for its plotter) to FILE"),
            Args.Opt.flag("quiet", "no per-second progress lines"));

    static final String USAGE = "LoadTool bench [options] http://127.0.0.1:PORT/path";
    static final String WHAT = """
      HTTP/1.1 load generator. Closed loop by default: C connections, each keeping D requests
      in flight. With --rate, open loop at a fixed request rate. A line per second; at the end
      req/s, MiB/s, errors by kind (connect, timeout, non-2xx by status, parse, closed, io) and
      latency percentiles (HdrHistogram, 3 significant digits). Loopback targets only.""";

    public static int run(String[] argv, PrintStream out, PrintStream err) throws InterruptedException {
        Args a = Args.parse("bench", OPTS, argv);
        if (a.help()) {
            out.print(Args.help(USAGE, WHAT, OPTS));
            return 0;
        }
        BenchConfig cfg = config(a);
        boolean json = a.flag("json");
        PrintStream progress = a.flag("quiet") ? null : json ? err : out;
        if (progress != null) {
            progress.printf(
                    "bench %s: %d connections x %d in flight, %s%s%n",
                    cfg.target(),
                    cfg.connections(),
                    cfg.depth(),
                    cfg.openLoop() ? "open loop " + (long) cfg.rate() + " req/s" : "closed loop",
                    cfg.warmsUp() ? ", " + Fmt.duration(cfg.warmup()) + " warm-up first (unmeasured)" : "");
        }
        String hgrm = a.string("hgrm", null);
        Bench bench = new Bench(cfg);
        BenchReport r = bench.run(progress);
        out.print(json ? r.toJson() + "\n" : r.toText());
        if (hgrm != null) {
            try (PrintStream f = new PrintStream(new FileOutputStream(hgrm), false, StandardCharsets.UTF_8)) {
                r.latency.outputPercentileDistribution(f, 1000.0);
            } catch (IOException e) {
                err.println("error: cannot write --hgrm " + hgrm + ": " + e.getMessage());
                return 1;
            }
        }
        return 0;
    }

    static BenchConfig config(Args a) {
        List<String> pos = a.positional();
        String urlArg = pos.isEmpty() ? null : pos.get(0);
        if (pos.size() > 1) {
            throw new UsageException("bench takes one URL, got: " + pos);
        }
        String urlsFile = a.string("urls", null);
        List<String> targets = new ArrayList<>();
        Targets.Url base;
        if (urlsFile != null) {
            List<String> lines = Words.load(Path.of(urlsFile));
            Targets.Url first = null;
            for (String l : lines) {
                if (l.startsWith("http://")) {
                    Targets.Url u = Targets.url("--urls", l);
                    if (first == null) {
                        first = u;
                    } else if (!first.address().equals(u.address())) {
                        throw new UsageException("--urls must all be on one host:port: " + l);
                    }
                    targets.add(u.target());
                } else if (l.startsWith("/")) {
                    targets.add(l);
                } else {
                    throw new UsageException("--urls lines must be /path or http://host:port/path: " + l);
                }
            }
            if (urlArg != null) {
                base = Targets.url("URL", urlArg);
            } else if (first != null) {
                base = first;
            } else {
                throw new UsageException("--urls with bare paths needs a base URL for host:port");
            }
        } else {
            if (urlArg == null) {
                throw new UsageException("bench needs a URL, e.g. http://127.0.0.1:8080/ (see --help)");
            }
            base = Targets.url("URL", urlArg);
            targets.add(base.target());
        }
        if (a.flag("words")) {
            List<String> words =
                    a.has("word-file") ? Words.load(Path.of(a.string("word-file", ""))) : List.of(Words.BUILT_IN);
            List<String> prefixes = new ArrayList<>(targets);
            targets.clear();
            for (String p : prefixes) {
                for (String w : words) {
                    targets.add(p + Words.encode(w));
                }
            }
        }
        String header = a.string("header", null);
        if (header != null && (header.indexOf(':') <= 0 || header.contains("\n") || header.contains("\r"))) {
            throw new UsageException("--header must be 'Name: value' on one line: " + header);
        }
        List<byte[]> requests = new ArrayList<>(targets.size());
        for (String t : targets) {
            requests.add(request(t, base.hostHeader(), header));
        }
        long count = a.longValue("requests", 0, 1, Long.MAX_VALUE / 2);
        Duration defaultDuration = count > 0 ? Duration.ofMinutes(10) : Duration.ofSeconds(10);
        Duration duration = a.duration("duration", defaultDuration, Duration.ofMillis(100), Duration.ofHours(24));
        int connections = a.intValue("connections", 64, 1, 1_000_000);
        int depth = a.intValue("depth", 1, 1, 10_000);
        int threads = a.intValue("threads", 1, 1, 1024);
        double rate = a.doubleValue("rate", 0, 0, 1e9);
        if (a.has("rate") && rate <= 0) {
            throw new UsageException("--rate must be > 0: " + a.string("rate", ""));
        }
        Duration timeout = a.duration("timeout", Duration.ofSeconds(5), Duration.ofMillis(1), Duration.ofHours(1));
        Duration connectTimeout =
                a.duration("connect-timeout", Duration.ofSeconds(5), Duration.ofMillis(1), Duration.ofHours(1));
        long seed = a.longValue("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
        String describe = "http://" + base.hostHeader()
                + (targets.size() == 1 ? targets.get(0) : " (" + targets.size() + " URLs)");
        Duration warmup = a.duration("warmup", Duration.ZERO, Duration.ZERO, Duration.ofHours(1));
        return new BenchConfig(
                base.address(),
                describe,
                requests,
                connections,
                depth,
                threads,
                warmup,
                duration,
                count,
                rate,
                timeout,
                connectTimeout,
                seed);
    }

    static byte[] request(String target, String host, String header) {
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw new UsageException("URL path must be encoded, no spaces or controls: " + target);
            }
        }
        String r = "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n" + (header == null ? "" : header + "\r\n")
                + "\r\n";
        return r.getBytes(StandardCharsets.ISO_8859_1);
    }
}
