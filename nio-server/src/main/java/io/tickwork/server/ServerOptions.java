package io.tickwork.server;

import io.tickwork.server.dict.DictionaryHandler;
import io.tickwork.server.http.HttpServer;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The command line: typed options, their defaults and help text. Both {@code --port 8080} and
 * {@code --port=8080} work; a repeated option takes its last value, every value is checked.
 * Errors (a {@link ParameterException}) name the option and the value.
 */
@Command(
        name = "java -jar tickwork-server.jar",
        synopsisHeading = "usage: ",
        abbreviateSynopsis = true,
        sortOptions = false,
        description = "The dictionary server: WordNet 3.1 lookups over HTTP/1.1.")
final class ServerOptions {
    @Option(
            names = "--port",
            paramLabel = "N",
            converter = PortNumber.class,
            description = "TCP port (default ${DEFAULT-VALUE}; 0 picks a free one)")
    int port = 9090;

    @Option(
            names = "--host",
            paramLabel = "ADDR",
            converter = HostName.class,
            description =
                    "address to bind (default ${DEFAULT-VALUE}; 0.0.0.0 for every IPv4 interface, :: for every one)")
    String host = "127.0.0.1";

    @Option(
            names = "--threads",
            paramLabel = "N",
            converter = LoopCount.class,
            description = "selector loops (default: one per core, ${DEFAULT-VALUE} here; with --processes, each"
                    + " worker's default is the cores shared over the workers, at least 1)")
    int threads = Math.min(Runtime.getRuntime().availableProcessors(), HttpServer.Builder.MAX_THREADS);

    /** {@code --threads} was given: a worker of {@code --processes} takes it as it is. */
    boolean threadsGiven;

    @Option(
            names = "--idle-timeout",
            paramLabel = "T",
            converter = DurationConverter.class,
            description = "close keep-alive connections idle this long (default 60s; e.g. 300ms, 30s, 2m; a bare"
                    + " number is seconds; whole milliseconds, as every timeout here)")
    Duration idleTimeout = Duration.ofSeconds(60);

    @Option(
            names = "--header-timeout",
            paramLabel = "T",
            converter = DurationConverter.class,
            description = "408 and close when a request (head and body) takes longer (default 10s)")
    Duration headerTimeout = Duration.ofSeconds(10);

    @Option(
            names = "--drain-timeout",
            paramLabel = "T",
            converter = DurationConverter.class,
            description = "on SIGTERM, Ctrl-C or SIGHUP, finish the responses in flight for at most this long (a"
                    + " second signal: at once), then close the connections still busy (default 5s)")
    Duration drainTimeout = Duration.ofSeconds(5);

    @Option(
            names = "--timer",
            paramLabel = "KIND",
            converter = TimerConverter.class,
            completionCandidates = TimerNames.class,
            description = "timer queue for the timeouts: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE})")
    String timer = Timers.DEFAULT;

    @Option(
            names = "--workers",
            paramLabel = "N",
            converter = WorkerCount.class,
            description = "run handlers on a pool of N threads, each connection's responses kept in order by"
                    + " the ordered-execution primitive (default 0: handlers run on the loops)")
    int workers = 0;

    @Option(
            names = "--response-timeout",
            paramLabel = "T",
            converter = DurationConverter.class,
            description = "with --workers: 503 and close when a connection's next response takes longer, nothing"
                    + " else moving on it (default: none, wait for the handlers)")
    Duration responseTimeout;

    @Option(
            names = "--cached-words",
            paramLabel = "N",
            converter = CachedWords.class,
            description = "bodies of recent /d answers each handler thread keeps, at most 16 KB each (0 or a"
                    + " power of two from 2 to 4096; default ${DEFAULT-VALUE}, up to 4.3 MB a thread; 0: every"
                    + " request searches the file)")
    int cachedWords = DictionaryHandler.DEFAULT_CACHED_WORDS;

    @Option(
            names = "--data",
            paramLabel = "FILE",
            description = "a compiled dictionary (.twd) instead of the embedded WordNet 3.1")
    Path data;

    @Option(
            names = "--max-connections",
            paramLabel = "N",
            converter = ConnectionCap.class,
            description = "most connections one process holds open; at the cap it stops accepting until one"
                    + " closes (default: no cap; with --processes, " + WorkerLauncher.DEFAULT_CONNECTIONS
                    + " per worker, below a 20,000-descriptor limit)")
    Integer maxConnections;

    @Option(
            names = "--processes",
            paramLabel = "N",
            converter = ProcessCount.class,
            description = "serve from N worker processes (JVMs) sharing the port with SO_REUSEPORT, each with"
                    + " the options here (--threads loops each, by default the cores over N); their output is"
                    + " forwarded prefixed [w0], [w1]...; one start line gives each worker's pid and private"
                    + " /stats URL; SIGTERM stops them all; a worker that fails once all serve is restarted, and"
                    + " all are stopped (exit 1) if one fails before they serve, at a worker's 4th failure"
                    + " within 60 s, if a restart does not serve within 60 s, or if a worker exits as a stop"
                    + " would (default 1: this process serves)")
    int processes = 1;

