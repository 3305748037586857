package io.tickwork.client.pingpong;

import static io.tickwork.client.common.OptionValues.inRange;
import static io.tickwork.client.common.OptionValues.intInRange;

import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.HelpOption;
import io.tickwork.client.common.OpenFiles;
import io.tickwork.client.common.OptionValues;
import io.tickwork.client.common.OptionValues.CountConverter;
import io.tickwork.client.common.OptionValues.DurationConverter;
import io.tickwork.client.common.ReportOnSignal;
import io.tickwork.client.common.Targets;
import io.tickwork.client.common.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code pingpong} subcommand and its own subcommands: {@code run} (server and client in one
 * process, one model or all), {@code server}, {@code client}, {@code models}. Each command object
 * serves one command line; not thread safe.
 */
@Command(
        name = "pingpong",
        sortOptions = false,
        commandListHeading = "%nCommands:%n",
        synopsisSubcommandLabel = "run|server|client|models",
        description = {
            "4-byte Ping/Pong round trips against a server model (nio, threads, virtual, kilim), in one process"
                    + " or as separate server and client",
            "",
            "TCP ping-pong: C persistent connections, each sending a 4-byte \"Ping\" and waiting for \"Pong\", N"
                    + " round trips in total. Reports microseconds per ping (total time / N, the usual ping-pong"
                    + " metric) and round-trip percentiles (HdrHistogram). Compares server threading models.",
            ""
        })
public final class PingPongCommand implements Callable<Integer> {

    @Mixin
    HelpOption help = new HelpOption();

    @Spec
    CommandSpec spec;

    private PingPongCommand() {}

    /** The {@code pingpong} command and its subcommands, reporting to {@code out} ({@code err} unused). */
    public static CommandLine commandLine(PrintStream out, PrintStream err) {
        return new CommandLine(new PingPongCommand())
                .addSubcommand(new Run(out))
                .addSubcommand(new Server(out))
                .addSubcommand(new Client(out))
                .addSubcommand(new Models(out))
                .addSubcommand(new CommandLine.HelpCommand());
    }

    /** {@code pingpong} without a subcommand: its help, status 0. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    /** The client's options, shared by {@code run} and {@code client}; {@link #workload} checks them. */
    static final class ClientOptions {
        @Option(
                names = {"-c", "--connections"},
                paramLabel = "C",
                defaultValue = "100",
                converter = CountConverter.class,
                description = "client connections (default ${DEFAULT-VALUE})")
        long connections;

        @Option(
                names = {"-n", "--pings"},
                paramLabel = "N",
                defaultValue = "1m",
                converter = CountConverter.class,
                description = "round trips in total (default ${DEFAULT-VALUE}, accepts 200k)")
        long pings;

        @Option(
                names = "--warmup",
                paramLabel = "N",
                defaultValue = "100k",
                converter = CountConverter.class,
                description = "unmeasured round trips first, for the JIT (default ${DEFAULT-VALUE})")
        long warmup;

        @Option(
                names = {"-t", "--threads"},
                paramLabel = "T",
                converter = CountConverter.class,
                description = "client selector threads (default ${DEFAULT-VALUE}, half the cores)")
        long threads = OptionValues.HALF_THE_CORES;

        Workload workload() {
            Workload w = new Workload(
                    intInRange("--connections", connections, 1, 20_000),
                    intInRange("--threads", threads, 1, 256),
                    inRange("--pings", pings, 1, 1_000_000_000),
                    inRange("--warmup", warmup, 0, 1_000_000_000));
            if (w.pings() < w.connections()) {
                // connections that never send would still count in "pings over C connections"
                throw new UsageException("--pings " + w.pings() + " is fewer than --connections " + w.connections()
                        + ": every connection needs a ping");
            }
            return w;
        }
    }

