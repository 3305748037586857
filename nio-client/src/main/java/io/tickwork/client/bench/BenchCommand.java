package io.tickwork.client.bench;

import static io.tickwork.client.common.OptionValues.inRange;
import static io.tickwork.client.common.OptionValues.intInRange;

import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.HelpOption;
import io.tickwork.client.common.OpenFiles;
import io.tickwork.client.common.OptionValues;
import io.tickwork.client.common.OptionValues.CountConverter;
import io.tickwork.client.common.OptionValues.DurationConverter;
import io.tickwork.client.common.OptionValues.RateConverter;
import io.tickwork.client.common.ReportOnSignal;
import io.tickwork.client.common.Targets;
import io.tickwork.client.common.UsageException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code bench} subcommand: its options (picocli), the validated {@link BenchConfig}, the run
 * and the report. One instance per command line; not thread safe.
 */
@Command(
        name = "bench",
        sortOptions = false,
        abbreviateSynopsis = true,
        description = {
            "HTTP/1.1 load: closed loop (keep-alive or pipelined) or open loop at --rate, req/s, MiB/s, errors"
                    + " by kind, latency percentiles, --json",
            "",
            "Closed loop by default: C connections, each keeping D requests in flight. With --rate, open loop"
                    + " at a fixed request rate. A line per second; at the end req/s, MiB/s, errors by kind"
                    + " (connect, timeout, non-2xx by status, parse, closed, io) and latency percentiles"
                    + " (HdrHistogram, 3 significant digits). Any host; the host name is resolved once.",
            "",
            "Exit status: 0 a complete run (non-2xx responses included: they are counted); 1 after the report"
                    + " when nothing was measured (no connection, no response completed), the server stopped"
                    + " accepting connections, or a load thread failed; 2 a bad command line; 130, 143 ended by"
                    + " SIGINT, SIGTERM (after the report).",
            ""
        })
public final class BenchCommand implements Callable<Integer> {

    @Parameters(
            paramLabel = "URL",
            arity = "0..1",
            description = "http://HOST:PORT/path, e.g. http://127.0.0.1:9090/d/time")
    String url;

    @Option(
            names = {"-c", "--connections"},
            paramLabel = "C",
            defaultValue = "64",
            converter = CountConverter.class,
            description = "connections to keep open (default ${DEFAULT-VALUE})")
    long connections;

    @Option(
            names = {"-d", "--depth"},
            paramLabel = "D",
            defaultValue = "1",
            converter = CountConverter.class,
            description =
                    "requests in flight per connection: 1 = keep-alive, >1 = pipelined (default ${DEFAULT-VALUE})")
    long depth;

    @Option(
            names = {"-t", "--threads"},
            paramLabel = "T",
            converter = CountConverter.class,
            description = "selector threads, connections spread evenly (default ${DEFAULT-VALUE}, half the cores:"
                    + " the server under test usually has the other half)")
    long threads = OptionValues.HALF_THE_CORES;

    /** Injected by picocli: tells whether {@code --threads} was given or is the default. */
    @Spec
    CommandSpec spec;

    @Option(
            names = {"-D", "--duration"},
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "run time, e.g. 10s, 2m (default 10s; with --requests and no --duration: at most 10m)")
    Duration duration;

    @Option(
            names = {"-n", "--requests"},
            paramLabel = "N",
            converter = CountConverter.class,
            description = "stop after N responses (accepts 200k, 1m)")
    Long requests;

    @Option(
            names = "--warmup",
            paramLabel = "TIME",
            defaultValue = "0s",
            converter = DurationConverter.class,
            description = "run the same workload unmeasured this long first, on the same connections; counters"
                    + " and latency start after it (default ${DEFAULT-VALUE})")
    Duration warmup;

    @Option(
            names = "--rate",
            paramLabel = "R",
            converter = RateConverter.class,
            description = "open loop: R requests/s in total, latency measured from each request's intended send"
                    + " time (corrects coordinated omission); a request may go out up to 1 ms late, and that"
                    + " delay counts, unless --spin")
    Double rate;