    @Option(
            names = "--worker-jvm-opts",
            paramLabel = "OPTS",
            converter = JvmOptions.class,
            description = "with --processes: more JVM options for every worker, separated by spaces, after"
                    + " the defaults so they win; defaults:%n"
                    + WorkerLauncher.DEFAULT_JVM_OPTS_HELP)
    String workerJvmOpts;

    /** Set by {@link WorkerLauncher} on the command lines of its workers: this worker's number. */
    @Option(names = "--worker-index", hidden = true, converter = WorkerIndex.class)
    int workerIndex = -1;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "this text")
    boolean help;

    /**
     * Parses {@code args} into {@code o} and returns the parser (it knows whether help was
     * asked for). Throws {@link ParameterException} naming the bad option, also when
     * {@code --help} is among the arguments.
     */
    static CommandLine parse(ServerOptions o, String... args) {
        CommandLine cl = new CommandLine(o).setOverwrittenOptionsAllowed(true);
        o.threadsGiven = cl.parseArgs(args).hasMatchedOption("--threads");
        if (!cl.getUnmatchedArguments().isEmpty()) {
            throw new UnmatchedArgumentException(cl, cl.getUnmatchedArguments());
        }
        if (o.workerJvmOpts != null && o.processes == 1) {
            throw new ParameterException(cl, "--worker-jvm-opts needs --processes 2 or more");
        }
        if (o.responseTimeout != null && o.workers == 0) {
            throw new ParameterException(
                    cl, "--response-timeout needs --workers: handlers on the loops cannot be timed out");
        }
        if (o.workerIndex >= 0 && o.processes != 1) {
            throw new ParameterException(cl, "a worker (--worker-index) does not take --processes");
        }
        return cl;
    }

    /**
     * Selector loops for each worker of {@code --processes} on a machine of {@code cores}:
     * {@code --threads} if given, else the cores shared over the workers (at least 1), so the
     * workers together run about one loop per core instead of one per core each: a worker's fixed
     * heap holds a loop's buffers and budgets, which do not fit 64 times over.
     */
    int workerThreads(int cores) {
        return threadsGiven ? threads : Math.max(1, Math.min(cores, HttpServer.Builder.MAX_THREADS) / processes);
    }

    /** The connection cap: {@code --max-connections}, else a worker's default, else none. */
    int connectionCap() {
        if (maxConnections != null) {
            return maxConnections;
        }
        return processes > 1 || workerIndex >= 0 ? WorkerLauncher.DEFAULT_CONNECTIONS : Integer.MAX_VALUE;
    }

    /** An integer in {@code [min, max]}; the message names the range and the value. */
    abstract static class IntIn implements ITypeConverter<Integer> {
        private final int min;
        private final int max;

        IntIn(int min, int max) {
            this.min = min;
            this.max = max;
        }

        @Override
        public Integer convert(String v) {
            try {
                int x = asciiInt(v);
                if (x >= min && x <= max) {
                    return x;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new TypeConversionException("must be an integer in " + min + ".." + max + ": " + v);
        }
    }

    /**
     * An option's integer as typed: ASCII digits only, an optional leading minus (for the range
     * check to refuse with the value), no {@code +} and no other script's digits, which
     * {@link Integer#parseInt} would take.
     *
     * @throws NumberFormatException if {@code v} is not such a number or overflows an int
     */
    static int asciiInt(String v) {
        int start = v.startsWith("-") ? 1 : 0;
        if (v.length() == start) {
            throw new NumberFormatException(v);
        }
        for (int i = start; i < v.length(); i++) {
            if (v.charAt(i) < '0' || v.charAt(i) > '9') {
                throw new NumberFormatException(v);
            }
        }
        return Integer.parseInt(v);
    }

    /** {@code --port}: 0..65535. */
    static final class PortNumber extends IntIn {
        PortNumber() {
            super(0, 65535);
        }
    }

    /** {@code --threads}: 1..1024 selector loops. */
    static final class LoopCount extends IntIn {
        LoopCount() {
            super(1, HttpServer.Builder.MAX_THREADS);
        }
    }

    /** {@code --workers}: 0..1024 pool threads. */
    static final class WorkerCount extends IntIn {
        WorkerCount() {
            super(0, 1024);
        }
    }

    /** {@code --cached-words}: 0, or a power of two from 2 to {@link DictionaryHandler#MAX_CACHED_WORDS}. */
    static final class CachedWords implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String v) {
            try {
                int n = asciiInt(v);
                if (DictionaryHandler.cachedWordsAllowed(n)) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new TypeConversionException(
                    "must be 0 or a power of two from 2 to " + DictionaryHandler.MAX_CACHED_WORDS + ": " + v);
        }
    }

    /** {@code --processes}: 1..256 processes. */
    static final class ProcessCount extends IntIn {
        ProcessCount() {
            super(1, 256);
        }
    }

    /** {@code --worker-index}: 0..255, one below the most processes. */
    static final class WorkerIndex extends IntIn {
        WorkerIndex() {
            super(0, 255);
        }
    }

    /** {@code --max-connections}: 1..10,000,000 (a connection needs a descriptor; no process gets that many). */
    static final class ConnectionCap extends IntIn {
        ConnectionCap() {
            super(1, 10_000_000);
        }
    }

    /** {@code --worker-jvm-opts}: JVM options split at whitespace, each starting with {@code -}. */
    static final class JvmOptions implements ITypeConverter<String> {
        @Override
        public String convert(String v) {
            String[] parts = v.trim().split("\\s+");
            for (String p : parts) {
                if (!p.startsWith("-")) {
                    throw new TypeConversionException(
                            "must be JVM options separated by spaces, each starting with '-': " + v);
                }
            }
            return String.join(" ", parts);
        }
    }

    /**
     * A duration of at least 1 ms, in whole milliseconds: a non-negative decimal number with a unit
     * {@code us}, {@code ms}, {@code s}, {@code m} or {@code h}, seconds without one ({@code 300ms},
     * {@code 1.5}, {@code 2m}); {@code 1.9ms} is refused, not rounded.
     * The load tools' grammar ({@code OptionValues.parseDuration} in {@code nio-client}), so one
     * spelling works on both command lines; the two modules share no code (the server depends on
     * {@code primitives} only), and both test the same cases.
     */
    static final class DurationConverter implements ITypeConverter<Duration> {
        private static final BigDecimal NANOS_PER_MILLI = BigDecimal.valueOf(1_000_000);
        private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(HttpServer.MAX_TIMEOUT.toNanos());

        @Override
        public Duration convert(String v) {
            String s = v.trim().toLowerCase(Locale.ROOT);
            int unitLength = s.endsWith("ms") || s.endsWith("us") ? 2 : s.matches(".*[smh]$") ? 1 : 0;
            String unit = s.substring(s.length() - unitLength);
            long nanosPerUnit;
            switch (unit) {
                case "us":
                    nanosPerUnit = 1_000L;
                    break;
                case "ms":
                    nanosPerUnit = 1_000_000L;
                    break;
                case "m":
                    nanosPerUnit = 60_000_000_000L;
                    break;
                case "h":
                    nanosPerUnit = 3_600_000_000_000L;
                    break;
                default:
                    nanosPerUnit = 1_000_000_000L; // "s", or no unit
            }
            String num = s.substring(0, s.length() - unitLength);
            // digits and one point only: BigDecimal would also take "1e3"; exact decimal arithmetic,
            // where a double would make 1.001s 1000.999999 ms
            if (num.matches("[0-9]+(\\.[0-9]*)?|\\.[0-9]+")) {
                BigDecimal nanos = new BigDecimal(num).multiply(BigDecimal.valueOf(nanosPerUnit));
                if (nanos.compareTo(MAX_NANOS) > 0) {
                    throw new TypeConversionException(
                            "must be at most " + HttpServer.MAX_TIMEOUT.toDays() + " days (720h): " + v);
                }
                if (nanos.compareTo(NANOS_PER_MILLI) >= 0) {
                    if (nanos.remainder(NANOS_PER_MILLI).signum() != 0) {
                        // the loops count whole milliseconds: say so rather than round silently
                        throw new TypeConversionException("must be whole milliseconds: " + v);
                    }
                    return Duration.ofMillis(nanos.divide(NANOS_PER_MILLI).longValueExact());
                }
            }
            throw new TypeConversionException(
                    "must be a duration of at least 1ms, a number with a unit us, ms, s, m or h (300ms, 30s, 2m): "
                            + v);
        }
    }

    /** A {@code --host} that resolves to an address, checked while the options are read. */
    static final class HostName implements ITypeConverter<String> {
        @Override
        public String convert(String v) {
            if (new InetSocketAddress(v, 0).isUnresolved()) {
                throw new TypeConversionException("cannot resolve host: " + v);
            }
            return v;
        }
    }

    /** A {@code --timer} name to its canonical spelling. */
    static final class TimerConverter implements ITypeConverter<String> {
        @Override
        public String convert(String v) {
            try {
                return Timers.check(v);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** The {@code --timer} names, for the help text. */
    static final class TimerNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Timers.names().iterator();
        }
    }
}