    /** What the client does: connections, selector threads, measured and warm-up round trips. */
    record Workload(int connections, int threads, long pings, long warmup) {
        /**
         * Warm-up round trips (unmeasured), then the measured ones, against {@code target}; a
         * {@code control} stopped before or during the warm-up leaves the measured run empty.
         * Connections the warm-up lost to an error are said on {@code notes}.
         */
        PingPongClient.Result measure(
                InetSocketAddress target, Duration duration, boolean spin, RunControl control, PrintStream notes)
                throws IOException, InterruptedException {
            if (warmup > 0) {
                PingPongClient.Result w = control.start(new PingPongClient(target, connections, threads, spin))
                        .run(warmup, duration.toNanos());
                if (w.pings() == 0 && w.errors() > 0) {
                    throw new IOException("the warm-up got no ping answered: " + w.errors() + " of " + connections
                            + " connections ended in an error (is " + Targets.text(target) + " a pingpong server?)");
                }
                if (w.pings() == 0 && !w.stopped()) {
                    // a server that accepts and never answers: the measured run would only wait as long again
                    throw new IOException("the warm-up got no ping answered in its time limit (--duration "
                            + Fmt.duration(duration) + ", which opening the " + connections
                            + " connections uses too): is " + Targets.text(target)
                            + " a pingpong server, or the limit too short?");
                }
                if (w.errors() > 0) {
                    // the measured run opens connections of its own, so these would show nowhere else
                    notes.printf(
                            Locale.ROOT,
                            "warm-up: %d of %d connections ended in an error (the measured run opens its own)%n",
                            w.errors(),
                            connections);
                }
            }
            return control.start(new PingPongClient(target, connections, threads, spin))
                    .run(pings, duration.toNanos());
        }
    }

    /**
     * What a signal stops: the client running now and any started after, so that Ctrl-C or
     * SIGTERM ends the run with its report ({@link ReportOnSignal}). Any thread.
     */
    static final class RunControl {
        private volatile boolean stopped;
        private volatile PingPongClient current;

        /** Makes {@code c} the client to stop; stops it at once if the run is stopped already. */
        PingPongClient start(PingPongClient c) {
            current = c; // then the flag: a stop between the two is seen here or reaches c
            if (stopped) {
                c.stop();
            }
            return c;
        }

        void stop() {
            stopped = true;
            PingPongClient c = current;
            if (c != null) {
                c.stop();
            }
        }

        boolean stopped() {
            return stopped;
        }
    }

    /** Options of every mode that runs something: busy-polling and the time bound. */
    static final class RunOptions {
        @Option(
                names = "--spin",
                description = "busy-poll (selectNow) instead of sleeping in epoll_wait: the client's loops and,"
                        + " for run/server with -m nio, the server's; a core each")
        boolean spin;

        @Option(
                names = {"-D", "--duration"},
                paramLabel = "TIME",
                defaultValue = "60s",
                converter = DurationConverter.class,
                description = "run, client: bound on the warm-up and on the measured run, each; server: its"
                        + " lifetime (default ${DEFAULT-VALUE})")
        Duration duration;

        Duration duration() {
            return inRange("--duration", duration, Duration.ofMillis(100), Duration.ofHours(1));
        }
    }

    /** {@code pingpong run}: for each model asked for, a server in this process and the client against it. */
    @Command(
            name = "run",
            sortOptions = false,
            abbreviateSynopsis = true,
            description = {
                "server and client in this process, for one model or all; exit 1 when a run is short of its"
                        + " pings (connection errors, or --duration passed)",
                ""
            })
    static final class Run implements Callable<Integer> {
        @Option(
                names = {"-m", "--model"},
                paramLabel = "M",
                defaultValue = "nio",
                description = "server model: nio, threads, virtual (JDK 21+), kilim, or all (default ${DEFAULT-VALUE})")
        String model;

        @Option(
                names = "--server-threads",
                paramLabel = "T",
                converter = CountConverter.class,
                description = "nio: selector threads; kilim: run loops (default ${DEFAULT-VALUE}, half the cores)")
        long serverThreads = OptionValues.HALF_THE_CORES;

