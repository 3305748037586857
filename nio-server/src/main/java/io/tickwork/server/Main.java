package io.tickwork.server;

import io.tickwork.server.dict.Dictionary;
import io.tickwork.server.dict.DictionaryHandler;
import io.tickwork.server.http.HttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Runs the dictionary server: {@code java -jar tickwork-server.jar [options]}. Prints one line
 * with the URL and the word count once it serves; SIGTERM or Ctrl-C stops it gracefully (no new
 * connections, responses in flight finished) and the process exits 0. With {@code --processes N}
 * it starts N worker processes sharing the port instead ({@link WorkerLauncher}).
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Parses, starts, waits for a stop signal; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Options o = new Options();
        CommandLine cl;
        try {
            cl = Options.parse(o, args);
        } catch (ParameterException e) {
            err.println("tickwork: " + e.getMessage());
            e.getCommandLine().usage(err, CommandLine.Help.Ansi.OFF);
            return 2;
        }
        if (cl.isUsageHelpRequested()) {
            cl.usage(out, CommandLine.Help.Ansi.OFF);
            return 0;
        }
        if (o.processes > 1) {
            return WorkerLauncher.run(o, out, err);
        }
        return serve(o, out, err);
    }

    /**
     * Serves in this process until a stop signal; returns the exit code. As a worker of
     * {@link WorkerLauncher} ({@code --worker-index}) it also shares the port with
     * {@code SO_REUSEPORT}, serves its own counters on a private port, stops when the launcher is
     * gone, and prints {@link WorkerLauncher#workerLine} instead of the start line.
     */
    private static int serve(Options o, PrintStream out, PrintStream err) {
        boolean worker = o.workerIndex >= 0;
        Dictionary dict;
        try {
            dict = o.data == null ? Dictionary.openEmbedded() : Dictionary.open(o.data);
        } catch (IOException | RuntimeException e) {
            err.println("tickwork: cannot open the dictionary: " + e.getMessage());
            return 1;
        }
        HttpServer server;
        HttpServer statsServer = null;
        ExecutorService pool = null;
        try {
            HttpServer.Builder b = HttpServer.builder(new DictionaryHandler(dict, null, o.cachedWords))
                    .host(o.host)
                    .port(o.port)
                    .idleTimeout(o.idleTimeout)
                    .headerTimeout(o.headerTimeout)
                    .maxConnections(o.connectionCap())
                    .reusePort(worker);
            b.timers(Timers.factory(o.timer));
            b.threads(o.threads);
            if (o.workers > 0) {
                pool = Executors.newFixedThreadPool(o.workers, r -> {
                    Thread t = new Thread(r, "tickwork-worker");
                    t.setDaemon(true);
                    return t;
                });
                b.workers(pool);
            }
            server = b.start();
        } catch (IOException | UnsupportedOperationException e) {
            err.println("tickwork: cannot listen on " + o.host + ":" + o.port + ": " + e.getMessage());
            return 1;
        }
        if (worker) {
            try {
                statsServer = WorkerLauncher.statsListener(dict, server, o);
            } catch (IOException e) {
                server.close();
                err.println("tickwork: cannot listen on " + o.host + ":0 for the worker's /stats: " + e.getMessage());
                return 1;
            }
        }
        CountDownLatch stop = new CountDownLatch(1);
        Signals.onTermination(stop::countDown);
        if (worker) {
            WorkerLauncher.onLauncherGone(stop::countDown);
        }
        HttpServer side = statsServer;
        Thread hook = new Thread(
                () -> {
                    server.close();
                    if (side != null) {
                        side.close();
                    }
                },
                "tickwork-shutdown");
        Runtime.getRuntime().addShutdownHook(hook); // other ways the JVM may end (System.exit, SIGHUP)
        String summary = String.format(
                Locale.ROOT,
                "%,d words, %d selector loops%s%s, timer %s, data %s",
                dict.wordCount(),
                server.threads(),
                o.workers > 0 ? ", " + o.workers + " workers" : "",
                o.connectionCap() == Integer.MAX_VALUE
                        ? ""
                        : String.format(Locale.ROOT, ", at most %,d connections", o.connectionCap()),
                o.timer,
                dict.source());
        if (worker) {
            out.println(WorkerLauncher.workerLine(
                    o.workerIndex, url(server.address()), url(statsServer.address()) + "stats", summary));
        } else {
            out.println("tickwork dictionary: " + url(server.address()) + "  (" + summary + ")");
        }
        out.flush();
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.close();
        if (statsServer != null) {
            statsServer.close();
        }
        if (pool != null) {
            pool.shutdown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or ran; close() is idempotent
        }
        out.printf(
                Locale.ROOT,
                "%s: stopped after %,d requests%n",
                worker ? "tickwork worker " + o.workerIndex : "tickwork dictionary",
                server.stats().requests());
        return 0;
    }

    /** {@code http://host:port/} for a bound address; the wildcard address reads {@code localhost}. */
    private static String url(InetSocketAddress a) {
        String host = a.getAddress().isAnyLocalAddress() ? "localhost" : a.getHostString();
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + a.getPort() + "/";
    }

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
    static final class Options {
        @Option(
                names = "--port",
                paramLabel = "N",
                converter = PortNumber.class,
                description = "TCP port (default ${DEFAULT-VALUE}; 0 picks a free one)")
        int port = 9090;

        @Option(
                names = "--host",
                paramLabel = "ADDR",
                description = "address to bind (default ${DEFAULT-VALUE}; 0.0.0.0 for all)")
        String host = "127.0.0.1";

        @Option(
                names = "--threads",
                paramLabel = "N",
                converter = LoopCount.class,
                description = "selector loops (default: one per core, ${DEFAULT-VALUE} here)")
        int threads = Runtime.getRuntime().availableProcessors();

        @Option(
                names = "--idle-timeout",
                paramLabel = "T",
                converter = DurationConverter.class,
                description = "close keep-alive connections idle this long (default 60s; e.g. 300ms, 30s, 2m)")
        Duration idleTimeout = Duration.ofSeconds(60);

        @Option(
                names = "--header-timeout",
                paramLabel = "T",
                converter = DurationConverter.class,
                description = "408 and close when a request head takes longer (default 10s)")
        Duration headerTimeout = Duration.ofSeconds(10);

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
                        + " the options here (--threads loops each); their output is forwarded prefixed [w0],"
                        + " [w1]...; one start line gives each worker's pid and private /stats URL; SIGTERM stops"
                        + " them all, and if one exits the others are stopped (default 1: this process serves)")
        int processes = 1;

        @Option(
                names = "--worker-jvm-opts",
                paramLabel = "OPTS",
                converter = JvmOptions.class,
                description = "with --processes: more JVM options for every worker, separated by spaces, after"
                        + " the defaults so they win (defaults " + WorkerLauncher.DEFAULT_JVM_OPTS + ")")
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
        static CommandLine parse(Options o, String... args) {
            CommandLine cl = new CommandLine(o).setOverwrittenOptionsAllowed(true);
            cl.parseArgs(args);
            if (!cl.getUnmatchedArguments().isEmpty()) {
                throw new UnmatchedArgumentException(cl, cl.getUnmatchedArguments());
            }
            if (o.workerJvmOpts != null && o.processes == 1) {
                throw new ParameterException(cl, "--worker-jvm-opts needs --processes 2 or more");
            }
            if (o.workerIndex >= 0 && o.processes != 1) {
                throw new ParameterException(cl, "a worker (--worker-index) does not take --processes");
            }
            return cl;
        }

        /** The connection cap: {@code --max-connections}, else a worker's default, else none. */
        int connectionCap() {
            if (maxConnections != null) {
                return maxConnections;
            }
            return processes > 1 || workerIndex >= 0 ? WorkerLauncher.DEFAULT_CONNECTIONS : Integer.MAX_VALUE;
        }
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
                int x = Integer.parseInt(v);
                if (x >= min && x <= max) {
                    return x;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new TypeConversionException("must be an integer in " + min + ".." + max + ": " + v);
        }
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
            super(1, 1024);
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
                int n = Integer.parseInt(v);
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

    /** {@code 300ms}, {@code 30s}, {@code 2m}, or a plain number of seconds; at least 1 ms. */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String v) {
            String s = v.trim().toLowerCase(Locale.ROOT);
            try {
                Duration d;
                if (s.endsWith("ms")) {
                    d = Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
                } else if (s.endsWith("s")) {
                    d = Duration.ofMillis(Math.round(Double.parseDouble(s.substring(0, s.length() - 1)) * 1000));
                } else if (s.endsWith("m")) {
                    d = Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1)) * 60);
                } else {
                    d = Duration.ofMillis(Math.round(Double.parseDouble(s) * 1000));
                }
                if (d.toMillis() >= 1) {
                    return d;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new TypeConversionException("must be a duration of at least 1ms such as 300ms, 30s or 2m: " + v);
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