    @Option(
            names = "--spin",
            description = "busy-poll (selectNow) instead of sleeping in epoll_wait, a core per thread: with --rate,"
                    + " requests go out within microseconds of their intended time instead of up to 1 ms after"
                    + " it (a delay charged to the latency)")
    boolean spin;

    @Option(
            names = "--urls",
            paramLabel = "FILE",
            description = "request targets, one per line: /path or http://host:port/path on the same host:port;"
                    + " picked at random per request")
    String urls;

    @Option(
            names = "--words",
            description = "append a random word to the URL's path for each request (/d/ -> /d/apple)")
    boolean words;

    @Option(
            names = "--word-file",
            paramLabel = "FILE",
            description = "words for --words, one per line (default: 335 common English words, 332 distinct)")
    String wordFile;

    @Option(
            names = "--timeout",
            paramLabel = "TIME",
            defaultValue = "5s",
            converter = DurationConverter.class,
            description = "a request unanswered this long is a read timeout; the connection is replaced"
                    + " (default ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(
            names = "--connect-timeout",
            paramLabel = "TIME",
            defaultValue = "5s",
            converter = DurationConverter.class,
            description = "connect timeout (default ${DEFAULT-VALUE})")
    Duration connectTimeout;

    @Option(
            names = {"-H", "--header"},
            paramLabel = "'N: V'",
            description = "an extra request header; repeat for more")
    List<String> headers = new ArrayList<>();

    @Option(
            names = "--seed",
            paramLabel = "N",
            defaultValue = "1",
            converter = CountConverter.class,
            description = "random seed for URL choice (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--json", description = "print the result as one JSON object on stdout (progress to stderr)")
    boolean json;

    @Option(
            names = "--hgrm",
            paramLabel = "FILE",
            description = "write the latency percentile distribution (microseconds, HdrHistogram .hgrm format,"
                    + " for its plotter) to FILE")
    String hgrm;

    @Option(names = "--quiet", description = "no per-second progress lines")
    boolean quiet;

    @Mixin
    HelpOption help = new HelpOption();

    private final PrintStream out;
    private final PrintStream err;

    BenchCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The {@code bench} command: progress and report to {@code out}; with --json, progress to {@code err}. */
    public static CommandLine commandLine(PrintStream out, PrintStream err) {
        return new CommandLine(new BenchCommand(out, err));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        BenchConfig cfg = config();
        PrintStream progress = quiet ? null : json ? err : out;
        if (progress != null) {
            progress.printf(
                    "bench %s: %d connections x %d in flight, %s%s%n",
                    cfg.target(),
                    cfg.connections(),
                    cfg.depth(),
                    cfg.openLoop() ? "open loop " + rateText(cfg.rate()) + " req/s" : "closed loop",
                    cfg.warmsUp() ? ", " + Fmt.duration(cfg.warmup()) + " warm-up first (unmeasured)" : "");
        }
        Bench bench = new Bench(cfg);
        // Ctrl-C or SIGTERM: the run ends early and its report still comes out
        return ReportOnSignal.run(
                "bench",
                () -> {
                    signalled = true;
                    bench.stop();
                },
                () -> runAndReport(cfg, bench, progress));
    }

    /** A signal ended the run (set before the stop, so a report that follows it sees it). */
    private volatile boolean signalled;