        @Mixin
        ClientOptions client = new ClientOptions();

        @Mixin
        RunOptions run = new RunOptions();

        @Mixin
        HelpOption help = new HelpOption();

        private final PrintStream out;

        Run(PrintStream out) {
            this.out = out;
        }

        @Override
        public Integer call() throws IOException, InterruptedException {
            Workload w = client.workload();
            // both ends of every connection live in this process
            OpenFiles.check(
                    "run with --connections " + w.connections(),
                    2L * w.connections(),
                    OpenFiles.limit(),
                    "use fewer, or the server and client modes in two processes");
            int threads = intInRange("--server-threads", serverThreads, 1, 256);
            Duration duration = run.duration();
            List<PingPongModel> models = model.equalsIgnoreCase("all")
                    ? List.of(PingPongModel.values())
                    : List.of(PingPongModel.parse(model, true));
            RunControl control = new RunControl();
            // Ctrl-C or SIGTERM: the model running ends early with its report, the rest do not start
            return ReportOnSignal.run("pingpong", control::stop, () -> {
                int status = 0;
                for (PingPongModel m : models) {
                    if (control.stopped()) {
                        break;
                    }
                    String why = m.unavailableReason();
                    if (why != null) {
                        out.printf("%s: unavailable: %s%n", m.id(), why);
                        if (models.size() == 1) {
                            status = 1; // the one model asked for: nothing was measured
                        }
                        continue;
                    }
                    PingPongClient.Result r = runModel(m, threads, w, duration, run.spin, control, out);
                    out.print(r.toText(m.id()));
                    out.flush();
                    if (r.pings() != w.pings()) {
                        status = 1;
                    }
                }
                return status;
            });
        }
    }

    /** {@code pingpong server}: one model's server on 127.0.0.1, for {@code --duration}. */
    @Command(
            name = "server",
            sortOptions = false,
            abbreviateSynopsis = true,
            description = {"server only, on 127.0.0.1, until --duration", ""})
    static final class Server implements Callable<Integer> {
        @Option(
                names = {"-m", "--model"},
                paramLabel = "M",
                defaultValue = "nio",
                description = "server model: nio, threads, virtual (JDK 21+), kilim (default ${DEFAULT-VALUE})")
        String model;

        @Option(
                names = "--server-threads",
                paramLabel = "T",
                converter = CountConverter.class,
                description = "nio: selector threads; kilim: run loops (default ${DEFAULT-VALUE}, half the cores)")
        long serverThreads = OptionValues.HALF_THE_CORES;

        @Option(
                names = "--port",
                paramLabel = "P",
                defaultValue = "0",
                converter = CountConverter.class,
                description = "port to listen on, 127.0.0.1 (default ${DEFAULT-VALUE} = any)")
        long port;

        @Mixin
        RunOptions run = new RunOptions();

        @Mixin
        HelpOption help = new HelpOption();

        private final PrintStream out;

        Server(PrintStream out) {
            this.out = out;
        }

        @Override
        public Integer call() throws IOException, InterruptedException {
            PingPongModel m = PingPongModel.parse(model, false);
            int threads = intInRange("--server-threads", serverThreads, 1, 256);
            int listen = intInRange("--port", port, 0, 65535);
            Duration duration = run.duration();
            try (PingPongServer s = m.create(threads, run.spin)) {
                InetSocketAddress at;
                try {
                    at = s.start(new InetSocketAddress("127.0.0.1", listen));
                } catch (BindException e) {
                    throw new UsageException("cannot listen on 127.0.0.1:" + listen + ": " + e.getMessage()
                            + " (another process listens there? choose another --port, or 0 for a free one)");
                }
                out.printf(
                        "pingpong server (%s: %s) listening on 127.0.0.1:%d for %s%n",
                        m.id(), m.description, at.getPort(), Fmt.duration(duration));
                out.flush();
                long end = System.nanoTime() + duration.toNanos();
                CountDownLatch never = new CountDownLatch(1);
                for (long left; s.failure() == null && (left = end - System.nanoTime()) > 0; ) {
                    never.await(Math.min(left, 100_000_000L), TimeUnit.NANOSECONDS); // a failure ends the run early
                }
                failIfFailed(m, s);
            }
            return 0;
        }
    }

    /** {@code pingpong client}: the client against a server at HOST:PORT, any host. */
    @Command(
            name = "client",
            sortOptions = false,
            abbreviateSynopsis = true,
            description = {
                "client only, against a pingpong server at HOST:PORT; exit 1 when the run is short of its"
                        + " pings (connection errors, or --duration passed)",
                ""
            })
    static final class Client implements Callable<Integer> {
        @Parameters(paramLabel = "HOST:PORT", description = "the server (any host, e.g. 127.0.0.1:9400)")
        String target;

        @Mixin
        ClientOptions client = new ClientOptions();

        @Mixin
        RunOptions run = new RunOptions();

        @Mixin
        HelpOption help = new HelpOption();

        private final PrintStream out;

        Client(PrintStream out) {
            this.out = out;
        }

        @Override
        public Integer call() throws IOException, InterruptedException {
            Workload w = client.workload();
            OpenFiles.check("--connections " + w.connections(), w.connections(), OpenFiles.limit(), "use fewer");
            Duration duration = run.duration();
            InetSocketAddress at = Targets.hostPort("HOST:PORT", target);
            RunControl control = new RunControl();
            // Ctrl-C or SIGTERM: the run ends early and its report still comes out
            return ReportOnSignal.run("pingpong", control::stop, () -> {
                PingPongClient.Result r = w.measure(at, duration, run.spin, control, out);
                out.print(r.toText("pingpong " + Targets.text(at)));
                out.flush();
                return r.pings() == w.pings() ? 0 : 1;
            });
        }
    }

    /** {@code pingpong models}: each model, and why it is unavailable on this JVM if it is. */
    @Command(
            name = "models",
            description = {"which models this JVM has", ""})
    static final class Models implements Callable<Integer> {
        @Mixin
        HelpOption help = new HelpOption();

        private final PrintStream out;

        Models(PrintStream out) {
            this.out = out;
        }

        @Override
        public Integer call() {
            for (PingPongModel m : PingPongModel.values()) {
                String why = m.unavailableReason();
                out.printf("%-8s %s%s%n", m.id(), m.description, why == null ? "" : "  [unavailable: " + why + "]");
            }
            return 0;
        }
    }

    /**
     * One model in this process: a fresh server on an ephemeral port, measured, then closed; notes
     * on the warm-up go to {@code out}.
     */
    static PingPongClient.Result runModel(
            PingPongModel m,
            int serverThreads,
            Workload w,
            Duration duration,
            boolean spin,
            RunControl control,
            PrintStream out)
            throws IOException, InterruptedException {
        try (PingPongServer s = m.create(serverThreads, spin)) {
            InetSocketAddress at = s.start(new InetSocketAddress("127.0.0.1", 0));
            PingPongClient.Result r;
            try {
                r = w.measure(at, duration, spin, control, out);
            } catch (IOException | RuntimeException clientFailed) {
                // a refused or reset connection may be the server's failure seen from the client
                if (s.failure() != null) {
                    IOException serverFailed = new IOException(
                            "the " + m.id() + " server failed during the run: " + s.failure(), s.failure());
                    serverFailed.addSuppressed(clientFailed);
                    throw serverFailed;
                }
                throw clientFailed;
            }
            failIfFailed(m, s);
            return r;
        }
    }

    /** Throws if {@code s}'s server failed during the run: its figures are not a measurement of it. */
    static void failIfFailed(PingPongModel m, PingPongServer s) throws IOException {
        Throwable f = s.failure();
        if (f != null) {
            throw new IOException("the " + m.id() + " server failed during the run: " + f, f);
        }
    }
}