    private int runAndReport(BenchConfig cfg, Bench bench, PrintStream progress) throws InterruptedException {
        BenchReport r = bench.run(progress);
        out.print(json ? r.toJson() + "\n" : r.toText());
        out.flush();
        Throwable failed = bench.workerFailure();
        if (failed != null) {
            err.println("error: a load thread failed, so the figures above are incomplete: " + failed);
            failed.printStackTrace(err);
            return 1;
        }
        if (bench.neverConnected()) {
            err.println("error: no connection to " + cfg.target() + " succeeded, so nothing was measured");
            return 1;
        }
        if (bench.lostTheServerAfter() > 0) {
            err.println("error: " + cfg.target() + " stopped accepting connections; the run gave up at second "
                    + bench.lostTheServerAfter() + ", and the figures above cover it up to then");
            return 1;
        }
        if (bench.failedEveryConnectionAfter() > 0) {
            err.println("error: " + cfg.target() + " closed, reset or garbled every connection without a response for "
                    + Bench.GIVE_UP_SECONDS + " s; the run gave up at second " + bench.failedEveryConnectionAfter()
                    + ", and the figures above cover it up to then");
            return 1;
        }
        if (r.completed == 0) {
            err.println("error: no response from " + cfg.target() + " completed in the measured run, so nothing"
                    + " was measured ("
                    + (signalled
                            ? "stopped by a signal"
                                    + (bench.stoppedInConnectPhase()
                                            ? " while the connections were opening"
                                            : r.elapsedSeconds == 0 ? " during the warm-up" : "")
                            : r.errors() > 0
                                    ? "the errors above say why"
                                    : r.sent == 0 && r.unsentAtEnd > 0
                                            ? "the " + r.unsentAtEnd + " requests intended in it were never sent: the"
                                                    + " connections were busy with earlier ones, the server answering"
                                                    + " fewer than --rate"
                                            : r.unansweredAtEnd > 0
                                                    ? r.unansweredAtEnd
                                                            + " requests were still unanswered when the time"
                                                            + " was up"
                                                    : "no request was answered")
                    + ")");
            return 1;
        }
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

    /** The options, checked and resolved into a run: URLs read and requests encoded. */
    BenchConfig config() {
        if (hgrm != null) {
            // before the run, not after it, and without creating it: a run that fails writes none
            Path file = Path.of(hgrm).toAbsolutePath();
            Path dir = file.getParent();
            if (Files.exists(file)
                    ? !Files.isWritable(file) || Files.isDirectory(file)
                    : dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir)) {
                throw new UsageException("cannot write --hgrm " + hgrm + ": "
                        + (Files.exists(file) ? "not a writable file" : "no writable directory " + dir));
            }
        }
        String urlArg = url;
        String urlsFile = urls;
        List<String> targets = new ArrayList<>();
        Targets.Url base;
        if (urlsFile != null) {
            List<String> lines = Words.load("--urls", Path.of(urlsFile)); // at most MAX_TARGETS
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
                if (first != null && !first.address().equals(base.address())) {
                    throw new UsageException("--urls must all be on the URL's host:port " + Targets.text(base.address())
                            + ": " + Targets.text(first.address()));
                }
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
        if (wordFile != null && !words) {
            throw new UsageException("--word-file gives the words --words appends: add --words");
        }
        if (words) {
            List<String> list =
                    wordFile != null ? Words.load("--word-file", Path.of(wordFile)) : List.of(Words.BUILT_IN);
            List<String> prefixes = new ArrayList<>(targets);
            if ((long) prefixes.size() * list.size() > MAX_TARGETS) {
                throw new UsageException("--words gives " + prefixes.size() + " URLs x " + list.size() + " words = "
                        + (long) prefixes.size() * list.size() + " requests, more than " + MAX_TARGETS
                        + " held at once: use fewer");
            }
            targets.clear();
            for (String p : prefixes) {
                for (String w : list) {
                    targets.add(p + Words.encode(w));
                }
            }
        }
        StringBuilder extra = new StringBuilder();
        for (String header : headers) {
            if (header.indexOf(':') <= 0 || header.contains("\n") || header.contains("\r")) {
                throw new UsageException("--header must be 'Name: value' on one line: " + header);
            }
            extra.append(header).append("\r\n");
        }
        List<byte[]> encoded = new ArrayList<>(targets.size());
        for (String t : targets) {
            encoded.add(request(t, base.hostHeader(), extra.toString()));
        }
        long count = requests == null ? 0 : inRange("--requests", requests, 1, Long.MAX_VALUE / 2);
        Duration defaultDuration = count > 0 ? Duration.ofMinutes(10) : Duration.ofSeconds(10);
        Duration runFor = inRange(
                "--duration",
                duration == null ? defaultDuration : duration,
                Duration.ofMillis(100),
                Duration.ofHours(24));
        int conns = intInRange("--connections", connections, 1, 1_000_000);
        OpenFiles.check(
                "--connections " + conns,
                conns,
                OpenFiles.limit(),
                "bench runs in one process: use fewer, or several bench processes, or raise the hard limit (ulimit -Hn)");
        int inFlight = intInRange("--depth", depth, 1, 10_000);
        int selectors = intInRange("--threads", threads, 1, 1024);
        if (rate != null && !(rate > 0 && rate <= 1e9)) { // one message for 0, a negative and a huge rate
            throw new UsageException("--rate must be in (0, 1000000000]: " + OptionValues.number(rate));
        }
        double perSecond = rate == null ? 0 : rate;
        boolean threadsGiven =
                spec != null && spec.commandLine().getParseResult().hasMatchedOption("--threads");
        if (rate != null && !threadsGiven) {
            // the default (half the cores) gives way to a low rate: no more threads than the run has
            // requests, so that each sends a share of the schedule (40 cores' worth for 20 req/s over 1 s
            // would refuse a run nobody asked to spread)
            double requests = perSecond * (runFor.toNanos() / 1e9);
            selectors = (int) Math.max(1, Math.min(selectors, Math.floor(requests)));
        }
        int running = Math.min(selectors, conns); // a thread per connection at most
        if (rate != null && perSecond * (runFor.toNanos() / 1e9) < running) {
            // each thread sends its share of the rate on its own schedule: a share of less than one
            // request in the whole run is a typo, and its schedule's arithmetic would overflow
            throw new UsageException("--rate " + OptionValues.number(rate) + " gives each of the " + running
                    + " threads less than one request in --duration " + runFor.toMillis() / 1000.0
                    + " s: raise it, or use fewer threads");
        }
        Duration readTimeout = inRange("--timeout", timeout, Duration.ofMillis(1), Duration.ofHours(1));
        Duration connTimeout = inRange("--connect-timeout", connectTimeout, Duration.ofMillis(1), Duration.ofHours(1));
        checkBuffers(conns, inFlight, encoded, Runtime.getRuntime().maxMemory());
        String describe = "http://" + base.hostHeader()
                + (targets.size() == 1 ? targets.get(0) : " (" + targets.size() + " URLs)");
        return new BenchConfig(
                base.address(),
                describe,
                encoded,
                conns,
                inFlight,
                selectors,
                inRange("--warmup", warmup, Duration.ZERO, Duration.ofHours(1)),
                runFor,
                count,
                perSecond,
                readTimeout,
                connTimeout,
                seed,
                spin);
    }

    /** The most distinct requests a run holds, encoded, for the whole run. */
    static final int MAX_TARGETS = 1_000_000;

    /**
     * Refuses a run whose buffers would not fit half of {@code maxHeap}: each connection holds
     * {@code depth} of the longest request, and 17 bytes of bookkeeping per request in flight;
     * the requests are held once. Refused up front, in one line, instead of an
     * {@link OutOfMemoryError} partway into the setup.
     */
    static void checkBuffers(int connections, int depth, List<byte[]> requests, long maxHeap) {
        long longest = 0;
        long all = 0;
        for (byte[] r : requests) {
            longest = Math.max(longest, r.length);
            all += r.length + 16;
        }
        long perConnection = depth * (longest + 17);
        long need = connections * perConnection + all;
        if (depth * longest > Integer.MAX_VALUE || need > maxHeap / 2) {
            throw new UsageException("--connections " + connections + " with --depth " + depth + " of requests up to "
                    + longest + " bytes need " + (need >> 20) + " MiB of buffers, more than half of this JVM's heap ("
                    + (maxHeap >> 20) + " MiB): lower them, or raise -Xmx");
        }
    }

    /** A rate as given: whole numbers without a fraction, {@code 0.5} as {@code 0.5}, not {@code 0}. */
    static String rateText(double rate) {
        return rate == Math.rint(rate) && rate < 1e15
                ? Long.toString((long) rate)
                : java.math.BigDecimal.valueOf(rate).stripTrailingZeros().toPlainString();
    }

    /** A GET of {@code target}; {@code extraHeaders}: header lines, each ending in CRLF, or "". */
    static byte[] request(String target, String host, String extraHeaders) {
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw new UsageException("URL path must be encoded, no spaces or controls: " + target);
            }
        }
        String r = "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n" + extraHeaders + "\r\n";
        return r.getBytes(StandardCharsets.ISO_8859_1);
    }
}
